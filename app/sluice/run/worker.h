/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_WORKER_H
#define SL_WORKER_H

/*
 * The worker lcores: what each sends to (its targets: a queue, a generator,
 * a pacer, its share of --count) and the TX loop. A worker sees only its own
 * struct sl_worker, written before rte_eal_remote_launch(), which orders
 * those stores before the worker starts; while running it reads only the
 * stop flag.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_cycles.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "sl_config.h"
#include "sl_gen.h"
#include "sl_port.h"
#include "sl_capture.h"
#include "sl_dev.h"
#include "sl_rx.h"
#include "sl_xmit.h"

#define SL_MAX_TARGETS SL_CONFIG_MAX_TARGETS

/*
 * A target's pending array: its burst, and the bursts it keeps behind it
 * while a shared queue's lock is held (sl_xmit_try()). 128 keeps four
 * bursts of 32 (two of the largest, 64) before the worker waits, so one
 * holding sends up to four bursts (docs/lltx.md, rule 10). At least
 * SL_GEN_MAX_SIZES: a burst of a size list's every size.
 */
#define SL_WORKER_PENDING 128

/* A stream's hold (sl_session.hold, sl_target.hold). */
enum {
	SL_HOLD_NONE = 0,    /* it sends */
	SL_HOLD_PAUSE = 1,   /* it waits; its pacer starts again when released */
	SL_HOLD_STOP = 2,    /* its share ends now (its quota 0): it finishes */
};

/* What one worker sends to: a queue, its generator, its share of --count. */
struct sl_target {
	struct sl_txq *txq;
	struct sl_gen gen;
	struct sl_pacer pacer;
	uint16_t port;
	uint16_t queue;
	uint16_t stream;             /* its stream's id (the signature's) */
	bool own_rate;               /* a flow's rate of its own (set rate on the port leaves it) */
	uint64_t quota;              /* UINT64_MAX: no limit */
	uint8_t sig_mix;             /* 0: every size carries a signature, 1: none, 2: some,
					3: a replay's, marked (hash.usr) */
	uint32_t sig_min_len;        /* pkt_len from which a frame carries one (sig_mix 2) */
	uint16_t pend_off, pend_n;   /* generated, not yet taken by sl_xmit */
	uint64_t pend_bytes;         /* pkt_len sum of pending[0..pend_n) while pend_off is 0 */
	bool deferred;               /* sl_xmit_try() kept pending: add a burst, then send */
	bool finished;               /* share of --count sent and drained (atomic: the main reads it) */
	const uint8_t *hold;         /* its stream's hold (SL_HOLD_*), or NULL: none */
	const struct sl_source *src; /* what makes its frames (source.h) */
	void *src_state;             /* what its source keeps of it (the source's own) */
	bool held;                   /* it was held: its pacer starts again (worker only) */
	uint64_t held_tsc;           /* since when (worker only) */
	/* Single writer: this worker. */
	uint64_t generated;          /* taken by the engine (sl_xmit, or sl_xmit_direct) */
	uint64_t signed_sent;        /* of those taken, the frames long enough for a signature */
	uint64_t unsent;             /* built but never taken, freed at stop */
	uint64_t pool_empty;         /* times the TX mempool could not fill a burst */
	bool pool_dry;               /* the last burst found it empty (worker only) */
	/*
	 * A new rate while running (set rate), a sequence lock: the main lcore
	 * makes rate_gen odd, stores the pacer's unit and per_unit, and makes it
	 * even again (release); the worker, between bursts, sees a new even
	 * rate_gen (acquire), loads them, and takes them if rate_gen has not
	 * moved meanwhile. Its pacer then restarts at that moment: the new rate
	 * holds from the next burst on.
	 */
	uint32_t rate_gen;
	uint32_t rate_seen;          /* worker only */
	uint8_t rate_unit;
	uint64_t rate_per_unit;
	/* The catch-up bound in each pacer unit (packets, L1 bits, L2 bits)
	 * and in microseconds, set again with a new rate (sl_pacer_set_slack):
	 * one burst or SL_PACER_CATCHUP_US; one frame or SL_PACER_EVEN_US for
	 * evenly spaced frames. */
	double slack_units[3];
	uint64_t slack_us;
	/* Its flow's delay and duration (0: none); from the worker's start, it sends in
	 * [begin, end) (worker_window()). */
	uint64_t delay_tsc, duration_tsc;
	uint64_t begin_tsc, end_tsc;
	/* Its flow's bursts: its share of each (0: none), then a pause (worker_window()). */
	uint32_t burst_pkts, burst_left, bursts_left; /* bursts_left 0: no limit */
	uint64_t burst_gap_tsc, gap_until;
	/* Last: a burst uses its first lines only (a worker sweeps many targets). */
	struct rte_mbuf *pending[SL_WORKER_PENDING];
};

