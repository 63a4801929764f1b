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
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "sl_sig.h"
#include "sl_stats.h"
#include "sl_wire.h"
#include "sl_sim.h"

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
	struct sim_flow flows[SIM_VERIFY_STREAMS][SL_SIG_MAX_PRODUCERS];
};

struct sim_txq {
	struct sl_sim *sim;
	uint32_t inside;  /* lltx off: entries in progress */
	uint32_t lock;    /* lltx on: internal trylock */
	uint32_t head, tail; /* free-running descriptor indexes */
	uint32_t size_mask;
	struct sim_desc *ring;
	struct sim_verify *ver;
	/* Written by the queue's current user only; read relaxed. */
	uint64_t frames, bytes, wire_frames, wire_bytes, busy, discarded;
	uint64_t locked, violations; /* atomic: written by contenders */
	uint64_t first_start, last_start, last_end; /* fixed point, +1 (0 = none) */
} __rte_cache_aligned;

struct sl_sim {
	uint64_t t0;          /* TSC at creation */
	uint64_t fp_per_byte; /* fixed-point wire time of one byte, at full speed */
	uint64_t speed_bps;
	uint32_t txd;
	uint16_t nb_txq;
	bool lltx;
	uint32_t link_up;
	uint32_t slowdown;
	uint64_t wire_free __rte_cache_aligned; /* fixed point; CAS only */
	uint64_t wire_idle;   /* fixed point: time the wire waited for frames (atomic add) */
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
	if (lat < v->lat_min)
		v->lat_min = lat;
	if (lat > v->lat_max)
		v->lat_max = lat;
	v->lat_sum += lat;

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

/* Free the descriptors whose frames have left the wire by @p now. */
static void
sim_reap(struct sl_sim *sim, struct sim_txq *q, uint64_t now)
{
	struct rte_mbuf *done[64];
	unsigned int k = 0;
	uint64_t frames = 0, bytes = 0;

	while (q->head != q->tail) {
		struct sim_desc *d = &q->ring[q->head & q->size_mask];

		if (d->done > now)
			break;
		if (q->ver != NULL)
			sim_verify(sim, q, d->m, d->done);
		frames++;
		bytes += rte_pktmbuf_pkt_len(d->m);
		done[k++] = d->m;
		q->head++;
		if (k == RTE_DIM(done)) {
			rte_pktmbuf_free_bulk(done, k);
			k = 0;
		}
	}
	if (k != 0)
		rte_pktmbuf_free_bulk(done, k);
	SL_CNT_ADD(q->wire_frames, frames);
	SL_CNT_ADD(q->wire_bytes, bytes);
}

/* Reserve @p total fixed-point units of wire time; returns the start. */
static uint64_t
sim_wire_reserve(struct sl_sim *sim, uint64_t now, uint64_t total)
{
	uint64_t w = __atomic_load_n(&sim->wire_free, __ATOMIC_RELAXED);
	uint64_t start;

	do {
		start = RTE_MAX(w, now);
	} while (!__atomic_compare_exchange_n(&sim->wire_free, &w, start + total, 1,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	/* The wire sat idle from w to now: nobody gave it a frame (not the first). */
	if (w != 0 && start > w)
		__atomic_fetch_add(&sim->wire_idle, start - w, __ATOMIC_RELAXED);
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

	sim_reap(sim, q, now);
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
	t = sim_wire_reserve(sim, now, total);
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

uint16_t
sl_sim_xmit(void *txq, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *status)
{
	struct sim_txq *q = txq;
	struct sl_sim *sim = q->sim;
	uint16_t k;

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
	uint64_t until = sim_now(sim) + ((us * rte_get_tsc_hz() / US_PER_S) << SIM_FP_SHIFT);
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
	uint64_t deadline = rte_rdtsc() + timeout_us * rte_get_tsc_hz() / US_PER_S;
	uint64_t discarded = 0;

	for (uint16_t i = 0; i < sim->nb_txq; i++) {
		struct sim_txq *q = &sim->q[i];

		for (;;) {
			sim_reap(sim, q, sim_now(sim));
			if (q->head == q->tail || rte_rdtsc() >= deadline)
				break;
			rte_delay_us_sleep(10);
		}
		while (q->head != q->tail) {
			rte_pktmbuf_free(q->ring[q->head++ & q->size_mask].m);
			discarded++;
			SL_CNT_ADD(q->discarded, 1);
		}
	}
	return discarded;
}

void
sl_sim_stats_get(const struct sl_sim *sim, struct sl_sim_stats *st)
{
	uint64_t lat_sum = 0, lat_min = UINT64_MAX, lat_max = 0, first = UINT64_MAX;
	uint64_t last = 0, end = 0;
	double ns_per_cycle = 1e9 / (double)rte_get_tsc_hz();

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
		if (q->first_start != 0)
			first = RTE_MIN(first, q->first_start - 1);
		if (q->last_start != 0)
			last = RTE_MAX(last, q->last_start - 1);
		if (q->last_end != 0)
			end = RTE_MAX(end, q->last_end - 1);
		if (v == NULL)
			continue;
		st->signed_frames += v->signed_frames;
		st->unsigned_frames += v->unsigned_frames;
		st->lost += v->gaps;
		st->duplicates += v->duplicates;
		st->reordered += v->reordered;
		lat_sum += v->lat_sum;
		lat_min = RTE_MIN(lat_min, v->lat_min);
		lat_max = RTE_MAX(lat_max, v->lat_max);
	}
	st->wire_idle_tsc = __atomic_load_n(&sim->wire_idle, __ATOMIC_RELAXED) >> SIM_FP_SHIFT;
	if (first != UINT64_MAX) {
		st->first_start_tsc = sim_tsc(sim, first);
		st->last_start_tsc = sim_tsc(sim, last);
		st->last_end_tsc = sim_tsc(sim, end);
	}
	if (st->signed_frames != 0) {
		st->lat_min_ns = (uint64_t)(lat_min * ns_per_cycle);
		st->lat_max_ns = (uint64_t)(lat_max * ns_per_cycle);
		st->lat_avg_ns = (uint64_t)((double)lat_sum / st->signed_frames * ns_per_cycle);
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
	sim->fp_per_byte = (uint64_t)((8.0 * (double)rte_get_tsc_hz() * (1 << SIM_FP_SHIFT)) /
				      (double)c->speed_bps + 0.5);
	sim->txd = c->txd;
	sim->nb_txq = c->nb_txq;
	sim->lltx = c->lltx;
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
	}
	rte_free(sim);
}
