/* SPDX-License-Identifier: BSD-3-Clause */
/* The worker lcores' TX loop (worker.h). */

#include <sched.h>

#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

#include "source.h"
#include "worker.h"

volatile uint32_t sl_stop;
volatile uint32_t sl_intr;
volatile uint32_t sl_quit;

void
sl_run_stop(void)
{
	__atomic_store_n(&sl_stop, 1, __ATOMIC_SEQ_CST);
}

void
sl_run_quit(void)
{
	/* quit first: a start that clears stop reads quit after (sl_run_rearm()) */
	__atomic_store_n(&sl_quit, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&sl_stop, 1, __ATOMIC_SEQ_CST);
}

void
sl_run_interrupt(void)
{
	__atomic_store_n(&sl_intr, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&sl_stop, 1, __ATOMIC_SEQ_CST);
}

void
sl_run_rearm(void)
{
	/*
	 * A new run clears the last stop, but not a signal's (it quits) nor an
	 * interrupt's that has not done its work yet (a Ctrl-C or stop while a
	 * benchmark builds its next trial: that trial ends at once). Clear, then
	 * read them (a signal sets quit or intr, then stop): one at this very
	 * moment leaves stop set either way.
	 */
	__atomic_store_n(&sl_stop, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sl_quit, __ATOMIC_SEQ_CST) != 0 ||
	    __atomic_load_n(&sl_intr, __ATOMIC_SEQ_CST) != 0)
		__atomic_store_n(&sl_stop, 1, __ATOMIC_SEQ_CST);
}

bool
sl_run_intr_take(void)
{
	return __atomic_exchange_n(&sl_intr, 0, __ATOMIC_SEQ_CST) != 0;
}

/*
 * Make one burst behind what is pending (pending[pend_n..]): the target's
 * source (source.h) makes what is due. Returns how many were made; 0 when
 * none are due yet; -1 when the pool is empty (its mbufs in flight),
 * counted in pool_empty once per episode, the frames still due.
 */
static inline int
worker_make(struct sl_worker *w, struct sl_target *t, uint64_t tsc)
{
	return t->src->burst(w, t, tsc);
}

/*
 * Signed frames among pending[pend_off..pend_off + pend_n) before a send,
 * when only some sizes are signed (sig_mix 2); 0 otherwise.
 */
static inline uint64_t
worker_sig_before(struct sl_target *t)
{
	if (unlikely(t->sig_mix == 2))
		return sl_worker_signed(t->pending + t->pend_off, t->pend_n, t->sig_min_len);
	if (unlikely(t->sig_mix == 3))
		return sl_worker_marked(t->pending + t->pend_off, t->pend_n);
	return 0;
}

/*
 * The engine took k of the pending packets. Signed frames taken, for the
 * receive side's loss: all of them when every size is signed (the common
 * case, no cost); with some sizes too short, the tail kept after the call
 * (still ours) counted off sig_before.
 */
static inline void
worker_took(struct sl_target *t, uint16_t k, uint64_t sig_before)
{
	if (likely(t->sig_mix == 0))
		SL_CNT_ADD(t->signed_sent, k);
	else if (t->sig_mix == 2 && k != 0)
		SL_CNT_ADD(t->signed_sent, sig_before -
			   sl_worker_signed(t->pending + t->pend_off + k, t->pend_n - k,
					    t->sig_min_len));
	else if (t->sig_mix == 3 && k != 0)
		SL_CNT_ADD(t->signed_sent, sig_before -
			   sl_worker_marked(t->pending + t->pend_off + k, t->pend_n - k));
	t->pend_off += k;
	t->pend_n -= k;
	SL_CNT_ADD(t->generated, k);
}

/*
 * A flow's time window: true while its delay lasts, a pause between its
 * bursts or a controller's pause (hold: skip it, once what it made is sent);
 * once its duration is over, or a controller stops it, its quota goes to 0
 * (it drains and finishes, as a count ends it).
 */