/* Take a new rate published by sl_session_rate_live() (worker only). */
static inline void
sl_target_rate_update(struct sl_target *t)
{
	uint32_t g = __atomic_load_n(&t->rate_gen, __ATOMIC_ACQUIRE);
	uint64_t per;
	uint8_t unit;

	if (likely(g == t->rate_seen) || (g & 1) != 0)
		return;
	unit = __atomic_load_n(&t->rate_unit, __ATOMIC_RELAXED);
	per = __atomic_load_n(&t->rate_per_unit, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&t->rate_gen, __ATOMIC_RELAXED) != g)
		return; /* changed again meanwhile: take it at the next burst */
	t->rate_seen = g;
	t->pacer.unit = unit;
	t->pacer.per_unit = per;
	t->pacer.t0 = 0;    /* the schedule restarts at the next due() */
	t->pacer.next = 0;
	t->pacer.owed = 0;  /* owed at the old rate: let go */
	t->pacer.mark_repaid = 0;
	if (unit != SL_RATE_NONE)
		sl_pacer_set_slack(&t->pacer, t->slack_units[unit == SL_RATE_PPS ? 0 :
							     unit == SL_RATE_L1 ? 1 : 2], t->slack_us);
}

/* A receiving port this worker polls: its burst call and its analyzer. */
struct sl_rxp {
	uint16_t (*rx_burst)(void *dev, struct rte_mbuf **pkts, uint16_t n);
	void *dev;
	struct sl_rx *rx;
	uint16_t port;
	struct sl_capture *cap;      /* its capture (sl_capture.h), or NULL */
	/* Devices on the port (run/ctl.h): frames for them go to the main
	 * lcore through this ring (single producer: this worker), or NULL. */
	struct rte_ring *ctl;
	uint64_t ctl_full;           /* handed to ctl but it was full: freed (this worker) */
};

struct sl_worker {
	unsigned int lcore;
	uint16_t nb_rxp;             /* receiving ports it polls (between TX bursts, or only) */
	struct sl_rxp rxp[SL_MAX_PORTS];
	uint16_t nb_targets;         /* (queue, stream) pairs it sends */
	uint16_t burst;
	bool direct;
	uint64_t deadline_tsc;       /* 0: none */
	uint64_t anchor_tsc;         /* the run's start, the same for every worker (replays' t0) */
	struct sl_target *t;         /* nb_targets of them (rte_zmalloc) */
	struct rte_mempool *pools[SL_MAX_PORTS];
	/* A port's replays' own pool, where generated flows share the port: a
	 * replay leaves its capture's bytes in the mbufs it frees. */
	struct rte_mempool *rpools[SL_MAX_PORTS];
	uint64_t start_tsc, end_tsc;
	uint32_t tx_done;            /* set (release) when its TX share is sent (or never had one) */
	uint32_t done;               /* set (release) when the loop has ended */
} __rte_cache_aligned;

/* Frames of pkts[0..n) a replay signed (marked in hash.usr). */
static inline uint64_t
sl_worker_marked(struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t k = 0;

	for (uint16_t i = 0; i < n; i++)
		k += pkts[i]->hash.usr;
	return k;
}

/* Frames of pkts[0..n) long enough to carry a signature. */
static inline uint64_t
sl_worker_signed(struct rte_mbuf **pkts, uint16_t n, uint32_t min_len)
{
	uint64_t c = 0;

	for (uint16_t i = 0; i < n; i++)
		c += rte_pktmbuf_pkt_len(pkts[i]) >= min_len;
	return c;
}

/* The lcore function (rte_lcore_function_t); arg is the struct sl_worker. */
int sl_worker_main(void *arg);
/* The worker has sent its share (acquire); it may still be receiving. */
static inline bool
sl_worker_tx_done(const struct sl_worker *w)
{
	return __atomic_load_n(&w->tx_done, __ATOMIC_ACQUIRE) != 0;
}

