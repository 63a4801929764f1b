/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_SIG_H
#define SL_SIG_H

/**
 * @file
 * The payload signature: the last SL_SIG_LEN bytes of the L3 payload of
 * every generated frame long enough to hold it. Written by the generator,
 * read by the receive side (lib/rx) and the sim's verifier and DUT model.
 *
 * Two 64-bit words, host byte order (the signature is for Sluice's own
 * receivers on the same host, not a wire protocol):
 *
 *   w0 = magic:8 | check:16 << 8 | run:8 << 24 | stream:16 << 32 |
 *        producer:8 << 48 | tsc[39:32]:8 << 56
 *   w1 = seq:32 | tsc[31:0] << 32
 *
 * - magic (SL_SIG_MAGIC) says "this claims to be a signature"; a frame
 *   without it is foreign (ARP, ND, anyone else's traffic);
 * - check is a 16-bit hash of everything else: a frame with the magic and a
 *   wrong check (a payload that happens to hold the magic, a corrupted or
 *   truncated frame) is a bad signature, never a sequence event;
 * - run tags the run (a new one each start), so frames an earlier run left
 *   in a DUT are stale, not duplicates;
 * - stream and producer name the sequence space: sequence numbers count from
 *   0 per (stream, producer) and wrap at 2^32 (compare them with serial
 *   number arithmetic); a producer is one generator, unique per stream even
 *   when one lcore feeds several queues;
 * - tsc: the low 40 bits of the generating lcore's TSC when the burst was
 *   built (2^40 cycles: over 6 minutes at 3 GHz); the analyzer takes a
 *   difference modulo 2^40 and keeps latencies up to 2^39 cycles (about 3
 *   minutes at 3 GHz), beyond which it cannot tell a latency from a clock
 *   that went backwards.
 *
 * The receiver finds the signature from the outer IP header (IPv4 total
 * length, IPv6 payload length), past up to SL_SIG_MAX_TAGS VLAN tags and
 * SL_SIG_MAX_LABELS MPLS labels, not from the end of the frame: a DUT may
 * pad a frame, add or strip VLAN tags, or append an FCS. A tunnel's inner
 * packet ends where the outer one does, so tunnelled frames carry it at
 * the same place.
 */

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_mbuf.h>

#include "sl_wire.h"

#define SL_SIG_LEN 16
#define SL_SIG_MAGIC 0xce
#define SL_SIG_TSC_BITS 40
#define SL_SIG_TSC_MASK ((UINT64_C(1) << SL_SIG_TSC_BITS) - 1)
/** Streams per run (stream ids 0..SL_SIG_MAX_STREAMS-1). */
#define SL_SIG_MAX_STREAMS 65536
/** VLAN tags and MPLS labels the receiver looks past. */
#define SL_SIG_MAX_TAGS 4
#define SL_SIG_MAX_LABELS 8
/** Producers per stream (ids 0..255). */
#define SL_SIG_MAX_PRODUCERS 256

/** A signature's fields. */
struct sl_sig {
	uint16_t stream;
	uint8_t producer;
	uint8_t run;
	uint32_t seq;
	uint64_t tsc;     /**< low SL_SIG_TSC_BITS bits */
};

/**
 * The check of w0 (without magic and check) and w1, in two steps so that a
 * generator pays one multiply per frame: sl_sig_check_base() once per burst
 * (w0's upper bits are the same for every frame of a burst), then
 * sl_sig_check_w1() per frame.
 */
static inline uint64_t
sl_sig_check_base(uint64_t w0)
{
	return (w0 & ~UINT64_C(0xffffff)) * UINT64_C(0x9e3779b97f4a7c15);
}

static inline uint16_t
sl_sig_check_w1(uint64_t base, uint64_t w1)
{
	uint64_t h = (w1 ^ base) * UINT64_C(0xff51afd7ed558ccd);

	return (uint16_t)((h >> 48) ^ (h >> 24));
}

static inline uint16_t
sl_sig_check(uint64_t w0, uint64_t w1)
{
	return sl_sig_check_w1(sl_sig_check_base(w0), w1);
}

/** The two words of a signature (what the generator writes). */
static inline void
sl_sig_words(uint16_t stream, uint8_t producer, uint8_t run, uint32_t seq, uint64_t tsc,
	     uint64_t *w0, uint64_t *w1)
{
	uint64_t a = (uint64_t)run << 24 | (uint64_t)stream << 32 | (uint64_t)producer << 48 |
		     ((tsc >> 32) & 0xff) << 56;
	uint64_t b = seq | (tsc & 0xffffffff) << 32;

	*w0 = a | SL_SIG_MAGIC | (uint64_t)sl_sig_check(a, b) << 8;
	*w1 = b;
}

/** What sl_sig_parse() found. */
enum sl_sig_verdict {
	SL_SIG_OK = 0,    /**< a valid signature: *sig filled */
	SL_SIG_FOREIGN,   /**< not an IP frame of ours: no magic, runt, not IP/UDP/TCP */
	SL_SIG_BAD,       /**< the magic, but a wrong check, or an IP length past the frame */
};

