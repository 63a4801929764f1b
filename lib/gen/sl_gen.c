/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Stream compilation: header layout, per-size partial checksums, the size
 * order, template pools, pacers.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "sl_gen.h"
#include "sl_clock.h"


/* What a stack's headers take from the flow where it gives nothing. */
static void
stack_defaults(const struct sl_stream_conf *c, struct sl_stack_defaults *d)
{
	memset(d, 0, sizeof(*d));
	d->src_mac = c->src_mac;
	d->dst_mac = c->dst_mac;
	d->src_ip = c->src_ip;
	d->dst_ip = c->dst_ip;
	memcpy(d->src_ip6, c->src_ip6, 16);
	memcpy(d->dst_ip6, c->dst_ip6, 16);
	d->src_port = c->src_port;
	d->dst_port = c->dst_port;
}

int
sl_stream_conf_hdrs(const struct sl_stream_conf *c, struct sl_hdrs *h, char *err, size_t len)
{
	char id[8];

	if (c->hdrs.n != 0) {
		*h = c->hdrs;
		return 0;
	}
	memset(h, 0, sizeof(*h));
	snprintf(id, sizeof(id), "%u", c->vlan);
	if (sl_hdrs_push(h, "eth", err, len) != 0 ||
	    (c->vlan != 0 && (sl_hdrs_push(h, "vlan", err, len) != 0 ||
			      sl_hdrs_set(h, "id", id, err, len) != 0)) ||
	    sl_hdrs_push(h, c->ipv6 ? "ipv6" : "ipv4", err, len) != 0 ||
	    sl_hdrs_push(h, c->tcp ? "tcp" : "udp", err, len) != 0)
		return -EINVAL;
	return 0;
}

int
sl_stream_conf_hdr_len(const struct sl_stream_conf *c)
{
	uint8_t tmpl[SL_STACK_HDR_MAX + 16];
	struct sl_stack_defaults d;
	struct sl_stack_rt rt;
	struct sl_hdrs h;
	uint16_t hl;
	char err[8];

	if (sl_stream_conf_hdrs(c, &h, err, sizeof(err)) != 0)
		return -EINVAL;
	/*
	 * The preset's layout alone: a flow-table check asks it of every flow
	 * at each edit, and the preset always compiles (its VLAN id checked).
	 */
	if (c->hdrs.n == 0)
		return sl_hdrs_len(&h);
	stack_defaults(c, &d);
	if (sl_stack_compile(&h, &d, tmpl, &hl, &rt, err, sizeof(err)) != 0)
		return -EINVAL;
	return hl;
}

/*
 * The headers of a pkt_len-byte frame into buf: the template's (which the
 * compiler laid), with their lengths; checksums as the template has them.
 */
static void
stream_headers(const struct sl_stream *s, uint8_t *buf, uint16_t pkt_len)
{
	if (buf != s->tmpl)
		memcpy(buf, s->tmpl, s->hdr_len);
	for (uint8_t i = 0; i < s->st.nb_len; i++)
		*(unaligned_uint16_t *)(buf + s->st.len[i].off) =
			rte_cpu_to_be_16((uint16_t)(pkt_len - s->st.len[i].sub));
}

/*
 * Partial sums of one size. The varying fields (the low 32 bits of the
 * source address, the source port) are zeroed before summing; the burst
 * adds them back, with the signature. The payload is zero in the template.
 */
