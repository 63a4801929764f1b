/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CLI: set ... Every handler checks its arguments first and changes the
 * configuration only when all are good; the next start uses it.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <rte_cycles.h>

#include "bench.h"
#include "cli.h"
#include "sl_clock.h"

/*
 * Configuration changes wait for the traffic to stop: the frames, pools and
 * queues are built at start. Only the rate (set rate) and the live line's
 * period (set stats-period) change while running.
 */
static bool
stopped(struct sl_cli *cli, const char *cmd, const char *what)
{
	if (cli->app->ses.running)
		sl_cli_error(cli, "set %s: stop first: %s is built at start (set rate and "
			     "set stats-period change live)", cmd, what);
	return !cli->app->ses.running;
}

/*
 * A set command edits a candidate copy of the configuration (edit()) and
 * commits it (commit()): checked as a start would build every port's flow,
 * then assigned, or refused with why, the configuration as it was. Bad
 * combinations are refused here, not at start.
 */
static struct sl_config cand; /* the prompt is one thread */

static struct sl_config *
edit(struct sl_cli *cli)
{
	if (sl_config_copy(&cand, &cli->app->cfg) != 0)
		sl_cli_error(cli, "out of memory");
	return &cand;
}

static void
commit(struct sl_cli *cli, const char *what)
{
	struct sl_config_err e;
	const char *name;

	if (cli->failed)
		return;
	if (sl_session_check(cli->app, &cand, SL_CHECK_STREAMS, &e) == 0) {
		if (sl_config_copy(&cli->app->cfg, &cand) != 0)
			sl_cli_error(cli, "set %s: out of memory", what);
		return;
	}
	name = sl_cli_opt_cmd(e.opt);
	sl_cli_error(cli, "set %s: %s%s", what, name, e.msg + (*name != '\0' ? e.detail : 0));
}

static void
cmd_set_size(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_config *o;
	char err[160];

	RTE_SET_USED(argc);
	if (!stopped(cli, "size", "the frame size"))
		return;
	o = edit(cli);
	if (strcmp(argv[1], "imix") != 0 && strcmp(argv[2], "auto") == 0) {
		/* The default: the smallest frame the headers fit (64 B for IPv4/UDP). */
		sl_parse_sizes(&o->sc, "64", err, sizeof(err));
		o->size_given = false;
		commit(cli, argv[1]);
		return;
	}
	if (sl_parse_sizes(&o->sc, strcmp(argv[1], "imix") == 0 ? SL_GEN_IMIX : argv[2],
			   err, sizeof(err)) != 0) {
		sl_cli_error(cli, "set %s: %s", argv[1], err);
		return;
	}
	o->size_given = true;
	commit(cli, argv[1]);
}

static void
cmd_set_flows(struct sl_cli *cli, int argc, char **argv)
{
	uint64_t v;

	RTE_SET_USED(argc);
	if (stopped(cli, "flows", "the flow count") &&
	    sl_cli_u64(cli, "set flows", argv[2], 1, 1u << 24, &v) == 0) {
		edit(cli)->sc.flows = (uint32_t)v;
		commit(cli, "flows");
	}
}

static void
cmd_set_burst(struct sl_cli *cli, int argc, char **argv)
{
	uint64_t v;

	RTE_SET_USED(argc);
	if (stopped(cli, "burst", "the burst") && sl_cli_u64(cli, "burst", argv[2], 1, 64, &v) == 0) {
		edit(cli)->burst = (uint16_t)v;
		commit(cli, "burst");
	}
}

static void
cmd_set_count(struct sl_cli *cli, int argc, char **argv)
{
	uint64_t v;

	RTE_SET_USED(argc);
	if (strcmp(argv[2], "off") == 0) {
		if (stopped(cli, "count", "count")) {
			edit(cli)->count = 0;
			commit(cli, "count");
		}
		return;
	}
	if (stopped(cli, "count", "count") && sl_cli_u64(cli, "count", argv[2], 1, UINT64_MAX / 2, &v) == 0) {
		edit(cli)->count = v;
		commit(cli, "count");
	}
}

