/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pacer after an outage (sl_gen.h): catch-up is bounded to one burst (or
 * SL_PACER_SLACK_US), the time let go is counted as skipped, and the whole
 * lag is still recorded. Driven with made-up TSC values, so it is exact and
 * does not depend on the machine's load.
 */

#include <rte_cycles.h>

#include "sl_gen.h"
#include "test.h"
#include "test_common.h"

#define RATE_PPS 1000000.0
#define BURST 32

/* Packets due when called every @p step cycles from @p tsc for @p cycles, BURST at most a call. */
static uint64_t
due_over(struct sl_gen *g, struct sl_pacer *p, uint64_t tsc, uint64_t cycles, uint64_t step)
{
	uint64_t n = 0;

	for (uint64_t t = tsc; t < tsc + cycles; t += step)
		n += sl_gen_due(g, p, t, BURST);
	return n;
}

SL_TEST(pacer_bounded_catch_up, "fast")
{
	const struct sl_rate rate = { SL_RATE_PPS, RATE_PPS };
	const uint64_t hz = rte_get_tsc_hz(), step = hz / 10000000 + 1; /* called every ~0.1 us */
	const uint64_t t0 = 1000 * hz, outage = 2 * hz;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t before, burst, after, skipped_us, lag_us;

	CHECK(g.s != NULL, "no test stream");
	CHECK(sl_pacer_init(&p, &rate) == 0, "init");
	sl_pacer_set_slack(&p, BURST);
	/* 10 ms at the rate: 10,000 packets, give or take the one in flight. */
	before = due_over(&g, &p, t0, hz / 100, step);
	CHECK(before >= 9999 && before <= 10001, "%" PRIu64 " packets in 10 ms at 1 Mpps", before);
	CHECK(p.skipped == 0, "nothing skipped while on time (%" PRIu64 ")", p.skipped);
	/* A 2 s outage (nothing asked), then what is due at once, then 10 ms more. */
	burst = 0;
	for (int i = 0; i < 1000; i++)
		burst += sl_gen_due(&g, &p, t0 + hz / 100 + outage, BURST);
	after = due_over(&g, &p, t0 + hz / 100 + outage + 1, hz / 100, step);
	skipped_us = sl_pacer_skipped_tsc(&p) * 1000000 / hz;
	lag_us = p.lag_max * 1000000 / hz;
	NOTE("after a 2 s outage: %" PRIu64 " packets at once (one burst is %d), %" PRIu64
	     " in the next 10 ms; skipped %" PRIu64 " us, lag_max %" PRIu64 " us",
	     burst, BURST, after, skipped_us, lag_us);
	/* Unbounded catch-up would owe 2,000,000 packets here. */
	CHECK(burst <= BURST + 1, "%" PRIu64 " packets at once after the outage", burst);
	CHECK(after >= 9999 && after <= 10001, "%" PRIu64 " packets in the 10 ms after", after);
	CHECK(skipped_us >= 1999900 && skipped_us <= 2000000, "skipped %" PRIu64 " us", skipped_us);
	CHECK(lag_us >= 1999900 && lag_us <= 2000100, "the whole lag is recorded: %" PRIu64 " us",
	      lag_us);
	/* A pool-empty retry gives the burst back (p.mark) without skipping more. */
	{
		uint64_t sk, n, again;
		uint64_t t = t0 + hz / 100 + outage + hz / 100 + hz / 1000; /* 1 ms later */

		n = sl_gen_due(&g, &p, t, BURST);
		sk = p.skipped;
		p.next = p.mark;
		again = sl_gen_due(&g, &p, t, BURST);
		CHECK(n == again && n != 0, "given back %" PRIu64 ", due again %" PRIu64, n, again);
		CHECK(p.skipped == sk, "the retry skipped %" PRIu64 " more", p.skipped - sk);
	}
	/* The floor: a burst shorter than SL_PACER_SLACK_US keeps SL_PACER_SLACK_US. */
	sl_pacer_set_slack(&p, 1);
	CHECK(p.slack >> 16 >= SL_PACER_SLACK_US * hz / 1000000 - 1, "slack floor %" PRIu64,
	      p.slack >> 16);
	return 0;
}

/*
 * Across the wrap of the pacer's clock ((tsc - t0) << 16 wraps after 2^48
 * cycles, a day or so): 10 ms on each side at 1 Mpps send 10,000 packets
 * each, nothing is skipped and no lateness is recorded (unsigned compares
 * stopped sending, then counted ~2^64 skipped; found by review).
 */
SL_TEST(pacer_clock_wrap, "fast")
{
	const struct sl_rate rate = { SL_RATE_PPS, RATE_PPS };
	const uint64_t hz = rte_get_tsc_hz(), step = hz / 10000000 + 1;
	const uint64_t wrap = UINT64_C(1) << 48, t0 = 1000 * hz;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t a, b;

	CHECK(g.s != NULL, "no test stream");
	CHECK(sl_pacer_init(&p, &rate) == 0, "init");
	sl_pacer_set_slack(&p, BURST);
	p.t0 = t0;
	/* The schedule as if it had run on time until 20 ms before the wrap. */
	p.next = (wrap - hz / 50) << 16;
	a = due_over(&g, &p, t0 + wrap - hz / 50, hz / 100, step);
	b = due_over(&g, &p, t0 + wrap - hz / 100, hz / 50, step);
	NOTE("before the wrap %" PRIu64 ", across it %" PRIu64 "; skipped %" PRIu64 ", lag_max %"
	     PRIu64, a, b, p.skipped, p.lag_max);
	CHECK(a >= 9999 && a <= 10001, "%" PRIu64 " packets in the 10 ms before", a);
	CHECK(b >= 19999 && b <= 20001, "%" PRIu64 " packets in the 20 ms across the wrap", b);
	CHECK(p.skipped == 0, "skipped %" PRIu64 " across the wrap", p.skipped);
	CHECK(p.lag_max < hz / 100000, "lag_max %" PRIu64 " cycles across the wrap", p.lag_max);
	return 0;
}
