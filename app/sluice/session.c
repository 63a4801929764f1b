/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run session (session.h): the lcore -> port.queue map, the streams,
 * the ports' queues, the workers, and the main lcore's loop (scheduler
 * poll, live stats), stop and report.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <numa.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include "report.h"
#include "session.h"
#include "sl_err.h"
#include "sl_wire.h"

#define SL_FLUSH_US 200000   /* stop: time allowed to send what is queued */
#define SL_BACKLOG_SIZE 1024 /* as ports.c creates them; sizes the pools */

/*
 * The default map: worker k gets queue k on every port; on a port with
 * fewer queues (the device's own limit, or port config txq / --txq) than
 * workers, worker k gets queue k mod that many, and the engine shares it.
 */
static void
map_default(struct sl_app *app)
{
	unsigned int lcore, k = 0;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		for (uint16_t p = 0; p < app->ports.n && app->nb_map < SL_MAP_MAX; p++) {
			unsigned int limit = RTE_MIN(SL_MAX_TXQ, app->ports.p[p].info.max_txq != 0 ?
						     app->ports.p[p].info.max_txq : SL_MAX_TXQ);

			if (app->o.pc[p].txq != 0)
				limit = RTE_MIN(limit, app->o.pc[p].txq);
			app->map[app->nb_map++] = (struct sl_map_entry){ lcore, p,
									  (uint16_t)(k % limit) };
		}
		k++;
	}
}

/*
 * A worker on another NUMA node than the NIC it feeds pays a remote access
 * for every descriptor and mbuf. Say so (once per pair) and how to fix it;
 * libnuma gives the node of the CPU each lcore runs on, DPDK the NIC's.
 */
static void
numa_check(const struct sl_app *app)
{
	bool warned[RTE_MAX_LCORE][SL_MAX_PORTS] = { { false } };

	if (numa_available() < 0 || numa_num_configured_nodes() < 2)
		return;
	for (uint16_t i = 0; i < app->nb_map; i++) {
		const struct sl_map_entry *e = &app->map[i];
		int nic = app->ports.p[e->port].info.socket;
		int lc = (int)rte_lcore_to_socket_id(e->lcore);

		if (nic < 0 || lc == nic || warned[e->lcore][e->port])
			continue;
		warned[e->lcore][e->port] = true;
		printf("warning: lcore %u runs on NUMA node %d but transmits on port %u, which sits on "
		       "node %d: give EAL lcores of node %d (-l/--lcores; see lscpu) for line rate\n",
		       e->lcore, lc, e->port, nic, nic);
	}
}

/* Check the map against the lcores and ports; size every port's queues. */
static int
map_apply(struct sl_app *app)
{
	struct sl_opts *o = &app->o;

	if (rte_lcore_count() < 2) {
		sl_err("no worker lcore: give EAL at least two lcores (e.g. -l 0-1); the main "
		       "lcore runs the display, the others transmit");
		return -EINVAL;
	}
	for (uint16_t i = app->ports.n; i < SL_MAX_PORTS; i++)
		if (o->peer_set[i]) {
			sl_err("--eth-peer: port %u does not exist (there are %u port(s))", i,
			       app->ports.n);
			return -EINVAL;
		}
	for (uint16_t i = 0; i < app->ports.n; i++) {
		app->ports.p[i].nb_txq = 0;
		app->ports.p[i].pace = (struct sl_rate){ SL_RATE_NONE, 0 };
		for (uint16_t q = 0; q < SL_MAX_TXQ; q++)
			app->ports.p[i].txqs[q].nb_lcores = 0;
	}
	app->nb_map = o->nb_map;
	memcpy(app->map, o->map, sizeof(app->map));
	if (app->nb_map == 0)
		map_default(app);
	for (uint16_t i = 0; i < app->nb_map; i++) {
		const struct sl_map_entry *e = &app->map[i];
		struct sl_port *p;
		struct sl_app_txq *aq;
		bool dup = false;

		if (e->lcore == rte_get_main_lcore() || !rte_lcore_is_enabled(e->lcore)) {
			sl_err("--map: lcore %u is not a worker lcore (main is %u; give EAL the "
			       "lcores with -l or --lcores)", e->lcore, rte_get_main_lcore());
			return -EINVAL;
		}
		if (e->queue >= SL_MAX_TXQ) {
			sl_err("lcore %u would send on queue %u of port %u: at most %d queues per "
			       "port; give a --map that shares queues (e.g. 1-%u:%u.0)", e->lcore,
			       e->queue, e->port, SL_MAX_TXQ, e->lcore, e->port);
			return -EINVAL;
		}
		if (e->port >= app->ports.n) {
			sl_err("--map: port %u does not exist (there are %u port(s), 0..%u)", e->port,
			       app->ports.n, app->ports.n - 1);
			return -EINVAL;
		}
		p = &app->ports.p[e->port];
		if (o->pc[e->port].stopped)
			continue; /* port stop: configured, not transmitted on */
		aq = &p->txqs[e->queue];
		for (uint16_t j = 0; j < aq->nb_lcores; j++)
			dup |= aq->lcores[j] == e->lcore;
		if (dup)
			continue;
		aq->lcores[aq->nb_lcores++] = e->lcore;
		if (e->queue + 1 > p->nb_txq)
			p->nb_txq = e->queue + 1;
	}
	numa_check(app);
	for (uint16_t i = 0; i < app->ports.n; i++) {
		struct sl_port *p = &app->ports.p[i];

		if (o->pc[i].txq != 0) {
			if (o->pc[i].txq < p->nb_txq) {
				sl_err("--txq %u: the map uses queue %u on port %u", o->pc[i].txq,
				       p->nb_txq - 1, i);
				return -EINVAL;
			}
			p->nb_txq = o->pc[i].txq;
		}
		if (p->nb_txq == 0)
			p->nb_txq = 1; /* an unmapped port still gets configured */
	}
	return 0;
}

