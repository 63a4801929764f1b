/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contracts of sl_xmit.h, one lcore at a time (except the deterministic
 * missed-wakeup case, which needs two).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_malloc.h>

#include "sl_xmit_pvt.h"
#include "test.h"
#include "test_common.h"

static unsigned int
burst(struct rte_mempool *mp, struct sl_gen *g, struct rte_mbuf **pk, unsigned int n)
{
	if (g->mp == NULL)
		*g = (struct sl_gen){ .s = test_stream(), .mp = mp, .producer = rte_lcore_id() };
	return sl_gen_burst(g, pk, n, rte_rdtsc());
}

SL_TEST(xmit_create_rejects_bad_conf, "fast")
{
	struct tdrv d = { .budget = UINT64_MAX };
	struct sl_txq *q;

	q = test_txq(NULL, &d, 0, SL_TXQ_EXCLUSIVE, 0, 0);
	CHECK(q == NULL && rte_errno == EINVAL, "no xmit accepted");
	q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LLTX, 0, 0);
	CHECK(q == NULL && rte_errno == EINVAL, "LLTX mode without the capability accepted");
	q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 1000, 0);
	CHECK(q == NULL && rte_errno == EINVAL, "backlog size not a power of two accepted");
	q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 0, 1u << 7);
	CHECK(q == NULL && rte_errno == EINVAL, "unknown flag accepted");
	q = test_txq(tdrv_xmit, &d, 0, (enum sl_txq_mode)9, 0, 0);
	CHECK(q == NULL && rte_errno == EINVAL, "unknown mode accepted");
	q = test_txq(tdrv_xmit, &d, SL_DRV_CAP_LLTX, SL_TXQ_LLTX, 0, 0);
	CHECK(q != NULL, "valid conf refused: %s", rte_strerror(rte_errno));
	sl_txq_free(q);
	sl_txq_free(NULL);
	return 0;
}

SL_TEST(xmit_mode_select, "fast")
{
	CHECK(sl_txq_mode_select(1, SL_DRV_CAP_LLTX, SL_LOCK_SPIN) == SL_TXQ_EXCLUSIVE, "1 lcore");
	CHECK(sl_txq_mode_select(0, 0, SL_LOCK_TRYLOCK) == SL_TXQ_EXCLUSIVE, "0 lcores");
	CHECK(sl_txq_mode_select(2, SL_DRV_CAP_LLTX, SL_LOCK_TRYLOCK) == SL_TXQ_LLTX, "lltx");
	CHECK(sl_txq_mode_select(2, SL_DRV_CAP_LLTX, SL_LOCK_SPIN) == SL_TXQ_LLTX, "lltx wins");
	CHECK(sl_txq_mode_select(3, 0, SL_LOCK_TRYLOCK) == SL_TXQ_LOCKED, "locked");
	CHECK(sl_txq_mode_select(3, 0, SL_LOCK_SPIN) == SL_TXQ_SPIN, "spin");
	CHECK(strcmp(sl_txq_mode_name(SL_TXQ_LOCKED), "locked") == 0, "name");
	CHECK(strcmp(sl_txq_mode_name(SL_TXQ_EXCLUSIVE), "exclusive") == 0, "name");
	return 0;
}

