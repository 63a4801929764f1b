/* SPDX-License-Identifier: BSD-3-Clause */
/* --bench SPEC and `bench METHOD [PARAMS]`: the request, parsed (bench.h). */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "parse.h"

#define BENCH_MIN_S 0.001      /* the shortest trial: a duration of 0 would mean "no end" */
#define BENCH_TRIAL_S 10.0     /* bench trial's duration when trial= is not given */

static int
parse_dbl(const char *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (*v == '\0' || *end != '\0' || errno != 0 || !(d >= lo && d <= hi))
		return -1;
	*out = d;
	return 0;
}

int
sl_bench_parse(const char *method, const char *params, struct sl_bench_conf *c, char *err,
	       size_t len)
{
	char buf[512], *save = NULL, *tok;
	const char *search_key = NULL; /* a search's key given to trial */
	bool load_seen = false;
	enum sl_bench_method m;

	memset(c, 0, sizeof(*c));
	if (strcmp(method, "mlr") == 0)
		m = SL_BENCH_MLR;
	else if (strcmp(method, "rfc2544") == 0 || strcmp(method, "trial") == 0)
		m = SL_BENCH_RFC2544;
	else {
		snprintf(err, len, "'%s' is not a method (mlr, rfc2544 or trial)", method);
		return -EINVAL;
	}
	sl_bench_params_default(&c->p, m);
	c->min = (struct sl_rate){ SL_RATE_PCT, 0.1 };
	c->max = (struct sl_rate){ SL_RATE_PCT, 100 };
	c->lat_s = 5;
	c->single = strcmp(method, "trial") == 0;
	if (c->single)
		c->trial_s = BENCH_TRIAL_S;
	if (params == NULL)
		goto check;
	if (strlen(params) >= sizeof(buf)) {
		snprintf(err, len, "parameters too long");
		return -EINVAL;
	}
	strcpy(buf, params);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *v = strchr(tok, '=');
		double d;

		if (v == NULL) {
			snprintf(err, len, "'%s' is not key=value", tok);
			return -EINVAL;
		}
		*v++ = '\0';
		if (c->single && search_key == NULL &&
		    (strcmp(tok, "min") == 0 || strcmp(tok, "max") == 0 ||
		     strcmp(tok, "width") == 0 || strcmp(tok, "loss") == 0 ||
		     strcmp(tok, "exceed") == 0 || strcmp(tok, "initial") == 0 ||
		     strcmp(tok, "final") == 0 || strcmp(tok, "sum") == 0 || strcmp(tok, "lat") == 0 ||
		     strcmp(tok, "budget") == 0 || strcmp(tok, "max-trials") == 0))
			search_key = tok;
		if (strcmp(tok, "min") == 0 || strcmp(tok, "max") == 0) {
			struct sl_rate r;

			if (sl_rate_parse(v, &r) != 0 || r.unit == SL_RATE_NONE || !(r.value > 0)) {
				snprintf(err, len, "%s: '%s' is not a load (%s)", tok, v,
					 SL_RATE_SYNTAX);
				return -EINVAL;
			}
			*(tok[1] == 'i' ? &c->min : &c->max) = r;
		} else if (strcmp(tok, "load") == 0 || strcmp(tok, "total") == 0) {
			if (!c->single) {
				snprintf(err, len, "%s: only for 'trial' (a search sets the loads)",
					 tok);
				return -EINVAL;
			}
			if (load_seen) {
				snprintf(err, len, "%s: give load= or total=, once", tok);
				return -EINVAL;
			}
			load_seen = true;
			if (sl_rate_parse(v, &c->load) != 0 || c->load.unit == SL_RATE_NONE ||
			    !(c->load.value > 0)) {
				snprintf(err, len, "%s: '%s' is not a load (%s)", tok, v,
					 SL_RATE_SYNTAX);
				return -EINVAL;
			}
			c->load_total = tok[0] == 't';
		} else if (strcmp(tok, "width") == 0) {
			if (parse_dbl(v, -1e9, 1e9, &d) != 0 || !(d > 0 && d < 1)) {
				snprintf(err, len, "width: '%s' is not a relative goal width above 0 "
					 "and below 1 (such as 0.005)", v);
				return -EINVAL;
			}
			for (unsigned int i = 0; i < SL_BENCH_MAX_GOALS; i++)
				c->p.goals[i].width = d;
		} else if (strcmp(tok, "loss") == 0) {
			/* rfc2544: the tolerance; mlr: the goals' loss ratios, NDR first */
			char *s2 = NULL, *x;
			unsigned int n = 0;
			struct sl_bench_goal g0 = c->p.goals[0];

			for (x = strtok_r(v, ":", &s2); x != NULL; x = strtok_r(NULL, ":", &s2)) {
				if (parse_dbl(x, -1e9, 1e9, &d) != 0 || !(d >= 0 && d <= 1)) {
					snprintf(err, len, "loss: goal loss ratio '%s' is not from 0 to "
						 "1 (such as 0 or 0.005)", x);
					return -EINVAL;
				}
				if (n == SL_BENCH_MAX_GOALS || (m == SL_BENCH_RFC2544 && n == 1)) {
					snprintf(err, len, "loss: at most %d goals",
						 m == SL_BENCH_RFC2544 ? 1 : SL_BENCH_MAX_GOALS);
					return -EINVAL;
				}
				c->p.goals[n] = g0;
				c->p.goals[n].loss_ratio = d;
				snprintf(c->p.goals[n].name, sizeof(c->p.goals[n].name), "%s",
					 d == 0 ? "NDR" : n == 0 ? "LR" : "PDR");
				n++;
			}
			if (n == 0) {
				snprintf(err, len, "loss: no goal loss ratio");
				return -EINVAL;
			}
			c->p.nb_goals = n;
		} else if (strcmp(tok, "exceed") == 0 || strcmp(tok, "initial") == 0 ||
			   strcmp(tok, "final") == 0 || strcmp(tok, "sum") == 0 ||
			   strcmp(tok, "trial") == 0 || strcmp(tok, "lat") == 0) {
			bool ratio = tok[0] == 'e';
			uint64_t us;

			if (ratio ? parse_dbl(v, 0, 1, &d) != 0 || d == 1 :
			    sl_parse_seconds(v, &us, err, len) != 0 || us < BENCH_MIN_S * 1e6) {
				snprintf(err, len, ratio ? "%s: '%s' is not a ratio from 0 to 1 "
					 "(1 excluded)" : "%s: '%s' is not a duration from %g s to %d s; "
					 "a unit may follow: s, ms, us", tok, v, BENCH_MIN_S,
					 SL_MAX_SECONDS);
				return -EINVAL;
			}
			if (!ratio)
				d = us / 1e6;
			for (unsigned int i = 0; i < SL_BENCH_MAX_GOALS; i++) {
				struct sl_bench_goal *g = &c->p.goals[i];

				if (tok[0] == 'e')
					g->exceed_ratio = d;
				else if (tok[0] == 'i')
					g->initial_s = d;
				else if (tok[0] == 'f')
					g->final_s = d, g->sum_s = fmax(g->sum_s, d);
				else if (tok[0] == 's')
					g->sum_s = d;
				else if (tok[0] == 't')
					g->initial_s = g->final_s = g->sum_s = d;
			}
			if (tok[0] == 'l')
				c->lat_s = d;
			if (tok[0] == 't')
				c->trial_s = d;
		} else if (strcmp(tok, "budget") == 0) {
			uint64_t us;

			if (sl_parse_seconds(v, &us, err, len) != 0 || us < 1000000) {
				snprintf(err, len, "budget: '%s' is not a duration from 1 s to %d s "
					 "(the trial time a size's search may use)", v, SL_MAX_SECONDS);
				return -EINVAL;
			}
			c->p.max_seconds = us / 1e6;
		} else if (strcmp(tok, "max-trials") == 0) {
			uint64_t n;

			if (sl_parse_u64(v, 1, SL_BENCH_MAX_TRIALS, &n, err, len) != 0) {
				snprintf(err, len, "max-trials: '%s' is not a number of trials from 1 to "
					 "%d", v, SL_BENCH_MAX_TRIALS);
				return -EINVAL;
			}
			c->p.max_trials = (unsigned int)n;
		} else if (strcmp(tok, "sizes") == 0) {
			snprintf(c->sizes, sizeof(c->sizes), "%s",
				 strcmp(v, "rfc2544") == 0 ? "64:128:256:512:1024:1280:1518:imix" : v);
		} else if (strcmp(tok, "tx") == 0) {
			char *s2 = NULL, *x;

			for (x = strtok_r(v, ":", &s2); x != NULL; x = strtok_r(NULL, ":", &s2)) {
				uint64_t pid;

				if (sl_parse_u64(x, 0, SL_MAX_PORTS - 1, &pid, err, len) != 0) {
					snprintf(err, len, "tx: '%s' is not a port number", x);
					return -EINVAL;
				}
				c->tx[pid] = true;
				c->tx_given = true;
			}
		} else {
			snprintf(err, len, "unknown parameter '%s' (min, max, width, loss, exceed, "
				 "initial, final, sum, trial, lat, budget, max-trials, sizes, tx; "
				 "trial: load, total)", tok);
			return -EINVAL;
		}
	}
check:
	if (search_key != NULL) {
		snprintf(err, len, "%s: a search's parameter; a trial takes load= or total=, "
			 "trial=, sizes= and tx=", search_key);
		return -EINVAL;
	}
	if (c->single && c->load.unit == SL_RATE_NONE) {
		snprintf(err, len, "trial: give the load: load=RATE (each sending port) or "
			 "total=RATE (shared by them), and trial=SECONDS (default %g)",
			 BENCH_TRIAL_S);
		return -EINVAL;
	}
	/* The sum only matters in mlr; keep it consistent with the final duration. */
	for (unsigned int i = 0; i < SL_BENCH_MAX_GOALS; i++)
		if (c->p.goals[i].sum_s < c->p.goals[i].final_s)
			c->p.goals[i].sum_s = c->p.goals[i].final_s;
	if (c->min.unit == c->max.unit && c->min.value > c->max.value) {
		snprintf(err, len, "min: the minimum load is above max");
		return -EINVAL;
	}
	return 0;
}

