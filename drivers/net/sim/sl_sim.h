/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_SIM_H
#define SL_SIM_H

/**
 * @file
 * The simulated NIC: a TX driver with no hardware behind it.
 *
 * Each queue has a descriptor ring of txd entries. A virtual wire, shared by
 * the port's queues, serialises frames at the line rate with Ethernet's wire
 * overhead (frames padded to 60 bytes, plus FCS, preamble, SFD and
 * inter-frame gap: 24 bytes beyond the bytes handed to the driver). Wire
 * time is computed lazily from the TSC: a descriptor is free again once its
 * frame has left the wire, so a full ring answers SL_XMIT_BUSY and the line
 * rate is real. No thread runs behind it.
 *
 * Personalities: lltx off (not MT-safe: a concurrent entry on one queue is
 * detected, counted as a violation and refused with BUSY) and lltx on
 * (SL_DRV_CAP_LLTX: an internal trylock per queue; SL_XMIT_LOCKED when it
 * fails).
 *
 * With verify on, every frame leaving the wire is checked: its payload
 * signature (sl_sig.h) gives per (stream, producer) sequence numbers on the
 * queue (lost, duplicated, reordered) and the TX time (latency to the end of
 * the frame on the wire).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "sl_drv.h"
#include "sl_port.h"

struct sl_sim;

/**
 * A device under test between a sim port's wire and a receiving sim port
 * (--sim 10G,dut=PORT,...): frames leaving the wire go through the model,
 * in this order: capacity, loss, duplication, reordering, delay. Every
 * random choice comes from a generator seeded with seed (deterministic for
 * a given seed and order of frames).
 */
struct sl_sim_dut {
	int32_t port;          /**< receiving port (a sim's port number), -1: none */
	uint64_t capacity_pps; /**< forwarding capacity, 0: unlimited */
	double loss;           /**< probability a frame is dropped, 0..1 */
	double dup;            /**< probability a frame is delivered twice */
	double reorder;        /**< probability a frame is held back behind the next one */
	uint64_t delay_ns;     /**< fixed delay */
	uint64_t jitter_ns;    /**< plus uniform 0..jitter_ns (FIFO kept: no reordering) */
	uint64_t seed;
};

struct sl_sim_conf {
	uint64_t speed_bps;  /**< line rate, bit/s (> 0) */
	uint32_t txd;        /**< descriptors per queue (1..65536) */
	uint16_t nb_txq;     /**< queues (1..1024) */
	bool lltx;           /**< internal trylock, SL_DRV_CAP_LLTX */
	bool verify;         /**< check signatures at the wire */
	int socket_id;
	struct sl_sim_dut dut; /**< the wire's far end; dut.port -1 when none */
};

/** Counters of the whole port, summed over queues. */
struct sl_sim_stats {
	uint64_t frames;       /**< frames taken into descriptors */
	uint64_t bytes;        /**< their bytes as handed (no FCS) */
	uint64_t wire_frames;  /**< frames that left the wire */
	uint64_t wire_bytes;   /**< their bytes as handed (no FCS) */
	uint64_t busy;         /**< calls answered BUSY (ring full or link down) */
	uint64_t locked;       /**< calls answered LOCKED (lltx on) */
	uint64_t violations;   /**< concurrent entries on a queue (lltx off) */
	uint64_t discarded;    /**< frames freed at drain time-out, never on the wire */
	/* Wire clock, TSC cycles: first and last frame start, last frame end. */
	uint64_t first_start_tsc, last_start_tsc, last_end_tsc;
	/* Wire time between the first and the last frame with nothing to send. */
	uint64_t wire_idle_tsc;
	/* Verifier (when verify is on). */
	uint64_t signed_frames, unsigned_frames;
	uint64_t lost, duplicates, reordered;
	uint64_t lat_min_ns, lat_max_ns, lat_avg_ns;
};

/**
 * Create a simulated port.
 * @return the port, or NULL with rte_errno = EINVAL (bad conf) or ENOMEM.
 */
struct sl_sim *sl_sim_create(const struct sl_sim_conf *conf);

/** Free a port; frames still in descriptors are freed (see sl_sim_drain()). */
void sl_sim_free(struct sl_sim *sim);

/** Driver queue handle of queue @p qid, for struct sl_txq_conf.drv_queue. */
void *sl_sim_txq(struct sl_sim *sim, uint16_t qid);

/** SL_DRV_CAP_LLTX if the port was created with lltx on, else 0. */
uint32_t sl_sim_caps(const struct sl_sim *sim);

/** Line rate in bit/s. */
uint64_t sl_sim_speed(const struct sl_sim *sim);

/** The driver entry point (sl_drv_xmit_t); see the driver contract in sl_xmit.h. */
uint16_t sl_sim_xmit(void *txq, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *status);

/**
 * Fault injection. Link down: the port takes no new frames (SL_XMIT_BUSY);
 * frames already on the wire finish. Stall: the wire sends nothing for @p us
 * microseconds from now. Slow drain: the wire runs at speed / @p factor
 * (1 restores it). MT-safe.
 */
void sl_sim_set_link(struct sl_sim *sim, bool up);
void sl_sim_stall(struct sl_sim *sim, uint64_t us);
void sl_sim_set_slowdown(struct sl_sim *sim, uint32_t factor);

/**
 * At stop: wait (at most timeout_us) for every frame to leave the wire, then
 * free and count the frames still in descriptors as discarded. Call only when
 * no lcore transmits on the port.
 * @return frames discarded.
 */
uint64_t sl_sim_drain(struct sl_sim *sim, uint64_t timeout_us);

/**
 * Open a simulated port as a Sluice port (sl_port.h): @p conf gives its line
 * rate, default descriptors, personality and verifier (nb_txq and socket_id
 * are set by each setup); @p idx numbers it (name simN, MAC 02:51:ce:00:00:N).
 * @return 0, or -ENOMEM.
 */
int sl_sim_port_open(const struct sl_sim_conf *conf, uint16_t idx, struct sl_port_info *info,
		     const struct sl_port_ops **ops, void **dev);

/** Sum the counters. MT-safe; exact after sl_sim_drain(). */
void sl_sim_stats_get(const struct sl_sim *sim, struct sl_sim_stats *st);

#endif /* SL_SIM_H */
