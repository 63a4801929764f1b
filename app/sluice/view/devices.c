/* SPDX-License-Identifier: BSD-3-Clause */
/* The devices in the JSON summary (docs/devices.md), from a snapshot only. */

#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "counters.h"
#include "devices.h"

static void
json_neigh(struct sl_json *j, const struct sl_dev_state *d, bool v6)
{
	const struct sl_dev_neigh *n = v6 ? &d->n6 : &d->n4;
	char a[INET6_ADDRSTRLEN], m[RTE_ETHER_ADDR_FMT_SIZE];

	if (n->state == SL_DEV_N_NONE)
		return;
	inet_ntop(v6 ? AF_INET6 : AF_INET, v6 ? (const void *)d->conf.gw6 :
		  (const void *)&d->conf.gw4, a, sizeof(a));
	sl_json_obj_open(j, NULL);
	sl_json_str(j, "ip", v6 ? "ipv6" : "ipv4");
	sl_json_str(j, "gateway", a);
	if (n->state == SL_DEV_N_REACHABLE || n->state == SL_DEV_N_PROBE ||
	    n->state == SL_DEV_N_PERMANENT) {
		rte_ether_format_addr(m, sizeof(m), &n->mac);
		sl_json_str(j, "mac", m);
	}
	sl_json_str(j, "state", sl_dev_nstate_name(n->state));
	sl_json_obj_close(j);
}

void
sl_report_json_devices(struct sl_json *j, const struct sl_results *r)
{
	if (r->nb_dev == 0)
		return;
	sl_json_arr_open(j, "devices");
	for (uint16_t i = 0; i < r->nb_dev; i++) {
		const struct sl_dev_state *d = &r->dev[i];
		const struct sl_dev_stats *s = &d->st;
		char m[RTE_ETHER_ADDR_FMT_SIZE];

		rte_ether_format_addr(m, sizeof(m), &d->conf.mac);
		sl_json_obj_open(j, NULL);
		sl_json_str(j, "name", d->conf.name);
		sl_json_u64(j, "port", d->conf.port);
		sl_json_str(j, "mac", m);
		sl_json_u64(j, "vlan", d->conf.vlan);
		for (const struct sl_counter *c = sl_dev_counters; c->name != NULL; c++)
			sl_json_u64(j, c->name, sl_counter_get(c, s));
		sl_json_arr_open(j, "neighbors");
		json_neigh(j, d, false);
		json_neigh(j, d, true);
		sl_json_arr_close(j);
		sl_json_obj_close(j);
	}
	sl_json_arr_close(j);
}
