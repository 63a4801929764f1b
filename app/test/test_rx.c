/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The analyzer's contract (sl_rx.h): exact accounting against an independent
 * tally over scrambled deliveries (drops, duplicates, swaps, frames moved far
 * back), hostile frames counted and harmless, the histogram's error bound.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf_dyn.h>
#include <rte_random.h>

#include "sl_rx.h"
#include "test.h"
#include "test_common.h"
#include "sl_clock.h"

#define NPROD 3

/* Rewrite a frame's signature words (the UDP checksum is not the analyzer's business). */
static void
sig_rewrite(struct rte_mbuf *m, uint16_t stream, uint8_t prod, uint8_t run, uint32_t seq,
	    uint64_t tsc)
{
	uint64_t w0, w1;
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *) + m->pkt_len - SL_SIG_LEN;

	sl_sig_words(stream, prod, run, seq, tsc, &w0, &w1);
	memcpy(p, &w0, 8);
	memcpy(p + 8, &w1, 8);
}

/* A signed frame of stream template s (its pool mp) carrying the given signature. */
static struct rte_mbuf *
frame_of(const struct sl_stream *s, struct rte_mempool *mp, uint16_t stream, uint8_t prod,
	 uint8_t run, uint32_t seq, uint64_t tsc)
{
	struct sl_gen g = { .s = s, .mp = mp, .producer = prod, .run = run };
	struct rte_mbuf *m;

	if (sl_gen_burst(&g, &m, 1, tsc) != 1)
		return NULL;
	sig_rewrite(m, stream, prod, run, seq, tsc);
	return m;
}

static struct rte_mbuf *
frame(struct rte_mempool *mp, uint16_t stream, uint8_t prod, uint8_t run, uint32_t seq,
      uint64_t tsc)
{
	return frame_of(test_stream(), mp, stream, prod, run, seq, tsc);
}

/* m moved to a plain pool, to cut and corrupt (the generator's pool keeps its templates). */
static struct rte_mbuf *
to_raw(struct rte_mbuf *m, struct rte_mempool *raw)
{
	struct rte_mbuf *c;

	if (m == NULL)
		return NULL;
	c = rte_pktmbuf_copy(m, raw, 0, UINT32_MAX);
	rte_pktmbuf_free(m);
	return c;
}

static struct rte_mbuf *
frame_copy(struct rte_mempool *mp, struct rte_mempool *raw, uint16_t stream, uint8_t prod,
	   uint8_t run, uint32_t seq, uint64_t tsc)
{
	return to_raw(frame(mp, stream, prod, run, seq, tsc), raw);
}

struct tally {
	uint64_t rx, dup, reord, late;
	uint32_t top[NPROD];
	bool seen_any[NPROD];
	uint8_t *seen[NPROD];
};

/* The independent tally: a full set of seen sequences per producer, no window. */
static void
tally_one(struct tally *t, uint8_t p, uint32_t seq)
{
	t->rx++;
	if (t->seen[p][seq]) {
		/* Within the window the analyzer sees the copy; beyond it, it cannot. */
		if (t->seen_any[p] && t->top[p] - seq >= SL_RX_WINDOW)
			t->late++;
		else
			t->dup++;
		return;
	}
	t->seen[p][seq] = 1;
	if (t->seen_any[p] && seq < t->top[p]) {
		if (t->top[p] - seq >= SL_RX_WINDOW)
			t->late++;
		else
			t->reord++;
	}
	if (!t->seen_any[p] || seq > t->top[p])
		t->top[p] = seq;
	t->seen_any[p] = true;
}

