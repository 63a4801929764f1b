/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration (sl_config.h) as a run takes it: its defaults, a
 * stream built, a port's rate and MTU, the map, the receiving ports, and
 * the check: every fault a start would meet in the configuration itself,
 * found before anything is touched, in the order a start meets them, each
 * with the setting at fault and what to do. It uses the flow table
 * (sl_config_flows.c), which uses nothing of it.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "sl_config.h"
#include "sl_sig.h"
#include "sl_wire.h"

static int __attribute__((format(printf, 4, 5)))
cerr(struct sl_config_err *e, const char *opt, int port, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	e->opt = opt;
	e->port = port;
	e->flow = port; /* a port's default flow has its id */
	e->detail = 0;
	if (opt != NULL)
		n = snprintf(e->msg, sizeof(e->msg), "%s", opt);
	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof(e->msg) - n, fmt, ap);
	va_end(ap);
	if (opt != NULL)
		e->detail = (uint16_t)strlen(opt);
	return -EINVAL;
}

void
sl_config_default(struct sl_config *c)
{
	memset(c, 0, sizeof(*c));
	c->burst = 32;
	c->sc.sizes[0] = 64;
	c->sc.weights[0] = 1;
	c->sc.nb_sizes = 1;
	c->sc.src_ip = (198u << 24) | (18u << 16) | 1u;
	c->sc.dst_ip = (198u << 24) | (18u << 16) | 2u;
	/* RFC 5180's benchmarking prefix, 2001:2::/48 */
	inet_pton(AF_INET6, "2001:2::1", c->sc.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", c->sc.dst_ip6);
	c->sc.src_port = 9;
	c->sc.dst_port = 9;
	c->lock = SL_LOCK_TRYLOCK;
	c->drain_us = 100000;
}

uint16_t
sl_config_mtu(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid)
{
	return c->pc[pid].mtu != 0 ? c->pc[pid].mtu : env->port[pid].info.mtu;
}

/* The option that sets the part of a flow a compile refused. */
static const char *
part_opt(enum sl_stream_part part)
{
	switch (part) {
	case SL_STREAM_PART_FIELD:
		return "--field";
	case SL_STREAM_PART_VLAN:
		return "--vlan";
	case SL_STREAM_PART_FLOWS:
		return "--flows";
	default:
		return "--size";
	}
}

/* Compile stream id (port pid's default flow, or a flow of the table). */
static int
stream_build(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
	     struct sl_stream *s, struct sl_config_err *e)
{
	uint16_t pid = sl_config_stream_port(c, id);
	const struct sl_port_info *pi = &env->port[pid].info;
	uint16_t mtu = sl_config_mtu(c, env, pid);
	struct sl_stream *scratch = NULL;
	struct sl_stream_conf fc;
	struct sl_stream_err se;
	char name[SL_FLOW_NAME_MAX + 16];
	int ret;

	if (mtu < pi->min_mtu || mtu > pi->max_mtu)
		return cerr(e, "--mtu", pid, " %u: port %u (%s) accepts an MTU from %u to %u: give "
			    "one in that range (or port config %u mtu N)", mtu, pid, pi->name,
			    pi->min_mtu, pi->max_mtu, pid);
	if (s == NULL) {
		scratch = malloc(sizeof(*scratch));
		if (scratch == NULL) {
			cerr(e, NULL, pid, "out of memory");
			return -ENOMEM;
		}
		s = scratch;
	}
	sl_config_stream(c, env, id, &fc);
	ret = sl_stream_compile(s, &fc, (uint16_t)sl_wire_max_frame(mtu, false), &se);
	free(scratch);
	if (ret == 0)
		return 0;
	if (c->nb_flows == 0)
		return cerr(e, part_opt(se.part), pid, ": port %u (%s): %s", pid, pi->name, se.msg);
	sl_config_stream_name(c, id, name, sizeof(name));
	cerr(e, "--flow", pid, ": flow %s (port %u): %s", name, pid, se.msg);
	e->flow = id;
	return -EINVAL;
}

int
sl_config_flow_build(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid,
		     struct sl_stream *s, struct sl_config_err *e)
{
	struct sl_config d = *c; /* the port's default flow: a view without the table */

	d.flows = NULL;
	d.nb_flows = 0;
	return stream_build(&d, env, pid, s, e);
}

int
sl_config_stream_build(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
		       struct sl_stream *s, struct sl_config_err *e)
{
	return stream_build(c, env, id, s, e);
}

int
sl_config_rate(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid,
	       const struct sl_rate *r, struct sl_rate *pace, char *err, size_t len)
{
	const struct sl_port_info *pi = &env->port[pid].info;
	struct sl_stream_conf fc;
	double l1, l2;

	sl_config_flow(c, env, pid, &fc);
	sl_stream_conf_mean_bits(&fc, &l1, &l2);
	if (sl_rate_resolve(r, (double)pi->speed_bps, l1, l2, pace, err, len) != 0)
		return -EINVAL;
	/*
	 * A rate at the line is left to the wire (unpaced) only where something
	 * enforces the line: a NIC, or the sim's wire. A virtual PMD's link speed
	 * is made up (net_null says 10G and takes 60 Mpps): 100 % of it means
	 * that stated speed, paced (docs/generator.md).
	 */
	if (pace->unit == SL_RATE_NONE && r->unit != SL_RATE_NONE && pi->speed_made_up) {
		*pace = *r;
		if (r->unit == SL_RATE_PCT)
			*pace = (struct sl_rate){ SL_RATE_L1,
				(double)pi->speed_bps * r->value / 100 };
	}
	return 0;
}

bool
sl_config_addressed(const struct sl_config *c, const struct sl_config_env *env, uint16_t t,
		    uint16_t r)
{
	struct sl_stream_conf fc;

	if (env->port[t].info.wire_to == r)
		return true;
	for (uint16_t id = 0; id < sl_config_nb_streams(c, env); id++) {
		if (sl_config_stream_port(c, id) != t)
			continue;
		if (c->nb_flows != 0 && c->flows[id].to == (int16_t)r)
			return true;
		/* Between devices: to the port its receiving device is on. */
		if (c->nb_flows != 0 && c->flows[id].dst_dev[0] != '\0') {
			int d = sl_config_device_find(c, c->flows[id].dst_dev);

			if (d >= 0 && c->devices[d].port == r)
				return true;
			continue;
		}
		sl_config_stream(c, env, id, &fc);
		if (rte_is_same_ether_addr(&fc.dst_mac, &env->port[r].info.mac))
			return true;
	}
	return false;
}

uint16_t
sl_config_map(const struct sl_config *c, const struct sl_config_env *env, struct sl_map_entry *map)
{
	uint16_t n = 0;
	unsigned int k = 0;

	if (c->nb_map != 0) {
		n = c->nb_map < SL_MAP_MAX ? c->nb_map : SL_MAP_MAX; /* more: refused by the check */
		memcpy(map, c->map, n * sizeof(*map));
		return n;
	}
	/*
	 * The default map: worker k gets queue k on every port; on a port with
	 * fewer queues (the device's own limit, or port config txq / --txq) than
	 * workers, worker k gets queue k mod that many, and the engine shares it.
	 */
	for (uint16_t lcore = 0; lcore < SL_CONFIG_MAX_LCORE; lcore++) {
		if (!env->worker[lcore])
			continue;
		for (uint16_t p = 0; p < env->nb_ports && n < SL_MAP_MAX; p++) {
			unsigned int limit = env->port[p].info.max_txq != 0 &&
					     env->port[p].info.max_txq < SL_MAX_TXQ ?
					     env->port[p].info.max_txq : SL_MAX_TXQ;

			if (c->pc[p].txq != 0 && c->pc[p].txq < limit)
				limit = c->pc[p].txq;
			map[n++] = (struct sl_map_entry){ lcore, p, (uint16_t)(k % limit) };
		}
		k++;
	}
	return n;
}

bool
sl_config_port_has_lcore(const struct sl_config *c, uint16_t pid)
{
	if (c->nb_map == 0)
		return true;
	for (uint16_t i = 0; i < c->nb_map; i++)
		if (c->map[i].port == pid)
			return true;
	return false;
}

void
sl_config_rx_ports(const struct sl_config *c, const struct sl_config_env *env, bool *rx)
{
	for (uint16_t r = 0; r < env->nb_ports; r++) {
		rx[r] = false;
		/* --rxmap names a port to poll: it receives. */
		for (uint16_t i = 0; i < c->nb_rxmap; i++)
			rx[r] |= c->rxmap[i].port == r;
		if (c->rx_mode == SL_RX_ALL) {
			rx[r] = true;
			continue;
		}
		if (c->rx_mode == SL_RX_LIST) {
			rx[r] |= c->rx_port[r];
			continue;
		}
		for (uint16_t t = 0; t < env->nb_ports; t++)
			if (!c->pc[t].stopped && sl_config_addressed(c, env, t, r))
				rx[r] = true;
	}
	/* A port with devices receives: they answer what is asked of them. */
	for (uint16_t i = 0; i < c->nb_devices && i < SL_DEV_MAX; i++)
		if (c->devices[i].port < env->nb_ports)
			rx[c->devices[i].port] = true;
}

/* Per port: its queues in use and the distinct lcores on each. */
struct plan {
	uint16_t targets[SL_CONFIG_MAX_LCORE]; /* (port, queue) pairs each lcore sends on */
	uint16_t nb_txq[SL_MAX_PORTS];
	uint16_t lcores[SL_MAX_PORTS][SL_MAX_TXQ];
	uint64_t seen[SL_MAX_PORTS][SL_MAX_TXQ][SL_CONFIG_MAX_LCORE / 64];
};

static int
check_map(const struct sl_config *c, const struct sl_config_env *env, struct plan *pl,
	  struct sl_config_err *e)
{
	struct sl_map_entry map[SL_MAP_MAX];
	uint16_t n;

	if (env->nb_lcores < 2)
		return cerr(e, NULL, -1, "no worker lcore: give EAL at least two lcores (e.g. -l "
			    "0-1); the main lcore runs the display, the others transmit");
	for (uint16_t i = env->nb_ports; i < SL_MAX_PORTS; i++)
		if (c->peer_set[i])
			return cerr(e, "--eth-peer", i, ": port %u does not exist (there are %u "
				    "port(s))", i, env->nb_ports);
	memset(pl, 0, sizeof(*pl));
	n = sl_config_map(c, env, map);
	for (uint16_t i = 0; i < n; i++) {
		const struct sl_map_entry *m = &map[i];

		if (m->lcore >= SL_CONFIG_MAX_LCORE || m->lcore == env->main_lcore ||
		    !env->worker[m->lcore])
			return cerr(e, "--map", -1, ": lcore %u is not a worker lcore (main is %u; "
				    "give EAL the lcores with -l or --lcores)", m->lcore,
				    env->main_lcore);
		if (m->queue >= SL_MAX_TXQ)
			return cerr(e, NULL, m->port, "lcore %u would send on queue %u of port %u: "
				    "at most %d queues per port; give a --map that shares queues "
				    "(e.g. 1-%u:%u.0)", m->lcore, m->queue, m->port, SL_MAX_TXQ,
				    m->lcore, m->port);
		if (m->port >= env->nb_ports)
			return cerr(e, "--map", m->port, ": port %u does not exist (there are %u "
				    "port(s), 0..%u)", m->port, env->nb_ports, env->nb_ports - 1);
		if (c->pc[m->port].stopped ||
		    (pl->seen[m->port][m->queue][m->lcore / 64] & (1ull << (m->lcore % 64))))
			continue; /* port stop: configured, not transmitted on; a lcore named twice */
		pl->seen[m->port][m->queue][m->lcore / 64] |= 1ull << (m->lcore % 64);
		if (++pl->targets[m->lcore] > SL_CONFIG_MAX_TARGETS)
			return cerr(e, "--map", m->port, ": lcore %u sends on more than %d queues (a "
				    "worker's targets): give it fewer ports or queues", m->lcore,
				    SL_CONFIG_MAX_TARGETS);
		pl->lcores[m->port][m->queue]++;
		if (m->queue + 1 > pl->nb_txq[m->port])
			pl->nb_txq[m->port] = m->queue + 1;
	}
	for (uint16_t i = 0; i < env->nb_ports; i++) {
		unsigned int producers = 0;

		if (c->pc[i].txq != 0) {
			if (c->pc[i].txq < pl->nb_txq[i])
				return cerr(e, "--txq", i, " %u: the map uses queue %u on port %u",
					    c->pc[i].txq, pl->nb_txq[i] - 1, i);
			pl->nb_txq[i] = c->pc[i].txq;
		}
		if (pl->nb_txq[i] == 0)
			pl->nb_txq[i] = 1; /* an unmapped port still gets configured */
		for (uint16_t q = 0; q < pl->nb_txq[i]; q++)
			producers += pl->lcores[i][q];
		/* A producer per lcore-queue pair: its own sequence space. */
		if (producers > SL_SIG_MAX_PRODUCERS)
			return cerr(e, NULL, i, "port %u: more than %d lcore-queue pairs send its "
				    "stream (the signature's producer id is 8 bits)", i,
				    SL_SIG_MAX_PRODUCERS);
	}
	return 0;
}

static int
check_direct(const struct sl_config *c, const struct sl_config_env *env, const struct plan *pl,
	     struct sl_config_err *e)
{
	if (!c->direct)
		return 0;
	/* --xmit direct bypasses the engine: exclusive queues of ports with a plain burst call. */
	for (uint16_t i = 0; i < env->nb_ports; i++)
		for (uint16_t q = 0; q < pl->nb_txq[i]; q++)
			if (!env->port[i].has_tx_burst || pl->lcores[i][q] > 1)
				return cerr(e, "--xmit", i, " direct: port %u queue %u is %s; the "
					    "direct baseline needs one lcore per queue on ethdev "
					    "ports", i, q, !env->port[i].has_tx_burst ? "simulated" :
					    "shared");
	return 0;
}

/* Port i's streams' rates: each resolves, each share at least 1/s, their sum within the line. */
static int
check_rates(const struct sl_config *c, const struct sl_config_env *env, const struct plan *pl,
	    struct sl_config_err *e)
{
	for (uint16_t i = 0; i < env->nb_ports; i++) {
		const struct sl_port_info *pi = &env->port[i].info;
		unsigned int producers = 0, nrated = 0;
		char names[160] = "";
		double sum = 0;
		struct sl_rate pace;
		char err[256];

		uint16_t nshare = sl_config_port_sharing(c, i);

		for (uint16_t q = 0; pl != NULL && q < pl->nb_txq[i]; q++)
			producers += pl->lcores[i][q];
		if (pl == NULL)
			producers = 1; /* rates alone (SL_CHECK_RATES): the map is not known */
		if (producers == 0)
			continue; /* it does not send: its rate is not used */
		if (sl_config_rate(c, env, i, &c->pc[i].rate, &pace, err, sizeof(err)) != 0)
			return cerr(e, "--rate", i, ": port %u (%s): %s", i, pi->name, err);
		for (uint16_t id = 0; id < sl_config_nb_streams(c, env); id++) {
			struct sl_stream_conf sc;
			char name[SL_FLOW_NAME_MAX];
			double l1, l2;

			if (sl_config_stream_port(c, id) != i)
				continue;
			sl_config_stream_name(c, id, name, sizeof(name));
			if (sl_config_stream_rate_n(c, env, id, nshare, &pace, err, sizeof(err)) != 0) {
				cerr(e, "--flow", i, ": flow %s (port %u): %s", name, i, err);
				e->flow = id;
				return -EINVAL;
			}
			/* Each lcore-queue pair paces an equal share: at least one unit a second. */
			if (pl != NULL && pace.unit != SL_RATE_NONE && pace.value / producers < 1.0) {
				if (c->nb_flows == 0)
					return cerr(e, "--rate", i, ": port %u's rate shared by its %u "
						    "lcore-queue pairs is below 1 per second each: give "
						    "a higher rate or fewer lcores", i, producers);
				cerr(e, "--flow", i, ": flow %s: its rate shared by port %u's %u "
				     "lcore-queue pairs is below 1 per second each: give a higher "
				     "rate or fewer lcores", name, i, producers);
				e->flow = id;
				return -EINVAL;
			}
			if (pace.unit == SL_RATE_NONE || c->nb_flows == 0)
				continue;
			sl_config_stream(c, env, id, &sc);
			sl_stream_conf_mean_bits(&sc, &l1, &l2);
			sum += pace.unit == SL_RATE_PPS ? pace.value * l1 :
			       pace.unit == SL_RATE_L2 ? pace.value * l1 / l2 : pace.value;
			if (strlen(names) + strlen(name) + 8 < sizeof(names))
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 nrated != 0 ? ", " : "", name);
			else if (names[strlen(names) - 1] != '.')
				snprintf(names + strlen(names), sizeof(names) - strlen(names), ", ...");
			nrated++;
		}
		/* The flows of a port share its line: their paced rates add up. */
		if (pi->speed_bps != 0 && sum > (double)pi->speed_bps * (1 + 1e-9))
			return cerr(e, "--flow", i, ": port %u (%s): flows %s ask %.6g Gb/s (L1) "
				    "together, above the line rate of %g Gb/s: lower their rates",
				    i, pi->name, names, sum / 1e9, (double)pi->speed_bps / 1e9);
	}
	return 0;
}

