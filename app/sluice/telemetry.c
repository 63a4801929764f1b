/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry: the run's totals, ports and queues under /sluice/, beside
 * DPDK's /ethdev/ endpoints, read with dpdk-telemetry.py. Callbacks run on
 * DPDK's telemetry thread: counters are read with relaxed loads (they have
 * one writer each), and tel_lock keeps a run from being freed meanwhile.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "sl_app.h"

static struct sl_app *tel_app;

static int
tel_port(const char *params, int *port)
{
	char *end;
	long v;

	if (params == NULL || *params == '\0')
		return -EINVAL;
	v = strtol(params, &end, 10);
	if (*end != '\0' || v < 0 || v >= tel_app->nb_ports)
		return -EINVAL;
	*port = (int)v;
	return 0;
}

static int
tel_totals(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct port_totals all;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_spinlock_lock(&tel_app->tel_lock);
	sl_report_totals(tel_app, &all);
	rte_spinlock_unlock(&tel_app->tel_lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "generated", all.generated);
	rte_tel_data_add_dict_u64(d, "tx_packets", all.tx_packets);
	rte_tel_data_add_dict_u64(d, "tx_bytes", all.tx_bytes);
	rte_tel_data_add_dict_u64(d, "dropped", all.dropped);
	rte_tel_data_add_dict_u64(d, "backlog", all.backlog);
	rte_tel_data_add_dict_u64(d, "running", tel_app->running);
	rte_tel_data_add_dict_u64(d, "runs", tel_app->runs);
	return 0;
}

static int
tel_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct port_totals pt;
	int port;

	RTE_SET_USED(cmd);
	if (params == NULL || *params == '\0') {
		rte_tel_data_start_array(d, RTE_TEL_U64_VAL);
		for (uint16_t i = 0; i < tel_app->nb_ports; i++)
			rte_tel_data_add_array_u64(d, i);
		return 0;
	}
	if (tel_port(params, &port) != 0)
		return -EINVAL;
	rte_spinlock_lock(&tel_app->tel_lock);
	sl_report_port_totals(tel_app, port, &pt);
	rte_spinlock_unlock(&tel_app->tel_lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", tel_app->ports[port].name);
	rte_tel_data_add_dict_string(d, "driver", tel_app->ports[port].driver);
	rte_tel_data_add_dict_u64(d, "link_speed_mbps", tel_app->ports[port].speed_mbps);
	rte_tel_data_add_dict_u64(d, "generated", pt.generated);
	rte_tel_data_add_dict_u64(d, "tx_packets", pt.tx_packets);
	rte_tel_data_add_dict_u64(d, "tx_bytes", pt.tx_bytes);
	rte_tel_data_add_dict_u64(d, "dropped", pt.dropped);
	rte_tel_data_add_dict_u64(d, "backlog", pt.backlog);
	return 0;
}

static int
tel_txqs(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct sl_port *p;
	int port;

	RTE_SET_USED(cmd);
	if (tel_port(params, &port) != 0)
		return -EINVAL;
	p = &tel_app->ports[port];
	rte_tel_data_start_dict(d);
	rte_spinlock_lock(&tel_app->tel_lock);
	for (uint16_t q = 0; q < p->nb_txq; q++) {
		struct rte_tel_data *c;
		struct sl_txq_stats st;
		char name[16];

		if (p->txqs[q].txq == NULL || (c = rte_tel_data_alloc()) == NULL)
			continue;
		sl_txq_stats_get(p->txqs[q].txq, &st);
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_string(c, "mode", sl_txq_mode_name(sl_txq_get_mode(p->txqs[q].txq)));
		rte_tel_data_add_dict_u64(c, "tx_packets", st.tx_packets);
		rte_tel_data_add_dict_u64(c, "busy", st.busy);
		rte_tel_data_add_dict_u64(c, "collisions", st.collisions);
		rte_tel_data_add_dict_u64(c, "locked", st.locked);
		rte_tel_data_add_dict_u64(c, "requeued", st.requeued);
		rte_tel_data_add_dict_u64(c, "backlog", st.backlog);
		rte_tel_data_add_dict_u64(c, "dropped", st.dropped);
		rte_tel_data_add_dict_u64(c, "dead_loops", st.dead_loops);
		snprintf(name, sizeof(name), "%u", q);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	rte_spinlock_unlock(&tel_app->tel_lock);
	return 0;
}

void
sl_telemetry_init(struct sl_app *app)
{
	tel_app = app;
	rte_spinlock_init(&app->tel_lock);
	rte_telemetry_register_cmd("/sluice/totals", tel_totals,
				   "Sluice totals: generated, tx_packets, tx_bytes, dropped, backlog");
	rte_telemetry_register_cmd("/sluice/ports", tel_ports,
				   "Sluice ports; with a port id: its TX counters. Parameters: int port_id");
	rte_telemetry_register_cmd("/sluice/txqs", tel_txqs,
				   "Sluice TX queues of a port: mode and counters. Parameters: int port_id");
}
