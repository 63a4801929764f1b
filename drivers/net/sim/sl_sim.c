/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Simulated NIC. Time on the wire is kept in fixed point: TSC cycles since
 * the port was created, shifted left by SIM_FP_SHIFT, so that a 64-byte
 * frame at 400G (under 2 ns) still has a duration exact to 1/65536 cycle and
 * rounding error does not accumulate into the rate.
 *
 * The wire is reserved per burst with one CAS on sim->wire_free: frames of
 * one burst are contiguous on the wire, bursts of different queues
 * interleave in the order they won the CAS, as a NIC's arbiter would.
 * A queue's descriptors are reaped (and verified) by the next call on that
 * queue, whose caller has the queue to itself (the engine guarantees it for
 * lltx off; the internal trylock for lltx on).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>
#include <rte_ring_peek.h>

#include "sl_sig.h"
#include "sl_stats.h"
#include "sl_wire.h"
#include "sl_sim.h"
#include "sl_clock.h"

#define SIM_FP_SHIFT 16
#define SIM_VERIFY_STREAMS 16 /* streams the wire verifier follows; others count as unsigned */

struct sim_desc {
	struct rte_mbuf *m;
	uint64_t done; /* fixed-point time the frame's last bit leaves */
};

/* Sequence state of one (stream, producer) on one queue. */
struct sim_flow {
	uint32_t max;    /* highest sequence seen */
	uint32_t seen;
	uint64_t window; /* bit i: sequence max - i was seen */
};

struct sim_verify {
	uint64_t signed_frames, unsigned_frames;
	uint64_t gaps, duplicates, reordered;
	uint64_t lat_min, lat_max, lat_sum; /* TSC cycles */
	uint64_t lat_backwards;             /* done "before" signed: two CPUs' TSCs */
	struct sim_flow flows[SIM_VERIFY_STREAMS][SL_SIG_MAX_PRODUCERS];
};

/* An element of an RX ring: a frame and the TSC at which it is delivered. */
struct sim_rx_elem {
	struct rte_mbuf *m;
	uint64_t tsc;
};

struct sl_sim_rx {
	struct rte_ring *ring;     /* MP enqueue, SC dequeue */
	uint32_t on;               /* receiving this run */
	uint32_t link_down;        /* its link is down: deliveries are lost on the wire */
	int ts_off;                /* stamping: DPDK's RX timestamp field, or -1 */
	uint64_t ts_flag;
	uint64_t imissed;          /* atomic: refused by the ring or not receiving */
	uint64_t received, flushed; /* by the consumer */
};

#define SIM_DUT_STAGE 64

/* A (stream, producer) of the model: the highest sequence delivered. */
struct dut_flow {
	uint32_t key;  /* (stream << 8 | producer) + 1; 0: empty slot */
	uint32_t max;
};

/* A delivery waiting to be enqueued, with what the accounting needs. */
struct dut_meta {
	uint64_t frame;   /* the model's frame number (copies share it) */
	uint32_t key;     /* flow key, 0 when the frame has no valid signature */
	uint32_t seq;
};

/* The model's state for one TX queue; written by the queue's user only. */
struct sim_dut_q {
	uint64_t rng;            /* splitmix64 state */
	uint64_t last_tsc;       /* delivery time of the last delivery (FIFO) */
	uint64_t frame_no, last_delivered_frame;
	/* Reorder slot: a frame (with its copies) held behind the next one. */
	struct rte_mbuf *slot;
	uint32_t slot_copies;
	struct dut_meta slot_meta;
	uint64_t slot_tsc;       /* its own earliest delivery time (wire end + 0) */
	/* Staged deliveries. */
	uint32_t nb_stage;
	struct sim_rx_elem stage[SIM_DUT_STAGE];
	struct dut_meta stage_meta[SIM_DUT_STAGE];
	/* Delivery times of frames enqueued, oldest first (for held). */
	uint64_t *pend;
	uint32_t pend_mask;
	uint32_t pend_head, pend_tail; /* free running; tail written last (release) */
	/* Flows: open addressing, linear probing, grown at half load. */
	struct dut_flow *flows;
	uint32_t flow_mask, nb_flows;
	/* Counters (read relaxed by others). */
	uint64_t in, enq, dropped_capacity, dropped_loss, dropped_full, dropped_link, duplicated;
	uint64_t reordered;
	uint64_t slot_held;
};

/*
 * lltx fine: what one lcore's calls on a queue add up to, on a line of its
 * own (one writer: plain stores; no line shared between callers). Callers
 * with no lcore id (unregistered threads) use the queue's own fields, with
 * atomics.
 */
struct sim_fine_pc {
	uint64_t frames, bytes, busy, wire_idle;
	uint64_t first_start, last_start, last_end; /* fixed point, +1 (0 = none) */
} __rte_cache_aligned;

struct sim_txq {
	struct sl_sim *sim;
	struct sim_dut_q *dut; /* NULL: frames leaving the wire are freed */
	uint32_t inside;  /* lltx off: entries in progress */
	uint32_t lock;    /* lltx on: internal trylock; lltx fine: the reaper's trylock */
	uint32_t size_mask;
	struct sim_desc *ring;
	struct sim_verify *ver;
	struct sim_fine_pc *pc; /* lltx fine: RTE_MAX_LCORE entries */
	/*
	 * Free-running descriptor indexes. lltx fine: tail is reserved with a
	 * CAS, a reserved descriptor is published by storing its mbuf
	 * (release) and reaped in ring order (NULL again, then head, release).
	 * Each on its own line: reservers CAS the tail, the reaper moves the
	 * head (with the wire counters it alone writes).
	 */
	uint32_t tail __rte_cache_aligned;
	uint32_t head __rte_cache_aligned;
	uint64_t wire_frames, wire_bytes, discarded;
	/* Written by the queue's current user only; read relaxed. */
	uint64_t frames __rte_cache_aligned;
	uint64_t bytes, busy;
	uint64_t wire_idle;  /* fixed point: wire time that waited for this queue's frames */
	uint64_t locked, violations, overlaps; /* atomic: written by contenders */
	/* lltx fine without an lcore id: frames, bytes, busy, wire_idle and these take atomics. */
	uint64_t first_start, last_start, last_end; /* fixed point, +1 (0 = none) */
} __rte_cache_aligned;

