/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmarks on the run session (bench.h). A trial is a run: the rate set
 * on every sending port, the duration, start, wait, stop with its quiesce
 * and drain (session.h), the summary and JSON held back (app->ses.quiet); then
 * the counters of the receive side are read as a trial's results.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "bench.h"
#include "bench_report.h"
#include "parse.h"
#include "report.h"
#include "plan.h"
#include "session.h"
#include "sl_err.h"
#include "sl_loop.h"
#include "sl_hist.h"
#include "sl_rx.h"
#include "sl_wire.h"
#include "worker.h"

#define BENCH_MAX_SIZES 9
static const double lat_fracs[SL_BENCH_NB_LAT] = { 0, 0.1, 0.5, 0.9 };

static struct {
	bool ran, running, interrupted, warned;
	struct sl_bench_conf c;
	struct sl_bench_trial *trials;
	unsigned int nb_trials, cap_trials;
	struct sl_bench_size res[BENCH_MAX_SIZES];
	unsigned int nb_sizes, cur_size;
	char sizes[BENCH_MAX_SIZES][16];
	char status[256];
	/* The benchmark's own configuration: the user's, with the size under test
	 * (cfg), and each trial's, its loads and duration set (trial_cfg). The
	 * user's configuration is never written. */
	struct sl_config cfg, trial_cfg;
	struct sl_stream_conf base_sc; /* the user's frames at the start: each size's base */
	/*
	 * The benchmark in progress, a state machine the main lcore's loop
	 * steps: each trial is a run whose end (sl_session_on_end()) calls
	 * bench_trial_end(), which reads it and starts the next one (bench_next()).
	 */
	struct sl_app *app;
	bool tx[SL_MAX_PORTS];
	unsigned int nb_tx;
	enum { BP_SIZE, BP_SINGLE, BP_SEARCH, BP_LAT } phase;
	struct sl_search *s;        /* the size's search */
	struct sl_bench_params p;   /* the size's parameters */
	struct sl_trial_req q;      /* the search's trial in flight */
	bool said_ceiling;
	unsigned int lat_k;
	double lat_load;
	struct sl_bench_trial *t;      /* the trial in flight */
	double t_load, t_pace, t_dur, t_tol; /* what it was asked */
	int code;
	void (*done)(struct sl_app *app, int code, void *arg);
	void *done_arg;
} B;

/* ---- the trial ---- */

/*
 * Where stream s is received: the first receiving port it is addressed to,
 * else (a router in between: the DUT's MAC is the destination) the
 * receiving port that saw most of it; -1 if none did.
 */
static int
rx_of(const struct sl_app *app, const struct sl_results *res, uint16_t s)
{
	uint64_t most = 0;
	int best = -1;

	for (uint16_t r = 0; r < app->ports.n; r++)
		if (res->port[r].rx_on && app->ses.addressed[s][r])
			return r;
	for (uint16_t r = 0; r < app->ports.n; r++) {
		const struct sl_results_rx *x = sl_results_rx(res, s, r);

		if (x != NULL && x->st.rx > most) {
			most = x->st.rx;
			best = r;
		}
	}
	return best;
}

static void
lat_from_hist(const uint64_t *h, struct sl_bench_lat *l)
{
	uint64_t n = 0;
	double sum = 0;

	for (uint32_t b = 0; b < SL_HIST_BUCKETS; b++) {
		n += h[b];
		sum += (double)h[b] * (double)sl_hist_low(b);
	}
	l->valid = n != 0;
	if (!l->valid)
		return;
	l->p50 = sl_rx_hist_quantile(h, 0.5);
	l->p90 = sl_rx_hist_quantile(h, 0.9);
	l->p99 = sl_rx_hist_quantile(h, 0.99);
	l->p99_9 = sl_rx_hist_quantile(h, 0.999);
	l->mean = sum / (double)n;
}

/* The histogram's quantiles are bucket bounds: keep them within the exact min and max. */
static void
lat_clamp(struct sl_bench_lat *l)
{
	uint64_t *q[] = { &l->p50, &l->p90, &l->p99, &l->p99_9 };

	for (unsigned int i = 0; i < RTE_DIM(q); i++)
		*q[i] = RTE_MIN(RTE_MAX(*q[i], l->min), l->max);
	l->mean = fmin(fmax(l->mean, (double)l->min), (double)l->max);
}

/*
 * One trial: load pps on each sending port, for duration_s, frames evenly
 * spaced at @p pace pps (the load, or a little more where the generator is
 * known to fall short: search_size()). The frames really sent (the
 * drivers' count) are the base of the loss; a trial in which the generator
 * offered less than the load (by more than @p tol) is marked short: what
 * it says counts at what was offered (lib/bench). A trial stopped by the
 * user is marked interrupted.
 */
static void bench_trial_end(struct sl_app *app, void *arg);

/* Every flow of c's table sends the sizes of sc (a benchmark's size). */
static void
bench_sizes(struct sl_config *c, const struct sl_stream_conf *sc)
{
	for (uint16_t f = 0; f < c->nb_flows; f++) {
		struct sl_stream_conf *d = &c->flows[f].sc;

		memcpy(d->sizes, sc->sizes, sizeof(d->sizes));
		memcpy(d->weights, sc->weights, sizeof(d->weights));
		d->nb_sizes = sc->nb_sizes;
		d->size_min = sc->size_min;
		d->size_max = sc->size_max;
		c->flows[f].size_given = true;
	}
}

