/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_DRV_PORT_H
#define SL_DRV_PORT_H

/**
 * @file
 * What a driver says of its port, as plain data: the configuration
 * (lib/config) reads it to check a run, the drivers (drivers/net) fill it
 * when a port opens. Below both, so that neither includes the other.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

/** LLTX choice for a port. */
enum sl_lltx {
	SL_LLTX_AUTO = 0, /**< as the driver advertises */
	SL_LLTX_ON,       /**< forced: the user vouches the driver is MT-safe */
	SL_LLTX_OFF,      /**< never */
};

/** What a port is, filled when it is opened. */
struct sl_port_info {
	char name[64];
	char driver[32];
	int socket;            /**< NUMA socket, or SOCKET_ID_ANY */
	uint64_t speed_bps;    /**< link speed in bit/s (the line rate), 0 if unknown */
	uint16_t mtu;          /**< MTU in force (the device's at open, the one set after setup);
				    the largest untagged frame with FCS is mtu + 18 */
	uint16_t min_mtu, max_mtu; /**< the MTUs the device accepts (at most SL_PORT_MAX_MTU) */
	uint16_t max_txq;      /**< TX queues the device offers; 0: no limit of its own */
	uint32_t tx_hold;      /**< frames the driver may keep after its descriptors let
				    them go (a sim's DUT queue): the sender's pool covers
				    them, or it runs dry and paces short */
	struct rte_ether_addr mac;
	int32_t wire_to;       /**< the port the driver's own wire delivers to (a sim DUT), or -1 */
	/*
	 * Facts about the driver the application acts on, so that it never
	 * asks which driver or kind a port is:
	 */
	bool speed_made_up;    /**< speed_bps is a figure nothing enforces (net_null says 10G
				    and takes 60 Mpps): a rate at it is paced, not left to the
				    wire. False for a NIC and the sim, whose wire enforces it */
	bool peer_filters_mac; /**< what receives the port's frames drops those not addressed
				    to it (a NIC's peer, a kernel interface): the default
				    destination MAC is worth a warning */
};

/** The largest MTU Sluice sets (frames of 9018 B with FCS, 9022 B tagged). */
#define SL_PORT_MAX_MTU 9000

#endif /* SL_DRV_PORT_H */
