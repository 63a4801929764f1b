/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The app's worker loop (app/sluice/run/worker.c) driven directly on a worker
 * lcore, against the scripted driver on a locked queue.
 */

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_malloc.h>

#include "sl_xmit_pvt.h"
#include "test.h"
#include "test_common.h"
#include "worker.h"
#include "sl_clock.h"
#include "source.h"

/* w's one target: queue q, packets of st from mp signed by producer, bursts of 32. */
static struct sl_target *
worker_one(struct sl_worker *w, unsigned int lcore, struct sl_txq *q,
	   const struct sl_stream *st, struct rte_mempool *mp, unsigned int producer)
{
	struct sl_target *t;

	if (w->t == NULL)
		w->t = rte_zmalloc(NULL, sizeof(*w->t), RTE_CACHE_LINE_SIZE);
	if (w->t == NULL)
		return NULL;
	t = &w->t[0];
	w->lcore = lcore;
	w->burst = 32;
	w->nb_targets = 1;
	t->txq = q;
	t->gen = (struct sl_gen){ .s = st, .mp = mp, .producer = producer };
	t->src = &sl_source_gen;
	return t;
}

/*
 * Start a worker on a locked queue whose lock the main lcore holds, and
 * hold it until the worker has kept a burst (or has ended, or 5 s): the
 * keep is then certain, not left to how the two threads are scheduled.
 */
static int
launch_held(struct sl_txq *q, struct sl_worker *w, unsigned int lcore)
{
	uint64_t cap = rte_rdtsc() + 5 * sl_tsc_hz();
	struct sl_txq_stats st;

	if (!sl_txq_test_trylock(q) || rte_eal_remote_launch(sl_worker_main, w, lcore) != 0)
		return -1;
	do {
		rte_delay_us_block(10);
		sl_txq_stats_get(q, &st);
	} while (st.deferred == 0 && !__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) &&
		 rte_rdtsc() < cap);
	sl_txq_test_release(q);
	return 0;
}

/*
 * Run w to its end under contention: launch_held(), then the main lcore
 * takes the lock for 25 us out of every 30 until the worker is done (20 s
 * at most), and the backlog is flushed. 0, or -1 (stuck, or flush dropped).
 */
static int
run_contended(struct sl_txq *q, struct sl_worker *w, unsigned int lcore)
{
	uint64_t cap = rte_rdtsc() + 20 * sl_tsc_hz();

	if (launch_held(q, w, lcore) != 0)
		return -1;
	while (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) && rte_rdtsc() < cap) {
		if (sl_txq_test_trylock(q)) {
			rte_delay_us_block(25);
			sl_txq_test_release(q);
		}
		rte_delay_us_block(5);
	}
	if (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE))
		return -1;
	rte_eal_wait_lcore(lcore);
	return sl_txq_flush(q, 100000) == 0 ? 0 : -1;
}

/* The driver saw every producer in order, alone; q, w and mp freed, every mbuf back. */
static int
worker_free(const struct tdrv *d, struct sl_txq *q, struct sl_worker *w, struct rte_mempool *mp)
{
	CHECK(d->order_errors == 0 && d->violations == 0, "order %lu violations %lu",
	      d->order_errors, d->violations);
	sl_txq_free(q);
	rte_free(w->t);
	rte_free(w);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}

/*
 * --duration on a locked queue whose lock is held: every fresh burst is
 * kept by sl_xmit_try(), then sent with the next one. A burst made before
 * the deadline must still be handed over when the deadline passes (as it
 * was before the deferral: the backlog here never fills, so nothing made
 * may stay unsent). It is freed as "unsent" when the deadline's check comes
 * between the keep and the send.
 */
/* The deadline counts from the worker's start (a launch may take longer than the run). */
static int
worker_run_for(void *arg)
{
	struct sl_worker *w = arg;

	w->deadline_tsc = rte_rdtsc() + w->deadline_tsc;
	return sl_worker_main(w);
}

