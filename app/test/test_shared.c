/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * architecture.md section 7 under real concurrency: one queue shared by 2, 4
 * and 8 producer lcores (the binary runs 9 lcores on the machine's CPUs, so
 * 8 producers outnumber the 2 CPUs of CI), in every shared mode, on the
 * simulated NIC with its wire verifier.
 */

#include <pthread.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>

#include "sl_sim.h"
#include "sl_xmit_pvt.h"
#include "test.h"
#include "test_common.h"
#include "sl_clock.h"

#define PER_PRODUCER 40000
#define CAP_S 20 /* a producer never runs longer than this */

struct shared_run {
	enum sl_txq_mode mode;
	unsigned int nprod;
	bool sim_lltx;
	bool poll;        /* main lcore runs the scheduler poll */
	bool link_down;   /* take the link down half way, stop on a stuck device */
	bool flap;        /* link down half way for FLAP_MS, then up again */
	uint32_t flags;   /* the queue's SL_TXQ_F_* (SL_TXQ_F_DROP_ON_FULL) */
	bool sim_fine;    /* the sim's fine-grained LLTX personality (lltx=fine) */
	bool defer;       /* producers call sl_xmit_try() and add a burst when kept */
};

#define FLAP_MS 300

static int
shared_run(const struct shared_run *r)
{
	struct sl_sim_conf sc = { .speed_bps = 10000000000ull, .txd = 256, .nb_txq = 1,
				  .lltx = r->sim_lltx, .fine = r->sim_fine, .verify = true,
				  .socket_id = SOCKET_ID_ANY };
	struct sl_sim *sim = sl_sim_create(&sc);
	struct prod p[RTE_MAX_LCORE];
	struct rte_mempool *mp[RTE_MAX_LCORE];
	volatile uint32_t more = 1;
	struct sl_txq_stats st;
	struct sl_sim_stats ss;
	uint64_t generated = 0, unsent = 0, in_use = 0, t0, hz = sl_tsc_hz(), down_tsc = 0;
	uint64_t up_tsc = 0;
	uint32_t backlog_max = 0; /* seen while the link was down (flap) */
	unsigned int lcore = rte_get_main_lcore(), n = 0;
	struct sl_txq *q;

	RTE_SET_USED(lcore);
	int flushed;

	CHECK(sim != NULL, "sim");
	q = test_txq(sl_sim_xmit, sl_sim_txq(sim, 0), sl_sim_caps(sim), r->mode, 0, r->flags);
	CHECK(q != NULL, "queue");
	/*
	 * The link goes down once half a producer's share is on the wire, as
	 * the main lcore sees it every 100 us: at 10G the whole 160,000 frames
	 * take 11 ms, which a loaded machine can keep the main lcore from
	 * seeing (seen: everything sent, nothing left to drop). A wire 100
	 * times slower gives it over 100 ms.
	 */
	if (r->link_down)
		sl_sim_set_slowdown(sim, 100);
	memset(p, 0, sizeof(p));
	t0 = rte_rdtsc();
	while (n < r->nprod) {
		char name[32];

		lcore = rte_get_next_lcore(lcore, 1, 0);
		CHECK(lcore < RTE_MAX_LCORE, "need %u worker lcores", r->nprod);
		snprintf(name, sizeof(name), "t_sh%u_%u", lcore, (unsigned int)(rte_rdtsc() & 0xffff));
		mp[n] = test_pool(name, 4095);
		CHECK(mp[n] != NULL, "pool");
		p[n] = (struct prod){
			.q = q,
			.gen = { .s = test_stream(), .mp = mp[n], .producer = lcore },
			.target = PER_PRODUCER,
			.more = r->link_down ? NULL : &more,
			.cap_tsc = t0 + (r->link_down ? 1 : CAP_S) * hz, /* a stuck device: stop after 1 s */
			.defer = r->defer,
		};
		rte_eal_remote_launch(producer_main, &p[n], lcore);
		n++;
	}
	/* Run until collisions (and LOCKED answers, for lltx) have been seen. */
	for (;;) {
		bool seen;

		if (r->poll)
			sl_txq_poll(q);
		sl_txq_stats_get(q, &st);
		if (r->sim_fine && !r->link_down) {
			/* No lock to collide on: run until callers met inside the driver. */
			sl_sim_stats_get(sim, &ss);
			seen = ss.overlaps > 0;
		} else {
			/*
			 * locked: both ends of the bounded wait, as the check
			 * below wants them (a loaded machine gave 2 collisions,
			 * both waited, when this stopped at the first wait).
			 * A producer counts a collision, then its wait: one may
			 * be between the two as this reads them (a reading
			 * stopped a run on such a gap, which ended 810 of 810
			 * waited), so two collisions not waited for are asked.
			 * (One per producer made a busy machine's stress suite
			 * 46 s longer: hand-offs are rare there.)
			 */
			seen = st.collisions > 0 && st.requeued > 0 &&
			       (r->mode != SL_TXQ_LLTX || st.locked > 0) &&
			       (r->mode != SL_TXQ_LOCKED ||
				(st.waited > 0 && st.collisions > st.waited + 1)) &&
			       (!r->defer || st.deferred > 0);
		}
		/* A flap runs on until 100 ms after the link is back. */
		if (r->flap)
			seen = up_tsc != 0 && rte_rdtsc() - up_tsc > hz / 10;
		if (seen || r->mode == SL_TXQ_SPIN || rte_rdtsc() - t0 > CAP_S * hz)
			__atomic_store_n(&more, 0, __ATOMIC_RELAXED); /* producers load it atomically */
		if (r->link_down && st.tx_packets > PER_PRODUCER / 2)
			sl_sim_set_link(sim, false);
		if (r->flap && down_tsc == 0 && st.tx_packets > PER_PRODUCER / 2) {
			sl_sim_set_link(sim, false);
			down_tsc = rte_rdtsc();
		}
		if (down_tsc != 0 && down_tsc != UINT64_MAX) {
			backlog_max = RTE_MAX(backlog_max, st.backlog);
			if (rte_rdtsc() - down_tsc > FLAP_MS * hz / 1000) {
				sl_sim_set_link(sim, true);
				down_tsc = UINT64_MAX;
				up_tsc = rte_rdtsc();
			}
		}
		{
			unsigned int done = 0;

			for (unsigned int i = 0; i < n; i++)
				done += __atomic_load_n(&p[i].done, __ATOMIC_ACQUIRE);
			if (done == n)
				break;
		}
		rte_delay_us_sleep(100);
	}
	rte_eal_mp_wait_lcore();
	t0 = rte_rdtsc();
	flushed = sl_txq_flush(q, 50000);
	CHECK(flushed >= 0, "flush: %d", flushed);
	CHECK(rte_rdtsc() - t0 < 5 * hz, "flush took %.1f s", (double)(rte_rdtsc() - t0) / hz);
	sl_sim_drain(sim, 1000000);
	sl_txq_stats_get(q, &st);
	sl_sim_stats_get(sim, &ss);
	for (unsigned int i = 0; i < n; i++) {
		generated += p[i].generated;
		unsent += p[i].unsent;
	}
	NOTE("%-6s%s %u producers: generated %lu tx %lu dropped %lu collisions %lu waited %lu "
	     "locked %lu requeued %lu busy %lu | wire %lu lost %lu dup %lu reord %lu violations %lu "
	     "overlaps %lu", sl_txq_mode_name(r->mode), r->sim_fine ? " (fine)" : "", r->nprod,
	     generated, st.tx_packets, st.dropped, st.collisions, st.waited, st.locked,
	     st.requeued, st.busy, ss.wire_frames, ss.lost, ss.duplicates, ss.reordered,
	     ss.violations, ss.overlaps);
	CHECK(ss.violations == 0, "%lu concurrent entries on a non-LLTX queue", ss.violations);
	if (r->defer) {
		uint64_t kept = 0;

		for (unsigned int i = 0; i < n; i++)
			kept += p[i].deferred;
		NOTE("bursts kept by their producers: %lu (engine: %lu)", kept, st.deferred);
		CHECK(kept > 0 && kept == st.deferred,
		      "sl_xmit_try: producers kept %lu bursts, the engine counted %lu", kept,
		      st.deferred);
	}
	if (r->flap) {
		/* The backlog filled while the link was down (else this proved nothing). */
		NOTE("link down %u ms: backlog up to %u; dropped backlog_full %lu, flush %lu",
		     FLAP_MS, backlog_max, st.drop_backlog_full, st.drop_flush);
		CHECK(backlog_max >= 1023 - 64 * r->nprod, "backlog only reached %u", backlog_max);
		CHECK(down_tsc == UINT64_MAX, "the link did not come back");
		if (r->flags & SL_TXQ_F_DROP_ON_FULL)
			CHECK(st.drop_backlog_full > 0 && st.dropped == st.drop_backlog_full,
			      "drop policy: dropped %lu, backlog_full %lu", st.dropped,
			      st.drop_backlog_full);
		else
			CHECK(st.dropped == 0, "back-pressure must drop nothing (dropped %lu)",
			      st.dropped);
	}
	/*
	 * What the engine dropped on purpose is the verifier's only loss: every
	 * gap it found is a counted drop (drops after a producer's last frame on
	 * the wire leave no gap to find, so it may find fewer).
	 */
	CHECK(ss.lost <= st.drop_backlog_full && (st.drop_backlog_full == 0 || ss.lost > 0) &&
	      ss.duplicates == 0 && ss.reordered == 0,
	      "verifier: lost %lu (engine backlog_full drops %lu) duplicates %lu reordered %lu",
	      ss.lost, st.drop_backlog_full, ss.duplicates, ss.reordered);
	CHECK(st.backlog == 0, "backlog %u after stop", st.backlog);
	CHECK(generated == st.tx_packets + st.dropped + st.backlog,
	      "not conserved: generated %lu != tx %lu + dropped %lu + backlog %u", generated,
	      st.tx_packets, st.dropped, st.backlog);
	CHECK(ss.frames == st.tx_packets, "driver took %lu, engine counted %lu", ss.frames,
	      st.tx_packets);
	CHECK(ss.wire_frames + ss.discarded == ss.frames, "wire lost frames");
	if (r->sim_fine && !r->link_down && !r->flap) {
		CHECK(ss.overlaps > 0, "no two callers met inside the driver: the test proved nothing");
	} else if (r->mode != SL_TXQ_SPIN && !r->link_down && !r->flap) {
		CHECK(st.collisions > 0 && st.requeued > 0,
		      "no collision happened: the test proved nothing");
	}
	if (r->sim_fine)
		CHECK(st.locked == 0 && ss.locked == 0, "the fine sim answered LOCKED (%lu)",
		      ss.locked);
	/* locked: both ends of the bounded wait ran, the lock taken and the hand-off. */
	if (r->mode == SL_TXQ_LOCKED && !r->link_down && !r->flap)
		CHECK(st.waited > 0 && st.waited < st.collisions,
		      "bounded wait: waited %lu of %lu collisions (both outcomes must occur)",
		      st.waited, st.collisions);
	if (r->mode == SL_TXQ_LLTX && !r->link_down && !r->flap && !r->sim_fine)
		CHECK(st.locked > 0 && st.locked <= ss.locked,
		      "LOCKED answers: engine %lu, sim %lu", st.locked, ss.locked);
	if (r->link_down)
		CHECK(st.dropped > 0 && st.drop_flush == st.dropped,
		      "a stuck device at stop must leave counted drops (dropped %lu)", st.dropped);
	sl_txq_free(q);
	sl_sim_free(sim);
	for (unsigned int i = 0; i < n; i++) {
		in_use += rte_mempool_in_use_count(mp[i]);
		rte_mempool_free(mp[i]);
	}
	CHECK(in_use == 0, "%lu mbufs not back in their pools", in_use);
	return 0;
}

