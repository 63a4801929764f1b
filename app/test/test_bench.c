/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The searches (lib/bench) against synthetic DUTs: loss as a function of
 * the load, no EAL involved. Known answers: a DUT of capacity C loses
 * (L - C) / L above C and nothing below, so NDR = C; a DUT that also loses
 * a constant p has PDR = C for p below the PDR goal and no NDR at all.
 */

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sl_bench.h"
#include "test.h"

struct syn {
	double cap;        /* pps */
	double floor;      /* constant loss ratio */
	double noise;      /* every k-th trial loses this much more (a noisy SUT) */
	unsigned int every, n;
	double gen_max;    /* the generator offers at most this (0: any) */
	double jitter;     /* the first trial forwards this much more (timing) */
	double short_by;   /* the generator falls this much short of every load ... */
	unsigned int short_every; /* ... or of every k-th trial's only (a stall) */
};

/*
 * A trial on the synthetic DUT: the generator offers the load (at most
 * gen_max, less short_by where it falls short), the DUT forwards up to its
 * capacity of what it was offered, then loses floor of that.
 */
static struct sl_trial_res
syn_trial(struct syn *d, const struct sl_trial_req *q)
{
	struct sl_trial_res r;
	double off = q->load, over;

	d->n++;
	if (d->gen_max != 0)
		off = fmin(off, d->gen_max);
	if (d->short_by != 0 && (d->short_every == 0 || d->n % d->short_every == 0))
		off *= 1 - d->short_by;
	over = off > d->cap ? (off - d->cap) / off : 0;
	r.loss_ratio = 1 - (1 - over) * (1 - d->floor);
	if (d->n == 1 && r.loss_ratio > 0)
		r.loss_ratio = 1 - (1 - r.loss_ratio) * (1 + d->jitter);
	if (d->every != 0 && d->n % d->every == 0)
		r.loss_ratio = fmin(1, r.loss_ratio + d->noise);
	r.achieved = off;
	r.forwarding = off * (1 - r.loss_ratio);
	return r;
}

static unsigned int
syn_search(struct sl_search *s, const struct sl_bench_params *p, struct syn *d, double *secs)
{
	struct sl_trial_req q;

	sl_search_init(s, p);
	*secs = 0;
	while (sl_search_next(s, &q)) {
		struct sl_trial_res r = syn_trial(d, &q);

		*secs += q.duration_s;
		sl_search_record(s, &q, &r);
	}
	return s->trials;
}

/* The result's load (what the DUT was seen to forward) and upper bound. */
static bool
result(const struct sl_search *s, unsigned int goal, double *load, double *upper)
{
	struct sl_bench_result r;
	bool ok = sl_search_result(s, goal, &r);

	*load = r.achieved;
	*upper = r.upper;
	return ok;
}

static void
fast_params(struct sl_bench_params *p, enum sl_bench_method m)
{
	sl_bench_params_default(p, m);
	p->min_load = 10000;
	p->max_load = 14880952;
	for (unsigned int i = 0; i < p->nb_goals; i++) {
		p->goals[i].initial_s = 0.5;
		p->goals[i].final_s = 1;
		p->goals[i].sum_s = m == SL_BENCH_MLR ? 3 : 1;
	}
}

