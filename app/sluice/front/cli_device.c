/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CLI: device add | del, show devices, show neighbors, clear neighbors.
 * A device command edits a candidate copy of the configuration, checks its
 * devices and flows as a start would, and commits it, or refuses it with
 * why and the configuration as it was. The control plane (run/ctl.h)
 * follows the configuration in force at its next turn.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "cli.h"
#include "ctl.h"
#include "device.h"
#include "flow.h"

#define DEVICE_MAX_WORDS 32

static bool
device_stopped(struct sl_cli *cli, const char *cmd)
{
	if (cli->app->ses.running)
		sl_cli_error(cli, "device %s: stop first: the devices are the run's while it runs",
			     cmd);
	return !cli->app->ses.running;
}

/* Check the candidate's devices and flows; commit it (0) or say why not. */
static int
device_commit(struct sl_cli *cli, struct sl_config *cand, const char *what)
{
	struct sl_config_err e;

	if (sl_config_check_devices(cand, sl_session_env(cli->app), &e) != 0) {
		sl_cli_error(cli, "device %s: %s", what, e.msg + e.detail + 2);
		return -1;
	}
	if (sl_config_copy(&cli->app->cfg, cand) != 0) {
		sl_cli_error(cli, "device %s: out of memory", what);
		return -1;
	}
	return 0;
}

static void
cmd_device_add(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_config cand = { 0 };
	struct sl_dev_conf d;
	char *words[DEVICE_MAX_WORDS], line[SL_CLI_LINE_MAX + 1], err[320];
	int nw = 0;

	if (!device_stopped(cli, "add"))
		return;
	if (argc > 3) {
		snprintf(line, sizeof(line), "%s", argv[3]);
		nw = sl_flow_words(line, words, DEVICE_MAX_WORDS);
		if (nw < 0) {
			sl_cli_error(cli, "device add: more than %d words", DEVICE_MAX_WORDS);
			return;
		}
	}
	if (sl_device_parse(&d, argv[2], nw, words, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "device add: %s", err);
		return;
	}
	if (sl_config_copy(&cand, &cli->app->cfg) != 0) {
		sl_cli_error(cli, "device add: out of memory");
		return;
	}
	if (sl_device_add(&cand, &d, err, sizeof(err)) != 0)
		sl_cli_error(cli, "device add: %s", err);
	else
		device_commit(cli, &cand, "add");
	sl_config_fini(&cand);
}

static void
cmd_device_del(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_config cand = { 0 };
	int idx;

	RTE_SET_USED(argc);
	if (!device_stopped(cli, "del"))
		return;
	idx = sl_config_device_find(&cli->app->cfg, argv[2]);
	if (idx < 0 && strcmp(argv[2], "all") != 0) {
		sl_cli_error(cli, "device del: no device %s (show devices lists them)", argv[2]);
		return;
	}
	if (sl_config_copy(&cand, &cli->app->cfg) != 0) {
		sl_cli_error(cli, "device del: out of memory");
		return;
	}
	if (idx < 0)
		cand.nb_devices = 0;
	else
		sl_device_del(&cand, (uint16_t)idx);
	device_commit(cli, &cand, "del");
	sl_config_fini(&cand);
}

static void
cmd_show_devices(struct sl_cli *cli, int argc, char **argv)
{
	const struct sl_config *c = &cli->app->cfg;
	const struct sl_dev_table *t = sl_ctl_table(cli->app);
	char buf[512];

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	sl_ctl_poll(cli->app); /* the devices in force are the configuration's */
	if (c->nb_devices == 0) {
		printf("no device: device add NAME port P mac MAC ip A/P gw G adds one "
		       "(docs/cli.md)\n");
		return;
	}
	for (uint16_t i = 0; i < c->nb_devices; i++) {
		sl_device_str(&c->devices[i], buf, sizeof(buf));
		printf("device %u: %s\n", i, buf);
		if (t != NULL && i < t->n && strcmp(t->d[i].conf.name, c->devices[i].name) == 0) {
			const struct sl_dev_stats *s = &t->d[i].st;

			printf("  arp: requests in %" PRIu64 ", replies out %" PRIu64 ", requests out %"
			       PRIu64 ", replies in %" PRIu64 "; nd: ns in %" PRIu64 ", na out %" PRIu64
			       ", ns out %" PRIu64 ", na in %" PRIu64 "; echo: in %" PRIu64 ", out %"
			       PRIu64 "; announced %" PRIu64 ", resolved %" PRIu64 ", failed %" PRIu64
			       "\n", s->arp_requests_in, s->arp_replies_out, s->arp_requests_out,
			       s->arp_replies_in, s->ns_in, s->na_out, s->ns_out, s->na_in, s->echo_in,
			       s->echo_out, s->announced, s->resolved, s->failed);
		}
	}
	if (t != NULL && (t->no_mbuf != 0 || t->not_mine != 0))
		printf("devices: frames not built for want of an mbuf %" PRIu64 " (their pool is "
		       "empty: a flood), control frames for no device %" PRIu64 "\n", t->no_mbuf,
		       t->not_mine);
	for (uint16_t p = 0; p < cli->app->ports.n; p++) {
		struct sl_ctl_port_stats st;

		sl_ctl_port_stats(cli->app, p, &st);
		if (st.rx + st.sent + st.unsent + st.ring_full != 0)
			printf("port %u: control frames in %" PRIu64 ", out %" PRIu64 ", not sent %"
			       PRIu64 ", not handed over %" PRIu64 "\n", p, st.rx, st.sent, st.unsent,
			       st.ring_full);
	}
}