/*
 * The table's flows: named (each name once: every pair, or only flow
 * @p one's against the others), on ports that exist, each with a packet
 * to send.
 */
static int
check_flows(const struct sl_config *c, const struct sl_config_env *env, int one,
	    struct sl_config_err *e)
{
	uint16_t shared[SL_MAX_PORTS] = { 0 };

	for (uint16_t i = 0; i < c->nb_flows; i++)
		if (c->flows[i].port < SL_MAX_PORTS && c->flows[i].count == 0)
			shared[c->flows[i].port]++;
	for (uint16_t i = 0; i < c->nb_flows; i++) {
		const struct sl_flow_conf *f = &c->flows[i];

		if (f->name[0] == '\0' || memchr(f->name, '\0', sizeof(f->name)) == NULL)
			return cerr(e, "--flow", -1, ": flow %u has no name (give NAME, up to %d "
				    "characters)", i, SL_FLOW_NAME_MAX - 1);
		for (uint16_t j = 0; (one < 0 || one == i) && j < c->nb_flows; j++)
			if (j != i && strcmp(c->flows[j].name, f->name) == 0 && (one >= 0 || j < i))
				return cerr(e, "--flow", -1, ": two flows are named %s: give each its "
					    "own name", f->name);
		if (f->port >= env->nb_ports) {
			cerr(e, "--flow", -1, ": flow %s: port %u does not exist (there are %u "
			     "port(s))", f->name, f->port, env->nb_ports);
			e->flow = i;
			return -EINVAL;
		}
		if (f->to >= (int)env->nb_ports) {
			cerr(e, "--flow", f->port, ": flow %s: to port %d does not exist (there are "
			     "%u port(s))", f->name, f->to, env->nb_ports);
			e->flow = i;
			return -EINVAL;
		}
		/* An equal share of --count of 0 would mean "no limit". */
		if (f->count == 0 && c->count != 0 && c->count < shared[f->port]) {
			cerr(e, "--count", f->port, " %" PRIu64 ": port %u's %u flows without a count "
			     "of their own share it, fewer than one packet each: give a larger "
			     "--count or each flow a count", c->count, f->port, shared[f->port]);
			e->flow = i;
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The bounds every front end's parser keeps, checked again: a configuration
 * built another way (an API, a test) must not walk past an array.
 */
static int
check_ranges(const struct sl_config *c, struct sl_config_err *e)
{
	if (c->burst < 1 || c->burst > SL_CONFIG_MAX_BURST)
		return cerr(e, "--burst", -1, ": %u packets: give 1..%d", c->burst,
			    SL_CONFIG_MAX_BURST);
	if (c->nb_map > SL_MAP_MAX)
		return cerr(e, "--map", -1, ": %u entries: at most %d", c->nb_map, SL_MAP_MAX);
	if (c->nb_rxmap > SL_MAP_MAX)
		return cerr(e, "--rxmap", -1, ": %u entries: at most %d", c->nb_rxmap, SL_MAP_MAX);
	for (uint16_t i = 0; i < c->nb_rxmap; i++)
		if (c->rxmap[i].queue != 0)
			return cerr(e, "--rxmap", c->rxmap[i].port, ": port %u queue %u: a port "
				    "receives on queue 0 only", c->rxmap[i].port, c->rxmap[i].queue);
	if (c->nb_flows > SL_CONFIG_MAX_FLOWS || (c->nb_flows != 0 && c->flows == NULL))
		return cerr(e, "--flow", -1, ": %u flows: at most %d", c->nb_flows,
			    SL_CONFIG_MAX_FLOWS);
	if (c->nb_sims > SL_MAX_SIMS)
		return cerr(e, "--sim", -1, ": %u simulated ports: at most %d", c->nb_sims,
			    SL_MAX_SIMS);
	if (c->duration_us > (uint64_t)SL_MAX_SECONDS * 1000000)
		return cerr(e, "--duration", -1, ": at most %d s", SL_MAX_SECONDS);
	if (c->drain_us > (uint64_t)SL_MAX_SECONDS * 1000000)
		return cerr(e, "--drain", -1, ": at most %d s", SL_MAX_SECONDS);
	for (uint16_t i = 0; i < SL_MAX_PORTS; i++)
		if (c->pc[i].txq > SL_MAX_TXQ)
			return cerr(e, "--txq", i, " %u: port %u: at most %d queues", c->pc[i].txq, i,
				    SL_MAX_TXQ);
	return 0;
}

static int
check_rx(const struct sl_config *c, const struct sl_config_env *env, struct sl_config_err *e)
{
	bool rx[SL_MAX_PORTS];

	for (uint16_t i = 0; i < c->nb_rxmap; i++)
		if (c->rxmap[i].port >= env->nb_ports)
			return cerr(e, "--rxmap", c->rxmap[i].port, ": port %u does not exist (there "
				    "are %u port(s))", c->rxmap[i].port, env->nb_ports);
	if (c->rx_mode == SL_RX_LIST)
		for (uint16_t r = env->nb_ports; r < SL_MAX_PORTS; r++)
			if (c->rx_port[r])
				return cerr(e, "--rx", r, ": port %u does not exist (there are %u "
					    "port(s))", r, env->nb_ports);
	sl_config_rx_ports(c, env, rx);
	for (uint16_t r = 0; r < env->nb_ports; r++) {
		if (!rx[r])
			continue;
		if (!env->port[r].can_rx)
			return cerr(e, NULL, r, "port %u (%s) cannot receive", r,
				    env->port[r].info.name);
		for (uint16_t i = 0; i < c->nb_rxmap; i++)
			if (c->rxmap[i].port == r && (c->rxmap[i].lcore >= SL_CONFIG_MAX_LCORE ||
						      !env->worker[c->rxmap[i].lcore]))
				return cerr(e, "--rxmap", r, ": lcore %u is not a worker lcore",
					    c->rxmap[i].lcore);
	}
	return 0;
}

/* Every flow between devices knows where to send: its next hop resolved. */
static int
check_next_hops(const struct sl_config *c, const struct sl_config_env *env,
		struct sl_config_err *e)
{
	for (uint16_t i = 0; i < c->nb_flows; i++) {
		const struct sl_flow_conf *f = &c->flows[i];
		const struct sl_dev_conf *d;
		struct sl_stream_conf sc = f->sc;
		char a[INET6_ADDRSTRLEN] = "";
		int s;

		if (f->src_dev[0] == '\0' || sl_config_flow_devices(c, env, f, &sc))
			continue;
		s = sl_config_device_find(c, f->src_dev);
		d = &c->devices[s];
		if (sc.ipv6)
			inet_ntop(AF_INET6, d->gw6, a, sizeof(a));
		else
			inet_ntop(AF_INET, &d->gw4, a, sizeof(a));
		cerr(e, NULL, f->port, "flow %s: device %s has not resolved its next hop "
		     "(gateway %s): check the link and the gateway's address (show neighbors)",
		     f->name, d->name, a);
		e->flow = i;
		return -EINVAL;
	}
	return 0;
}

int
sl_config_compile(const struct sl_config *c, const struct sl_config_env *env, unsigned int what,
		  struct sl_stream *out, struct sl_config_err *e)
{
	struct plan *pl = NULL;
	int ret = check_ranges(c, e);

	if (ret != 0)
		return ret;
	if (what & SL_CHECK_RUN) {
		pl = malloc(sizeof(*pl));
		if (pl == NULL) {
			cerr(e, NULL, -1, "out of memory");
			return -ENOMEM;
		}
		ret = check_map(c, env, pl, e);
		if (ret == 0)
			ret = check_direct(c, env, pl, e);
		if (ret != 0) {
			free(pl);
			return ret;
		}
	}
	if (what & SL_CHECK_STREAMS) {
		ret = check_flows(c, env, -1, e);
		for (uint16_t i = 0; i < sl_config_nb_streams(c, env) && ret == 0; i++)
			ret = stream_build(c, env, i, out != NULL ? &out[i] : NULL, e);
	}
	if (ret == 0 && (what & (SL_CHECK_STREAMS | SL_CHECK_RUN)))
		ret = sl_config_check_devices(c, env, e);
	if (ret == 0 && (what & SL_CHECK_NEXT_HOPS))
		ret = check_next_hops(c, env, e);
	if (ret == 0 && (what & SL_CHECK_RATES) && !(what & SL_CHECK_RUN))
		ret = check_rates(c, env, NULL, e);
	if (ret == 0 && (what & SL_CHECK_RUN)) {
		ret = check_rates(c, env, pl, e);
		if (ret == 0)
			ret = check_rx(c, env, e);
	}
	free(pl);
	return ret;
}

int
sl_config_check(const struct sl_config *c, const struct sl_config_env *env, unsigned int what,
		struct sl_config_err *e)
{
	return sl_config_compile(c, env, what, NULL, e);
}

int
sl_config_check_edit(const struct sl_config *c, const struct sl_config_env *env, int idx,
		     struct sl_config_err *e)
{
	int ret = check_ranges(c, e);

	if (ret == 0)
		ret = check_flows(c, env, idx < 0 ? INT_MAX : idx, e);
	if (ret == 0)
		ret = sl_config_check_devices(c, env, e);
	if (ret == 0 && idx >= 0)
		ret = stream_build(c, env, (uint16_t)idx, NULL, e);
	if (ret == 0)
		ret = check_rates(c, env, NULL, e);
	return ret;
}

int
sl_config_port_parse(const char *s, uint16_t nb_ports, uint16_t *port, char *err, size_t len)
{
	unsigned long long v;
	char *end;

	if (nb_ports == 0) {
		snprintf(err, len, "port '%s' does not exist: there are no ports", s != NULL ? s : "");
		return -EINVAL;
	}
	if (s == NULL || !isdigit((unsigned char)*s) || (errno = 0, v = strtoull(s, &end, 10), errno != 0) ||
	    *end != '\0' || v > (uint64_t)nb_ports - 1) {
		snprintf(err, len, "port '%s' does not exist: ports are 0..%u", s != NULL ? s : "",
			 nb_ports - 1);
		return -EINVAL;
	}
	*port = (uint16_t)v;
	return 0;
}

/* One value of a field as the options read it back. */
static int
field_value_str(enum sl_field_kind kind, uint32_t v, char *buf, size_t len)
{
	if (kind == SL_FIELD_SRC_MAC || kind == SL_FIELD_DST_MAC)
		return snprintf(buf, len, "%02x:%02x:%02x", (v >> 16) & 0xff, (v >> 8) & 0xff,
				v & 0xff);
	if (kind == SL_FIELD_SRC_IP || kind == SL_FIELD_DST_IP)
		return snprintf(buf, len, "%u.%u.%u.%u", v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff,
				v & 0xff);
	return snprintf(buf, len, "%u", v);
}

void
sl_config_field_str(const struct sl_field_conf *f, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "%s=%s:", f->kind == SL_FIELD_PATH ? f->path :
				      (unsigned int)f->kind < SL_FIELD_KINDS ?
				      sl_field_names[f->kind] : "?", sl_field_modes[f->mode]);

	if (f->mode == SL_FIELD_LIST) {
		for (uint16_t i = 0; i < f->nb_list && off < len; i++) {
			if (i != 0)
				off += (size_t)snprintf(buf + off, len - off, ",");
			if (off < len)
				off += (size_t)field_value_str(f->kind, f->list[i], buf + off, len - off);
		}
		return;
	}
	off += (size_t)field_value_str(f->kind, f->start, buf + off, len - off);
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, ",%u", f->count);
	if (f->step > 1 && f->mode != SL_FIELD_RANDOM && off < len)
		snprintf(buf + off, len - off, ",%u", f->step);
}
