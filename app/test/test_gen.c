/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stream's frame order shared by its producers (sl_gen_share(),
 * sl_gen_step(), sl_gen_tcp_seq()), against a reference written from the
 * definition in sl_gen.h with divisions: frame g is flow g mod N, round
 * g / N, size order[(flow + round) mod L]; producer k of P sends frames
 * k, k + P, ...; a TCP frame's sequence number is the payload its flow
 * sent before it; an inc field's index is g mod count.
 */

#include <inttypes.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "sl_gen.h"
#include "test.h"

#define REF_FRAMES 6000

/* One configuration: flows, a size spec, producers, an inc field's count. */
struct gen_case {
	uint32_t flows;
	uint16_t nb_sizes;      /* 0: the range 64..64+range-1 */
	uint16_t sizes[3], weights[3];
	uint16_t range;
	uint16_t producers;
	uint32_t field_count;
};

static int
gen_case_run(const struct gen_case *gc, struct sl_stream *s, uint32_t *ref_seq, uint32_t *fnext)
{
	struct sl_stream_conf c = {
		.src_ip = RTE_IPV4(198u, 18, 0, 1), .dst_ip = RTE_IPV4(198u, 18, 0, 2),
		.src_port = 1000, .dst_port = 9, .tcp = true, .flows = gc->flows,
		.nb_fields = 1,
		.fields = { { .kind = SL_FIELD_DST_PORT, .mode = SL_FIELD_INC, .start = 1,
			      .count = gc->field_count } },
	};
	char err[160];
	uint32_t N, L;

	if (gc->nb_sizes != 0) {
		c.nb_sizes = gc->nb_sizes;
		memcpy(c.sizes, gc->sizes, sizeof(gc->sizes));
		memcpy(c.weights, gc->weights, sizeof(gc->weights));
	} else {
		c.size_min = 74;
		c.size_max = 74 + gc->range - 1;
	}
	CHECK(sl_stream_build(s, &c, 1518, err, sizeof(err)) == 0, "%s", err);
	N = s->flows;
	L = s->nb_order;
	/* The reference sequence numbers, frame by frame in stream order. */
	memset(fnext, 0, sizeof(uint32_t) * (N < REF_FRAMES ? N : REF_FRAMES));
	for (uint32_t g = 0; g < REF_FRAMES; g++) {
		uint32_t f = g % N, r = g / N, pos = (f + r) % L;

		if (f >= REF_FRAMES)
			continue; /* flows beyond the frames checked: seq 0 */
		ref_seq[g] = fnext[f];
		fnext[f] += s->sz[s->order[pos]].pkt_len - s->hdr_len;
	}
	for (uint16_t k = 0; k < gc->producers; k++) {
		struct sl_gen g = { .s = s };
		uint8_t buf[128];
		uint32_t ipx;

		CHECK(sl_gen_share(&g, k, gc->producers) == 0, "share %u of %u", k, gc->producers);
		for (uint32_t gi = k; gi < REF_FRAMES; gi += gc->producers) {
			uint32_t f = gi % N, r = gi / N, pos = (f + r) % L;

			CHECK(g.cur.flow == f && g.cur.pos == pos,
			      "N %u L %u P %u producer %u frame %u: flow %u pos %u, want %u %u", N, L,
			      gc->producers, k, gi, g.cur.flow, g.cur.pos, f, pos);
			CHECK(f >= REF_FRAMES || sl_gen_tcp_seq(s, &g.cur) == ref_seq[gi],
			      "N %u L %u P %u frame %u: TCP seq %u, want %u", N, L, gc->producers, gi,
			      sl_gen_tcp_seq(s, &g.cur), ref_seq[gi]);
			CHECK(g.fidx[0] == gi % gc->field_count, "frame %u: field index %u, want %u",
			      gi, g.fidx[0], gi % gc->field_count);
			sl_gen_fields(&g, buf, &ipx);
			sl_gen_step(&g.w, &g.cur);
		}
	}
	return 0;
}

