/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The analyzer (sl_rx.h): signature check, the per-(stream, producer)
 * sequence window, per-stream latency histogram and RFC 3550 jitter.
 * O(1) per frame: the window update touches at most SL_RX_WINDOW / 64 words.
 *
 * A burst is analyzed in two passes, so that its cost per frame does not
 * grow with the number of streams (whose state no longer fits a cache):
 * the first reads each frame's signature and latency and prefetches what
 * the second will write (the stream's counters, its producer's window
 * word, its histogram bucket); the second updates them in frame order.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>
#include <rte_prefetch.h>

#include "sl_rx.h"
#include "sl_stats.h"
#include "sl_clock.h"

#define WMASK (SL_RX_WINDOW - 1)

struct rx_flow {
	uint32_t top;      /* highest sequence received */
	uint32_t seen;     /* anything received yet */
	uint64_t bits[SL_RX_WINDOW / 64]; /* bit (seq & WMASK): seq in (top - W, top] received */
};

/* Written for every frame: its first two cache lines (prefetched); then the rest. */
struct rx_stream {
	uint64_t rx, bytes, lat_count, lat_sum, lat_hw, lat_min, lat_max, jitter16;
	int64_t last_transit;      /* ns */
	uint64_t duplicates, reordered, late;
	uint64_t lat_backwards;    /* arrived "before" they were sent: not samples */
	uint64_t last_tsc;         /* the last frame's arrival */
	uint16_t nb_producers;
	struct rx_flow *flows;     /* nb_producers of them, in the analyzer's one block */
	uint64_t first_tsc;        /* the first frame's arrival (written once) */
	uint64_t dist[SL_RX_DIST_BUCKETS];
	uint64_t hist[SL_HIST_BUCKETS];
} __rte_cache_aligned;

/* DPDK's RX timestamp field and flag (registered once, the same for everyone). */
static int ts_off = -1;
static uint64_t ts_flag;

struct sl_rx {
	uint16_t nb_streams;
	uint8_t run;
	uint64_t ns_mul;           /* ns per cycle, times 2^32 */
	uint64_t frames, bytes, rx, foreign, bad, stale, cycles;
	struct rx_stream *streams;
	/* Stream s's producers' windows: flows[flow_off[s] .. flow_off[s + 1]). */
	struct rx_flow *flows;
	uint32_t *flow_off;
};

struct sl_rx *
sl_rx_create(const struct sl_rx_conf *c)
{
	struct sl_rx *rx;

	if (c->nb_streams == 0 || c->producers == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (ts_off < 0 && rte_mbuf_dyn_rx_timestamp_register(&ts_off, &ts_flag) != 0) {
		ts_off = -1; /* no field: frames are timed by the burst's TSC */
		ts_flag = 0;
	}
	rx = rte_zmalloc_socket("sl_rx", sizeof(*rx), RTE_CACHE_LINE_SIZE, c->socket_id);
	if (rx == NULL)
		goto nomem;
	rx->nb_streams = c->nb_streams;
	rx->run = c->run;
	rx->ns_mul = (uint64_t)(1e9 * 4294967296.0 / (double)sl_tsc_hz());
	rx->streams = rte_zmalloc_socket("sl_rx_streams", c->nb_streams * sizeof(*rx->streams),
					 RTE_CACHE_LINE_SIZE, c->socket_id);
	rx->flow_off = rte_zmalloc_socket("sl_rx_off", (c->nb_streams + 1u) * sizeof(uint32_t),
					  RTE_CACHE_LINE_SIZE, c->socket_id);
	if (rx->streams == NULL || rx->flow_off == NULL)
		goto nomem;
	for (uint16_t s = 0; s < c->nb_streams; s++)
		rx->flow_off[s + 1] = rx->flow_off[s] +
				      RTE_MIN(c->producers[s], (uint16_t)SL_SIG_MAX_PRODUCERS);
	rx->flows = rte_zmalloc_socket("sl_rx_flows", RTE_MAX(rx->flow_off[c->nb_streams], 1u) *
				       sizeof(*rx->flows), RTE_CACHE_LINE_SIZE, c->socket_id);
	if (rx->flows == NULL)
		goto nomem;
	for (uint16_t s = 0; s < c->nb_streams; s++) {
		struct rx_stream *st = &rx->streams[s];

		st->lat_min = UINT64_MAX;
		st->last_transit = -1;
		st->nb_producers = (uint16_t)(rx->flow_off[s + 1] - rx->flow_off[s]);
		st->flows = rx->flows + rx->flow_off[s];
	}
	return rx;
nomem:
	sl_rx_free(rx);
	rte_errno = ENOMEM;
	return NULL;
}

void
sl_rx_free(struct sl_rx *rx)
{
	if (rx == NULL)
		return;
	rte_free(rx->flows);
	rte_free(rx->flow_off);
	rte_free(rx->streams);
	rte_free(rx);
}

uint16_t
sl_rx_nb_streams(const struct sl_rx *rx)
{
	return rx->nb_streams;
}

/* Clear window bits of sequences from, from+1, ..., count of them (count < W). */
static inline void
bits_clear(uint64_t *b, uint32_t from, uint32_t count)
{
	while (count != 0) {
		uint32_t i = from & WMASK, o = i & 63, k = RTE_MIN(count, 64 - o);
		uint64_t m = k == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << k) - 1) << o;

		b[i >> 6] &= ~m;
		from += k;
		count -= k;
	}
}