/*
 * The mean L1 and L2 bits per frame of the flows of c's sending ports
 * (tx), each flow an equal share (a trial's load is shared equally).
 */
static void
bench_bits(const struct sl_config *c, const struct sl_config_env *env, const bool *tx, double *l1,
	   double *l2)
{
	double s1 = 0, s2 = 0;
	unsigned int n = 0;

	for (uint16_t id = 0; id < sl_config_nb_streams(c, env); id++) {
		struct sl_stream_conf sc;
		double a, b;

		if (!tx[sl_config_stream_port(c, id)])
			continue;
		sl_config_stream(c, env, id, &sc);
		sl_stream_conf_mean_bits(&sc, &a, &b);
		s1 += a;
		s2 += b;
		n++;
	}
	if (n != 0) {
		*l1 = s1 / n;
		*l2 = s2 / n;
	}
}

/* A table's flows at their shares of the trial's port rates: each, and each port's sum, within the line. */
static int
bench_flow_rates(const struct sl_config *c, const struct sl_config_env *env, char *err, size_t len)
{
	struct sl_config_err e;

	if (c->nb_flows == 0 || sl_config_check(c, env, SL_CHECK_RATES, &e) == 0)
		return 0;
	snprintf(err, len, "%.200s", e.msg + (e.opt != NULL ? e.detail + 2 : 0));
	return -EINVAL;
}

/* dst: a copy of src sending the sizes of sc (NULL: as given). 0, or -ENOMEM (said). */
static int
bench_cfg(struct sl_config *dst, const struct sl_config *src, const struct sl_stream_conf *sc)
{
	if (sl_config_copy(dst, src) != 0) {
		sl_err("bench: out of memory");
		return -ENOMEM;
	}
	if (sc != NULL) {
		dst->sc = *sc;
		bench_sizes(dst, sc);
	}
	return 0;
}

static int
trial_start(struct sl_app *app, double load, double pace, double duration_s, double tol,
	    struct sl_bench_trial *t)
{
	struct sl_config *o = &B.trial_cfg;
	int ret;

	if (sl_config_copy(o, &B.cfg) != 0)
		return -ENOMEM;
	/* A trial's load is the port's: its flows share it equally, each to the trial's end. */
	for (uint16_t f = 0; f < o->nb_flows; f++) {
		o->flows[f].rate = (struct sl_rate){ SL_RATE_NONE, 0 };
		o->flows[f].count = 0;
		o->flows[f].delay_us = 0;
		o->flows[f].duration_us = 0;
		o->flows[f].burst_pkts = 0;
	}
	for (uint16_t p = 0; p < app->ports.n; p++) {
		o->pc[p].stopped = !B.tx[p];
		o->pc[p].rate = (struct sl_rate){ SL_RATE_PPS, pace };
	}
	o->duration_us = (uint64_t)(duration_s * 1e6 + 0.5);
	o->count = 0;
	o->pace_even = true;  /* RFC 2544: frames evenly spaced, no catch-up burst */
	B.t = t;
	B.t_load = load;
	B.t_pace = pace;
	B.t_dur = duration_s;
	B.t_tol = tol;
	ret = sl_session_start(app, o, true); /* quiet: no live line, summary or JSON */
	if (ret == 0)
		sl_session_on_end(app, bench_trial_end, NULL);
	else
		app->ses.quiet = false;
	return ret;
}