SL_TEST(gen_share_order, "fast")
{
	static const struct gen_case cases[] = {
		{ 1, 1, { 74 }, { 0 }, 0, 1, 5 },
		{ 1, 1, { 74 }, { 0 }, 0, 2, 5 },
		{ 1, 3, { 74, 594, 1518 }, { 7, 4, 1 }, 0, 2, 4 },     /* IMIX, one flow */
		{ 12, 3, { 74, 594, 1518 }, { 7, 4, 1 }, 0, 1, 12 },   /* the lockstep */
		{ 12, 3, { 74, 594, 1518 }, { 7, 4, 1 }, 0, 5, 7 },
		{ 7, 0, { 0 }, { 0 }, 37, 3, 100 },
		{ 1000, 0, { 0 }, { 0 }, 1445, 2, 65535 },
		{ 2, 0, { 0 }, { 0 }, 5, 7, 3 },                      /* more producers than flows */
		{ 3, 3, { 74, 100, 200 }, { 1, 1, 1 }, 0, 255, 2 },   /* 255 producers */
		{ 100000, 0, { 0 }, { 0 }, 10, 3, 9 },                /* more flows than frames */
	};
	struct sl_stream *s = malloc(sizeof(*s));
	uint32_t *ref = malloc(sizeof(uint32_t) * REF_FRAMES * 2);
	int ret = 0;

	CHECK(s != NULL && ref != NULL, "out of memory");
	for (unsigned int i = 0; i < RTE_DIM(cases) && ret == 0; i++)
		ret = gen_case_run(&cases[i], s, ref, ref + REF_FRAMES);
	if (ret == 0)
		NOTE("%u configurations, %u frames each, every producer's flow, size entry, TCP "
		     "sequence and field index as the definition gives them",
		     (unsigned int)RTE_DIM(cases), REF_FRAMES);
	free(s);
	free(ref);
	return ret;
}

/*
 * Raw recycling (sl_gen_data_skip(), the lean path): frames written
 * without reading their mbufs, taken back through rte_pktmbuf_free() as a
 * driver frees them, and the pool's mbufs as the contract states. Each
 * frame is checked from its bytes: both checksums (rte_ipv4_udptcp_cksum_verify),
 * its flow's source address and port, its signature and sequence number;
 * streams sharing a pool lay their headers over each other's frames
 * (copy_len, copy_plain, and frames of another size).
 */
struct raw_case {
	uint32_t flows;
	uint16_t size;
	bool nosig;
};

struct shared_case {
	uint32_t flows;
	uint16_t size[2];
	bool nosig, v6;
	uint16_t vlan;
};

static const struct shared_case shared[] = {
	{ 4, { 64, 64 }, false, false, 0 },  { 1, { 64, 64 }, true, false, 0 },
	{ 1, { 64, 64 }, false, false, 0 },  { 4, { 64, 64 }, true, false, 0 },
	{ 4, { 67, 67 }, false, false, 0 },  { 1, { 67, 67 }, false, false, 0 },
	{ 4, { 87, 87 }, false, true, 9 },   { 1, { 86, 86 }, true, true, 9 },
	{ 4, { 64, 300 }, false, false, 0 },
};