static void
cmd_set_duration(struct sl_cli *cli, int argc, char **argv)
{
	char err[200];
	uint64_t us;

	RTE_SET_USED(argc);
	if (!stopped(cli, "duration", "duration"))
		return;
	if (strcmp(argv[2], "off") == 0) {
		us = 0;
	} else if (sl_parse_seconds(argv[2], &us, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "duration: %s (or off)", err);
		return;
	}
	edit(cli)->duration_us = us;
	commit(cli, "duration");
}

/* The same check as --rate at start: sl_config_rate(), the same words. */
static void
cmd_set_rate(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_rate r, pace;
	struct sl_config *o;
	char err[256];
	int port;

	RTE_SET_USED(argc);
	/* A benchmark's trials run at the loads it sets: a rate would rewrite the one in flight. */
	if (sl_bench_busy()) {
		sl_cli_error(cli, "set rate: a benchmark is running (stop ends it)");
		return;
	}
	if ((port = sl_cli_port(cli, argv[2], true)) < 0)
		return;
	if (sl_parse_rate(argv[3], &r, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "set rate: %s", err);
		return;
	}
	o = edit(cli);
	for (uint16_t i = 0; i < SL_MAX_PORTS; i++)
		if (port == SL_MAX_PORTS || port == i)
			o->pc[i].rate = r;
	for (uint16_t i = 0; i < cli->app->ports.n; i++) {
		if (port != SL_MAX_PORTS && port != i)
			continue;
		if (sl_config_rate(o, sl_session_env(cli->app), i, &r, &pace, err, sizeof(err)) != 0) {
			sl_cli_error(cli, "set rate: port %u (%s): %s", i,
				     cli->app->ports.p[i].info.name, err);
			return;
		}
	}
	/*
	 * Its share per lcore-queue pair, as a start would check it (the map in
	 * force, the lcores): a fault of the rate is refused now; one of
	 * another setting (a map to fix) is the start's to say.
	 */
	if (!cli->app->ses.running) {
		struct sl_config_err e;

		if (sl_session_check(cli->app, o, SL_CHECK_ALL, &e) != 0 && e.opt != NULL &&
		    strcmp(e.opt, "--rate") == 0) {
			sl_cli_error(cli, "set rate%s", e.msg + e.detail);
			return;
		}
	}
	/*
	 * While running: every port checked first (nothing changes if one is
	 * refused), then every port's lcores take it at their next burst.
	 */
	for (int publish = 0; publish <= 1 && cli->app->ses.running; publish++)
		for (uint16_t i = 0; i < cli->app->ports.n; i++) {
			if (port != SL_MAX_PORTS && port != i)
				continue;
			if (sl_session_rate_live(cli->app, i, &r, publish, err, sizeof(err)) != 0) {
				sl_cli_error(cli, "set rate: port %u (%s): %s", i,
					     cli->app->ports.p[i].info.name, err);
				return;
			}
		}
	commit(cli, "rate");
}

static void
cmd_set_tx_ip(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_stream_conf *c;
	struct in_addr s, d;
	uint8_t s6[16], d6[16];

	RTE_SET_USED(argc);
	if (!stopped(cli, "tx-ip", "the address"))
		return;
	c = &edit(cli)->sc;
	if (inet_pton(AF_INET, argv[2], &s) == 1 && inet_pton(AF_INET, argv[3], &d) == 1) {
		c->src_ip = ntohl(s.s_addr);
		c->dst_ip = ntohl(d.s_addr);
		c->ipv6 = false;
	} else if (inet_pton(AF_INET6, argv[2], s6) == 1 && inet_pton(AF_INET6, argv[3], d6) == 1) {
		memcpy(c->src_ip6, s6, 16);
		memcpy(c->dst_ip6, d6, 16);
		c->ipv6 = true;
	} else {
		sl_cli_error(cli, "set tx-ip: '%s %s' is not two IPv4 or two IPv6 addresses",
			     argv[2], argv[3]);
	}
	commit(cli, "tx-ip");
}