/* The trial's run has ended: stop it and read its results into B.t. */
static int
trial_collect(struct sl_app *app)
{
	const bool *tx = B.tx;
	struct sl_bench_trial *t = B.t;
	double load = B.t_load, pace = B.t_pace, duration_s = B.t_dur, tol = B.t_tol;
	uint64_t *hist = calloc(SL_HIST_BUCKETS, sizeof(*hist));
	unsigned int nb_tx = 0;
	bool drops_read[SL_MAX_PORTS] = { false };
	bool lat_any = false;
	struct sl_results *rs;
	double want;

	sl_session_stop(app);
	app->ses.quiet = false;
	rs = sl_results_take(app); /* the trial's results: read once, after its drain */
	if (hist == NULL || rs == NULL) {
		free(hist);
		sl_results_free(rs);
		return -ENOMEM;
	}
	memset(t, 0, sizeof(*t));
	t->load = load;
	t->paced = pace;
	t->duration_s = duration_s;
	t->lat.min = UINT64_MAX;
	for (uint16_t s = 0; s < app->ports.n; s++) {
		const struct sl_results_rx *x;
		struct sl_stream_result res;
		struct sl_bench_dir *d;
		int r;

		if (!tx[s])
			continue;
		nb_tx++;
		r = rx_of(app, rs, s);
		sl_results_stream(rs, s, r, &res);
		d = &t->dirs[t->nb_dirs++];
		d->tx_port = s;
		d->rx_port = r;
		d->tx = res.tx;
		d->rx = res.unique;
		d->lost = res.lost > 0 ? (uint64_t)res.lost : 0;
		t->tx += res.tx;
		t->rx += res.unique;
		t->lost += res.lost > 0 ? (uint64_t)res.lost : 0;
		t->dropped += rs->port[s].tot.dropped;
		t->backlog += rs->port[s].tot.backlog;
		t->let_go_frames += rs->port[s].pace.let_go_frames;
		t->asked += rs->port[s].pace.asked;
		t->unsent += rs->port[s].pace.unsent;
		t->let_go_ns = RTE_MAX(t->let_go_ns, rs->port[s].pace.let_go_ns);
		t->lag_max_us = fmax(t->lag_max_us,
				     (double)rs->port[s].pacer_lag_max * 1e6 / (double)rs->hz);
		t->behind_max_us = fmax(t->behind_max_us,
					(double)rs->port[s].pacer_behind_max * 1e6 / (double)rs->hz);
		if (r < 0)
			continue;
		/* A port's drops once, however many streams it receives. */
		if (!drops_read[r]) {
			const struct sl_port_rx_drops *dr = &rs->port[r].drops;

			t->rx_drops += dr->imissed + dr->ierrors + dr->rx_nombuf;
		}
		drops_read[r] = true;
		t->lat.backwards += res.st.lat_backwards;
		d->lat.backwards = res.st.lat_backwards;
		/* This direction's own histogram; the trial's is their sum. */
		x = sl_results_rx(rs, s, (uint16_t)r);
		if (x == NULL || x->hist == NULL)
			continue;
		for (uint32_t b = 0; b < SL_HIST_BUCKETS; b++)
			hist[b] += x->hist[b];
		if (res.st.lat_count != 0) {
			lat_any = true;
			t->lat.min = RTE_MIN(t->lat.min, res.st.lat_min);
			t->lat.max = RTE_MAX(t->lat.max, res.st.lat_max);
			lat_from_hist(x->hist, &d->lat);
			d->lat.min = res.st.lat_min;
			d->lat.max = res.st.lat_max;
			lat_clamp(&d->lat);
		}
	}
	if (lat_any) {
		lat_from_hist(hist, &t->lat);
		lat_clamp(&t->lat);
	} else {
		t->lat.min = 0;
	}
	free(hist);
	/* The generator's active time: its workers' first send to their last. */
	t->eff_s = rs->gen_last_tsc > rs->gen_first_tsc ?
		   (double)(rs->gen_last_tsc - rs->gen_first_tsc) / (double)rs->hz : duration_s;
	sl_results_free(rs);
	t->offered_pps = load * nb_tx;
	t->tx_pps = (double)t->tx / t->eff_s;
	t->rx_pps = (double)t->rx / t->eff_s;
	t->loss_ratio = t->tx != 0 ? (double)t->lost / (double)t->tx : 0;
	t->fwd_pps = t->rx_pps;
	/*
	 * Shortfall: fewer frames than the load asks over the generator's
	 * active time (the frames the engine dropped or still held were not
	 * sent: they are part of it). lib/bench judges the same way
	 * (sl_trial_res.achieved below the load by more than its tolerance).
	 */
	want = load * nb_tx * t->eff_s;
	t->fell_short = (double)t->tx < want * (1 - tol);
	t->interrupted = sl_interrupted();
	return 0;
}

/*
 * A trial's outcome goes on its progress line. At a terminal the prompt
 * answers while the trial runs: the progress line is ended at once, and the
 * outcome has a line of its own (trial_outcome()).
 */
static void
trial_begun(const struct sl_app *app)
{
	if (app->output_hook != NULL)
		printf("\n");
	fflush(stdout);
}

static void
trial_line(const struct sl_app *app)
{
	if (app->output_hook != NULL)
		printf(" ");
}

/* ---- the benchmark ---- */

static const char *
method_name(const struct sl_bench_conf *c)
{
	return c->single ? "trial" : sl_bench_method_name(c->p.method);
}

/* The benchmark as its views read it (view/bench_report.h). */
static struct sl_bench_record
bench_record(void)
{
	return (struct sl_bench_record){
		.method = method_name(&B.c), .single = B.c.single, .interrupted = B.interrupted,
		.p = &B.c.p, .load = B.c.load, .load_total = B.c.load_total,
		.trial_s = B.c.trial_s, .lat_s = B.c.lat_s, .trials = B.trials,
		.nb_trials = B.nb_trials, .res = B.res, .nb_sizes = B.nb_sizes,
	};
}

/* bench trial's load on each sending port: load=, or total= shared by nb_tx. */
static struct sl_rate
trial_rate(const struct sl_bench_conf *c, unsigned int nb_tx)
{
	struct sl_rate r = c->load;

	if (c->load_total && r.unit != SL_RATE_PCT)
		r.value /= nb_tx;
	return r;
}

static bool
rxmap_names(const struct sl_config *o, uint16_t r)
{
	for (uint16_t i = 0; i < o->nb_rxmap; i++)
		if (o->rxmap[i].port == r)
			return true;
	return false;
}

static struct sl_bench_trial *
trial_slot(void)
{
	if (B.nb_trials == B.cap_trials) {
		unsigned int n = B.cap_trials ? 2 * B.cap_trials : 256;
		struct sl_bench_trial *x = realloc(B.trials, n * sizeof(*x));

		if (x == NULL)
			return NULL;
		B.trials = x;
		B.cap_trials = n;
	}
	return &B.trials[B.nb_trials];
}

static double
rate_pps(const struct sl_rate *r, double line_bps, double l1, double l2)
{
	switch (r->unit) {
	case SL_RATE_PPS:
		return r->value;
	case SL_RATE_L1:
		return r->value / l1;
	case SL_RATE_L2:
		return r->value / l2;
	case SL_RATE_PCT:
		return line_bps > 0 ? r->value / 100 * line_bps / l1 : 0;
	default:
		return 0;
	}
}