static void
stream_size(struct sl_stream *s, uint16_t frame, struct sl_stream_size *sz)
{
	uint8_t hdr[SL_STACK_HDR_MAX];
	uint16_t pkt_len = frame - RTE_ETHER_CRC_LEN, l4_len = pkt_len - s->l4_off;
	uint32_t sum;

	stream_headers(s, hdr, pkt_len);
	sz->pkt_len = pkt_len;
	sz->ip_len = *(unaligned_uint16_t *)(hdr + s->ip_len_off);
	sz->l4_len = s->tcp ? 0 : rte_cpu_to_be_16(l4_len);
	sz->sig = pkt_len >= s->hdr_len + SL_SIG_LEN && !s->nosig;
	sz->sig_odd = (pkt_len - SL_SIG_LEN - s->l4_off) & 1;
	sz->l1_bits = (pkt_len + SL_WIRE_OVERHEAD) * 8;
	sz->l2_bits = (pkt_len + SL_WIRE_FCS) * 8;
	memset(hdr + s->sip_off, 0, 4);
	memset(hdr + s->sport_off, 0, 2);
	for (uint16_t i = 0; i < s->nb_fields; i++)
		if (s->fields[i].ip_sum || s->fields[i].l4_sum)
			memset(hdr + s->fields[i].off, 0, s->fields[i].width);
	sz->ip_sum = s->ipv6 ? 0 : rte_raw_cksum(hdr + s->l3_off, sizeof(struct rte_ipv4_hdr));
	/* Pseudo-header: addresses (low source bits zeroed), protocol, length. */
	sum = rte_raw_cksum(hdr + s->l3_off + (s->ipv6 ? 8 : 12), s->ipv6 ? 32 : 8);
	sum += rte_cpu_to_be_16(l4_len) + rte_cpu_to_be_16(s->tcp ? IPPROTO_TCP : IPPROTO_UDP);
	sum += rte_raw_cksum(hdr + s->l4_off, s->hdr_len - s->l4_off);
	sz->l4_sum = sum;
}

const char *const sl_field_names[SL_FIELD_KINDS] = {
	"src-mac", "dst-mac", "src-ip", "dst-ip", "src-port", "dst-port", "vlan",
};

const char *const sl_field_modes[] = { "inc", "dec", "random", "list", NULL };

/* A classic field's header field in the preset (sl_stream_conf_hdrs()). */
static const char *
classic_path(const struct sl_stream_conf *c, enum sl_field_kind k)
{
	switch (k) {
	case SL_FIELD_SRC_MAC:
		return "eth.src";
	case SL_FIELD_DST_MAC:
		return "eth.dst";
	case SL_FIELD_SRC_IP:
		return c->ipv6 ? "ipv6.src" : "ipv4.src";
	case SL_FIELD_DST_IP:
		return c->ipv6 ? "ipv6.dst" : "ipv4.dst";
	case SL_FIELD_SRC_PORT:
		return c->tcp ? "tcp.sport" : "udp.sport";
	case SL_FIELD_DST_PORT:
		return c->tcp ? "tcp.dport" : "udp.dport";
	default:
		return "vlan.id";
	}
}

/*
 * A classic field (src-ip, vlan, ...): its place is a header field of the
 * preset; what is its own is its name, the rules the classic options
 * keep (a MAC's low 3 bytes, VLAN ids 1..4094, no flows on what --flows
 * varies) and that its values stay in the field's range (a stack's wrap).
 */
static int
classic_field(struct sl_stream *s, const struct sl_stream_conf *c, const struct sl_hdrs *h,
	      const struct sl_field_conf *fc, struct sl_stack_field *sf, uint32_t *max,
	      struct sl_stream_err *e)
{
	const char *name;

	if (fc->kind == SL_FIELD_PATH) {
		snprintf(e->msg, sizeof(e->msg), "field %s: a header's field by its path needs "
			 "a header stack (stack eth/ipv4/udp ...); the classic headers' fields "
			 "are src-mac, dst-mac, src-ip, dst-ip, src-port, dst-port, vlan",
			 fc->path);
		return -EINVAL;
	}
	if ((unsigned int)fc->kind >= SL_FIELD_KINDS) {
		snprintf(e->msg, sizeof(e->msg), "field: unknown field");
		return -EINVAL;
	}
	name = sl_field_names[fc->kind];
	if (fc->kind == SL_FIELD_VLAN && c->vlan == 0) {
		snprintf(e->msg, sizeof(e->msg), "field vlan: the frames have no VLAN tag: give one (--vlan ID, or set vlan PORT ID at the prompt)");
		return -EINVAL;
	}
	if ((fc->kind == SL_FIELD_SRC_IP || fc->kind == SL_FIELD_SRC_PORT) && c->flows > 1) {
		snprintf(e->msg, sizeof(e->msg), "field %s: the flows (--flows, set flows) already vary it", name);
		return -EINVAL;
	}
	if (sl_stack_field_find(h, classic_path(c, fc->kind), sf, e->msg, sizeof(e->msg)) != 0)
		return -EINVAL;
	if (sf->big == 6) {
		/* A MAC's low 3 bytes, in no checksum. */
		sf->off += 1;
		sf->win = 3;
		sf->bits = 24;
		sf->big = 0;
	}
	*max = fc->kind == SL_FIELD_VLAN ? 4094 : sf->bits == 32 ? UINT32_MAX :
	       (1u << sf->bits) - 1;
	s->fields[s->nb_fields].ip_sum = !c->ipv6 && (fc->kind == SL_FIELD_SRC_IP ||
						      fc->kind == SL_FIELD_DST_IP);
	s->fields[s->nb_fields].l4_sum = fc->kind >= SL_FIELD_SRC_IP && fc->kind <= SL_FIELD_DST_PORT;
	return 0;
}

