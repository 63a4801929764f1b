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
};

static struct sl_trial_res
syn_trial(struct syn *d, const struct sl_trial_req *q)
{
	struct sl_trial_res r = { .valid = true, .achieved = q->load };
	double over = q->load > d->cap ? (q->load - d->cap) / q->load : 0;

	d->n++;
	if (d->gen_max != 0 && q->load > d->gen_max) {
		r.valid = false;
		r.achieved = d->gen_max;
		return r;
	}
	r.loss_ratio = 1 - (1 - over) * (1 - d->floor);
	if (d->n == 1 && r.loss_ratio > 0)
		r.loss_ratio = 1 - (1 - r.loss_ratio) * (1 + d->jitter);
	if (d->every != 0 && d->n % d->every == 0)
		r.loss_ratio = fmin(1, r.loss_ratio + d->noise);
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
		CHECK(sl_search_result(&s, 0, &ndr, &ub), "NDR converged");
		NOTE("C %.0f: NDR %.0f (upper %.0f, width %.3f %%), %u trials, %.1f s", caps[i],
		     ndr, ub, 100 * (ub - ndr) / ub, n, secs);
		CHECK(ndr <= caps[i] * (1 + 1e-9) && ndr >= caps[i] * (1 - p.goals[0].width),
		      "NDR %.0f not within the width of C %.0f", ndr, caps[i]);
		CHECK(sl_search_result(&s, 1, &pdr, &ub), "PDR converged");
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
		CHECK(sl_search_result(&s, 0, &ndr, &ub), "converged");
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
		CHECK(sl_search_result(&s, 0, &t, &ub) && t <= 1e6 / 0.99 &&
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
		CHECK(sl_search_result(&s, 0, &r, &ub) && r == p.max_load, "max: %.0f", r);
		fast_params(&p, SL_BENCH_RFC2544);
		syn_search(&s, &p, &d, &secs);
		CHECK(sl_search_result(&s, 0, &r, &ub) && r == p.max_load, "2544 max: %.0f", r);
	}
	/* A DUT that loses 0.1 % at any load: no NDR (0), PDR = C. */
	{
		struct syn d = { .cap = 2000000, .floor = 0.001 };

		fast_params(&p, SL_BENCH_MLR);
		syn_search(&s, &p, &d, &secs);
		CHECK(sl_search_result(&s, 0, &r, &ub) && r == 0, "floor NDR %.0f upper %.0f trials %u why %s", r, ub, s.trials, s.why ? s.why : "-");
		CHECK(sl_search_result(&s, 1, &r, &ub) && r > 2e6 && r < 2e6 / 0.996,
		      "floor PDR %.0f", r);
		NOTE("loss floor 0.1 %%, C 2 Mpps: NDR 0, PDR %.0f in %u trials", r, s.trials);
	}
	/* The generator cannot offer more than 3 Mpps: trials above are invalid,
	 * not DUT loss; the search ends at what the generator can offer. */
	{
		struct syn d = { .cap = 5e6, .gen_max = 3e6 };

		fast_params(&p, SL_BENCH_MLR);
		syn_search(&s, &p, &d, &secs);
		CHECK(s.gen_limited && s.invalid == SL_BENCH_RETRIES + 1, "invalid %u", s.invalid);
		CHECK(sl_search_result(&s, 0, &r, &ub) && r <= 3e6 && r >= 2.99e6,
		      "generator-limited NDR %.0f", r);
	}
	/* Exceed ratio: one noisy trial in four at a load that is otherwise
	 * clean does not make it an upper bound when the goal allows 50 %. */
	{
		struct syn d = { .cap = 1e6, .noise = 0.01, .every = 4 };

		fast_params(&p, SL_BENCH_MLR);
		syn_search(&s, &p, &d, &secs);
		CHECK(sl_search_result(&s, 0, &r, &ub), "noisy converged");
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
