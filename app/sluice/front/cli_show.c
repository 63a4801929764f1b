/* SPDX-License-Identifier: BSD-3-Clause */
/* CLI: show port info|stats|xstats, show txq stats, show config. */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "cli.h"
#include "metrics.h"
#include "sl_wire.h"
#include "sl_clock.h"

static void
port_info(const struct sl_app *app, uint16_t i)
{
	const struct sl_port *p = &app->ports.p[i];
	const struct sl_port_conf *pc = &app->cfg.pc[i];
	char mac[RTE_ETHER_ADDR_FMT_SIZE], speed[32];

	rte_ether_format_addr(mac, sizeof(mac), &p->info.mac);
	printf("port %u: %s, driver %s, MAC %s, NUMA socket %d, link %s, MTU %u (%u to %u), "
	       "max frame %u (%u tagged)%s\n",
	       i, p->info.name, p->info.driver, mac, p->info.socket,
	       sl_rate_speed_str(p->info.speed_bps, speed, sizeof(speed)), sl_session_mtu(app, i),
	       p->info.min_mtu, p->info.max_mtu, sl_session_max_frame(app, i, false),
	       sl_session_max_frame(app, i, true),
	       pc->stopped ? ", stopped (port start to use it)" : "");
	{
		char q[32], d[32];

		snprintf(q, sizeof(q), "%u", pc->txq);
		snprintf(d, sizeof(d), "%u", pc->txd);
		printf("  txq %s, txd %s, mtu %s, lltx %s%s\n",
		       pc->txq != 0 ? q : "auto (as the map needs)",
		       pc->txd != 0 ? d : "auto (the driver's default)",
		       pc->mtu != 0 ? "set" : "auto (the port's own)",
		       pc->lltx == SL_LLTX_ON ? "on" : pc->lltx == SL_LLTX_OFF ? "off" : "auto",
		       (p->caps & SL_DRV_CAP_LLTX) ? " (driver is LLTX)" : "");
	}
}

/*
 * testpmd's layout (`show port stats`): the counters since the port's last
 * clear, then the throughput since that clear and since the last show.
 */
static void
port_stats(struct sl_app *app, const struct sl_results *r, uint16_t i)
{
	const struct sl_port *p = &app->ports.p[i];
	const struct sl_results_port *rp = &r->port[i];
	struct sl_view *v = &app->views.view[i];
	const struct sl_port_totals pt = rp->view;
	uint64_t now = app->ses.end_tsc != 0 ? app->ses.end_tsc : rte_rdtsc();
	double hz = (double)sl_tsc_hz();
	char title[96], rates[96];

	snprintf(title, sizeof(title), " port %u statistics (%.40s)%s ", i, p->info.name,
		 app->ses.running ? "" : app->ses.runs != 0 ? ", last run" : ", no run yet");
	printf("  ######################%s", title);
	for (size_t k = strlen(title); k < 56; k++)
		putchar('#');
	printf("\n");
	sl_counter_print(sl_port_counters, sl_port_show_fmt, &pt);
	printf("\n");
	if (rp->rx_on) {
		const struct sl_port_rx_drops dr = rp->drops;
		const struct sl_rx_port_stats rs = rp->rx;

		printf("  RX-packets: %-14" PRIu64 " RX-missed: %-11" PRIu64 " RX-bytes: %-16" PRIu64
		       "\n  RX-errors: %" PRIu64 " RX-nombuf: %" PRIu64 "  signed %" PRIu64
		       " foreign %" PRIu64 " bad_signature %" PRIu64 " stale %" PRIu64 "\n",
		       rs.frames, dr.imissed, rs.bytes, dr.ierrors, dr.rx_nombuf, rs.rx, rs.foreign,
		       rs.bad_signature, rs.stale);
	}
	if (app->ses.runs != 0 && now > v->clear_tsc) {
		sl_report_rates(rates, sizeof(rates), pt.tx_packets, pt.tx_bytes,
				(now - v->clear_tsc) / hz, p->info.speed_bps, true);
		printf("  Throughput (since %s, %.2f s):\n  Tx-rate: %s\n",
		       v->clear_tsc == app->ses.start_tsc ? "the start" : "the clear",
		       (now - v->clear_tsc) / hz, rates);
	}
	if (app->ses.runs != 0 && now > v->show_tsc && v->show_tsc != v->clear_tsc) {
		sl_report_rates(rates, sizeof(rates), pt.tx_packets - v->show_pkts,
				pt.tx_bytes - v->show_bytes, (now - v->show_tsc) / hz,
				p->info.speed_bps, true);
		printf("  Throughput (since last show, %.2f s):\n  Tx-rate: %s\n",
		       (now - v->show_tsc) / hz, rates);
	}
	printf("  ##############################################################################\n");
	v->show_tsc = now;
	v->show_pkts = pt.tx_packets;
	v->show_bytes = pt.tx_bytes;
}

