/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Litmus tests of the engine's hand-off protocols (sl_xmit.c's header,
 * docs/lltx.md): each sets up the one race a guard exists for, over and over,
 * with no scheduler poll and no timed settle, so that the protocol is the only
 * way out. A trial ends when both sides have returned; a packet still in the
 * backlog then is stranded: nobody is left to send it. The tests judge counts
 * (0 stranded, 0 reordered, 0 lost) and that the race really ran (enough
 * collisions), never a time. scripts/mutate.sh removes each guard in turn and
 * requires one of these (or another test) to fail.
 *
 * Two sides meet at a TSC instant the coordinator sets (the TSC is the same
 * on every CPU), each after a random delay of its own, so that their critical
 * steps land within a few cycles of each other in many trials: a
 * store-buffering race (a guard's fence removed) needs the two sides on two
 * CPUs at once, inside a window of tens of cycles.
 */

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_pause.h>

#include "sl_sim.h"
#include "sl_xmit_pvt.h"
#include "test.h"
#include "test_common.h"
#include "sl_clock.h"

#define LIT_TRIALS 200000
#define LIT_CAP_S 120   /* trials stop here on a slow machine; not judged */
#define LIT_STUCK_S 20  /* side B with no trial done for this long: a hung engine */
#define LIT_CLOSE 1000  /* the sides' critical steps this close (TSC cycles): at once */
#define LIT_LEAD 4000   /* TSC cycles from publishing a trial to its start */
#define LIT_SPREAD 600  /* each side's random delay: 0 .. LIT_SPREAD - 1 cycles */
#define LIT_HOLD_US 200 /* the litmus driver's longest stay inside, per trial */

/*
 * The litmus driver: sends everything (never BUSY), frees it at once. With
 * lltx it has its own trylock, answers LOCKED when it fails and releases
 * with a plain store-release (no read-modify-write after it, which on x86
 * would act as the very fence a test wants to see missing). Without, it
 * counts concurrent entries (the engine's lock must exclude them).
 */
struct ldrv {
	bool lltx;
	uint32_t lock;
	uint32_t inside;
	unsigned int hold_lcore;  /* this lcore's first call of a trial stays inside: */
	uint32_t hold_armed;      /* set for each trial, taken by that call */
	uint32_t b_inside;        /* that call is inside, holding the driver's lock */
	uint64_t hold;            /* after a LOCKED answer to another, this many cycles more */
	uint64_t t_exit;          /* TSC: the held call lets go of the driver's lock */
	uint64_t t_locked;        /* TSC: the last LOCKED answer (to the other side) */
	uint64_t taken;           /* under the driver's or the engine's lock */
	uint64_t locked;          /* atomic */
	uint64_t violations;      /* atomic */
};

static uint16_t
ldrv_xmit(void *dq, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *st)
{
	struct ldrv *d = dq;

	if (d->lltx) {
		uint32_t exp = 0;

		if (__atomic_load_n(&d->lock, __ATOMIC_RELAXED) != 0 ||
		    !__atomic_compare_exchange_n(&d->lock, &exp, 1, 0, __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED)) {
			d->t_locked = rte_rdtsc(); /* only the other side meets the lock */
			__atomic_fetch_add(&d->locked, 1, __ATOMIC_RELAXED);
			*st = SL_XMIT_LOCKED;
			return 0;
		}
	} else if (__atomic_fetch_add(&d->inside, 1, __ATOMIC_ACQUIRE) != 0) {
		__atomic_fetch_add(&d->violations, 1, __ATOMIC_RELAXED);
	}
	if (rte_lcore_id() == d->hold_lcore &&
	    __atomic_exchange_n(&d->hold_armed, 0, __ATOMIC_ACQ_REL)) {
		/*
		 * Stay inside until another caller has been answered LOCKED
		 * (yielding now and then, in case it waits for this CPU), at
		 * most LIT_HOLD_US; then leave after a random few cycles, as
		 * its drain comes to retry.
		 */
		uint64_t l0 = __atomic_load_n(&d->locked, __ATOMIC_ACQUIRE);
		uint64_t end = rte_rdtsc() + LIT_HOLD_US * sl_tsc_hz() / 1000000;
		unsigned int spins = 0;

		__atomic_store_n(&d->b_inside, 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&d->locked, __ATOMIC_ACQUIRE) == l0 && rte_rdtsc() < end)
			if (++spins % 256 == 0)
				sched_yield();
		end = rte_rdtsc() + d->hold;
		while (rte_rdtsc() < end)
			;
		d->t_exit = end;
	}
	d->taken += n;
	rte_pktmbuf_free_bulk(pkts, n);
	*st = SL_XMIT_OK;
	if (d->lltx)
		__atomic_store_n(&d->lock, 0, __ATOMIC_RELEASE);
	else
		__atomic_fetch_sub(&d->inside, 1, __ATOMIC_RELEASE);
	return n;
}

