/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_XMIT_H
#define SL_XMIT_H

/**
 * @file
 * The TX queue object: the driver contract, the queue modes, the backlog.
 *
 * A struct sl_txq wraps one driver TX queue (an ethdev queue, a simulated
 * NIC queue) and lets one or several lcores transmit on it:
 *
 * - SL_TXQ_EXCLUSIVE: one producer lcore; no lock at all.
 * - SL_TXQ_LOCKED: several producers, driver not MT-safe; an engine lock
 *   taken only with trylock. A producer that fails the trylock counts a
 *   collision and waits for the lock, for a bounded time sized from the
 *   waits that succeeded before (at most SL_TXQ_WAIT_MAX_NS, none when this
 *   very holding already outlasted one of its waits: a holder that does not
 *   run); if it gets the lock it sends itself (counted in waited), otherwise
 *   it puts its burst in the backlog, sets "missed" and returns. A producer
 *   that can make more packets at once may call sl_xmit_try() instead: it
 *   keeps its burst when the lock is held and sends it with the next one.
 * - SL_TXQ_LLTX: several producers, driver MT-safe (SL_DRV_CAP_LLTX); no
 *   engine lock on the send path. A driver answering SL_XMIT_LOCKED sends
 *   the burst to the backlog.
 * - SL_TXQ_SPIN: several producers, a blocking spinlock (the OVS/VPP way);
 *   a baseline for benchmarks only.
 *
 * The backlog (the qdisc analog) is an rte_ring, multi-producer and
 * single-consumer; the consumer side is serialised by the queue's lock word,
 * and partially sent bursts stay at its head (rte_ring peek API), so packets
 * from one producer leave in the order they were given, in every mode.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "sl_drv.h"
#include "sl_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Queue modes, decided when the lcore map is applied. */
enum sl_txq_mode {
	SL_TXQ_EXCLUSIVE = 0,
	SL_TXQ_LOCKED,
	SL_TXQ_LLTX,
	SL_TXQ_SPIN,
};

/** Engine lock policy on shared queues of non-LLTX drivers. */
enum sl_lock_policy {
	SL_LOCK_TRYLOCK = 0,
	SL_LOCK_SPIN,
};

/**
 * Bounds of the locked mode's wait for a held lock, nanoseconds: every wait
 * may last SL_TXQ_WAIT_MIN_NS, and up to 4 times the average successful
 * wait plus that, never more than SL_TXQ_WAIT_MAX_NS. The minimum covers a
 * running holder's brief preemption (a timer, a wake-up on its CPU: a few
 * to some tens of us on a VM), which costs less to wait out than a burst
 * handed over (docs/lltx.md rule 9 has the measurements); a holder that
 * does not run for longer costs each waiter one such wait per holding.
 */
#define SL_TXQ_WAIT_MIN_NS 10000
#define SL_TXQ_WAIT_MAX_NS 20000

/** Queue flag: when the backlog is full, drop (and count) instead of back-pressure. */
#define SL_TXQ_F_DROP_ON_FULL (1u << 0)
/** All flags understood by sl_txq_create(); others are rejected. */
#define SL_TXQ_F_MASK SL_TXQ_F_DROP_ON_FULL

/** Configuration of one queue. */
struct sl_txq_conf {
	sl_drv_xmit_t xmit;     /**< driver entry point */
	void *drv_queue;        /**< driver's queue handle, passed to xmit */
	uint32_t drv_caps;      /**< SL_DRV_CAP_* */
	enum sl_txq_mode mode;  /**< see sl_txq_mode_select() */
	uint32_t backlog_size;  /**< ring slots, power of two >= 2 (holds one less); 0 = 1024 */
	uint16_t drain_burst;   /**< packets per driver call when draining; 0 = 32 */
	uint16_t port_id;       /**< for names and logs only */
	uint16_t queue_id;      /**< for names and logs only */
	int socket_id;          /**< NUMA socket of the ring, or SOCKET_ID_ANY */
	uint32_t flags;         /**< SL_TXQ_F_* */
};