SL_TEST(rx_exact_accounting, "fast")
{
	const uint32_t n = 30000;
	uint16_t producers[2] = { NPROD, 1 };
	struct sl_rx_conf c = { .nb_streams = 2, .producers = producers, .run = 7,
				.socket_id = SOCKET_ID_ANY };
	struct rte_mempool *mp = test_pool("t_rx", 8191);
	struct sl_rx_stream_stats st;
	struct sl_rx_port_stats ps;
	struct tally t = { 0 };
	struct sl_rx *rx;
	uint32_t *order, nord = 0, next[NPROD] = { 0 }, sent[NPROD] = { 0 };
	uint64_t dropped = 0, tsc0 = rte_rdtsc(), hz = sl_tsc_hz();
	uint64_t ns = 0;

	CHECK(mp != NULL, "pool");
	rx = sl_rx_create(&c);
	CHECK(rx != NULL, "create");
	order = calloc(2 * n, sizeof(*order));
	for (int p = 0; p < NPROD; p++)
		t.seen[p] = calloc(n, 1);
	CHECK(order != NULL && t.seen[2] != NULL, "memory");
	/* Interleave the producers, then impair the delivery order (seeded). */
	srand(12345);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t p = (uint8_t)(i % NPROD);
		uint32_t v = (uint32_t)p << 24 | next[p]++;
		int r = rand() % 1000;

		sent[p]++;
		if (r < 10) {
			dropped++;
			continue;
		}
		order[nord++] = v;
		if (r < 20)
			order[nord++] = v; /* duplicate */
	}
	/* Swaps with the next frame of the same producer (NPROD places on, mostly). */
	for (uint32_t i = 0; i + NPROD < nord; i++)
		if (rand() % 100 < 3) {
			uint32_t x = order[i];

			order[i] = order[i + NPROD];
			order[i + NPROD] = x;
			i += NPROD;
		}
	/* A few frames moved far back: 3 producers x 2400 = beyond the window. */
	for (uint32_t i = 100; i + 8000 < nord; i += 7919) {
		uint32_t x = order[i];

		memmove(&order[i], &order[i + 1], 7200 * sizeof(*order));
		order[i + 7200] = x;
	}
	/* Deliver in bursts of up to 32, one TSC per burst 10 us after sending. */
	for (uint32_t i = 0; i < nord;) {
		struct rte_mbuf *b[32];
		uint16_t k = 0;

		while (k < 32 && i < nord) {
			uint8_t p = (uint8_t)(order[i] >> 24);
			uint32_t seq = order[i] & 0xffffff;

			b[k] = frame(mp, 0, p, 7, seq, tsc0);
			CHECK(b[k] != NULL, "frame");
			tally_one(&t, p, seq);
			k++;
			i++;
		}
		sl_rx_analyze(rx, b, k, tsc0 + hz / 100000);
		rte_pktmbuf_free_bulk(b, k);
	}
	CHECK(sl_rx_stream_stats(rx, 0, &st), "stats");
	sl_rx_port_stats(rx, &ps);
	NOTE("delivered %u (dropped %lu): rx %lu dup %lu reordered %lu late %lu", nord, dropped,
	     st.rx, st.duplicates, st.reordered, st.late);
	CHECK(st.rx == t.rx && st.rx == nord && ps.rx == nord, "rx %lu tally %lu", st.rx, t.rx);
	CHECK(st.duplicates == t.dup, "dup %lu tally %lu", st.duplicates, t.dup);
	CHECK(st.reordered == t.reord, "reordered %lu tally %lu", st.reordered, t.reord);
	CHECK(st.late == t.late, "late %lu tally %lu", st.late, t.late);
	CHECK(t.dup > 100 && t.reord > 100 && t.late > 0, "the scramble exercised every case");
	/* Conservation: sent = unique + lost, lost = what was dropped. */
	CHECK(n - (st.rx - st.duplicates) == dropped, "lost %lu dropped %lu",
	      n - (st.rx - st.duplicates), dropped);
	/* Latency: every frame took exactly 10 us. */
	ns = (uint64_t)(1e9 / 100000);
	CHECK(st.lat_min >= ns - 2 && st.lat_max <= ns + 2, "latency %lu..%lu, want %lu",
	      st.lat_min, st.lat_max, ns);
	CHECK(st.jitter_ns < 1, "jitter %.2f", st.jitter_ns);
	CHECK(ps.foreign == 0 && ps.bad_signature == 0 && ps.stale == 0, "port %lu %lu %lu",
	      ps.foreign, ps.bad_signature, ps.stale);
	sl_rx_free(rx);
	free(order);
	for (int p = 0; p < NPROD; p++)
		free(t.seen[p]);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}

