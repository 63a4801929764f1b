/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_ETHDEV_H
#define SL_ETHDEV_H

/**
 * @file
 * The ethdev driver: any DPDK port (a NIC bound with dpdk-devbind.py, or a
 * vdev) behind the driver contract of sl_xmit.h.
 *
 * rte_eth_tx_burst() cannot say "locked", so this driver answers only
 * SL_XMIT_OK or SL_XMIT_BUSY. It has SL_DRV_CAP_LLTX when the PMD offers
 * RTE_ETH_TX_OFFLOAD_MT_LOCKFREE and it was enabled, or when the user forces
 * LLTX for a PMD known to be MT-safe on one queue.
 */

#include <stdint.h>

#include <rte_ethdev.h>

#include "sl_drv.h"
#include "sl_port.h"

/** sl_ethdev_setup(): the PMD stamps received frames (RTE_ETH_RX_OFFLOAD_TIMESTAMP). */
#define SL_ETHDEV_RX_TS (1u << 31)

/** Driver queue handle: the port and queue ids. */
struct sl_ethdev_txq {
	uint16_t port_id;
	uint16_t queue_id;
};

struct sl_ethdev_conf {
	uint16_t nb_txq;   /**< TX queues to configure (>= 1) */
	uint16_t nb_txd;   /**< descriptors per TX queue; 0 = PMD default */
	enum sl_lltx lltx;
	struct rte_mempool *rx_pool; /**< pool for the one RX queue PMDs need */
	bool rx_timestamp;           /**< ask for RTE_ETH_RX_OFFLOAD_TIMESTAMP if offered */
	uint16_t mtu;                /**< the MTU to configure (rxmode.mtu), > 0 */
};

/**
 * Configure and start a port: nb_txq TX queues on the port's socket, one RX
 * queue (some PMDs refuse to start without one; it is never polled). The
 * port-driver table (sl_ethdev_port_open()) calls this.
 *
 * @param[out] caps  the driver capabilities of its queues (SL_DRV_CAP_*); with
 *   conf->rx_timestamp, *caps gets SL_ETHDEV_RX_TS when the offload is on.
 * @param[out] err   a message saying what went wrong and what to do.
 * @return 0, or a negative errno (the port is left stopped).
 */
int sl_ethdev_setup(uint16_t port_id, const struct sl_ethdev_conf *conf, uint32_t *caps,
		    char *err, size_t errlen);

/**
 * Open ethdev port @p port_id as a Sluice port: fill @p info and return the
 * port-driver table and the driver's handle (freed by ops->close).
 * @return 0, or a negative errno.
 */
int sl_ethdev_port_open(uint16_t port_id, struct sl_port_info *info,
			const struct sl_port_ops **ops, void **dev);

/** The driver entry point (sl_drv_xmit_t). */
uint16_t sl_ethdev_xmit(void *txq, struct rte_mbuf **pkts, uint16_t n,
			enum sl_xmit_status *status);

#endif /* SL_ETHDEV_H */