/** Per-lcore counters of one queue; one cache line, one writer. */
struct sl_txq_lcore {
	uint64_t tx_packets;  /**< packets the driver took (counted once) */
	uint64_t tx_bytes;    /**< their bytes (mbuf pkt_len, no FCS) */
	uint64_t busy;        /**< driver calls answered SL_XMIT_BUSY */
	uint64_t collisions;  /**< engine trylock failures plus driver SL_XMIT_LOCKED */
	uint64_t locked;      /**< driver SL_XMIT_LOCKED answers (part of collisions) */
	uint64_t waited;      /**< collisions the bounded wait resolved: sent directly */
	uint64_t deferred;    /**< sl_xmit_try() calls that found the lock held: kept by the caller */
	uint64_t requeued;    /**< packets put into the backlog */
	uint64_t dropped;     /**< packets freed without being sent, all reasons */
	uint64_t dead_loops;  /**< re-entrant calls refused */
	uint32_t in_xmit;     /**< inside this queue's engine code (shared slot: always 1) */
	uint32_t warned_s;    /**< rate limit of the dead-loop warning (seconds) */
	uint32_t wait_skip;   /**< lock value (one holding) that outlasted this slot's last wait */
	/*
	 * lltx: this lcore's last requeue ended at or before backlog position
	 * bl_mark (the producer head read after it); while bl_wait is set and
	 * the consumer tail has not passed bl_mark, some of its packets may
	 * still be in the backlog, and its next burst must queue behind them.
	 */
	uint32_t bl_mark;
	uint32_t bl_wait;
} __rte_cache_aligned;

/** Aggregated counters, see struct sl_txq_lcore for each meaning. */
struct sl_txq_stats {
	uint64_t tx_packets, tx_bytes, busy, collisions, locked, waited, deferred, requeued;
	uint64_t dropped, dead_loops;
	uint64_t drop_dead_loop;     /**< dropped: re-entrant call */
	uint64_t drop_backlog_full;  /**< dropped: backlog full with SL_TXQ_F_DROP_ON_FULL */
	uint64_t drop_flush;         /**< dropped: still queued when a flush timed out */
	uint64_t release_bound;      /**< releases that stopped re-draining at their bound,
				          leaving work flagged for the next producer or the poll */
	uint32_t backlog;            /**< packets in the backlog now */
};

/** The queue object. Fields are private; use the functions below. */
struct sl_txq {
	sl_drv_xmit_t xmit;
	void *drv_queue;
	struct rte_ring *backlog;
	enum sl_txq_mode mode;
	uint32_t flags;
	uint32_t caps;
	uint16_t drain_burst;
	uint16_t port_id;
	uint16_t queue_id;
	/**
	 * 0: free; otherwise the owner's slot + 1 in the low 9 bits and the
	 * owner's acquisition count above (each holding has its own value).
	 * Own cache line, shared with what the bounded wait learns.
	 */
	uint32_t lock __rte_cache_aligned;
	/**
	 * locked mode: the bounded wait before a hand-off. wait_avg is an
	 * average of the waits that ended with the lock (TSC cycles, 1/16
	 * units), written by the waiter that just took the lock (it owns this
	 * line then), read relaxed; wait_min/wait_max bound the wait.
	 */
	uint32_t wait_avg16;
	uint32_t wait_min;
	uint32_t wait_max;
	/**
	 * Set (atomic RMW) by a producer that left work it could not drain.
	 * Own cache line, shared with drv_missed.
	 */
	uint32_t missed __rte_cache_aligned;
	/** lltx: set (atomic RMW) by a drainer whose driver call answered LOCKED. */
	uint32_t drv_missed;
	/** Drop reasons, written by whoever drops (rare): atomic adds. */
	uint64_t drop_dead_loop __rte_cache_aligned;
	uint64_t drop_backlog_full;
	uint64_t drop_flush;
	uint64_t release_bound;   /* see struct sl_txq_stats (atomic add; rare) */
	uint32_t test_flags;  /**< sl_xmit_pvt.h: fault switches, read by the test build only */
	uint32_t test_last_release; /**< test build only: 1 when the last release stopped at
				     * its bound (missed left set), 2 when it ended normally */
	/** Slot RTE_MAX_LCORE is shared by unregistered threads (atomic adds). */
	struct sl_txq_lcore lc[RTE_MAX_LCORE + 1];
};

/**
 * Choose the mode of a queue from how many lcores transmit on it.
 *
 * @return SL_TXQ_EXCLUSIVE for one lcore (or none); for several, SL_TXQ_LLTX
 *   if drv_caps has SL_DRV_CAP_LLTX, else SL_TXQ_LOCKED or SL_TXQ_SPIN as
 *   the policy says.
 */
enum sl_txq_mode sl_txq_mode_select(unsigned int nb_lcores, uint32_t drv_caps,
				    enum sl_lock_policy policy);

/** Name of a mode as users see it ("exclusive", "locked", "lltx", "spin"). */
const char *sl_txq_mode_name(enum sl_txq_mode mode);