/* A field's name as its flow gives it. */
static const char *
field_name(const struct sl_field_conf *fc)
{
	return fc->kind == SL_FIELD_PATH ? fc->path : (unsigned int)fc->kind < SL_FIELD_KINDS ?
	       sl_field_names[fc->kind] : "?";
}

/*
 * The field engine, one check for every header model: each field a place
 * in the stack's headers (sl_stack_field_find(); the preset's for the
 * classic names), no two on one bit, its values in the field's range.
 */
static int
stream_fields(struct sl_stream *s, const struct sl_stream_conf *c, const struct sl_hdrs *h,
	      struct sl_stream_err *e)
{
	e->part = SL_STREAM_PART_FIELD;
	if (c->nb_fields > SL_FIELD_MAX) {
		snprintf(e->msg, sizeof(e->msg), "field: at most %d fields", SL_FIELD_MAX);
		return -EINVAL;
	}
	for (s->nb_fields = 0; s->nb_fields < c->nb_fields; s->nb_fields++) {
		const uint16_t i = s->nb_fields;
		const struct sl_field_conf *fc = &c->fields[i];
		struct sl_stream_field *f = &s->fields[i];
		const char *name = field_name(fc);
		bool classic = !s->stacked;
		struct sl_stack_field sf;
		uint32_t max;
		uint64_t span;

		memset(f, 0, sizeof(*f));
		if (classic) {
			if (classic_field(s, c, h, fc, &sf, &max, e) != 0)
				return -EINVAL;
		} else {
			if (fc->kind != SL_FIELD_PATH) {
				snprintf(e->msg, sizeof(e->msg), "field %s: with a header stack, name "
					 "the header's field (such as ipv4.src, udp.sport, vlan.id)",
					 name);
				return -EINVAL;
			}
			if (sl_stack_field_find(h, fc->path, &sf, e->msg, sizeof(e->msg)) != 0)
				return -EINVAL;
			max = sf.bits == 32 ? UINT32_MAX : (1u << sf.bits) - 1;
		}
		for (uint16_t j = 0; j < i; j++) {
			/* The bits each writes, from the frame's start: no two may share one. */
			const struct sl_stream_field *g = &s->fields[j];
			uint32_t a0 = sf.off * 8u + sf.win * 8u - sf.shift - sf.bits, a1 = a0 + sf.bits;
			uint32_t b0 = g->off * 8u + g->width * 8u - g->shift - g->bits, b1 = b0 + g->bits;

			if (a0 < b1 && b0 < a1) {
				if (classic && strcmp(name, field_name(&c->fields[j])) == 0)
					snprintf(e->msg, sizeof(e->msg), "field %s: given twice", name);
				else
					snprintf(e->msg, sizeof(e->msg), "field %s: its bits are another "
						 "field's (%s): give one of them", name,
						 field_name(&c->fields[j]));
				return -EINVAL;
			}
		}
		f->off = sf.off;
		f->width = sf.win;
		f->shift = sf.shift;
		f->bits = sf.bits;
		f->mode = fc->mode;
		f->start = fc->start;
		if (fc->mode == SL_FIELD_LIST) {
			if (fc->nb_list == 0 || fc->nb_list > SL_FIELD_LIST_MAX) {
				snprintf(e->msg, sizeof(e->msg), "field %s: give 1..%d values", name,
					 SL_FIELD_LIST_MAX);
				return -EINVAL;
			}
			f->count = fc->nb_list;
			for (uint16_t k = 0; k < fc->nb_list; k++) {
				if (classic && fc->kind == SL_FIELD_VLAN &&
				    (fc->list[k] == 0 || fc->list[k] > max)) {
					snprintf(e->msg, sizeof(e->msg), "field vlan: id %u in the list: "
						 "VLAN ids go from 1 to 4094", fc->list[k]);
					return -EINVAL;
				}
				if (fc->list[k] > max && classic) {
					snprintf(e->msg, sizeof(e->msg), "field %s: value %u out of "
						 "range", name, fc->list[k]);
					return -EINVAL;
				}
				if (fc->list[k] > max) {
					snprintf(e->msg, sizeof(e->msg), "field %s: value %u is above "
						 "the field's %u bits", name, fc->list[k], sf.bits);
					return -EINVAL;
				}
				f->list[k] = fc->list[k];
			}
			continue;
		}
		f->count = fc->count;
		f->step = fc->step > 1 && fc->mode != SL_FIELD_RANDOM ? fc->step : 1;
		span = fc->count != 0 ? (uint64_t)(fc->count - 1) * f->step : 0;
		/* VLAN: one rule for every mode, ids 1..4094 (0 is "priority tag only"). */
		if (classic && fc->kind == SL_FIELD_VLAN && fc->count != 0 &&
		    (fc->mode == SL_FIELD_DEC ?
		     fc->start > max || span >= fc->start :
		     fc->start == 0 || (uint64_t)fc->start + span > max)) {
			int64_t last = fc->mode == SL_FIELD_DEC ?
				(int64_t)fc->start - (int64_t)span :
				(int64_t)(fc->start + span);

			snprintf(e->msg, sizeof(e->msg), "field vlan: %s:%u,%u gives ids %u to %" PRId64
				 ": VLAN ids go from 1 to 4094", sl_field_modes[fc->mode],
				 fc->start, fc->count, fc->start, last);
			return -EINVAL;
		}
		/* The classic names keep their range: no wrap. */
		if (classic && (fc->count == 0 || fc->start > max ||
				(fc->mode == SL_FIELD_DEC ? span > fc->start :
				 (uint64_t)fc->start + span > max))) {
			snprintf(e->msg, sizeof(e->msg), "field %s: %u values from %u leave the "
				 "field's range", name, fc->count, fc->start);
			return -EINVAL;
		}
		if (fc->count == 0 || fc->start > max) {
			snprintf(e->msg, sizeof(e->msg), "field %s: give a count of 1 or more and a "
				 "start within the field's %u bits", name, sf.bits);
			return -EINVAL;
		}
		/*
		 * A stack's values past the field's width wrap modulo 2^bits,
		 * as OTG's patterns and every generator's do (the engine writes
		 * the low bits). A MAC's or an IPv6 address's low 32 bits would
		 * wrap without carrying into its high bytes: refused, not
		 * silently different.
		 */
		if (sf.big != 0 &&
		    (fc->mode == SL_FIELD_DEC ? span > fc->start :
		     (uint64_t)fc->start + span > UINT32_MAX)) {
			snprintf(e->msg, sizeof(e->msg), "field %s: %u values from %u cross the "
				 "address's low 32 bits (a carry into its high bytes is not "
				 "supported): give fewer, or start lower", name, fc->count,
				 fc->start);
			return -EINVAL;
		}
	}
	return 0;
}

