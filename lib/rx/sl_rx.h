/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_RX_H
#define SL_RX_H

/**
 * @file
 * The analyzer: every frame a port receives is checked for a signature
 * (sl_sig.h) and accounted, exactly, per (stream, producer); latency per
 * stream goes into a log-linear histogram (sl_hist.h).
 *
 * One struct sl_rx per receiving port (its RX queue): one writer at a time
 * (the lcore polling the queue; a hand-off between lcores must be ordered,
 * e.g. by rte_eal_wait_lcore()), readers on any thread with relaxed loads
 * (counters may lag by a burst; exact once the writer has stopped).
 *
 * Definitions (every output uses them):
 * - rx: frames with a valid signature of this run (duplicates included);
 * - duplicate: a sequence already received (within the window);
 * - reordered: a first arrival whose sequence is below the highest already
 *   received (RFC 4737); its distance (highest - seq) goes into a log2
 *   histogram;
 * - late: older than the window (SL_RX_WINDOW sequences behind the highest):
 *   counted as a unique arrival (it may hide a duplicate: no state is left);
 * - unique = rx - duplicates; lost = tx - unique, computed by the caller
 *   after the drain, when tx is known;
 * - per port: foreign (no signature), bad_signature (the magic with a wrong
 *   check, a truncated frame, an unknown stream or producer), stale (a
 *   valid signature of another run).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "sl_hist.h"
#include "sl_sig.h"

/** Sequences the window remembers behind the highest, per (stream, producer). */
#define SL_RX_WINDOW 2048
/** Log2 buckets of the reorder distance: 1, 2-3, 4-7, ..., >= 2^15. */
#define SL_RX_DIST_BUCKETS 16

struct sl_rx;

struct sl_rx_conf {
	uint16_t nb_streams;          /**< stream ids 0..nb_streams-1 */
	const uint16_t *producers;    /**< producers of each stream (ids 0..n-1, <= 256) */
	uint8_t run;                  /**< this run's tag */
	int socket_id;
};

/** A stream's counters at one receiving port. */
struct sl_rx_stream_stats {
	uint64_t rx, bytes, duplicates, reordered, late;
	uint64_t dist[SL_RX_DIST_BUCKETS];  /**< reorder distance, log2 buckets */
	/* Latency, ns. */
	uint64_t lat_count, lat_min, lat_max;
	uint64_t lat_hw;                    /**< samples timed by the port's RX timestamp */
	/**
	 * Frames that arrived before they were sent, by the clocks (the
	 * difference modulo 2^40 cycles is over 2^39): the TX lcore's TSC and
	 * the RX clock disagree (two CPUs' TSCs not in step, a port clock off),
	 * or a latency over 2^39 cycles. Counted here, not as samples.
	 */
	uint64_t lat_backwards;
	double lat_sum;
	double jitter_ns;                   /**< RFC 3550 interarrival jitter */
	/**
	 * When its first and its last frame arrived, in TSC cycles (the
	 * port's RX timestamp where it stamped the frame, else the burst's
	 * receive time); 0: none yet.
	 */
	uint64_t first_tsc, last_tsc;
};

/** A port's counters. */
struct sl_rx_port_stats {
	uint64_t frames, bytes;            /**< everything received */
	uint64_t rx;                       /**< valid signatures of this run */
	uint64_t foreign, bad_signature, stale;
	uint64_t cycles;                   /**< TSC cycles spent analyzing (sl_rx_analyze) */
};

/** Allocate an analyzer. NULL with rte_errno set (EINVAL, ENOMEM). */
struct sl_rx *sl_rx_create(const struct sl_rx_conf *c);
void sl_rx_free(struct sl_rx *rx);

/**
 * Analyze a burst received at @p rx_tsc (one TSC read per burst). A frame
 * that carries an RX timestamp (DPDK's RX timestamp dynamic field with its
 * flag, in TSC cycles: sl_port.h's rx_burst contract) is timed by it instead,
 * and the flag is cleared (the mbuf goes back to a TX pool). Does not free
 * the mbufs.
 */
void sl_rx_analyze(struct sl_rx *rx, struct rte_mbuf **pkts, uint16_t n, uint64_t rx_tsc);

/**
 * sl_rx_analyze() that hands the frames without a signature (foreign: a
 * host's ARP, ND, ping) to the caller: each is moved to @p foreign (room
 * for @p n) and its slot in @p pkts set to NULL (rte_pktmbuf_free_bulk()
 * skips it). Counted as foreign all the same. Returns how many it moved;
 * the caller owns them.
 */
uint16_t sl_rx_analyze_keep(struct sl_rx *rx, struct rte_mbuf **pkts, uint16_t n,
			    uint64_t rx_tsc, struct rte_mbuf **foreign);

/** Counters (relaxed reads; exact once the writer has stopped). */
void sl_rx_port_stats(const struct sl_rx *rx, struct sl_rx_port_stats *st);
/** @return false if @p stream is out of range. */
bool sl_rx_stream_stats(const struct sl_rx *rx, uint16_t stream, struct sl_rx_stream_stats *st);
/** Add stream's latency histogram into @p buckets[SL_HIST_BUCKETS]. */
void sl_rx_stream_hist(const struct sl_rx *rx, uint16_t stream, uint64_t *buckets);

/** The value (ns, a bucket's middle) at quantile q (0..1) of a histogram. */
uint64_t sl_rx_hist_quantile(const uint64_t *buckets, double q);

/** The same, kept within the samples' exact [min, max] (a bucket's middle can lie outside). */
static inline uint64_t
sl_rx_quantile(const uint64_t *buckets, double q, uint64_t min, uint64_t max)
{
	uint64_t v = sl_rx_hist_quantile(buckets, q);

	return v < min ? min : v > max ? max : v;
}

/**
 * The clock that timed a stream's latency samples, as every output names it:
 * "hw" (each sample timed by the port's RX timestamp), "tsc" (none: by the
 * burst's TSC; also when there are no samples) or "mixed".
 */
static inline const char *
sl_rx_clock_name(const struct sl_rx_stream_stats *st)
{
	return st->lat_hw == 0 ? "tsc" : st->lat_hw == st->lat_count ? "hw" : "mixed";
}

/** Number of streams the analyzer was created for. */
uint16_t sl_rx_nb_streams(const struct sl_rx *rx);

#endif /* SL_RX_H */
