/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pacer after stalls (sl_gen.h): a lag up to the catch-up bound
 * (SL_PACER_CATCHUP_US, or one burst) is made up whole, so the count over
 * the run is exact; of a longer outage only the slack's worth is made up
 * (the catch-up never exceeds it) and the rest is counted as skipped, the
 * whole lag still recorded; evenly spaced frames (SL_PACER_EVEN_US) make up
 * at most 50 us or one frame. Driven with made-up TSC
 * values, so it is exact and does not depend on the machine's load.
 */

#include <math.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "sl_gen.h"
#include "test.h"
#include "test_common.h"
#include "sl_clock.h"
#include "worker.h"

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

/* What is due at once at @p tsc (called until nothing more is). */
static uint64_t
due_now(struct sl_gen *g, struct sl_pacer *p, uint64_t tsc)
{
	uint64_t n = 0, k;

	for (int i = 0; i < 100000 && (k = sl_gen_due(g, p, tsc, BURST)) != 0; i++)
		n += k;
	return n;
}

/*
 * Micro-stalls are made up: 7.44 Mpps (half of 10G at 64 B) for 1 s, the
 * worker stalled for 100 us every millisecond (and once for 900 us): the
 * count over the second is the rate's, exactly, and nothing is skipped.
 * Before the bound was raised (10 us), 9.4 % of the second was let go.
 */
SL_TEST(pacer_micro_stalls_made_up, "fast")
{
	const double pps = 7440476.19;
	const struct sl_rate rate = { SL_RATE_PPS, pps };
	const uint64_t hz = sl_tsc_hz(), step = hz / 20000000 + 1; /* every ~50 ns */
	const uint64_t t0 = 1000 * hz, ms = hz / 1000;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t n = 0, want;

	CHECK(g.s != NULL, "no test stream");
	CHECK(sl_pacer_init(&p, &rate) == 0, "init");
	sl_pacer_set_slack(&p, BURST, SL_PACER_CATCHUP_US);
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t gap = i == 500 ? 900 * ms / 1000 : ms / 10;

		/* Called through the first part of the millisecond, then stalled. */
		n += due_over(&g, &p, t0 + i * ms, ms - gap, step);
	}
	n += due_now(&g, &p, t0 + 1000 * ms);
	want = (uint64_t)(pps * (double)(1000 * ms) / (double)hz) + 1;
	NOTE("1 s at 7.44 Mpps with 1,000 stalls of 100 us and one of 900 us: %" PRIu64
	     " packets (the rate: %" PRIu64 "), skipped %" PRIu64 " us, lag_max %" PRIu64 " us",
	     n, want, sl_pacer_skipped_tsc(&p) * 1000000 / hz, p.lag_max * 1000000 / hz);
	CHECK(n + 1 >= want && n <= want + 1, "%" PRIu64 " packets, the rate gives %" PRIu64, n,
	      want);
	CHECK(p.skipped == 0, "skipped %" PRIu64 " us", sl_pacer_skipped_tsc(&p) * 1000000 / hz);
	CHECK(p.lag_max * 1000000 / hz >= 899, "lag_max %" PRIu64 " us",
	      p.lag_max * 1000000 / hz);
	return 0;
}