/* A partial send keeps the tail at the head; the next burst goes behind it. */
static int
busy_tail_in_order(enum sl_txq_mode mode)
{
	struct tdrv d = { .budget = 10, .lltx = mode == SL_TXQ_LLTX };
	struct rte_mempool *mp = test_pool("t_busy", 1023);
	struct sl_txq *q = test_txq(tdrv_xmit, &d, d.lltx ? SL_DRV_CAP_LLTX : 0, mode, 0, 0);
	struct rte_mbuf *pk[32];
	struct sl_txq_stats st;
	struct sl_gen g = { 0 };
	uint16_t k;

	CHECK(mp != NULL && q != NULL, "setup");
	CHECK(burst(mp, &g, pk, 32) == 32, "alloc");
	k = sl_xmit(q, pk, 32);
	CHECK(k == 32, "engine took %u of 32", k);
	sl_txq_stats_get(q, &st);
	CHECK(st.tx_packets == 10 && st.busy == 1 && st.requeued == 22 && st.backlog == 22,
	      "tx %lu busy %lu requeued %lu backlog %u", st.tx_packets, st.busy, st.requeued,
	      st.backlog);
	d.budget = UINT64_MAX;
	CHECK(burst(mp, &g, pk, 32) == 32, "alloc");
	k = sl_xmit(q, pk, 32);
	CHECK(k == 32, "second burst took %u", k);
	if (mode != SL_TXQ_EXCLUSIVE)
		sl_txq_poll(q);
	CHECK(sl_txq_flush(q, 1000) == 0, "flush dropped packets");
	sl_txq_stats_get(q, &st);
	CHECK(st.tx_packets == 64 && st.backlog == 0 && st.dropped == 0, "tx %lu backlog %u",
	      st.tx_packets, st.backlog);
	CHECK(d.order_errors == 0, "%lu packets out of order", d.order_errors);
	CHECK(st.tx_bytes == 64 * 60, "tx_bytes %lu", st.tx_bytes);
	sl_txq_free(q);
	CHECK(rte_mempool_in_use_count(mp) == 0, "%u mbufs leaked", rte_mempool_in_use_count(mp));
	rte_mempool_free(mp);
	return 0;
}

SL_TEST(xmit_busy_tail_in_order, "fast")
{
	for (int m = SL_TXQ_EXCLUSIVE; m <= SL_TXQ_SPIN; m++) {
		NOTE("mode %s", sl_txq_mode_name(m));
		if (busy_tail_in_order(m) != 0)
			return -1;
	}
	return 0;
}

/* A full backlog back-pressures (ret < n, nothing dropped); flush counts the rest. */
SL_TEST(xmit_backlog_full_backpressure, "fast")
{
	struct tdrv d = { .budget = 0 };
	struct rte_mempool *mp = test_pool("t_bp", 1023);
	struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 64, 0);
	struct rte_mbuf *pk[32];
	struct sl_txq_stats st;
	struct sl_gen g = { 0 };
	uint64_t t0;
	int dropped;

	CHECK(mp != NULL && q != NULL, "setup");
	for (int i = 0; i < 2; i++) {
		CHECK(burst(mp, &g, pk, 32) == 32, "alloc");
		CHECK(sl_xmit(q, pk, 32) == 32, "burst %d refused", i);
	}
	CHECK(burst(mp, &g, pk, 32) == 32, "alloc");
	CHECK(sl_xmit(q, pk, 32) == 0, "a full backlog took more");
	sl_txq_stats_get(q, &st);
	CHECK(st.dropped == 0 && st.backlog == 64 && st.tx_packets == 0, "dropped %lu backlog %u",
	      st.dropped, st.backlog);
	rte_pktmbuf_free_bulk(pk, 32); /* ours: the engine did not take them */
	t0 = rte_rdtsc();
	dropped = sl_txq_flush(q, 2000);
	CHECK(dropped == 64, "flush dropped %d", dropped);
	CHECK(rte_rdtsc() - t0 < rte_get_tsc_hz(), "flush of a stuck device did not time out");
	sl_txq_stats_get(q, &st);
	CHECK(st.backlog == 0 && st.dropped == 64 && st.drop_flush == 64, "after flush");
	sl_txq_free(q);
	CHECK(rte_mempool_in_use_count(mp) == 0, "%u mbufs leaked", rte_mempool_in_use_count(mp));
	rte_mempool_free(mp);
	return 0;
}