SL_TEST(bench_mlr_capacity, "fast")
{
	static const double caps[] = { 123456, 1000000, 5555555, 14000000 };

	for (unsigned int i = 0; i < RTE_DIM(caps); i++) {
		struct sl_bench_params p;
		struct sl_search s;
		struct syn d = { .cap = caps[i] };
		double ndr, pdr, ub, secs;
		unsigned int n;

		fast_params(&p, SL_BENCH_MLR);
		n = syn_search(&s, &p, &d, &secs);
		CHECK(result(&s, 0, &ndr, &ub), "NDR converged");
		NOTE("C %.0f: NDR %.0f (upper %.0f, width %.3f %%), %u trials, %.1f s", caps[i],
		     ndr, ub, 100 * (ub - ndr) / ub, n, secs);
		CHECK(ndr <= caps[i] * (1 + 1e-9) && ndr >= caps[i] * (1 - p.goals[0].width),
		      "NDR %.0f not within the width of C %.0f", ndr, caps[i]);
		CHECK(result(&s, 1, &pdr, &ub), "PDR converged");
		/* Loss (L - C) / L <= 0.005: PDR up to C / 0.995. */
		CHECK(pdr > ndr && pdr <= caps[i] / 0.995 + 1 &&
		      pdr >= caps[i] / 0.995 * (1 - p.goals[1].width),
		      "PDR %.0f for C %.0f (want about %.0f)", pdr, caps[i], caps[i] / 0.995);
		CHECK(n < 60, "%u trials", n);
	}
	return 0;
}

SL_TEST(bench_rfc2544_capacity, "fast")
{
	static const double caps[] = { 50000, 1000000, 7000000 };

	for (unsigned int i = 0; i < RTE_DIM(caps); i++) {
		struct sl_bench_params p;
		struct sl_search s;
		struct syn d = { .cap = caps[i] };
		double ndr, ub, secs;
		unsigned int n;

		fast_params(&p, SL_BENCH_RFC2544);
		n = syn_search(&s, &p, &d, &secs);
		CHECK(result(&s, 0, &ndr, &ub), "converged");
		NOTE("C %.0f: throughput %.0f (failing %.0f), %u trials, %.1f s", caps[i], ndr, ub,
		     n, secs);
		CHECK(ndr <= caps[i] * (1 + 1e-9) && ndr >= caps[i] * (1 - p.goals[0].width),
		      "throughput %.0f not within the width of C %.0f", ndr, caps[i]);
	}
	/* A tolerance: loss (L - C) / L <= 1 % up to C / 0.99. */
	{
		struct sl_bench_params p;
		struct sl_search s;
		struct syn d = { .cap = 1000000 };
		double t, ub, secs;

		fast_params(&p, SL_BENCH_RFC2544);
		p.goals[0].loss_ratio = 0.01;
		syn_search(&s, &p, &d, &secs);
		CHECK(result(&s, 0, &t, &ub) && t <= 1e6 / 0.99 &&
		      t >= 1e6 / 0.99 * 0.995, "tolerance 1 %%: %.0f", t);
	}
	return 0;
}