/* A stack's frame of one size: its length, whether a signature fits, its bits. */
static void
stack_size(const struct sl_stream *s, uint16_t frame, struct sl_stream_size *sz)
{
	uint16_t pkt_len = frame - RTE_ETHER_CRC_LEN;

	memset(sz, 0, sizeof(*sz));
	sz->pkt_len = pkt_len;
	sz->sig = pkt_len >= s->hdr_len + SL_SIG_LEN && !s->nosig;
	sz->l1_bits = (pkt_len + SL_WIRE_OVERHEAD) * 8;
	sz->l2_bits = (pkt_len + SL_WIRE_FCS) * 8;
}

/*
 * Compile the stream's headers, a stack or the classic preset, with the
 * one compiler (sl_stack_compile()), then its fields.
 */
static int
stream_headers_compile(struct sl_stream *s, const struct sl_stream_conf *c,
		       struct sl_stream_err *e)
{
	struct sl_stack_defaults d;
	struct sl_hdrs h;
	uint16_t hl;

	stack_defaults(c, &d);
	e->part = SL_STREAM_PART_STACK;
	if (c->hdrs.n != 0 && c->flows > 1) {
		snprintf(e->msg, sizeof(e->msg), "flows %u varies the classic headers: with a stack, "
			 "vary a header's field (field ipv4.src=inc:198.18.0.1,%u)", c->flows,
			 c->flows);
		return -EINVAL;
	}
	if (c->hdrs.n != 0 && c->vlan != 0) {
		snprintf(e->msg, sizeof(e->msg), "vlan %u with a stack: put the tag in the stack "
			 "(eth/vlan(id=%u)/...)", c->vlan, c->vlan);
		return -EINVAL;
	}
	if (sl_stream_conf_hdrs(c, &h, e->msg, sizeof(e->msg)) != 0 ||
	    sl_stack_compile(&h, &d, s->tmpl, &hl, &s->st, e->msg, sizeof(e->msg)) != 0)
		return -EINVAL;
	if (c->hdrs.n != 0) {
		s->stacked = true;
		s->ipv6 = false;
		s->tcp = false;
		s->hdr_len = hl;
	} else if (hl != s->hdr_len) {
		snprintf(e->msg, sizeof(e->msg), "the classic headers laid in %u bytes, not %u",
			 hl, s->hdr_len);
		return -EINVAL;
	}
	return stream_fields(s, c, &h, e);
}