static void
record(struct sl_bench_trial *t, unsigned int size, const char *kind, unsigned int goal)
{
	t->size = size;
	t->kind = kind;
	t->goal = goal;
	B.nb_trials++;
}

/* Once per benchmark: frames went out and not one came back anywhere. */
static void
warn_nothing_back(const struct sl_bench_trial *t)
{
	if (t->tx == 0 || t->rx != 0 || B.warned)
		return;
	B.warned = true;
	printf("\nbench: warning: %" PRIu64 " frames sent and none received on any receiving "
	       "port: is the DUT wired to a receiving port, and --eth-peer its MAC?\n", t->tx);
}

/* The shortfall that still counts as the load asked (lib/bench's rule). */
static double
shortfall_tol(const struct sl_bench_params *p)
{
	double w = 1;

	for (unsigned int i = 0; i < p->nb_goals; i++)
		w = fmin(w, p->goals[i].width);
	return fmin(SL_BENCH_SHORTFALL_MAX, w / 2);
}

/*
 * The benchmark as loop steps. bench_next() starts the next trial (or ends
 * the benchmark); the trial's run ends on the loop, and bench_trial_end()
 * reads it, prints its outcome, feeds the search, and calls bench_next()
 * again. Between two steps the loop serves the prompt: show bench, show
 * port stats, and stop (or Ctrl-C), which ends the trial in flight, shown
 * and not counted, and the benchmark with its partial report.
 */
static void bench_next(struct sl_app *app);

/* --json at the benchmark's end: the last trial's results, the user's configuration. */
static int
bench_json(struct sl_app *app)
{
	struct sl_results *r = sl_results_take(app);
	int ret = r == NULL ? -ENOMEM : sl_report_json(r, &app->cfg, app->o.json, app->json_extra);

	sl_results_free(r);
	return ret;
}

static void
bench_end(struct sl_app *app)
{
	const struct sl_bench_conf *conf = &B.c;
	void (*done)(struct sl_app *, int, void *) = B.done;
	int code = B.code;

	free(B.s);
	B.s = NULL;
	B.running = false;
	B.interrupted = sl_interrupted();
	if (code == SL_EXIT_OK) {
		struct sl_bench_record rec = bench_record();

		sl_bench_report_table(&rec);
		/* A search that ended without its goal says so in its exit code. */
		if (!conf->single) {
			bool reached = !B.interrupted;

			for (unsigned int i = 0; i < B.nb_sizes; i++)
				for (unsigned int g = 0; g < conf->p.nb_goals; g++)
					reached &= B.res[i].done && B.res[i].goal[g].converged &&
						   !B.res[i].goal[g].at_ceiling;
			if (!reached) {
				printf("bench: ended without its goal (%s): exit %d\n",
				       B.interrupted ? "interrupted" :
				       "a result short of its width, or the generator's ceiling",
				       SL_EXIT_BENCH_GOAL);
				code = SL_EXIT_BENCH_GOAL;
			}
		}
		/* The JSON's configuration is the user's: what the benchmark was given. */
		if (app->o.json != NULL && bench_json(app) != 0)
			code = SL_EXIT_RUNTIME;
	}
	fflush(stdout);
	B.done = NULL;
	if (done != NULL)
		done(app, code, B.done_arg);
}

/* A trial could not start: the benchmark ends (a failure, not a result). */
static void
bench_fail(struct sl_app *app, int ret)
{
	sl_err("bench: a trial could not start");
	B.code = ret == -EINVAL ? SL_EXIT_USAGE : SL_EXIT_RUNTIME;
	bench_end(app);
}

/* Size B.cur_size: its sizes in the configuration, its loads, its search. */
static void
size_begin(struct sl_app *app)
{
	unsigned int i = B.cur_size;
	struct sl_bench_size *r = &B.res[i];
	char err[256];

	B.cfg.sc = B.base_sc;
	/* The flows' own sizes, as the user gave them (a size before may have set them). */
	for (uint16_t f = 0; f < B.cfg.nb_flows && f < app->cfg.nb_flows; f++) {
		struct sl_flow_conf *d = &B.cfg.flows[f];

		memcpy(&d->sc.sizes, &app->cfg.flows[f].sc.sizes, sizeof(d->sc.sizes));
		memcpy(&d->sc.weights, &app->cfg.flows[f].sc.weights, sizeof(d->sc.weights));
		d->sc.nb_sizes = app->cfg.flows[f].sc.nb_sizes;
		d->sc.size_min = app->cfg.flows[f].sc.size_min;
		d->sc.size_max = app->cfg.flows[f].sc.size_max;
		d->size_given = app->cfg.flows[f].size_given;
	}
	if (strcmp(B.sizes[i], "given") != 0) {
		sl_parse_sizes(&B.cfg.sc, strcmp(B.sizes[i], "imix") == 0 ? SL_GEN_IMIX :
			       B.sizes[i], err, sizeof(err));
		bench_sizes(&B.cfg, &B.cfg.sc); /* every flow of the table sends them */
	}
	B.p = B.c.p;
	for (uint16_t t = 0; t < app->ports.n; t++) {
		double lb = (double)app->ports.p[t].info.speed_bps, l2 = r->mean_l1 - 160;

		if (!B.tx[t])
			continue;
		B.p.min_load = fmax(B.p.min_load, rate_pps(&B.c.min, lb, r->mean_l1, l2));
		B.p.max_load = B.p.max_load == 0 ? rate_pps(&B.c.max, lb, r->mean_l1, l2) :
				fmin(B.p.max_load, rate_pps(&B.c.max, lb, r->mean_l1, l2));
	}
	memset(B.s, 0, sizeof(*B.s));
	sl_search_init(B.s, &B.p);
	B.said_ceiling = false;
	B.lat_k = 0;
}