static int
raw_frame_ok(struct rte_mbuf *m, const struct sl_stream *s, uint32_t src_ip, uint32_t flow,
	     uint32_t seq, uint16_t len)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + s->l3_off);
	const struct rte_ipv6_hdr *ip6 = (const struct rte_ipv6_hdr *)(p + s->l3_off);
	const struct rte_udp_hdr *udp = (const struct rte_udp_hdr *)(p + s->l4_off);
	struct sl_sig sig = { 0 };
	enum sl_sig_verdict v = sl_sig_parse(m, &sig);
	uint32_t src;

	CHECK(m->data_off == RTE_PKTMBUF_HEADROOM && m->nb_segs == 1 && m->next == NULL &&
	      rte_mbuf_refcnt_read(m) == 1, "mbuf fields: data_off %u segs %u refcnt %u",
	      m->data_off, m->nb_segs, rte_mbuf_refcnt_read(m));
	CHECK(m->pkt_len == len && m->data_len == len, "length %u, want %u", m->pkt_len, len);
	if (s->ipv6) {
		CHECK(rte_ipv6_udptcp_cksum_verify(ip6, udp) == 0, "UDP checksum 0x%04x wrong",
		      udp->dgram_cksum);
		memcpy(&src, &ip6->src_addr[12], 4);
	} else {
		CHECK(rte_raw_cksum(ip, sizeof(*ip)) == 0xffff, "IPv4 checksum 0x%04x wrong",
		      ip->hdr_checksum);
		CHECK(rte_ipv4_udptcp_cksum_verify(ip, udp) == 0, "UDP checksum 0x%04x wrong",
		      udp->dgram_cksum);
		src = ip->src_addr;
	}
	CHECK(rte_be_to_cpu_32(src) == src_ip, "source %08x, want %08x", rte_be_to_cpu_32(src),
	      src_ip);
	CHECK(rte_be_to_cpu_16(udp->src_port) == s->sport0 + flow, "source port %u, want %u",
	      rte_be_to_cpu_16(udp->src_port), s->sport0 + flow);
	if (s->nosig) {
		CHECK(v == SL_SIG_FOREIGN, "an unsigned frame parses as %d", v);
	} else {
		CHECK(v == SL_SIG_OK && sig.stream == s->id && sig.seq == seq,
		      "signature %d stream %u seq %u, want stream %u seq %u", v, sig.stream,
		      sig.seq, s->id, seq);
	}
	return 0;
}