SL_TEST(shared_locked, "stress")
{
	for (unsigned int n = 2; n <= 8; n *= 2)
		if (shared_run(&(struct shared_run){ .mode = SL_TXQ_LOCKED, .nprod = n, .poll = true }) != 0)
			return -1;
	return 0;
}

/* Producers that keep a burst while the lock is held and send it with the next. */
SL_TEST(shared_locked_defer, "stress")
{
	for (unsigned int n = 2; n <= 8; n *= 2)
		if (shared_run(&(struct shared_run){ .mode = SL_TXQ_LOCKED, .nprod = n, .poll = true,
						     .defer = true }) != 0)
			return -1;
	return 0;
}

SL_TEST(shared_lltx, "stress")
{
	for (unsigned int n = 2; n <= 8; n *= 2)
		if (shared_run(&(struct shared_run){ .mode = SL_TXQ_LLTX, .nprod = n,
						     .sim_lltx = true, .poll = true }) != 0)
			return -1;
	return 0;
}

/* The sim's fine-grained LLTX personality: callers fill descriptors concurrently. */
SL_TEST(shared_lltx_fine, "stress")
{
	for (unsigned int n = 2; n <= 8; n *= 2)
		if (shared_run(&(struct shared_run){ .mode = SL_TXQ_LLTX, .nprod = n,
						     .sim_lltx = true, .poll = true,
						     .sim_fine = true }) != 0)
			return -1;
	return 0;
}