SL_TEST(rx_hostile_frames, "fast")
{
	uint16_t producers[2] = { 2, 2 };
	struct sl_rx_conf c = { .nb_streams = 2, .producers = producers, .run = 9,
				.socket_id = SOCKET_ID_ANY };
	struct rte_mempool *mp = test_pool("t_rxh", 4095);
	/* Random frames in a plain pool: the generator's pool must keep its templates. */
	struct rte_mempool *raw = rte_pktmbuf_pool_create("t_rxraw", 1023, 0, 0, 2048,
							  SOCKET_ID_ANY);
	struct sl_rx_stream_stats st;
	struct sl_rx_port_stats ps;
	struct sl_rx *rx = sl_rx_create(&c);
	struct rte_mbuf *m;
	uint64_t tsc = rte_rdtsc(), want_foreign = 0, want_bad = 0;

	CHECK(mp != NULL && raw != NULL && rx != NULL, "setup");
	/* Random bytes of random lengths: foreign or bad, never an event. */
	rte_srand(99);
	for (int i = 0; i < 3000; i++) {
		struct rte_mbuf *r = rte_pktmbuf_alloc(raw);
		uint16_t len = (uint16_t)rte_rand_max(1519);
		uint8_t *p;

		CHECK(r != NULL, "alloc");
		p = (uint8_t *)rte_pktmbuf_append(r, len);
		CHECK(len == 0 || p != NULL, "append %u", len);
		for (uint16_t k = 0; k < len; k++)
			p[k] = (uint8_t)rte_rand();
		if (i % 3 == 0 && len >= 14) { /* make some look like IPv4/UDP */
			p[12] = 0x08;
			p[13] = 0x00;
			if (len >= 34) {
				p[14] = 0x45;
				p[23] = 17;
			}
		}
		sl_rx_analyze(rx, &r, 1, tsc);
		rte_pktmbuf_free(r);
	}
	sl_rx_port_stats(rx, &ps);
	CHECK(ps.rx == 0 && ps.frames == 3000 && ps.foreign + ps.bad_signature == 3000,
	      "random: rx %lu foreign %lu bad %lu", ps.rx, ps.foreign, ps.bad_signature);
	want_foreign = ps.foreign;
	want_bad = ps.bad_signature;

	/* A runt: 10 bytes. */
	m = rte_pktmbuf_alloc(raw);
	rte_pktmbuf_append(m, 10);
	sl_rx_analyze(rx, &m, 1, tsc);
	rte_pktmbuf_free(m);
	want_foreign++;
	/* The magic with a wrong check: flip a sequence bit after signing. */
	m = frame_copy(mp, raw, 0, 0, 9, 5, tsc);
	rte_pktmbuf_mtod(m, uint8_t *)[m->pkt_len - 8] ^= 1;
	sl_rx_analyze(rx, &m, 1, tsc);
	rte_pktmbuf_free(m);
	want_bad++;
	/* Truncated: the IP length runs past the frame. */
	m = frame_copy(mp, raw, 0, 0, 9, 6, tsc);
	rte_pktmbuf_trim(m, 4);
	sl_rx_analyze(rx, &m, 1, tsc);
	rte_pktmbuf_free(m);
	want_bad++;
	/* The signature one byte early (a DUT that cut the payload): no magic there. */
	m = frame_copy(mp, raw, 0, 0, 9, 7, tsc);
	{
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		uint16_t tl = (uint16_t)(p[16] << 8 | p[17]);

		tl--;
		p[16] = (uint8_t)(tl >> 8);
		p[17] = (uint8_t)tl;
	}
	sl_rx_analyze(rx, &m, 1, tsc);
	rte_pktmbuf_free(m);
	/* A stream and a producer that do not exist: bad. */
	m = frame(mp, 5, 0, 9, 1, tsc);
	sl_rx_analyze(rx, &m, 1, tsc);
	rte_pktmbuf_free(m);
	m = frame(mp, 1, 3, 9, 1, tsc);
	sl_rx_analyze(rx, &m, 1, tsc);
	rte_pktmbuf_free(m);
	want_bad += 2;
	/* Another run: stale. */
	m = frame(mp, 0, 0, 8, 1, tsc);

	sl_rx_analyze(rx, &m, 1, tsc);
	rte_pktmbuf_free(m);
	sl_rx_port_stats(rx, &ps);
	NOTE("foreign %lu bad %lu stale %lu rx %lu", ps.foreign, ps.bad_signature, ps.stale, ps.rx);
	CHECK(ps.stale == 1, "stale %lu", ps.stale);
	CHECK(ps.bad_signature == want_bad && ps.foreign + ps.bad_signature == want_foreign + want_bad + 1,
	      "foreign %lu (want %lu + the shifted one) bad %lu (want %lu)", ps.foreign,
	      want_foreign, ps.bad_signature, want_bad);
	CHECK(ps.rx == 0, "nothing counted as ours: %lu", ps.rx);
	/* Jumps of 2^31 and more, then the stream goes on: late, nothing else moves. */
	for (uint32_t s = 0; s < 100; s++) {
		m = frame(mp, 1, 1, 9, s, tsc);
		sl_rx_analyze(rx, &m, 1, tsc);
		rte_pktmbuf_free(m);
		if (s == 50) {
			uint32_t jumps[] = { 50u + (1u << 31), 50u + (1u << 31) + 5, 50u - (1u << 31) };

			for (unsigned int j = 0; j < RTE_DIM(jumps); j++) {
				m = frame(mp, 1, 1, 9, jumps[j], tsc);
				sl_rx_analyze(rx, &m, 1, tsc);
				rte_pktmbuf_free(m);
			}
		}
	}
	CHECK(sl_rx_stream_stats(rx, 1, &st), "stats");
	CHECK(st.rx == 103 && st.late == 3 && st.duplicates == 0 && st.reordered == 0,
	      "after jumps: rx %lu late %lu dup %lu reordered %lu", st.rx, st.late, st.duplicates,
	      st.reordered);
	sl_rx_free(rx);
	CHECK(rte_mempool_in_use_count(mp) == 0 && rte_mempool_in_use_count(raw) == 0, "leak");
	rte_mempool_free(mp);
	rte_mempool_free(raw);
	return 0;
}