/* Smooth weighted round robin: each size weight[i] times per cycle, spread out. */
static int
stream_order_weighted(struct sl_stream *s, const uint16_t *weights, uint16_t n)
{
	int32_t cur[SL_GEN_MAX_SIZES] = { 0 };
	uint32_t total = 0;

	for (uint16_t i = 0; i < n; i++)
		total += weights[i] != 0 ? weights[i] : 1;
	if (total > SL_GEN_MAX_ORDER)
		return -EINVAL;
	for (uint32_t k = 0; k < total; k++) {
		uint16_t best = 0;

		for (uint16_t i = 0; i < n; i++) {
			cur[i] += weights[i] != 0 ? weights[i] : 1;
			if (cur[i] > cur[best])
				best = i;
		}
		cur[best] -= (int32_t)total;
		s->order[k] = best;
	}
	s->nb_order = total;
	return 0;
}

/* Every index once, in a fixed pseudo-random order (xorshift, fixed seed). */
static void
stream_order_shuffled(struct sl_stream *s, uint16_t n)
{
	uint32_t x = 0x51ce51ce;

	for (uint16_t i = 0; i < n; i++)
		s->order[i] = i;
	for (uint16_t i = n - 1; i > 0; i--) {
		uint16_t j, t;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		j = x % (i + 1u);
		t = s->order[i];
		s->order[i] = s->order[j];
		s->order[j] = t;
	}
	s->nb_order = n;
}

int
sl_stream_build(struct sl_stream *s, const struct sl_stream_conf *c, uint16_t max_frame,
		char *err, size_t errlen)
{
	struct sl_stream_err e;
	int ret = sl_stream_compile(s, c, max_frame, &e);

	if (ret != 0)
		snprintf(err, errlen, "%s", e.msg);
	return ret;
}

int
sl_stream_compile(struct sl_stream *s, const struct sl_stream_conf *c, uint16_t max_frame,
		  struct sl_stream_err *e)
{
	uint16_t min_frame, nb;
	uint32_t be;

