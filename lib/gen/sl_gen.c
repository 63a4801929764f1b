/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "sl_gen.h"

/* Header bytes at the front of tmpl, lengths filled for pkt_len. */
static void
stream_headers(uint8_t *buf, const struct sl_stream_conf *c, uint16_t pkt_len)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	rte_ether_addr_copy(&c->dst_mac, &eth->dst_addr);
	rte_ether_addr_copy(&c->src_mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(c->src_ip);
	ip->dst_addr = rte_cpu_to_be_32(c->dst_ip);
	ip->total_length = rte_cpu_to_be_16(pkt_len - RTE_ETHER_HDR_LEN);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(c->src_port);
	udp->dst_port = rte_cpu_to_be_16(c->dst_port);
	udp->dgram_len = rte_cpu_to_be_16(pkt_len - RTE_ETHER_HDR_LEN - sizeof(*ip));
	udp->dgram_cksum = 0;
}

/*
 * Partial one's complement sum of the UDP pseudo-header and segment with the
 * signature bytes zero (the payload is zero in the template), and the UDP
 * checksum field zero. The burst adds the signature's sum and folds.
 */
static uint32_t
stream_udp_sum(const uint8_t *buf, uint16_t pkt_len)
{
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(buf + RTE_ETHER_HDR_LEN);
	uint16_t l4_len = pkt_len - RTE_ETHER_HDR_LEN - sizeof(*ip);
	struct {
		uint32_t src, dst;
		uint8_t zero, proto;
		uint16_t len;
	} __rte_packed ph = { ip->src_addr, ip->dst_addr, 0, IPPROTO_UDP,
			      rte_cpu_to_be_16(l4_len) };

	/* Segment: header only, the zero payload adds nothing. */
	return (uint32_t)rte_raw_cksum(&ph, sizeof(ph)) +
	       rte_raw_cksum(buf + RTE_ETHER_HDR_LEN + sizeof(*ip), sizeof(struct rte_udp_hdr));
}

int
sl_stream_build(struct sl_stream *s, const struct sl_stream_conf *c, uint16_t max_frame,
		char *err, size_t errlen)
{
	uint8_t hdr[SL_GEN_HDR_LEN];

	if (c->nb_sizes == 0 || c->nb_sizes > SL_GEN_MAX_SIZES) {
		snprintf(err, errlen, "give between 1 and %d frame sizes", SL_GEN_MAX_SIZES);
		return -EINVAL;
	}
	memset(s, 0, sizeof(*s));
	s->id = c->id;
	s->nb_sizes = c->nb_sizes;
	for (uint16_t i = 0; i < c->nb_sizes; i++) {
		struct sl_stream_size *sz = &s->sz[i];
		uint16_t frame = c->sizes[i];

		if (frame < SL_GEN_MIN_FRAME || frame > max_frame ||
		    frame - RTE_ETHER_CRC_LEN > (int)sizeof(s->tmpl)) {
			snprintf(err, errlen,
				 "frame size %u is out of range: sizes count the FCS and go from %d to %u (the ports' MTU + 18)",
				 frame, SL_GEN_MIN_FRAME, max_frame);
			return -EINVAL;
		}
		sz->pkt_len = frame - RTE_ETHER_CRC_LEN;
		stream_headers(hdr, c, sz->pkt_len);
		sz->ip_len = ((struct rte_ipv4_hdr *)(hdr + RTE_ETHER_HDR_LEN))->total_length;
		sz->ip_csum = ((struct rte_ipv4_hdr *)(hdr + RTE_ETHER_HDR_LEN))->hdr_checksum;
		sz->udp_len = ((struct rte_udp_hdr *)(hdr + 34))->dgram_len;
		sz->udp_sum = stream_udp_sum(hdr, sz->pkt_len);
		sz->sig = sz->pkt_len >= SL_GEN_HDR_LEN + SL_SIG_LEN;
		sz->sig_odd = (sz->pkt_len - SL_SIG_LEN - 34) & 1;
		if (sz->pkt_len > s->max_len)
			s->max_len = sz->pkt_len;
	}
	/* The template: headers of the first size, zero payload up to the largest. */
	stream_headers(s->tmpl, c, s->sz[0].pkt_len);
	if (!s->sz[0].sig) {
		/* No signature: the UDP checksum is constant; store it now. */
		uint16_t csum = (uint16_t)~sl_csum_fold(s->sz[0].udp_sum);

		*(unaligned_uint16_t *)(s->tmpl + 40) = csum == 0 ? 0xffff : csum;
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
	m->data_len = s->sz[0].pkt_len;
	m->pkt_len = s->sz[0].pkt_len;
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