enum { SEQ_NEW, SEQ_DUP, SEQ_REORDER, SEQ_LATE };

/* The window: what this sequence is. *back: how far behind the highest. */
static inline int
flow_update(struct rx_flow *f, uint32_t seq, uint32_t *back)
{
	uint64_t bit = UINT64_C(1) << (seq & 63);
	uint64_t *w = &f->bits[(seq & WMASK) >> 6];
	int32_t d;

	if (unlikely(!f->seen)) {
		f->seen = 1;
		f->top = seq;
		memset(f->bits, 0, sizeof(f->bits));
		*w |= bit;
		return SEQ_NEW;
	}
	d = (int32_t)(seq - f->top); /* serial number arithmetic (RFC 1982) */
	if (likely(d > 0)) {
		if (d >= SL_RX_WINDOW)
			memset(f->bits, 0, sizeof(f->bits));
		else if (d > 1)
			bits_clear(f->bits, f->top + 1, (uint32_t)d - 1);
		*w |= bit;
		f->top = seq;
		return SEQ_NEW;
	}
	if (d == 0)
		return SEQ_DUP;
	*back = f->top - seq;
	if (*back >= SL_RX_WINDOW)
		return SEQ_LATE;
	if (*w & bit)
		return SEQ_DUP;
	*w |= bit;
	return SEQ_REORDER;
}

/* A frame's latency in ns from its two stamps; UINT64_MAX: sent "after" it arrived. */
static inline uint64_t
frame_latency(const struct sl_rx *rx, uint64_t tx_tsc, uint64_t rx_tsc)
{
	uint64_t cyc = (rx_tsc - tx_tsc) & SL_SIG_TSC_MASK;

	if (unlikely(cyc > SL_SIG_TSC_MASK / 2))
		return UINT64_MAX; /* two CPUs' TSCs disagree, or a wrap */
	return (uint64_t)(((unsigned __int128)cyc * rx->ns_mul) >> 32);
}

static inline void
stream_latency(struct rx_stream *st, uint64_t ns, uint32_t bucket, bool hw)
{
	uint64_t ad;
	int64_t dt;

	if (unlikely(ns == UINT64_MAX)) {
		SL_CNT_ADD(st->lat_backwards, 1);
		return;
	}
	if (hw)
		SL_CNT_ADD(st->lat_hw, 1);
	SL_CNT_ADD(st->hist[bucket], 1);
	SL_CNT_ADD(st->lat_count, 1);
	SL_CNT_ADD(st->lat_sum, ns);
	if (ns < st->lat_min)
		__atomic_store_n(&st->lat_min, ns, __ATOMIC_RELAXED);
	if (ns > st->lat_max)
		__atomic_store_n(&st->lat_max, ns, __ATOMIC_RELAXED);
	/* RFC 3550 6.4.1: J += (|D| - J) / 16, D the change in transit time. */
	if (st->last_transit >= 0) {
		dt = (int64_t)ns - st->last_transit;
		ad = (uint64_t)(dt < 0 ? -dt : dt);
		__atomic_store_n(&st->jitter16, st->jitter16 + ad - ((st->jitter16 + 8) >> 4),
				 __ATOMIC_RELAXED);
	}
	st->last_transit = (int64_t)ns;
}