	/* All but the sizes (large: each size used is set whole below). */
	RTE_BUILD_BUG_ON(offsetof(struct sl_stream, fields) !=
			 offsetof(struct sl_stream, sz) + sizeof(s->sz));
	memset(s, 0, offsetof(struct sl_stream, sz));
	memset(s->fields, 0, sizeof(*s) - offsetof(struct sl_stream, fields));
	s->id = c->id;
	s->nosig = c->nosig;
	s->ipv6 = c->ipv6;
	s->tcp = c->tcp;
	s->l3_off = RTE_ETHER_HDR_LEN + (c->vlan != 0 ? sizeof(struct rte_vlan_hdr) : 0);
	s->l4_off = s->l3_off + (c->ipv6 ? sizeof(struct rte_ipv6_hdr) :
					   sizeof(struct rte_ipv4_hdr));
	s->hdr_len = s->l4_off + (c->tcp ? sizeof(struct rte_tcp_hdr) : sizeof(struct rte_udp_hdr));
	s->ip_len_off = s->l3_off + (c->ipv6 ? 4 : 2);
	s->ip_csum_off = s->l3_off + 10;
	s->sip_off = s->l3_off + (c->ipv6 ? 8 + 12 : 12);
	s->sport_off = s->l4_off;
	s->l4_len_off = s->l4_off + 4;
	s->l4_csum_off = s->l4_off + (c->tcp ? 16 : 6);
	if (c->vlan > 4094) {
		e->part = SL_STREAM_PART_VLAN;
		snprintf(e->msg, sizeof(e->msg), "VLAN id %u: give 1..4094", c->vlan);
		return -EINVAL;
	}
	if (stream_headers_compile(s, c, e) != 0)
		return -EINVAL;
	e->part = SL_STREAM_PART_SIZE;
	min_frame = RTE_MAX(SL_GEN_MIN_FRAME, s->hdr_len + RTE_ETHER_CRC_LEN);
	/* The MTU counts from the IP header: a VLAN tag adds 4 B to the frame it allows. */
	if (c->vlan != 0)
		max_frame += sizeof(struct rte_vlan_hdr);
	/* A stack's tags and labels too (the MTU is the outer IP packet's). */
	if (s->stacked)
		max_frame += 4 * s->st.extra_tags;
	if (max_frame > SL_GEN_MAX_FRAME)
		max_frame = SL_GEN_MAX_FRAME;

	if (c->size_max != 0) {
		if (c->size_min < min_frame || c->size_max > max_frame || c->size_min > c->size_max ||
		    c->size_max - c->size_min + 1 > SL_GEN_MAX_DISTINCT) {
			snprintf(e->msg, sizeof(e->msg),
				 "size range %u-%u: sizes count the FCS and go from %u (these headers) "
				 "to %u (the port's MTU + 18%s; --mtu or port config <p> mtu sets it), at most %d sizes",
				 c->size_min, c->size_max, min_frame, max_frame,
				 c->vlan != 0 ? ", + 4 for the VLAN tag" : "", SL_GEN_MAX_DISTINCT);
			return -EINVAL;
		}
		{
			uint16_t step = c->size_step != 0 ? c->size_step : 1;

			nb = (c->size_max - c->size_min) / step + 1;
			for (uint16_t i = 0; i < nb; i++)
				if (s->stacked)
					stack_size(s, c->size_min + i * step, &s->sz[i]);
				else
					stream_size(s, c->size_min + i * step, &s->sz[i]);
			if (c->size_step == 0) {
				stream_order_shuffled(s, nb);
			} else {
				/* An increment: ascending, each once a cycle. */
				for (uint16_t i = 0; i < nb; i++)
					s->order[i] = i;
				s->nb_order = nb;
			}
		}
	} else {
		if (c->nb_sizes == 0 || c->nb_sizes > SL_GEN_MAX_SIZES) {
			snprintf(e->msg, sizeof(e->msg), "give between 1 and %d frame sizes", SL_GEN_MAX_SIZES);
			return -EINVAL;
		}
		nb = c->nb_sizes;
		for (uint16_t i = 0; i < nb; i++) {
			if (c->sizes[i] < min_frame || c->sizes[i] > max_frame) {
				snprintf(e->msg, sizeof(e->msg),
					 "frame size %u is out of range: sizes count the FCS and go "
					 "from %u (these headers) to %u (the port's MTU + 18%s; --mtu or "
					 "port config <p> mtu sets it)", c->sizes[i], min_frame, max_frame,
					 c->vlan != 0 ? ", + 4 for the VLAN tag" : "");
				return -EINVAL;
			}
			if (s->stacked)
				stack_size(s, c->sizes[i], &s->sz[i]);
			else
				stream_size(s, c->sizes[i], &s->sz[i]);
		}
		if (stream_order_weighted(s, c->weights, nb) != 0) {
			snprintf(e->msg, sizeof(e->msg), "size weights add up to more than %d", SL_GEN_MAX_ORDER);
			return -EINVAL;
		}
	}
	s->nb_sizes = nb;
	/* TCP: payload bytes before each entry of the order, written twice. */
	for (uint32_t i = 0; i < 2u * s->nb_order; i++)
		s->tcp_pre[i + 1] = s->tcp_pre[i] + s->sz[s->order[i % s->nb_order]].pkt_len -
			s->hdr_len;
	s->tcp_cycle = s->tcp_pre[s->nb_order];
	s->min_len = UINT16_MAX;
	for (uint16_t i = 0; i < nb; i++) {
		s->max_len = RTE_MAX(s->max_len, s->sz[i].pkt_len);
		s->min_len = RTE_MIN(s->min_len, s->sz[i].pkt_len);
	}
	s->one_sz = s->sz[s->order[0]];