SL_TEST(pacer_bounded_catch_up, "fast")
{
	const struct sl_rate rate = { SL_RATE_PPS, RATE_PPS };
	const uint64_t hz = sl_tsc_hz(), step = hz / 10000000 + 1; /* called every ~0.1 us */
	const uint64_t t0 = 1000 * hz, outage = 2 * hz, us = hz / 1000000;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t before, burst, after, skipped_us, lag_us, t;

	CHECK(g.s != NULL, "no test stream");
	CHECK(sl_pacer_init(&p, &rate) == 0, "init");
	CHECK(p.slack >> 16 >= SL_PACER_CATCHUP_US * us - 1, "init's bound %" PRIu64 " cycles",
	      p.slack >> 16);
	sl_pacer_set_slack(&p, BURST, SL_PACER_CATCHUP_US);
	/* 10 ms at the rate: 10,000 packets, give or take the one in flight. */
	before = due_over(&g, &p, t0, hz / 100, step);
	CHECK(before >= 9999 && before <= 10001, "%" PRIu64 " packets in 10 ms at 1 Mpps", before);
	CHECK(p.skipped == 0, "nothing skipped while on time (%" PRIu64 ")", p.skipped);
	/* A 2 s outage (nothing asked), then what is due at once, then 10 ms more. */
	t = t0 + hz / 100 + outage;
	burst = due_now(&g, &p, t);
	after = due_over(&g, &p, t + 1, hz / 100, step);
	skipped_us = sl_pacer_skipped_tsc(&p) * 1000000 / hz;
	lag_us = p.lag_max * 1000000 / hz;
	NOTE("after a 2 s outage: %" PRIu64 " packets at once, %" PRIu64 " in the next 10 ms; "
	     "skipped %" PRIu64 " us, lag_max %" PRIu64 " us", burst, after, skipped_us, lag_us);
	/*
	 * The slack's worth (1 ms: 1,000 packets) made up, the rest let go;
	 * SL_PACER_OWE_US of it owed, repaid at 1/64 of the rate: 10,156 in
	 * the next 10 ms, and 156 us less let go.
	 */
	CHECK(burst >= 999 && burst <= 1000 * 64 / 63 + 1, "%" PRIu64
	      " packets at once after the outage", burst);
	CHECK(after >= 10154 && after <= 10160, "%" PRIu64 " packets in the 10 ms after", after);
	CHECK(skipped_us >= 1998820 && skipped_us <= 1998846, "skipped %" PRIu64 " us", skipped_us);
	CHECK(p.owed >> 16 >= (SL_PACER_OWE_US - 180) * us && p.owed >> 16 <= (SL_PACER_OWE_US - 150) * us,
	      "owed %" PRIu64 " us", (p.owed >> 16) / us);
	p.owed = 0; /* what follows checks the slack alone */
	CHECK(lag_us >= 1999990 && lag_us <= 2000100, "the whole lag is recorded: %" PRIu64 " us",
	      lag_us);
	/* At the bound: a lag just under it is made up whole; of one just over it, the excess is owed. */
	{
		uint64_t sk = p.skipped, n;

		t += 1 + hz / 100;
		due_now(&g, &p, t);
		t += SL_PACER_CATCHUP_US * us - 5 * us;
		n = due_now(&g, &p, t);
		CHECK(n >= 994 && n <= 996 && p.skipped == sk,
		      "a %d us lag: %" PRIu64 " made up at once, skipped %" PRIu64 " more",
		      SL_PACER_CATCHUP_US - 5, n, p.skipped - sk);
		t += SL_PACER_CATCHUP_US * us + 5 * us;
		n = due_now(&g, &p, t);
		/* Its 5 us past the bound owed, and repaid within the catch-up itself. */
		CHECK(n >= 1003 && n <= 1000 * 64 / 63 + 1 && p.skipped == sk && p.owed == 0,
		      "a %d us lag: %" PRIu64 " at once, skipped %" PRIu64 " cycles more, owed %"
		      PRIu64, SL_PACER_CATCHUP_US + 5, n, (p.skipped - sk) >> 16, p.owed >> 16);
	}
	/* A pool-empty retry gives the burst back (p.mark) without skipping more. */
	{
		uint64_t sk, n, again;

		t += hz / 10000; /* 100 us later: 100 due, BURST at a time */
		n = sl_gen_due(&g, &p, t, BURST);
		sk = p.skipped;
		sl_pacer_give_back(&p);
		again = sl_gen_due(&g, &p, t, BURST);
		CHECK(n == again && n != 0, "given back %" PRIu64 ", due again %" PRIu64, n, again);
		CHECK(p.skipped == sk, "the retry skipped %" PRIu64 " more", p.skipped - sk);
	}
	/* The floor: a burst shorter than the time given keeps the time. */
	sl_pacer_set_slack(&p, 1, SL_PACER_CATCHUP_US);
	CHECK(p.slack >> 16 >= SL_PACER_CATCHUP_US * us - 1, "slack floor %" PRIu64,
	      p.slack >> 16);
	return 0;
}

