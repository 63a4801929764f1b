/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TX queue engine: lock policy, backlog, missed flags, dead loops.
 *
 * Memory ordering, in one place. Three protocols meet here (docs/lltx.md
 * states them as rules, with the test that proves each):
 *
 * 1. The lock word (q->lock): CAS with acquire to take, store-release to
 *    drop. Whoever holds it is the only consumer of the backlog ring (which
 *    is created single-consumer) and, in locked/spin mode, the only caller
 *    of the driver. locked mode's bounded wait (txq_wait_lock) only looks
 *    at the word (relaxed) and takes it with the same CAS; it queues
 *    nothing, so protocols 2 and 3 see it as a plain trylock that
 *    succeeded late or failed.
 *
 * 2. "missed" (the kernel's __QDISC_STATE_MISSED, after the 2021 lockless
 *    qdisc fix). Every enqueue into the backlog is followed either by a
 *    trylock-or-miss or by a release that re-checks. Trylock-or-miss: try
 *    the lock; on failure set missed with an atomic RMW (fetch_or, release;
 *    an RMW so that several producers' sets form one release sequence and
 *    the owner's exchange synchronises with all of them, as the kernel's
 *    set_bit), issue a full fence and try the lock once more. The owner,
 *    after unlocking, issues a full fence and loads missed. This is a
 *    store-buffering (Dekker) pair: with the two seq_cst fences, either the
 *    producer's second trylock succeeds or the owner sees missed == 1 and
 *    drains again. The owner clears missed with an atomic exchange (acq_rel)
 *    *before* each look at the ring, so an enqueue is either seen by that
 *    look or flagged again afterwards. In lltx mode this includes the tail
 *    of a BUSY send: an RTS enqueue becomes visible only when every enqueue
 *    in flight has finished, so another producer's drain may have missed it.
 *
 * 3. The driver-LOCKED hand-off (lltx). LLTX drivers have their own lock,
 *    which we cannot hook. A drainer (the lock word's owner) whose driver
 *    call answers LOCKED sets drv_missed with an atomic RMW, issues a full
 *    fence and calls the driver once more. Every direct sender, after its
 *    driver call returned (which released the driver's lock), issues a full
 *    fence and loads drv_missed; if set, it kicks (trylock-or-miss, drain).
 *    Store-buffering again: either the drainer's retry gets the driver lock
 *    or the holder sees the flag. drv_missed is cleared only by a drainer,
 *    before its look at the ring; a drainer never sets plain "missed" for a
 *    LOCKED answer, so its own release does not re-drain into the same
 *    held lock (one collision is counted per event, not per retry).
 *
 * Draining is bounded (SL_DRAIN_ROUNDS bursts) and so is re-checking
 * (SL_RECHECK_MAX): a producer returns to its generator in bounded time.
 * Whatever is left is flagged, found by the next producer, or by the
 * scheduler poll.
 *
 * Callers. EAL lcores and registered threads have a counter slot each
 * (plain single-writer adds) and an exact per-slot re-entry flag (in_xmit).
 * Every other thread shares slot RTE_MAX_LCORE: its counters take atomic
 * adds, its in_xmit is pinned to 1 so that the inline fast path sends it
 * here, and its re-entry marker is a thread-local chain of the queues the
 * thread is inside (struct txq_ctx, on the stack).
 */

#include <errno.h>
#include <stdio.h>

#include <rte_atomic.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_ring.h>
#include <rte_ring_peek.h>

#include "sl_clock.h"
#include "sl_xmit.h"
#ifdef SL_XMIT_TEST
#include "sl_xmit_pvt.h"
#endif

RTE_LOG_REGISTER(sl_xmit_logtype, sluice.xmit, INFO);

#define SL_DRAIN_MAX 64    /* largest drain_burst */
#define SL_DRAIN_ROUNDS 4  /* bursts per drain call */
#define SL_RECHECK_MAX 8   /* re-drains on release before leaving it to others */
#define SL_TXQ_WAIT_DRAIN_MAX 8 /* a wait on a draining holder: at most this many wait_max */

static uint32_t txq_seq; /* makes ring names unique */

__thread unsigned int sl_xmit_slot1;

unsigned int
sl_xmit_slot_init(void)
{
	unsigned int id = rte_lcore_id();

	sl_xmit_slot1 = (id < RTE_MAX_LCORE ? id : RTE_MAX_LCORE) + 1;
	return sl_xmit_slot1;
}

/* One engine call: who makes it, and what it has counted already. */
struct txq_ctx {
	struct sl_txq *q;
	struct sl_txq_lcore *lc;
	struct txq_ctx *up;   /* shared slot: the next queue this thread is inside */
	bool shared;          /* lc is the shared slot: atomic counter adds */
	bool locked_seen;     /* a driver LOCKED was counted in this call */
};

/* Shared-slot callers only: the queues this thread is inside, innermost first. */
static __thread struct txq_ctx *txq_chain;

#define TXQ_ADD(c, f, v)                                                        \
	do {                                                                    \
		if (unlikely((c)->shared))                                      \
			__atomic_fetch_add(&(c)->lc->f, (v), __ATOMIC_RELAXED); \
		else                                                            \
			SL_CNT_ADD((c)->lc->f, (v));                            \
	} while (0)

static inline void
txq_ctx_init(struct sl_txq *q, struct txq_ctx *c)
{
	c->q = q;
	c->lc = sl_txq_lcore(q);
	c->up = NULL;
	c->shared = c->lc == &q->lc[RTE_MAX_LCORE];
	c->locked_seen = false;
}

/* Mark this thread inside q; 0 if it already is (a dead loop). */
static inline int
txq_enter(struct sl_txq *q, struct txq_ctx *c)
{
	txq_ctx_init(q, c);
	if (likely(!c->shared)) {
		if (unlikely(c->lc->in_xmit))
			return 0;
		c->lc->in_xmit = 1;
		return 1;
	}
	for (const struct txq_ctx *p = txq_chain; p != NULL; p = p->up)
		if (p->q == q)
			return 0;
	c->up = txq_chain;
	txq_chain = c;
	return 1;
}

static inline void
txq_leave(struct txq_ctx *c)
{
	if (likely(!c->shared))
		c->lc->in_xmit = 0;
	else
		txq_chain = c->up;
}

/* The caller's holdings so far: each holding gets its own lock value. */
static __thread uint32_t txq_holdings;

#define TXQ_LOCK_SLOT_BITS 9 /* slot + 1 <= RTE_MAX_LCORE + 1 */

/*
 * Lock word value of the caller's next holding: its slot + 1 (never 0) and
 * its holding count above, so that a waiter can tell "still the holding
 * that outlasted my last wait" from a new one.
 */
static inline uint32_t
txq_me(void)
{
	uint32_t s = sl_xmit_slot1 != 0 ? sl_xmit_slot1 : sl_xmit_slot_init();

	RTE_BUILD_BUG_ON(RTE_MAX_LCORE + 1 >= (1u << TXQ_LOCK_SLOT_BITS));
	return (++txq_holdings << TXQ_LOCK_SLOT_BITS) | s;
}

static inline int
txq_trylock(struct sl_txq *q)
{
	uint32_t exp = 0;

	/* Test before test-and-set: a failed CAS still takes the line. */
	if (__atomic_load_n(&q->lock, __ATOMIC_RELAXED) != 0)
		return 0;
	return __atomic_compare_exchange_n(&q->lock, &exp, txq_me(), 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void
txq_unlock(struct sl_txq *q)
{
	__atomic_store_n(&q->lock, 0, __ATOMIC_RELEASE);
}

/*
 * Protocol 2: an RMW, never a plain store (release sequence, see above).
 * Only a weakly ordered machine (Arm, POWER) can show a plain store's harm:
 * on x86 both are ordered alike and no test here can fail for it
 * (scripts/mutate.sh lists that mutant, missed-rmw, apart).
 */
static inline void
txq_set_missed(struct sl_txq *q)
{
	__atomic_fetch_or(&q->missed, 1, __ATOMIC_RELEASE);
}

/*
 * locked mode, after a failed trylock: wait for the lock, bounded. A holder
 * that runs releases it within about one holding; waiting that long costs
 * the caller less than handing its burst over (a ring round trip, and its
 * mbufs sent and freed on the owner's core, which the producer's mempool
 * cache then has to fetch back: docs/lltx.md has the profile). A holder
 * that does not run (preempted, with more lcores than CPUs) is not waited
 * for: the bound cuts the wait, and a holding that outlasted one wait of
 * this slot is not waited for again. The bound: 4 times the average of the
 * waits that got the lock, plus wait_min, at most wait_max (TSC cycles).
 *
 * Nothing is queued before or during the wait, so the hand-off protocols
 * are unchanged: the caller either owns the lock (and sends what is ahead
 * first, as any owner) or enqueues and kicks as before.
 *
 * Returns 1 with the lock held, 0 without.
 */
static int
txq_wait_lock(struct txq_ctx *c)
{
	struct sl_txq *q = c->q;
	uint32_t v = __atomic_load_n(&q->lock, __ATOMIC_RELAXED), tail;
	uint64_t budget, t0, tp, t, now;

	if (v != 0 && v == __atomic_load_n(&c->lc->wait_skip, __ATOMIC_RELAXED))
		return 0;
	budget = RTE_MIN((uint64_t)q->wait_max,
			 q->wait_min + (__atomic_load_n(&q->wait_avg16, __ATOMIC_RELAXED) >> 2));
	tail = __atomic_load_n(&q->backlog->cons.tail, __ATOMIC_RELAXED);
	t0 = tp = rte_rdtsc();
	for (;;) {
		uint32_t tl;

		rte_pause();
		v = __atomic_load_n(&q->lock, __ATOMIC_RELAXED);
		now = rte_rdtsc();
		t = now - t0;
		if (v == 0 && txq_trylock(q)) {
			/* We own the lock's line: the average costs nothing to write. */
			uint32_t a = __atomic_load_n(&q->wait_avg16, __ATOMIC_RELAXED);

			a = a - (a >> 3) + (uint32_t)(RTE_MIN(t, (uint64_t)q->wait_max) << 1);
			__atomic_store_n(&q->wait_avg16, a, __ATOMIC_RELAXED);
			return 1;
		}
		/*
		 * The holder is draining the backlog (its consumer tail moves,
		 * and only a holder moves it): it runs, and its release is near.
		 * Waiting on costs less than queueing behind it, which would
		 * only lengthen its drain (and the next waiter's): the budget
		 * counts from its last progress, up to SL_TXQ_WAIT_DRAIN_MAX
		 * budgets in all.
		 */
		tl = __atomic_load_n(&q->backlog->cons.tail, __ATOMIC_RELAXED);
		if (tl != tail && t <= SL_TXQ_WAIT_DRAIN_MAX * (uint64_t)q->wait_max) {
			tail = tl;
			tp = now;
			continue;
		}
		if (now - tp > budget) {
			__atomic_store_n(&c->lc->wait_skip, v, __ATOMIC_RELAXED);
			return 0;
		}
	}
}

/*
 * Producer side of protocol 2: the caller has already queued its work. The
 * fence after the RMW costs nothing on x86, where a lock-prefixed RMW is a
 * full fence already, and no test here can fail without it; Arm and POWER
 * need it (scripts/mutate.sh lists miss-fence apart).
 */
static int
txq_trylock_or_miss(struct sl_txq *q)
{
	if (txq_trylock(q))
		return 1;
	txq_set_missed(q);
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	return txq_trylock(q);
}

/*
 * Call the driver and count what it took. Bytes are summed before the call:
 * afterwards the driver owns pkts[0..sent) and may already have freed them.
 */
static inline uint16_t
txq_drv(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *st)
{
	struct sl_txq *q = c->q;
	uint64_t bytes = sl_xmit_bytes(pkts, n);
	uint16_t sent;

	*st = SL_XMIT_OK;
	sent = q->xmit(q->drv_queue, pkts, n, st);
	if (sent != n)
		bytes -= sl_xmit_bytes(pkts + sent, n - sent);
	TXQ_ADD(c, tx_packets, sent);
	TXQ_ADD(c, tx_bytes, bytes);
	return sent;
}

/* BUSY: one per answer. LOCKED: one collision per engine call (per event). */
static inline void
txq_count_refusal(struct txq_ctx *c, enum sl_xmit_status st)
{
	if (st == SL_XMIT_LOCKED) {
		if (!c->locked_seen) {
			c->locked_seen = true;
			TXQ_ADD(c, locked, 1);
			TXQ_ADD(c, collisions, 1);
		}
	} else {
		TXQ_ADD(c, busy, 1);
	}
}

#ifdef SL_XMIT_TEST
static sl_txq_test_hook_t txq_enq_hook;
static void *txq_enq_hook_arg;

void
sl_txq_test_set_enq_hook(sl_txq_test_hook_t fn, void *arg)
{
	txq_enq_hook_arg = arg;
	__atomic_store_n(&txq_enq_hook, fn, __ATOMIC_RELEASE);
}

/* The RTS enqueue of rte_ring_enqueue_burst(), in its steps, with the hook. */
static unsigned int
txq_enqueue(struct sl_txq *q, struct rte_mbuf **pkts, unsigned int n)
{
	sl_txq_test_hook_t fn = __atomic_load_n(&txq_enq_hook, __ATOMIC_ACQUIRE);
	struct rte_ring *r = q->backlog;
	uint32_t head, free;

	if (fn == NULL)
		return rte_ring_enqueue_burst(r, (void **)pkts, n, NULL);
	n = __rte_ring_rts_move_prod_head(r, n, RTE_RING_QUEUE_VARIABLE, &head, &free);
	if (n != 0) {
		__rte_ring_enqueue_elems(r, head, pkts, sizeof(void *), n);
		fn(q, txq_enq_hook_arg);
		__rte_ring_rts_update_tail(&r->rts_prod);
	}
	return n;
}
#define TXQ_TEST_FLAG(q, f) (unlikely(((q)->test_flags & (f)) != 0))
/* How the last release ended (struct sl_txq's test_last_release). */
#define TXQ_TEST_NOTE(q, v) __atomic_store_n(&(q)->test_last_release, (v), __ATOMIC_RELAXED)
#else
#define txq_enqueue(q, pkts, n) rte_ring_enqueue_burst((q)->backlog, (void **)(pkts), (n), NULL)
#define TXQ_TEST_FLAG(q, f) 0
#define TXQ_TEST_NOTE(q, v) do { } while (0)
#endif

/*
 * Put pkts behind whatever is in the backlog. Returns how many the engine
 * took: all of them with SL_TXQ_F_DROP_ON_FULL (the excess freed and
 * counted), otherwise as many as fit (back-pressure).
 */
static uint16_t
txq_requeue(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	struct sl_txq *q = c->q;
	unsigned int k = txq_enqueue(q, pkts, n);

	TXQ_ADD(c, requeued, k);
	if (k < n && (q->flags & SL_TXQ_F_DROP_ON_FULL)) {
		rte_pktmbuf_free_bulk(pkts + k, n - k);
		TXQ_ADD(c, dropped, n - k);
		__atomic_fetch_add(&q->drop_backlog_full, n - k, __ATOMIC_RELAXED);
		return n;
	}
	return k;
}

/*
 * lltx: may this lcore send past a non-empty backlog (while another lcore
 * owns the queue; a free queue it takes and drains first, txq_xmit_lltx)?
 * Only when none of its own packets can still be in it: its last requeue ended at or before
 * bl_mark, and the consumer tail (moved by the drainer only after the
 * driver took the packets, the peek API's finish) has passed it. Order is
 * kept per producer, which is the invariant (architecture.md section 7);
 * the backlog's packets of other producers are not overtaken by any of
 * theirs. The shared slot (non-EAL threads) is several producers: never.
 */
static inline bool
txq_own_sent(struct txq_ctx *c)
{
	struct sl_txq_lcore *lc = c->lc;

	if (c->shared)
		return false;
	if (lc->bl_wait == 0)
		return true;
	if ((int32_t)(__atomic_load_n(&c->q->backlog->cons.tail, __ATOMIC_ACQUIRE) -
		      lc->bl_mark) < 0)
		return false;
	lc->bl_wait = 0;
	return true;
}

/* lltx: put our packets into the backlog and remember where they end. */
static uint16_t
txq_requeue_own(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t k = txq_requeue(c, pkts, n);

	if (!c->shared) {
		/* The producer head, read after our enqueue: at or past its end. */
		c->lc->bl_mark = __atomic_load_n(&c->q->backlog->rts_prod.head.val.pos,
						 __ATOMIC_ACQUIRE);
		c->lc->bl_wait = 1;
	}
	return k;
}

/*
 * Send from the backlog's head. The caller owns the consumer side (holds
 * the lock word, or the queue is exclusive and this is its producer).
 * Unsent packets stay at the head. Returns packets handed to the driver.
 */
static unsigned int
txq_drain(struct txq_ctx *c)
{
	struct sl_txq *q = c->q;
	struct rte_mbuf *pkts[SL_DRAIN_MAX];
	unsigned int total = 0;

	for (int round = 0; round < SL_DRAIN_ROUNDS; round++) {
		enum sl_xmit_status st;
		unsigned int n;
		uint16_t sent;

		/* Clear before looking: later enqueues are seen or re-flagged. */
		__atomic_exchange_n(&q->missed, 0, __ATOMIC_ACQ_REL);
		/* Only a drainer sets drv_missed, so only earlier drainers' flags go. */
		if (unlikely(__atomic_load_n(&q->drv_missed, __ATOMIC_RELAXED)))
			__atomic_exchange_n(&q->drv_missed, 0, __ATOMIC_ACQ_REL);
		n = rte_ring_dequeue_burst_start(q->backlog, (void **)pkts, q->drain_burst, NULL);
		if (n == 0) {
			rte_ring_dequeue_finish(q->backlog, 0);
			return total;
		}
		sent = txq_drv(c, pkts, n, &st);
		if (unlikely(st == SL_XMIT_LOCKED)) {
			/*
			 * Protocol 3: a direct sender holds the driver's lock.
			 * Flag (RMW), fence, retry once: either we get in, or
			 * the holder, after its own fence, sees the flag.
			 * (The fence after the RMW: as in trylock-or-miss,
			 * only a weakly ordered machine shows it missing.)
			 */
			txq_count_refusal(c, st);
			__atomic_fetch_or(&q->drv_missed, 1, __ATOMIC_RELEASE);
			rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
			sent = txq_drv(c, pkts, n, &st);
			if (st == SL_XMIT_LOCKED) {
				rte_ring_dequeue_finish(q->backlog, 0);
				return total; /* the holder takes the drain over */
			}
		}
		rte_ring_dequeue_finish(q->backlog, sent);
		total += sent;
		if (sent < n) {
			/*
			 * BUSY: the device is full; leave the rest for the next
			 * producer or the poll (no immediate retry: back off).
			 */
			txq_count_refusal(c, st);
			return total;
		}
	}
	/* Out of rounds with work left: flag it for whoever comes next. */
	if (sl_txq_pending(q) != 0)
		txq_set_missed(q);
	return total;
}

/*
 * Unlock, then re-check missed (protocol 2) and drain again if set.
 * Returns the packets it drained.
 */
static unsigned int
txq_release(struct txq_ctx *c)
{
	struct sl_txq *q = c->q;
	unsigned int total = 0;

	for (int i = 0;; i++) {
		txq_unlock(q);
		if (TXQ_TEST_FLAG(q, SL_TXQ_T_NO_RECHECK))
			return total;
		rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (likely(!__atomic_load_n(&q->missed, __ATOMIC_ACQUIRE))) {
			TXQ_TEST_NOTE(q, 2);
			return total;
		}
		if (i == SL_RECHECK_MAX) {
			/* Bounded: missed stays set for the next producer or the poll. */
			__atomic_fetch_add(&q->release_bound, 1, __ATOMIC_RELAXED);
			TXQ_TEST_NOTE(q, 1);
			return total;
		}
		if (!txq_trylock(q))
			return total; /* the new owner takes it from here */
		total += txq_drain(c);
	}
}

/* Hand pkts to the driver; the unsent tail goes to the backlog. */
static uint16_t
txq_send(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *st)
{
	uint16_t sent = txq_drv(c, pkts, n, st);

	if (likely(sent == n))
		return n;
	txq_count_refusal(c, *st);
	return sent + txq_requeue_own(c, pkts + sent, n - sent);
}

/*
 * The caller owns the queue: what is ahead of us goes first. *st is our own
 * send's answer (SL_XMIT_OK when we queued behind instead).
 */
static uint16_t
txq_xmit_owner_st(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n,
		  enum sl_xmit_status *st)
{
	*st = SL_XMIT_OK;
	if (sl_txq_pending(c->q) != 0) {
		txq_drain(c);
		if (sl_txq_pending(c->q) != 0)
			return txq_requeue_own(c, pkts, n);
	}
	return txq_send(c, pkts, n, st);
}

static uint16_t
txq_xmit_owner(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	enum sl_xmit_status st;

	return txq_xmit_owner_st(c, pkts, n, &st);
}

/* After an enqueue: become the owner and drain, or leave it flagged. */
static unsigned int
txq_kick(struct txq_ctx *c)
{
	unsigned int sent = 0;

	if (txq_trylock_or_miss(c->q)) {
		sent = txq_drain(c);
		sent += txq_release(c);
	}
	return sent;
}

static uint16_t
txq_xmit_locked(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t k;

	if (txq_trylock(c->q)) {
		k = txq_xmit_owner(c, pkts, n);
		txq_release(c);
		return k;
	}
	TXQ_ADD(c, collisions, 1);
	if (!TXQ_TEST_FLAG(c->q, SL_TXQ_T_NO_WAIT) && txq_wait_lock(c)) {
		/* The holder let go within the bound: send ourselves. */
		TXQ_ADD(c, waited, 1);
		k = txq_xmit_owner(c, pkts, n);
		txq_release(c);
		return k;
	}
	/* Still held: queue behind the owner, flag it, never spin longer. */
	k = txq_requeue(c, pkts, n);
	txq_kick(c);
	return k;
}

static uint16_t
txq_xmit_lltx(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	enum sl_xmit_status st;
	bool past = false;
	uint16_t k;

	if (sl_txq_pending(c->q) != 0) {
		if (!txq_own_sent(c)) {
			/* Behind earlier packets of our own. */
			k = txq_requeue_own(c, pkts, n);
			txq_kick(c);
			return k;
		}
		/*
		 * None of ours there. Free queue: own it and drain first, so
		 * the backlog's head goes before us (else a device that frees
		 * room a burst at a time would go to us every time and starve
		 * it). Held: its owner is draining now, or sending its own
		 * burst; send beside it, past the others' packets
		 * (per-producer order holds), and kick: its release re-checks.
		 */
		if (txq_trylock(c->q)) {
			k = txq_xmit_owner_st(c, pkts, n, &st);
			txq_release(c);
			/*
			 * A LOCKED answer to our own send (not to a drain, which
			 * hands over with drv_missed, protocol 3) set no flag
			 * that the driver lock's holder will see: kick, so a
			 * drain meets it and protocol 3 applies. Nothing else
			 * here needs a kick: BUSY waits for the next producer
			 * or the poll (rule 5), and an RTS enqueue in flight is
			 * kicked by its own producer.
			 */
			if (unlikely(st == SL_XMIT_LOCKED))
				txq_kick(c);
			return k;
		}
		past = true;
	}
	k = txq_send(c, pkts, n, &st);
	if (likely(st == SL_XMIT_OK)) {
		/* Protocol 3: did a drainer find the driver lock we held? */
		rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (likely(!__atomic_load_n(&c->q->drv_missed, __ATOMIC_RELAXED) && !past))
			return k;
	}
	/*
	 * BUSY or LOCKED: our tail went to the backlog, and like every enqueue
	 * it needs a trylock-or-miss. Without it, a producer that queued
	 * behind our half-published RTS enqueue, drained an empty ring and
	 * released, strands its packets (issue 10). Sent past a backlog: it
	 * may be one a release left flagged at its bound, and its producers
	 * may have gone quiet; drain it or flag its owner, as a requeue does.
	 */
	txq_kick(c);
	return k;
}

static uint16_t
txq_xmit_spin(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t k;

	if (!txq_trylock(c->q)) {
		TXQ_ADD(c, collisions, 1);
		while (!txq_trylock(c->q))
			rte_pause();
	}
	k = txq_xmit_owner(c, pkts, n);
	txq_unlock(c->q);
	return k;
}

static uint16_t
txq_dead_loop(struct txq_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	struct sl_txq *q = c->q;
	uint32_t now_s = (uint32_t)(rte_get_timer_cycles() / rte_get_timer_hz()) + 1;

	rte_pktmbuf_free_bulk(pkts, n);
	TXQ_ADD(c, dead_loops, 1);
	TXQ_ADD(c, dropped, n);
	__atomic_fetch_add(&q->drop_dead_loop, n, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&c->lc->warned_s, now_s, __ATOMIC_RELAXED) != now_s)
		rte_log(RTE_LOG_WARNING, sl_xmit_logtype,
			"Dead loop on port %u queue %u: lcore %d re-entered its own xmit, burst of %u dropped\n",
			q->port_id, q->queue_id, (int)rte_lcore_id(), n);
	return n;
}

uint16_t
sl_xmit_slow(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct txq_ctx c;
	uint16_t k;

	if (unlikely(n == 0))
		return 0;
	if (unlikely(!txq_enter(q, &c)))
		return txq_dead_loop(&c, pkts, n);
	switch (q->mode) {
	case SL_TXQ_LOCKED:
		k = txq_xmit_locked(&c, pkts, n);
		break;
	case SL_TXQ_LLTX:
		k = txq_xmit_lltx(&c, pkts, n);
		break;
	case SL_TXQ_SPIN:
		k = txq_xmit_spin(&c, pkts, n);
		break;
	case SL_TXQ_EXCLUSIVE:
	default:
		k = txq_xmit_owner(&c, pkts, n);
		break;
	}
	txq_leave(&c);
	return k;
}

uint16_t
sl_xmit_try_wait(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes,
		 bool *deferred)
{
	struct txq_ctx c;
	uint16_t k;

	*deferred = false;
	if (q->mode != SL_TXQ_LOCKED || __atomic_load_n(&q->lock, __ATOMIC_RELAXED) == 0 ||
	    unlikely(n == 0))
		return sl_xmit_try(q, pkts, n, bytes, deferred);
	if (unlikely(!txq_enter(q, &c)))
		return txq_dead_loop(&c, pkts, n);
	if (unlikely(c.shared)) {
		/* The shared slot does not keep: sl_xmit()'s path. */
		k = txq_xmit_locked(&c, pkts, n);
	} else if (txq_trylock(q)) {
		k = txq_xmit_owner(&c, pkts, n);
		txq_release(&c);
	} else {
		TXQ_ADD(&c, collisions, 1);
		if (!TXQ_TEST_FLAG(q, SL_TXQ_T_NO_WAIT) && txq_wait_lock(&c)) {
			TXQ_ADD(&c, waited, 1);
			k = txq_xmit_owner(&c, pkts, n);
			txq_release(&c);
		} else {
			TXQ_ADD(&c, deferred, 1);
			*deferred = true;
			k = 0;
		}
	}
	txq_leave(&c);
	return k;
}

/* Exclusive fast path, a registered caller (never the shared slot). */
uint16_t
sl_xmit_tail(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status st)
{
	struct txq_ctx c;

	txq_ctx_init(q, &c);
	txq_count_refusal(&c, st);
	return txq_requeue(&c, pkts, n);
}

unsigned int
sl_txq_poll(struct sl_txq *q)
{
	struct txq_ctx c;
	unsigned int sent;

	if (q->mode == SL_TXQ_EXCLUSIVE || rte_ring_count(q->backlog) == 0)
		return 0;
	if (!txq_enter(q, &c))
		return 0;
	sent = 0;
	if (txq_trylock(q)) {
		sent = txq_drain(&c);
		sent += txq_release(&c);
	}
	txq_leave(&c);
	return sent;
}

unsigned int
sl_txq_drain_own(struct sl_txq *q)
{
	struct txq_ctx c;
	unsigned int sent;

	if (q->mode != SL_TXQ_EXCLUSIVE || sl_txq_pending(q) == 0)
		return 0;
	if (!txq_enter(q, &c))
		return 0;
	sent = txq_drain(&c);
	txq_leave(&c);
	return sent;
}

int
sl_txq_flush(struct sl_txq *q, uint64_t timeout_us)
{
	uint64_t deadline = rte_get_timer_cycles() + timeout_us * rte_get_timer_hz() / US_PER_S;
	struct rte_mbuf *pkts[SL_DRAIN_MAX];
	unsigned int n, dropped = 0;
	struct txq_ctx c;

	if (!txq_enter(q, &c))
		return -EBUSY;
	if (q->mode != SL_TXQ_EXCLUSIVE && !txq_trylock(q)) {
		txq_leave(&c);
		return -EBUSY;
	}
	while (rte_ring_count(q->backlog) != 0 && rte_get_timer_cycles() < deadline) {
		if (txq_drain(&c) == 0)
			rte_delay_us_sleep(20); /* device full or stalled: back off */
	}
	while ((n = rte_ring_sc_dequeue_burst(q->backlog, (void **)pkts, RTE_DIM(pkts),
					      NULL)) != 0) {
		rte_pktmbuf_free_bulk(pkts, n);
		dropped += n;
	}
	TXQ_ADD(&c, dropped, dropped);
	__atomic_fetch_add(&q->drop_flush, dropped, __ATOMIC_RELAXED);
	__atomic_store_n(&q->missed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&q->drv_missed, 0, __ATOMIC_RELAXED);
	txq_leave(&c);
	if (q->mode != SL_TXQ_EXCLUSIVE)
		txq_unlock(q);
	return (int)dropped;
}

void
sl_txq_stats_get(const struct sl_txq *q, struct sl_txq_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (unsigned int i = 0; i <= RTE_MAX_LCORE; i++) {
		const struct sl_txq_lcore *lc = &q->lc[i];

		st->tx_packets += SL_CNT_READ(lc->tx_packets);
		st->tx_bytes += SL_CNT_READ(lc->tx_bytes);
		st->busy += SL_CNT_READ(lc->busy);
		st->collisions += SL_CNT_READ(lc->collisions);
		st->locked += SL_CNT_READ(lc->locked);
		st->waited += SL_CNT_READ(lc->waited);
		st->deferred += SL_CNT_READ(lc->deferred);
		st->requeued += SL_CNT_READ(lc->requeued);
		st->dropped += SL_CNT_READ(lc->dropped);
		st->dead_loops += SL_CNT_READ(lc->dead_loops);
	}
	st->drop_dead_loop = __atomic_load_n(&q->drop_dead_loop, __ATOMIC_RELAXED);
	st->drop_backlog_full = __atomic_load_n(&q->drop_backlog_full, __ATOMIC_RELAXED);
	st->drop_flush = __atomic_load_n(&q->drop_flush, __ATOMIC_RELAXED);
	st->release_bound = __atomic_load_n(&q->release_bound, __ATOMIC_RELAXED);
	st->backlog = rte_ring_count(q->backlog);
}

enum sl_txq_mode
sl_txq_mode_select(unsigned int nb_lcores, uint32_t drv_caps, enum sl_lock_policy policy)
{
	if (nb_lcores <= 1)
		return SL_TXQ_EXCLUSIVE;
	if (drv_caps & SL_DRV_CAP_LLTX)
		return SL_TXQ_LLTX;
	return policy == SL_LOCK_SPIN ? SL_TXQ_SPIN : SL_TXQ_LOCKED;
}

const char *
sl_txq_mode_name(enum sl_txq_mode mode)
{
	static const char *const names[] = {
		[SL_TXQ_EXCLUSIVE] = "exclusive",
		[SL_TXQ_LOCKED] = "locked",
		[SL_TXQ_LLTX] = "lltx",
		[SL_TXQ_SPIN] = "spin",
	};

	return (unsigned int)mode < RTE_DIM(names) ? names[mode] : "?";
}

struct sl_txq *
sl_txq_create(const struct sl_txq_conf *conf)
{
	uint32_t size = conf->backlog_size != 0 ? conf->backlog_size : 1024;
	uint16_t burst = conf->drain_burst != 0 ? conf->drain_burst : 32;
	char name[RTE_RING_NAMESIZE];
	struct sl_txq *q;

	if (conf->xmit == NULL || (unsigned int)conf->mode > SL_TXQ_SPIN ||
	    !rte_is_power_of_2(size) || size < 2 || burst > SL_DRAIN_MAX ||
	    (conf->flags & ~SL_TXQ_F_MASK) != 0 ||
	    (conf->mode == SL_TXQ_LLTX && !(conf->drv_caps & SL_DRV_CAP_LLTX))) {
		rte_errno = EINVAL;
		return NULL;
	}
	q = rte_zmalloc_socket("sl_txq", sizeof(*q), RTE_CACHE_LINE_SIZE, conf->socket_id);
	if (q == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	snprintf(name, sizeof(name), "sl_bl%u_%u_%u", conf->port_id, conf->queue_id,
		 __atomic_fetch_add(&txq_seq, 1, __ATOMIC_RELAXED));
	/*
	 * Producers: RTS (relaxed tail sync). A classic MP ring makes each
	 * producer wait for the ones before it to publish their tail; with
	 * more lcores than CPUs a producer preempted mid-enqueue stalls all
	 * the others (measured: 95 % of CPU in the enqueue, line rate down to
	 * 1 %). RTS lets them finish; the head may run ahead of the tail by the
	 * whole ring. Consumer: single (the owner of the lock word), which the
	 * peek API needs. `size` slots, size - 1 packets: no RING_F_EXACT_SZ,
	 * which would round size + 1 up to a ring twice as large.
	 */
	q->backlog = rte_ring_create(name, size, conf->socket_id,
				     RING_F_MP_RTS_ENQ | RING_F_SC_DEQ);
	if (q->backlog == NULL)
		goto err;
	/* sl_txq_pending() reads the RTS producer head: make sure it is one. */
	if (rte_ring_get_prod_sync_type(q->backlog) != RTE_RING_SYNC_MT_RTS ||
	    rte_ring_set_prod_htd_max(q->backlog, rte_ring_get_capacity(q->backlog)) != 0) {
		rte_ring_free(q->backlog);
		rte_free(q);
		rte_errno = ENOTSUP;
		return NULL;
	}
	q->xmit = conf->xmit;
	q->drv_queue = conf->drv_queue;
	q->caps = conf->drv_caps;
	q->mode = conf->mode;
	q->flags = conf->flags;
	q->drain_burst = burst;
	q->wait_min = (uint32_t)(sl_tsc_hz() * SL_TXQ_WAIT_MIN_NS / NS_PER_S);
	q->wait_max = (uint32_t)(sl_tsc_hz() * SL_TXQ_WAIT_MAX_NS / NS_PER_S);
	q->port_id = conf->port_id;
	q->queue_id = conf->queue_id;
	/* The shared slot never takes the inline fast path (see sl_xmit_sized). */
	q->lc[RTE_MAX_LCORE].in_xmit = 1;
	return q;
err:
	rte_free(q);
	return NULL; /* rte_errno set by rte_ring_create */
}

void
sl_txq_free(struct sl_txq *q)
{
	struct rte_mbuf *pkts[SL_DRAIN_MAX];
	unsigned int n;

	if (q == NULL)
		return;
	while ((n = rte_ring_sc_dequeue_burst(q->backlog, (void **)pkts, RTE_DIM(pkts),
					      NULL)) != 0)
		rte_pktmbuf_free_bulk(pkts, n);
	rte_ring_free(q->backlog);
	rte_free(q);
}

#ifdef SL_XMIT_TEST
int
sl_txq_test_trylock(struct sl_txq *q)
{
	return txq_trylock(q);
}

void
sl_txq_test_release(struct sl_txq *q)
{
	struct txq_ctx c;

	txq_ctx_init(q, &c);
	txq_release(&c);
}
#endif