/*
 * The TSC once the burst's loads are done. RDTSC is not ordered: alone it can
 * execute while rx_burst()'s loads of the ring are still waiting, which lowers
 * a latency and can make a frame seem to arrive before it was sent (on this
 * project's VM the loopback's minimum rose from 89-359 ns to 259-499 ns with
 * the fence: docs/measure.md). LFENCE waits for every earlier instruction
 * (Intel SDM, RDTSC; on AMD LFENCE is dispatch-serializing, which Linux
 * enables); one per received burst.
 */
static inline uint64_t
sl_rx_tsc(void)
{
#if defined(RTE_ARCH_X86)
	__asm__ volatile("lfence" ::: "memory");
	return rte_rdtsc();
#else
	return rte_rdtsc_precise();
#endif
}

/*
 * A port with devices: test frames are analyzed as on any port; of the
 * others, what a device may answer (sl_dev_wants()) goes to the main
 * lcore's ring, the rest is freed with the burst.
 */
static inline void
sl_worker_rx_ctl(struct sl_rxp *rxp, struct rte_mbuf **pkts, uint16_t n, uint64_t tsc)
{
	struct rte_mbuf *fr[64];
	uint16_t nf = sl_rx_analyze_keep(rxp->rx, pkts, n, tsc, fr), k = 0, put;

	for (uint16_t j = 0; j < nf; j++) {
		if (sl_dev_wants(fr[j]))
			fr[k++] = fr[j];
		else
			rte_pktmbuf_free(fr[j]);
	}
	if (k == 0)
		return;
	put = (uint16_t)rte_ring_sp_enqueue_burst(rxp->ctl, (void **)fr, k, NULL);
	if (put < k) {
		rte_pktmbuf_free_bulk(fr + put, k - put);
		__atomic_store_n(&rxp->ctl_full, rxp->ctl_full + (k - put), __ATOMIC_RELAXED);
	}
}

/* Receive one burst on each of the ports given; frees what it analyzed. */
static inline bool
sl_worker_rx(struct sl_rxp *rxp, uint16_t nb)
{
	bool got = false;

	for (uint16_t i = 0; i < nb; i++) {
		struct rte_mbuf *pkts[64];
		uint16_t n = rxp[i].rx_burst(rxp[i].dev, pkts, RTE_DIM(pkts));
		uint64_t tsc;

		if (n == 0)
			continue;
		tsc = sl_rx_tsc();
		sl_capture_burst(rxp[i].cap, pkts, n, tsc);
		if (unlikely(rxp[i].ctl != NULL))
			sl_worker_rx_ctl(&rxp[i], pkts, n, tsc);
		else
			sl_rx_analyze(rxp[i].rx, pkts, n, tsc);
		rte_pktmbuf_free_bulk(pkts, n);
		got = true;
	}
	return got;
}

/*
 * The run's flags: stop (the workers end their loop), quit (a signal asked
 * the program to end), interrupt (Ctrl-C at the prompt, or stop during a
 * benchmark: the run or benchmark in progress ends, not the program). The
 * workers and the main lcore read them with the inline functions below;
 * the sl_run_*() functions (worker.c) are their only writers, and are
 * async-signal-safe.
 */
extern volatile uint32_t sl_stop;
extern volatile uint32_t sl_quit;

/* Stop the run's workers. */
void sl_run_stop(void);
/* A signal: stop, and end the program. */
void sl_run_quit(void);
/* Ctrl-C or stop during a benchmark: stop, and end the run or benchmark in progress. */
void sl_run_interrupt(void);
/* At a start: the stop cleared, unless the program is quitting or an interrupt is pending. */
void sl_run_rearm(void);
/* Forget an interrupt (it has done its work); true if there was one. */
bool sl_run_intr_take(void);

static inline bool
sl_quitting(void)
{
	return __atomic_load_n(&sl_quit, __ATOMIC_RELAXED) != 0;
}

extern volatile uint32_t sl_intr;

/* A signal asked to end the program, or (at the prompt) the run or benchmark in progress. */
static inline bool
sl_interrupted(void)
{
	return sl_quitting() || __atomic_load_n(&sl_intr, __ATOMIC_RELAXED) != 0;
}

static inline bool
sl_stopping(void)
{
	return __atomic_load_n(&sl_stop, __ATOMIC_RELAXED) != 0;
}

#endif /* SL_WORKER_H */
