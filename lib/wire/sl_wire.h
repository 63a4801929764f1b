/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_WIRE_H
#define SL_WIRE_H

/**
 * @file
 * Ethernet on the wire, defined once: what a frame of a given length costs
 * in bits at L2 (the frame with its FCS) and at L1 (plus preamble, SFD and
 * inter-frame gap), as RFC 2544 counts them. Lengths are the bytes handed
 * to a driver (mbuf pkt_len), without the FCS, which the NIC adds.
 */

#include <stdbool.h>
#include <stdint.h>

/** FCS, added by the NIC. */
#define SL_WIRE_FCS 4
/** Preamble (7) + SFD (1) + inter-frame gap (12). */
#define SL_WIRE_GAP 20
/** Bytes on the wire beyond the bytes handed: FCS + preamble + SFD + IFG. */
#define SL_WIRE_OVERHEAD (SL_WIRE_FCS + SL_WIRE_GAP)
/** Ethernet header: destination, source, EtherType. */
#define SL_WIRE_HDR_LEN 14
/** An 802.1Q tag. */
#define SL_WIRE_VLAN_LEN 4
/** Shortest frame without FCS (a NIC pads shorter ones). */
#define SL_WIRE_MIN_LEN 60
/** Shortest frame with FCS, the RFC 2544 sizes' unit (64). */
#define SL_WIRE_MIN_FRAME (SL_WIRE_MIN_LEN + SL_WIRE_FCS)

/**
 * The largest frame (with FCS) an MTU allows: the MTU counts the payload
 * after the Ethernet header, so the frame adds the header, the FCS and, when
 * @p tagged, a VLAN tag (an MTU of 1500 gives 1518, 1522 tagged).
 */
static inline uint32_t
sl_wire_max_frame(uint32_t mtu, bool tagged)
{
	return mtu + SL_WIRE_HDR_LEN + SL_WIRE_FCS + (tagged ? SL_WIRE_VLAN_LEN : 0);
}

/** Bytes a frame of @p len (no FCS) takes on the wire, padding included. */
static inline uint32_t
sl_wire_l1_bytes(uint32_t len)
{
	return (len < SL_WIRE_MIN_LEN ? SL_WIRE_MIN_LEN : len) + SL_WIRE_OVERHEAD;
}

/** L1 bits of @p pkts frames of @p bytes in total (no FCS, no padding needed). */
static inline double
sl_wire_l1_bits(uint64_t pkts, uint64_t bytes)
{
	return ((double)bytes + (double)pkts * SL_WIRE_OVERHEAD) * 8;
}

/** L2 bits (frames with FCS) of @p pkts frames of @p bytes in total. */
static inline double
sl_wire_l2_bits(uint64_t pkts, uint64_t bytes)
{
	return ((double)bytes + (double)pkts * SL_WIRE_FCS) * 8;
}

#endif /* SL_WIRE_H */