struct sl_sim {
	uint64_t t0;          /* TSC at creation */
	uint64_t fp_per_byte; /* fixed-point wire time of one byte, at full speed */
	uint64_t speed_bps;
	uint32_t txd;
	uint16_t nb_txq;
	bool lltx;
	bool fine;            /* lltx fine: reserve, fill, publish */
	int socket_id;
	uint32_t link_up;
	uint32_t slowdown;
	uint64_t wire_free __rte_cache_aligned; /* fixed point; CAS only */
	struct sl_sim_dut dut;
	struct sl_sim_rx *dut_rx; /* the receiving RX side, NULL: no model */
	uint64_t dut_tol;     /* GCRA: tolerance (queue - 1 intervals), fixed point */
	uint64_t dut_t;       /* GCRA: interval between frames, fixed point; 0: none */
	uint64_t dut_delay;   /* TSC cycles */
	uint64_t dut_jitter;  /* TSC cycles */
	/* GCRA theoretical arrival time, wire fixed point: the DUT's one queue,
	 * shared by every TX queue's frames (CAS only). */
	uint64_t dut_tat __rte_cache_aligned;
	/* The DUT's input front: the latest wire end it has seen (CAS max). */
	uint64_t dut_front;
	struct sim_txq q[];
};

static inline uint64_t
sim_now(const struct sl_sim *sim)
{
	return (rte_rdtsc() - sim->t0) << SIM_FP_SHIFT;
}

static inline uint64_t
sim_tsc(const struct sl_sim *sim, uint64_t fp)
{
	return sim->t0 + (fp >> SIM_FP_SHIFT);
}

static void
sim_verify(struct sl_sim *sim, struct sim_txq *q, const struct rte_mbuf *m, uint64_t done)
{
	struct sim_verify *v = q->ver;
	struct sl_sig sg, *sig = &sg;
	struct sim_flow *f;
	uint64_t lat;
	int32_t d;

	if (sl_sig_parse(m, sig) != SL_SIG_OK || sig->stream >= SIM_VERIFY_STREAMS) {
		v->unsigned_frames++;
		return;
	}
	v->signed_frames++;
	lat = (sim_tsc(sim, done) - sig->tsc) & SL_SIG_TSC_MASK;
	if (unlikely(lat > SL_SIG_TSC_MASK / 2)) {
		/* On the wire before it was signed, by the clocks (sl_rx.h). */
		v->lat_backwards++;
	} else {
		if (lat < v->lat_min)
			v->lat_min = lat;
		if (lat > v->lat_max)
			v->lat_max = lat;
		v->lat_sum += lat;
	}

	f = &v->flows[sig->stream][sig->producer];
	if (!f->seen) {
		f->seen = 1;
		f->max = sig->seq;
		f->window = 1;
		v->gaps += sig->seq; /* sequences count from 0 */
		return;
	}
	d = (int32_t)(sig->seq - f->max);
	if (d == INT32_MIN) {
		v->reordered++; /* half the sequence space away: too far to tell */
		return;
	}
	if (d > 0) {
		v->gaps += (uint64_t)d - 1;
		f->window = d >= 64 ? 1 : (f->window << d) | 1;
		f->max = sig->seq;
	} else if (-d >= 64) {
		v->reordered++; /* too old to tell a duplicate from a late frame */
	} else if (f->window & (1ull << -d)) {
		v->duplicates++;
	} else {
		f->window |= 1ull << -d;
		v->reordered++;
		v->gaps--; /* it was counted missing, it came late */
	}
}

/* ---- The DUT model ---- */