SL_TEST(gen_raw_contract, "fast")
{
	static const struct raw_case cases[] = {
		{ 1, 64, true }, { 1, 64, false }, { 1, 67, false }, /* odd: the sum swapped */
		{ 100, 64, true }, { 100, 67, false }, { 7, 200, false },
	};
	struct sl_stream *s = malloc(2 * sizeof(*s));
	struct rte_mbuf *pk[32];
	int ret = 0;

	CHECK(s != NULL, "out of memory");
	for (unsigned int ci = 0; ci < RTE_DIM(cases) && ret == 0; ci++) {
		const struct raw_case *rc = &cases[ci];
		struct sl_stream_conf c = {
			.src_ip = RTE_IPV4(198u, 18, 0, 1), .dst_ip = RTE_IPV4(198u, 19, 0, 1),
			.src_port = 1000, .dst_port = 9, .flows = rc->flows, .nb_sizes = 1,
			.sizes = { rc->size }, .nosig = rc->nosig, .id = 3,
		};
		char err[160], name[32];
		struct rte_mempool *mp;
		struct sl_gen g = { .s = s };
		uint32_t fr = 0;

		CHECK(sl_stream_build(s, &c, 1518, err, sizeof(err)) == 0, "%s", err);
		CHECK(s->lean, "case %u: not on the lean path", ci);
		snprintf(name, sizeof(name), "t_raw%u", ci);
		mp = sl_stream_pool_create(s, name, 255, SOCKET_ID_ANY);
		CHECK(mp != NULL, "pool");
		g.mp = mp;
		CHECK(rte_mempool_get_bulk(mp, (void **)pk, 1) == 0, "get");
		CHECK(sl_gen_data_skip(mp) ==
		      (uintptr_t)rte_pktmbuf_mtod(pk[0], uint8_t *) - (uintptr_t)pk[0],
		      "data_skip %u, the mbuf's data at %zu", sl_gen_data_skip(mp),
		      (size_t)((uintptr_t)rte_pktmbuf_mtod(pk[0], uint8_t *) - (uintptr_t)pk[0]));
		rte_mempool_put_bulk(mp, (void **)pk, 1);
		/* 20 bursts of 32 over a pool of 255: every mbuf recycled several times. */
		for (int b = 0; b < 20 && ret == 0; b++) {
			CHECK(sl_gen_burst(&g, pk, 32, rte_rdtsc()) == 32, "burst %d", b);
			CHECK(g.bytes == 32u * (rc->size - 4), "bytes %" PRIu64, g.bytes);
			for (int i = 0; i < 32 && ret == 0; i++, fr++)
				ret = raw_frame_ok(pk[i], s, c.src_ip, fr % rc->flows, fr,
						   rc->size - 4);
			for (int i = 0; i < 32; i++)
				rte_pktmbuf_free(pk[i]); /* as a driver does */
		}
		rte_mempool_free(mp);
	}
	/*
	 * Two streams on one pool. Plain (one size, both signed or both not):
	 * the headers copied in the frame's loop (one line) or before it (two
	 * lines: VLAN and IPv6), with or without ports, signature, odd sums;
	 * then two sizes (the lengths laid too).
	 */
	for (unsigned int ci = 0; ci < RTE_DIM(shared) && ret == 0; ci++) {
		const struct shared_case *sc = &shared[ci];
		struct sl_stream_conf c = {
			.dst_ip = RTE_IPV4(198u, 19, 0, 1), .src_port = 2000, .dst_port = 9,
			.flows = sc->flows, .nb_sizes = 1, .nosig = sc->nosig, .vlan = sc->vlan,
			.ipv6 = sc->v6, .dst_ip6 = { 0x20, 1, 0, 2, [15] = 2 },
		};
		struct sl_gen g[2] = { { .s = &s[0] }, { .s = &s[1] } };
		char err[160], name[32];
		struct rte_mempool *mp;
		uint32_t fr[2] = { 0, 0 };
		uint16_t copy;

		for (int k = 0; k < 2; k++) {
			c.src_ip = RTE_IPV4(198u, 18, 1, 1 + k);
			memcpy(c.src_ip6, (const uint8_t[16]){ 0x20, 1, 0, 2, [12] = 198, 18, 1, 1 + k },
			       16);
			c.sizes[0] = sc->size[k];
			c.id = (uint16_t)k;
			CHECK(sl_stream_build(&s[k], &c, 1518, err, sizeof(err)) == 0, "%s", err);
			CHECK(s[k].lean, "shared case %u: not on the lean path", ci);
		}
		snprintf(name, sizeof(name), "t_rawm%u", ci);
		mp = sl_stream_pool_create(&s[sc->size[1] > sc->size[0]], name, 127, SOCKET_ID_ANY);
		CHECK(mp != NULL, "pool");
		copy = RTE_ALIGN_CEIL(RTE_MAX(s[0].hdr_len, s[1].hdr_len), SL_GEN_COPY_ALIGN);
		CHECK(copy == (sc->vlan ? 128 : 64), "shared case %u: copy_len %u", ci, copy);
		for (int k = 0; k < 2; k++) {
			g[k].mp = mp;
			g[k].copy_len = copy;
			g[k].copy_plain = sc->size[0] == sc->size[1];
		}
		for (int b = 0; b < 40 && ret == 0; b++) {
			int k = (b * 7 / 3) & 1; /* irregular turns */
			uint16_t len = s[k].sz[0].pkt_len;

			CHECK(sl_gen_burst(&g[k], pk, 32, rte_rdtsc()) == 32, "burst %d", b);
			for (int i = 0; i < 32 && ret == 0; i++, fr[k]++)
				ret = raw_frame_ok(pk[i], &s[k], RTE_IPV4(198u, 18, 1, 1 + k),
						   fr[k] % sc->flows, fr[k], len);
			rte_pktmbuf_free_bulk(pk, 32);
		}
		rte_mempool_free(mp);
	}
	if (ret == 0)
		NOTE("%u lean streams and %u pools shared by two streams: every frame's checksums, "
		     "flow, signature and mbuf fields right after raw recycling",
		     (unsigned int)RTE_DIM(cases), (unsigned int)RTE_DIM(shared));
	free(s);
	return ret;
}