/**
 * Create a queue object and its backlog ring.
 *
 * Not MT-safe (control path). SL_TXQ_LLTX requires SL_DRV_CAP_LLTX in
 * drv_caps: the engine will call the driver concurrently.
 *
 * @return the queue, or NULL with rte_errno set: EINVAL (no xmit, bad mode,
 *   backlog_size not a power of two or below 2, unknown flag, LLTX mode without
 *   the capability), ENOMEM (queue or ring), ENOTSUP (the backlog ring is not
 *   RTS on its producer side: cannot happen with this DPDK, checked because
 *   sl_txq_pending() depends on it). Ring names carry a sequence number, so
 *   EEXIST cannot happen.
 */
struct sl_txq *sl_txq_create(const struct sl_txq_conf *conf);

/**
 * Free a queue and its backlog ring. Packets still in the backlog are
 * freed without being counted: call sl_txq_flush() first, which sends them
 * or counts them as dropped. NULL is a no-op. No lcore may use the queue
 * any more.
 */
void sl_txq_free(struct sl_txq *q);

/*
 * Packets in the backlog including enqueues still in flight. The backlog's
 * producers use RTS: the tail is published only when every enqueue in
 * flight has finished, so a producer's own finished enqueue can be missing
 * from rte_ring_count() while another producer is preempted mid-enqueue.
 * The producer head counts it; a producer that saw an empty backlog here
 * has no packet of its own waiting, and may send directly without
 * overtaking itself.
 */