/* bench trial: size i's one trial, at the load asked on every sending port. */
static int
single_start(struct sl_app *app)
{
	unsigned int i = B.cur_size, nb = B.nb_sizes;
	const struct sl_bench_conf *conf = &B.c;
	struct sl_bench_size *r = &B.res[i];
	struct sl_rate rr = trial_rate(conf, B.nb_tx);
	struct sl_bench_trial *t = trial_slot();
	double load = 1e18;

	if (t == NULL)
		return -ENOMEM;
	for (uint16_t p = 0; p < app->ports.n; p++)
		if (B.tx[p])
			load = fmin(load, rate_pps(&rr, (double)app->ports.p[p].info.speed_bps,
						   r->mean_l1, r->mean_l1 - 160));
	printf("bench trial: size %s (%u/%u): %.6g pps x %u port(s) for %g s ...", r->name, i + 1,
	       nb, load, B.nb_tx, conf->trial_s);
	trial_begun(app);
	return trial_start(app, load, load, conf->trial_s, shortfall_tol(&conf->p), t);
}

static void
single_end(struct sl_app *app)
{
	unsigned int i = B.cur_size;
	struct sl_bench_size *r = &B.res[i];
	struct sl_bench_trial *t = B.t;

	record(t, i, "trial", 0);
	r->trials = 1;
	r->spent_s = B.c.trial_s;
	r->shorts = t->fell_short;
	warn_nothing_back(t);
	trial_line(app);
	sl_bench_report_outcome(t, B.nb_tx);
	printf("\n");
	snprintf(B.status, sizeof(B.status), "size %s (%u/%u), one trial", r->name, i + 1,
		 B.nb_sizes);
}

/* The search's next trial, if it has one (1: started; 0: the search is over). */
static int
search_start(struct sl_app *app)
{
	const struct sl_bench_params *p = &B.p;
	struct sl_search *s = B.s;
	struct sl_bench_size *r = &B.res[B.cur_size];
	struct sl_bench_trial *t;
	const char *gname;
	double top, pace;
	int ret;

	if (sl_interrupted() || !sl_search_next(s, &B.q))
		return 0;
	t = trial_slot();
	if (t == NULL)
		return -ENOMEM;
	gname = B.c.p.method == SL_BENCH_RFC2544 ? "throughput" : p->goals[B.q.goal].name;
	printf("bench %s: size %s (%u/%u) trial %u (%.4g of %g s): %s, %.6g pps x %u "
	       "port(s) for %g s ...", method_name(&B.c), r->name, B.cur_size + 1, B.nb_sizes,
	       s->trials + 1, s->spent_s, s->p.max_seconds, gname, B.q.load, B.nb_tx,
	       B.q.duration_s);
	trial_begun(app);
	/*
	 * The pace the search asks (lib/bench: a little above the load for a
	 * generator that fell short of its last ones), never above the line.
	 */
	top = r->line_pps / B.nb_tx;
	pace = fmin(B.q.pace > 0 ? B.q.pace : B.q.load, top > 0 ? top : B.q.pace);
	ret = trial_start(app, B.q.load, fmax(pace, B.q.load), B.q.duration_s, s->tol, t);
	return ret == 0 ? 1 : ret;
}

static void
search_end_trial(struct sl_app *app)
{
	const struct sl_bench_params *p = &B.p;
	struct sl_search *s = B.s;
	struct sl_bench_size *r = &B.res[B.cur_size];
	struct sl_bench_trial *t = B.t;
	const struct sl_trial_req *q = &B.q;
	const char *gname = B.c.p.method == SL_BENCH_RFC2544 ? "throughput" :
			    p->goals[q->goal].name;
	unsigned int i = B.cur_size, nb_tx = B.nb_tx;
	struct sl_bench_result b;
	struct sl_trial_res tr;

	if (t->interrupted) {
		/* Shown, not counted: it ran for less than its duration. */
		record(t, i, q->final ? "final" : "search", q->goal);
		t->lo = t->hi = t->counted = 0;
		trial_line(app);
		sl_bench_report_outcome(t, nb_tx);
		printf("\n");
		return;
	}
	B.q.pace = t->paced; /* the pace it ran at (the line may have capped the search's) */
	tr.loss_ratio = t->loss_ratio;
	tr.achieved = t->tx_pps / nb_tx;
	tr.forwarding = t->rx_pps / nb_tx;
	sl_search_record(s, q, &tr);
	sl_search_result(s, q->goal, &b);
	t->lo = b.lower;
	t->hi = b.upper;
	t->counted = s->last_at;
	record(t, i, q->final ? "final" : "search", q->goal);
	warn_nothing_back(t);
	trial_line(app);
	sl_bench_report_outcome(t, nb_tx);
	if (s->last_retry)
		printf("; short: run again, this one not counted");
	else if (s->last_at != q->load)
		printf("; counted at %.6g pps", s->last_at);
	printf("; %s bounds [%.6g, %.6g]\n", gname, b.lower, b.upper);
	if (s->gen_limited && !B.said_ceiling) {
		B.said_ceiling = true;
		printf("bench: size %s: generator-limited at %.4f Mpps (%.6g pps a port): the "
		       "search's loads stop there\n", r->name, s->gen_ceiling * nb_tx / 1e6,
		       s->gen_ceiling);
	}
	snprintf(B.status, sizeof(B.status), "size %s (%u/%u), trial %u, %.4g of %g s, %s "
		 "bounds [%.6g, %.6g] pps per port", r->name, i + 1, B.nb_sizes, s->trials,
		 s->spent_s, s->p.max_seconds, gname, b.lower, b.upper);
}

