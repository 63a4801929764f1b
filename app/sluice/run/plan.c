/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The plan of a run (plan.h): from the run's configuration to which lcore
 * sends on which queue of which port, each port's flow compiled, each
 * worker's targets (a queue, a generator, a pacer, a share of --count) and
 * pools, and who polls each receiving port.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <numa.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "plan.h"
#include "ports.h"
#include "sl_err.h"

#define SL_BACKLOG_SIZE 1024 /* as ports.c creates them; sizes the pools */

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
	for (uint16_t i = 0; i < app->ses.nb_map; i++) {
		const struct sl_map_entry *e = &app->ses.map[i];
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

/*
 * The map in force (the configuration's, checked) on the ports: each
 * queue's lcores, each port's queues.
 */
void
sl_plan_map(struct sl_app *app)
{
	const struct sl_config *o = &app->ses.run_cfg;

	for (uint16_t i = 0; i < app->ports.n; i++) {
		app->ports.p[i].nb_txq = 0;
		app->ports.p[i].pace = (struct sl_rate){ SL_RATE_NONE, 0 };
		for (uint16_t q = 0; q < SL_MAX_TXQ; q++)
			app->ports.p[i].txqs[q].nb_lcores = 0;
	}
	app->ses.nb_map = sl_config_map(o, &app->env, app->ses.map);
	for (uint16_t i = 0; i < app->ses.nb_map; i++) {
		const struct sl_map_entry *e = &app->ses.map[i];
		struct sl_port *p = &app->ports.p[e->port];
		struct sl_app_txq *aq;
		bool dup = false;

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

		if (o->pc[i].txq != 0)
			p->nb_txq = o->pc[i].txq; /* at least the map's: checked */
		if (p->nb_txq == 0)
			p->nb_txq = 1; /* an unmapped port still gets configured */
	}
}

/* Compile every port's flow (checked: it cannot fail but for memory). */
int
sl_plan_streams(struct sl_app *app)
{
	struct sl_config_err e;

	for (uint16_t i = 0; i < app->ports.n; i++)
		if (sl_config_flow_build(&app->ses.run_cfg, &app->env, i, &app->ports.p[i].stream,
					 &e) != 0) {
			sl_err("%s", e.msg);
			return -EINVAL;
		}
	return 0;
}

/* Give each worker its targets, generators, pools and share of --count. */
int
sl_plan_workers(struct sl_app *app)
{
	const struct sl_config *o = &app->ses.run_cfg;
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
		app->ses.workers[app->ses.nb_workers++] = w;
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
								  .run = app->ses.run_tag };
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
					if (sl_config_rate(o, &app->env, i, &o->pc[i].rate, &pace,
							   err, sizeof(err)) != 0) {
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

						sl_config_flow(o, &app->env, i, &c);
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

/*
 * The receive side: an analyzer per receiving port, and the lcore that polls
 * it (--rxmap; else a worker lcore that sends nothing, else the TX worker
 * with the fewest ports to poll). A port is polled by one lcore.
 */
int
sl_plan_rx(struct sl_app *app)
{
	const struct sl_config *o = &app->ses.run_cfg;
	uint16_t producers[SL_MAX_PORTS];
	bool rx[SL_MAX_PORTS];

	for (uint16_t r = 0; r < SL_MAX_PORTS; r++)
		app->ses.rx_lcore[r] = -1;
	sl_plan_address(app, o);
	sl_config_rx_ports(o, &app->env, rx);
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
			.run = app->ses.run_tag,
			.socket_id = p->info.socket,
		};

		if (!rx[r])
			continue;
		for (uint16_t i = 0; i < o->nb_rxmap && w == NULL; i++)
			for (uint16_t k = 0; k < app->ses.nb_workers; k++)
				if (o->rxmap[i].port == r && app->ses.workers[k]->lcore == o->rxmap[i].lcore)
					w = app->ses.workers[k];
		/* A spare lcore first (it sends nothing and polls nothing yet). */
		for (uint16_t k = 0; k < app->ses.nb_workers && w == NULL; k++)
			if (app->ses.workers[k]->nb_targets == 0 && app->ses.workers[k]->nb_rxp == 0)
				w = app->ses.workers[k];
		/* Else the TX worker with the fewest ports to poll. */
		for (uint16_t k = 0; k < app->ses.nb_workers; k++)
			if (w == NULL || (w->nb_targets != 0 &&
					  app->ses.workers[k]->nb_rxp < w->nb_rxp))
				w = app->ses.workers[k];
		if (w == NULL) {
			sl_err("port %u: no worker lcore to receive on it", r);
			return -EINVAL;
		}
		app->ses.rx[r] = sl_rx_create(&rc);
		if (app->ses.rx[r] == NULL) {
			sl_err("port %u: cannot create its analyzer (%s): give EAL more memory (-m)",
			       r, rte_strerror(rte_errno));
			return -ENOMEM;
		}
		w->rxp[w->nb_rxp++] = (struct sl_rxp){ p->ops->rx_burst, p->dev, app->ses.rx[r], r };
		app->ses.rx_lcore[r] = (int16_t)w->lcore;
		app->ses.rx_dedicated[r] = w->nb_targets == 0;
	}
	return 0;
}

void
sl_plan_address(struct sl_app *app, const struct sl_config *c)
{
	const struct sl_config_env *env = (sl_ports_env(&app->ports, &app->env), &app->env);

	for (uint16_t t = 0; t < app->ports.n; t++)
		for (uint16_t r = 0; r < app->ports.n; r++)
			app->ses.addressed[t][r] = sl_config_addressed(c, env, t, r);
}

uint64_t
sl_plan_pool_in_use(const struct sl_app *app)
{
	uint64_t n = 0;

	for (uint16_t i = 0; i < app->ses.nb_workers; i++)
		for (uint16_t p = 0; p < SL_MAX_PORTS; p++)
			if (app->ses.workers[i] != NULL && app->ses.workers[i]->pools[p] != NULL)
				n += rte_mempool_in_use_count(app->ses.workers[i]->pools[p]);
	return n;
}
