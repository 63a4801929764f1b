/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a results snapshot (results.h). */

#include <string.h>

#include "results.h"

const struct sl_results_rx *
sl_results_rx(const struct sl_results *r, uint16_t s, uint16_t rx_port)
{
	const struct sl_results_rx *x;

	if (s >= r->nb_ports || rx_port >= r->nb_ports || !r->port[rx_port].rx_on)
		return NULL;
	x = &r->rx[(uint32_t)s * r->nb_ports + rx_port];
	return x->on ? x : NULL;
}

const struct sl_results_rx *
sl_results_flow_rx(const struct sl_results *r, uint16_t f, uint16_t rx_port)
{
	const struct sl_results_rx *x;

	if (f >= r->nb_flows || rx_port >= r->nb_ports || !r->port[rx_port].rx_on)
		return NULL;
	x = &r->frx[(uint32_t)f * r->nb_ports + rx_port];
	/* No table: stream f is port f's one stream, whose record (and histogram) is the port's. */
	if (!r->table)
		return sl_results_rx(r, f, rx_port);
	return x->on ? x : NULL;
}

void
sl_results_flow_sum(const struct sl_results *r, uint16_t f, struct sl_rx_stream_stats *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (uint16_t p = 0; p < r->nb_ports; p++) {
		const struct sl_results_rx *x = sl_results_flow_rx(r, f, p);

		if (x != NULL)
			sl_results_stats_add(sum, &x->st);
	}
}

void
sl_results_stream(const struct sl_results *r, uint16_t s, int rx_port,
		  struct sl_stream_result *res)
{
	const struct sl_results_rx *x = rx_port >= 0 ? sl_results_rx(r, s, (uint16_t)rx_port) :
				       NULL;

	memset(res, 0, sizeof(*res));
	res->stream = s;
	res->rx_port = rx_port;
	if (s >= r->nb_ports)
		return;
	res->unique = r->unique[s];
	res->tx_all = r->port[s].tot.tx_packets;
	res->tx = r->port[s].signed_tx;
	res->lost = (int64_t)res->tx - (int64_t)res->unique;
	res->loss_ratio = res->tx != 0 ? (double)res->lost / (double)res->tx : 0;
	if (x != NULL)
		res->st = x->st;
}

void
sl_results_streams(const struct sl_results *r,
		   void (*fn)(const struct sl_stream_result *res, void *arg), void *arg)
{
	for (uint16_t s = 0; s < r->nb_ports; s++) {
		struct sl_stream_result res;
		bool given = false;

		for (uint16_t p = 0; p < r->nb_ports; p++) {
			if (!r->port[p].rx_on)
				continue;
			sl_results_stream(r, s, p, &res);
			if (res.st.rx == 0)
				continue;
			fn(&res, arg);
			given = true;
		}
		if (!given && r->measured[s]) {
			sl_results_stream(r, s, -1, &res);
			fn(&res, arg);
		}
	}
}