/* --xmit direct bypasses the engine: exclusive queues of ports with a plain burst call. */
static int
direct_check(const struct sl_app *app)
{
	for (uint16_t i = 0; i < app->ports.n; i++) {
		const struct sl_port *p = &app->ports.p[i];

		for (uint16_t q = 0; q < p->nb_txq; q++)
			if (p->ops->tx_burst == NULL || p->txqs[q].nb_lcores > 1) {
				sl_err("--xmit direct: port %u queue %u is %s; the direct baseline "
				       "needs one lcore per queue on ethdev ports", i, q,
				       p->ops->tx_burst == NULL ? "simulated" : "shared");
				return -EINVAL;
			}
	}
	return 0;
}

void
sl_session_stream_conf(const struct sl_app *app, uint16_t pid, struct sl_stream_conf *c)
{
	const struct sl_opts *o = &app->o;
	const struct sl_port *p = &app->ports.p[pid];
	uint16_t hdr;

	*c = o->sc;
	/* Default size: 64, or the smallest frame these headers allow. */
	c->vlan = o->pc[pid].vlan;
	hdr = RTE_ETHER_HDR_LEN + (c->vlan ? 4 : 0) + (c->ipv6 ? 40 : 20) + (c->tcp ? 20 : 8) +
	      SL_WIRE_FCS;
	if (!o->size_given)
		c->sizes[0] = RTE_MAX(c->sizes[0], hdr);
	c->id = pid; /* one stream per port: its id in the signature */
	c->src_mac = p->info.mac;
	c->dst_mac = o->peer_set[pid] ? o->peer[pid] :
		(struct rte_ether_addr){ { 0x02, 0, 0, 0, 0, (uint8_t)pid } };
}

int
sl_session_rate_check(const struct sl_app *app, uint16_t pid, const struct sl_rate *r,
		      struct sl_rate *pace, char *err, size_t len)
{
	struct sl_stream_conf c;
	double l1, l2;

	sl_session_stream_conf(app, pid, &c);
	sl_stream_conf_mean_bits(&c, &l1, &l2);
	if (sl_rate_resolve(r, (double)app->ports.p[pid].info.speed_bps, l1, l2, pace, err, len) != 0)
		return -EINVAL;
	/*
	 * A rate at the line is left to the wire (unpaced) only where something
	 * enforces the line: a NIC, or the sim's wire. A virtual PMD's link speed
	 * is made up (net_null says 10G and takes 60 Mpps): 100 % of it means
	 * that stated speed, paced (docs/generator.md).
	 */
	if (pace->unit == SL_RATE_NONE && r->unit != SL_RATE_NONE &&
	    app->ports.p[pid].info.speed_made_up) {
		*pace = *r;
		if (r->unit == SL_RATE_PCT)
			*pace = (struct sl_rate){ SL_RATE_L1,
				(double)app->ports.p[pid].info.speed_bps * r->value / 100 };
	}
	return 0;
}