SL_TEST(worker_deadline_sends_kept_burst, "fast")
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	uint64_t hz = sl_tsc_hz(), lost_runs = 0, lost = 0, deferred = 0, made_all = 0;
	const int runs = 30;

	CHECK(lcore < RTE_MAX_LCORE, "a worker lcore");
	for (int r = 0; r < runs; r++) {
		struct tdrv d = { .budget = UINT64_MAX };
		struct rte_mempool *mp = test_pool("t_wdl", 4095);
		struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 8192, 0);
		struct sl_worker *w = rte_zmalloc(NULL, sizeof(*w), RTE_CACHE_LINE_SIZE);
		struct sl_txq_stats st;
		struct sl_target *t;
		uint64_t made;

		CHECK(mp != NULL && q != NULL && w != NULL, "setup");
		t = worker_one(w, lcore, q, test_stream(), mp, 77);
		CHECK(t != NULL, "targets");
		t->quota = UINT64_MAX;
		CHECK(sl_txq_test_trylock(q), "could not take the lock word");
		w->deadline_tsc = hz / 20000; /* 50 us from its start */
		CHECK(rte_eal_remote_launch(worker_run_for, w, lcore) == 0, "launch");
		rte_eal_wait_lcore(lcore);
		made = t->gen.seq; /* every 64-byte frame is signed: one sequence number each */
		sl_txq_test_release(q);
		CHECK(sl_txq_flush(q, 100000) == 0, "flush dropped");
		sl_txq_stats_get(q, &st);
		made_all += made;
		deferred += st.deferred;
		if (t->unsent != 0) {
			lost_runs++;
			lost += t->unsent;
		}
		CHECK(made == t->generated + t->unsent, "made %lu generated %lu unsent %lu", made,
		      t->generated, t->unsent);
		CHECK(d.taken == t->generated && st.tx_packets == t->generated,
		      "driver %lu tx %lu generated %lu", d.taken, st.tx_packets, t->generated);
		CHECK(worker_free(&d, q, w, mp) == 0, "order or leak");
	}
	NOTE("%d runs of 50 us, lock held: %lu frames made, %lu bursts kept; %lu runs ended "
	     "with a kept burst freed unsent (%lu frames)", runs, made_all, deferred, lost_runs,
	     lost);
	CHECK(lost_runs == 0, "%lu of %d runs freed %lu frames made before the deadline "
	      "(a kept burst) instead of sending them", lost_runs, runs, lost);
	return 0;
}

/*
 * --count exactness with kept bursts (one at least, but with a quota of 1),
 * a pool smaller than two bursts' worth of what the backlog holds, and the
 * lock taken and released by the main lcore meanwhile: exactly the quota made, taken and sent, in order, and
 * every mbuf back.
 */
SL_TEST(worker_count_exact_with_kept_bursts, "fast")
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	const uint64_t quota[] = { 10007, 33, 1 };
	const unsigned int pools[] = { 95, 127, 4095 };

	for (unsigned int c = 0; c < RTE_DIM(quota) * RTE_DIM(pools); c++) {
		struct tdrv d = { .budget = UINT64_MAX };
		struct rte_mempool *mp = test_pool("t_wce", pools[c % RTE_DIM(pools)]);
		struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 256, 0);
		struct sl_worker *w = rte_zmalloc(NULL, sizeof(*w), RTE_CACHE_LINE_SIZE);
		struct sl_txq_stats st;
		struct sl_target *t;

		CHECK(mp != NULL && q != NULL && w != NULL, "setup");
		t = worker_one(w, lcore, q, test_stream(), mp, 78);
		CHECK(t != NULL, "targets");
		t->quota = quota[c / RTE_DIM(pools)];
		CHECK(run_contended(q, w, lcore) == 0, "worker stuck or flush dropped (quota %lu "
		      "pool %u)", quota[c / RTE_DIM(pools)], pools[c % RTE_DIM(pools)]);
		sl_txq_stats_get(q, &st);
		NOTE("quota %lu pool %u: made %u generated %lu unsent %lu taken %lu deferred %lu "
		     "pool_empty %lu", quota[c / RTE_DIM(pools)], pools[c % RTE_DIM(pools)],
		     t->gen.seq, t->generated, t->unsent, d.taken, st.deferred, t->pool_empty);
		CHECK(t->gen.seq == quota[c / RTE_DIM(pools)] && t->generated == t->gen.seq &&
		      t->unsent == 0 && d.taken == t->generated && st.tx_packets == d.taken &&
		      t->signed_sent == t->generated, "not exact");
		/* A quota of 1 leaves nothing to make behind a burst: never kept. */
		CHECK((st.deferred != 0) == (t->gen.seq > 1), "deferred %lu with quota %u: "
		      "the test did not test (or a last burst was kept)", st.deferred, t->gen.seq);
		CHECK(worker_free(&d, q, w, mp) == 0, "order or leak");
	}
	return 0;
}

/*
 * signed_sent with some sizes too short for a signature (sig_mix 2, IPv6),
 * where kept bursts combined with the next one count
 * exactly the signed frames the driver took (66 and 70 bytes carry none).
 */