/* The one expression every output (summary, JSON, prompt, telemetry) names the clock by. */
SL_TEST(rx_clock_name, "fast")
{
	struct sl_rx_stream_stats st = { .lat_count = 0, .lat_hw = 0 };
	const char *none = sl_rx_clock_name(&st), *tsc, *hw, *mixed;

	st.lat_count = 10;
	tsc = sl_rx_clock_name(&st);
	st.lat_hw = 10;
	hw = sl_rx_clock_name(&st);
	st.lat_hw = 3;
	mixed = sl_rx_clock_name(&st);
	NOTE("no samples: %s; 10 by tsc: %s; 10 by hw: %s; 3 of 10 by hw: %s", none, tsc, hw,
	     mixed);
	CHECK(strcmp(none, "tsc") == 0 && strcmp(tsc, "tsc") == 0 && strcmp(hw, "hw") == 0 &&
	      strcmp(mixed, "mixed") == 0, "clock names");
	return 0;
}

/*
 * A frame that arrives before it was sent, by the clocks (TX and RX lcores on
 * two CPUs whose TSCs are not in step; a port clock off): counted as running
 * backwards, never a sample, also when a port stamped it; a difference that
 * only wraps the signature's 40 bits is a sample.
 */
SL_TEST(rx_clock_backwards, "fast")
{
	uint16_t producers[1] = { 1 };
	struct sl_rx_conf c = { .nb_streams = 1, .producers = producers, .run = 3,
				.socket_id = SOCKET_ID_ANY };
	struct rte_mempool *mp = test_pool("t_rx_back", 63);
	const uint64_t t0 = rte_rdtsc(), wrap = 1ull << SL_SIG_TSC_BITS;
	struct sl_rx_stream_stats st;
	struct rte_mbuf *m;
	uint64_t flag;
	int off;
	struct sl_rx *rx;

	CHECK(mp != NULL, "pool");
	rx = sl_rx_create(&c);
	CHECK(rx != NULL, "create");
	CHECK(rte_mbuf_dyn_rx_timestamp_register(&off, &flag) == 0, "timestamp field");
	/* Sent 1000 cycles after it was received, by the burst's TSC. */
	m = frame(mp, 0, 0, 3, 0, t0 + 1000);
	CHECK(m != NULL, "frame");
	sl_rx_analyze(rx, &m, 1, t0);
	rte_pktmbuf_free(m);
	/* The same by a port's stamp: neither a sample nor a hw sample. */
	m = frame(mp, 0, 0, 3, 1, t0 + 1000);
	CHECK(m != NULL, "frame");
	*RTE_MBUF_DYNFIELD(m, off, rte_mbuf_timestamp_t *) = t0;
	m->ol_flags |= flag;
	sl_rx_analyze(rx, &m, 1, t0 + 5000);
	rte_pktmbuf_free(m);
	CHECK(sl_rx_stream_stats(rx, 0, &st), "stats");
	NOTE("two frames back in time: backwards %lu samples %lu hw %lu min %lu", st.lat_backwards,
	     st.lat_count, st.lat_hw, st.lat_min);
	CHECK(st.rx == 2 && st.lat_backwards == 2 && st.lat_count == 0 && st.lat_hw == 0 &&
	      st.lat_min == 0 && st.lat_max == 0, "backwards %lu samples %lu hw %lu min %lu max %lu",
	      st.lat_backwards, st.lat_count, st.lat_hw, st.lat_min, st.lat_max);
	/* Arrivals: the first at the burst's TSC, the last at its port's stamp. */
	CHECK(st.first_tsc == t0 && st.last_tsc == t0, "first %lu last %lu, want %lu twice",
	      st.first_tsc, st.last_tsc, t0);
	/* Sent 10 cycles before the 40-bit wrap, received 10 after: 20 cycles. */
	m = frame(mp, 0, 0, 3, 2, wrap - 10);
	CHECK(m != NULL, "frame");
	sl_rx_analyze(rx, &m, 1, wrap + 10);
	rte_pktmbuf_free(m);
	CHECK(sl_rx_stream_stats(rx, 0, &st), "stats");
	CHECK(st.first_tsc == t0 && st.last_tsc == wrap + 10, "first %lu last %lu", st.first_tsc,
	      st.last_tsc);
	CHECK(st.lat_backwards == 2 && st.lat_count == 1 && st.lat_max < 1000 &&
	      strcmp(sl_rx_clock_name(&st), "tsc") == 0,
	      "across the wrap: backwards %lu samples %lu max %lu ns clock %s", st.lat_backwards,
	      st.lat_count, st.lat_max, sl_rx_clock_name(&st));
	sl_rx_free(rx);
	CHECK(rte_mempool_in_use_count(mp) == 0, "leak");
	rte_mempool_free(mp);
	return 0;
}