struct litmus;
typedef void (*lit_step_t)(struct litmus *l);

struct litmus {
	struct sl_txq *q;
	struct ldrv d;
	lit_step_t prep, act_a, act_b; /* prep: the coordinator, before a trial */
	struct sl_gen gen_a, gen_b;
	uint64_t rnd;
	uint32_t trial;      /* published by the coordinator (release) */
	uint32_t b_done;     /* the trial side B finished (release) */
	uint32_t b_arrived;  /* the trial side B is about to send (release) */
	bool a_sends;        /* side A sends a packet of its own after its release */
	bool b_try_wait;     /* side B sends with sl_xmit_try_wait() (then sl_xmit() if kept) */
	uint64_t cap;        /* TSC: no new trial after this */
	unsigned int b_lcore; /* side B's lcore (its own counter slot) */
	uint64_t t_a, t_b;   /* TSC of each side's critical step in this trial */
	uint64_t close;      /* trials whose critical steps were within LIT_CLOSE */
	uint64_t prep_fail;  /* trials whose lock word could not be taken (none expected) */
	uint64_t flush_fail; /* flushes between trials that could not own the queue */
	uint32_t stop;
	uint64_t start;      /* TSC at which the trial starts */
	uint64_t delay_b;    /* side B's delay after start */
	uint64_t gen_a_n, gen_b_n; /* packets handed to the engine */
	uint64_t nopkt;      /* bursts the pool could not give (none expected) */
	uint64_t prequeued;  /* trials that began with a packet queued, missed set */
	uint64_t stranded;
};

static uint64_t
lit_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
lit_until(uint64_t tsc)
{
	while (rte_rdtsc() < tsc)
		;
}

/*
 * Side A: wait until *flag is set (or side B is done with this trial), then
 * a random few cycles more. Yields now and then: under load both sides may
 * share a CPU, and the race must still happen (the tests' proof of it is a
 * count, which must not depend on how busy the machine is).
 */
static void
lit_wait_b(struct litmus *l, const uint32_t *flag, uint32_t want)
{
	uint64_t t0 = rte_rdtsc();
	unsigned int spins = 0;

	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != want &&
	       __atomic_load_n(&l->b_done, __ATOMIC_ACQUIRE) != l->trial)
		if (++spins % 4096 == 0) {
			if (rte_rdtsc() - t0 > LIT_STUCK_S * sl_tsc_hz())
				break; /* lit_run's wait for B reports it at once */
			sched_yield();
		}
	lit_until(rte_rdtsc() + lit_rand(&l->rnd) % LIT_SPREAD);
}

/* Hand one fresh packet to the engine from gen. */
static void
lit_send1(struct litmus *l, struct sl_gen *g, uint64_t *count)
{
	struct rte_mbuf *m;

	if (sl_gen_burst(g, &m, 1, rte_rdtsc()) != 1) {
		__atomic_fetch_add(&l->nopkt, 1, __ATOMIC_RELAXED);
		return;
	}
	if (sl_xmit(l->q, &m, 1) == 1)
		(*count)++;
	else
		rte_pktmbuf_free(m); /* never: the backlog has room */
}