int
sl_session_rate_live(struct sl_app *app, uint16_t pid, const struct sl_rate *r, bool publish,
		     char *err, size_t len)
{
	struct sl_rate pace, share;
	struct sl_pacer tmp;
	unsigned int n = 0;

	if (sl_session_rate_check(app, pid, r, &pace, err, len) != 0)
		return -EINVAL;
	for (uint16_t w = 0; w < app->nb_workers; w++)
		for (uint16_t k = 0; k < app->workers[w]->nb_targets; k++)
			n += app->workers[w]->t[k].port == pid;
	if (n == 0)
		return 0; /* the port does not send in this run: the next start takes it */
	share = (struct sl_rate){ pace.unit, pace.value / n };
	if (sl_pacer_init(&tmp, &share) != 0) {
		snprintf(err, len, "shared by its %u lcore-queue pairs, that is below 1 per second "
			 "each: give a higher rate", n);
		return -EINVAL;
	}
	if (!publish)
		return 0; /* checked only: every port is checked before any takes it */
	app->ports.p[pid].pace = pace; /* only once it is taken */
	for (uint16_t w = 0; w < app->nb_workers; w++)
		for (uint16_t k = 0; k < app->workers[w]->nb_targets; k++) {
			struct sl_target *t = &app->workers[w]->t[k];

			if (t->port != pid)
				continue;
			/* The sequence lock of sl_target_rate_update(): odd while writing. */
			__atomic_fetch_add(&t->rate_gen, 1, __ATOMIC_RELAXED);
			__atomic_thread_fence(__ATOMIC_RELEASE);
			__atomic_store_n(&t->rate_unit, tmp.unit, __ATOMIC_RELAXED);
			__atomic_store_n(&t->rate_per_unit, tmp.per_unit, __ATOMIC_RELAXED);
			__atomic_fetch_add(&t->rate_gen, 1, __ATOMIC_RELEASE);
		}
	return 0;
}

/* The prompt's check is start's: the same function for every port, the MTU range included. */
int
sl_session_streams_check(const struct sl_app *app, char *err, size_t len)
{
	for (uint16_t i = 0; i < app->ports.n; i++) {
		int ret = sl_session_stream_check(app, i, NULL, err, len);

		if (ret != 0)
			return ret;
	}
	return 0;
}

uint16_t
sl_session_mtu(const struct sl_app *app, uint16_t pid)
{
	return app->o.pc[pid].mtu != 0 ? app->o.pc[pid].mtu : app->ports.p[pid].info.mtu;
}

uint32_t
sl_session_max_frame(const struct sl_app *app, uint16_t pid, bool tagged)
{
	return sl_wire_max_frame(sl_session_mtu(app, pid), tagged);
}

/*
 * The MTU is checked here, with the stream, before any port is touched, so
 * a refused MTU leaves nothing half set; the stream is sized by it.
 */
