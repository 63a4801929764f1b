/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "sl_ethdev.h"

uint16_t
sl_ethdev_xmit(void *txq, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *status)
{
	const struct sl_ethdev_txq *q = txq;
	uint16_t sent = rte_eth_tx_burst(q->port_id, q->queue_id, pkts, n);

	*status = sent == n ? SL_XMIT_OK : SL_XMIT_BUSY;
	return sent;
}

int
sl_ethdev_setup(uint16_t port_id, const struct sl_ethdev_conf *conf, uint32_t *caps,
		char *err, size_t errlen)
{
	struct rte_eth_conf pc = { 0 };
	struct rte_eth_dev_info info;
	struct rte_eth_txconf txc;
	uint16_t nb_rxd = 256, nb_txd = conf->nb_txd;
	int socket = rte_eth_dev_socket_id(port_id);
	int ret;

	if (socket < 0)
		socket = SOCKET_ID_ANY;
	ret = rte_eth_dev_info_get(port_id, &info);
	if (ret != 0) {
		snprintf(err, errlen, "port %u: cannot read device info: %s", port_id,
			 strerror(-ret));
		return ret;
	}
	if (conf->nb_txq > info.max_tx_queues) {
		snprintf(err, errlen,
			 "port %u (%s) has %u TX queue(s), %u asked: use --txq %u, or share queues with --map (e.g. 1-2:%u.0)",
			 port_id, info.driver_name, info.max_tx_queues, conf->nb_txq,
			 info.max_tx_queues, port_id);
		return -EINVAL;
	}
	*caps = 0;
	if (conf->lltx == SL_LLTX_ON) {
		*caps |= SL_DRV_CAP_LLTX;
	} else if (conf->lltx == SL_LLTX_AUTO &&
		   (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MT_LOCKFREE)) {
		pc.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MT_LOCKFREE;
		*caps |= SL_DRV_CAP_LLTX;
	}
	if (conf->rx_timestamp && info.max_rx_queues > 0 &&
	    (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP)) {
		pc.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_TIMESTAMP;
		*caps |= SL_ETHDEV_RX_TS;
	}
	/*
	 * The MTU: configure applies rxmode.mtu (the way testpmd's port config
	 * mtu ends up). Frames longer than the RX pool's buffers are received
	 * in chained segments where the PMD scatters (the analyzer reads
	 * chains); TX frames are one segment, from pools sized to them.
	 */
	if (conf->mtu < info.min_mtu || conf->mtu > info.max_mtu) {
		snprintf(err, errlen, "port %u (%s): MTU %u refused: this device accepts %u to %u "
			 "(--mtu, port config %u mtu)", port_id, info.driver_name, conf->mtu,
			 info.min_mtu, info.max_mtu, port_id);
		return -EINVAL;
	}
	pc.rxmode.mtu = conf->mtu;
	if ((uint32_t)conf->mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN + 2 * RTE_VLAN_HLEN >
	    (uint32_t)(rte_pktmbuf_data_room_size(conf->rx_pool) - RTE_PKTMBUF_HEADROOM) &&
	    (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER))
		pc.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	ret = rte_eth_dev_configure(port_id, info.max_rx_queues > 0 ? 1 : 0, conf->nb_txq, &pc);
	if (ret != 0) {
		snprintf(err, errlen, "port %u (%s): configure with %u TX queue(s), MTU %u failed: %s",
			 port_id, info.driver_name, conf->nb_txq, conf->mtu, strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port_id, &nb_rxd, nb_txd != 0 ? &nb_txd : NULL);
	if (ret != 0 && ret != -ENOTSUP) {
		snprintf(err, errlen, "port %u: descriptor counts refused: %s", port_id,
			 strerror(-ret));
		return ret;
	}
	txc = info.default_txconf;
	txc.offloads = pc.txmode.offloads;
	for (uint16_t q = 0; q < conf->nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(port_id, q, nb_txd, socket, &txc);
		if (ret != 0) {
			snprintf(err, errlen, "port %u: TX queue %u setup (%u descriptors) failed: %s",
				 port_id, q, nb_txd, strerror(-ret));
			return ret;
		}
	}
	if (info.max_rx_queues > 0) {
		ret = rte_eth_rx_queue_setup(port_id, 0, nb_rxd, socket, NULL, conf->rx_pool);
		if (ret != 0) {
			snprintf(err, errlen, "port %u: RX queue setup failed: %s", port_id,
				 strerror(-ret));
			return ret;
		}
	}
	ret = rte_eth_dev_start(port_id);
	if (ret != 0) {
		snprintf(err, errlen, "port %u (%s): start failed: %s", port_id, info.driver_name,
			 strerror(-ret));
		return ret;
	}
	return 0;
}