/* Side B's send with sl_xmit_try_wait(): kept (its wait ran out), handed over with sl_xmit(). */
static void
lit_send1_try_wait(struct litmus *l, struct sl_gen *g, uint64_t *count)
{
	struct rte_mbuf *m;
	bool kept = false;

	if (sl_gen_burst(g, &m, 1, rte_rdtsc()) != 1) {
		__atomic_fetch_add(&l->nopkt, 1, __ATOMIC_RELAXED);
		return;
	}
	if (sl_xmit_try_wait(l->q, &m, 1, m->pkt_len, &kept) == 1 ||
	    (kept && sl_xmit(l->q, &m, 1) == 1))
		(*count)++;
	else
		rte_pktmbuf_free(m); /* never: the backlog has room */
}

static int
lit_side_b(void *arg)
{
	struct litmus *l = arg;
	uint32_t seen = 0;

	for (;;) {
		uint32_t t;
		unsigned int spins = 0;

		while ((t = __atomic_load_n(&l->trial, __ATOMIC_ACQUIRE)) == seen &&
		       !__atomic_load_n(&l->stop, __ATOMIC_ACQUIRE))
			if (++spins % 4096 == 0)
				sched_yield(); /* our CPU may be the coordinator's */
		if (t == seen)
			return 0;
		seen = t;
		lit_until(l->start + l->delay_b);
		l->act_b(l);
		__atomic_store_n(&l->b_done, seen, __ATOMIC_RELEASE);
	}
}

/*
 * Run the trials on the main lcore (side A, the coordinator) and an idle
 * worker lcore (side B). Returns the number of trials run, or -1 when side
 * B could not start or stopped answering within the guard.
 */
static int64_t
lit_run(struct litmus *l, const char *name)
{
	uint64_t hz = sl_tsc_hz(), last;
	unsigned int b;
	uint32_t i;

	l->cap = rte_rdtsc() + LIT_CAP_S * hz;
	/* An idle lcore: one a failed test left busy cannot be side B. */
	RTE_LCORE_FOREACH_WORKER(b)
		if (rte_eal_get_lcore_state(b) == WAIT && rte_eal_remote_launch(lit_side_b, l, b) == 0)
			break;
	if (b >= RTE_MAX_LCORE) {
		printf("    no idle worker lcore for side B\n");
		return -1;
	}
	l->b_lcore = b;
	if (l->d.hold_lcore != RTE_MAX_LCORE)
		l->d.hold_lcore = b; /* side B's calls stay inside the driver */
	l->rnd = rte_rdtsc() | 1;
	last = rte_rdtsc();
	for (i = 1; i <= LIT_TRIALS && rte_rdtsc() < l->cap; i++) {
		uint64_t delay_a = lit_rand(&l->rnd) % LIT_SPREAD;
		unsigned int spins = 0;

		l->t_a = l->t_b = 0;
		if (l->prep != NULL)
			l->prep(l);
		l->delay_b = lit_rand(&l->rnd) % LIT_SPREAD;
		l->start = rte_rdtsc() + LIT_LEAD;
		__atomic_store_n(&l->trial, i, __ATOMIC_RELEASE);
		lit_until(l->start + delay_a);
		l->act_a(l);
		while (__atomic_load_n(&l->b_done, __ATOMIC_ACQUIRE) != i) {
			if (++spins % 4096 == 0) {
				if (rte_rdtsc() - last > LIT_STUCK_S * hz) {
					/*
					 * B is inside the engine and will not come
					 * back: EAL's cleanup would wait for it.
					 */
					printf("    FAIL side B (lcore %u) made no progress for %d s in "
					       "trial %u: a hung engine\nFAIL %s\n", b, LIT_STUCK_S, i,
					       name);
					fflush(stdout);
					_exit(1);
				}
				sched_yield();
			}
		}
		last = rte_rdtsc();
		if (l->t_a != 0 && l->t_b != 0 && /* |t_a - t_b| <= LIT_CLOSE: */
		    l->t_a - l->t_b + LIT_CLOSE <= 2 * LIT_CLOSE)
			l->close++;
		/* Both sides have returned: whatever is queued now is stranded. */
		if (sl_txq_backlog(l->q) != 0)
			l->stranded++;
		if (sl_txq_backlog(l->q) != 0 || l->q->missed != 0 || l->q->drv_missed != 0)
			if (sl_txq_flush(l->q, 1000) < 0) /* the next trial starts clean */
				l->flush_fail++;
	}
	__atomic_store_n(&l->stop, 1, __ATOMIC_RELEASE);
	rte_eal_wait_lcore(b);
	return i - 1;
}