SL_TEST(xmit_backlog_full_drop_policy, "fast")
{
	struct tdrv d = { .budget = 0 };
	struct rte_mempool *mp = test_pool("t_dp", 1023);
	struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_EXCLUSIVE, 32, SL_TXQ_F_DROP_ON_FULL);
	struct rte_mbuf *pk[32];
	struct sl_txq_stats st;
	struct sl_gen g = { 0 };

	CHECK(mp != NULL && q != NULL, "setup");
	for (int i = 0; i < 3; i++) {
		CHECK(burst(mp, &g, pk, 32) == 32, "alloc");
		CHECK(sl_xmit(q, pk, 32) == 32, "drop policy must take every packet");
	}
	sl_txq_stats_get(q, &st);
	CHECK(st.backlog == 32 && st.dropped == 64 && st.drop_backlog_full == 64,
	      "backlog %u dropped %lu", st.backlog, st.dropped);
	CHECK(sl_txq_flush(q, 100) == 32, "flush");
	sl_txq_free(q);
	CHECK(rte_mempool_in_use_count(mp) == 0, "%u mbufs leaked", rte_mempool_in_use_count(mp));
	rte_mempool_free(mp);
	return 0;
}

/* A re-entrant xmit from inside the driver is dropped and counted, in every mode. */
SL_TEST(xmit_dead_loop, "fast")
{
	for (int m = SL_TXQ_EXCLUSIVE; m <= SL_TXQ_SPIN; m++) {
		struct tdrv d = { .budget = UINT64_MAX, .lltx = m == SL_TXQ_LLTX };
		struct rte_mempool *mp = test_pool("t_dl", 1023);
		struct sl_txq *q = test_txq(tdrv_xmit, &d, d.lltx ? SL_DRV_CAP_LLTX : 0, m, 0, 0);
		struct rte_mbuf *pk[8];
		struct sl_txq_stats st;
		struct sl_gen g = { 0 };

		NOTE("mode %s", sl_txq_mode_name(m));
		CHECK(mp != NULL && q != NULL, "setup");
		d.reenter = q;
		d.reenter_mp = mp;
		CHECK(burst(mp, &g, pk, 8) == 8, "alloc");
		CHECK(sl_xmit(q, pk, 8) == 8, "outer burst");
		CHECK(d.reenter_ret == 1, "inner call must report its packet taken (dropped)");
		sl_txq_stats_get(q, &st);
		CHECK(st.dead_loops == 1 && st.drop_dead_loop == 1 && st.dropped == 1,
		      "dead_loops %lu dropped %lu", st.dead_loops, st.dropped);
		CHECK(st.tx_packets == 8, "outer burst sent %lu", st.tx_packets);
		d.reenter = NULL;
		sl_txq_free(q);
		CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
		rte_mempool_free(mp);
	}
	return 0;
}

struct collide_arg {
	struct sl_txq *q;
	struct rte_mempool *mp;
	uint16_t ret;
};

static int
collide_main(void *arg)
{
	struct collide_arg *a = arg;
	struct rte_mbuf *pk[32];
	struct sl_gen g = { 0 };

	if (burst(a->mp, &g, pk, 32) != 32)
		return -1;
	a->ret = sl_xmit(a->q, pk, 32);
	return 0;
}

/*
 * The missed-wakeup race, made deterministic: the main lcore owns the
 * queue while a worker's burst collides; the owner's release must find the
 * flag and drain. With the re-check switched off the burst is stranded,
 * which proves that the re-check (not luck or a poll) is what sends it.
 */