	if (s->stacked) {
		/* The template holds the headers; each frame gets its lengths and sums. */
		s->flows = 1;
		s->port_span = 1;
		s->sip_skip = UINT32_MAX;
		return 0;
	}
	/* Flows: source port first, then the (low 32 bits of the) source address. */
	s->flows = c->flows > 1 ? c->flows : 1;
	s->sport0 = c->src_port;
	s->port_span = RTE_MIN(s->flows, 65536u - c->src_port);
	if (c->ipv6)
		s->sip0 = rte_be_to_cpu_32(*(const unaligned_uint32_t *)(c->src_ip6 + 12));
	else
		s->sip0 = c->src_ip;
	/*
	 * The source addresses the flows walk never include the destination
	 * (a router drops a packet from its own destination as a martian): one
	 * above the user's source, it is skipped.
	 */
	s->sip_skip = UINT32_MAX;
	{
		uint32_t nb_addr = (s->flows - 1) / s->port_span + 1, dip;
		bool same_net = true;

		if (c->ipv6) {
			dip = rte_be_to_cpu_32(*(const unaligned_uint32_t *)(c->dst_ip6 + 12));
			same_net = memcmp(c->src_ip6, c->dst_ip6, 12) == 0;
		} else {
			dip = c->dst_ip;
		}
		if (same_net && dip > s->sip0 && (uint64_t)dip < (uint64_t)s->sip0 + nb_addr)
			s->sip_skip = dip - s->sip0;
		if ((uint64_t)s->sip0 + nb_addr - 1 + (s->sip_skip != UINT32_MAX) > UINT32_MAX) {
			e->part = SL_STREAM_PART_FLOWS;
			snprintf(e->msg, sizeof(e->msg), "%u flows from this source address would wrap it",
				 s->flows);
			return -EINVAL;
		}
	}
	be = rte_cpu_to_be_32(s->sip0);
	s->sip_sum0 = (be & 0xffff) + (be >> 16);
	s->sport_be0 = rte_cpu_to_be_16(s->sport0);
	/* A field that varies the source address or port adds its own value. */
	for (uint16_t i = 0; i < c->nb_fields; i++) {
		if (c->fields[i].kind == SL_FIELD_SRC_IP)
			s->sip_sum0 = 0;
		if (c->fields[i].kind == SL_FIELD_SRC_PORT)
			s->sport_be0 = 0;
	}

	/* The template: headers of the first size sent, zero payload up to the largest. */
	{
		const struct sl_stream_size *sz = &s->sz[s->order[0]];
		uint64_t sum = sz->l4_sum + s->sip_sum0 + s->sport_be0;

		stream_headers(s, s->tmpl, sz->pkt_len);
		if (!c->ipv6)
			*(unaligned_uint16_t *)(s->tmpl + s->ip_csum_off) =
				(uint16_t)~sl_csum_fold(sz->ip_sum + s->sip_sum0);
		*(unaligned_uint16_t *)(s->tmpl + s->l4_csum_off) = sl_csum_final(sum, c->tcp);
	}
	s->lean = s->nb_sizes == 1 && s->nb_order == 1 && s->nb_fields == 0 && !s->tcp &&
		  (s->flows == 1 || s->port_span >= s->flows);
	return 0;
}