/* A litmus test's state: its queue, driver, pool and steps; NULL on failure. */
static struct litmus *
lit_new(enum sl_txq_mode mode, const char *name, lit_step_t prep, lit_step_t act_a,
	lit_step_t act_b)
{
	struct litmus *l = calloc(1, sizeof(*l));
	char pn[32];
	struct rte_mempool *mp;

	if (l == NULL)
		return NULL;
	snprintf(pn, sizeof(pn), "t_lit_%s_%u", name, (unsigned int)(rte_rdtsc() & 0xffff));
	mp = test_pool(pn, 1023);
	if (mp == NULL) {
		free(l);
		return NULL;
	}
	l->gen_a = (struct sl_gen){ .s = test_stream(), .mp = mp, .producer = 1 };
	l->gen_b = (struct sl_gen){ .s = test_stream(), .mp = mp, .producer = 2 };
	l->d.lltx = mode == SL_TXQ_LLTX;
	l->d.hold_lcore = RTE_MAX_LCORE; /* no call stays inside unless a test says */
	l->q = test_txq(ldrv_xmit, &l->d, l->d.lltx ? SL_DRV_CAP_LLTX : 0, mode, 0, 0);
	if (l->q == NULL) {
		rte_mempool_free(mp);
		free(l);
		return NULL;
	}
	/* No bounded wait: a collision goes to the hand-off at once. */
	l->q->test_flags |= SL_TXQ_T_NO_WAIT;
	l->prep = prep;
	l->act_a = act_a;
	l->act_b = act_b;
	return l;
}

/* Conservation and the pool; frees the queue, the pool and l. */
static int
lit_end(struct litmus *l, int64_t trials)
{
	struct rte_mempool *mp = l->gen_a.mp;
	struct sl_txq_stats st;

	sl_txq_stats_get(l->q, &st);
	if (trials < LIT_TRIALS)
		NOTE("a slow machine: %ld of %u trials in %d s (judged as run)", trials, LIT_TRIALS,
		     LIT_CAP_S);
	CHECK(l->nopkt == 0, "the pool ran dry %lu times", l->nopkt);
	CHECK(l->prep_fail == 0 && l->flush_fail == 0,
	      "the queue was not free between trials: %lu lock words held, %lu flushes refused",
	      l->prep_fail, l->flush_fail);
	CHECK(l->stranded == 0, "%lu of %ld trials ended with packets stranded in the backlog",
	      l->stranded, trials);
	CHECK(l->d.violations == 0, "%lu concurrent entries into a non-LLTX driver",
	      l->d.violations);
	CHECK(st.backlog == 0 && l->gen_a_n + l->gen_b_n == l->d.taken + st.dropped &&
	      st.tx_packets == l->d.taken,
	      "not conserved: handed %lu, driver took %lu, engine tx %lu dropped %lu backlog %u",
	      l->gen_a_n + l->gen_b_n, l->d.taken, st.tx_packets, st.dropped, st.backlog);
	sl_txq_free(l->q);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak: %u mbufs", rte_mempool_in_use_count(mp));
	rte_mempool_free(mp);
	free(l);
	return 0;
}

/*
 * Protocol 2 (missed), locked mode. Side A holds the queue's lock word when
 * the trial starts, and in half the trials has queued a packet of its own
 * behind it (missed set), so that its release drains: side B's burst then
 * meets either the release's re-check (unlock, fence, load missed) or a
 * drain's clear-then-look. Side B sends one burst: the lock is free (it
 * sends), or held (it queues, sets missed, fences, tries the lock once more).
 */