static inline bool
worker_window(struct sl_target *t, uint64_t tsc)
{
	if (t->hold != NULL) {
		uint8_t h = __atomic_load_n(t->hold, __ATOMIC_ACQUIRE);

		/* Its share sent: it finishes (drains its backlog) even when paused. */
		if (h == SL_HOLD_PAUSE && t->quota != 0) {
			if (!t->held)
				t->held_tsc = tsc;
			t->held = true;
			return true;
		}
		if (h == SL_HOLD_STOP) {
			t->quota = 0; /* it drains what it made, and finishes */
			return false;
		}
		if (t->held) {
			/* Released: the pause is no lag to make up (a schedule of its own moves by it). */
			t->held = false;
			t->pacer.t0 = 0;
			t->pacer.next = 0;
			if (t->src->resume != NULL)
				t->src->resume(t, tsc - t->held_tsc);
		}
	}
	if (t->begin_tsc > tsc)
		return true;
	if (t->gap_until != 0) {
		if (tsc < t->gap_until)
			return true; /* a pause between bursts */
		/* The next burst: its pacer starts again (the pause is no lag to make up). */
		t->gap_until = 0;
		t->pacer.t0 = 0;
		t->pacer.next = 0;
	}
	if (t->end_tsc != 0 && tsc >= t->end_tsc && t->quota != 0)
		t->quota = 0;
	return false;
}

/*
 * The deadline passed: a burst sl_xmit_try() kept was made during the run,
 * so it is handed over (sl_xmit_sized() waits and hands off as always), as
 * any burst made before the deadline is; only then does the worker stop.
 */
static void
worker_send_kept(struct sl_worker *w)
{
	for (uint16_t i = 0; i < w->nb_targets; i++) {
		struct sl_target *t = &w->t[i];
		uint64_t sig_before;

		if (!t->deferred)
			continue;
		t->deferred = false;
		sig_before = worker_sig_before(t);
		worker_took(t, sl_xmit_sized(t->txq, t->pending, t->pend_n, t->pend_bytes),
			    sig_before);
	}
}

/*
 * The deadline passed: what the pacers scheduled before it is made and
 * handed over, so that the run's whole window is offered (the loop looks at
 * the clock once a pass, and a pass that ends past the deadline would
 * leave the frames due since the last one unmade). Each paced target first
 * hands over what it kept (sl_xmit_try()), then makes what was due by the
 * window's last instant, a burst at a time, as its pacer rules (a lag past
 * its slack is let go and counted); what it still could not make (the
 * pool empty, the device full, more due than its array holds) is let go
 * and counted too (sl_pacer_let_go()): the window's frames are all sent or
 * counted.
 */
static void
worker_last(struct sl_worker *w, const bool direct)
{
	const uint64_t last = w->deadline_tsc - 1;

	for (uint16_t i = 0; i < w->nb_targets; i++) {
		struct sl_target *t = &w->t[i];
		uint64_t sig_before;
		uint16_t k;

		if (t->finished || !t->src->paced || t->pacer.unit == SL_RATE_NONE ||
		    t->burst_pkts != 0 || t->held || t->gap_until != 0 || t->begin_tsc > last ||
		    (t->end_tsc != 0 && t->end_tsc <= last))
			continue;
		if (t->pend_n != 0 && t->pend_off == 0) {
			/* What it kept goes first: it was due before what follows. */
			sig_before = worker_sig_before(t);
			k = direct ? sl_xmit_direct(t->txq, t->pending, t->pend_n, t->pend_bytes) :
				     sl_xmit_sized(t->txq, t->pending, t->pend_n, t->pend_bytes);
			t->deferred = false;
			worker_took(t, k, sig_before);
			if (t->pend_n == 0)
				t->pend_off = 0;
		}
		for (unsigned int b = 0; b < RTE_DIM(t->pending) && t->pend_n == 0; b++) {
			if (t->quota == 0)
				break;
			t->pend_off = 0;
			t->pend_bytes = 0;
			if (worker_make(w, t, last) <= 0)
				break;
			sig_before = worker_sig_before(t);
			k = direct ? sl_xmit_direct(t->txq, t->pending, t->pend_n, t->pend_bytes) :
				     sl_xmit_sized(t->txq, t->pending, t->pend_n, t->pend_bytes);
			worker_took(t, k, sig_before);
			if (t->pend_n == 0)
				t->pend_off = 0;
		}
		/* Left over (the device full: freed at the end, counted unsent). */
		if (t->quota != 0)
			sl_pacer_let_go(&t->pacer, last);
	}
}

/*
 * The TX loop of one worker lcore. With direct set (--xmit direct, a
 * benchmark baseline for exclusive ethdev queues) the engine's modes and
 * backlog are bypassed: sl_xmit_direct() hands each burst to the driver
 * (rte_eth_tx_burst()) once and counts it in the engine's per-lcore
 * counters; the compiler builds the two loops separately, so neither pays
 * for the other.
 */