SL_TEST(shared_spin, "stress")
{
	for (unsigned int n = 2; n <= 8; n *= 2)
		if (shared_run(&(struct shared_run){ .mode = SL_TXQ_SPIN, .nprod = n, .poll = true }) != 0)
			return -1;
	return 0;
}

/* Link down half way: producers are back-pressured, stop flushes within bounds. */
SL_TEST(shared_stuck_device_at_stop, "stress")
{
	if (shared_run(&(struct shared_run){ .mode = SL_TXQ_LOCKED, .nprod = 4, .poll = true,
					     .link_down = true }) != 0)
		return -1;
	if (shared_run(&(struct shared_run){ .mode = SL_TXQ_LLTX, .nprod = 4, .sim_lltx = true,
					     .poll = true, .link_down = true }) != 0)
		return -1;
	return shared_run(&(struct shared_run){ .mode = SL_TXQ_LLTX, .nprod = 4, .sim_lltx = true,
						.poll = true, .link_down = true, .sim_fine = true });
}

/*
 * A full backlog, from a link down for FLAP_MS mid-run and up again, with
 * the default back-pressure (nothing dropped, nothing lost) and with
 * SL_TXQ_F_DROP_ON_FULL (the excess dropped, counted by reason, and exactly
 * what the wire verifier finds missing); both conserve and leak nothing.
 */