SL_TEST(bench_edge_cases, "fast")
{
	struct sl_bench_params p;
	struct sl_search s;
	double r, ub, secs;
	char err[128];

	/* A DUT faster than the max: NDR = max. */
	{
		struct syn d = { .cap = 1e9 };

		fast_params(&p, SL_BENCH_MLR);
		syn_search(&s, &p, &d, &secs);
		CHECK(result(&s, 0, &r, &ub) && r == p.max_load, "max: %.0f", r);
		fast_params(&p, SL_BENCH_RFC2544);
		syn_search(&s, &p, &d, &secs);
		CHECK(result(&s, 0, &r, &ub) && r == p.max_load, "2544 max: %.0f", r);
	}
	/* A DUT that loses 0.1 % at any load: no NDR (0), PDR = C. */
	{
		struct syn d = { .cap = 2000000, .floor = 0.001 };

		fast_params(&p, SL_BENCH_MLR);
		syn_search(&s, &p, &d, &secs);
		CHECK(result(&s, 0, &r, &ub) && r == 0, "floor NDR %.0f upper %.0f trials %u why %s", r, ub, s.trials, s.why ? s.why : "-");
		CHECK(result(&s, 1, &r, &ub) && r > 2e6 && r < 2e6 / 0.996,
		      "floor PDR %.0f", r);
		NOTE("loss floor 0.1 %%, C 2 Mpps: NDR 0, PDR %.0f in %u trials", r, s.trials);
	}
	/*
	 * The generator cannot offer more than 3 Mpps, the DUT could forward
	 * 5: the search's max comes down to the generator's ceiling after the
	 * first trial, the result is that ceiling, and it says so (at_ceiling:
	 * not the DUT's own result, and sl_search_result() is false).
	 */
	for (int m = SL_BENCH_RFC2544; m <= SL_BENCH_MLR; m++) {
		struct syn d = { .cap = 5e6, .gen_max = 3e6 };
		struct sl_bench_result b;
		bool ok;

		fast_params(&p, m);
		syn_search(&s, &p, &d, &secs);
		ok = sl_search_result(&s, 0, &b);
		NOTE("%s, generator ceiling 3 Mpps, DUT 5 Mpps: result %.0f (asked %.0f), "
		     "converged %d, at ceiling %d, %u trials, max now %.0f", sl_bench_method_name(m),
		     b.achieved, b.lower, b.converged, b.at_ceiling, s.trials, s.gen_max);
		CHECK(!ok && b.converged && b.at_ceiling && s.gen_limited, "at the ceiling");
		CHECK(b.achieved <= 3e6 && b.achieved >= 3e6 * (1 - 2 * s.tol),
		      "generator-limited result %.0f", b.achieved);
		CHECK(s.gen_ceiling == 3e6 && s.trials <= 8, "ceiling %.0f after %u trials",
		      s.gen_ceiling, s.trials);
	}
	/* Exceed ratio: one noisy trial in four at a load that is otherwise
	 * clean does not make it an upper bound when the goal allows 50 %. */
	{
		struct syn d = { .cap = 1e6, .noise = 0.01, .every = 4 };

		fast_params(&p, SL_BENCH_MLR);
		syn_search(&s, &p, &d, &secs);
		CHECK(result(&s, 0, &r, &ub), "noisy converged");
		NOTE("noisy SUT (every 4th trial +1 %% loss), C 1 Mpps: NDR %.0f, %u trials", r,
		     s.trials);
		CHECK(r >= 1e6 * (1 - 2 * p.goals[0].width) && r <= 1e6, "noisy NDR %.0f", r);
	}
	/*
	 * Deterministic: the same DUT gives the same trials; and reproducible
	 * on a real DUT, where the forwarding rate measured at the max load
	 * (where the search goes next) differs between two runs by a few frames
	 * of timing: here 0.1 %. The trials must not differ.
	 */
	for (unsigned int j = 0; j < 2; j++) {
		struct syn d1 = { .cap = 777777 }, d2 = { .cap = 777777, .jitter = j * 0.001 };
		struct sl_search s2;
		double secs2;

		fast_params(&p, SL_BENCH_MLR);
		syn_search(&s, &p, &d1, &secs);
		syn_search(&s2, &p, &d2, &secs2);
		CHECK(s.trials == s2.trials && memcmp(s.loads, s2.loads, sizeof(s.loads)) == 0,
		      "same trials when the first trial's forwarding rate differs by %.1f %%: "
		      "%u and %u trials, second loads %.0f and %.0f", d2.jitter * 100, s.trials,
		      s2.trials, s.loads[1].load, s2.loads[1].load);
	}
	/* Bad parameters. */
	fast_params(&p, SL_BENCH_MLR);
	p.goals[0].width = 0;
	CHECK(sl_bench_params_check(&p, err, sizeof(err)) != 0 && strstr(err, "width") != NULL,
	      "%s", err);
	fast_params(&p, SL_BENCH_MLR);
	p.min_load = p.max_load * 2;
	CHECK(sl_bench_params_check(&p, err, sizeof(err)) != 0 && strstr(err, "min") != NULL,
	      "%s", err);
	fast_params(&p, SL_BENCH_MLR);
	p.goals[1].loss_ratio = 1.5;
	CHECK(sl_bench_params_check(&p, err, sizeof(err)) != 0 && strstr(err, "loss") != NULL,
	      "%s", err);
	fast_params(&p, SL_BENCH_MLR);
	CHECK(sl_bench_params_check(&p, err, sizeof(err)) == 0, "%s", err);
	return 0;
}

