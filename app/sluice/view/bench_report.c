/* SPDX-License-Identifier: BSD-3-Clause */
/* A benchmark's views (bench_report.h): from its record only. */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_report.h"

const char *const sl_bench_lat_names[SL_BENCH_NB_LAT] = { "0%", "10%", "50%", "90%" };

/* With several sending ports, each direction's loss (and latency) too. */
static void
print_dirs(const struct sl_bench_trial *t)
{
	if (t->nb_dirs < 2)
		return;
	for (unsigned int k = 0; k < t->nb_dirs; k++) {
		const struct sl_bench_dir *d = &t->dirs[k];

		printf("%s%u->", k == 0 ? " [" : ", ", d->tx_port);
		if (d->rx_port >= 0)
			printf("%d", d->rx_port);
		else
			printf("?");
		printf(" loss %.4g%%", d->tx != 0 ? 100.0 * (double)d->lost / (double)d->tx : 0);
		if (d->lat.valid)
			printf(" p99 %.1f us", d->lat.p99 / 1e3);
	}
	printf("]");
}

/* A trial's outcome on its progress line (after "..."). */
void
sl_bench_report_outcome(const struct sl_bench_trial *t, unsigned int nb_tx)
{
	printf(" loss %.4g%% (tx %" PRIu64 " rx %" PRIu64 ")", 100 * t->loss_ratio, t->tx, t->rx);
	print_dirs(t);
	if (t->fell_short)
		printf("; short: %.6g pps a port offered, %.2f %% of the load", t->tx_pps / nb_tx,
		       t->offered_pps > 0 ? 100 * t->tx_pps / t->offered_pps : 0);
	if (t->let_go_frames != 0)
		printf("; let go %" PRIu64 " frames (%.3f ms: its lcore did not run)",
		       t->let_go_frames, t->let_go_ns / 1e6);
	if (t->interrupted)
		printf(" (interrupted: not counted)");
}

/* bench trial's report: each trial's measurer outputs (RFC 9971 section 5). */
static void
print_trials(const struct sl_bench_record *b)
{
	printf("\nbench trial%s: %u trial(s) (rates aggregate over the sending ports)\n",
	       b->interrupted ? " (interrupted: partial)" : "", b->nb_trials);
	printf("%-6s %10s %10s %10s %10s %9s %8s %8s %9s %9s %9s\n", "size", "offered", "tx",
	       "rx", "forwarded", "loss", "eff", "rxdrops", "lat p50", "p99", "max");
	printf("%-6s %10s %10s %10s %10s %9s %8s %8s %9s %9s %9s\n", "", "Mpps", "Mpps", "Mpps",
	       "Mpps", "%", "s", "", "us", "us", "us");
	for (unsigned int k = 0; k < b->nb_trials; k++) {
		const struct sl_bench_trial *t = &b->trials[k];

		printf("%-6s %10.4f %10.4f %10.4f %10.4f %9.4g %8.3f %8" PRIu64, b->res[t->size].name,
		       t->offered_pps / 1e6, t->tx_pps / 1e6, t->rx_pps / 1e6, t->fwd_pps / 1e6,
		       100 * t->loss_ratio, t->eff_s, t->rx_drops);
		if (t->lat.valid)
			printf(" %9.1f %9.1f %9.1f", t->lat.p50 / 1e3, t->lat.p99 / 1e3,
			       t->lat.max / 1e3);
		else
			printf(" %9s %9s %9s", "-", "-", "-");
		printf("%s%s\n", t->fell_short ? "  short (the generator offered less)" : "",
		       t->interrupted ? "  interrupted" : "");
	}
}

const char *
sl_bench_report_goal(const struct sl_bench_record *b, unsigned int g)
{
	return b->p->method == SL_BENCH_RFC2544 ? "thru" : b->p->goals[g].name;
}