/* A frame of this run, read in the first pass. */
struct rx_item {
	struct rx_stream *st;
	struct rx_flow *f;
	uint64_t ns;       /* its latency (UINT64_MAX: backwards) */
	uint64_t tsc;      /* its arrival */
	uint32_t seq, len, bucket;
	bool hw;
};

static __rte_always_inline void
rx_analyze(struct sl_rx *rx, struct rte_mbuf **pkts, uint16_t n, uint64_t rx_tsc,
	   struct rte_mbuf **keep, uint16_t *nkeep)
{
	uint64_t bytes = 0, foreign = 0, bad = 0, stale = 0;
	struct rx_item it[64];
	uint16_t ok = 0;

	for (uint16_t b = 0; b < n; b += RTE_DIM(it)) {
		uint16_t end = (uint16_t)RTE_MIN(n, b + RTE_DIM(it)), k = 0;

		/* Pass 1: read and check each frame; prefetch what pass 2 writes. */
		for (uint16_t i = b; i < end; i++) {
			struct rte_mbuf *m = pkts[i];
			struct rx_item *x = &it[k];
			uint64_t frame_tsc = rx_tsc;
			struct sl_sig sig;
			enum sl_sig_verdict v;
			uint32_t off;

			if (i + 1 < end)
				rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
			x->len = rte_pktmbuf_pkt_len(m);
			bytes += x->len;
			/* The port's own arrival time, when it stamped the frame; the flag
			 * is cleared either way (the mbuf goes back to a pool). */
			x->hw = false;
			if (m->ol_flags & ts_flag) {
				m->ol_flags &= ~ts_flag;
				frame_tsc = *RTE_MBUF_DYNFIELD(m, ts_off, rte_mbuf_timestamp_t *);
				x->hw = true;
			}
			v = sl_sig_parse(m, &sig);
			if (v != SL_SIG_OK) {
				foreign += v == SL_SIG_FOREIGN;
				bad += v == SL_SIG_BAD;
				if (keep != NULL && v == SL_SIG_FOREIGN) {
					keep[(*nkeep)++] = m;
					pkts[i] = NULL;
				}
				continue;
			}
			if (sig.run != rx->run) {
				stale++;
				continue;
			}
			if (unlikely(sig.stream >= rx->nb_streams))
				goto bad_sig;
			off = rx->flow_off[sig.stream] + sig.producer;
			if (unlikely(off >= rx->flow_off[sig.stream + 1]))
				goto bad_sig;
			x->st = &rx->streams[sig.stream];
			x->f = &rx->flows[off];
			x->seq = sig.seq;
			x->ns = frame_latency(rx, sig.tsc, frame_tsc);
			x->tsc = frame_tsc;
			x->bucket = x->ns != UINT64_MAX ? sl_hist_index(x->ns) : 0;
			rte_prefetch0(x->st);
			rte_prefetch0((const char *)x->st + RTE_CACHE_LINE_SIZE);
			rte_prefetch0(x->f);
			rte_prefetch0(&x->f->bits[(x->seq & WMASK) >> 6]);
			rte_prefetch0(&x->st->hist[x->bucket]);
			k++;
			continue;
bad_sig:
			bad++;
		}
		/* Pass 2: the updates, in frame order. */
		for (uint16_t j = 0; j < k; j++) {
			struct rx_item *x = &it[j];
			struct rx_stream *st = x->st;
			uint32_t back = 0;

			if (unlikely(st->rx == 0))
				__atomic_store_n(&st->first_tsc, x->tsc, __ATOMIC_RELAXED);
			__atomic_store_n(&st->last_tsc, x->tsc, __ATOMIC_RELAXED);
			SL_CNT_ADD(st->rx, 1);
			SL_CNT_ADD(st->bytes, x->len);
			switch (flow_update(x->f, x->seq, &back)) {
			case SEQ_NEW:
				break;
			case SEQ_DUP:
				SL_CNT_ADD(st->duplicates, 1);
				continue; /* a copy: no latency sample */
			case SEQ_REORDER:
				SL_CNT_ADD(st->reordered, 1);
				SL_CNT_ADD(st->dist[RTE_MIN(63 - __builtin_clzll(back),
							    SL_RX_DIST_BUCKETS - 1)], 1);
				break;
			case SEQ_LATE:
				SL_CNT_ADD(st->late, 1);
				break;
			}
			stream_latency(st, x->ns, x->bucket, x->hw);
		}
		ok += k;
	}
	SL_CNT_ADD(rx->frames, n);
	SL_CNT_ADD(rx->bytes, bytes);
	SL_CNT_ADD(rx->rx, ok);
	if (foreign != 0)
		SL_CNT_ADD(rx->foreign, foreign);
	if (bad != 0)
		SL_CNT_ADD(rx->bad, bad);
	if (stale != 0)
		SL_CNT_ADD(rx->stale, stale);
	/* What the analysis of this burst cost (its receive time was read first). */
	SL_CNT_ADD(rx->cycles, rte_rdtsc() - rx_tsc);
}

