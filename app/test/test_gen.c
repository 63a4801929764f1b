/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stream's frame order shared by its producers (sl_gen_share(),
 * sl_gen_step(), sl_gen_tcp_seq()), against a reference written from the
 * definition in sl_gen.h with divisions: frame g is flow g mod N, round
 * g / N, size order[(flow + round) mod L]; producer k of P sends frames
 * k, k + P, ...; a TCP frame's sequence number is the payload its flow
 * sent before it; an inc field's index is g mod count.
 */

#include <stdlib.h>

#include <rte_ip.h>

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