int
sl_session_stream_check(const struct sl_app *app, uint16_t pid, struct sl_stream *s, char *err,
			size_t len)
{
	const struct sl_port *p = &app->ports.p[pid];
	uint16_t mtu = sl_session_mtu(app, pid);
	struct sl_stream *scratch = NULL;
	struct sl_stream_conf c;
	char why[256];
	int ret;

	if (mtu < p->info.min_mtu || mtu > p->info.max_mtu) {
		snprintf(err, len, "--mtu %u: port %u (%s) accepts an MTU from %u to %u: give one in "
			 "that range (or port config %u mtu N)", mtu, pid, p->info.name,
			 p->info.min_mtu, p->info.max_mtu, pid);
		return -EINVAL;
	}
	if (s == NULL) {
		scratch = malloc(sizeof(*scratch));
		if (scratch == NULL) {
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
		s = scratch;
	}
	sl_session_stream_conf(app, pid, &c);
	ret = sl_stream_build(s, &c, sl_session_max_frame(app, pid, false), why, sizeof(why));
	if (ret != 0)
		snprintf(err, len, "%s: port %u (%s): %s", strncmp(why, "field", 5) == 0 ? "--field" :
			 strstr(why, "VLAN") ? "--vlan" : strstr(why, "flows") ? "--flows" : "--size",
			 pid, p->info.name, why);
	free(scratch);
	return ret;
}

static int
streams_build(struct sl_app *app)
{
	char err[320];

	for (uint16_t i = 0; i < app->ports.n; i++) {
		if (sl_session_stream_check(app, i, &app->ports.p[i].stream, err, sizeof(err)) != 0) {
			sl_err("%s", err);
			return -EINVAL;
		}
	}
	return 0;
}

/* Give each worker its targets, generators, pools and share of --count. */
static int
workers_create(struct sl_app *app)
{
	struct sl_opts *o = &app->o;
	uint64_t per_port_targets[SL_MAX_PORTS] = { 0 }, seen[SL_MAX_PORTS] = { 0 };
	unsigned int lcore;

	for (uint16_t i = 0; i < app->ports.n; i++)
		for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++)
			per_port_targets[i] += app->ports.p[i].txqs[q].nb_lcores;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		struct sl_worker *w;

		w = rte_zmalloc_socket("sl_worker", sizeof(*w), RTE_CACHE_LINE_SIZE,
				       rte_lcore_to_socket_id(lcore));
		if (w == NULL)
			return -ENOMEM;
		app->workers[app->nb_workers++] = w;
		w->lcore = lcore;
		w->burst = o->burst;
		w->direct = o->direct;
		for (uint16_t i = 0; i < app->ports.n; i++) {
			struct sl_port *p = &app->ports.p[i];
			unsigned int ntarg = 0;

			for (uint16_t q = 0; q < p->nb_txq; q++) {
				struct sl_app_txq *aq = &p->txqs[q];

				for (uint16_t j = 0; j < aq->nb_lcores; j++) {
					struct sl_target *t;
					struct sl_rate pace, share;
					char err[256];
					uint64_t k;

					if (aq->lcores[j] != lcore)
						continue;
					if (w->nb_targets == SL_MAX_TARGETS) {
						sl_err("lcore %u: more than %d queues mapped", lcore,
						       SL_MAX_TARGETS);
						return -E2BIG;
					}
					t = &w->t[w->nb_targets++];
					t->txq = aq->txq;
					t->port = i;
					t->queue = q;
					/* Which frames carry a signature (too short ones cannot). */
					t->sig_min_len = (uint32_t)p->stream.hdr_len + SL_SIG_LEN;
					{
						unsigned int sg = 0;

						for (uint16_t z = 0; z < p->stream.nb_sizes; z++)
							sg += p->stream.sz[z].sig != 0;
						t->sig_mix = sg == p->stream.nb_sizes ? 0 : sg == 0 ? 1 : 2;
					}
					k = seen[i]++;
					/* A producer per lcore-queue pair: its own sequence space. */
					if (k >= SL_SIG_MAX_PRODUCERS) {
						sl_err("port %u: more than %d lcore-queue pairs send its "
						       "stream (the signature's producer id is 8 bits)",
						       i, SL_SIG_MAX_PRODUCERS);
						return -EINVAL;
					}
					t->gen = (struct sl_gen){ .s = &p->stream, .producer = (uint8_t)k,
								  .run = app->run_tag };
					/*
					 * Its share of the stream's frame order: frames k,
					 * k + P, ... of the P pairs, so that --count's
					 * quotas below add up to the stream's first
					 * --count frames (flows and sizes exact).
					 */
					sl_gen_share(&t->gen, (uint16_t)k,
						     (uint16_t)per_port_targets[i]);
					t->quota = o->count == 0 ? UINT64_MAX :
						o->count / per_port_targets[i] +
						(k < o->count % per_port_targets[i]);
					/* The port's rate, shared equally by its targets. */
					if (sl_session_rate_check(app, i, &o->pc[i].rate, &pace, err,
								  sizeof(err)) != 0) {
						sl_err("--rate: port %u (%s): %s", i, p->info.name, err);
						return -EINVAL;
					}
					p->pace = pace;
					share = (struct sl_rate){ pace.unit,
						pace.value / per_port_targets[i] };
					if (sl_pacer_init(&t->pacer, &share) != 0) {
						sl_err("--rate: port %u's rate shared by its %" PRIu64
						       " lcore-queue pairs is below 1 per second "
						       "each: give a higher rate or fewer lcores",
						       i, per_port_targets[i]);
						return -EINVAL;
					}
					/*
					 * Catch-up after a stall (sl_gen.h): up to
					 * SL_PACER_CATCHUP_US or one burst; evenly
					 * spaced (a trial): SL_PACER_EVEN_US or one
					 * frame.
					 */
					{
						struct sl_stream_conf c;
						double l1, l2, k = o->pace_even ? 1 : o->burst;

						sl_session_stream_conf(app, i, &c);
						sl_stream_conf_mean_bits(&c, &l1, &l2);
						t->slack_units[0] = k;
						t->slack_units[1] = k * l1;
						t->slack_units[2] = k * l2;
						t->slack_us = o->pace_even ? SL_PACER_EVEN_US :
							      SL_PACER_CATCHUP_US;
						sl_pacer_set_slack(&t->pacer, t->slack_units[
							share.unit == SL_RATE_PPS ? 0 :
							share.unit == SL_RATE_L1 ? 1 : 2], t->slack_us);
					}
					ntarg++;
				}
			}
			if (ntarg != 0) {
				char name[RTE_MEMPOOL_NAMESIZE];
				/*
				 * Enough for every descriptor and backlog slot it can
				 * fill, and what the driver keeps after its descriptors
				 * (a sim DUT's queue: all of it may be this lcore's).
				 */
				uint32_t n = ntarg * (p->txd + SL_BACKLOG_SIZE + 4 * 64) + 1024 +
					     p->info.tx_hold;
				snprintf(name, sizeof(name), "sl_w%u_p%u", lcore, i);
				w->pools[i] = sl_stream_pool_create(&p->stream, name,
								    rte_align32pow2(n) - 1,
								    p->info.socket);
				if (w->pools[i] == NULL) {
					sl_err("lcore %u port %u: cannot create a pool of %u mbufs (%s): "
					       "give EAL more memory (-m) or fewer lcores",
					       lcore, i, rte_align32pow2(n) - 1,
					       rte_strerror(rte_errno));
					return -ENOMEM;
				}
				for (uint16_t t = 0; t < w->nb_targets; t++)
					if (w->t[t].port == i)
						w->t[t].gen.mp = w->pools[i];
			}
		}
	}
	return 0;
}

