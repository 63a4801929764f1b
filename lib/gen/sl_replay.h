/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_REPLAY_H
#define SL_REPLAY_H

/**
 * @file
 * pcap replay: a capture (pcap or pcapng, read with libpcap) held in
 * memory, its schedule, and its frames split among producers.
 *
 * The schedule is anchored: frame i is due at t0 + off[i], loop k of it
 * at t0 + k * period + off[i], computed from the capture alone, so no
 * error accumulates over frames or loops, and producers on several lcores
 * that share t0 keep one schedule. off[i] is, by mode:
 *   - original timing: (ts[i] - ts[0]) / speed;
 *   - a fixed rate: i / pps, or the bits of frames 0..i-1 (L1 or L2) / bps;
 *   - top speed: 0 (every frame due at once).
 * period is the schedule's span plus one mean gap (rates: exactly n frames'
 * time), so that loops follow each other as the capture's frames do.
 *
 * Frames are split by a hash of their 5-tuple (IP addresses, protocol,
 * ports; else the MACs and EtherType), so that one flow's frames keep
 * their order on one producer.
 *
 * With signing, each frame that can carry a signature gets it over the
 * last SL_SIG_LEN bytes of its IP payload, its L4 checksum made right
 * again; the others go out as captured.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "sl_rate.h"

/** Byte budget for a capture's frames unless told (--pcap-mem). */
#define SL_REPLAY_MEM_DEFAULT (512ull << 20)

struct sl_replay_frame {
	uint64_t ts_ns;        /**< its capture time, from the capture's first frame */
	uint32_t num;          /**< its number in the file, from 1 */
	uint64_t off;          /**< where its bytes are in data */
	uint16_t len;
	uint16_t sig_off;      /**< where its signature goes (0: it cannot carry one) */
	uint16_t l3_off, l4_off; /**< for the checksum after the signature */
	uint8_t l4_proto;      /**< the IP protocol (17, 6, 1, 58, ...) */
	bool ip;               /**< an IPv4 or IPv6 packet: l3_off, l4_off and l4_proto hold */
	bool ipv6;
};

struct sl_replay {
	char path[256];
	uint32_t nb;           /**< frames */
	uint32_t nb_signable;  /**< frames long enough and IP: a signature fits */
	uint16_t min_len, max_len;
	uint64_t bytes;
	uint64_t span_ns;      /**< the whole capture's, first to last frame (every interface) */
	uint32_t nb_all;       /**< the whole capture's frames */
	uint8_t *data;
	struct sl_replay_frame *f;
};

/** How to time it (sl_replay_schedule()). */
struct sl_replay_timing {
	double speed;          /**< > 0: original timing divided by it; 0: top speed */
	struct sl_rate rate;   /**< a rate instead (unit NONE: none) */
};

/**
 * Read the capture at path (every frame whole, Ethernet), at most mem
 * bytes of frames; of a pcapng's interfaces, only iface's frames (-1:
 * every one), timed from the capture's first frame of any interface (so
 * that interfaces replayed on several ports keep their timing). NULL with
 * err saying what and where (the frame's number in the file, from 1) and
 * what to do.
 */
struct sl_replay *sl_replay_load(const char *path, uint64_t mem, int iface, char *err,
				 size_t len);

/**
 * The interfaces of a pcapng (its Interface Description Blocks, every
 * section's); 1 for a pcap. 0 when it cannot be read as either.
 */
uint32_t sl_replay_ifaces(const char *path);
void sl_replay_free(struct sl_replay *r);

/**
 * Each frame's offset in ns (off[0..nb), caller's) and the loop period,
 * as the timing says. 0, or -EINVAL with err when a loop would span more
 * than 1e18 ns.
 */
int sl_replay_schedule(const struct sl_replay *r, const struct sl_replay_timing *t,
		       uint64_t *off, uint64_t *period, char *err, size_t len);

/** The producer (of nb) of frame i: its 5-tuple's hash. */
uint32_t sl_replay_share(const struct sl_replay *r, uint32_t i, uint32_t nb);

/**
 * Frame i into m (a reset mbuf with room for max_len bytes); signed when
 * words is not NULL and the frame can carry one: then its L4 checksum is
 * made right. Returns whether it was signed.
 */
bool sl_replay_fill(const struct sl_replay *r, uint32_t i, struct rte_mbuf *m,
		    const uint64_t *words);

#endif /* SL_REPLAY_H */