void
sl_bench_report_table(const struct sl_bench_record *b)
{
	const struct sl_bench_params *p = b->p;
	bool unconverged = false, ceiling = false;

	if (b->single) {
		print_trials(b);
		return;
	}
	printf("\nbench %s%s: results (per size; aggregate over %u sending port(s))\n",
	       b->method, b->interrupted ? " (interrupted: partial)" : "",
	       b->res[0].nb_tx);
	printf("%-6s", "size");
	for (unsigned int g = 0; g < p->nb_goals; g++)
		printf(" %5s(%-5g) Mpps    Gb/s  %%line", sl_bench_report_goal(b, g), p->goals[g].loss_ratio);
	printf("   lat p50/p99 us at 0%%  10%%  50%%  90%%\n");
	for (unsigned int i = 0; i < b->nb_sizes; i++) {
		const struct sl_bench_size *r = &b->res[i];

		if (!r->done && !(b->interrupted && r->trials != 0))
			continue;
		printf("%-6s", r->name);
		for (unsigned int g = 0; g < p->nb_goals; g++) {
			const struct sl_bench_result *x = &r->goal[g];
			double pps = x->achieved * r->nb_tx;
			const char *mark = !x->converged ? "?" : x->at_ceiling ? ">" : " ";

			printf(" %12.4f%s %7.3f %6.2f", pps / 1e6, mark, pps * r->mean_l1 / 1e9,
			       r->line_pps > 0 ? 100 * pps / r->line_pps : 0);
			unconverged |= !x->converged;
			ceiling |= x->converged && x->at_ceiling;
		}
		printf("  ");
		for (unsigned int k = 0; k < SL_BENCH_NB_LAT; k++)
			if (r->lat[k].valid)
				printf(" %.1f/%.1f", r->lat[k].p50 / 1e3, r->lat[k].p99 / 1e3);
			else
				printf(" -");
		printf("\n");
		/* Each direction's latency at the same loads, under the aggregate. */
		for (unsigned int d = 0; r->nb_tx > 1 && d < r->nb_tx; d++) {
			const struct sl_bench_dir *x = NULL;

			for (unsigned int k = 0; k < SL_BENCH_NB_LAT; k++)
				if (r->lat[k].valid) {
					x = &b->trials[r->lat_trial[k]].dirs[d];
					break;
				}
			if (x == NULL)
				break;
			if (x->rx_port >= 0)
				printf("  %2u->%-2d", x->tx_port, x->rx_port);
			else
				printf("  %2u->? ", x->tx_port);
			printf("%*s", (int)(p->nb_goals * 29 + 2) - 8, "");
			for (unsigned int k = 0; k < SL_BENCH_NB_LAT; k++) {
				const struct sl_bench_lat *l = &b->trials[r->lat_trial[k]].dirs[d].lat;

				if (r->lat[k].valid && l->valid)
					printf(" %.1f/%.1f", l->p50 / 1e3, l->p99 / 1e3);
				else
					printf(" -");
			}
			printf("\n");
		}
		printf("  %u trial(s), %.1f s of trial time (budget %u trials, %g s)%s%s", r->trials,
		       r->spent_s, p->max_trials != 0 ? p->max_trials : SL_BENCH_MAX_TRIALS,
		       p->max_seconds > 0 ? p->max_seconds : SL_BENCH_MAX_SECONDS,
		       r->why != NULL ? "; ended: " : "", r->why != NULL ? r->why : "");
		printf("; the generator fell short in %u\n", r->shorts);
		if (r->gen_limited)
			printf("  generator-limited at %.4f Mpps (%.6g pps a port): the loads searched "
			       "stop there\n", r->gen_ceiling * r->nb_tx / 1e6, r->gen_ceiling);
	}
	if (unconverged)
		printf("(? : the search ended before the goal width: the lower bound so far; "
		       "show bench)\n");
	if (ceiling)
		printf("(> : the generator's ceiling: the DUT forwarded all the generator could "
		       "offer; its own result is at least that)\n");
}

static void
json_lat(struct sl_json *j, const char *key, const struct sl_bench_lat *l)
{
	sl_json_obj_open(j, key);
	if (l->valid) {
		sl_json_u64(j, "min", l->min);
		sl_json_dbl(j, "mean", l->mean);
		sl_json_u64(j, "p50", l->p50);
		sl_json_u64(j, "p90", l->p90);
		sl_json_u64(j, "p99", l->p99);
		sl_json_u64(j, "p99_9", l->p99_9);
		sl_json_u64(j, "max", l->max);
	}
	sl_json_u64(j, "backwards", l->backwards); /* not samples: docs/measure.md */
	sl_json_obj_close(j);
}