/* Port t's stream is addressed to port r (r's MAC is its destination, or t's wire goes to r). */
static bool
session_addressed(const struct sl_app *app, uint16_t t, uint16_t r)
{
	struct sl_stream_conf c;

	if (app->ports.p[t].info.wire_to == r)
		return true;
	sl_session_stream_conf(app, t, &c);
	return rte_is_same_ether_addr(&c.dst_mac, &app->ports.p[r].info.mac);
}

void
sl_session_address(struct sl_app *app)
{
	for (uint16_t t = 0; t < app->ports.n; t++)
		for (uint16_t r = 0; r < app->ports.n; r++)
			app->addressed[t][r] = session_addressed(app, t, r);
}

/*
 * Which ports receive: --rx, or by default the ports some stream is addressed
 * to (a port's MAC is a stream's destination) and the far end of a driver's
 * wire (a sim DUT).
 */
static void
rx_ports(const struct sl_app *app, bool *rx)
{
	const struct sl_opts *o = &app->o;

	for (uint16_t r = 0; r < app->ports.n; r++) {
		rx[r] = false;
		/* --rxmap names a port to poll: it receives. */
		for (uint16_t i = 0; i < o->nb_rxmap; i++)
			rx[r] |= o->rxmap[i].port == r;
		if (o->rx_mode == SL_RX_ALL) {
			rx[r] = true;
			continue;
		}
		if (o->rx_mode == SL_RX_LIST) {
			rx[r] |= o->rx_port[r];
			continue;
		}
		for (uint16_t t = 0; t < app->ports.n; t++)
			if (!o->pc[t].stopped && session_addressed(app, t, r))
				rx[r] = true;
	}
}

/*
 * The receive side: an analyzer per receiving port, and the lcore that polls
 * it (--rxmap; else a worker lcore that sends nothing, else the TX worker
 * with the fewest ports to poll). A port is polled by one lcore.
 */