static void
port_xstats(const struct sl_app *app, uint16_t i)
{
	const struct sl_port *p = &app->ports.p[i];
	struct sl_port_stat *st;
	int n = p->ops->xstats(p->dev, NULL, 0);

	if (n <= 0) {
		printf("port %u: no extended statistics%s\n", i,
		       app->ses.runs == 0 ? " (no run yet)" : "");
		return;
	}
	st = calloc(n, sizeof(*st));
	if (st == NULL)
		return;
	n = p->ops->xstats(p->dev, st, n);
	printf("port %u (%s, %s):\n", i, p->info.name, p->ops->kind);
	for (int k = 0; k < n; k++)
		printf("  %-32s %" PRIu64 "\n", st[k].name, st[k].value);
	free(st);
}

static void
cmd_show_port(struct sl_cli *cli, int argc, char **argv)
{
	int port = sl_cli_port(cli, argv[3], true);
	struct sl_results *r = NULL;

	RTE_SET_USED(argc);
	if (port < 0)
		return;
	if (strcmp(argv[2], "stats") == 0 && (r = sl_results_take_opt(cli->app, false)) == NULL) {
		sl_cli_error(cli, "out of memory");
		return;
	}
	for (uint16_t i = 0; i < cli->app->ports.n; i++) {
		if (port != SL_MAX_PORTS && port != i)
			continue;
		if (strcmp(argv[2], "info") == 0)
			port_info(cli->app, i);
		else if (strcmp(argv[2], "stats") == 0)
			port_stats(cli->app, r, i);
		else
			port_xstats(cli->app, i);
	}
	sl_results_free(r);
}

static void
cmd_show_txq(struct sl_cli *cli, int argc, char **argv)
{
	int port = argc > 3 ? sl_cli_port(cli, argv[3], true) : SL_MAX_PORTS;
	const struct sl_counter *c;
	struct sl_results *r;
	bool any = false;

	if (port < 0)
		return;
	r = sl_results_take_opt(cli->app, false);
	if (r == NULL) {
		sl_cli_error(cli, "out of memory");
		return;
	}
	printf("%-4s %-5s %-9s %-12s", "port", "queue", "mode", "lcores");
	for (c = sl_txq_counters; c->name != NULL; c++)
		if (c->flags & SL_CNT_SHOW)
			printf(" %*s", c->width, c->col);
	printf("\n");
	for (uint16_t i = 0; i < cli->app->ports.n; i++) {
		if (port != SL_MAX_PORTS && port != i)
			continue;
		for (uint16_t q = 0; q < r->port[i].nb_txq; q++) {
			const struct sl_results_txq *x = &r->txq[r->port[i].txq0 + q];

			if (!x->exists)
				continue;
			printf("%-4u %-5u %-9s %-12s", i, q, sl_txq_mode_name(x->mode), x->lcores);
			for (c = sl_txq_counters; c->name != NULL; c++) {
				uint64_t v = sl_counter_get(c, &x->st);

				if (!(c->flags & SL_CNT_SHOW))
					continue;
				if (!(c->flags & SL_CNT_GAUGE))
					v -= sl_counter_get(c, &x->base);
				printf(" %*" PRIu64, c->width, v);
			}
			printf("\n");
			any = true;
		}
	}
	sl_results_free(r);
	if (!any)
		printf("(no queues yet: start builds them)\n");
}