/*
 * Issue 33: a generator that falls short must not stall the search. The
 * generator reaches 96.7 % of line rate (14.39 of 14.88 Mpps), the DUT
 * forwards 1,234,567 pps. (a) every third trial also falls 3 % short (a
 * stall, run again): the result is within the goal width of the capacity;
 * (b) every trial falls 1.7 % short, more than the width: the search cannot
 * get within the width honestly (no trial offers the loads between its
 * bounds: the app's measurer compensates for such a generator, bench.c),
 * so it ends early, saying why, not converged, with a result no higher
 * than what was offered and within twice the width and the shortfall.
 * Both methods; the search always ends, in few trials.
 */
SL_TEST(bench_generator_short, "fast")
{
	const double cap = 1234567, line = 14880952;

	for (int m = SL_BENCH_RFC2544; m <= SL_BENCH_MLR; m++) {
		for (int v = 0; v < 3; v++) {
			struct syn d = { .cap = cap, .gen_max = v == 0 ? 0 : line * 0.967,
					 .short_by = v == 0 ? 0 : v == 1 ? 0.03 : 0.017,
					 .short_every = v == 1 ? 3 : 0 };
			struct sl_bench_params p;
			struct sl_bench_result b;
			struct sl_search s;
			double secs, w, lo;

			fast_params(&p, m);
			w = p.goals[0].width;
			syn_search(&s, &p, &d, &secs);
			sl_search_result(&s, 0, &b);
			NOTE("%s, %s: NDR %.0f (lower %.0f, upper %.0f), %u trials (%u short, %u run "
			     "again), %.1f s, converged %d%s%s", sl_bench_method_name(m),
			     v == 0 ? "a full generator" : v == 1 ? "ceiling 96.7 %, a 3 % stall every "
			     "third trial" : "ceiling 96.7 %, 1.7 % short in every trial",
			     b.achieved, b.lower, b.upper, s.trials, s.shorts, s.retries, secs,
			     b.converged, s.why ? ", ended: " : "", s.why ? s.why : "");
			CHECK(b.achieved <= cap * (1 + 1e-9), "NDR %.0f above C", b.achieved);
			CHECK(s.trials <= 60, "%u trials", s.trials);
			CHECK(v == 0 || (s.gen_limited && s.gen_max < line), "the ceiling (%.0f)",
			      s.gen_max);
			if (v < 2) {
				lo = cap * (1 - w) * (1 - 1e-9);
				CHECK(b.converged && !b.at_ceiling && s.why == NULL, "converged (%s)",
				      s.why ? s.why : "-");
				CHECK(b.achieved >= lo, "NDR %.0f below %.0f", b.achieved, lo);
			} else {
				lo = cap * (1 - 2 * (w + d.short_by));
				CHECK(!b.converged && s.why != NULL && b.upper > cap,
				      "ended early, not converged (%s), upper %.0f", s.why ? s.why : "-",
				      b.upper);
				CHECK(b.achieved >= lo, "NDR %.0f below %.0f", b.achieved, lo);
			}
		}
	}
	return 0;
}

/*
 * Issue 44: CSIT's defaults (1 s trials, exceed ratio 0.5, duration sum
 * 21 s: 11 trials to classify a load) against a DUT of capacity
 * 1,234,567 pps, the generator falling short of every trial by 0 to 0.7 %
 * (a machine whose hypervisor takes the CPU now and then: the lags the
 * pacer lets go), every 7th trial a 3 % stall; the search paces it by its
 * median shortfall (sl_trial_req.pace). Both goals converge (40 seeds:
 * 41 to 76 trials, the median 62; 11 of them classify a load), nothing ends
 * the search early, and what holds on any machine holds: the bounds
 * bracket the DUT's truth (NDR: C; PDR: C / 0.995), each result is no
 * more than its truth and within its width of it.
 */