/*
 * Evenly spaced frames (a benchmark's trials): at 61 kpps (a frame every
 * 16.4 us) of a 200 us stall 50 us (3 frames) is made up and 150 us let go,
 * and what follows is one frame at a time at the rate; a stall shorter than
 * a frame's time is made up.
 */
SL_TEST(pacer_even_spacing, "fast")
{
	const struct sl_rate rate = { SL_RATE_PPS, 61000 };
	const uint64_t hz = sl_tsc_hz(), us = hz / 1000000, step = hz / 10000000 + 1;
	const uint64_t t0 = 1000 * hz;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t n, most = 0, t;

	CHECK(g.s != NULL, "no test stream");
	CHECK(sl_pacer_init(&p, &rate) == 0, "init");
	sl_pacer_set_slack(&p, 1, SL_PACER_EVEN_US);
	n = due_over(&g, &p, t0, hz / 100, step);
	CHECK(n >= 609 && n <= 611, "%" PRIu64 " in 10 ms at 61 kpps", n);
	t = t0 + hz / 100 + 200 * us;
	n = due_now(&g, &p, t);
	CHECK(n >= 3 && n <= 4 && sl_pacer_skipped_tsc(&p) / us >= 146 &&
	      sl_pacer_skipped_tsc(&p) / us <= 151, "after a 200 us stall %" PRIu64
	      " at once, skipped %" PRIu64 " us", n, sl_pacer_skipped_tsc(&p) / us);
	for (uint64_t x = t + step; x < t + hz / 100; x += step) {
		uint64_t k = sl_gen_due(&g, &p, x, BURST);

		most = RTE_MAX(most, k);
	}
	CHECK(most == 1, "at most %" PRIu64 " frame at once at the rate", most);
	/* 10 us late (under a frame's 16.4 us): made up, nothing more skipped. */
	{
		uint64_t sk = p.skipped;

		t += hz / 100;
		due_now(&g, &p, t);
		n = due_now(&g, &p, t + 26 * us); /* the next frame 10 us overdue, or so */
		CHECK(n >= 1 && n <= 2 && p.skipped == sk, "10 us late: %" PRIu64
		      " at once, skipped %" PRIu64 " more", n, p.skipped - sk);
	}
	return 0;
}

/*
 * Time let go is repaid: 1 s at 1 Mpps, evenly spaced (a trial's pacer),
 * the lcore stalled for 300 us every 50 ms (19 stalls, 4.75 ms of them
 * past the 50 us slack): every packet of the second is sent, by the second's
 * end nothing is left let go or owed, and no more than the slack's worth
 * (50 packets) goes at once. A packet made and given back (the pool dry)
 * leaves the accounts as they were.
 */
