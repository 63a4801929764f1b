/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_CAPTURE_H
#define SL_CAPTURE_H

/**
 * @file
 * A port's capture: the frames it receives, kept in memory while armed and
 * written out as pcap (the OTG API's /monitor/capture). Each frame is kept
 * as it was on the wire, with its FCS: a NIC strips the one it received,
 * so the capture computes it (CRC-32, rte_net_crc), as captures of other
 * OTG tools carry it.
 *
 * One writer, the lcore that receives the port (sl_capture_burst(), from
 * its receive loop); any number of readers. The writer appends a frame's
 * bytes, then its record, then publishes the count (release); a reader
 * loads the count (acquire) and reads only records below it, which never
 * change again. It keeps the first frames: when the frame or byte limit
 * is reached, it counts the rest in missed. A controller arms and disarms
 * it at any time (sl_capture_arm()); sl_capture_reset() forgets every
 * frame, only while no writer runs (between runs).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>

/** Default limits: frames, and bytes of frame data. */
#define SL_CAPTURE_FRAMES 65536
#define SL_CAPTURE_BYTES (64u << 20)

struct sl_capture_rec {
	uint64_t tsc;          /**< when it arrived: its port's RX timestamp where the port
				    stamps frames (the sim: when it left the wire), else its
				    burst's receive time (TSC cycles) */
	uint32_t len;          /**< its length on the wire, with the FCS */
	uint32_t caplen;       /**< bytes kept (at most the snap length) */
	uint64_t off;          /**< where they are in data */
};

struct sl_capture {
	uint32_t armed;        /**< written by a controller (release), read by the writer */
	uint32_t n;            /**< frames kept: published by the writer (release) */
	uint64_t missed;       /**< armed, but over a limit (writer only; read after) */
	uint32_t max_frames, snap;
	uint64_t max_bytes, used;
	/* The clocks at the arming: a record's time is real_ns + (tsc - tsc0) / hz. */
	uint64_t tsc0, real_ns0, hz;
	int ts_off;            /**< DPDK's RX timestamp field and flag (ts_off -1: none) */
	uint64_t ts_flag;
	struct sl_capture_rec *rec;
	uint8_t *data;
};

/**
 * A capture of at most max_frames frames and max_bytes bytes, each frame
 * cut at snap bytes (0: whole). NULL when out of memory.
 */
struct sl_capture *sl_capture_create(uint32_t max_frames, uint64_t max_bytes, uint32_t snap);
void sl_capture_free(struct sl_capture *c);

/** Arm (keep what arrives from now on) or disarm it. Any thread. */
void sl_capture_arm(struct sl_capture *c, bool on);

/** Forget every frame: only while no writer runs. */
void sl_capture_reset(struct sl_capture *c);

/** The writer's slow path (sl_capture_burst()). */
void sl_capture_append(struct sl_capture *c, struct rte_mbuf **pkts, uint16_t n, uint64_t tsc);

/** Keep pkts[0..n) if armed: the writer, from its receive loop. */
static inline void
sl_capture_burst(struct sl_capture *c, struct rte_mbuf **pkts, uint16_t n, uint64_t tsc)
{
	if (unlikely(c != NULL) && __atomic_load_n(&c->armed, __ATOMIC_ACQUIRE) != 0)
		sl_capture_append(c, pkts, n, tsc);
}

/**
 * The frames kept so far as a pcap file (nanosecond stamps, Ethernet),
 * malloc'd into *buf, its length in *len. 0, or -ENOMEM / -EIO.
 */
int sl_capture_pcap(const struct sl_capture *c, char **buf, size_t *len);

#endif /* SL_CAPTURE_H */