/* What a DUT may do to a frame on the way: a tag after the MAC addresses... */
static int
tag_insert(struct rte_mbuf *m, uint16_t tpid, uint16_t tci)
{
	uint8_t *p = (uint8_t *)rte_pktmbuf_prepend(m, 4);

	if (p == NULL)
		return -1;
	memmove(p, p + 4, 12);
	p[12] = (uint8_t)(tpid >> 8);
	p[13] = (uint8_t)tpid;
	p[14] = (uint8_t)(tci >> 8);
	p[15] = (uint8_t)tci;
	return 0;
}

/* ...and bytes after the IP packet (padding, an FCS). */
static int
tail_append(struct rte_mbuf *m, uint16_t len, uint8_t fill)
{
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, len);

	if (p == NULL)
		return -1;
	memset(p, fill, len);
	return 0;
}

#define ENC_PAD 1  /* 20 bytes of zero padding */
#define ENC_FCS 2  /* a 4-byte FCS */
#define ENC_VLAN 4 /* an 802.1Q tag */
#define ENC_QINQ 8 /* an 802.1ad tag, then an 802.1Q one */

/*
 * The signature is found from the IP header, not the frame's end (sl_sig.h):
 * signed frames padded, tagged (802.1Q, QinQ), with an FCS appended, IPv4
 * and IPv6, each count as this run's, in the right stream, with the right
 * producer and sequence (a plain copy of each is then a duplicate and the
 * next sequence is in order) and its own latency sample.
 */