static void
cmd_set_tx_udp(struct sl_cli *cli, int argc, char **argv)
{
	uint64_t sp, dp;

	if (!stopped(cli, "tx-udp", "the L4 header") || sl_cli_u64(cli, "source port", argv[2], 0, 65535, &sp) != 0)
		return;
	dp = sp;
	if (argc > 3 && sl_cli_u64(cli, "destination port", argv[3], 0, 65535, &dp) != 0)
		return;
	edit(cli);
	cand.sc.src_port = (uint16_t)sp;
	cand.sc.dst_port = (uint16_t)dp;
	cand.sc.tcp = strcmp(argv[1], "tx-tcp") == 0;
	commit(cli, argv[1]);
}

static void
cmd_set_eth_peer(struct sl_cli *cli, int argc, char **argv)
{
	struct rte_ether_addr mac;
	int port;

	RTE_SET_USED(argc);
	if (!stopped(cli, "eth-peer", "the destination MAC") || (port = sl_cli_port(cli, argv[2], false)) < 0)
		return;
	if (strcmp(argv[3], "auto") == 0) {
		/* The default: the receiving port's MAC, or 02:00:00:00:00:00. */
		edit(cli)->peer_set[port] = false;
		commit(cli, "eth-peer");
		return;
	}
	char err[160];

	if (sl_parse_mac(argv[3], &mac, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "eth-peer: %s", err);
		return;
	}
	edit(cli)->peer[port] = mac;
	cand.peer_set[port] = true;
	commit(cli, "eth-peer");
}

static void
cmd_set_vlan(struct sl_cli *cli, int argc, char **argv)
{
	uint64_t v = 0;
	int port;

	RTE_SET_USED(argc);
	if (!stopped(cli, "vlan", "the VLAN tag") || (port = sl_cli_port(cli, argv[2], true)) < 0)
		return;
	if (strcmp(argv[3], "off") != 0 && sl_cli_u64(cli, "set vlan", argv[3], 1, 4094, &v) != 0)
		return;
	edit(cli);
	for (uint16_t i = 0; i < SL_MAX_PORTS; i++)
		if (port == SL_MAX_PORTS || port == i)
			cand.pc[i].vlan = (uint16_t)v;
	commit(cli, "vlan");
}

static void
cmd_set_field(struct sl_cli *cli, int argc, char **argv)
{
	char err[200];

	RTE_SET_USED(argc);
	if (!stopped(cli, "field", "a field"))
		return;
	if (sl_parse_field(&edit(cli)->sc, argv[2], err, sizeof(err)) != 0)
		sl_cli_error(cli, "set field: %s", err);
	commit(cli, "field");
}

static void
cmd_set_map(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_config *o;
	char err[160];

	RTE_SET_USED(argc);
	if (!stopped(cli, "map", "the map"))
		return;
	o = edit(cli);
	if (strcmp(argv[2], "default") == 0)
		o->nb_map = 0;
	else if (sl_parse_map(o->map, &o->nb_map, argv[2], err, sizeof(err)) != 0)
		sl_cli_error(cli, "map: %s", err);
	commit(cli, "map");
}

/* set map <lcores> <port>.<queue>: those lcores send on that queue of that port. */
static void
cmd_set_map_entry(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_config *o;
	struct sl_map_entry add[SL_MAP_MAX], keep[SL_MAP_MAX];
	uint16_t nb_add, nb_keep = 0;
	char spec[128], err[160];

	RTE_SET_USED(argc);
	if (!stopped(cli, "map", "the map"))
		return;
	snprintf(spec, sizeof(spec), "%s:%s", argv[2], argv[3]);
	if (sl_parse_map(add, &nb_add, spec, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "map: %s", err);
		return;
	}
	/* An lcore sends on one queue per port: the new entries replace old ones. */
	o = edit(cli);
	for (uint16_t i = 0; i < o->nb_map; i++) {
		bool replaced = false;

		for (uint16_t k = 0; k < nb_add; k++)
			replaced |= o->map[i].lcore == add[k].lcore && o->map[i].port == add[k].port;
		if (!replaced)
			keep[nb_keep++] = o->map[i];
	}
	if (nb_keep + nb_add > SL_MAP_MAX) {
		sl_cli_error(cli, "map: more than %d entries", SL_MAP_MAX);
		return;
	}
	memcpy(o->map, keep, nb_keep * sizeof(keep[0]));
	memcpy(o->map + nb_keep, add, nb_add * sizeof(add[0]));
	o->nb_map = nb_keep + nb_add;
	commit(cli, "map");
}