/*
 * The lean path against the generic one: the same stream compiled once,
 * sent with s->lean and with it cleared, must give the same bytes, the
 * same place in the frame order and the same sequence numbers.
 */
SL_TEST(gen_lean_equals_generic, "fast")
{
	static const struct { uint32_t flows; uint16_t size, vlan; bool v6, nosig; uint16_t P; } cs[] = {
		{ 1, 64, 0, false, false, 1 }, { 1, 67, 0, false, false, 1 },
		{ 100, 64, 0, false, false, 3 }, { 100, 67, 42, false, false, 5 },
		{ 7, 200, 0, true, false, 2 }, { 7, 201, 7, true, false, 9 },
		{ 1000, 128, 0, false, true, 4 },
	};
	struct sl_stream *s = malloc(2 * sizeof(*s));
	int ret = 0;

	CHECK(s != NULL, "out of memory");

	for (unsigned int ci = 0; ci < RTE_DIM(cs) && ret == 0; ci++) {
		struct sl_stream_conf c = {
			.src_ip = RTE_IPV4(198u, 18, 0, 1), .dst_ip = RTE_IPV4(198u, 18, 0, 2),
			.src_port = 1000, .dst_port = 9, .flows = cs[ci].flows, .nb_sizes = 1,
			.sizes = { cs[ci].size }, .vlan = cs[ci].vlan, .ipv6 = cs[ci].v6,
			.nosig = cs[ci].nosig, .id = 5,
			.src_ip6 = { 0x20, 1, 0, 2, [15] = 1 }, .dst_ip6 = { 0x20, 1, 0, 2, [15] = 2 },
		};
		char err[160], n0[32], n1[32];
		struct rte_mempool *mp[2];

		CHECK(sl_stream_build(&s[0], &c, 1518, err, sizeof(err)) == 0, "%s", err);
		CHECK(s[0].lean, "case %u not lean", ci);
		memcpy(&s[1], &s[0], sizeof(s[0]));
		s[1].lean = false; /* the generic path */
		snprintf(n0, sizeof(n0), "t_lg%u_0", ci);
		snprintf(n1, sizeof(n1), "t_lg%u_1", ci);
		mp[0] = sl_stream_pool_create(&s[0], n0, 255, SOCKET_ID_ANY);
		mp[1] = sl_stream_pool_create(&s[1], n1, 255, SOCKET_ID_ANY);
		for (uint16_t k = 0; k < cs[ci].P && ret == 0; k++) {
			struct sl_gen g[2] = { { .s = &s[0], .mp = mp[0], .producer = (uint8_t)k },
					       { .s = &s[1], .mp = mp[1], .producer = (uint8_t)k } };
			struct rte_mbuf *a[32], *b[32];

			sl_gen_share(&g[0], k, cs[ci].P);
			sl_gen_share(&g[1], k, cs[ci].P);
			for (int r = 0; r < 30 && ret == 0; r++) {
				uint64_t tsc = rte_rdtsc();

				CHECK(sl_gen_burst(&g[0], a, 32, tsc) == 32, "lean burst");
				CHECK(sl_gen_burst(&g[1], b, 32, tsc) == 32, "generic burst");
				for (int i = 0; i < 32 && ret == 0; i++)
					CHECK(a[i]->pkt_len == b[i]->pkt_len &&
					      memcmp(rte_pktmbuf_mtod(a[i], void *),
						     rte_pktmbuf_mtod(b[i], void *), a[i]->pkt_len) == 0,
					      "case %u producer %u burst %d frame %d differs", ci, k, r, i);
				CHECK(memcmp(&g[0].cur, &g[1].cur, sizeof(g[0].cur)) == 0 ||
				      s[0].flows == 1, "case %u: cur differs", ci);
				CHECK(g[0].seq == g[1].seq, "case %u: seq differs", ci);
				rte_pktmbuf_free_bulk(a, 32);
				rte_pktmbuf_free_bulk(b, 32);
			}
		}
		rte_mempool_free(mp[0]);
		rte_mempool_free(mp[1]);
	}
	if (ret == 0)
		NOTE("%u lean streams (IPv4, IPv6, VLAN, odd sizes, 1 to 1000 flows, 1 to 9 producers):"
		     " every frame byte for byte the generic path's, its place and sequence too",
		     (unsigned int)RTE_DIM(cs));
	free(s);
	return ret;
}