SL_TEST(rx_encapsulated_frames, "fast")
{
	static const struct { const char *what; bool v6; int enc; } vs[] = {
		{ "ipv4", false, 0 },
		{ "ipv4 padded", false, ENC_PAD },
		{ "ipv4 fcs", false, ENC_FCS },
		{ "ipv4 vlan", false, ENC_VLAN },
		{ "ipv4 qinq", false, ENC_QINQ },
		{ "ipv4 qinq padded fcs", false, ENC_QINQ | ENC_PAD | ENC_FCS },
		{ "ipv4 vlan padded", false, ENC_VLAN | ENC_PAD },
		{ "ipv6", true, 0 },
		{ "ipv6 padded fcs", true, ENC_PAD | ENC_FCS },
		{ "ipv6 vlan padded", true, ENC_VLAN | ENC_PAD },
		{ "ipv6 qinq fcs", true, ENC_QINQ | ENC_FCS },
	};
	const uint16_t nv = RTE_DIM(vs);
	uint16_t producers[RTE_DIM(vs)];
	struct sl_rx_conf c = { .nb_streams = nv, .producers = producers, .run = 4,
				.socket_id = SOCKET_ID_ANY };
	struct sl_stream_conf c6 = {
		.src_mac = { { 0x02, 0, 0, 0, 0, 1 } },
		.dst_mac = { { 0x02, 0, 0, 0, 0, 2 } },
		.ipv6 = true,
		.src_ip6 = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
		.dst_ip6 = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 },
		.src_port = 9,
		.dst_port = 9,
		.sizes = { 128 },
		.nb_sizes = 1,
	};
	static struct sl_stream s6;
	char err[128];
	struct rte_mempool *mp = test_pool("t_rxe", 255), *mp6;
	struct rte_mempool *raw = rte_pktmbuf_pool_create("t_rxeraw", 255, 0, 0, 2048,
							  SOCKET_ID_ANY);
	struct sl_rx_stream_stats st;
	struct sl_rx_port_stats ps;
	struct sl_rx *rx;
	struct rte_mbuf *m;
	uint64_t tsc = rte_rdtsc();

	for (uint16_t v = 0; v < nv; v++)
		producers[v] = 2;
	CHECK(sl_stream_build(&s6, &c6, 1518, err, sizeof(err)) == 0, "ipv6 stream: %s", err);
	mp6 = sl_stream_pool_create(&s6, "t_rxe6", 255, SOCKET_ID_ANY);
	rx = sl_rx_create(&c);
	CHECK(mp != NULL && mp6 != NULL && raw != NULL && rx != NULL, "setup");
	/* Variant v: stream v, producer 1, sequence 100 + v. */
	for (uint16_t v = 0; v < nv; v++) {
		int e = vs[v].enc;

		m = to_raw(vs[v].v6 ? frame_of(&s6, mp6, v, 1, 4, 100 + v, tsc) :
				      frame(mp, v, 1, 4, 100 + v, tsc), raw);
		CHECK(m != NULL, "%s: frame", vs[v].what);
		CHECK(!(e & ENC_VLAN) || tag_insert(m, 0x8100, 7) == 0, "%s: tag", vs[v].what);
		CHECK(!(e & ENC_QINQ) || (tag_insert(m, 0x8100, 7) == 0 &&
					  tag_insert(m, 0x88a8, 100) == 0), "%s: tags", vs[v].what);
		CHECK(!(e & ENC_PAD) || tail_append(m, 20, 0) == 0, "%s: pad", vs[v].what);
		CHECK(!(e & ENC_FCS) || tail_append(m, 4, 0xa5) == 0, "%s: fcs", vs[v].what);
		sl_rx_analyze(rx, &m, 1, tsc);
		sl_rx_port_stats(rx, &ps);
		rte_pktmbuf_free(m);
		CHECK(ps.rx == v + 1u && ps.foreign == 0 && ps.bad_signature == 0 && ps.stale == 0,
		      "%s: rx %lu foreign %lu bad %lu stale %lu", vs[v].what, ps.rx, ps.foreign,
		      ps.bad_signature, ps.stale);
	}
	/* Then plain copies of the same (stream, producer, sequence), and the next sequence. */
	for (uint16_t v = 0; v < nv; v++) {
		for (uint32_t k = 0; k < 2; k++) {
			m = frame(mp, v, 1, 4, 100 + v + k, tsc);
			CHECK(m != NULL, "plain frame");
			sl_rx_analyze(rx, &m, 1, tsc);
			rte_pktmbuf_free(m);
		}
	}
	for (uint16_t v = 0; v < nv; v++) {
		CHECK(sl_rx_stream_stats(rx, v, &st), "stats");
		CHECK(st.rx == 3 && st.duplicates == 1 && st.reordered == 0 && st.late == 0 &&
		      st.lat_count == 2, "%s: stream %u rx %lu dup %lu reordered %lu late %lu "
		      "latency samples %lu (want 3 1 0 0 2)", vs[v].what, v, st.rx, st.duplicates,
		      st.reordered, st.late, st.lat_count);
	}
	sl_rx_port_stats(rx, &ps);
	NOTE("%u variants: rx %lu foreign %lu bad %lu stale %lu; each stream rx 3 dup 1",
	     nv, ps.rx, ps.foreign, ps.bad_signature, ps.stale);
	CHECK(ps.rx == 3u * nv && ps.frames == 3u * nv, "rx %lu frames %lu", ps.rx, ps.frames);
	sl_rx_free(rx);
	CHECK(rte_mempool_in_use_count(mp) == 0 && rte_mempool_in_use_count(mp6) == 0 &&
	      rte_mempool_in_use_count(raw) == 0, "leak");
	rte_mempool_free(mp);
	rte_mempool_free(mp6);
	rte_mempool_free(raw);
	return 0;
}