/* "directions": what each sending port's stream did in trial t. */
static void
json_dirs(struct sl_json *j, const struct sl_bench_trial *t)
{
	sl_json_arr_open(j, "directions");
	for (unsigned int k = 0; k < t->nb_dirs; k++) {
		const struct sl_bench_dir *d = &t->dirs[k];

		sl_json_obj_open(j, NULL);
		sl_json_u64(j, "tx_port", d->tx_port);
		sl_json_i64(j, "rx_port", d->rx_port); /* -1: counted nowhere */
		sl_json_u64(j, "tx_packets", d->tx);
		sl_json_u64(j, "rx_packets", d->rx);
		sl_json_u64(j, "lost", d->lost);
		sl_json_dbl(j, "loss_ratio", d->tx != 0 ? (double)d->lost / (double)d->tx : 0);
		if (d->lat.valid || d->lat.backwards != 0)
			json_lat(j, "latency_ns", &d->lat);
		sl_json_obj_close(j);
	}
	sl_json_arr_close(j);
}

void
sl_bench_report_json(struct sl_json *j, const struct sl_bench_record *b)
{
	const struct sl_bench_params *p = b->p;

	sl_json_obj_open(j, "bench");
	sl_json_str(j, "method", b->method);
	sl_json_bool(j, "interrupted", b->interrupted);
	sl_json_obj_open(j, "params");
	if (b->single) {
		char rate[64];

		sl_rate_str(&b->load, rate, sizeof(rate));
		sl_json_str(j, b->load_total ? "total" : "load", rate);
		sl_json_dbl(j, "trial_s", b->trial_s);
		sl_json_obj_close(j);
		goto trials;
	}
	sl_json_dbl(j, "width", p->goals[0].width);
	sl_json_dbl(j, "initial_s", p->goals[0].initial_s);
	sl_json_dbl(j, "final_s", p->goals[0].final_s);
	sl_json_dbl(j, "sum_s", p->goals[0].sum_s);
	sl_json_dbl(j, "exceed_ratio", p->goals[0].exceed_ratio);
	sl_json_dbl(j, "latency_s", b->lat_s);
	sl_json_u64(j, "budget_trials", p->max_trials != 0 ? p->max_trials : SL_BENCH_MAX_TRIALS);
	sl_json_dbl(j, "budget_s", p->max_seconds > 0 ? p->max_seconds : SL_BENCH_MAX_SECONDS);
	sl_json_arr_open(j, "goals");
	for (unsigned int g = 0; g < p->nb_goals; g++) {
		sl_json_obj_open(j, NULL);
		sl_json_str(j, "name", p->goals[g].name);
		sl_json_dbl(j, "loss_ratio", p->goals[g].loss_ratio);
		sl_json_obj_close(j);
	}
	sl_json_arr_close(j);
	sl_json_obj_close(j);
trials:
	sl_json_arr_open(j, "trials");
	for (unsigned int i = 0; i < b->nb_trials; i++) {
		const struct sl_bench_trial *t = &b->trials[i];

		sl_json_obj_open(j, NULL);
		sl_json_u64(j, "n", i);
		sl_json_str(j, "size", b->res[t->size].name);
		sl_json_str(j, "kind", t->kind);
		if (!b->single)
			sl_json_str(j, "goal", p->goals[t->goal].name);
		sl_json_dbl(j, "load_pps", t->load);
		sl_json_dbl(j, "paced_pps", t->paced);  /* the pacer's rate: load / compensation */
		sl_json_dbl(j, "duration_s", t->duration_s);
		sl_json_bool(j, "short", t->fell_short);   /* the generator offered less */
		sl_json_u64(j, "let_go_frames", t->let_go_frames); /* what its pacers let go */
		sl_json_u64(j, "let_go_ns", t->let_go_ns);
		/*
		 * The most its pacers ran late; the most of its schedule one was
		 * behind at once (made up at once, or owed), in frames at the
		 * pace: the most the DUT can have met above the load.
		 */
		sl_json_dbl(j, "pacer_lag_max_us", t->lag_max_us);
		sl_json_u64(j, "behind_max_frames",
			    (uint64_t)ceil(t->behind_max_us * 1e-6 * t->paced));
		/* asked = the frames offered (tx + gen_dropped + gen_backlog) + unsent + let go */
		sl_json_u64(j, "asked", t->asked);
		sl_json_u64(j, "unsent", t->unsent);
		sl_json_bool(j, "interrupted", t->interrupted); /* not counted */
		sl_json_dbl(j, "offered_pps", t->offered_pps);
		sl_json_dbl(j, "tx_pps", t->tx_pps);
		sl_json_dbl(j, "rx_pps", t->rx_pps);
		sl_json_dbl(j, "forwarding_pps", t->fwd_pps);
		sl_json_dbl(j, "loss_ratio", t->loss_ratio);
		sl_json_dbl(j, "effective_s", t->eff_s);
		sl_json_u64(j, "tx_packets", t->tx);
		sl_json_u64(j, "rx_packets", t->rx);
		sl_json_u64(j, "lost", t->lost);
		sl_json_u64(j, "gen_dropped", t->dropped);
		sl_json_u64(j, "gen_backlog", t->backlog);
		sl_json_u64(j, "rx_port_drops", t->rx_drops);
		if (t->lat.valid || t->lat.backwards != 0)
			json_lat(j, "latency_ns", &t->lat);
		if (strcmp(t->kind, "latency") != 0 && !b->single) {
			sl_json_dbl(j, "counted_pps", t->counted); /* 0: not counted */
			sl_json_dbl(j, "lower_pps", t->lo);
			sl_json_dbl(j, "upper_pps", t->hi);
		}
		json_dirs(j, t);
		sl_json_obj_close(j);
	}
	sl_json_arr_close(j);
	sl_json_arr_open(j, "results");
	for (unsigned int i = 0; i < b->nb_sizes; i++) {
		const struct sl_bench_size *r = &b->res[i];
		char k[32];

		sl_json_obj_open(j, NULL);
		if (strcmp(r->name, "imix") == 0 || strcmp(r->name, "given") == 0)
			sl_json_str(j, "size", r->name);
		else
			sl_json_u64(j, "size", strtoul(r->name, NULL, 10));
		sl_json_bool(j, "complete", r->done);
		sl_json_u64(j, "ports", r->nb_tx);
		sl_json_dbl(j, "mean_l1_bits", r->mean_l1);
		sl_json_dbl(j, "line_pps", r->line_pps);
		sl_json_bool(j, "generator_limited", r->gen_limited);
		if (r->gen_limited)
			sl_json_dbl(j, "generator_ceiling_pps", r->gen_ceiling * r->nb_tx);
		sl_json_u64(j, "trials", r->trials);
		sl_json_u64(j, "short_trials", r->shorts);
		sl_json_dbl(j, "trial_s", r->spent_s);
		if (r->why != NULL)
			sl_json_str(j, "ended", r->why);
		if (b->single) {
			/* One trial per size, in size order: its n. */
			if (i < b->nb_trials)
				sl_json_u64(j, "trial", i);
			sl_json_obj_close(j);
			continue;
		}
		for (unsigned int g = 0; g < p->nb_goals; g++) {
			const char *nm = p->method == SL_BENCH_RFC2544 ? "ndr" :
					 g == 0 ? "ndr" : g == 1 ? "pdr" : NULL;
			const struct sl_bench_result *x = &r->goal[g];
			double pps = x->achieved * r->nb_tx;
			char nb[16];

			if (nm == NULL) {
				snprintf(nb, sizeof(nb), "goal%u", g);
				nm = nb;
			}
			/* The result: what the DUT was seen to forward, the load really offered. */
			snprintf(k, sizeof(k), "%s_pps", nm);
			sl_json_dbl(j, k, pps);
			snprintf(k, sizeof(k), "%s_bps_l1", nm);
			sl_json_dbl(j, k, pps * r->mean_l1);
			snprintf(k, sizeof(k), "%s_pct_line", nm);
			sl_json_dbl(j, k, r->line_pps > 0 ? 100 * pps / r->line_pps : 0);
			snprintf(k, sizeof(k), "%s_lower_pps", nm); /* the load asked there */
			sl_json_dbl(j, k, x->lower * r->nb_tx);
			snprintf(k, sizeof(k), "%s_upper_pps", nm);
			sl_json_dbl(j, k, x->upper * r->nb_tx);
			snprintf(k, sizeof(k), "%s_converged", nm);
			sl_json_bool(j, k, x->converged);
			snprintf(k, sizeof(k), "%s_at_ceiling", nm);
			sl_json_bool(j, k, x->at_ceiling);
		}
		sl_json_obj_open(j, "latency_at");
		for (unsigned int l = 0; l < SL_BENCH_NB_LAT; l++)
			if (r->lat[l].valid) {
				sl_json_obj_open(j, sl_bench_lat_names[l]);
				sl_json_dbl(j, "load_pps", r->lat_load[l] * r->nb_tx);
				json_lat(j, "latency_ns", &r->lat[l]);
				json_dirs(j, &b->trials[r->lat_trial[l]]);
				sl_json_obj_close(j);
			}
		sl_json_obj_close(j);
		sl_json_obj_close(j);
	}
	sl_json_arr_close(j);
	sl_json_obj_close(j);
}