/* show stream stats [<id>] and show latency [<id>]: per stream, where it arrived. */
static void
stream_lines(struct sl_cli *cli, int argc, char **argv, bool latency)
{
	const struct sl_app *app = cli->app;
	struct sl_results *rr;
	int want = -1, shown = 0;

	if (argc > (latency ? 2 : 3) && strcmp(argv[argc - 1], "all") != 0) {
		uint64_t v;

		if (sl_cli_u64(cli, "stream", argv[argc - 1], 0, app->ports.n - 1, &v) != 0)
			return;
		want = (int)v;
	}
	rr = sl_results_take(app);
	if (rr == NULL) {
		sl_cli_error(cli, "out of memory");
		return;
	}
	for (uint16_t s = 0; s < app->ports.n; s++) {
		if (want >= 0 && want != s)
			continue;
		for (uint16_t r = 0; r < app->ports.n; r++) {
			const struct sl_results_rx *x = sl_results_rx(rr, s, r);
			struct sl_stream_result res;
			const uint64_t *h;

			if (x == NULL || x->st.rx == 0 || x->hist == NULL)
				continue;
			sl_results_stream(rr, s, r, &res);
			shown++;
			if (!latency) {
				const struct sl_stream_base *b = &app->views.rx_base[s][r];
				uint64_t tx = res.tx - b->tx, unique = res.unique - b->unique;
				int64_t lost = (int64_t)tx - (int64_t)unique;

				printf("stream %u: port %u -> %u  tx %" PRIu64 " rx %" PRIu64 " unique %"
				       PRIu64 " lost %" PRId64 " (%.4g%%) dup %" PRIu64 " reordered %"
				       PRIu64 " late %" PRIu64 "%s\n", s, s, r, tx, res.st.rx - b->rx, unique,
				       lost, tx != 0 ? (double)lost / tx * 100 : 0,
				       res.st.duplicates - b->duplicates, res.st.reordered - b->reordered,
				       res.st.late - b->late, b->tx != 0 || b->rx != 0 ?
				       " (since the clear; in flight counts as lost until it arrives)" : "");
				continue;
			}
			h = x->hist;
#define Q(h_, q_) sl_rx_quantile(h_, q_, res.st.lat_min, res.st.lat_max)
			printf("stream %u: port %u -> %u latency (%s clock, us): samples %" PRIu64
			       " min %.3f mean %.3f p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f p99.99 %.3f "
			       "max %.3f jitter %.3f\n", s, s, r, sl_rx_clock_name(&res.st),
			       res.st.lat_count,
			       res.st.lat_min / 1e3,
			       res.st.lat_count ? res.st.lat_sum / res.st.lat_count / 1e3 : 0,
			       Q(h, 0.5) / 1e3, Q(h, 0.9) / 1e3, Q(h, 0.99) / 1e3, Q(h, 0.999) / 1e3,
			       Q(h, 0.9999) / 1e3, res.st.lat_max / 1e3,
			       res.st.jitter_ns / 1e3);
			if (res.st.lat_backwards != 0)
				printf("stream %u: %" PRIu64 " frame(s) arrived before they were "
				       "sent, by the clocks, since the start: not samples (docs/measure.md)\n", s,
				       res.st.lat_backwards);
#undef Q
		}
	}
	sl_results_free(rr);
	if (shown == 0)
		printf("(nothing received%s: give --rx, or address a stream to a receiving port)\n",
		       want >= 0 ? " on that stream" : "");
}

static void
cmd_show_stream(struct sl_cli *cli, int argc, char **argv)
{
	stream_lines(cli, argc, argv, false);
}

static void
cmd_show_latency(struct sl_cli *cli, int argc, char **argv)
{
	stream_lines(cli, argc, argv, true);
}

static void show_streams(const struct sl_config *o, const struct sl_stream_conf *c, char *a,
			 char *b);
static void show_map(const struct sl_config *o);
static void show_ports(const struct sl_app *app);

static void
cmd_show_config(struct sl_cli *cli, int argc, char **argv)
{
	const struct sl_config *o = &cli->app->cfg;
	const struct sl_stream_conf *c = &o->sc;
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	const char *what = argc > 2 ? argv[2] : "all";
	bool all = strcmp(what, "all") == 0;

	if (!all && strcmp(what, "map") != 0 && strcmp(what, "streams") != 0 &&
	    strcmp(what, "ports") != 0) {
		sl_cli_error(cli, "show config: '%s': give map, streams, ports or all", what);
		return;
	}
	if (all || strcmp(what, "streams") == 0)
		show_streams(o, c, a, b);
	if (all)
		printf("burst %u\nlock %s\n", o->burst, o->lock == SL_LOCK_SPIN ? "spin" : "trylock");
	if (all || strcmp(what, "map") == 0)
		show_map(o);
	if (all || strcmp(what, "ports") == 0)
		show_ports(cli->app);
}