SL_TEST(bench_mlr_defaults_short_generator, "fast")
{
	const double cap = 1234567, line = 14880952;

	for (unsigned int seed = 1; seed <= 8; seed++) {
		struct sl_bench_params p;
		struct sl_search s;
		struct sl_trial_req q;
		uint32_t x = seed * 2654435761u;
		double truth[2] = { cap, cap / 0.995 };

		sl_bench_params_default(&p, SL_BENCH_MLR);
		p.min_load = 10000;
		p.max_load = line;
		sl_search_init(&s, &p);
		while (sl_search_next(&s, &q)) {
			struct syn d = { .cap = cap };
			struct sl_trial_req qp;
			struct sl_trial_res r;

			x = x * 1664525u + 1013904223u;
			/* 0.2 to 0.5 % of its pace let go, and every 7th trial a 3 % stall */
			d.short_by = s.trials % 7 == 6 ? 0.03 :
				     0.002 + 0.003 * (double)(x >> 8) / (double)(1u << 24);
			qp = q;
			qp.load = q.pace; /* it is paced at the pace the search asks */
			r = syn_trial(&d, &qp);
			sl_search_record(&s, &q, &r);
		}
		NOTE("seed %u: %u trials (%u short), ended %s", seed, s.trials, s.shorts,
		     s.why ? s.why : "converged");
		CHECK(s.trials <= 80 && s.why == NULL, "seed %u: %u trials, ended %s", seed,
		      s.trials, s.why ? s.why : "-");
		for (unsigned int g = 0; g < 2; g++) {
			struct sl_bench_result b;
			double w = p.goals[g].width;

			CHECK(sl_search_result(&s, g, &b) && b.converged, "seed %u %s: not converged",
			      seed, p.goals[g].name);
			NOTE("  %s: %.0f [%.0f, %.0f] (truth %.0f)", p.goals[g].name, b.achieved,
			     b.lower, b.upper, truth[g]);
			CHECK(b.lower <= truth[g] * (1 + 1e-9) && b.upper > truth[g] &&
			      b.achieved <= truth[g] * (1 + 1e-9) &&
			      b.achieved >= truth[g] * (1 - w - s.tol),
			      "seed %u %s: %.0f [%.0f, %.0f] against %.0f", seed, p.goals[g].name,
			      b.achieved, b.lower, b.upper, truth[g]);
		}
	}
	return 0;
}

/*
 * The budget: a search ends within its trials and its seconds, with the
 * bounds it found; every passing load is a lower bound at once (rfc2544
 * too, before its final trial).
 */
SL_TEST(bench_budget, "fast")
{
	for (int m = SL_BENCH_RFC2544; m <= SL_BENCH_MLR; m++) {
		struct sl_bench_params p;
		struct sl_bench_result b;
		struct sl_search s;
		struct syn d = { .cap = 1e6 };
		double secs;

		fast_params(&p, m);
		p.max_seconds = 4;
		syn_search(&s, &p, &d, &secs);
		sl_search_result(&s, 0, &b);
		NOTE("%s with 4 s: %u trials, %.1f s, ended '%s', bounds [%.0f, %.0f]",
		     sl_bench_method_name(m), s.trials, s.spent_s, s.why ? s.why : "-", b.lower,
		     b.upper);
		CHECK(s.why != NULL && strcmp(s.why, "out of time") == 0, "ended %s",
		      s.why ? s.why : "converged");
		CHECK(s.spent_s <= 4 + 1e-9 && secs == s.spent_s, "%.2f s used", s.spent_s);
		CHECK(!b.converged && b.lower > 0 && b.lower < 1e6 && b.upper > 1e6,
		      "the bounds found: [%.0f, %.0f]", b.lower, b.upper);
		fast_params(&p, m);
		p.max_trials = 5;
		syn_search(&s, &p, &d, &secs);
		CHECK(s.trials == 5 && s.why != NULL && strcmp(s.why, "out of trials") == 0,
		      "%u trials, ended %s", s.trials, s.why ? s.why : "converged");
	}
	/* rfc2544's progress: a pass is the lower bound before the final trial. */
	{
		struct sl_bench_params p;
		struct sl_bench_result b;
		struct sl_search s;
		struct sl_trial_req q;
		struct syn d = { .cap = 1e6 };
		bool seen = false;

		fast_params(&p, SL_BENCH_RFC2544);
		sl_search_init(&s, &p);
		while (sl_search_next(&s, &q)) {
			struct sl_trial_res r = syn_trial(&d, &q);

			sl_search_record(&s, &q, &r);
			sl_search_result(&s, 0, &b);
			if (r.loss_ratio == 0 && !q.final)
				seen |= b.lower == q.load;
			CHECK(r.loss_ratio != 0 || q.final || b.lower >= q.load,
			      "a pass at %.0f, lower bound %.0f", q.load, b.lower);
		}
		CHECK(seen, "no pass was reported as the lower bound");
	}
	return 0;
}