static void
p2_prep(struct litmus *l)
{
	if (!sl_txq_test_trylock(l->q)) {
		l->prep_fail++; /* never: lit_end fails on it */
		return;
	}
	if (lit_rand(&l->rnd) & 1) {
		lit_send1(l, &l->gen_a, &l->gen_a_n); /* queued behind our own lock */
		l->prequeued++;
	}
}

/*
 * A lets go once B is about to send, so that B collides however busy the
 * machine (and, with a_sends, sends a packet of its own at once: it meets B
 * as the owner B became after its bounded wait).
 */
static void
p2_a(struct litmus *l)
{
	lit_wait_b(l, &l->b_arrived, l->trial);
	l->t_a = rte_rdtsc();
	sl_txq_test_release(l->q);
	if (l->a_sends)
		lit_send1(l, &l->gen_a, &l->gen_a_n);
}

static void
p2_b(struct litmus *l)
{
	__atomic_store_n(&l->b_arrived, l->trial, __ATOMIC_RELEASE);
	lit_until(rte_rdtsc() + l->delay_b);
	l->t_b = rte_rdtsc();
	if (l->b_try_wait)
		lit_send1_try_wait(l, &l->gen_b, &l->gen_b_n);
	else
		lit_send1(l, &l->gen_b, &l->gen_b_n);
}

static void
p3_b(struct litmus *l)
{
	lit_send1(l, &l->gen_b, &l->gen_b_n);
	l->t_b = l->d.t_exit; /* read by A after b_done */
}

/*
 * The race is only exercised when both sides ran at the same moment: on a
 * loaded machine they may take turns on one CPU. Say so (a SKIP line, which
 * scripts/test.sh counts) rather than pass silently or fail a correct engine.
 */
static void
lit_close_note(const struct litmus *l, const char *name, int64_t trials)
{
	NOTE("the two sides' critical steps within %d cycles in %lu of %ld trials", LIT_CLOSE,
	     l->close, trials);
	if (l->close < (uint64_t)trials / 10)
		printf("SKIP - %s: the two sides ran at the same moment in only %lu of %ld trials "
		       "(a loaded machine): no stranding, but the narrow races were seldom tried\n",
		       name, l->close, trials);
}

SL_TEST(litmus_missed_recheck, "stress")
{
	struct litmus *l = lit_new(SL_TXQ_LOCKED, "p2", p2_prep, p2_a, p2_b);
	struct sl_txq_stats st;
	int64_t trials;

	CHECK(l != NULL, "queue, pool or memory");
	trials = lit_run(l, "litmus_missed_recheck");
	CHECK(trials >= 0, "the trials could not run to the end");
	sl_txq_stats_get(l->q, &st);
	/* Side A's own queued packets count a collision each: the rest are B's. */
	NOTE("locked: %ld trials (%lu with a drain at the release): side B collided in %lu, "
	     "stranded %lu", trials, l->prequeued, st.collisions - l->prequeued, l->stranded);
	CHECK(st.collisions - l->prequeued >= (uint64_t)trials / 10,
	      "side B collided in only %lu of %ld trials: the test proved nothing",
	      st.collisions - l->prequeued, trials);
	lit_close_note(l, "litmus_missed_recheck", trials);
	return lit_end(l, trials);
}

/*
 * The same with locked mode's bounded wait (rule 9), bounded at the trials'
 * spread: B, colliding, either waits and owns the queue (then A's own packet,
 * sent right after A's release, collides with B's ownership and is handed
 * over to B's release) or hands its burst over to A's release. Both owners
 * must re-check.
 */
/*
 * Protocol 2 with B waiting (bounded at the trials' spread), through
 * sl_xmit() or, with @p try_wait, sl_xmit_try_wait() (then sl_xmit() if it
 * kept its burst). B must wait and own the queue in 1 % of the trials, and
 * through sl_xmit() also hand its burst over in 1 %; else the test proved
 * nothing.
 */