static void
neigh_line(const struct sl_dev_state *d, bool v6)
{
	const struct sl_dev_neigh *n = v6 ? &d->n6 : &d->n4;
	char a[INET6_ADDRSTRLEN], m[RTE_ETHER_ADDR_FMT_SIZE] = "-";

	if (n->state == SL_DEV_N_NONE)
		return;
	if (v6)
		inet_ntop(AF_INET6, d->conf.gw6, a, sizeof(a));
	else
		inet_ntop(AF_INET, &d->conf.gw4, a, sizeof(a));
	if (n->state == SL_DEV_N_REACHABLE || n->state == SL_DEV_N_PROBE ||
	    n->state == SL_DEV_N_PERMANENT)
		rte_ether_format_addr(m, sizeof(m), &n->mac);
	printf("%-16s %-5u %-4s %-28s %-18s %s\n", d->conf.name, d->conf.port, v6 ? "ipv6" : "ipv4",
	       a, m, sl_dev_nstate_name(n->state));
}

static void
cmd_show_neighbors(struct sl_cli *cli, int argc, char **argv)
{
	const struct sl_dev_table *t;
	int port = -1;
	bool any = false;

	if (argc > 2) {
		uint16_t p;
		char err[128];

		if (sl_config_port_parse(argv[2], cli->app->ports.n, &p, err, sizeof(err)) != 0) {
			sl_cli_error(cli, "show neighbors: %s", err);
			return;
		}
		port = p;
	}
	sl_ctl_poll(cli->app);
	t = sl_ctl_table(cli->app);
	for (uint16_t i = 0; t != NULL && i < t->n; i++)
		any |= (port < 0 || t->d[i].conf.port == port) &&
		       (t->d[i].n4.state != SL_DEV_N_NONE || t->d[i].n6.state != SL_DEV_N_NONE);
	if (!any) {
		printf("no neighbor: no device%s has a gateway (device add ... gw G, gw6 G)\n",
		       port < 0 ? "" : " of this port");
		return;
	}
	printf("%-16s %-5s %-4s %-28s %-18s %s\n", "device", "port", "ip", "gateway", "mac",
	       "state");
	for (uint16_t i = 0; i < t->n; i++) {
		if (port >= 0 && t->d[i].conf.port != port)
			continue;
		neigh_line(&t->d[i], false);
		neigh_line(&t->d[i], true);
	}
}

static void
cmd_clear_neighbors(struct sl_cli *cli, int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	sl_ctl_clear(cli->app);
}

const struct sl_cmd sl_cmds_device[] = {
	{ "device add <name> <words...>", cmd_device_add,
	  "add an emulated host that answers ARP, ND and ping and resolves its gateways: port P, "
	  "mac MAC, vlan N, mtu N, ip A/P, gw G, gw-mac MAC, ip6 A/P, gw6 G, gw6-mac MAC "
	  "(docs/devices.md)", "device" },
	{ "device del <name>", cmd_device_del, "remove a device (all: every one)", "device" },
	{ "show devices", cmd_show_devices,
	  "the devices, as device add words, and their ARP, ND and echo counters", "show" },
	{ "show neighbors [<port>]", cmd_show_neighbors,
	  "each device's gateways (of one port, or all): address, MAC once resolved, state (as "
	  "ip neigh)", "show" },
	{ "clear neighbors", cmd_clear_neighbors,
	  "forget what the devices resolved: they ask again at once", "device" },
	{ NULL, NULL, NULL, NULL },
};