/*
 * The generator's ceiling is set only at the search's max, after a trial
 * run again: the trial of the two that offered more counts, with its own
 * loss, at what it offered (review: the better achieved with the other's
 * loss was a low-loss verdict at a load not offered). A later trial short
 * of the ceiling brings it down; a stall below the max does not.
 */
SL_TEST(bench_ceiling_at_max_only, "fast")
{
	struct sl_bench_params p;
	struct sl_search s;
	struct sl_trial_req q = { .load = 2e6, .duration_s = 1 }, n;
	struct sl_trial_res r = { .loss_ratio = 0, .achieved = 1.9e6, .forwarding = 1.9e6 };

	fast_params(&p, SL_BENCH_MLR);
	sl_search_init(&s, &p);
	sl_search_record(&s, &q, &r);
	CHECK(!s.gen_limited && s.gen_max == p.max_load && s.shorts == 1,
	      "short at 2 Mpps (not the max): max %.0f, limited %d", s.gen_max, s.gen_limited);
	/*
	 * A stall below the max with low loss counts at once, at the load it
	 * offered (a lower bound there, never at the load asked); a second
	 * one that offered a little more, within the tolerance, adds its time
	 * to that load (issue 44: their sums must classify a load).
	 */
	CHECK(!s.retrying && s.nb_loads == 1 && s.loads[0].load == 1.9e6 && s.retries == 0 &&
	      sl_search_next(&s, &n), "the short trial counts at the load it offered (%d, %u "
	      "loads, at %.0f)", s.retrying, s.nb_loads, s.nb_loads ? s.loads[0].load : 0);
	r.achieved = 1.9e6 * (1 + s.tol / 2);
	sl_search_record(&s, &q, &r);
	CHECK(!s.retrying && s.nb_loads == 1 && s.loads[0].load == 1.9e6 &&
	      s.loads[0].dur[0][1][0] == 2 && s.loads[0].low_offered[0][0] <= 2 * 1.9e6 + 1,
	      "the second adds its time there, at no more than 1.9e6 (%u loads, %.1f s low-loss)",
	      s.nb_loads, s.loads[0].dur[0][1][0]);
	r.achieved = 1.9e6;
	/* At the max: 9.7 Mpps offered with 2 % loss, then 9.4 with none. */
	q.load = p.max_load;
	r = (struct sl_trial_res){ .loss_ratio = 0.02, .achieved = 9.7e6, .forwarding = 9.5e6 };
	sl_search_record(&s, &q, &r);
	CHECK(!s.gen_limited && s.retrying, "short at the max: run again first");
	r = (struct sl_trial_res){ .loss_ratio = 0, .achieved = 9.4e6, .forwarding = 9.4e6 };
	sl_search_record(&s, &q, &r);
	{
		const struct sl_bench_load *l = &s.loads[s.nb_loads - 1];

		CHECK(s.gen_limited && s.gen_max == 9.7e6 && l->load == 9.7e6 &&
		      l->dur[0][0][1] + l->dur[0][1][1] > 0 && l->dur[0][0][0] + l->dur[0][1][0] == 0,
		      "short at the max twice: max %.0f (the one that offered more), counted at "
		      "%.0f with its loss (high-loss %.1f s, low-loss %.1f s)", s.gen_max, l->load,
		      l->dur[0][0][1] + l->dur[0][1][1], l->dur[0][0][0] + l->dur[0][1][0]);
	}
	/* Below the max, a short trial does not move the ceiling. */
	q.load = 5e6;
	r = (struct sl_trial_res){ .loss_ratio = 0.1, .achieved = 4e6, .forwarding = 3.6e6 };
	sl_search_record(&s, &q, &r);
	CHECK(s.gen_max == 9.7e6, "a short trial below the max moved the ceiling: %.0f", s.gen_max);
	/*
	 * A trial at the ceiling (full speed, a little less this time) counts
	 * at the ceiling; the result is what it offered.
	 */
	q.load = 9.7e6;
	r = (struct sl_trial_res){ .loss_ratio = 0, .achieved = 9.5e6, .forwarding = 9.5e6 };
	sl_search_record(&s, &q, &r);
	{
		const struct sl_bench_load *l = NULL;

		for (unsigned int i = 0; i < s.nb_loads; i++)
			if (s.loads[i].load == 9.7e6)
				l = &s.loads[i];
		CHECK(s.gen_max == 9.7e6 && l != NULL && l->trials == 2 &&
		      l->low_offered[0][1] == 1 && l->low_offered[0][0] == 9.5e6,
		      "at the ceiling: max %.0f, counted there (%u trials), offered %.0f",
		      s.gen_max, l ? l->trials : 0, l ? l->low_offered[0][0] : 0);
	}
	return 0;
}

