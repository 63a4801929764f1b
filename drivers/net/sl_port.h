/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_PORT_H
#define SL_PORT_H

/**
 * @file
 * The port-driver table: what every kind of port offers the application,
 * one table of small functions per driver kind (as DPDK's eth_dev_ops),
 * picked once when the port is opened. The application never asks which
 * kind a port is.
 *
 * Life of a port: open (the driver's own constructor fills the info and
 * returns its table and handle) -> setup (queues, pools, NUMA; again before
 * every run) -> txq/xmit per queue for the engine -> quiesce when the
 * producers and the engine's backlogs are done -> stop (frees what the
 * device still holds) -> ... setup again for the next run ... -> close.
 *
 * None of these is called concurrently with another on the same port; xmit
 * follows the driver contract (sl_drv.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include "sl_drv.h"
#include "sl_drv_port.h"


/** What a run asks of a port (in), and what it got (out). */
struct sl_port_setup {
	uint16_t mtu;          /**< in: the MTU to set, 0 = the device's as opened; out: in force */
	uint16_t nb_txq;       /**< in: TX queues (>= 1) */
	uint16_t nb_txd;       /**< in: descriptors per queue, 0 = driver default; out: in force */
	enum sl_lltx lltx;     /**< in */
	bool rx;               /**< in: this run receives on the port (RX queue 0) */
	bool rx_hw_ts;         /**< in: use the device's RX timestamps if it has them;
				    out: rx_burst stamps frames (see rx_burst) */
	bool promisc;          /**< in: receive every frame, whatever its destination MAC
				    (devices with MACs of their own are on the port) */
	uint32_t caps;         /**< out: SL_DRV_CAP_* of its queues */
};

/**
 * Frames the receiving device itself lost or refused, since the last setup:
 * never seen by the analyzer, and not the DUT's loss.
 */
struct sl_port_rx_drops {
	uint64_t imissed;      /**< no room in the RX ring (the RX lcore fell behind) */
	uint64_t ierrors;      /**< bad frames the device dropped */
	uint64_t rx_nombuf;    /**< no mbuf to receive into */
};

/**
 * A device-under-test model's ground truth (the sim's wire to another port),
 * since the last setup of the sending port. Counted by the model itself,
 * independently of the analyzer, for tests to compare against.
 */
struct sl_port_dut {
	uint64_t in;               /**< frames that entered the model */
	uint64_t delivered;        /**< frames handed to the receiving port (duplicates included) */
	uint64_t dropped_capacity; /**< dropped: above the forwarding capacity */
	uint64_t dropped_loss;     /**< dropped: the loss ratio */
	uint64_t dropped_full;     /**< dropped: the receiving port's ring was full */
	uint64_t dropped_link;     /**< dropped: the receiving port's link was down */
	uint64_t duplicated;       /**< extra copies delivered */
	uint64_t reordered;        /**< delivered with a lower sequence than an earlier
				        delivery of the same (stream, producer), not duplicates
				        (RFC 4737) */
	uint64_t held;             /**< in the model now (delay line, reorder slot) */
};

/** One counter of the driver's own, as a name and a value. */
struct sl_port_stat {
	char name[64];
	uint64_t value;
};

/** The wire as a driver that models one sees it (the sim). */
struct sl_port_wire {
	uint64_t frames, bytes;    /**< frames that left the wire; bytes as handed */
	uint64_t busy, violations;
	double span_s;             /**< first frame's start to the last frame's start */
	double idle_s;             /**< time in the span the wire waited for frames */
};

/** A driver-side verifier's findings (the sim with verify on). */
struct sl_port_verify {
	uint64_t frames, unsigned_frames, lost, duplicates, reordered, violations;
	uint64_t lat_min_ns, lat_avg_ns, lat_max_ns;
	uint64_t lat_backwards; /**< frames whose clocks ran backwards: not in the latency */
};

struct sl_port_ops {
	const char *kind;
	/** Configure and start with c's queues; refused (err says why) leaves it stopped. */
	int (*setup)(void *dev, struct sl_port_setup *c, char *err, size_t len);
	/** The driver's handle of TX queue q, for sl_txq_conf.drv_queue. */
	void *(*txq)(void *dev, uint16_t q);
	/** The transmit entry point (the driver contract). */
	sl_drv_xmit_t xmit;
	/** A plain burst call for the --xmit direct baseline; NULL: not offered. */
	uint16_t (*tx_burst)(void *dev, uint16_t q, struct rte_mbuf **pkts, uint16_t n);
	/** After the producers stopped: let taken frames leave; returns frames discarded. */
	uint64_t (*quiesce)(void *dev, uint64_t timeout_us);
	/** Stop the device; frees the mbufs its descriptors hold. Idempotent. */
	void (*stop)(void *dev);
	/** The driver's counters into st[0..max); returns how many it has (st NULL: count). */
	int (*xstats)(void *dev, struct sl_port_stat *st, int max);
	/** The wire model's figures; false if the driver has none. */
	bool (*wire)(void *dev, struct sl_port_wire *w);
	/** The verifier's figures; false if it has none (violations still set). */
	bool (*verify)(void *dev, struct sl_port_verify *v);
	/** Stop and free everything. */
	void (*close)(void *dev);
	/**
	 * Receive up to n frames from RX queue 0 of a port set up with rx; the
	 * caller owns what it gets. One caller per port at a time. A port set up
	 * with rx_hw_ts out true stamps each frame with its arrival time, in TSC
	 * cycles, in DPDK's RX timestamp dynamic field
	 * (rte_mbuf_dyn_rx_timestamp_register()), its flag set in ol_flags.
	 */
	uint16_t (*rx_burst)(void *dev, struct rte_mbuf **pkts, uint16_t n);
	/** The device's own RX drops (zeros if it has none). */
	void (*rx_drops)(void *dev, struct sl_port_rx_drops *d);
	/** The DUT model's ground truth of frames this port sent; false if none. */
	bool (*dut)(void *dev, struct sl_port_dut *d);
	/**
	 * Take the link down or up now, also during a run (fault injection;
	 * testpmd's set link-down|link-up). Returns 0, -ENOTSUP when the driver
	 * cannot, or -ENODEV when the port has no device yet (a sim before its
	 * first start).
	 */
	int (*link)(void *dev, bool up);
};

#endif /* SL_PORT_H */
