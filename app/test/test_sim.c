/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated NIC's contract (sl_sim.h): wire time, BUSY, fault injection. */

#include <rte_cycles.h>

#include "sl_sim.h"
#include "test.h"
#include "test_common.h"
#include "sl_clock.h"

/* Send n 64-byte frames in one call; return the wire span (first start to last end), in ns. */
static double
sim_span(struct sl_sim *sim, struct rte_mempool *mp, unsigned int n, uint16_t *sent,
	 enum sl_xmit_status *st)
{
	struct rte_mbuf *pk[64];
	struct sl_gen g = { .s = test_stream(), .mp = mp, .producer = rte_lcore_id() };
	struct sl_sim_stats ss;

	if (sl_gen_burst(&g, pk, n, rte_rdtsc()) != n)
		return -1;
	*sent = sl_sim_xmit(sl_sim_txq(sim, 0), pk, n, st);
	if (*sent < n)
		rte_pktmbuf_free_bulk(pk + *sent, n - *sent);
	sl_sim_drain(sim, 100000);
	sl_sim_stats_get(sim, &ss);
	return (double)(ss.last_end_tsc - ss.first_start_tsc) * 1e9 / sl_tsc_hz();
}

SL_TEST(sim_wire_time_and_faults, "fast")
{
	struct sl_sim_conf c = { .speed_bps = 10000000000ull, .txd = 64, .nb_txq = 1,
				 .socket_id = SOCKET_ID_ANY };
	struct rte_mempool *mp = test_pool("t_sim", 1023);
	struct sl_sim_stats ss;
	enum sl_xmit_status st;
	struct sl_sim *sim;
	uint16_t sent;
	double ns, one = 84 * 8 / 10.0; /* 64-byte frame at 10G: 67.2 ns */
	uint64_t t0;

	CHECK(mp != NULL, "pool");
	/* 64 frames of 84 bytes on the wire at 10G. */
	sim = sl_sim_create(&c);
	CHECK(sim != NULL, "sim");
	ns = sim_span(sim, mp, 64, &sent, &st);
	CHECK(sent == 64 && st == SL_XMIT_OK, "sent %u", sent);
	CHECK(ns > 64 * one * 0.99 && ns < 64 * one * 1.01, "wire span %.1f ns, want %.1f", ns,
	      64 * one);
	sl_sim_free(sim);

	/* A full ring answers BUSY with the prefix that fit. */
	c.txd = 16;
	sim = sl_sim_create(&c);
	CHECK(sim != NULL, "sim");
	ns = sim_span(sim, mp, 40, &sent, &st);
	CHECK(sent == 16 && st == SL_XMIT_BUSY, "ring of 16 took %u (%d)", sent, st);
	sl_sim_free(sim);

	/* Slow drain: the wire runs 10 times slower. */
	c.txd = 64;
	sim = sl_sim_create(&c);
	CHECK(sim != NULL, "sim");
	sl_sim_set_slowdown(sim, 10);
	ns = sim_span(sim, mp, 64, &sent, &st);
	CHECK(ns > 640 * one * 0.99 && ns < 640 * one * 1.01, "slowed span %.1f ns", ns);
	sl_sim_free(sim);

	/* Stall: nothing starts on the wire for 500 us. */
	sim = sl_sim_create(&c);
	CHECK(sim != NULL, "sim");
	t0 = rte_rdtsc();
	sl_sim_stall(sim, 500);
	sim_span(sim, mp, 8, &sent, &st);
	sl_sim_stats_get(sim, &ss);
	/* Nothing sent would leave first_start_tsc 0, and 0 - t0 wraps to a pass. */
	CHECK(sent == 8 && st == SL_XMIT_OK, "stalled wire took %u (%d)", sent, st);
	CHECK(ss.wire_frames == 8 && ss.first_start_tsc > t0, "wire frames %lu, first start %lu",
	      ss.wire_frames, ss.first_start_tsc);
	CHECK((double)(ss.first_start_tsc - t0) * 1e6 / sl_tsc_hz() >= 499,
	      "first frame started %.1f us after the stall", (double)(ss.first_start_tsc - t0) * 1e6 /
	      sl_tsc_hz());
	sl_sim_free(sim);

	/* Link down: nothing taken; up again: taken. */
	sim = sl_sim_create(&c);
	CHECK(sim != NULL, "sim");
	sl_sim_set_link(sim, false);
	sim_span(sim, mp, 8, &sent, &st);
	CHECK(sent == 0 && st == SL_XMIT_BUSY, "link down took %u", sent);
	sl_sim_set_link(sim, true);
	sim_span(sim, mp, 8, &sent, &st);
	CHECK(sent == 8 && st == SL_XMIT_OK, "link up took %u", sent);
	sl_sim_stats_get(sim, &ss);
	CHECK(ss.wire_frames == 8 && ss.busy == 1, "wire %lu busy %lu", ss.wire_frames, ss.busy);
	sl_sim_free(sim);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}

/*
 * The verifier's latency (sl_sim.h): a frame on the wire before it was
 * signed, by the clocks (a signing lcore's TSC ahead of the sim's), is
 * counted in lat_backwards and kept out of min, avg and max.
 */
SL_TEST(sim_verify_backwards, "fast")
{
	struct sl_sim_conf c = { .speed_bps = 10000000000ull, .txd = 64, .nb_txq = 1,
				 .socket_id = SOCKET_ID_ANY, .verify = true };
	struct rte_mempool *mp = test_pool("t_sim_back", 127);
	struct sl_gen g = { .s = test_stream(), .mp = mp, .producer = 0 };
	uint64_t hz = sl_tsc_hz();
	struct rte_mbuf *pk[16];
	struct sl_sim_stats ss;
	enum sl_xmit_status st;
	struct sl_sim *sim;
	uint16_t sent;

	CHECK(mp != NULL, "pool");
	sim = sl_sim_create(&c);
	CHECK(sim != NULL, "sim");
	/* 8 frames signed now, then 8 signed a second ahead of every clock. */
	CHECK(sl_gen_burst(&g, pk, 8, rte_rdtsc()) == 8, "burst");
	CHECK(sl_gen_burst(&g, pk + 8, 8, rte_rdtsc() + hz) == 8, "burst");
	sent = sl_sim_xmit(sl_sim_txq(sim, 0), pk, 16, &st);
	CHECK(sent == 16 && st == SL_XMIT_OK, "sent %u (%d)", sent, st);
	sl_sim_drain(sim, 100000);
	sl_sim_stats_get(sim, &ss);
	NOTE("signed %lu lost %lu backwards %lu latency ns min %lu avg %lu max %lu",
	     ss.signed_frames, ss.lost, ss.lat_backwards, ss.lat_min_ns, ss.lat_avg_ns,
	     ss.lat_max_ns);
	CHECK(ss.signed_frames == 16 && ss.lost == 0 && ss.lat_backwards == 8,
	      "signed %lu lost %lu backwards %lu", ss.signed_frames, ss.lost, ss.lat_backwards);
	CHECK(ss.lat_min_ns > 0 && ss.lat_min_ns <= ss.lat_avg_ns && ss.lat_avg_ns <= ss.lat_max_ns &&
	      ss.lat_max_ns < 500000000, "latency of the 8 on time: min %lu avg %lu max %lu ns",
	      ss.lat_min_ns, ss.lat_avg_ns, ss.lat_max_ns);
	sl_sim_free(sim);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}