static int
missed_recheck_waiting(const char *name, const char *tag, bool try_wait)
{
	struct litmus *l = lit_new(SL_TXQ_LOCKED, tag, p2_prep, p2_a, p2_b);
	struct sl_txq_stats st;
	int64_t trials;

	CHECK(l != NULL, "queue, pool or memory");
	l->q->test_flags &= ~SL_TXQ_T_NO_WAIT;
	l->q->wait_min = l->q->wait_max = LIT_SPREAD;
	l->a_sends = true;
	l->b_try_wait = try_wait;
	trials = lit_run(l, name);
	CHECK(trials >= 0, "the trials could not run to the end");
	sl_txq_stats_get(l->q, &st);
	{
		/* Side B's own counter slot: its waits, its bursts handed over or kept. */
		const struct sl_txq_lcore *lb = &l->q->lc[l->b_lcore];
		uint64_t bw = SL_CNT_READ(lb->waited), bh = SL_CNT_READ(lb->requeued);
		uint64_t bk = SL_CNT_READ(lb->deferred);

		NOTE("locked, %s: %ld trials: collisions %lu, side B waited and sent %lu times, "
		     "handed over %lu, kept %lu, stranded %lu", try_wait ? "sl_xmit_try_wait" :
		     "bounded wait", trials, st.collisions, bw, bh, bk, l->stranded);
		lit_close_note(l, name, trials);
		if (l->close >= (uint64_t)trials / 10)
			CHECK(bw >= (uint64_t)trials / 100 &&
			      (try_wait || bh >= (uint64_t)trials / 100),
			      "side B must wait (and through sl_xmit() hand over), in 1 %% of the "
			      "trials each (waited %lu, handed over %lu): the test proved nothing",
			      bw, bh);
	}
	return lit_end(l, trials);
}

SL_TEST(litmus_missed_recheck_waited, "stress")
{
	return missed_recheck_waiting("litmus_missed_recheck_waited", "p2w", false);
}

/*
 * The same through sl_xmit_try_wait() (a worker whose kept bursts fill its
 * array, issue 45): B either waits and owns the queue, sending A's queued
 * packet first and the one A sends after its release through its own
 * release's re-check, or keeps its burst and hands it over with sl_xmit().
 * An owner that got the lock in sl_xmit_try_wait() must re-check as any
 * other (scripts/mutate.sh: try-wait-release).
 */
SL_TEST(litmus_missed_recheck_try_wait, "stress")
{
	return missed_recheck_waiting("litmus_missed_recheck_try_wait", "p2t", true);
}

/*
 * Protocol 3 (drv_missed), lltx. Side B is a direct sender: it finds the
 * backlog empty and stays inside the driver (holding the driver's own lock)
 * for a random time. Side A sends meanwhile: the driver answers LOCKED, A
 * queues its packet, takes the lock word and drains; the driver answers
 * LOCKED again, A sets drv_missed, fences and retries once. Either the retry
 * gets in, or B, after its driver call, fences and sees the flag.
 */
static void
p3_prep(struct litmus *l)
{
	l->d.hold = lit_rand(&l->rnd) % LIT_SPREAD;
	l->d.t_exit = l->d.t_locked = 0;
	l->d.b_inside = 0;
	l->d.hold_armed = 1; /* published with the trial counter */
}

/* A sends once B is inside the driver, so that A is answered LOCKED. */
static void
p3_a(struct litmus *l)
{
	lit_wait_b(l, &l->d.b_inside, 1);
	lit_send1(l, &l->gen_a, &l->gen_a_n);
	l->t_a = l->d.t_locked; /* A's last LOCKED answer: its drain's retry, if it came to it */
}

SL_TEST(litmus_driver_locked, "stress")
{
	struct litmus *l = lit_new(SL_TXQ_LLTX, "p3", p3_prep, p3_a, p3_b);
	struct sl_txq_stats st;
	int64_t trials;

	CHECK(l != NULL, "queue, pool or memory");
	l->d.hold_lcore = 0; /* lit_run makes it side B's lcore */
	trials = lit_run(l, "litmus_driver_locked");
	CHECK(trials >= 0, "the trials could not run to the end");
	sl_txq_stats_get(l->q, &st);
	NOTE("lltx: %ld trials: the driver answered LOCKED %lu times (in %lu engine calls), "
	     "stranded %lu", trials, l->d.locked, st.locked, l->stranded);
	CHECK(st.locked >= (uint64_t)trials / 10,
	      "LOCKED in only %lu of %ld trials: the test proved nothing", st.locked, trials);
	lit_close_note(l, "litmus_driver_locked", trials);
	return lit_end(l, trials);
}