SL_TEST(pacer_repays_let_go, "fast")
{
	const struct sl_rate rate = { SL_RATE_PPS, RATE_PPS };
	const uint64_t hz = sl_tsc_hz(), us = hz / 1000000, step = hz / 10000000 + 1;
	const uint64_t t0 = 1000 * hz;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t n = 0, most = 0, t = t0, let_go_max = 0;

	CHECK(g.s != NULL, "no test stream");
	CHECK(sl_pacer_init(&p, &rate) == 0, "init");
	sl_pacer_set_slack(&p, 1, SL_PACER_EVEN_US);
	for (int k = 0; k < 20; k++) {
		bool first = true;

		if (k != 0)
			t += 300 * us; /* the stall */
		for (; t < t0 + (uint64_t)k * hz / 20 + hz / 20; t += step) {
			uint64_t d = sl_gen_due(&g, &p, t, BURST);

			n += d;
			most = RTE_MAX(most, d);
			if (first)
				let_go_max = RTE_MAX(let_go_max, sl_pacer_skipped_tsc(&p) / us);
			first = false;
		}
	}
	n += due_now(&g, &p, t0 + hz);
	NOTE("1 s at 1 Mpps, 19 stalls of 300 us: %" PRIu64 " packets, at most %" PRIu64
	     " at once; let go at most %" PRIu64 " us along the way, %" PRIu64 " us at the end",
	     n, most, let_go_max, sl_pacer_skipped_tsc(&p) / us);
	CHECK(let_go_max >= 249, "the stalls were let go first (%" PRIu64 " us)", let_go_max);
	CHECK(n >= 999999 && n <= 1000001, "%" PRIu64 " packets in the second", n);
	CHECK(p.skipped == 0 && p.owed == 0 && p.skipped_units == 0,
	      "left let go %" PRIu64 ", owed %" PRIu64, p.skipped, p.owed);
	CHECK(most <= 51, "%" PRIu64 " packets at once", most);
	/* Given back: owed, let go and the deadline as they were before the call. */
	{
		uint64_t sk, ow, nx, d;

		t = t0 + hz + 200 * us;
		due_now(&g, &p, t);
		CHECK(p.owed != 0, "a stall owed");
		t += us; /* one packet due, on time: it repays */
		sk = p.skipped;
		ow = p.owed;
		nx = p.next;
		d = sl_gen_due(&g, &p, t, BURST);
		CHECK(d >= 1 && p.owed < ow, "%" PRIu64 " due, owed %" PRIu64 " from %" PRIu64, d,
		      p.owed, ow);
		sl_pacer_give_back(&p);
		CHECK(p.owed == ow && p.skipped == sk && p.next == nx,
		      "given back: owed %" PRIu64 "/%" PRIu64 " let go %" PRIu64 "/%" PRIu64,
		      p.owed, ow, p.skipped, sk);
	}
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
	const uint64_t hz = sl_tsc_hz(), step = hz / 10000000 + 1;
	const uint64_t wrap = UINT64_C(1) << 48, t0 = 1000 * hz;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t a, b;

	CHECK(g.s != NULL, "no test stream");
	CHECK(sl_pacer_init(&p, &rate) == 0, "init");
	sl_pacer_set_slack(&p, BURST, SL_PACER_CATCHUP_US);
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

/* Publish a rate as sl_session_rate_live() does (the sequence lock). */
static void
publish_rate(struct sl_target *t, uint8_t unit, uint64_t per)
{
	__atomic_fetch_add(&t->rate_gen, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&t->rate_unit, unit, __ATOMIC_RELAXED);
	__atomic_store_n(&t->rate_per_unit, per, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->rate_gen, 1, __ATOMIC_RELEASE);
}

/*
 * set rate max while the pacer owes, then the pool dry (a give-back, as at
 * top speed it is): nothing owed or let go comes back, the time let go stays
 * finite, and a later outage at a paced rate is counted (found by review: a
 * stale repayment was given back through a per_unit of 0, making the time
 * let go infinite, which the snapshot then read as 0).
 */
SL_TEST(pacer_unpaced_give_back, "fast")
{
	const struct sl_rate rate = { SL_RATE_PPS, RATE_PPS };
	const uint64_t hz = sl_tsc_hz(), us = hz / 1000000, t0 = 1000 * hz;
	struct sl_gen g = { .s = test_stream() };
	struct sl_target *t = rte_zmalloc(NULL, sizeof(*t), RTE_CACHE_LINE_SIZE);
	uint64_t tt = t0, per, sk, lg;

	CHECK(g.s != NULL && t != NULL, "setup");
	CHECK(sl_pacer_init(&t->pacer, &rate) == 0, "init");
	per = t->pacer.per_unit;
	t->slack_units[0] = 1;
	t->slack_us = SL_PACER_EVEN_US;
	sl_pacer_set_slack(&t->pacer, 1, SL_PACER_EVEN_US);
	due_now(&g, &t->pacer, tt);
	tt += 1000 * us; /* a 1 ms stall: 950 us owed */
	due_now(&g, &t->pacer, tt);
	tt += us;
	CHECK(sl_gen_due(&g, &t->pacer, tt, BURST) != 0 && t->pacer.mark_repaid != 0,
	      "a call that repaid");
	publish_rate(t, SL_RATE_NONE, 0);
	sl_target_rate_update(t);
	sk = t->pacer.skipped;
	sl_gen_due(&g, &t->pacer, tt + us, BURST);
	sl_pacer_give_back(&t->pacer);
	CHECK(t->pacer.owed == 0 && t->pacer.skipped == sk && isfinite(t->pacer.skipped_units),
	      "unpaced give-back: owed %" PRIu64 ", let go +%" PRIu64 ", units %g", t->pacer.owed,
	      t->pacer.skipped - sk, t->pacer.skipped_units);
	publish_rate(t, SL_RATE_PPS, per);
	sl_target_rate_update(t);
	tt += 2 * us;
	due_now(&g, &t->pacer, tt);
	tt += 100000 * us; /* a 100 ms outage */
	due_now(&g, &t->pacer, tt);
	lg = (uint64_t)(sl_pacer_skipped_frames(&t->pacer, 1) + 0.5);
	NOTE("after a 100 ms outage at 1 Mpps: %" PRIu64 " frames let go in all", lg);
	/* 100 ms less the 50 us made up, and the 950 us the old rate let go. */
	CHECK(lg >= 100800 && lg <= 100950, "%" PRIu64 " let go", lg);
	rte_free(t);
	return 0;
}

/* What is left let go of a 5 ms stall at 10 Mpps after 1 s of calls every @p step cycles. */
static uint64_t
left_after(uint64_t step, uint64_t *sent)
{
	const struct sl_rate rate = { SL_RATE_PPS, 10e6 };
	const uint64_t hz = sl_tsc_hz(), us = hz / 1000000, t0 = 1000 * hz;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t t = t0, n = 0;

	sl_pacer_init(&p, &rate);
	sl_pacer_set_slack(&p, 1, SL_PACER_EVEN_US);
	n += sl_gen_due(&g, &p, t, BURST);
	t += 5000 * us;
	for (; t < t0 + hz; t += step)
		n += sl_gen_due(&g, &p, t, BURST);
	n += due_now(&g, &p, t0 + hz);
	*sent = n;
	return sl_pacer_skipped_tsc(&p) / us;
}

/*
 * The repayment does not depend on how often the worker calls: at 10 Mpps,
 * a 5 ms stall is repaid within the second whether each call makes 1 frame,
 * 10 or 30 (found by review: only a call's last frame repaid, so 30 frames a
 * call repaid 1/30 as fast and left 4.4 ms let go).
 */
SL_TEST(pacer_repay_any_cadence, "fast")
{
	const uint64_t hz = sl_tsc_hz();
	const uint64_t steps[] = { hz / 10000000 + 1, hz / 1000000, 3 * hz / 1000000 };

	for (unsigned int i = 0; i < RTE_DIM(steps); i++) {
		uint64_t sent, left = left_after(steps[i], &sent);

		NOTE("10 Mpps, a 5 ms stall, calls every %.1f us: %" PRIu64 " sent in 1 s, %" PRIu64
		     " us left let go", (double)steps[i] * 1e6 / (double)hz, sent, left);
		CHECK(left == 0 && sent >= 9999999 && sent <= 10000002, "%" PRIu64 " sent, %" PRIu64
		      " us let go", sent, left);
	}
	return 0;
}

/*
 * A give-back restores the pacer exactly (its deadline, what it owes, what
 * it let go, in cycles and in bits): every call of 1 s at 1 Gb/s L1 that
 * repays, with a 300 us stall every 25 ms.
 */
SL_TEST(pacer_give_back_exact, "fast")
{
	const struct sl_rate rate = { SL_RATE_L1, 1e9 };
	const uint64_t hz = sl_tsc_hz(), us = hz / 1000000, t0 = 1000 * hz, step = 3 * hz / 10000000;
	struct sl_gen g = { .s = test_stream() };
	struct sl_pacer p;
	uint64_t t = t0, bad = 0, calls = 0;

	sl_pacer_init(&p, &rate);
	sl_pacer_set_slack(&p, 672, SL_PACER_EVEN_US);
	due_now(&g, &p, t);
	for (int k = 0; k < 40; k++) {
		t += 300 * us;
		for (uint64_t e = t + hz / 40; t < e; t += step) {
			struct sl_pacer pre = p, q;

			if (sl_gen_due(&g, &p, t, BURST) == 0 || p.mark != pre.next)
				continue; /* a call that skipped keeps its skip */
			q = p;
			sl_pacer_give_back(&q);
			bad += q.next != pre.next || q.owed != pre.owed || q.skipped != pre.skipped ||
			       q.skipped_units != pre.skipped_units;
			calls++;
		}
	}
	NOTE("%" PRIu64 " calls given back, %" PRIu64 " not restored exactly", calls, bad);
	CHECK(calls > 100000 && bad == 0, "%" PRIu64 " of %" PRIu64 " not restored", bad, calls);
	return 0;
}

/*
 * sl_pacer.behind_max bounds what the pacer sends above its rate: a DUT
 * that serves exactly the rate never queues more than behind_max's worth
 * of frames and one burst, whatever the stalls. Made-up TSC, two patterns
 * on a fresh pacer each: stalls of 30 us (under the slack), then eight of
 * 500 us 5 ms apart (found by review: each adds to what it owes, and the
 * queue grew past five times lag_max's worth), then calm; and one stall of
 * 30 ms (past what it may owe) among short ones.
 */
SL_TEST(pacer_behind_bounds_queue, "fast")
{
	const struct sl_rate rate = { SL_RATE_PPS, RATE_PPS };
	const uint64_t hz = sl_tsc_hz(), us = hz / 1000000, step = hz / 10000000 + 1;
	static const uint32_t stalls[2][13] = {
		{ 30, 30, 30, 500, 500, 500, 500, 500, 500, 500, 500, 0, 0 },
		{ 30, 200, 30000, 30, 500, 0, 0, 0, 0, 0, 0, 0, 0 },
	};

	for (int k = 0; k < 2; k++) {
		struct sl_gen g = { .s = test_stream() };
		struct sl_pacer p;
		double q = 0, qmax = 0, bound, lag_bound;
		uint64_t t = 1000 * hz, last = t;

		CHECK(sl_pacer_init(&p, &rate) == 0, "init");
		sl_pacer_set_slack(&p, 1, SL_PACER_EVEN_US);
		for (int i = 0; i < 13; i++) {
			uint64_t until = t + (i < 12 ? 5000 : 400000) * us;

			t += stalls[k][i] * us;
			for (; t < until; t += step) {
				uint64_t d = sl_gen_due(&g, &p, t, BURST);

				q = fmax(0, q - RATE_PPS * (double)(t - last) / (double)hz) + (double)d;
				qmax = fmax(qmax, q);
				last = t;
			}
		}
		bound = ceil((double)(p.behind_max >> 16) * RATE_PPS / (double)hz) + BURST + 1;
		lag_bound = ceil((double)p.lag_max * RATE_PPS / (double)hz) + BURST + 1;
		NOTE("pattern %d: lag_max %.0f us, behind_max %.0f us: the DUT's queue reached %.0f "
		     "frames (bound %.0f; lag_max's worth %.0f)", k, (double)p.lag_max * 1e6 / (double)hz,
		     (double)(p.behind_max >> 16) * 1e6 / (double)hz, qmax, bound, lag_bound);
		CHECK(qmax <= bound, "pattern %d: queue %.0f > behind_max's %.0f frames + a burst", k,
		      qmax, bound);
	}
	return 0;
}