static int
rx_build(struct sl_app *app)
{
	const struct sl_opts *o = &app->o;
	uint16_t producers[SL_MAX_PORTS];
	bool rx[SL_MAX_PORTS];

	for (uint16_t r = 0; r < SL_MAX_PORTS; r++)
		app->rx_lcore[r] = -1;
	for (uint16_t i = 0; i < o->nb_rxmap; i++)
		if (o->rxmap[i].port >= app->ports.n) {
			sl_err("--rxmap: port %u does not exist (there are %u port(s))",
			       o->rxmap[i].port, app->ports.n);
			return -EINVAL;
		}
	if (o->rx_mode == SL_RX_LIST)
		for (uint16_t r = app->ports.n; r < SL_MAX_PORTS; r++)
			if (o->rx_port[r]) {
				sl_err("--rx: port %u does not exist (there are %u port(s))", r,
				       app->ports.n);
				return -EINVAL;
			}
	sl_session_address(app);
	rx_ports(app, rx);
	for (uint16_t i = 0; i < app->ports.n; i++) {
		producers[i] = 0;
		for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++)
			producers[i] += app->ports.p[i].txqs[q].nb_lcores;
	}
	for (uint16_t r = 0; r < app->ports.n; r++) {
		struct sl_port *p = &app->ports.p[r];
		struct sl_worker *w = NULL;
		struct sl_rx_conf rc = {
			.nb_streams = app->ports.n, /* stream id = sending port */
			.producers = producers,
			.run = app->run_tag,
			.socket_id = p->info.socket,
		};

		if (!rx[r])
			continue;
		if (p->ops->rx_burst == NULL) {
			sl_err("port %u (%s) cannot receive", r, p->info.name);
			return -EINVAL;
		}
		for (uint16_t i = 0; i < o->nb_rxmap && w == NULL; i++)
			for (uint16_t k = 0; k < app->nb_workers; k++)
				if (o->rxmap[i].port == r && app->workers[k]->lcore == o->rxmap[i].lcore)
					w = app->workers[k];
		for (uint16_t i = 0; i < o->nb_rxmap; i++)
			if (o->rxmap[i].port == r && w == NULL) {
				sl_err("--rxmap: lcore %u is not a worker lcore", o->rxmap[i].lcore);
				return -EINVAL;
			}
		/* A spare lcore first (it sends nothing and polls nothing yet). */
		for (uint16_t k = 0; k < app->nb_workers && w == NULL; k++)
			if (app->workers[k]->nb_targets == 0 && app->workers[k]->nb_rxp == 0)
				w = app->workers[k];
		/* Else the TX worker with the fewest ports to poll. */
		for (uint16_t k = 0; k < app->nb_workers; k++)
			if (w == NULL || (w->nb_targets != 0 &&
					  app->workers[k]->nb_rxp < w->nb_rxp))
				w = app->workers[k];
		if (w == NULL) {
			sl_err("port %u: no worker lcore to receive on it", r);
			return -EINVAL;
		}
		app->rx[r] = sl_rx_create(&rc);
		if (app->rx[r] == NULL) {
			sl_err("port %u: cannot create its analyzer (%s): give EAL more memory (-m)",
			       r, rte_strerror(rte_errno));
			return -ENOMEM;
		}
		w->rxp[w->nb_rxp++] = (struct sl_rxp){ p->ops->rx_burst, p->dev, app->rx[r], r };
		app->rx_lcore[r] = (int16_t)w->lcore;
		app->rx_dedicated[r] = w->nb_targets == 0;
	}
	return 0;
}

/*
 * Step 4: the main lcore receives on every receiving port until every frame
 * sent has arrived, or --drain ends, or a signal. What is already waiting is
 * collected even with --drain 0 (until a round brings nothing).
 */
static void
rx_drain(struct sl_app *app)
{
	uint64_t hz = rte_get_tsc_hz(), now = rte_rdtsc();
	uint64_t end = now + sl_session_us_tsc(app->o.drain_us, hz), next_check = now;
	struct sl_rxp rxp[SL_MAX_PORTS];
	uint16_t n = 0;

	for (uint16_t r = 0; r < app->ports.n; r++)
		if (app->rx[r] != NULL)
			rxp[n++] = (struct sl_rxp){ app->ports.p[r].ops->rx_burst, app->ports.p[r].dev,
						    app->rx[r], r };
	while (n != 0) {
		bool got = sl_worker_rx(rxp, n);

		now = rte_rdtsc();
		if (!got && now >= end)
			break;
		if (now >= end && app->o.drain_us != 0)
			break;
		/* Every millisecond, even while frames keep coming (foreign ones do). */
		if (now >= next_check) {
			if (sl_report_all_arrived(app) || sl_interrupted())
				break;
			next_check = now + hz / 1000;
		}
		if (!got)
			rte_delay_us_sleep(50);
	}
	app->drain_end_tsc = rte_rdtsc();
}

/*
 * Step 2, first part: send what the backlogs hold without dropping anything
 * (the poll, or an exclusive queue's own drain: its producer has stopped),
 * while receiving: on a loopback (net_ring) or a DUT wired back to Sluice,
 * TX empties only as fast as someone receives, and the workers that did have
 * stopped. Bounded by timeout_us; what is left then is the flush's to drop.
 */