SL_TEST(rx_histogram_bounds, "fast")
{
	static uint64_t b[SL_HIST_BUCKETS];
	uint64_t prev_hi = 0;

	/* Buckets tile the range with no gap, each within 1/128 of its value. */
	for (uint32_t i = 0; i < SL_HIST_BUCKETS - 1; i++) {
		uint64_t lo = sl_hist_low(i), hi = sl_hist_high(i);

		CHECK(i == 0 || lo == prev_hi + 1, "gap before bucket %u: %lu after %lu", i, lo,
		      prev_hi);
		CHECK(sl_hist_index(lo) == i && sl_hist_index(hi) == i, "bucket %u: %lu..%lu", i, lo,
		      hi);
		CHECK(hi - lo <= lo / 128 + 1, "bucket %u too wide: %lu..%lu", i, lo, hi);
		prev_hi = hi;
	}
	CHECK(sl_hist_index(UINT64_C(10) * 1000000000) < SL_HIST_BUCKETS - 1, "10 s in range");
	/* Quantiles of 1..1,000,000 ns, one each: within 0.4 %. */
	for (uint64_t v = 1; v <= 1000000; v++)
		b[sl_hist_index(v)]++;
	for (double q = 0.1; q < 1; q += 0.1) {
		double got = (double)sl_rx_hist_quantile(b, q), want = q * 1e6;

		CHECK(got > want * 0.996 - 1 && got < want * 1.004 + 1, "q %.1f: %.0f vs %.0f", q, got,
		      want);
	}
	return 0;
}

/*
 * sl_rx_analyze_keep(): the frames without a signature are moved to the
 * caller (their slots NULL) and counted as foreign; the others stay and
 * are analyzed as by sl_rx_analyze().
 */
SL_TEST(rx_keep_foreign, "fast")
{
	uint16_t producers[1] = { 1 };
	struct sl_rx_conf c = { .nb_streams = 1, .producers = producers, .run = 3,
				.socket_id = SOCKET_ID_ANY };
	struct rte_mempool *raw = rte_pktmbuf_pool_create("t_rxkeep", 63, 0, 0, 2048,
							  SOCKET_ID_ANY);
	struct sl_rx *rx = sl_rx_create(&c);
	struct rte_mbuf *pkts[4], *kept[4];
	struct sl_rx_port_stats ps;
	uint16_t k;

	CHECK(raw != NULL && rx != NULL, "setup");
	for (int i = 0; i < 4; i++) {
		uint8_t *p;

		pkts[i] = rte_pktmbuf_alloc(raw);
		CHECK(pkts[i] != NULL, "alloc");
		p = (uint8_t *)rte_pktmbuf_append(pkts[i], 60);
		CHECK(p != NULL, "append");
		memset(p, 0, 60);
		p[12] = 0x08;
		p[13] = 0x06; /* ARP: no signature */
	}
	k = sl_rx_analyze_keep(rx, pkts, 4, rte_rdtsc(), kept);
	CHECK(k == 4, "4 foreign frames handed over, got %u", k);
	for (int i = 0; i < 4; i++)
		CHECK(pkts[i] == NULL && kept[i] != NULL, "slot %d moved", i);
	sl_rx_port_stats(rx, &ps);
	CHECK(ps.frames == 4 && ps.foreign == 4 && ps.rx == 0, "counted as foreign: %" PRIu64,
	      ps.foreign);
	rte_pktmbuf_free_bulk(pkts, 4); /* NULL slots: nothing */
	CHECK(rte_mempool_in_use_count(raw) == 4, "the caller holds them");
	rte_pktmbuf_free_bulk(kept, k);
	CHECK(rte_mempool_in_use_count(raw) == 0, "every mbuf back");
	sl_rx_free(rx);
	rte_mempool_free(raw);
	return 0;
}