static inline uint32_t
sl_txq_pending(const struct sl_txq *q)
{
	const struct rte_ring *r = q->backlog;

	/*
	 * The layout this reads (DPDK 22.11): the RTS head shares the producer
	 * union; positions are 32-bit and wrap together. sl_txq_create()
	 * checks at run time that the ring is RTS.
	 */
	RTE_BUILD_BUG_ON(offsetof(struct rte_ring, rts_prod) != offsetof(struct rte_ring, prod));
	RTE_BUILD_BUG_ON(sizeof(r->rts_prod.head.val.pos) != sizeof(uint32_t));
	RTE_BUILD_BUG_ON(sizeof(r->rts_prod.head) != sizeof(uint64_t));
	RTE_BUILD_BUG_ON(sizeof(r->cons.tail) != sizeof(uint32_t));

	return __atomic_load_n(&r->rts_prod.head.val.pos, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(&r->cons.tail, __ATOMIC_ACQUIRE);
}

/* Slow paths, in sl_xmit.c: shared modes, non-empty backlog, dead loops. */
uint16_t sl_xmit_slow(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n);
/* Exclusive mode: the driver answered BUSY or LOCKED; count it and requeue the tail. */
uint16_t sl_xmit_tail(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n,
		      enum sl_xmit_status st);

/*
 * The calling thread's counter slot + 1 (0: not looked up yet). Our own TLS
 * variable: DPDK's per-lcore id lives in a shared library, and reading it
 * from here costs a __tls_get_addr() call per burst; this one is a plain
 * %fs-relative load in the executable.
 */
extern __thread unsigned int sl_xmit_slot1;
unsigned int sl_xmit_slot_init(void);

static inline struct sl_txq_lcore *
sl_txq_lcore(struct sl_txq *q)
{
	unsigned int s = sl_xmit_slot1;

	if (unlikely(s == 0))
		s = sl_xmit_slot_init();
	return &q->lc[s - 1];
}

/** Sum of pkt_len over pkts[0..n). */
static inline uint64_t
sl_xmit_bytes(struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t b = 0;

	for (uint16_t i = 0; i < n; i++)
		b += rte_pktmbuf_pkt_len(pkts[i]);
	return b;
}

/**
 * Transmit a burst on a queue, in whatever mode it is.
 *
 * The engine takes ownership of pkts[0..ret) and the caller keeps
 * pkts[ret..n), exactly as with rte_eth_tx_burst(). A packet the engine took
 * is either handed to the driver now, or queued in the backlog behind this
 * producer's earlier packets and sent later by whichever lcore drains the
 * backlog, or (only on a re-entrant call, or when the queue was created with
 * SL_TXQ_F_DROP_ON_FULL and the backlog is full) freed and counted in
 * dropped. It is counted in tx_packets only when the driver takes it.
 *
 * ret < n happens only when the backlog is full: the device is not keeping
 * up. The caller should back off (not retry in a tight loop) and offer
 * pkts[ret..n) again later, in order, or free them.
 *
 * MT-safety: SL_TXQ_EXCLUSIVE queues accept one producer thread only; the
 * other modes accept any number of threads concurrently. Never blocks
 * unboundedly, except in SL_TXQ_SPIN mode (by design): in SL_TXQ_LOCKED mode
 * a call that meets the held lock may wait for it at most SL_TXQ_WAIT_MAX_NS
 * before it hands its burst to the backlog. Any thread may call: EAL lcores and
 * threads registered with rte_thread_register() have a counter slot each
 * (plain adds) and take the inline fast path; other threads share one slot,
 * whose counters are updated with atomic adds, and always take the slow
 * path (correct, a little slower: register threads that send a lot). A
 * thread caches its slot at its first call: a thread that calls
 * rte_thread_unregister() must not call the engine afterwards (a thread
 * registered later may get the same lcore id, and the two would share it).
 *
 * Shared queues need sl_txq_poll() called periodically (the app does it
 * every millisecond from its main lcore): an owner stops re-draining after a
 * bounded number of rounds (counted in release_bound) so that a producer
 * returns to its caller in bounded time, and what it leaves flagged goes out
 * with the next producer or the poll; without either it would wait.
 *
 * A call made while the same thread is already inside the engine for this
 * queue (from a driver callback, say) is a dead loop: the burst is freed,
 * counted in dead_loops and dropped, a rate-limited warning is logged, and
 * n is returned. The re-entry marker is per thread and per queue, shared
 * slot included: a call on another queue from a driver callback is not a
 * dead loop, and another thread's call never looks like one.
 *
 * @return the number of packets the engine took, 0..n.
 */
static inline uint16_t sl_xmit(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * sl_xmit() for a caller that knows the burst's size: @p bytes must be the
 * sum of pkt_len over pkts[0..n). Saves the engine a pass over the mbufs
 * (a generator knows its sizes without reading them back). Same contract.
 */
static inline uint16_t
sl_xmit_sized(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes)
{
	struct sl_txq_lcore *lc;
	enum sl_xmit_status st;
	uint16_t sent;

	if (q->mode != SL_TXQ_EXCLUSIVE || unlikely(sl_txq_pending(q) != 0))
		return sl_xmit_slow(q, pkts, n);

	lc = sl_txq_lcore(q);
	if (unlikely(lc->in_xmit))
		return sl_xmit_slow(q, pkts, n);
	lc->in_xmit = 1;
	sent = q->xmit(q->drv_queue, pkts, n, &st);
	lc->in_xmit = 0;
	/* The unsent tail is still ours to read; what the driver took is not. */
	if (unlikely(sent != n))
		bytes -= sl_xmit_bytes(pkts + sent, n - sent);
	SL_CNT_ADD(lc->tx_packets, sent);
	SL_CNT_ADD(lc->tx_bytes, bytes);
	if (likely(sent == n))
		return n;
	return sent + sl_xmit_tail(q, pkts + sent, n - sent, st);
}

/**
 * Pass-through (--xmit direct, the baseline without the engine): hand the
 * burst to the driver once and count what it took in the calling lcore's
 * counters (tx_packets, tx_bytes), nothing else: no lock, no backlog, no
 * re-entry guard. The caller keeps pkts[ret..n), as with rte_eth_tx_burst().
 * @p bytes must be the sum of pkt_len over pkts[0..n).
 *
 * Only for an SL_TXQ_EXCLUSIVE queue's one producer, which then sends on it
 * with this call only (mixed with sl_xmit(), a burst could overtake what the
 * backlog holds).
 *
 * @return the number of packets the driver took, 0..n.
 */
static inline uint16_t
sl_xmit_direct(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes)
{
	struct sl_txq_lcore *lc = sl_txq_lcore(q);
	enum sl_xmit_status st;
	uint16_t sent = q->xmit(q->drv_queue, pkts, n, &st);

	if (unlikely(sent != n))
		bytes -= sl_xmit_bytes(pkts + sent, n - sent);
	SL_CNT_ADD(lc->tx_packets, sent);
	SL_CNT_ADD(lc->tx_bytes, bytes);
	return sent;
}

/**
 * sl_xmit_sized() for a producer that can make more packets now: on an
 * SL_TXQ_LOCKED queue whose lock is held, it takes nothing and returns 0 at
 * once, without waiting and without queueing, sets *deferred and counts the
 * call in deferred. The caller keeps pkts[0..n), makes its next burst behind
 * them, and hands both over with sl_xmit_sized() or sl_xmit() (which wait
 * and hand off as always). The time a producer would have waited for the
 * lock goes into its next burst, its mbufs stay on its core, and one
 * holding sends both bursts (docs/lltx.md rule 10). Otherwise (another
 * mode, the lock free, a thread without an lcore slot of its own, or a
 * re-entrant call, which is a dead loop as with sl_xmit()) it is
 * sl_xmit_sized() and *deferred is false.
 *
 * The next call for deferred packets must be sl_xmit_sized() or sl_xmit():
 * a caller that calls sl_xmit_try() again for them may wait for ever.
 */
static inline uint16_t
sl_xmit_try(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes,
	    bool *deferred)
{
	if (q->mode == SL_TXQ_LOCKED && __atomic_load_n(&q->lock, __ATOMIC_RELAXED) != 0) {
		struct sl_txq_lcore *lc = sl_txq_lcore(q);

		/*
		 * The shared slot's counters take atomic adds: it does not defer.
		 * A call from inside this queue's engine code is a dead loop, not
		 * a deferral (kept, it would be offered to the same held lock).
		 */
		if (likely(lc != &q->lc[RTE_MAX_LCORE] && !lc->in_xmit)) {
			SL_CNT_ADD(lc->deferred, 1);
			*deferred = true;
			return 0;
		}
	}
	*deferred = false;
	return sl_xmit_sized(q, pkts, n, bytes);
}

/**
 * sl_xmit_try() for a producer that cannot make more packets now (what it
 * keeps fills its array): on an SL_TXQ_LOCKED queue whose lock is held, it
 * first waits for the lock, bounded as sl_xmit() waits (counted in
 * collisions, and in waited when the wait ends with the lock: it then sends
 * as the owner). If the wait runs out (a holder that does not run) it takes
 * nothing, sets *deferred and counts the call in deferred, as
 * sl_xmit_try() does: it never queues into the backlog. The caller then
 * backs off (pauses, yields: the holder may be waiting for its CPU) and
 * offers the same packets again, with sl_xmit_try_wait(), sl_xmit_sized()
 * or sl_xmit(). Otherwise it is sl_xmit_try().
 */
uint16_t sl_xmit_try_wait(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes,
			  bool *deferred);

static inline uint16_t
sl_xmit(struct sl_txq *q, struct rte_mbuf **pkts, uint16_t n)
{
	/* Summed before the call: afterwards the driver owns the mbufs. */
	return sl_xmit_sized(q, pkts, n, q->mode == SL_TXQ_EXCLUSIVE ? sl_xmit_bytes(pkts, n) : 0);
}

/**
 * Scheduler poll: drain the backlog if it is not empty and can be owned now.
 *
 * Never blocks: if another lcore owns the queue, returns 0 at once (that
 * owner drains). Does nothing on SL_TXQ_EXCLUSIVE queues, whose single
 * producer drains its own backlog (and sl_txq_flush() at stop). MT-safe on
 * shared queues. Called periodically by the main lcore so that no packet
 * stays in a backlog after its producers went quiet.
 *
 * @return packets handed to the driver, including what its release's
 *   re-check drained.
 */
unsigned int sl_txq_poll(struct sl_txq *q);

/**
 * Drain an exclusive queue's backlog, from its one producer lcore: what a
 * BUSY device left there when the producer has nothing more to send (its
 * share of a count is done), so it does not wait for the stop. Only the
 * queue's producer may call it (the driver is not MT-safe). Never blocks.
 *
 * @return packets handed to the driver; 0 if the queue is not exclusive,
 *   its backlog is empty, or the device is still full.
 */
unsigned int sl_txq_drain_own(struct sl_txq *q);

/**
 * Flush at stop: send the backlog, waiting at most timeout_us for the
 * device; whatever is still queued then is freed and counted in dropped
 * (reason drop_flush). Call only after every producer of this queue has
 * stopped. Afterwards the backlog is empty.
 *
 * @return the number of packets dropped, or -EBUSY if a producer still owns the queue.
 */
int sl_txq_flush(struct sl_txq *q, uint64_t timeout_us);

/** The queue's mode (decided at create time). MT-safe. */
static inline enum sl_txq_mode
sl_txq_get_mode(const struct sl_txq *q)
{
	return q->mode;
}

/** The port id given at create time (for names and logs). MT-safe. */
static inline uint16_t
sl_txq_port_id(const struct sl_txq *q)
{
	return q->port_id;
}

/** The queue id given at create time (for names and logs). MT-safe. */
static inline uint16_t
sl_txq_queue_id(const struct sl_txq *q)
{
	return q->queue_id;
}

/** Packets in the backlog now (a snapshot). MT-safe. */
static inline unsigned int
sl_txq_backlog(const struct sl_txq *q)
{
	return rte_ring_count(q->backlog);
}

/** Sum the per-lcore counters. MT-safe; exact once the producers have stopped. */
void sl_txq_stats_get(const struct sl_txq *q, struct sl_txq_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* SL_XMIT_H */