static void
backlogs_drain(struct sl_app *app, uint64_t timeout_us)
{
	uint64_t end = rte_get_timer_cycles() + timeout_us * rte_get_timer_hz() / US_PER_S;
	struct sl_rxp rxp[SL_MAX_PORTS];
	uint16_t nrx = 0;

	for (uint16_t r = 0; r < app->ports.n; r++)
		if (app->rx[r] != NULL)
			rxp[nrx++] = (struct sl_rxp){ app->ports.p[r].ops->rx_burst,
						      app->ports.p[r].dev, app->rx[r], r };
	while (rte_get_timer_cycles() < end) {
		uint32_t left = 0;
		bool moved = false;

		for (uint16_t i = 0; i < app->ports.n; i++)
			for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++) {
				struct sl_txq *t = app->ports.p[i].txqs[q].txq;

				if (t == NULL || sl_txq_pending(t) == 0)
					continue;
				moved |= (sl_txq_get_mode(t) == SL_TXQ_EXCLUSIVE ?
					  sl_txq_drain_own(t) : sl_txq_poll(t)) != 0;
				left += sl_txq_pending(t);
			}
		if (left == 0)
			return;
		if (nrx != 0)
			moved |= sl_worker_rx(rxp, nrx);
		if (!moved)
			rte_delay_us_sleep(20);
	}
}

/* Free what a run built (step 8): queues, analyzers, workers and their pools. */
static void
session_release(struct sl_app *app)
{
	pthread_mutex_lock(&app->tel_lock);
	sl_ports_txqs_free(&app->ports);
	for (uint16_t r = 0; r < SL_MAX_PORTS; r++) {
		sl_rx_free(app->rx[r]);
		app->rx[r] = NULL;
		app->rx_lcore[r] = -1;
	}
	memset(app->rx_base, 0, sizeof(app->rx_base));
	for (uint16_t i = 0; i < app->nb_workers; i++) {
		struct sl_worker *w = app->workers[i];

		for (uint16_t p = 0; p < SL_MAX_PORTS; p++)
			rte_mempool_free(w->pools[p]);
		rte_free(w);
		app->workers[i] = NULL;
	}
	app->nb_workers = 0;
	app->discarded = 0;
	app->pool_in_use = 0;
	app->start_tsc = app->end_tsc = 0; /* show port stats: no run until the next start */
	pthread_mutex_unlock(&app->tel_lock);
}

/* Build a run: map, streams, ports, queues, workers. The caller holds tel_lock. */
static int
session_build(struct sl_app *app)
{
	int ret;

	/* A new tag per run, never the last one: frames a DUT kept are stale. */
	app->run_tag = (uint8_t)(app->run_tag + 1 + rte_rand_max(255));
	ret = map_apply(app);

	if (ret == 0 && app->o.direct)
		ret = direct_check(app);
	if (ret == 0)
		ret = streams_build(app);
	if (ret == 0) {
		bool rx[SL_MAX_PORTS];

		rx_ports(app, rx);
		ret = sl_ports_setup(&app->ports, &app->o, rx);
	}
	if (ret == 0)
		ret = sl_ports_txqs_create(&app->ports, app->o.lock);
	if (ret == 0)
		ret = workers_create(app);
	if (ret == 0)
		ret = rx_build(app);
	return ret;
}

int
sl_session_open(struct sl_app *app)
{
	pthread_mutex_init(&app->tel_lock, NULL);
	if (sl_ports_open(&app->ports, &app->o) != 0)
		return SL_EXIT_RUNTIME;
	return SL_EXIT_OK;
}

int
sl_session_start(struct sl_app *app)
{
	const struct sl_opts *o = &app->o;
	uint64_t hz = rte_get_tsc_hz(), deadline = 0;
	int ret;

	session_release(app);
	pthread_mutex_lock(&app->tel_lock);
	ret = session_build(app);
	pthread_mutex_unlock(&app->tel_lock);
	if (ret != 0) {
		session_release(app);
		sl_ports_stop(&app->ports);
		return ret;
	}
	if (!app->quiet)
		sl_report_modes(app);
	/*
	 * A new run clears the last stop, but not a signal's: it quits. Clear,
	 * then read quit (the handler sets quit, then stop): a signal at this
	 * very moment leaves stop set either way.
	 */
	__atomic_store_n(&sl_stop, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sl_quit, __ATOMIC_SEQ_CST) != 0)
		__atomic_store_n(&sl_stop, 1, __ATOMIC_SEQ_CST);
	app->start_tsc = rte_rdtsc();
	app->end_tsc = 0;
	if (o->duration_us != 0)
		deadline = app->start_tsc + sl_session_us_tsc(o->duration_us, hz);
	app->next_stats = app->start_tsc + (uint64_t)(o->stats_period * (double)hz);
	memset(&app->live, 0, sizeof(app->live));
	for (uint16_t i = 0; i < SL_MAX_PORTS; i++)
		app->view[i] = (struct sl_view){ app->start_tsc, app->start_tsc, 0, 0 };
	for (uint16_t i = 0; i < app->nb_workers; i++) {
		struct sl_worker *w = app->workers[i];

		w->deadline_tsc = deadline;
		if (w->nb_targets == 0 && w->nb_rxp == 0) {
			w->tx_done = 1;
			w->done = 1;
			continue;
		}
		if (rte_eal_remote_launch(sl_worker_main, w, w->lcore) != 0) {
			sl_err("lcore %u is busy: it cannot transmit in this run", w->lcore);
			w->tx_done = 1;
			w->done = 1;
		}
	}
	app->running = true;
	app->runs++;
	return 0;
}