SL_TEST(xmit_missed_recheck, "fast")
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);

	for (int off = 0; off < 2; off++) {
		struct tdrv d = { .budget = UINT64_MAX };
		struct collide_arg a = { .mp = test_pool("t_mr", 1023) };
		struct sl_txq_stats st;

		a.q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 0, 0);
		CHECK(a.mp != NULL && a.q != NULL && worker < RTE_MAX_LCORE, "setup");
		if (off)
			a.q->test_flags |= SL_TXQ_T_NO_RECHECK;
		CHECK(sl_txq_test_trylock(a.q), "main lcore could not own the queue");
		rte_eal_remote_launch(collide_main, &a, worker);
		rte_eal_wait_lcore(worker);
		sl_txq_stats_get(a.q, &st);
		CHECK(a.ret == 32 && st.collisions == 1 && st.requeued == 32 && st.backlog == 32,
		      "collision not queued: ret %u collisions %lu backlog %u", a.ret,
		      st.collisions, st.backlog);
		sl_txq_test_release(a.q);
		sl_txq_stats_get(a.q, &st);
		if (!off) {
			CHECK(st.backlog == 0 && st.tx_packets == 32,
			      "owner's release did not drain: backlog %u", st.backlog);
		} else {
			CHECK(st.backlog == 32 && st.tx_packets == 0,
			      "without the re-check the burst should be stranded");
			NOTE("without the re-check: %u packets stranded, as expected", st.backlog);
			CHECK(sl_txq_poll(a.q) == 32, "the poll must rescue stranded packets");
		}
		sl_txq_flush(a.q, 100);
		sl_txq_free(a.q);
		CHECK(rte_mempool_in_use_count(a.mp) == 0, "leak");
		rte_mempool_free(a.mp);
	}
	return 0;
}

/* The poll leaves exclusive queues to their producer, and never blocks. */
SL_TEST(xmit_poll_rules, "fast")
{
	struct tdrv d = { .budget = 4 };
	struct rte_mempool *mp = test_pool("t_pr", 1023);
	struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_EXCLUSIVE, 0, 0);
	struct sl_txq *s = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 0, 0);
	struct rte_mbuf *pk[16];
	struct sl_gen g = { 0 };

	CHECK(mp != NULL && q != NULL && s != NULL, "setup");
	CHECK(burst(mp, &g, pk, 16) == 16 && sl_xmit(q, pk, 16) == 16, "exclusive burst");
	d.budget = UINT64_MAX;
	CHECK(sl_txq_poll(q) == 0 && sl_txq_backlog(q) == 12, "poll touched an exclusive queue");
	CHECK(sl_txq_flush(q, 1000) == 0 && sl_txq_backlog(q) == 0, "flush");
	d.budget = 0;
	g = (struct sl_gen){ 0 };
	CHECK(burst(mp, &g, pk, 16) == 16 && sl_xmit(s, pk, 16) == 16, "locked burst");
	d.budget = UINT64_MAX;
	CHECK(sl_txq_test_trylock(s), "own");
	CHECK(sl_txq_poll(s) == 0, "poll must not drain a queue someone owns");
	sl_txq_test_release(s); /* drains: missed is not set, backlog stays */
	CHECK(sl_txq_poll(s) == 16 && sl_txq_backlog(s) == 0, "poll must drain a free queue");
	sl_txq_free(q);
	sl_txq_free(s);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}

/* The producer of an exclusive queue drains its own backlog; the poll may not. */
SL_TEST(xmit_drain_own, "fast")
{
	struct tdrv d = { .budget = 10 };
	struct rte_mempool *mp = test_pool("t_do", 1023);
	struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_EXCLUSIVE, 0, 0);
	struct sl_txq *l = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 0, 0);
	struct rte_mbuf *pk[32];
	struct sl_gen g = { 0 };

	CHECK(mp != NULL && q != NULL && l != NULL, "setup");
	CHECK(burst(mp, &g, pk, 32) == 32 && sl_xmit(q, pk, 32) == 32, "burst");
	CHECK(sl_txq_backlog(q) == 22, "tail of a BUSY send in the backlog");
	CHECK(sl_txq_drain_own(q) == 0 && sl_txq_backlog(q) == 22, "a full device takes nothing");
	d.budget = UINT64_MAX;
	CHECK(sl_txq_poll(q) == 0, "the poll must not touch an exclusive queue");
	CHECK(sl_txq_drain_own(q) == 22 && sl_txq_backlog(q) == 0, "its producer drains it");
	CHECK(sl_txq_drain_own(q) == 0, "nothing left");
	CHECK(sl_txq_drain_own(l) == 0, "not for shared queues");
	CHECK(d.order_errors == 0, "order");
	sl_txq_free(q);
	sl_txq_free(l);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}