/* The size's search is over (converged, out of budget, or stopped): its results. */
static void
search_end(void)
{
	struct sl_search *s = B.s;
	struct sl_bench_size *r = &B.res[B.cur_size];

	for (unsigned int g = 0; g < B.p.nb_goals; g++)
		sl_search_result(s, g, &r->goal[g]);
	r->gen_limited = s->gen_limited;
	r->gen_ceiling = s->gen_ceiling;
	r->trials = s->trials;
	r->shorts = s->shorts;
	r->spent_s = s->spent_s;
	r->why = s->why;
	if (s->why != NULL)
		printf("bench: size %s: the search ended %s after %u trial(s), %.4g s of trial "
		       "time: the results are the bounds it found\n", r->name, s->why, s->trials,
		       s->spent_s);
}

/*
 * Latency at 0 %, 10, 50 and 90 % of the last goal's result: 0 % is a
 * low-rate baseline below every other point (the min load, or 1 % of the
 * result if that is lower). 1: a trial started; 0: none left.
 */
static int
lat_start(struct sl_app *app)
{
	const struct sl_bench_params *p = &B.p;
	struct sl_bench_size *r = &B.res[B.cur_size];
	double ref = r->goal[p->nb_goals - 1].achieved;
	struct sl_bench_record rec = bench_record();
	unsigned int k = B.lat_k;
	struct sl_bench_trial *t;

	if (k >= SL_BENCH_NB_LAT || ref <= 0 || sl_interrupted())
		return 0;
	t = trial_slot();
	if (t == NULL)
		return 0;
	B.lat_load = k == 0 ? fmin(p->min_load, ref / 100) : ref * lat_fracs[k];
	printf("bench: size %s latency at %s of %s: %.6g pps x %u for %g s ...", r->name,
	       sl_bench_lat_names[k], sl_bench_report_goal(&rec, p->nb_goals - 1), B.lat_load,
	       B.nb_tx, B.c.lat_s);
	trial_begun(app);
	/* One that cannot start ends the latency trials (as the last one would). */
	return trial_start(app, B.lat_load, B.lat_load, B.c.lat_s, shortfall_tol(p), t) == 0;
}

static void
lat_end(struct sl_app *app)
{
	const struct sl_bench_params *p = &B.p;
	struct sl_bench_size *r = &B.res[B.cur_size];
	struct sl_bench_trial *t = B.t;
	unsigned int k = B.lat_k++;

	r->lat_trial[k] = B.nb_trials;
	record(t, B.cur_size, "latency", p->nb_goals - 1);
	trial_line(app);
	if (t->interrupted) {
		sl_bench_report_outcome(t, B.nb_tx);
		printf("\n");
		return;
	}
	r->lat[k] = t->lat;
	r->lat_load[k] = B.lat_load;
	if (t->lat.valid)
		printf(" p50 %.1f us p99 %.1f us,", t->lat.p50 / 1e3, t->lat.p99 / 1e3);
	else
		printf(" no latency sample,");
	if (t->lat.backwards != 0)
		printf(" %" PRIu64 " ran backwards (docs/measure.md),", t->lat.backwards);
	sl_bench_report_outcome(t, B.nb_tx);
	printf("\n");
}

/* The next trial of the benchmark, or its end. */
static void
bench_next(struct sl_app *app)
{
	int ret;

	for (;;) {
		switch (B.phase) {
		case BP_SIZE:
			if (B.cur_size >= B.nb_sizes || sl_interrupted()) {
				bench_end(app);
				return;
			}
			size_begin(app);
			if (B.c.single) {
				B.phase = BP_SINGLE;
				ret = single_start(app);
				if (ret != 0)
					bench_fail(app, ret);
				return;
			}
			B.phase = BP_SEARCH;
			break;
		case BP_SEARCH:
			ret = search_start(app);
			if (ret == 1)
				return;
			if (ret < 0) {
				bench_fail(app, ret);
				return;
			}
			search_end();
			B.phase = BP_LAT;
			break;
		case BP_LAT:
			if (lat_start(app))
				return;
			/* the size is done */
			__attribute__((fallthrough));
		case BP_SINGLE:
			B.res[B.cur_size].done = !sl_interrupted();
			B.cur_size++;
			B.phase = BP_SIZE;
			break;
		}
	}
}

/* A trial's run is done (its duration, or a stop): read it, then the next step. */
static void
bench_trial_end(struct sl_app *app, void *arg)
{
	RTE_SET_USED(arg);
	if (app->output_hook != NULL)
		app->output_hook(app, true);
	if (trial_collect(app) != 0) {
		bench_fail(app, -ENOMEM);
	} else {
		if (B.phase == BP_SINGLE)
			single_end(app);
		else if (B.phase == BP_SEARCH)
			search_end_trial(app);
		else
			lat_end(app);
		fflush(stdout);
		bench_next(app);
	}
	if (app->output_hook != NULL)
		app->output_hook(app, false);
}