static bool
workers_done(const struct sl_app *app)
{
	for (uint16_t i = 0; i < app->nb_workers; i++)
		if (!sl_worker_tx_done(app->workers[i]))
			return false;
	return true;
}

bool
sl_session_poll(struct sl_app *app)
{
	uint64_t hz = rte_get_tsc_hz(), now = rte_rdtsc();

	if (!app->running || sl_stopping() || workers_done(app))
		return false;
	for (uint16_t i = 0; i < app->ports.n; i++)
		for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++)
			sl_txq_poll(app->ports.p[i].txqs[q].txq);
	if (app->o.stats_period != 0 && now >= app->next_stats) {
		if (app->output_hook != NULL)
			app->output_hook(app, true);
		sl_report_live(app, (double)(now - app->start_tsc) / hz);
		if (app->output_hook != NULL)
			app->output_hook(app, false);
		app->next_stats += (uint64_t)(app->o.stats_period * (double)hz);
		/* Late (the main lcore was descheduled): skip the missed lines, not a burst of them. */
		if (app->next_stats <= now)
			app->next_stats = now + (uint64_t)(app->o.stats_period * (double)hz);
	}
	return true;
}

void
sl_session_wait(struct sl_app *app)
{
	while (sl_session_poll(app))
		rte_delay_us_sleep(SL_SESSION_POLL_US);
}

int
sl_session_stop(struct sl_app *app)
{
	uint64_t end;

	if (!app->running)
		return SL_EXIT_OK;
	/* 1. */
	__atomic_store_n(&sl_stop, 1, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	/* 2. */
	backlogs_drain(app, SL_FLUSH_US);
	app->discarded = sl_ports_quiesce(&app->ports, SL_FLUSH_US);
	/* 3. The run ends when what was counted as sent has been sent. */
	end = app->start_tsc;
	for (uint16_t i = 0; i < app->nb_workers; i++)
		end = RTE_MAX(end, app->workers[i]->end_tsc);
	app->end_tsc = RTE_MAX(end, rte_rdtsc());
	/* 4. */
	rx_drain(app);
	/* 5. */
	sl_ports_stop(&app->ports);
	/* 6. */
	app->pool_in_use = sl_session_pool_in_use(app);
	app->running = false;
	/* 7. (a benchmark's trial reports nothing: bench.c reads the counters) */
	if (app->quiet)
		return SL_EXIT_OK;
	sl_report_summary(app);
	if (app->o.json != NULL && sl_report_json(app, app->o.json) != 0) {
		app->exit_code = SL_EXIT_RUNTIME;
		return SL_EXIT_RUNTIME;
	}
	{
		unsigned int nc;

		sl_report_measured(app, &nc);
		if (nc != 0 && app->exit_code == SL_EXIT_OK)
			app->exit_code = SL_EXIT_LOSS;
	}
	if (sl_report_lost(app) != 0) {
		if (app->exit_code == SL_EXIT_OK)
			app->exit_code = SL_EXIT_LOSS;
		return SL_EXIT_LOSS;
	}
	return SL_EXIT_OK;
}

uint64_t
sl_session_pool_in_use(const struct sl_app *app)
{
	uint64_t n = 0;

	for (uint16_t i = 0; i < app->nb_workers; i++)
		for (uint16_t p = 0; p < SL_MAX_PORTS; p++)
			if (app->workers[i] != NULL && app->workers[i]->pools[p] != NULL)
				n += rte_mempool_in_use_count(app->workers[i]->pools[p]);
	return n;
}

int
sl_session_run(struct sl_app *app)
{
	int ret;

	ret = sl_session_start(app);
	if (ret != 0)
		return ret == -EINVAL ? SL_EXIT_USAGE : SL_EXIT_RUNTIME;
	sl_session_wait(app);
	return sl_session_stop(app);
}

void
sl_session_close(struct sl_app *app)
{
	if (app->running)
		sl_session_stop(app);
	session_release(app);
	pthread_mutex_lock(&app->tel_lock);
	sl_ports_close(&app->ports);
	pthread_mutex_unlock(&app->tel_lock);
}