/**
 * The header bytes an IP protocol puts before a signature, or -1 if the
 * receive side does not look for one after it: UDP, TCP, ICMP, ICMPv6,
 * tunnels (GRE, IP in IP: the inner packet ends where the outer one does),
 * and a raw payload (IPv4's 61, any host internal protocol, and IPv6's 59,
 * no next header: what a stack that ends at its IP header sends).
 */
static inline int
sl_sig_proto_min(uint8_t proto)
{
	switch (proto) {
	case 1: case 17: case 58:
		return 8;
	case 6: case 4:
		return 20;
	case 41:
		return 40;
	case 47:
		return 4;
	case 59: case 61:
		return 0;
	default:
		return -1;
	}
}

/**
 * Find and check the signature of a frame, from its IP header. Never reads
 * past the mbuf's data (multi-segment mbufs are read with rte_pktmbuf_read).
 */
static inline enum sl_sig_verdict
sl_sig_parse(const struct rte_mbuf *m, struct sl_sig *sig)
{
	uint8_t hb[14 + 4 * SL_SIG_MAX_TAGS + 4 * SL_SIG_MAX_LABELS + 40], sb[SL_SIG_LEN];
	uint32_t len = rte_pktmbuf_pkt_len(m), off = 12, l3end, l4, hlen;
	const uint8_t *h, *s;
	uint16_t type;
	uint8_t proto;
	uint64_t w0, w1;

	hlen = RTE_MIN(len, (uint32_t)sizeof(hb));
	h = rte_pktmbuf_read(m, 0, hlen, hb);
	if (h == NULL || len < 14)
		return SL_SIG_FOREIGN;
	type = (uint16_t)(h[off] << 8 | h[off + 1]);
	/* VLAN tags (802.1Q, 802.1ad: QinQ and deeper). */
	for (int k = 0; k < SL_SIG_MAX_TAGS && (type == 0x8100 || type == 0x88a8); k++) {
		off += 4;
		if (hlen < off + 2)
			return SL_SIG_FOREIGN;
		type = (uint16_t)(h[off] << 8 | h[off + 1]);
	}
	off += 2; /* start of L3 */
	if (type == 0x8847) {
		/* An MPLS label stack: IP after the bottom of stack, by its version. */
		int k;

		for (k = 0; k < SL_SIG_MAX_LABELS; k++, off += 4) {
			if (hlen < off + 4)
				return SL_SIG_FOREIGN;
			if (h[off + 2] & 1)
				break;
		}
		if (k == SL_SIG_MAX_LABELS || hlen < off + 5)
			return SL_SIG_FOREIGN;
		off += 4;
		type = (h[off] >> 4) == 4 ? 0x0800 : (h[off] >> 4) == 6 ? 0x86dd : 0;
	}
	if (type == 0x0800) {
		uint32_t ihl;

		if (hlen < off + 20 || (h[off] >> 4) != 4)
			return SL_SIG_FOREIGN;
		ihl = (h[off] & 0xf) * 4u;
		l3end = off + (uint32_t)(h[off + 2] << 8 | h[off + 3]);
		proto = h[off + 9];
		l4 = off + ihl;
		if (ihl < 20)
			return SL_SIG_FOREIGN;
	} else if (type == 0x86dd) {
		if (hlen < off + 40 || (h[off] >> 4) != 6)
			return SL_SIG_FOREIGN;
		l3end = off + 40 + (uint32_t)(h[off + 4] << 8 | h[off + 5]);
		proto = h[off + 6];
		l4 = off + 40;
	} else {
		return SL_SIG_FOREIGN;
	}
	/* What can carry one (sl_sig_proto_min()). */
	{
		int min = sl_sig_proto_min(proto);

		if (min < 0)
			return SL_SIG_FOREIGN;
		if (l3end < l4 + (uint32_t)min + SL_SIG_LEN)
			return SL_SIG_FOREIGN; /* too short to carry one */
	}
	if (l3end > len) {
		/* Truncated: the IP length runs past the frame. */
		return SL_SIG_BAD;
	}
	s = rte_pktmbuf_read(m, l3end - SL_SIG_LEN, SL_SIG_LEN, sb);
	if (s == NULL)
		return SL_SIG_FOREIGN;
	memcpy(&w0, s, 8);
	memcpy(&w1, s + 8, 8);
	if ((w0 & 0xff) != SL_SIG_MAGIC)
		return SL_SIG_FOREIGN;
	if ((uint16_t)(w0 >> 8) != sl_sig_check(w0, w1))
		return SL_SIG_BAD;
	sig->run = (uint8_t)(w0 >> 24);
	sig->stream = (uint16_t)(w0 >> 32);
	sig->producer = (uint8_t)(w0 >> 48);
	sig->seq = (uint32_t)w1;
	sig->tsc = (w0 >> 56) << 32 | w1 >> 32;
	return SL_SIG_OK;
}

#endif /* SL_SIG_H */