void
sl_rx_analyze(struct sl_rx *rx, struct rte_mbuf **pkts, uint16_t n, uint64_t rx_tsc)
{
	rx_analyze(rx, pkts, n, rx_tsc, NULL, NULL);
}

uint16_t
sl_rx_analyze_keep(struct sl_rx *rx, struct rte_mbuf **pkts, uint16_t n, uint64_t rx_tsc,
		   struct rte_mbuf **foreign)
{
	uint16_t k = 0;

	rx_analyze(rx, pkts, n, rx_tsc, foreign, &k);
	return k;
}

void
sl_rx_port_stats(const struct sl_rx *rx, struct sl_rx_port_stats *st)
{
	st->frames = SL_CNT_READ(rx->frames);
	st->bytes = SL_CNT_READ(rx->bytes);
	st->rx = SL_CNT_READ(rx->rx);
	st->foreign = SL_CNT_READ(rx->foreign);
	st->bad_signature = SL_CNT_READ(rx->bad);
	st->stale = SL_CNT_READ(rx->stale);
	st->cycles = SL_CNT_READ(rx->cycles);
}

bool
sl_rx_stream_stats(const struct sl_rx *rx, uint16_t stream, struct sl_rx_stream_stats *o)
{
	const struct rx_stream *st;

	if (stream >= rx->nb_streams)
		return false;
	st = &rx->streams[stream];
	o->rx = SL_CNT_READ(st->rx);
	o->bytes = SL_CNT_READ(st->bytes);
	o->duplicates = SL_CNT_READ(st->duplicates);
	o->reordered = SL_CNT_READ(st->reordered);
	o->late = SL_CNT_READ(st->late);
	for (int i = 0; i < SL_RX_DIST_BUCKETS; i++)
		o->dist[i] = SL_CNT_READ(st->dist[i]);
	o->lat_count = SL_CNT_READ(st->lat_count);
	o->lat_hw = SL_CNT_READ(st->lat_hw);
	o->lat_backwards = SL_CNT_READ(st->lat_backwards);
	o->lat_min = o->lat_count != 0 ? __atomic_load_n(&st->lat_min, __ATOMIC_RELAXED) : 0;
	o->lat_max = __atomic_load_n(&st->lat_max, __ATOMIC_RELAXED);
	o->lat_sum = (double)SL_CNT_READ(st->lat_sum);
	o->jitter_ns = (double)__atomic_load_n(&st->jitter16, __ATOMIC_RELAXED) / 16.0;
	o->first_tsc = __atomic_load_n(&st->first_tsc, __ATOMIC_RELAXED);
	o->last_tsc = __atomic_load_n(&st->last_tsc, __ATOMIC_RELAXED);
	return true;
}

void
sl_rx_stream_hist(const struct sl_rx *rx, uint16_t stream, uint64_t *buckets)
{
	if (stream >= rx->nb_streams)
		return;
	for (uint32_t i = 0; i < SL_HIST_BUCKETS; i++)
		buckets[i] += SL_CNT_READ(rx->streams[stream].hist[i]);
}

uint64_t
sl_rx_hist_quantile(const uint64_t *buckets, double q)
{
	uint64_t total = 0, want, acc = 0;

	for (uint32_t i = 0; i < SL_HIST_BUCKETS; i++)
		total += buckets[i];
	if (total == 0)
		return 0;
	/* The smallest value with at least q of the samples at or below it. */
	want = (uint64_t)(q * (double)total + 0.5);
	if (want == 0)
		want = 1;
	for (uint32_t i = 0; i < SL_HIST_BUCKETS; i++) {
		acc += buckets[i];
		if (acc >= want) {
			uint64_t lo = sl_hist_low(i), hi = sl_hist_high(i);

			return hi == UINT64_MAX ? lo : lo + (hi - lo) / 2;
		}
	}
	return 0;
}