/*
 * Unregistered (non-EAL) threads in lltx mode on the verifying sim: they
 * share one counter slot and so are several producers behind one slot, which
 * must never send past the backlog (txq_own_sent). Three threads on the
 * machine's CPUs; the sim's verifier judges order and loss per producer.
 */
struct lit_uprod {
	struct prod p;
	pthread_t t;
};

static void *
lit_uprod_main(void *arg)
{
	producer_main(arg);
	return NULL;
}

#define LIT_UTHREADS 3
#define LIT_UPER 100000

SL_TEST(litmus_unregistered_lltx, "stress")
{
	/* 10G: the device fills often, so BUSY tails wait in the backlog. */
	struct sl_sim_conf sc = { .speed_bps = 10000000000ull, .txd = 256, .nb_txq = 1,
				  .lltx = true, .verify = true, .socket_id = SOCKET_ID_ANY };
	struct sl_sim *sim = sl_sim_create(&sc);
	struct rte_mempool *mp = test_pool("t_lit_u", 8191);
	struct lit_uprod u[LIT_UTHREADS];
	volatile uint32_t go = 0;
	uint64_t generated = 0, unsent = 0;
	struct sl_txq_stats st;
	struct sl_sim_stats ss;
	struct sl_txq *q;

	CHECK(sim != NULL && mp != NULL, "setup");
	q = test_txq(sl_sim_xmit, sl_sim_txq(sim, 0), sl_sim_caps(sim), SL_TXQ_LLTX, 0, 0);
	CHECK(q != NULL, "queue");
	for (int i = 0; i < LIT_UTHREADS; i++) {
		memset(&u[i], 0, sizeof(u[i]));
		u[i].p = (struct prod){
			.q = q,
			.gen = { .s = test_stream(), .mp = mp, .producer = 220 + i },
			.target = LIT_UPER,
			.go = &go,
			.cap_tsc = rte_rdtsc() + LIT_CAP_S * sl_tsc_hz(),
		};
		CHECK(pthread_create(&u[i].t, NULL, lit_uprod_main, &u[i].p) == 0, "thread");
	}
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < LIT_UTHREADS; i++) {
		pthread_join(u[i].t, NULL);
		generated += u[i].p.generated;
		unsent += u[i].p.unsent;
	}
	CHECK(sl_txq_flush(q, 100000) >= 0, "flush");
	sl_sim_drain(sim, 1000000);
	sl_txq_stats_get(q, &st);
	sl_sim_stats_get(sim, &ss);
	NOTE("%d unregistered threads, lltx: generated %lu tx %lu dropped %lu requeued %lu "
	     "locked %lu | wire %lu lost %lu dup %lu reordered %lu", LIT_UTHREADS, generated,
	     st.tx_packets, st.dropped, st.requeued, st.locked, ss.wire_frames, ss.lost,
	     ss.duplicates, ss.reordered);
	CHECK(generated == (uint64_t)LIT_UTHREADS * LIT_UPER, "generated %lu (unsent %lu)",
	      generated, unsent);
	CHECK(st.requeued > 0, "nothing went through the backlog: the test proved nothing");
	CHECK(ss.lost == 0 && ss.duplicates == 0 && ss.reordered == 0,
	      "verifier: lost %lu duplicates %lu reordered %lu", ss.lost, ss.duplicates,
	      ss.reordered);
	CHECK(st.dropped == 0 && generated == st.tx_packets && ss.frames == st.tx_packets,
	      "not conserved: generated %lu tx %lu dropped %lu, the sim took %lu", generated,
	      st.tx_packets, st.dropped, ss.frames);
	sl_txq_free(q);
	sl_sim_free(sim);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}