/*
 * The classic headers are a preset of the one header model: a classic
 * stream (--vlan, --ipv6, --tcp, a classic field) sends, byte for byte,
 * the frames of the stack sl_stream_conf_hdrs() says it is, with its
 * field named by its path, though the two take different bursts (the
 * classic one patches partial sums, the stack's sums every frame). TCP:
 * the classic burst numbers its segments, the stack's does not, so there
 * the sequence number and the checksum are left out of the comparison.
 */
SL_TEST(gen_preset_is_the_stack, "fast")
{
	static const struct {
		uint16_t vlan; bool v6, tcp; uint16_t sizes[3], nb; enum sl_field_kind fk;
		const char *path, *text; uint16_t P;
	} cs[] = {
		{ 0, false, false, { 64 }, 1, SL_FIELD_DST_PORT, "udp.dport", "eth/ipv4/udp", 1 },
		{ 42, false, false, { 64, 594, 1518 }, 3, SL_FIELD_DST_IP, "ipv4.dst",
		  "eth/vlan(id=42)/ipv4/udp", 3 },
		{ 0, true, false, { 99, 200 }, 2, SL_FIELD_SRC_PORT, "udp.sport", "eth/ipv6/udp", 2 },
		{ 7, true, false, { 128 }, 1, SL_FIELD_VLAN, "vlan.id", "eth/vlan(id=7)/ipv6/udp", 1 },
		{ 0, false, true, { 64 }, 1, SL_FIELD_SRC_IP, "ipv4.src", "eth/ipv4/tcp", 4 },
		{ 5, true, true, { 300 }, 1, SL_FIELD_DST_PORT, "tcp.dport", "eth/vlan(id=5)/ipv6/tcp",
		  2 },
	};
	struct sl_stream *s = malloc(2 * sizeof(*s));
	unsigned int frames = 0;
	int ret = 0;

	CHECK(s != NULL, "out of memory");
	for (unsigned int ci = 0; ci < RTE_DIM(cs) && ret == 0; ci++) {
		struct sl_stream_conf c = {
			.src_ip = RTE_IPV4(198u, 18, 0, 1), .dst_ip = RTE_IPV4(198u, 18, 0, 2),
			.src_port = 1000, .dst_port = 9, .vlan = cs[ci].vlan, .ipv6 = cs[ci].v6,
			.tcp = cs[ci].tcp, .nb_sizes = cs[ci].nb, .id = 3,
			.src_mac = { { 2, 0, 0, 0, 0, 1 } }, .dst_mac = { { 2, 0, 0, 0, 0, 2 } },
			.src_ip6 = { 0x20, 1, 0, 2, [15] = 1 }, .dst_ip6 = { 0x20, 1, 0, 2, [15] = 2 },
			.nb_fields = 1,
			.fields = { { .kind = cs[ci].fk, .mode = SL_FIELD_INC, .count = 5,
				      .start = cs[ci].fk == SL_FIELD_SRC_IP || cs[ci].fk == SL_FIELD_DST_IP ?
				      RTE_IPV4(198u, 18, 1, 1) : 2 } },
		};
		struct sl_stream_conf k;
		char err[256], text[SL_STACK_TEXT_MAX], n0[32], n1[32];
		struct rte_mempool *mp[2];
		int hl;

		memcpy(c.sizes, cs[ci].sizes, sizeof(cs[ci].sizes));
		k = c;
		CHECK(sl_stream_conf_hdrs(&c, &k.hdrs, err, sizeof(err)) == 0, "case %u: %s", ci, err);
		CHECK(sl_stack_str(&k.hdrs, text, sizeof(text)) > 0 && strcmp(text, cs[ci].text) == 0,
		      "case %u: the preset is %s, want %s", ci, text, cs[ci].text);
		k.vlan = 0;
		k.tcp = k.ipv6 = false;
		k.fields[0].kind = SL_FIELD_PATH;
		snprintf(k.fields[0].path, sizeof(k.fields[0].path), "%s", cs[ci].path);
		CHECK(sl_stream_build(&s[0], &c, 1518, err, sizeof(err)) == 0, "case %u: %s", ci, err);
		CHECK(sl_stream_build(&s[1], &k, 1518, err, sizeof(err)) == 0, "case %u stack: %s",
		      ci, err);
		CHECK(!s[0].stacked && s[1].stacked, "case %u: the classic stream took the stack's "
		      "burst, or the stack the classic one", ci);
		hl = sl_stream_conf_hdr_len(&c);
		CHECK(hl == s[0].hdr_len && hl == s[1].hdr_len && hl == sl_stream_conf_hdr_len(&k),
		      "case %u: headers %d bytes, compiled %u and %u", ci, hl, s[0].hdr_len,
		      s[1].hdr_len);
		snprintf(n0, sizeof(n0), "t_ps%u_0", ci);
		snprintf(n1, sizeof(n1), "t_ps%u_1", ci);
		mp[0] = sl_stream_pool_create(&s[0], n0, 255, SOCKET_ID_ANY);
		mp[1] = sl_stream_pool_create(&s[1], n1, 255, SOCKET_ID_ANY);
		CHECK(mp[0] != NULL && mp[1] != NULL, "pools");
		for (uint16_t p = 0; p < cs[ci].P && ret == 0; p++) {
			struct sl_gen g[2] = { { .s = &s[0], .mp = mp[0], .producer = (uint8_t)p },
					       { .s = &s[1], .mp = mp[1], .producer = (uint8_t)p } };
			struct rte_mbuf *a[32], *b[32];

			sl_gen_share(&g[0], p, cs[ci].P);
			sl_gen_share(&g[1], p, cs[ci].P);
			for (int r = 0; r < 8 && ret == 0; r++) {
				uint64_t tsc = rte_rdtsc();

				CHECK(sl_gen_burst(&g[0], a, 32, tsc) == 32, "classic burst");
				CHECK(sl_gen_burst(&g[1], b, 32, tsc) == 32, "stack burst");
				for (unsigned int i = 0; i < 32 && ret == 0; i++, frames++) {
					uint8_t x[1518], y[1518];
					uint16_t l4 = s[0].l4_off;

					CHECK(a[i]->pkt_len == b[i]->pkt_len, "case %u: lengths", ci);
					memcpy(x, rte_pktmbuf_mtod(a[i], void *), a[i]->pkt_len);
					memcpy(y, rte_pktmbuf_mtod(b[i], void *), b[i]->pkt_len);
					if (cs[ci].tcp) {
						memset(x + l4 + 4, 0, 4);
						memset(x + l4 + 16, 0, 2);
						memset(y + l4 + 16, 0, 2);
					}
					CHECK(memcmp(x, y, a[i]->pkt_len) == 0, "case %u (%s) producer "
					      "%u burst %d frame %u differs", ci, cs[ci].text, p, r, i);
				}
				rte_pktmbuf_free_bulk(a, 32);
				rte_pktmbuf_free_bulk(b, 32);
			}
		}
		rte_mempool_free(mp[0]);
		rte_mempool_free(mp[1]);
	}
	if (ret == 0)
		NOTE("%u classic streams (IPv4, IPv6, VLAN, UDP, TCP, a field each): %u frames "
		     "byte for byte their preset stack's", (unsigned int)RTE_DIM(cs), frames);
	free(s);
	return ret;
}
