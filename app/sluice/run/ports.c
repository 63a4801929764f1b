/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ports: every ethdev port DPDK found (NICs bound with dpdk-devbind.py,
 * --vdev devices), then the simulated ports of --sim, numbered after them.
 * What differs between them is in their port-driver tables.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>

#include "ports.h"
#include "sl_err.h"
#include "sl_ethdev.h"
#include "sl_sim.h"

#define SL_BACKLOG_SIZE 1024

int
sl_ports_open(struct sl_ports *ps, const struct sl_config *o)
{
	uint16_t pid;
	int ret;

	ps->n = 0;
	RTE_ETH_FOREACH_DEV(pid) {
		struct sl_port *p = &ps->p[ps->n];

		if (ps->n == SL_MAX_PORTS)
			break;
		memset(p, 0, sizeof(*p));
		if (sl_ethdev_port_open(pid, &p->info, &p->ops, &p->dev) == 0)
			ps->n++;
	}
	for (uint16_t i = 0; i < o->nb_sims; i++) {
		struct sl_port *p = &ps->p[ps->n];
		struct sl_sim_conf sc;
		char err[256];

		if (ps->n == SL_MAX_PORTS) {
			sl_err("too many ports: at most %d (ethdev + --sim)", SL_MAX_PORTS);
			return -E2BIG;
		}
		memset(p, 0, sizeof(*p));
		if (sl_sim_parse(o->sims[i], &sc, err, sizeof(err)) != 0) {
			sl_err("--sim: %s", err); /* checked at parse: not reached */
			return -EINVAL;
		}
		ret = sl_sim_port_open(&sc, i, &p->info, &p->ops, &p->dev);
		if (ret != 0) {
			sl_err("sim port %u: cannot open it (%s)", i, strerror(-ret));
			return ret;
		}
		ps->n++;
	}
	if (ps->n == 0) {
		sl_err("no ports found: add a virtual port (--no-pci --vdev net_null0), a simulated one "
		       "(-- --sim 10G), or bind a NIC (scripts/sl-nic.sh bind, see docs/nics.md)");
		return -ENODEV;
	}
	return 0;
}

int
sl_ports_sim_check(const char *arg, char *err, size_t len)
{
	struct sl_sim_conf sc;

	return sl_sim_parse(arg, &sc, err, len);
}

void
sl_ports_env(const struct sl_ports *ps, struct sl_config_env *env)
{
	unsigned int lcore;

	memset(env, 0, sizeof(*env));
	env->nb_ports = ps->n;
	for (uint16_t i = 0; i < ps->n; i++) {
		env->port[i].info = ps->p[i].info;
		env->port[i].can_rx = ps->p[i].ops->rx_burst != NULL;
		env->port[i].has_tx_burst = ps->p[i].ops->tx_burst != NULL;
	}
	env->main_lcore = (uint16_t)rte_get_main_lcore();
	env->nb_lcores = (uint16_t)rte_lcore_count();
	RTE_LCORE_FOREACH_WORKER(lcore)
		if (lcore < SL_CONFIG_MAX_LCORE)
			env->worker[lcore] = true;
}

int
sl_ports_setup(struct sl_ports *ps, const struct sl_config *o, const bool *rx)
{
	char err[256];

	for (uint16_t i = 0; i < ps->n; i++) {
		struct sl_port *p = &ps->p[i];
		struct sl_port_setup c = {
			.nb_txq = p->nb_txq,
			.nb_txd = o->pc[i].txd,
			.mtu = o->pc[i].mtu,
			.lltx = o->pc[i].lltx,
			.rx = rx[i],
			.rx_hw_ts = rx[i] && !o->rx_clock_tsc,
			.promisc = p->txqs[0].ctl,
		};
		int ret = p->ops->setup(p->dev, &c, err, sizeof(err));

		if (ret != 0) {
			sl_err("port %u (%s): %s", i, p->info.name, err);
			return ret;
		}
		p->caps = c.caps;
		p->info.mtu = c.mtu;
		p->txd = c.nb_txd;
		p->rx_hw_ts = c.rx_hw_ts;
		p->set_up = true;
	}
	return 0;
}

int
sl_ports_txqs_create(struct sl_ports *ps, enum sl_lock_policy lock)
{
	for (uint16_t i = 0; i < ps->n; i++) {
		struct sl_port *p = &ps->p[i];

		for (uint16_t q = 0; q < p->nb_txq; q++) {
			struct sl_app_txq *aq = &p->txqs[q];
			struct sl_txq_conf c = {
				.xmit = p->ops->xmit,
				.drv_queue = p->ops->txq(p->dev, q),
				.drv_caps = p->caps,
				.mode = sl_txq_mode_select(aq->nb_lcores + aq->ctl, p->caps, lock),
				.backlog_size = SL_BACKLOG_SIZE,
				.port_id = i,
				.queue_id = q,
				.socket_id = p->info.socket,
			};

			aq->port = i;
			aq->queue = q;
			memset(&aq->base, 0, sizeof(aq->base));
			aq->txq = sl_txq_create(&c);
			if (aq->txq == NULL) {
				sl_err("port %u queue %u: cannot create the queue object (%s)", i, q,
				       rte_strerror(rte_errno));
				return -ENOMEM;
			}
		}
	}
	return 0;
}

uint64_t
sl_ports_quiesce(struct sl_ports *ps, uint64_t timeout_us)
{
	uint64_t discarded = 0;

	for (uint16_t i = 0; i < ps->n; i++) {
		struct sl_port *p = &ps->p[i];

		for (uint16_t q = 0; q < p->nb_txq; q++) {
			int dropped;

			if (p->txqs[q].txq == NULL)
				continue;
			dropped = sl_txq_flush(p->txqs[q].txq, timeout_us);
			if (dropped == -EBUSY)
				sl_err("port %u queue %u: still owned at stop; its backlog was not flushed",
				       i, q);
			if (dropped > 0)
				printf("port %u queue %u: %d packet(s) still queued at stop were dropped "
				       "(device did not take them within %u ms)\n",
				       i, q, dropped, (unsigned int)(timeout_us / 1000));
		}
		if (p->set_up)
			discarded += p->ops->quiesce(p->dev, timeout_us);
	}
	return discarded;
}

void
sl_ports_stop(struct sl_ports *ps)
{
	for (uint16_t i = 0; i < ps->n; i++)
		ps->p[i].ops->stop(ps->p[i].dev);
}

void
sl_ports_txqs_free(struct sl_ports *ps)
{
	for (uint16_t i = 0; i < ps->n; i++) {
		struct sl_port *p = &ps->p[i];

		for (uint16_t q = 0; q < SL_MAX_TXQ; q++) {
			sl_txq_free(p->txqs[q].txq);
			p->txqs[q].txq = NULL;
		}
		p->nb_txq = 0;
	}
}

void
sl_ports_close(struct sl_ports *ps)
{
	sl_ports_txqs_free(ps);
	for (uint16_t i = 0; i < ps->n; i++) {
		ps->p[i].ops->close(ps->p[i].dev);
		ps->p[i].dev = NULL;
	}
	ps->n = 0;
}