/*
 * Review findings: a high-loss trial that offered more than asked (a pace
 * compensated too far) counts at what it offered, not below; loads asked
 * are never below the min; the trial budget is exact.
 */
SL_TEST(bench_review_edges, "fast")
{
	struct sl_bench_params p;
	struct sl_search s;
	struct sl_trial_req q = { .load = 7447916, .duration_s = 1 }, n;
	struct sl_trial_res r = { .loss_ratio = 0.0145, .achieved = 7839912,
				  .forwarding = 7726190 };
	double secs;
	unsigned int all;

	fast_params(&p, SL_BENCH_RFC2544);
	sl_search_init(&s, &p);
	sl_search_record(&s, &q, &r);
	CHECK(s.hi == 7839912, "a loss at 7.84 Mpps offered for 7.45 asked: upper %.0f", s.hi);
	/* The min: a stall at the min counts below it; the next load is the min, not less. */
	fast_params(&p, SL_BENCH_RFC2544);
	p.min_load = 1e6;
	sl_search_init(&s, &p);
	s.hi = 1.05e6;
	s.max_tried = p.max_load;
	q = (struct sl_trial_req){ .load = 1e6, .duration_s = 0.5 };
	r = (struct sl_trial_res){ .loss_ratio = 0, .achieved = 0.9e6, .forwarding = 0.9e6 };
	sl_search_record(&s, &q, &r);
	sl_search_record(&s, &q, &r);
	while (sl_search_next(&s, &n)) {
		CHECK(n.load >= p.min_load, "a load below the min asked: %.0f", n.load);
		r = (struct sl_trial_res){ .loss_ratio = 0, .achieved = n.load, .forwarding = n.load };
		sl_search_record(&s, &n, &r);
	}
	/* The trial budget: exactly the trials a search needs is enough. */
	{
		struct syn d = { .cap = 1e6 };

		fast_params(&p, SL_BENCH_MLR);
		all = syn_search(&s, &p, &d, &secs);
		p.max_trials = all;
		d.n = 0;
		syn_search(&s, &p, &d, &secs);
		CHECK(s.why == NULL && s.trials == all, "max-trials %u: %u trials, ended %s", all,
		      s.trials, s.why ? s.why : "-");
	}
	return 0;
}