int
sl_gen_share(struct sl_gen *g, uint16_t share, uint16_t nb_shares)
{
	const struct sl_stream *s = g->s;
	const uint64_t N = s->flows, L = s->nb_order, P = nb_shares;
	uint64_t r, dr;

	if (nb_shares == 0 || share >= nb_shares)
		return -EINVAL;
	g->nb_shares = nb_shares;
	/* Frame g = share: flow g mod N, round g / N, size entry (flow + round) mod L. */
	g->cur.flow = share % N;
	r = share / N;
	g->cur.rr = r % L;
	g->cur.rq = (uint32_t)(r / L);
	g->cur.pos = (g->cur.flow + r) % L;
	/* P frames on: the flow moves by P mod N, the round by P / N (+1 on a wrap). */
	g->w.flows = (uint32_t)N;
	g->w.L = (uint32_t)L;
	g->w.d_flow = P % N;
	dr = P / N;
	g->w.d_rr = dr % L;
	g->w.d_rq = (uint32_t)(dr / L);
	g->w.d_pos = (g->w.d_flow + dr) % L;
	g->w.d_pos_wrap = (L - (N - 1) % L) % L; /* a wrap takes N off the flow, adds 1 round */
	for (uint16_t i = 0; i < s->nb_fields; i++) {
		g->fidx[i] = share % s->fields[i].count;
		g->fstep[i] = nb_shares % s->fields[i].count;
	}
	return 0;
}

static void
stream_obj_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	const struct sl_stream *s = arg;
	struct rte_mbuf *m = obj;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	memcpy(rte_pktmbuf_mtod(m, void *), s->tmpl, s->max_len);
	m->data_len = s->sz[s->order[0]].pkt_len;
	m->pkt_len = m->data_len;
}

struct rte_mempool *
sl_stream_pool_create(const struct sl_stream *s, const char *name, unsigned int n, int socket_id)
{
	uint16_t room = RTE_MAX(RTE_MBUF_DEFAULT_BUF_SIZE, RTE_PKTMBUF_HEADROOM + s->max_len);
	struct rte_mempool *mp;

	mp = rte_pktmbuf_pool_create(name, n, RTE_MIN(256u, n / 4), 0, room, socket_id);
	if (mp == NULL)
		return NULL;
	rte_mempool_obj_iter(mp, stream_obj_init, (void *)(uintptr_t)s);
	return mp;
}

int
sl_pacer_init(struct sl_pacer *p, const struct sl_rate *r)
{
	double per, rate = r->value;

	memset(p, 0, sizeof(*p));
	p->unit = (uint8_t)r->unit;
	if (r->unit == SL_RATE_NONE)
		return 0;
	if (!(rate >= 1.0 && rate <= 1e13) || r->unit > SL_RATE_L2)
		return -EINVAL;
	per = (double)sl_tsc_hz() * 4294967296.0 / rate + 0.5;
	if (per >= 18446744073709551615.0)
		return -ERANGE; /* below about one unit per second on a fast TSC */
	p->per_unit = (uint64_t)per;
	sl_pacer_set_slack(p, 0, SL_PACER_CATCHUP_US);
	return 0;
}

void
sl_pacer_set_slack(struct sl_pacer *p, double units, uint64_t us)
{
	double burst = units * (double)p->per_unit / 65536.0; /* 1/65536 cycles */
	uint64_t floor = (us * sl_tsc_hz() / 1000000) << 16;

	p->slack = burst > (double)floor && burst < 0x1p62 ? (uint64_t)burst : floor;
	p->owe_max = ((uint64_t)SL_PACER_OWE_US * sl_tsc_hz() / 1000000) << 16;
	p->owed = RTE_MIN(p->owed, p->owe_max);
}

void
sl_stream_conf_mean_bits(const struct sl_stream_conf *c, double *l1, double *l2)
{
	double size = 0, w = 0;

	if (c->size_max != 0) {
		uint16_t step = c->size_step != 0 ? c->size_step : 1;

		/* The sizes sent: min, min + step, ..., the last at most max. */
		size = c->size_min + (double)((c->size_max - c->size_min) / step) * step / 2.0;
	} else {
		for (uint16_t i = 0; i < c->nb_sizes; i++) {
			double wi = c->weights[i] != 0 ? c->weights[i] : 1;

			size += c->sizes[i] * wi;
			w += wi;
		}
		size = w != 0 ? size / w : SL_WIRE_MIN_FRAME;
	}
	/* Sizes count the FCS: L2 is the size, L1 adds preamble, SFD and IFG. */
	*l2 = size * 8;
	*l1 = (size + SL_WIRE_GAP) * 8;
}
