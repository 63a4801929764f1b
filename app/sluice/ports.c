/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ports: every ethdev port DPDK found (NICs bound with dpdk-devbind.py,
 * --vdev devices), then the simulated ports of --sim, numbered after them.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "sl_app.h"

int
sl_ports_probe(struct sl_app *app)
{
	struct sl_opts *o = &app->o;
	uint16_t pid;

	app->nb_ports = 0;
	RTE_ETH_FOREACH_DEV(pid) {
		struct sl_port *p = &app->ports[app->nb_ports];
		struct rte_eth_dev_info info;
		struct rte_eth_link link;
		uint16_t mtu = RTE_ETHER_MTU;

		if (app->nb_ports == SL_MAX_PORTS)
			break;
		if (rte_eth_dev_info_get(pid, &info) != 0)
			continue;
		memset(p, 0, sizeof(*p));
		p->eth_id = pid;
		rte_eth_dev_get_name_by_port(pid, p->name);
		snprintf(p->driver, sizeof(p->driver), "%s", info.driver_name);
		p->socket = rte_eth_dev_socket_id(pid);
		if (rte_eth_dev_get_mtu(pid, &mtu) != 0)
			mtu = RTE_ETHER_MTU;
		p->max_frame = mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
		rte_eth_macaddr_get(pid, &p->mac);
		if (rte_eth_link_get_nowait(pid, &link) == 0 &&
		    link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
		    link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			p->speed_mbps = link.link_speed;
		app->nb_ports++;
	}
	for (uint16_t i = 0; i < o->nb_sims; i++) {
		struct sl_port *p = &app->ports[app->nb_ports];

		if (app->nb_ports == SL_MAX_PORTS) {
			sl_err("too many ports: at most %d (ethdev + --sim)", SL_MAX_PORTS);
			return -E2BIG;
		}
		memset(p, 0, sizeof(*p));
		p->is_sim = true;
		p->verify = o->sims[i].verify;
		snprintf(p->name, sizeof(p->name), "sim%u", i);
		snprintf(p->driver, sizeof(p->driver), "sl_sim");
		p->socket = (int)rte_socket_id();
		p->max_frame = RTE_ETHER_MAX_LEN;
		p->speed_mbps = (uint32_t)(o->sims[i].speed_bps / 1000000);
		p->mac = (struct rte_ether_addr){ { 0x02, 0x51, 0xce, 0x00, 0x00, (uint8_t)i } };
		app->nb_ports++;
	}
	if (app->nb_ports == 0) {
		sl_err("no ports found: add a virtual port (--vdev net_null0), a simulated one "
		       "(-- --sim 10G), or bind a NIC (scripts/sl-nic.sh bind, see docs/nics.md)");
		return -ENODEV;
	}
	return 0;
}

/* Configure and start every port with the queues the map gave it. */
int
sl_ports_start(struct sl_app *app)
{
	struct sl_opts *o = &app->o;
	uint16_t sim_idx = 0;
	char err[256];

	for (uint16_t i = 0; i < app->nb_ports; i++) {
		struct sl_port *p = &app->ports[i];

		if (p->is_sim) {
			const struct sl_sim_spec *s = &o->sims[sim_idx++];

			sl_sim_free(p->sim);
			struct sl_sim_conf sc = {
				.speed_bps = s->speed_bps,
				.txd = o->pc[i].txd != 0 ? o->pc[i].txd : s->txd,
				.nb_txq = p->nb_txq,
				.lltx = s->lltx,
				.verify = s->verify,
				.socket_id = p->socket,
			};

			p->sim = sl_sim_create(&sc);
			if (p->sim == NULL) {
				sl_err("sim port %u: cannot create (%s)", i, rte_strerror(rte_errno));
				return -ENOMEM;
			}
			/*
			 * --lltx off: the engine does not use the capability (it
			 * locks the queue itself); the driver keeps its own lock,
			 * as an LLTX NIC driver would. --lltx on: a sim without
			 * its own lock is not MT-safe, so it cannot be forced.
			 */
			p->caps = o->pc[i].lltx == SL_LLTX_OFF ? 0 : sl_sim_caps(p->sim);
		} else {
			if (p->started)
				rte_eth_dev_stop(p->eth_id);
			p->started = false;
			struct sl_ethdev_conf ec = {
				.nb_txq = p->nb_txq,
				.nb_txd = o->pc[i].txd,
				.lltx = o->pc[i].lltx,
				.rx_pool = app->rx_pool,
			};
			int ret = sl_ethdev_setup(p->eth_id, &ec, &p->caps, err, sizeof(err));

			if (ret != 0) {
				sl_err("%s", err);
				return ret;
			}
		}
		p->started = true;
	}
	return 0;
}

void
sl_ports_close(struct sl_app *app)
{
	for (uint16_t i = 0; i < app->nb_ports; i++) {
		struct sl_port *p = &app->ports[i];

		if (p->is_sim)
			continue;
		if (p->started)
			rte_eth_dev_stop(p->eth_id);
		rte_eth_dev_close(p->eth_id);
		p->started = false;
	}
}

/* Free the simulated ports and the queue objects (after the report). */
void
sl_ports_free(struct sl_app *app)
{
	for (uint16_t i = 0; i < app->nb_ports; i++) {
		struct sl_port *p = &app->ports[i];

		for (uint16_t q = 0; q < p->nb_txq; q++) {
			sl_txq_free(p->txqs[q].txq);
			p->txqs[q].txq = NULL;
		}
		if (p->is_sim) {
			sl_sim_free(p->sim);
			p->sim = NULL;
		}
	}
}