bool
sl_bench_busy(void)
{
	return B.running;
}

void
sl_bench_stop(void)
{
	if (!B.running)
		return;
	/* As Ctrl-C does: the trial in flight ends now, shown and not counted. */
	sl_run_interrupt();
}

static void
run_done(struct sl_app *app, int code, void *arg)
{
	RTE_SET_USED(app);
	*(int *)arg = code;
}

static bool
bench_idle(void *arg)
{
	RTE_SET_USED(arg);
	return !B.running;
}

int
sl_bench_run(struct sl_app *app, const struct sl_bench_conf *conf)
{
	int code = SL_EXIT_OK, ret;

	/* Its trials end on the main lcore's loop: without one, it would never end. */
	if (app->loop == NULL) {
		sl_err("bench: no main loop to run it on");
		return SL_EXIT_RUNTIME;
	}
	ret = sl_bench_start(app, conf, run_done, &code);
	if (ret != SL_EXIT_OK)
		return ret;
	sl_loop_run(app->loop, bench_idle, NULL);
	return code;
}

int
sl_bench_start(struct sl_app *app, const struct sl_bench_conf *conf,
	       void (*done)(struct sl_app *app, int code, void *arg), void *arg)
{
	const struct sl_config *o = &app->cfg; /* the user's: read, never written */
	const struct sl_config_env *env = sl_session_env(app);
	struct sl_config_err e;
	char err[256], names[BENCH_MAX_SIZES][16];
	struct sl_bench_size res[BENCH_MAX_SIZES];
	unsigned int nb = 0, nb_tx = 0;
	bool tx[SL_MAX_PORTS] = { false };
	char list[128];
	if (B.running) {
		sl_err("bench: a benchmark is running (stop ends it)");
		return SL_EXIT_USAGE;
	}
	if (app->ses.running) {
		sl_err("bench: traffic is running (stop first)");
		return SL_EXIT_USAGE;
	}
	app->json_extra = sl_bench_json; /* the JSON summary gets the bench section */
	sl_plan_address(app, o);         /* where each port's stream goes, before any start */
	/* Which ports send, and does each have a receiver? */
	for (unsigned int p = app->ports.n; p < 32; p++)
		if (conf->tx_given && conf->tx[p]) {
			sl_err("bench: tx: there is no port %u (ports 0..%u)", p, app->ports.n - 1);
			return SL_EXIT_USAGE;
		}
	for (uint16_t p = 0; p < app->ports.n; p++) {
		tx[p] = conf->tx_given ? conf->tx[p] : !o->pc[p].stopped;
		if (tx[p] && sl_config_port_streams(o, env, p) == 0) {
			/* The flow table has no flow on it: it sends nothing. */
			if (conf->tx_given) {
				sl_err("bench: tx: port %u has no flow (flow add NAME port %u ...): "
				       "give it one or leave it out of tx=", p, p);
				return SL_EXIT_USAGE;
			}
			tx[p] = false;
		}
		if (tx[p] && !sl_config_port_has_lcore(o, p)) {
			/* No lcore sends on it: named, an error; by default, left out. */
			if (conf->tx_given) {
				sl_err("bench: tx: port %u has no TX lcore in --map: map one to it "
				       "(e.g. --map 1:0.0,2:%u.0) or leave it out of tx=", p, p);
				return SL_EXIT_USAGE;
			}
			printf("bench: port %u has no TX lcore in --map: it does not send (tx= "
			       "names the sending ports)\n", p);
			tx[p] = false;
		}
		nb_tx += tx[p];
	}
	if (nb_tx == 0) {
		sl_err("bench: no sending port: map a TX lcore to a port (--map) and name it with "
		       "tx=");
		return SL_EXIT_USAGE;
	}
	for (uint16_t s = 0; s < app->ports.n; s++) {
		bool rcv = false;

		if (!tx[s])
			continue;
		/* Addressed to a receiving port, or (a router in between) the
		 * user named the receiving ports: --rx or --rxmap. */
		for (uint16_t r = 0; r < app->ports.n; r++) {
			bool named = (o->rx_mode == SL_RX_LIST && o->rx_port[r]) ||
				     o->rx_mode == SL_RX_ALL || rxmap_names(o, r);

			/* Named: trusted, the sending port too (a DUT that sends its
			 * frames back to it); a trial that gets nothing back says so. */
			if ((app->ses.addressed[s][r] && (o->rx_mode != SL_RX_LIST || o->rx_port[r])) ||
			    named)
				rcv = true;
		}
		if (!rcv) {
			sl_err("bench: port %u sends to no receiving port: a benchmark needs what comes "
			       "back (a sim with dut=PORT, --eth-peer to a port that receives, --rx)",
			       s);
			return SL_EXIT_USAGE;
		}
	}
	/* The sizes: sizes=..., else what --size/--imix set (as one mix). */
	if (conf->sizes[0] != '\0') {
		char *save = NULL, *x;

		snprintf(list, sizeof(list), "%s", conf->sizes);
		for (x = strtok_r(list, ":", &save); x != NULL; x = strtok_r(NULL, ":", &save)) {
			if (nb == BENCH_MAX_SIZES) {
				sl_err("bench: sizes: at most %d", BENCH_MAX_SIZES);
				return SL_EXIT_USAGE;
			}
			snprintf(names[nb++], sizeof(names[0]), "%s", x);
		}
	} else {
		nb = 1;
		/* The flows of a table keep their own sizes. */
		snprintf(names[0], sizeof(names[0]), "%s", o->size_given || o->nb_flows != 0 ?
			 "given" : "64");
	}
	/*
	 * Check every size and the loads on every sending port before anything
	 * runs, into res: a refused benchmark leaves the last one's results.
	 */
	memset(res, 0, sizeof(res));
	for (unsigned int i = 0; i < nb; i++) {
		struct sl_stream_conf sc = o->sc;
		struct sl_bench_size *r = &res[i];
		double l1, l2, line = 0, mn, mx;
		struct sl_bench_params p = conf->p;

		if (strcmp(names[i], "given") != 0 &&
		    sl_parse_sizes(&sc, strcmp(names[i], "imix") == 0 ? SL_GEN_IMIX : names[i], err,
				   sizeof(err)) != 0) {
			sl_err("bench: sizes: %s: %s", names[i], err);
			return SL_EXIT_USAGE;
		}
		sl_stream_conf_mean_bits(&sc, &l1, &l2);
		if (o->nb_flows != 0 && bench_cfg(&B.trial_cfg, o, strcmp(names[i], "given") != 0 ?
						  &sc : NULL) == 0)
			bench_bits(&B.trial_cfg, env, tx, &l1, &l2); /* the sending flows' mean */
		snprintf(r->name, sizeof(r->name), "%.15s", names[i]);
		r->mean_l1 = l1;
		r->nb_tx = nb_tx;
		mn = 0;
		mx = 1e18;
		for (uint16_t s = 0; s < app->ports.n; s++) {
			double lb = (double)app->ports.p[s].info.speed_bps;
			struct sl_rate pace, rr = conf->single ? trial_rate(conf, nb_tx) : conf->max;

			if (!tx[s])
				continue;
			if (bench_cfg(&B.trial_cfg, o,
				      strcmp(names[i], "given") != 0 ? &sc : NULL) != 0)
				return SL_EXIT_RUNTIME;
			for (uint16_t id = 0; id < sl_config_nb_streams(o, env); id++)
				if (sl_config_stream_port(o, id) == s &&
				    sl_config_stream_build(&B.trial_cfg, env, id, NULL, &e) != 0) {
					sl_err("bench: size %s: %s", names[i], e.msg);
					return SL_EXIT_USAGE;
				}
			B.trial_cfg.pc[s].rate = rr;
			for (uint16_t f = 0; f < B.trial_cfg.nb_flows; f++)
				B.trial_cfg.flows[f].rate = (struct sl_rate){ SL_RATE_NONE, 0 };
			if (sl_config_rate(&B.trial_cfg, env, s, &rr, &pace, err, sizeof(err)) != 0 ||
			    bench_flow_rates(&B.trial_cfg, env, err, sizeof(err)) != 0) {
				if (conf->single && conf->load_total)
					sl_err("bench: total: each of the %u sending ports' share: %s",
					       nb_tx, err);
				else
					sl_err("bench: %s: %s", conf->single ? "load" : "max", err);
				return SL_EXIT_USAGE;
			}
			line += lb / l1;
			mn = fmax(mn, rate_pps(&conf->min, lb, l1, l2));
			mx = fmin(mx, rate_pps(&conf->max, lb, l1, l2));
		}
		r->line_pps = line;
		p.min_load = mn;
		p.max_load = mx;
		if (!conf->single && sl_bench_params_check(&p, err, sizeof(err)) != 0) {
			sl_err("bench: %s (size %s)", err, names[i]);
			return SL_EXIT_USAGE;
		}
	}
	/* Go: the first trial starts now, the loop steps the others. */
	B.s = calloc(1, sizeof(*B.s));
	if (B.s == NULL)
		return SL_EXIT_RUNTIME;
	memcpy(B.res, res, sizeof(res));
	free(B.trials);
	B.trials = NULL;
	B.nb_trials = B.cap_trials = 0;
	B.c = *conf;
	B.nb_sizes = nb;
	memcpy(B.sizes, names, sizeof(B.sizes));
	memcpy(B.tx, tx, sizeof(B.tx));
	B.nb_tx = nb_tx;
	B.app = app;
	B.ran = true;
	B.running = true;
	B.interrupted = false;
	B.warned = false;
	if (sl_config_copy(&B.cfg, o) != 0) {
		sl_err("bench: out of memory");
		return SL_EXIT_RUNTIME;
	}
	B.base_sc = o->sc;
	B.cur_size = 0;
	B.phase = BP_SIZE;
	B.code = SL_EXIT_OK;
	B.done = done;
	B.done_arg = arg;
	bench_next(app);
	return SL_EXIT_OK;
}

void
sl_bench_show(void)
{
	if (!B.ran) {
		printf("no benchmark has run (bench mlr|rfc2544|trial [<params>])\n");
		return;
	}
	printf("bench %s: %s, %u trial(s)\n", method_name(&B.c),
	       B.running ? "running" : B.interrupted ? "interrupted" : "done", B.nb_trials);
	if (B.status[0] != '\0')
		printf("  last: %s\n", B.status);
	if (!B.running) {
		struct sl_bench_record rec = bench_record();

		sl_bench_report_table(&rec);
	}
}

void
sl_bench_json(struct sl_json *j)
{
	struct sl_bench_record rec;

	if (!B.ran)
		return;
	rec = bench_record();
	sl_bench_report_json(j, &rec);
}