static void
show_streams(const struct sl_config *o, const struct sl_stream_conf *c, char *a, char *b)
{
	if (c->size_max != 0) {
		printf("size %u-%u\n", c->size_min, c->size_max);
	} else {
		/* A weight is shown only where sizes have several (64:7,594:4,1518:1). */
		bool weighted = false;

		for (uint16_t i = 0; i < c->nb_sizes; i++)
			weighted |= c->weights[i] > 1;
		printf("size");
		for (uint16_t i = 0; i < c->nb_sizes; i++) {
			printf("%s%u", i ? "," : " ", c->sizes[i]);
			if (weighted)
				printf(":%u", c->weights[i] ? c->weights[i] : 1);
		}
		printf(" bytes with FCS%s%s\n", c->nb_sizes > 1 && !weighted ? ", in turn" : "",
		       o->size_given ? "" : " (default: the smallest the headers allow)");
	}
	printf("flows %u\n", c->flows > 1 ? c->flows : 1);
	if (c->nb_fields == 0)
		printf("field off\n");
	for (uint16_t i = 0; i < c->nb_fields; i++) {
		char f[160];

		sl_config_field_str(&c->fields[i], f, sizeof(f));
		printf("field %s\n", f);
	}
	if (o->duration_us != 0)
		printf("duration %.6g s\n", o->duration_us / 1e6);
	else
		printf("duration off\n");
	if (o->count != 0)
		printf("count %" PRIu64 "\n", o->count);
	else
		printf("count off\n");
	if (c->ipv6) {
		inet_ntop(AF_INET6, c->src_ip6, a, INET6_ADDRSTRLEN);
		inet_ntop(AF_INET6, c->dst_ip6, b, INET6_ADDRSTRLEN);
	} else {
		struct in_addr s = { htonl(c->src_ip) }, d = { htonl(c->dst_ip) };

		inet_ntop(AF_INET, &s, a, INET6_ADDRSTRLEN);
		inet_ntop(AF_INET, &d, b, INET6_ADDRSTRLEN);
	}
	printf("tx-ip %s %s\n%s %u %u\n", a, b, c->tcp ? "tx-tcp" : "tx-udp", c->src_port,
	       c->dst_port);
}

static void
show_map(const struct sl_config *o)
{
	printf("map");
	if (o->nb_map == 0)
		printf(" default (each worker lcore its own queue on every port)");
	for (uint16_t i = 0; i < o->nb_map; i++)
		printf("%s%u:%u.%u", i ? "," : " ", o->map[i].lcore, o->map[i].port, o->map[i].queue);
	printf("\n");
}

static void
show_ports(const struct sl_app *app)
{
	const struct sl_config *o = &app->cfg;

	for (uint16_t i = 0; i < app->ports.n; i++) {
		const struct sl_port_conf *pc = &o->pc[i];
		char rs[64], mac[40] = "default";

		sl_rate_str(&pc->rate, rs, sizeof(rs));
		if (o->peer_set[i])
			rte_ether_format_addr(mac, sizeof(mac), &o->peer[i]);
		char txq[32] = "as the map needs", txd[32] = "the driver's default", vlan[16] = "off";

		if (pc->txq != 0)
			snprintf(txq, sizeof(txq), "%u", pc->txq);
		if (pc->txd != 0)
			snprintf(txd, sizeof(txd), "%u", pc->txd);
		if (pc->vlan != 0)
			snprintf(vlan, sizeof(vlan), "%u", pc->vlan);
		printf("port %u: rate %s, eth-peer %s, vlan %s, txq %s, txd %s, mtu %u, lltx %s%s\n",
		       i, rs, mac, vlan, txq, txd, sl_session_mtu(app, i),
		       pc->lltx == SL_LLTX_ON ? "on" : pc->lltx == SL_LLTX_OFF ? "off" : "auto",
		       pc->stopped ? ", stopped" : "");
	}
}

/* show metrics: what GET /metrics answers (--metrics), in the Prometheus text format. */
static void
cmd_show_metrics(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_results *r = sl_results_take_opt(cli->app, false);

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (r == NULL) {
		sl_cli_error(cli, "out of memory");
		return;
	}
	sl_metrics_write(cli->app, r, stdout, false);
	sl_results_free(r);
	fflush(stdout);
}

const struct sl_cmd sl_cmds_show[] = {
	{ "show port info|stats|xstats <port>", cmd_show_port,
	  "port details, TX statistics since the last clear, or the driver's extended statistics; <port> or all",
	  "show" },
	{ "show txq stats [<port>]", cmd_show_txq,
	  "per queue: mode, lcores, pkts, bytes, busy, collisions, requeued, backlog, dropped; <port> or all",
	  "show" },
	{ "show stream stats [<stream>]", cmd_show_stream,
	  "per stream and receiving port: tx, rx, unique, lost, dup, reordered, late; <stream> or all",
	  "show" },
	{ "show latency [<stream>]", cmd_show_latency,
	  "per stream and receiving port: latency min, mean, p50..p99.99, max, jitter (us)", "show" },
	{ "show metrics", cmd_show_metrics,
	  "every counter as Prometheus reads it (the text --metrics [ADDR:]PORT serves on /metrics)",
	  "show" },
	{ "show config [<what>]", cmd_show_config,
	  "the configuration the next start uses: map, streams, ports, or all (default)", "show" },
	{ NULL, NULL, NULL, NULL },
};