/* set stats-period <s>: the live line's period, 0 or off for none; changes live. */
static void
cmd_set_stats_period(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_app *app = cli->app;
	char err[200];
	uint64_t us = 0;

	RTE_SET_USED(argc);
	if (strcmp(argv[2], "off") != 0 && strcmp(argv[2], "0") != 0 &&
	    sl_parse_seconds(argv[2], &us, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "set stats-period: %s (or 0/off: no live line)", err);
		return;
	}
	app->o.stats_period = us / 1e6;
	if (app->ses.running && us != 0)
		app->views.next_stats = rte_rdtsc() + us * sl_tsc_hz() / 1000000;
}

const struct sl_cmd sl_cmds_set[] = {
	{ "set size <sizes>", cmd_set_size,
	  "frame sizes with FCS: 64, 64,128 (in turn), 64:7,594:4 (weighted), 64-1518 (range); "
	  "auto: the smallest the headers allow (the default)", "set" },
	{ "set txpkts <sizes>", cmd_set_size, "testpmd's name for set size", "set" },
	{ "set imix", cmd_set_size, "the classic IMIX: " SL_GEN_IMIX, "set" },
	{ "set flows <n>", cmd_set_flows, "vary the source port, then the source address, over n flows", "set" },
	{ "set rate <port> <rate>", cmd_set_rate,
	  "per port (or all): 14.88Mpps, 500kpps, 10Gbps (L1), 9.5Gbps-l2, 50%, or max; "
	  "changes a running port at its next burst; refused while a benchmark runs (its trials "
	  "set their loads)", "set" },
	{ "set stats-period <seconds>", cmd_set_stats_period,
	  "print the live line every so often (0 or off: never); changes while running", "set" },
	{ "set burst <n>", cmd_set_burst, "packets per burst, 1..64", "set" },
	{ "set tx-ip <src> <dst>", cmd_set_tx_ip, "IPv4 or IPv6 source and destination", "set" },
	{ "set tx-udp <sport> [<dport>]", cmd_set_tx_udp, "UDP ports (one: both)", "set" },
	{ "set tx-tcp <sport> [<dport>]", cmd_set_tx_udp, "TCP instead of UDP, with these ports", "set" },
	{ "set eth-peer <port> <mac>", cmd_set_eth_peer,
	  "destination MAC of a port; auto: the default (a receiving port's, else 02:00:00:00:00:00)",
	  "set" },
	{ "set vlan <port> <id>", cmd_set_vlan, "802.1Q tag of a port (or all); off removes it", "set" },
	{ "set duration <seconds>", cmd_set_duration, "stop after this long (off: no limit)", "set" },
	{ "set count <n>", cmd_set_count, "stop after n packets per port (off: no limit)", "set" },
	{ "set field <spec>", cmd_set_field,
	  "vary a header field: NAME=MODE:ARGS as --field (dst-ip=inc:198.18.0.2,100), or off", "set" },
	{ "set map <spec>", cmd_set_map,
	  "the whole map, as --map: 1-2:0.0 (shared), 1:0.0,2:0.1; default restores the default",
	  "set" },
	{ "set map <lcores> <port.queue>", cmd_set_map_entry,
	  "these lcores (1-2) send on that queue (0.0), replacing their entries for that port",
	  "set" },
	{ NULL, NULL, NULL, NULL },
};