static inline uint64_t
dut_rand(struct sim_dut_q *m)
{
	uint64_t z = (m->rng += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* True with probability p (p 0: never, p 1: always). */
static inline bool
dut_chance(struct sim_dut_q *m, double p)
{
	return p > 0 && (double)(dut_rand(m) >> 11) * 0x1.0p-53 < p;
}

static struct dut_flow *
dut_flow(struct sim_dut_q *m, uint32_t key, bool *created)
{
	uint32_t h;

	if ((m->nb_flows + 1) * 2 > m->flow_mask + 1) {
		/* Grow (rare: flows are streams x producers of this queue). */
		uint32_t nsize = (m->flow_mask + 1) * 2;
		struct dut_flow *nf = rte_zmalloc("sl_sim_flows", nsize * sizeof(*nf), 0);

		if (nf != NULL) {
			for (uint32_t i = 0; i <= m->flow_mask; i++) {
				if (m->flows[i].key == 0)
					continue;
				h = (m->flows[i].key * UINT32_C(0x9e3779b1)) & (nsize - 1);
				while (nf[h].key != 0)
					h = (h + 1) & (nsize - 1);
				nf[h] = m->flows[i];
			}
			rte_free(m->flows);
			m->flows = nf;
			m->flow_mask = nsize - 1;
		}
	}
	h = (key * UINT32_C(0x9e3779b1)) & m->flow_mask;
	while (m->flows[h].key != 0 && m->flows[h].key != key)
		h = (h + 1) & m->flow_mask;
	*created = m->flows[h].key == 0;
	if (*created && m->nb_flows == m->flow_mask)
		return NULL; /* no memory to grow, one free slot left: a new flow is not followed */
	if (*created) {
		m->flows[h].key = key;
		m->flows[h].max = 0;
		m->nb_flows++;
	}
	return &m->flows[h];
}

/* Enqueue the staged deliveries into the receiving ring and count them. */
static void
dut_flush(struct sl_sim *sim, struct sim_dut_q *m)
{
	struct sl_sim_rx *rx = sim->dut_rx;
	uint32_t n = m->nb_stage, k = 0;
	bool down = __atomic_load_n(&rx->link_down, __ATOMIC_RELAXED) != 0;
	uint64_t now;

	if (n == 0)
		return;
	if (!down && __atomic_load_n(&rx->on, __ATOMIC_RELAXED))
		k = rte_ring_mp_enqueue_burst_elem(rx->ring, m->stage, sizeof(m->stage[0]), n,
						   NULL);
	now = rte_rdtsc();
	for (uint32_t i = 0; i < k; i++) {
		const struct dut_meta *mt = &m->stage_meta[i];
		uint32_t t = m->pend_tail;

		if (mt->frame != m->last_delivered_frame && mt->key != 0) {
			/* Not an extra copy: RFC 4737 against the flow's highest. */
			bool first;
			struct dut_flow *f = dut_flow(m, mt->key, &first);

			if (f != NULL) {
				if (first)
					f->max = mt->seq;
				else if ((int32_t)(mt->seq - f->max) < 0)
					SL_CNT_ADD(m->reordered, 1);
				else
					f->max = mt->seq;
			}
		}
		m->last_delivered_frame = mt->frame;
		/* Record the delivery time; forget those already due if full. */
		if (t - m->pend_head > m->pend_mask) {
			while (m->pend_head != t && m->pend[m->pend_head & m->pend_mask] <= now)
				m->pend_head++;
			if (t - m->pend_head > m->pend_mask)
				m->pend_head++; /* its frame was flushed from the ring */
		}
		m->pend[t & m->pend_mask] = m->stage[i].tsc;
		__atomic_store_n(&m->pend_tail, t + 1, __ATOMIC_RELEASE);
	}
	SL_CNT_ADD(m->enq, k);
	if (k < n) {
		for (uint32_t i = k; i < n; i++)
			rte_pktmbuf_free(m->stage[i].m);
		if (down) {
			SL_CNT_ADD(m->dropped_link, n - k); /* never reached the receiver */
		} else {
			SL_CNT_ADD(m->dropped_full, n - k);
			__atomic_fetch_add(&rx->imissed, n - k, __ATOMIC_RELAXED);
		}
	}
	m->nb_stage = 0;
}

/* Stage @p copies deliveries of m, each at its delay (FIFO kept). */
static void
dut_stage(struct sl_sim *sim, struct sim_dut_q *m, struct rte_mbuf *mb, uint32_t copies,
	  const struct dut_meta *mt, uint64_t base_tsc)
{
	for (uint32_t c = 0; c < copies; c++) {
		uint64_t t = base_tsc + sim->dut_delay;

		if (sim->dut_jitter != 0)
			t += (uint64_t)(((unsigned __int128)dut_rand(m) * (sim->dut_jitter + 1)) >> 64);
		if (t < m->last_tsc)
			t = m->last_tsc;
		m->last_tsc = t;
		if (m->nb_stage == SIM_DUT_STAGE)
			dut_flush(sim, m);
		m->stage[m->nb_stage] = (struct sim_rx_elem){ mb, t };
		m->stage_meta[m->nb_stage] = *mt;
		m->nb_stage++;
	}
}

/* Release the reorder slot behind what was just staged. */
static void
dut_release_slot(struct sl_sim *sim, struct sim_dut_q *m)
{
	struct rte_mbuf *mb = m->slot;

	if (mb == NULL)
		return;
	m->slot = NULL;
	SL_CNT_ADD(m->slot_held, 0 - (uint64_t)m->slot_copies);
	dut_stage(sim, m, mb, m->slot_copies, &m->slot_meta, m->slot_tsc);
}

/* A frame left the wire at fixed-point time @p done: through the model. */
static void
dut_in(struct sl_sim *sim, struct sim_dut_q *m, struct rte_mbuf *mb, uint64_t done)
{
	const struct sl_sim_dut *c = &sim->dut;
	struct dut_meta mt = { .frame = ++m->frame_no };
	struct sl_sig sig;
	uint32_t copies = 1;

	SL_CNT_ADD(m->in, 1);
	/*
	 * 1. Capacity: one FIFO of `queue` frames served at capacity, as GCRA
	 * with queue - 1 intervals of tolerance (tat is when the queue will
	 * have served everything it holds). A frame that finds it full is
	 * dropped; one that is accepted waits tat - done before it is served:
	 * that wait is added to its delivery time (the queueing delay). Every
	 * TX queue's frames share it (a CAS). A queue reaps its frames when it
	 * is next called, so a frame can reach the model after a later-sent
	 * frame of another queue: judged at its wire end, it would find the
	 * later frames queued ahead and be dropped by a DUT far faster than
	 * the load. The DUT's input is kept in time order instead: a frame
	 * reaped late arrives at the front (the latest wire end seen), as if
	 * the link to the DUT had held it that long.
	 */
	if (sim->dut_t != 0) {
		uint64_t tat = __atomic_load_n(&sim->dut_tat, __ATOMIC_RELAXED), start;
		uint64_t fr = __atomic_load_n(&sim->dut_front, __ATOMIC_RELAXED);

		while (fr < done && !__atomic_compare_exchange_n(&sim->dut_front, &fr, done, 1,
								 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
		if (fr > done)
			done = fr;

		do {
			if (tat > done + sim->dut_tol) {
				SL_CNT_ADD(m->dropped_capacity, 1);
				rte_pktmbuf_free(mb);
				return;
			}
			start = RTE_MAX(tat, done);
		} while (!__atomic_compare_exchange_n(&sim->dut_tat, &tat, start + sim->dut_t, 1,
						      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
		done = start;
	}
	/* 2. Loss. */
	if (dut_chance(m, c->loss)) {
		SL_CNT_ADD(m->dropped_loss, 1);
		rte_pktmbuf_free(mb);
		return;
	}
	/* 3. Duplication: the same mbuf twice. */
	if (dut_chance(m, c->dup)) {
		rte_mbuf_refcnt_update(mb, 1);
		copies = 2;
		SL_CNT_ADD(m->duplicated, 1);
	}
	if (sl_sig_parse(mb, &sig) == SL_SIG_OK) {
		mt.key = ((uint32_t)sig.stream << 8 | sig.producer) + 1;
		mt.seq = sig.seq;
	}
	/* 4. Reordering: hold this one behind the next (one slot). */
	if (m->slot == NULL && dut_chance(m, c->reorder)) {
		m->slot = mb;
		m->slot_copies = copies;
		m->slot_meta = mt;
		m->slot_tsc = sim_tsc(sim, done);
		SL_CNT_ADD(m->slot_held, copies);
		return;
	}
	/* 5. Delay, then the held frame right after this one. */
	dut_stage(sim, m, mb, copies, &mt, sim_tsc(sim, done));
	dut_release_slot(sim, m);
}

/* Free the descriptors whose frames have left the wire by @p now. */
#define SIM_REAP_MAX 64 /* frames one reap hands back to its caller (lltx fine) */

/*
 * With @p out (lltx fine, under the reaper's trylock), at most SIM_REAP_MAX
 * frames are reaped and the ones to free are left in out[] for the caller
 * to free after it lets the trylock go: freeing (the mbufs' lines, the
 * mempool caches) is the longest part of a reap, and a reaper descheduled
 * inside it would stop the wire for every caller. Returns how many.
 */
static unsigned int
sim_reap(struct sl_sim *sim, struct sim_txq *q, uint64_t now, struct rte_mbuf **out)
{
	struct rte_mbuf *local[64], **done = out != NULL ? out : local;
	unsigned int k = 0, max = out != NULL ? SIM_REAP_MAX : UINT32_MAX;
	uint64_t frames = 0, bytes = 0;
	uint32_t head = q->head;

	while (head != __atomic_load_n(&q->tail, __ATOMIC_RELAXED) && frames < max) {
		struct sim_desc *d = &q->ring[head & q->size_mask];
		struct rte_mbuf *m = __atomic_load_n(&d->m, __ATOMIC_ACQUIRE);
		uint64_t d_done;

		/* lltx fine: reserved, not published yet; the wire waits for it. */
		if (m == NULL || d->done > now)
			break;
		/* Read before the slot is freed: a reserver may refill it at once. */
		d_done = d->done;
		if (sim->fine)
			__atomic_store_n(&d->m, NULL, __ATOMIC_RELAXED);
		if (q->ver != NULL)
			sim_verify(sim, q, m, d_done);
		frames++;
		bytes += rte_pktmbuf_pkt_len(m);
		/* Release: the slot's NULL before a reserver can see it free. */
		__atomic_store_n(&q->head, ++head, __ATOMIC_RELEASE);
		if (q->dut != NULL) {
			dut_in(sim, q->dut, m, d_done);
			continue;
		}
		done[k++] = m;
		if (out == NULL && k == RTE_DIM(local)) {
			rte_pktmbuf_free_bulk(done, k);
			k = 0;
		}
	}
	if (out == NULL && k != 0) {
		rte_pktmbuf_free_bulk(done, k);
		k = 0;
	}
	if (q->dut != NULL)
		dut_flush(sim, q->dut);
	SL_CNT_ADD(q->wire_frames, frames);
	SL_CNT_ADD(q->wire_bytes, bytes);
	return k;
}

/* Reserve @p total fixed-point units of wire time; returns the start. */
static uint64_t
sim_wire_reserve(struct sl_sim *sim, struct sim_txq *q, struct sim_fine_pc *pc, uint64_t now,
		 uint64_t total)
{
	uint64_t w = __atomic_load_n(&sim->wire_free, __ATOMIC_RELAXED);
	uint64_t start;

	do {
		start = RTE_MAX(w, now);
	} while (!__atomic_compare_exchange_n(&sim->wire_free, &w, start + total, 1,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	/*
	 * The wire sat idle from w to now: nobody gave it a frame (not the
	 * first). Counted on the queue (one writer: its current user), not on
	 * the wire's own line, which every queue's CAS already contends for.
	 */
	if (w != 0 && start > w) {
		if (pc != NULL)
			pc->wire_idle += start - w;
		else if (sim->fine)
			__atomic_fetch_add(&q->wire_idle, start - w, __ATOMIC_RELAXED);
		else
			SL_CNT_ADD(q->wire_idle, start - w);
	}
	return start;
}

static uint16_t
sim_xmit_locked(struct sl_sim *sim, struct sim_txq *q, struct rte_mbuf **pkts, uint16_t n,
		enum sl_xmit_status *status)
{
	uint64_t now = sim_now(sim);
	uint64_t per_byte = sim->fp_per_byte * __atomic_load_n(&sim->slowdown, __ATOMIC_RELAXED);
	uint64_t total = 0, bytes = 0, t;
	uint32_t room;
	uint16_t k;

	sim_reap(sim, q, now, NULL);
	room = sim->txd - (q->tail - q->head);
	k = __atomic_load_n(&sim->link_up, __ATOMIC_RELAXED) ? RTE_MIN(room, n) : 0;
	if (k == 0) {
		*status = SL_XMIT_BUSY;
		SL_CNT_ADD(q->busy, 1);
		return 0;
	}
	for (uint16_t i = 0; i < k; i++) {
		uint32_t len = rte_pktmbuf_pkt_len(pkts[i]);

		bytes += len;
		total += (uint64_t)sl_wire_l1_bytes(len) * per_byte;
	}
	t = sim_wire_reserve(sim, q, NULL, now, total);
	if (q->first_start == 0)
		q->first_start = t + 1;
	for (uint16_t i = 0; i < k; i++) {
		uint32_t len = rte_pktmbuf_pkt_len(pkts[i]);
		struct sim_desc *d = &q->ring[q->tail++ & q->size_mask];

		q->last_start = t + 1;
		t += (uint64_t)sl_wire_l1_bytes(len) * per_byte;
		d->m = pkts[i];
		d->done = t;
	}
	q->last_end = t + 1;
	SL_CNT_ADD(q->frames, k);
	SL_CNT_ADD(q->bytes, bytes);
	if (k < n) {
		*status = SL_XMIT_BUSY;
		SL_CNT_ADD(q->busy, 1);
	} else {
		*status = SL_XMIT_OK;
	}
	return k;
}

/* Raise *p to v (relaxed; lltx fine, where several callers write p). */
static inline void
sim_atomic_max(uint64_t *p, uint64_t v)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (cur < v && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

/*
 * lltx fine: callers run concurrently. Only three steps are shared: the
 * reap (behind a trylock that is skipped, not waited for), one CAS that
 * reserves descriptors on the tail, one that reserves wire time. Filling
 * the descriptors is each caller's own; a descriptor is published by
 * storing its mbuf. A caller's bursts are reserved in its own order, so the
 * wire sends each producer's frames in order.
 */
/* lltx fine: add to this lcore's counters, or to the queue's with atomics. */
static inline void
fine_add(struct sim_fine_pc *pc, uint64_t *shared, uint64_t *own, uint64_t v)
{
	if (pc != NULL)
		SL_CNT_ADD(*own, v);
	else
		__atomic_fetch_add(shared, v, __ATOMIC_RELAXED);
}

/*
 * lltx fine: callers run concurrently. Only three steps are shared: the
 * reap (behind a trylock that is skipped, not waited for), one CAS that
 * reserves descriptors on the tail, one that reserves wire time. Filling
 * the descriptors is each caller's own, and so are its counters (a line
 * per lcore); a descriptor is published by storing its mbuf. A caller's
 * bursts are reserved in its own order, so the wire sends each producer's
 * frames in order. Without a DUT the reap waits until SIM_REAP_MAX
 * descriptors (or half the ring) are in use, so that one reap serves
 * several calls: the frames' wire times are fixed when they are reserved,
 * and the verifier reads them from the descriptors, whenever the reap.
 */
static uint16_t
sim_xmit_fine(struct sl_sim *sim, struct sim_txq *q, struct rte_mbuf **pkts, uint16_t n,
	      enum sl_xmit_status *status)
{
	unsigned int lc = rte_lcore_id();
	struct sim_fine_pc *pc = lc < RTE_MAX_LCORE ? &q->pc[lc] : NULL;
	uint64_t now = sim_now(sim);
	uint64_t per_byte = sim->fp_per_byte * __atomic_load_n(&sim->slowdown, __ATOMIC_RELAXED);
	uint64_t total = 0, bytes = 0, t;
	uint32_t tail, room, exp = 0;
	uint32_t reap_at = q->dut != NULL ? 1 : RTE_MIN((uint32_t)SIM_REAP_MAX, sim->txd / 2);
	uint16_t k;

	tail = __atomic_load_n(&q->tail, __ATOMIC_RELAXED);
	if (tail - __atomic_load_n(&q->head, __ATOMIC_RELAXED) >= reap_at &&
	    __atomic_load_n(&q->lock, __ATOMIC_RELAXED) == 0 &&
	    __atomic_compare_exchange_n(&q->lock, &exp, 1, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED)) {
		struct rte_mbuf *done[SIM_REAP_MAX];
		unsigned int nd = sim_reap(sim, q, now, done);

		__atomic_store_n(&q->lock, 0, __ATOMIC_RELEASE);
		if (nd != 0)
			rte_pktmbuf_free_bulk(done, nd);
		tail = __atomic_load_n(&q->tail, __ATOMIC_RELAXED);
	} else if (exp != 0 || __atomic_load_n(&q->lock, __ATOMIC_RELAXED) != 0) {
		/* Another caller is inside, reaping: go on without it. */
		__atomic_fetch_add(&q->overlaps, 1, __ATOMIC_RELAXED);
	}
	do {
		/* head only grows: room read before the CAS is never too large
		 * (clamped: under a weaker memory model than x86's the head read
		 * may be older than the tail's reserver saw). */
		uint32_t used = tail - __atomic_load_n(&q->head, __ATOMIC_ACQUIRE);

		room = used >= sim->txd ? 0 : sim->txd - used;
		k = __atomic_load_n(&sim->link_up, __ATOMIC_RELAXED) ? RTE_MIN(room, n) : 0;
		if (k == 0) {
			*status = SL_XMIT_BUSY;
			fine_add(pc, &q->busy, pc != NULL ? &pc->busy : NULL, 1);
			return 0;
		}
	} while (!__atomic_compare_exchange_n(&q->tail, &tail, tail + k, 1, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	for (uint16_t i = 0; i < k; i++) {
		uint32_t len = rte_pktmbuf_pkt_len(pkts[i]);

		bytes += len;
		total += (uint64_t)sl_wire_l1_bytes(len) * per_byte;
	}
	t = sim_wire_reserve(sim, q, pc, now, total);
	if (pc != NULL) {
		if (pc->first_start == 0)
			SL_CNT_ADD(pc->first_start, t + 1);
	} else if (__atomic_load_n(&q->first_start, __ATOMIC_RELAXED) == 0) {
		uint64_t zero = 0;

		__atomic_compare_exchange_n(&q->first_start, &zero, t + 1, 0, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
	}
	for (uint16_t i = 0; i < k; i++) {
		struct sim_desc *d = &q->ring[(tail + i) & q->size_mask];
		uint32_t len = rte_pktmbuf_pkt_len(pkts[i]);

		if (i == k - 1) {
			if (pc != NULL && t + 1 > pc->last_start)
				__atomic_store_n(&pc->last_start, t + 1, __ATOMIC_RELAXED);
			else
				sim_atomic_max(&q->last_start, t + 1);
		}
		t += (uint64_t)sl_wire_l1_bytes(len) * per_byte;
		d->done = t;
		__atomic_store_n(&d->m, pkts[i], __ATOMIC_RELEASE); /* published */
	}
	if (pc != NULL && t + 1 > pc->last_end)
		__atomic_store_n(&pc->last_end, t + 1, __ATOMIC_RELAXED);
	else if (pc == NULL)
		sim_atomic_max(&q->last_end, t + 1);
	fine_add(pc, &q->frames, pc != NULL ? &pc->frames : NULL, k);
	fine_add(pc, &q->bytes, pc != NULL ? &pc->bytes : NULL, bytes);
	if (k < n) {
		*status = SL_XMIT_BUSY;
		fine_add(pc, &q->busy, pc != NULL ? &pc->busy : NULL, 1);
	} else {
		*status = SL_XMIT_OK;
	}
	return k;
}

uint16_t
sl_sim_xmit(void *txq, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *status)
{
	struct sim_txq *q = txq;
	struct sl_sim *sim = q->sim;
	uint16_t k;

	if (sim->fine)
		return sim_xmit_fine(sim, q, pkts, n, status);
	if (sim->lltx) {
		uint32_t exp = 0;

		if (!__atomic_compare_exchange_n(&q->lock, &exp, 1, 0, __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED)) {
			__atomic_fetch_add(&q->locked, 1, __ATOMIC_RELAXED);
			*status = SL_XMIT_LOCKED;
			return 0;
		}
		k = sim_xmit_locked(sim, q, pkts, n, status);
		__atomic_store_n(&q->lock, 0, __ATOMIC_RELEASE);
		return k;
	}
	/*
	 * Not MT-safe: detect a second entry. The violating caller is
	 * refused (BUSY) so that the simulated ring itself never corrupts;
	 * the count tells, and the tests require it to be zero.
	 */
	if (__atomic_fetch_add(&q->inside, 1, __ATOMIC_ACQUIRE) != 0) {
		__atomic_fetch_add(&q->violations, 1, __ATOMIC_RELAXED);
		__atomic_fetch_sub(&q->inside, 1, __ATOMIC_RELAXED);
		*status = SL_XMIT_BUSY;
		return 0;
	}
	k = sim_xmit_locked(sim, q, pkts, n, status);
	__atomic_fetch_sub(&q->inside, 1, __ATOMIC_RELEASE);
	return k;
}

void
sl_sim_set_link(struct sl_sim *sim, bool up)
{
	__atomic_store_n(&sim->link_up, up ? 1 : 0, __ATOMIC_RELAXED);
}

void
sl_sim_stall(struct sl_sim *sim, uint64_t us)
{
	uint64_t until = sim_now(sim) + ((us * sl_tsc_hz() / US_PER_S) << SIM_FP_SHIFT);
	uint64_t w = __atomic_load_n(&sim->wire_free, __ATOMIC_RELAXED);

	/* Nothing starts on the wire before `until`. */
	while (w < until && !__atomic_compare_exchange_n(&sim->wire_free, &w, until, 1,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void
sl_sim_set_slowdown(struct sl_sim *sim, uint32_t factor)
{
	__atomic_store_n(&sim->slowdown, factor == 0 ? 1 : factor, __ATOMIC_RELAXED);
}

uint64_t
sl_sim_drain(struct sl_sim *sim, uint64_t timeout_us)
{
	uint64_t deadline = rte_rdtsc() + timeout_us * sl_tsc_hz() / US_PER_S;
	uint64_t discarded = 0;

	for (uint16_t i = 0; i < sim->nb_txq; i++) {
		struct sim_txq *q = &sim->q[i];

		for (;;) {
			sim_reap(sim, q, sim_now(sim), NULL);
			if (q->head == q->tail || rte_rdtsc() >= deadline)
				break;
			rte_delay_us_sleep(10);
		}
		while (q->head != q->tail) {
			struct sim_desc *d = &q->ring[q->head++ & q->size_mask];

			rte_pktmbuf_free(d->m);
			d->m = NULL;
			discarded++;
			SL_CNT_ADD(q->discarded, 1);
		}
		/* Nothing follows the frame in the reorder slot: deliver it now. */
		if (q->dut != NULL) {
			dut_release_slot(sim, q->dut);
			dut_flush(sim, q->dut);
		}
	}
	return discarded;
}

/* ---- The RX side ---- */

struct sl_sim_rx *
sl_sim_rx_create(uint16_t idx, int socket_id)
{
	static uint32_t serial;
	char name[RTE_RING_NAMESIZE];
	struct sl_sim_rx *rx = rte_zmalloc_socket("sl_sim_rx", sizeof(*rx), RTE_CACHE_LINE_SIZE,
						  socket_id);

	if (rx == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	rx->ts_off = -1; /* not stamping until sl_sim_rx_stamp() */
	snprintf(name, sizeof(name), "slsimrx%u_%u", idx,
		 __atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED));
	rx->ring = rte_ring_create_elem(name, sizeof(struct sim_rx_elem), SL_SIM_RX_RING,
					socket_id, RING_F_SC_DEQ);
	if (rx->ring == NULL) {
		int e = rte_errno;

		rte_free(rx);
		rte_errno = e;
		return NULL;
	}
	return rx;
}

unsigned int
sl_sim_rx_flush(struct sl_sim_rx *rx)
{
	struct sim_rx_elem e[64];
	unsigned int n, total = 0;

	while ((n = rte_ring_sc_dequeue_burst_elem(rx->ring, e, sizeof(e[0]), RTE_DIM(e),
						   NULL)) != 0) {
		for (unsigned int i = 0; i < n; i++)
			rte_pktmbuf_free(e[i].m);
		total += n;
	}
	SL_CNT_ADD(rx->flushed, total);
	return total;
}

void
sl_sim_rx_free(struct sl_sim_rx *rx)
{
	if (rx == NULL)
		return;
	sl_sim_rx_flush(rx);
	rte_ring_free(rx->ring);
	rte_free(rx);
}

int
sl_sim_rx_stamp(struct sl_sim_rx *rx, bool on)
{
	rx->ts_off = -1;
	rx->ts_flag = 0;
	if (!on)
		return 0;
	if (rte_mbuf_dyn_rx_timestamp_register(&rx->ts_off, &rx->ts_flag) != 0) {
		rx->ts_off = -1;
		return -rte_errno;
	}
	return 1;
}

void
sl_sim_rx_start(struct sl_sim_rx *rx, bool on)
{
	__atomic_store_n(&rx->imissed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rx->received, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rx->flushed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rx->link_down, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rx->on, on ? 1 : 0, __ATOMIC_RELEASE);
}

void
sl_sim_rx_set_link(struct sl_sim_rx *rx, bool up)
{
	__atomic_store_n(&rx->link_down, up ? 0 : 1, __ATOMIC_RELAXED);
}

uint16_t
sl_sim_rx_burst(struct sl_sim_rx *rx, struct rte_mbuf **pkts, uint16_t n)
{
	struct sim_rx_elem e[64];
	uint16_t got = 0;

	while (got < n) {
		unsigned int want = RTE_MIN((unsigned int)(n - got), RTE_DIM(e)), k, i;
		uint64_t now;

		/* Peek (single consumer): take only the due prefix. */
		k = rte_ring_dequeue_burst_elem_start(rx->ring, e, sizeof(e[0]), want, NULL);
		if (k == 0)
			break;
		now = rte_rdtsc();
		for (i = 0; i < k && e[i].tsc <= now; i++) {
			struct rte_mbuf *m = e[i].m;

			/* As a NIC would: the frame's arrival (its delivery time). */
			if (rx->ts_off >= 0) {
				*RTE_MBUF_DYNFIELD(m, rx->ts_off, rte_mbuf_timestamp_t *) = e[i].tsc;
				m->ol_flags |= rx->ts_flag;
			}
			pkts[got + i] = m;
		}
		rte_ring_dequeue_elem_finish(rx->ring, i);
		got += i;
		if (i < k)
			break;
	}
	SL_CNT_ADD(rx->received, got);
	return got;
}

void
sl_sim_rx_drops(const struct sl_sim_rx *rx, struct sl_port_rx_drops *d)
{
	memset(d, 0, sizeof(*d));
	d->imissed = __atomic_load_n(&rx->imissed, __ATOMIC_RELAXED);
}

void
sl_sim_rx_counts(const struct sl_sim_rx *rx, uint64_t *received, uint64_t *flushed)
{
	*received = SL_CNT_READ(rx->received);
	*flushed = SL_CNT_READ(rx->flushed);
}

/* ---- The model's set-up and ground truth ---- */

int
sl_sim_dut_attach(struct sl_sim *sim, struct sl_sim_rx *rx)
{
	uint64_t hz = sl_tsc_hz();
	uint32_t pend = rte_align32pow2(rte_ring_get_capacity(rx->ring));

	if (sim->dut.port < 0 || sim->dut_rx != NULL)
		return -EINVAL;
	if (sim->dut.capacity_pps != 0) {
		sim->dut_t = (uint64_t)((double)hz * (1 << SIM_FP_SHIFT) /
					(double)sim->dut.capacity_pps + 0.5);
		uint32_t q = sim->dut.queue != 0 ? sim->dut.queue : SL_SIM_DUT_QUEUE;

		sim->dut_tol = (uint64_t)(q - 1) * sim->dut_t;
	}
	sim->dut_delay = (uint64_t)((unsigned __int128)sim->dut.delay_ns * hz / NS_PER_S);
	sim->dut_jitter = (uint64_t)((unsigned __int128)sim->dut.jitter_ns * hz / NS_PER_S);
	for (uint16_t i = 0; i < sim->nb_txq; i++) {
		struct sim_dut_q *m = rte_zmalloc_socket("sl_sim_dut", sizeof(*m),
							 RTE_CACHE_LINE_SIZE, sim->socket_id);

		if (m == NULL)
			return -ENOMEM;
		sim->q[i].dut = m;
		m->rng = sim->dut.seed ^ (UINT64_C(0xd1b54a32d192ed03) * (i + 1));
		m->pend = rte_malloc_socket("sl_sim_pend", pend * sizeof(m->pend[0]), 0,
					    sim->socket_id);
		m->flows = rte_zmalloc_socket("sl_sim_flows", 256 * sizeof(m->flows[0]), 0,
					      sim->socket_id);
		if (m->pend == NULL || m->flows == NULL)
			return -ENOMEM;
		m->pend_mask = pend - 1;
		m->flow_mask = 255;
	}
	sim->dut_rx = rx;
	return 0;
}

/* Deliveries of @p m not yet due at @p now (their delivery times are in order). */
static uint64_t
dut_pending(const struct sim_dut_q *m, uint64_t now)
{
	uint32_t tail = __atomic_load_n(&m->pend_tail, __ATOMIC_ACQUIRE);
	uint32_t lo = __atomic_load_n(&m->pend_head, __ATOMIC_RELAXED), hi = tail;

	if (tail - lo > m->pend_mask + 1)
		lo = tail - (m->pend_mask + 1);
	/* First entry due later than now. */
	while (lo != hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->pend[mid & m->pend_mask] <= now)
			lo = mid + 1;
		else
			hi = mid;
	}
	return tail - lo;
}

bool
sl_sim_dut_get(const struct sl_sim *sim, struct sl_port_dut *d)
{
	uint64_t now = rte_rdtsc();

	memset(d, 0, sizeof(*d));
	if (sim->dut_rx == NULL)
		return false;
	for (uint16_t i = 0; i < sim->nb_txq; i++) {
		const struct sim_dut_q *m = sim->q[i].dut;
		uint64_t pending = dut_pending(m, now);

		d->in += SL_CNT_READ(m->in);
		d->delivered += SL_CNT_READ(m->enq) - pending;
		d->dropped_capacity += SL_CNT_READ(m->dropped_capacity);
		d->dropped_loss += SL_CNT_READ(m->dropped_loss);
		d->dropped_full += SL_CNT_READ(m->dropped_full);
		d->dropped_link += SL_CNT_READ(m->dropped_link);
		d->duplicated += SL_CNT_READ(m->duplicated);
		d->reordered += SL_CNT_READ(m->reordered);
		d->held += pending + SL_CNT_READ(m->slot_held);
	}
	return true;
}

void
sl_sim_dut_discard(struct sl_sim *sim)
{
	for (uint16_t i = 0; i < sim->nb_txq; i++) {
		struct sim_dut_q *m = sim->q[i].dut;

		if (m == NULL || m->slot == NULL)
			continue;
		for (uint32_t c = 0; c < m->slot_copies; c++)
			rte_pktmbuf_free(m->slot);
		SL_CNT_ADD(sim->q[i].discarded, m->slot_copies);
		SL_CNT_ADD(m->slot_held, 0 - (uint64_t)m->slot_copies);
		m->slot = NULL;
	}
}

/* Fold one writer's wire times (+1, 0 = none) into the earliest start and latest ends. */
static void
sim_times_add(uint64_t f, uint64_t l, uint64_t e, uint64_t *first, uint64_t *last, uint64_t *end)
{
	if (f != 0)
		*first = RTE_MIN(*first, f - 1);
	if (l != 0)
		*last = RTE_MAX(*last, l - 1);
	if (e != 0)
		*end = RTE_MAX(*end, e - 1);
}

void
sl_sim_stats_get(const struct sl_sim *sim, struct sl_sim_stats *st)
{
	uint64_t lat_sum = 0, lat_min = UINT64_MAX, lat_max = 0, first = UINT64_MAX;
	uint64_t last = 0, end = 0;
	double ns_per_cycle = 1e9 / (double)sl_tsc_hz();

	memset(st, 0, sizeof(*st));
	for (uint16_t i = 0; i < sim->nb_txq; i++) {
		const struct sim_txq *q = &sim->q[i];
		const struct sim_verify *v = q->ver;

		st->frames += SL_CNT_READ(q->frames);
		st->bytes += SL_CNT_READ(q->bytes);
		st->wire_frames += SL_CNT_READ(q->wire_frames);
		st->wire_bytes += SL_CNT_READ(q->wire_bytes);
		st->busy += SL_CNT_READ(q->busy);
		st->discarded += SL_CNT_READ(q->discarded);
		st->locked += __atomic_load_n(&q->locked, __ATOMIC_RELAXED);
		st->violations += __atomic_load_n(&q->violations, __ATOMIC_RELAXED);
		st->overlaps += __atomic_load_n(&q->overlaps, __ATOMIC_RELAXED);
		sim_times_add(q->first_start, q->last_start, q->last_end, &first, &last, &end);
		st->wire_idle_tsc += SL_CNT_READ(q->wire_idle) >> SIM_FP_SHIFT;
		for (unsigned int l = 0; q->pc != NULL && l < RTE_MAX_LCORE; l++) {
			const struct sim_fine_pc *pc = &q->pc[l];

			st->frames += SL_CNT_READ(pc->frames);
			st->bytes += SL_CNT_READ(pc->bytes);
			st->busy += SL_CNT_READ(pc->busy);
			st->wire_idle_tsc += SL_CNT_READ(pc->wire_idle) >> SIM_FP_SHIFT;
			sim_times_add(SL_CNT_READ(pc->first_start), SL_CNT_READ(pc->last_start),
				      SL_CNT_READ(pc->last_end), &first, &last, &end);
		}
		if (v == NULL)
			continue;
		st->signed_frames += v->signed_frames;
		st->unsigned_frames += v->unsigned_frames;
		st->lost += v->gaps;
		st->duplicates += v->duplicates;
		st->reordered += v->reordered;
		st->lat_backwards += v->lat_backwards;
		lat_sum += v->lat_sum;
		lat_min = RTE_MIN(lat_min, v->lat_min);
		lat_max = RTE_MAX(lat_max, v->lat_max);
	}
	if (first != UINT64_MAX) {
		st->first_start_tsc = sim_tsc(sim, first);
		st->last_start_tsc = sim_tsc(sim, last);
		st->last_end_tsc = sim_tsc(sim, end);
	}
	if (st->signed_frames > st->lat_backwards) {
		st->lat_min_ns = (uint64_t)(lat_min * ns_per_cycle);
		st->lat_max_ns = (uint64_t)(lat_max * ns_per_cycle);
		st->lat_avg_ns = (uint64_t)((double)lat_sum / (st->signed_frames - st->lat_backwards) *
					    ns_per_cycle);
	}
}

void *
sl_sim_txq(struct sl_sim *sim, uint16_t qid)
{
	return qid < sim->nb_txq ? &sim->q[qid] : NULL;
}

uint32_t
sl_sim_caps(const struct sl_sim *sim)
{
	return sim->lltx ? SL_DRV_CAP_LLTX : 0;
}

uint64_t
sl_sim_speed(const struct sl_sim *sim)
{
	return sim->speed_bps;
}

struct sl_sim *
sl_sim_create(const struct sl_sim_conf *c)
{
	uint32_t size;
	struct sl_sim *sim;

	if (c->speed_bps == 0 || c->txd == 0 || c->txd > 65536 || c->nb_txq == 0 ||
	    c->nb_txq > 1024) {
		rte_errno = EINVAL;
		return NULL;
	}
	size = rte_align32pow2(c->txd);
	sim = rte_zmalloc_socket("sl_sim", sizeof(*sim) + c->nb_txq * sizeof(sim->q[0]),
				 RTE_CACHE_LINE_SIZE, c->socket_id);
	if (sim == NULL)
		goto nomem;
	sim->t0 = rte_rdtsc();
	sim->speed_bps = c->speed_bps;
	/* fixed-point time of one byte: 8 bits * hz / bps, scaled. */
	sim->fp_per_byte = (uint64_t)((8.0 * (double)sl_tsc_hz() * (1 << SIM_FP_SHIFT)) /
				      (double)(c->wire_bps != 0 ? c->wire_bps : c->speed_bps) + 0.5);
	sim->txd = c->txd;
	sim->nb_txq = c->nb_txq;
	sim->lltx = c->lltx || c->fine;
	sim->fine = c->fine;
	sim->socket_id = c->socket_id;
	sim->dut = c->dut;
	sim->link_up = 1;
	sim->slowdown = 1;
	for (uint16_t i = 0; i < c->nb_txq; i++) {
		struct sim_txq *q = &sim->q[i];

		q->sim = sim;
		q->size_mask = size - 1;
		q->ring = rte_zmalloc_socket("sl_sim_ring", size * sizeof(q->ring[0]), 0,
					     c->socket_id);
		if (q->ring == NULL)
			goto err;
		if (c->fine) {
			q->pc = rte_zmalloc_socket("sl_sim_pc", RTE_MAX_LCORE * sizeof(q->pc[0]),
						   RTE_CACHE_LINE_SIZE, c->socket_id);
			if (q->pc == NULL)
				goto err;
		}
		if (c->verify) {
			q->ver = rte_zmalloc_socket("sl_sim_ver", sizeof(*q->ver), 0,
						    c->socket_id);
			if (q->ver == NULL)
				goto err;
			q->ver->lat_min = UINT64_MAX;
		}
	}
	return sim;
err:
	sl_sim_free(sim);
nomem:
	rte_errno = ENOMEM;
	return NULL;
}

void
sl_sim_free(struct sl_sim *sim)
{
	if (sim == NULL)
		return;
	for (uint16_t i = 0; i < sim->nb_txq; i++) {
		struct sim_txq *q = &sim->q[i];

		if (q->ring != NULL)
			while (q->head != q->tail)
				rte_pktmbuf_free(q->ring[q->head++ & q->size_mask].m);
		rte_free(q->ring);
		rte_free(q->ver);
		rte_free(q->pc);
		if (q->dut != NULL) {
			/* Staged deliveries are always flushed; the slot may hold one. */
			for (uint32_t c = 0; q->dut->slot != NULL && c < q->dut->slot_copies; c++)
				rte_pktmbuf_free(q->dut->slot);
			rte_free(q->dut->pend);
			rte_free(q->dut->flows);
			rte_free(q->dut);
		}
	}
	rte_free(sim);
}