SL_TEST(shared_backlog_full_link_flap, "stress")
{
	for (int lltx = 0; lltx <= 1; lltx++)
		for (int drop = 0; drop <= 1; drop++) {
			struct shared_run r = { .mode = lltx ? SL_TXQ_LLTX : SL_TXQ_LOCKED, .nprod = 4,
						.sim_lltx = lltx, .poll = true, .flap = true,
						.flags = drop ? SL_TXQ_F_DROP_ON_FULL : 0 };

			if (shared_run(&r) != 0)
				return -1;
		}
	return 0;
}

/*
 * No stranding without any poll: a sink that never fills, many producers,
 * no scheduler; when the producers are done the backlog must be empty.
 * Run with --no-recheck to see what the missed re-check prevents.
 */
static int
no_strand(enum sl_txq_mode mode)
{
	/*
	 * The driver yields the CPU while it holds the lock (the engine's in
	 * locked mode, its own in lltx mode): with 8 producers on 2 CPUs the
	 * others run into it, so collisions happen on purpose, not by luck.
	 */
	struct tdrv d = { .budget = UINT64_MAX, .lltx = mode == SL_TXQ_LLTX, .hold_loops = 300,
			  .yield_inside = 1 };
	unsigned int hit = 0; /* rounds with at least one collision */
	unsigned int bounded = 0; /* rounds left flagged by a re-check bound */
	uint64_t coll0 = 0, bound0 = 0;
	struct sl_txq *q = test_txq(tdrv_xmit, &d, d.lltx ? SL_DRV_CAP_LLTX : 0, mode, 0, 0);
	struct prod p[8] = { 0 };
	struct rte_mempool *mp[8];
	unsigned int lcore = rte_get_main_lcore(), n = 0, rounds = 0, stranded = 0;
	uint64_t generated = 0;
	struct sl_txq_stats st = { 0 };

	CHECK(q != NULL, "queue");
	/*
	 * locked: a bound of 30 us, about the driver's hold (300 pauses and a
	 * yield), so that both ends of the bounded wait are common here: the
	 * lock taken after a wait (then what is ahead is drained first) and the
	 * hand-off when the holder was descheduled.
	 */
	q->wait_min = q->wait_max = (uint32_t)(sl_tsc_hz() * 30 / 1000000);
	if (sl_test_no_recheck)
		q->test_flags |= SL_TXQ_T_NO_RECHECK;
	/*
	 * One pool for all: whoever drains frees a producer's packets into its
	 * own lcore's mempool cache, where they stay; 8 pools of 2047 would each
	 * end up in the 7 other lcores' caches (up to 384 each) and run dry.
	 */
	{
		char name[32];

		snprintf(name, sizeof(name), "t_ns_%u", (unsigned int)(rte_rdtsc() & 0xffff));
		mp[0] = test_pool(name, 8191);
		CHECK(mp[0] != NULL, "pool");
		for (n = 1; n < 8; n++)
			mp[n] = mp[0];
	}
	/*
	 * Many short rounds: each ends with a race between the last producers
	 * (150 of about 30 ms each here, with 8 lcores on 2 CPUs). locked: on
	 * until a contender has also waited and taken the lock, up to 450 (a
	 * busy machine's holders are so often descheduled that every
	 * collision of 13,399 ended in a hand-off).
	 */
	for (rounds = 0; rounds < 150 || (mode == SL_TXQ_LOCKED && st.waited == 0 &&
					   rounds < 450); rounds++) {
		volatile uint32_t go = 0;

		lcore = rte_get_main_lcore();
		for (n = 0; n < 8; n++) {
			lcore = rte_get_next_lcore(lcore, 1, 0);
			p[n] = (struct prod){
				.q = q,
				.gen = { .s = test_stream(), .mp = mp[n], .producer = lcore,
					 .seq = p[n].gen.seq },
				/* per round: generated carries over from the last one */
				.target = p[n].generated + 256,
				.go = &go,
				.cap_tsc = rte_rdtsc() + 10 * sl_tsc_hz(),
				.generated = p[n].generated,
			};
			rte_eal_remote_launch(producer_main, &p[n], lcore);
		}
		/* How this round's last release ended (set by each release). */
		__atomic_store_n(&q->test_last_release, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		/* Sleep, do not spin: leave both CPUs to the producers. */
		for (unsigned int done = 0; done < 8;) {
			rte_delay_us_sleep(50);
			done = 0;
			for (n = 0; n < 8; n++)
				done += __atomic_load_n(&p[n].done, __ATOMIC_ACQUIRE);
		}
		rte_eal_mp_wait_lcore();
		sl_txq_stats_get(q, &st);
		hit += st.collisions != coll0;
		coll0 = st.collisions;
		if (sl_txq_backlog(q) != 0) {
			bool flagged = __atomic_load_n(&q->missed, __ATOMIC_RELAXED) != 0;

			NOTE("round %u left %u: missed %u drv_missed %u lock %u pending %u", rounds,
			     sl_txq_backlog(q), q->missed, q->drv_missed, q->lock,
			     sl_txq_pending(q));
			/*
			 * A release that re-drained SL_RECHECK_MAX times gives
			 * up with missed set, for the next producer or the
			 * poll (bounded time, by design). Anything else is a
			 * lost wake-up.
			 */
			/*
			 * Bounded only if a release really stopped at its bound
			 * and it was the round's last release (an earlier one
			 * that stopped does not excuse a later lost wake-up).
			 */
			if (flagged && st.release_bound != bound0 &&
			    __atomic_load_n(&q->test_last_release, __ATOMIC_RELAXED) == 1)
				bounded++;
			else
				stranded++;
			sl_txq_flush(q, 1000); /* so that the next round starts clean */
			/*
			 * The flush dropped sequences: the driver's order check
			 * restarts at each producer's next one (else every
			 * bounded round counted as order errors, seen under
			 * ThreadSanitizer's slower timing).
			 */
			for (n = 0; n < 8; n++)
				d.next_seq[(uint8_t)p[n].gen.producer] = p[n].gen.seq;
		}
		bound0 = st.release_bound;
	}
	sl_txq_stats_get(q, &st);
	for (n = 0; n < 8; n++)
		generated += p[n].generated;
	NOTE("%s: %u rounds, %u ended with a stranded backlog, %u flagged for the poll; %u rounds "
	     "collided; collisions %lu (waited %lu) locked %lu, order errors %lu%s",
	     sl_txq_mode_name(mode), rounds, stranded, bounded, hit,
	     st.collisions, st.waited, st.locked, d.order_errors,
	     sl_test_no_recheck ? " (re-check OFF)" : "");
	CHECK(stranded == 0, "%u rounds left packets stranded in the backlog", stranded);
	/*
	 * A release that stops at its bound is correct (the flag stays for
	 * the poll), so this only catches an engine that gives up in most
	 * rounds: a third, not a tight figure (the unmodified engine with
	 * yields injected reached 17 of 300; a twentieth failed it once).
	 * Lost wake-ups are the litmus tests' (test_litmus.c), which leave
	 * the protocol no other way out.
	 */
	CHECK(bounded <= rounds / 3, "%u of %u rounds left for the poll", bounded, rounds);
	/* Proved nothing unless most rounds raced: at least 2 of 3, 5 collisions each. */
	CHECK(hit >= rounds * 2 / 3 && st.collisions >= 5ull * rounds,
	      "too few collisions (%lu, in %u of %u rounds): the test proved nothing",
	      st.collisions, hit, rounds);
	/*
	 * locked: the bounded wait ran both ways, lock taken and hand-off.
	 * Never a wait in 450 rounds is a machine too loaded to try it: said
	 * (shared_locked runs until both ends occur, and judges them).
	 */
	if (mode == SL_TXQ_LOCKED && st.waited == 0)
		printf("SKIP - %s: no contender waited and took the lock in %u rounds (%lu "
		       "collisions, each a hand-off: a loaded machine)\n", __func__, rounds,
		       st.collisions);
	else
		CHECK(mode != SL_TXQ_LOCKED || st.waited < st.collisions,
		      "bounded wait: waited %lu of %lu collisions", st.waited, st.collisions);
	CHECK(d.order_errors == 0 && d.violations == 0, "order %lu violations %lu",
	      d.order_errors, d.violations);
	CHECK(generated == st.tx_packets + st.dropped, "not conserved");
	sl_txq_free(q);
	CHECK(rte_mempool_in_use_count(mp[0]) == 0, "leak");
	rte_mempool_free(mp[0]);
	return 0;
}

SL_TEST(shared_no_strand_without_poll, "stress")
{
	if (no_strand(SL_TXQ_LOCKED) != 0)
		return -1;
	return no_strand(SL_TXQ_LLTX);
}

/*
 * Issue 10, hole 2, as reported: two plain pthreads (not registered with
 * EAL, so they share a counter slot), 3,000 bursts each, locked mode.
 */
struct uprod {
	struct prod p;
	pthread_t t;
};

static void *
uprod_main(void *arg)
{
	producer_main(arg);
	return NULL;
}

SL_TEST(shared_unregistered_threads, "stress")
{
	struct tdrv d = { .budget = UINT64_MAX };
	struct sl_txq *q = test_txq(tdrv_xmit, &d, 0, SL_TXQ_LOCKED, 0, 0);
	struct rte_mempool *mp = test_pool("t_shu", 4095);
	struct uprod u[2];
	volatile uint32_t go = 0;
	uint64_t generated = 0;
	struct sl_txq_stats st;

	CHECK(q != NULL && mp != NULL, "setup");
	for (int i = 0; i < 2; i++) {
		memset(&u[i], 0, sizeof(u[i]));
		u[i].p = (struct prod){
			.q = q,
			.gen = { .s = test_stream(), .mp = mp, .producer = 210 + i },
			.target = 3000 * 32,
			.go = &go,
			.cap_tsc = rte_rdtsc() + CAP_S * sl_tsc_hz(),
		};
		CHECK(pthread_create(&u[i].t, NULL, uprod_main, &u[i].p) == 0, "thread");
	}
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++) {
		pthread_join(u[i].t, NULL);
		generated += u[i].p.generated;
	}
	sl_txq_stats_get(q, &st);
	NOTE("2 unregistered threads: engine took %lu, driver %lu, tx %lu, dead_loops %lu, "
	     "dropped %lu, collisions %lu, backlog %u", generated, d.taken, st.tx_packets,
	     st.dead_loops, st.dropped, st.collisions, st.backlog);
	CHECK(st.dead_loops == 0 && st.dropped == 0, "dead_loops %lu dropped %lu", st.dead_loops,
	      st.dropped);
	CHECK(generated == 2 * 3000 * 32, "generated %lu", generated);
	CHECK(st.tx_packets == d.taken, "tx_packets %lu, the driver took %lu", st.tx_packets,
	      d.taken);
	CHECK(generated == st.tx_packets + st.dropped + st.backlog, "not conserved");
	CHECK(d.order_errors == 0 && d.violations == 0, "order %lu violations %lu",
	      d.order_errors, d.violations);
	CHECK(sl_txq_flush(q, 1000) == 0, "flush dropped");
	sl_txq_free(q);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}
