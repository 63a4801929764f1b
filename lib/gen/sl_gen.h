/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_GEN_H
#define SL_GEN_H

/**
 * @file
 * Streams: what a generator sends. A stream is compiled once (control path)
 * into a frame template and a table of per-size header values; its mempools
 * are filled with the template when they are created. In steady state a
 * burst writes only what varies per packet: lengths (when several sizes
 * are used) and the payload signature, with the UDP checksum updated
 * incrementally from a precomputed partial sum. Nothing is copied per packet.
 *
 * Sizes are Ethernet frame sizes including the 4-byte FCS, as RFC 2544
 * counts them: size 64 hands 60 bytes to the NIC.
 */

#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "sl_sig.h"

#define SL_GEN_MAX_SIZES 64
#define SL_GEN_MIN_FRAME 64     /* with FCS */
#define SL_GEN_HDR_LEN 42       /* Ethernet + IPv4 + UDP */

/** What a user configures. Addresses and ports in host byte order. */
struct sl_stream_conf {
	struct rte_ether_addr src_mac;
	struct rte_ether_addr dst_mac;
	uint32_t src_ip;
	uint32_t dst_ip;
	uint16_t src_port;
	uint16_t dst_port;
	uint16_t sizes[SL_GEN_MAX_SIZES]; /**< frame sizes with FCS, sent in turn */
	uint16_t nb_sizes;
	uint8_t id;                       /**< stream id in the signature */
};

/** Header values that depend on the size, precomputed (network order). */
struct sl_stream_size {
	uint16_t pkt_len;  /**< host order, without FCS */
	uint16_t ip_len;
	uint16_t udp_len;
	uint16_t ip_csum;
	uint32_t udp_sum;  /**< partial sum of everything but the signature */
	uint8_t sig;       /**< a signature fits */
	uint8_t sig_odd;   /**< signature starts at an odd offset in the UDP segment */
};

/** A compiled stream. Read-only once built: shared by all workers. */
struct sl_stream {
	uint8_t tmpl[RTE_ETHER_MAX_JUMBO_FRAME_LEN]; /**< the largest frame */
	uint16_t max_len;
	uint16_t nb_sizes;
	uint8_t id;
	struct sl_stream_size sz[SL_GEN_MAX_SIZES];
};

/**
 * Compile a stream.
 * @return 0, or -EINVAL with a message in err (a size below 64 or above
 *   max_frame, no size).
 * @param max_frame  largest frame (with FCS) the ports allow, e.g. 1518.
 */
int sl_stream_build(struct sl_stream *s, const struct sl_stream_conf *c, uint16_t max_frame,
		    char *err, size_t errlen);

/**
 * Create a pktmbuf pool whose every mbuf holds the stream's template.
 * @return the pool, or NULL with rte_errno set (ENOMEM, EEXIST, ...).
 */
struct rte_mempool *sl_stream_pool_create(const struct sl_stream *s, const char *name,
					  unsigned int n, int socket_id);

/** One producer's state for one stream on one TX queue. */
struct sl_gen {
	const struct sl_stream *s;
	struct rte_mempool *mp;
	uint32_t seq;       /**< next sequence number */
	uint16_t size_idx;  /**< next entry of s->sz */
	uint8_t producer;   /**< producer id in the signature (the lcore id) */
	uint64_t bytes;     /**< sum of pkt_len of the last burst built */
};

/** Fold a 64-bit one's complement partial sum to 16 bits. */
static inline uint16_t
sl_csum_fold(uint64_t sum)
{
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/**
 * Allocate and fill a burst of n packets.
 *
 * @return n, or 0 if the pool has fewer than n free mbufs (nothing taken).
 *   The caller owns the packets; g->bytes holds their total pkt_len.
 */
static inline unsigned int
sl_gen_burst(struct sl_gen *g, struct rte_mbuf **pkts, unsigned int n, uint64_t tsc)
{
	const struct sl_stream *s = g->s;
	uint16_t idx = g->size_idx;
	uint32_t seq = g->seq;
	uint64_t bytes = 0;

	if (unlikely(rte_mempool_get_bulk(g->mp, (void **)pkts, n) != 0))
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		const struct sl_stream_size *sz = &s->sz[idx];
		struct rte_mbuf *m = pkts[i];
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		uint64_t w0, sum;
		uint16_t csum;

		if (s->nb_sizes > 1) {
			/*
			 * The mbuf still holds its previous frame's length (raw
			 * allocation keeps it): clear that frame's signature so
			 * the payload is zero again, as the sums assume.
			 */
			if (m->pkt_len != sz->pkt_len && m->pkt_len >= SL_SIG_LEN)
				memset(p + m->pkt_len - SL_SIG_LEN, 0, SL_SIG_LEN);
			*(unaligned_uint16_t *)(p + 16) = sz->ip_len;
			*(unaligned_uint16_t *)(p + 24) = sz->ip_csum;
			*(unaligned_uint16_t *)(p + 38) = sz->udp_len;
			if (++idx == s->nb_sizes)
				idx = 0;
		}
		m->data_len = sz->pkt_len;
		m->pkt_len = sz->pkt_len;
		bytes += sz->pkt_len;
		if (likely(sz->sig)) {
			w0 = SL_SIG_MAGIC | (uint64_t)s->id << 16 | (uint64_t)g->producer << 24 |
			     (uint64_t)seq << 32;
			memcpy(p + sz->pkt_len - 16, &w0, 8);
			memcpy(p + sz->pkt_len - 8, &tsc, 8);
			seq++;
			sum = sl_csum_fold((w0 & 0xffffffff) + (w0 >> 32) + (tsc & 0xffffffff) +
					   (tsc >> 32));
			if (sz->sig_odd)
				sum = rte_bswap16((uint16_t)sum);
			csum = (uint16_t)~sl_csum_fold(sum + sz->udp_sum);
			*(unaligned_uint16_t *)(p + 40) = csum == 0 ? 0xffff : csum;
		}
	}
	g->size_idx = idx;
	g->seq = seq;
	g->bytes = bytes;
	return n;
}

#endif /* SL_GEN_H */