static __rte_always_inline int
worker_loop(struct sl_worker *w, const bool direct)
{
	unsigned int active = w->nb_targets, backoff = 0;
	uint16_t first = 0;
	bool timed = false; /* some target has a delay or a duration */

	/*
	 * The run's window opens at its anchor (the session sets it a little
	 * ahead of the launch): every worker waits for it, and every pacer
	 * counts its deadlines from it, so the first frame is due at the
	 * window's first instant and the frames of the whole window are
	 * offered. A worker launched late owes what is due since then: made up
	 * within its pacer's slack, else let go and counted (sl_gen_due).
	 */
	if (w->anchor_tsc != 0) {
		while ((int64_t)(rte_rdtsc() - w->anchor_tsc) < 0 && !sl_stopping())
			rte_pause();
		w->start_tsc = w->anchor_tsc;
	} else {
		w->start_tsc = rte_rdtsc();
	}
	/* A flow's delay and duration count from the run's start, here. */
	for (uint16_t i = 0; i < w->nb_targets; i++) {
		struct sl_target *t = &w->t[i];

		t->begin_tsc = w->start_tsc + t->delay_tsc;
		t->end_tsc = t->duration_tsc != 0 ? t->begin_tsc + t->duration_tsc : 0;
		/* Its schedule from its window's start (a replay's too: the same for every lcore). */
		t->pacer.t0 = t->begin_tsc;
		t->pacer.next = 0;
		timed |= t->delay_tsc != 0 || t->duration_tsc != 0 || t->burst_pkts != 0 ||
			 t->hold != NULL;
	}
	/*
	 * TX until the share is sent or the deadline; a worker that also
	 * receives keeps polling its RX ports until the stop, so the session
	 * can tell "sent" (tx_done) from "ended" (done).
	 */
	while (!sl_stopping()) {
		uint64_t tsc = rte_rdtsc();
		bool progress = false;

		if (active != 0 && w->deadline_tsc != 0 && tsc >= w->deadline_tsc) {
			worker_last(w, direct);
			if (!direct)
				worker_send_kept(w);
			active = 0;
			/* The window's end: its last frames were due before it. */
			tsc = w->deadline_tsc;
		}
		if (active == 0) {
			if (!w->tx_done) {
				w->end_tsc = tsc;
				__atomic_store_n(&w->tx_done, 1, __ATOMIC_RELEASE);
			}
			if (w->nb_rxp == 0)
				break;
		}
		if (w->nb_targets != 0 && ++first == w->nb_targets)
			first = 0;
		if (w->nb_rxp != 0)
			progress |= sl_worker_rx(w->rxp, w->nb_rxp);
		/*
		 * Each target once, from a first one that moves on every pass:
		 * unpaced flows sharing a port's line get equal turns, not the
		 * first ones what the device frees.
		 */
		for (uint16_t j = 0, i = first; j < w->nb_targets;
		     j++, i = i + 1 == w->nb_targets ? 0 : i + 1) {
			struct sl_target *t = &w->t[i];
			uint64_t sig_before;
			bool fresh = false, closed = false;
			uint16_t k;

			/*
			 * Many targets (flows): the next ones' state is not in the
			 * cache. Two ahead, the target; one ahead, its stream's
			 * frame sizes and template (its pointer came with it).
			 */
			if (w->nb_targets > 8) {
				uint16_t n1 = i + 1 < w->nb_targets ? i + 1 : 0;
				uint16_t n2 = n1 + 1 < w->nb_targets ? n1 + 1 : 0;
				const struct sl_stream *ns = w->t[n1].gen.s;

				rte_prefetch0(&w->t[n2]);
				rte_prefetch0((const char *)&w->t[n2] + RTE_CACHE_LINE_SIZE);
				if (likely(ns != NULL)) { /* a harness's target may have none */
					rte_prefetch0(ns);
					rte_prefetch0(ns->tmpl); /* with one_sz */
					rte_prefetch0(ns->tmpl + 32);
				}
			}

			if (t->finished || active == 0)
				continue;
			if (unlikely(timed) && (closed = worker_window(t, tsc)) && t->pend_n == 0) {
				/* Not now (its delay, a gap, a pause): its backlog may go. */
				if (sl_txq_drain_own(t->txq) != 0)
					progress = true;
				continue;
			}
			if (t->pend_n == 0) {
				int made;

				if (t->quota == 0) {
					/* Share sent: done once its own backlog is empty too. */
					if (sl_txq_drain_own(t->txq) != 0)
						progress = true;
					else if (sl_txq_get_mode(t->txq) != SL_TXQ_EXCLUSIVE ||
						 sl_txq_pending(t->txq) == 0) {
						__atomic_store_n(&t->finished, true,
								 __ATOMIC_RELAXED);
						active--;
					}
					continue;
				}
				t->pend_off = 0;
				t->pend_bytes = 0;
				made = worker_make(w, t, tsc);
				if (made <= 0) {
					progress |= made == 0; /* paced: nothing due yet */
					continue;
				}
				fresh = true;
			} else if (t->deferred) {
				/*
				 * sl_xmit_try() kept what is pending (the lock was
				 * held): the next burst goes behind it, if one is
				 * due, fits and the pool has it, and all of it is
				 * offered again below.
				 */
				if (t->quota != 0 && !closed &&
				    t->pend_n + w->burst <= RTE_DIM(t->pending) &&
				    worker_make(w, t, tsc) > 0)
					fresh = true;
				t->deferred = false;
			}
			sig_before = worker_sig_before(t);
			if (direct) {
				k = sl_xmit_direct(t->txq, t->pending + t->pend_off, t->pend_n,
						   t->pend_off == 0 ? t->pend_bytes :
						   sl_xmit_bytes(t->pending + t->pend_off, t->pend_n));
			} else if (t->quota != 0 && !closed && t->pend_off == 0 &&
				   (fresh || t->pend_n + w->burst > RTE_DIM(t->pending))) {
				/*
				 * While it can make more (its share not sent), a
				 * worker keeps what a held lock would make it wait
				 * for, and makes its next burst behind it: one
				 * holding then sends several bursts, and the mbufs
				 * stay on this core (docs/lltx.md, rule 10). With
				 * its pending array full it waits for the lock,
				 * bounded, and keeps them again if the holder does
				 * not let go (no progress: it backs off, pauses then
				 * yields, so a holder preempted on its CPU runs),
				 * never queueing them in the backlog. Not fresh and
				 * not full (nothing due yet), it hands them over
				 * with sl_xmit_sized(), which waits.
				 */
				bool kept;

				k = fresh ? sl_xmit_try(t->txq, t->pending, t->pend_n, t->pend_bytes,
							&kept) :
					    sl_xmit_try_wait(t->txq, t->pending, t->pend_n,
							     t->pend_bytes, &kept);
				if (kept) {
					t->deferred = true;
					progress |= fresh; /* a burst was made */
					continue;
				}
			} else if (t->pend_off == 0) {
				k = sl_xmit_sized(t->txq, t->pending, t->pend_n, t->pend_bytes);
			} else {
				k = sl_xmit(t->txq, t->pending + t->pend_off, t->pend_n);
			}
			worker_took(t, k, sig_before);
			progress |= k != 0;
		}
		/*
		 * The device is not keeping up (or the pool is empty): back off,
		 * stay responsive to stop. A few short pauses first; then give
		 * the CPU away, since with more lcores than CPUs the lcore that
		 * would drain the queue may be waiting for this very CPU; then
		 * sleep, so that a stalled device does not burn a core.
		 */
		/*
		 * A lcore that only receives never sleeps (a NIC's RX ring is a few
		 * microseconds deep): short pauses, then it yields, which costs
		 * nothing on a CPU of its own and lets a TX lcore sharing its CPU
		 * run (with more lcores than CPUs).
		 */
		if (unlikely(!progress) && w->nb_targets == 0) {
			if (++backoff < 64)
				rte_pause();
			else
				sched_yield();
		} else if (unlikely(!progress)) {
			if (backoff < 64)
				backoff++;
			if (backoff <= 6)
				for (unsigned int s = 0; s < (1u << backoff); s++)
					rte_pause();
			else if (backoff < 64)
				sched_yield();
			else
				rte_delay_us_sleep(10);
		} else {
			backoff = 0;
		}
	}
	if (!w->tx_done) {
		w->end_tsc = rte_rdtsc();
		__atomic_store_n(&w->tx_done, 1, __ATOMIC_RELEASE);
	}
	for (uint16_t i = 0; i < w->nb_targets; i++) {
		struct sl_target *t = &w->t[i];

		if (t->pend_n != 0) {
			rte_pktmbuf_free_bulk(t->pending + t->pend_off, t->pend_n);
			t->unsent += t->pend_n;
			t->pend_n = 0;
		}
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return 0;
}

int
sl_worker_main(void *arg)
{
	struct sl_worker *w = arg;

	return w->direct ? worker_loop(w, true) : worker_loop(w, false);
}