SL_TEST(worker_signed_sent_with_kept_bursts, "fast")
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	static struct sl_stream s;
	struct sl_stream_conf c = {
		.src_mac = { { 0x02, 0, 0, 0, 0, 1 } },
		.dst_mac = { { 0x02, 0, 0, 0, 0, 2 } },
		.ipv6 = true,
		.src_ip6 = { 0x20, 0x01, 0, 2, [15] = 1 },
		.dst_ip6 = { 0x20, 0x01, 0, 2, [15] = 2 },
		.src_port = 9,
		.dst_port = 9,
		.sizes = { 66, 128, 70, 100 },
		.nb_sizes = 4,
	};
	struct tdrv d = { .budget = UINT64_MAX };
	char err[128];
	struct rte_mempool *mp;
	struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 256, 0);
	struct sl_worker *w = rte_zmalloc(NULL, sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct sl_txq_stats st;
	struct sl_target *t;
	unsigned int sg = 0;

	CHECK(sl_stream_build(&s, &c, 1518, err, sizeof(err)) == 0, "stream: %s", err);
	mp = sl_stream_pool_create(&s, "t_wss", 511, SOCKET_ID_ANY);
	CHECK(mp != NULL && q != NULL && w != NULL, "setup");
	for (uint16_t z = 0; z < s.nb_sizes; z++)
		sg += s.sz[z].sig != 0;
	CHECK(sg != 0 && sg != s.nb_sizes, "want some sizes signed, some not (%u of %u)", sg,
	      s.nb_sizes);
	t = worker_one(w, lcore, q, &s, mp, 79);
	CHECK(t != NULL, "targets");
	t->quota = 200003;
	t->sig_mix = 2;
	t->sig_min_len = (uint32_t)s.hdr_len + SL_SIG_LEN;
	CHECK(run_contended(q, w, lcore) == 0, "worker stuck or flush dropped");
	sl_txq_stats_get(q, &st);
	NOTE("generated %lu signed_sent %lu signed made %u signed taken %u deferred %lu",
	     t->generated, t->signed_sent, t->gen.seq, d.next_seq[79], st.deferred);
	CHECK(st.deferred != 0, "no burst was kept: the test did not test");
	CHECK(t->generated == 200003 && d.taken == 200003, "generated %lu taken %lu",
	      t->generated, d.taken);
	CHECK(t->signed_sent == t->gen.seq && t->signed_sent == d.next_seq[79],
	      "signed_sent %lu, signed made %u, signed taken %u", t->signed_sent, t->gen.seq,
	      d.next_seq[79]);
	CHECK(worker_free(&d, q, w, mp) == 0, "order or leak");
	return 0;
}

/*
 * A paced target whose kept bursts fill its pending array while a shared
 * queue's lock is held across the deadline (found by review): the frames
 * its rate asks over the window are made, or counted let go (asked = rate x
 * window). The main loop does not call the pacer while the array is full;
 * worker_last() hands the array over first, then makes what is due, and
 * lets go (counted) what it still could not make. Before, 127 frames of
 * 1,000,000 were made and none counted.
 */
SL_TEST(worker_deadline_counts_the_window, "fast")
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	const struct sl_rate rate = { SL_RATE_PPS, 50e6 };
	uint64_t hz = sl_tsc_hz();
	struct tdrv d = { .budget = UINT64_MAX };
	struct rte_mempool *mp = test_pool("t_rvpf", 4095);
	struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 8192, 0);
	struct sl_worker *w = rte_zmalloc(NULL, sizeof(*w), RTE_CACHE_LINE_SIZE);
	struct sl_target *t;
	double want, made, let_go;

	CHECK(lcore < RTE_MAX_LCORE && mp != NULL && q != NULL && w != NULL, "setup");
	t = worker_one(w, lcore, q, test_stream(), mp, 80);
	CHECK(t != NULL, "targets");
	t->quota = UINT64_MAX;
	CHECK(sl_pacer_init(&t->pacer, &rate) == 0, "pacer");
	t->slack_units[0] = 32;
	t->slack_units[1] = t->slack_units[2] = 32 * 672;
	t->slack_us = SL_PACER_CATCHUP_US;
	sl_pacer_set_slack(&t->pacer, 32, SL_PACER_CATCHUP_US);
	CHECK(sl_txq_test_trylock(q), "could not take the lock word");
	w->deadline_tsc = hz / 50; /* 20 ms from its start */
	CHECK(rte_eal_remote_launch(worker_run_for, w, lcore) == 0, "launch");
	rte_eal_wait_lcore(lcore);
	sl_txq_test_release(q);
	CHECK(sl_txq_flush(q, 100000) == 0, "flush dropped");
	/* The window: the worker's start to the deadline (worker_run_for's, a little later). */
	want = 50e6 * (double)(w->deadline_tsc - w->start_tsc) / (double)hz;
	made = (double)t->gen.seq;
	let_go = sl_pacer_skipped_frames(&t->pacer, 1);
	NOTE("20 ms at 50 Mpps, lock held: made %.0f (generated %lu unsent %lu) + let go %.0f = "
	     "%.0f of %.0f the rate asked", made, t->generated, t->unsent, let_go, made + let_go,
	     want);
	CHECK(made + let_go >= want - 2, "the window's frames neither made nor counted: %.0f of "
	      "%.0f", want - made - let_go, want);
	CHECK(worker_free(&d, q, w, mp) == 0, "order or leak");
	return 0;
}
