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

#include <time.h>

#include <sys/mman.h>

#include <numa.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "plan.h"
#include "ctl.h"
#include "ports.h"
#include "sl_err.h"
#include "sl_wire.h"
#include "sl_clock.h"
#include "source.h"
#include "worker.h"

#define SL_BACKLOG_SIZE 1024 /* as ports.c creates them; sizes the pools */
#define SL_PLAN_STREAM_ALIGN (2u << 20) /* a huge page */

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
		for (uint16_t q = 0; q < SL_MAX_TXQ; q++) {
			app->ports.p[i].txqs[q].nb_lcores = 0;
			app->ports.p[i].txqs[q].ctl = false;
		}
	}
	/* A port with devices: the main lcore answers for them on queue 0 (run/ctl.h). */
	for (uint16_t i = 0; i < o->nb_devices; i++)
		if (o->devices[i].port < app->ports.n)
			app->ports.p[o->devices[i].port].txqs[0].ctl = true;
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

/*
 * Check configuration c whole and compile its streams (the table's flows,
 * or each port's default flow) where the run keeps them: the check's
 * compile is the one the workers send from.
 */
int
sl_plan_compile(struct sl_app *app, const struct sl_config *c, struct sl_config_err *e)
{
	uint16_t n = sl_config_nb_streams(c, &app->env);
	size_t bytes = RTE_ALIGN_CEIL((size_t)RTE_MAX(n, 1) * sizeof(struct sl_stream),
				      SL_PLAN_STREAM_ALIGN);

	app->ses.streams = calloc(RTE_MAX(n, 1), sizeof(*app->ses.streams));
	/*
	 * One block for them all, on huge pages where the kernel gives them
	 * (transparent huge pages, madvise): a worker sweeping many flows
	 * touches a few lines of each stream, far apart, and would otherwise
	 * miss the TLB on every one.
	 */
	app->ses.stream_block = aligned_alloc(SL_PLAN_STREAM_ALIGN, bytes);
	if (app->ses.streams == NULL || app->ses.stream_block == NULL) {
		snprintf(e->msg, sizeof(e->msg), "cannot allocate %u streams: out of memory", n);
		return -ENOMEM;
	}
	madvise(app->ses.stream_block, bytes, MADV_HUGEPAGE);
	for (uint16_t id = 0; id < n; id++)
		app->ses.streams[id] = (struct sl_stream *)app->ses.stream_block + id;
	app->ses.nb_streams = n;
	return sl_config_compile(c, &app->env, SL_CHECK_ALL, app->ses.stream_block, e);
}

/* Each compiled stream's source row (source.h), and what a row loads beside it. */
int
sl_plan_streams(struct sl_app *app)
{
	const struct sl_config *o = &app->ses.run_cfg;
	uint16_t n = app->ses.nb_streams;

	app->ses.src = calloc(RTE_MAX(n, 1), sizeof(*app->ses.src));
	app->ses.src_state = calloc(RTE_MAX(n, 1), sizeof(*app->ses.src_state));
	if (app->ses.src == NULL || app->ses.src_state == NULL)
		return -ENOMEM;
	for (uint16_t id = 0; id < n; id++) {
		app->ses.src[id] = sl_source_of(o, id);
		if (app->ses.src[id]->load != NULL && app->ses.src[id]->load(app, id,
									  app->ses.streams[id]) != 0)
			return -EINVAL;
	}
	return 0;
}

void
sl_plan_streams_free(struct sl_app *app)
{
	for (uint16_t id = 0; app->ses.src != NULL && id < app->ses.nb_streams; id++)
		if (app->ses.src[id] != NULL && app->ses.src[id]->forget != NULL)
			app->ses.src[id]->forget(app, id);
	free(app->ses.src_state);
	app->ses.src_state = NULL;
	free(app->ses.src);
	app->ses.src = NULL;
	free(app->ses.stream_block);
	app->ses.stream_block = NULL;
	free(app->ses.streams);
	app->ses.streams = NULL;
	app->ses.nb_streams = 0;
}

/* The lcore-queue pairs that send port i's streams (each stream's producers). */
static uint64_t
port_pairs(const struct sl_app *app, uint16_t i)
{
	uint64_t n = 0;

	for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++)
		n += app->ports.p[i].txqs[q].nb_lcores;
	return n;
}

/* Targets lcore will have: each of its (port, queue) pairs times the port's streams. */
static uint32_t
count_targets(const struct sl_app *app, unsigned int lcore)
{
	uint32_t n = 0;

	for (uint16_t i = 0; i < app->ports.n; i++) {
		uint16_t ns = sl_config_port_streams(&app->ses.run_cfg, &app->env, i);

		for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++)
			for (uint16_t j = 0; j < app->ports.p[i].txqs[q].nb_lcores; j++)
				n += app->ports.p[i].txqs[q].lcores[j] == lcore ? ns : 0;
	}
	return n;
}

/*
 * One target: stream id on queue aq of port i, as producer k of the
 * stream's pairs (P of them): its share of the order and of the count, its
 * window; its source's row attaches the rest (source.h: a share of the
 * rate, or of a replay's frames).
 */
static int
target_init(struct sl_app *app, struct sl_target *t, uint16_t i, uint16_t q, uint16_t id,
	    uint64_t k, uint64_t P)
{
	const struct sl_config *o = &app->ses.run_cfg;
	const struct sl_stream *st = app->ses.streams[id];
	uint64_t count = sl_config_stream_count(o, &app->env, id);
	unsigned int sg = 0;

	t->txq = app->ports.p[i].txqs[q].txq;
	t->port = i;
	t->queue = q;
	t->stream = id;
	t->src = app->ses.src[id];
	t->hold = app->ses.hold != NULL ? &app->ses.hold[id] : NULL;
	t->own_rate = o->nb_flows != 0 && o->flows[id].rate.unit != SL_RATE_NONE;
	/* Which frames carry a signature (too short ones cannot). */
	t->sig_min_len = (uint32_t)st->hdr_len + SL_SIG_LEN;
	for (uint16_t z = 0; z < st->nb_sizes; z++)
		sg += st->sz[z].sig != 0;
	t->sig_mix = sg == st->nb_sizes ? 0 : sg == 0 ? 1 : 2;
	/* A producer per lcore-queue pair: its own sequence space. */
	if (k >= SL_SIG_MAX_PRODUCERS) {
		sl_err("port %u: more than %d lcore-queue pairs send its stream (the signature's "
		       "producer id is 8 bits)", i, SL_SIG_MAX_PRODUCERS);
		return -EINVAL;
	}
	t->gen = (struct sl_gen){ .s = st, .producer = (uint8_t)k, .run = app->ses.run_tag };
	/*
	 * Its share of the stream's frame order: frames k, k + P, ... of the P
	 * pairs, so that the quotas below add up to the stream's first count
	 * frames (flows and sizes exact).
	 */
	sl_gen_share(&t->gen, (uint16_t)k, (uint16_t)P);
	t->quota = count == 0 ? UINT64_MAX : count / P + (k < count % P);
	if (o->nb_flows != 0) {
		uint64_t hz = sl_tsc_hz();

		const struct sl_flow_conf *fc = &o->flows[id];

		t->delay_tsc = (uint64_t)((double)fc->delay_us * (double)hz / 1e6);
		t->duration_tsc = (uint64_t)((double)fc->duration_us * (double)hz / 1e6);
		if (fc->burst_pkts != 0) {
			/* Its share of each burst, as of a count: the shares add up to it. */
			t->burst_pkts = (uint32_t)(fc->burst_pkts / P + (k < fc->burst_pkts % P));
			t->burst_left = t->burst_pkts;
			t->bursts_left = fc->bursts;
			t->burst_gap_tsc = (uint64_t)((double)fc->burst_gap_us * (double)hz / 1e6);
			if (t->burst_pkts == 0)
				t->quota = 0; /* fewer packets a burst than pairs: not this one */
		}
	}
	return t->src->attach(app, t, id, k, P);
}

/*
 * Port i's pool on lcore: shared by the port's streams. Enough for every
 * descriptor and backlog slot its queues can fill, what the driver keeps
 * after its descriptors (a sim DUT's queue: all of it may be this lcore's),
 * and a burst pending per target. With several streams the frames are laid
 * over each other (sl_gen.copy_len): the longest header of them all.
 */
static int
port_pool(struct sl_app *app, struct sl_worker *w, unsigned int lcore, uint16_t i,
	  unsigned int npairs, unsigned int ntarg)
{
	const struct sl_config *o = &app->ses.run_cfg;
	struct sl_port *p = &app->ports.p[i];
	const struct sl_stream *big = NULL;
	uint16_t copy = 0, ns = 0, len = 0;
	bool plain = true, sig = false; /* one size for all, all signed or all not (copy_plain) */
	char name[RTE_MEMPOOL_NAMESIZE];
	/* A burst pending per target, up to 64 of them: more only waits for the pool (pool_dry). */
	uint32_t n = npairs * (p->txd + SL_BACKLOG_SIZE + 4 * 64) + RTE_MIN(ntarg, 64u) * 2 *
		     o->burst + 1024 + p->info.tx_hold;

	for (uint16_t id = 0; id < app->ses.nb_streams; id++) {
		const struct sl_stream *st = app->ses.streams[id];

		if (sl_config_stream_port(o, id) != i)
			continue;
		ns++;
		if (big == NULL || st->max_len > big->max_len)
			big = st;
		if (st->hdr_len > copy)
			copy = st->hdr_len;
		if (st->nb_sizes != 1 || (len != 0 && (st->sz[0].pkt_len != len ||
						     st->sz[0].sig != sig)))
			plain = false;
		len = st->sz[0].pkt_len;
		sig = st->sz[0].sig;
	}
	snprintf(name, sizeof(name), "sl_w%u_p%u", lcore, i);
	w->pools[i] = sl_stream_pool_create(big, name, rte_align32pow2(n) - 1, p->info.socket);
	if (w->pools[i] == NULL) {
		sl_err("lcore %u port %u: cannot create a pool of %u mbufs (%s): give EAL more "
		       "memory (-m) or fewer lcores", lcore, i, rte_align32pow2(n) - 1,
		       rte_strerror(rte_errno));
		return -ENOMEM;
	}
	/*
	 * Sources whose frames keep bytes of their own (a replay's capture)
	 * beside generated flows: a pool of their own, since such a frame,
	 * freed, holds bytes past the header a generated flow copies (the
	 * generator keeps the rest of its frames zero).
	 */
	{
		bool own = false, gen = false;

		for (uint32_t t = 0; t < w->nb_targets; t++)
			if (w->t[t].port == i) {
				own |= w->t[t].src->own_pool;
				gen |= !w->t[t].src->own_pool;
			}
		if (own && gen) {
			snprintf(name, sizeof(name), "sl_w%u_p%u_r", lcore, i);
			w->rpools[i] = sl_stream_pool_create(big, name, rte_align32pow2(n) - 1,
							     p->info.socket);
			if (w->rpools[i] == NULL) {
				sl_err("lcore %u port %u: cannot create a pool of %u mbufs for its "
				       "replays (%s): give EAL more memory (-m) or fewer lcores",
				       lcore, i, rte_align32pow2(n) - 1, rte_strerror(rte_errno));
				return -ENOMEM;
			}
		}
	}
	for (uint32_t t = 0; t < w->nb_targets; t++)
		if (w->t[t].port == i) {
			w->t[t].gen.mp = w->t[t].src->own_pool && w->rpools[i] != NULL ? w->rpools[i] :
					 w->pools[i];
			w->t[t].gen.copy_len = ns > 1 ? RTE_ALIGN_CEIL(copy, SL_GEN_COPY_ALIGN) : 0;
			w->t[t].gen.copy_plain = ns > 1 && plain;
		}
	return 0;
}

/* Give each worker its targets, generators, pools and share of each stream's count. */
int
sl_plan_workers(struct sl_app *app)
{
	const struct sl_config *o = &app->ses.run_cfg;
	uint64_t pairs[SL_MAX_PORTS] = { 0 }, seen[SL_MAX_PORTS] = { 0 };
	unsigned int lcore;
	int ret;

	for (uint16_t i = 0; i < app->ports.n; i++)
		pairs[i] = port_pairs(app, i);

	RTE_LCORE_FOREACH_WORKER(lcore) {
		uint32_t nt = count_targets(app, lcore);
		struct sl_worker *w;

		w = rte_zmalloc_socket("sl_worker", sizeof(*w), RTE_CACHE_LINE_SIZE,
				       rte_lcore_to_socket_id(lcore));
		if (w == NULL)
			return -ENOMEM;
		app->ses.workers[app->ses.nb_workers++] = w;
		w->lcore = lcore;
		w->burst = o->burst;
		w->direct = o->direct;
		if (nt > UINT16_MAX) {
			sl_err("lcore %u: %u queue-flow pairs to send: at most %u; give it fewer "
			       "flows or queues", lcore, nt, UINT16_MAX);
			return -E2BIG;
		}
		if (nt != 0) {
			w->t = rte_zmalloc_socket("sl_targets", nt * sizeof(*w->t),
						  RTE_CACHE_LINE_SIZE, rte_lcore_to_socket_id(lcore));
			if (w->t == NULL) {
				sl_err("lcore %u: cannot allocate its %u targets: give EAL more "
				       "memory (-m)", lcore, nt);
				return -ENOMEM;
			}
		}
		for (uint16_t i = 0; i < app->ports.n; i++) {
			struct sl_port *p = &app->ports.p[i];
			unsigned int npairs = 0, t0 = w->nb_targets;

			for (uint16_t q = 0; q < p->nb_txq; q++) {
				struct sl_app_txq *aq = &p->txqs[q];

				for (uint16_t j = 0; j < aq->nb_lcores; j++) {
					uint64_t k;

					if (aq->lcores[j] != lcore)
						continue;
					k = seen[i]++;
					npairs++;
					for (uint16_t id = 0; id < app->ses.nb_streams; id++) {
						if (sl_config_stream_port(o, id) != i)
							continue;
						ret = target_init(app, &w->t[w->nb_targets++], i, q,
								  id, k, pairs[i]);
						if (ret != 0)
							return ret;
					}
				}
			}
			if (npairs != 0) {
				struct sl_rate pace;
				char err[256];

				/* The port's own rate, as shown (its streams pace their shares). */
				if (sl_config_rate(o, &app->env, i, &o->pc[i].rate, &pace, err,
						   sizeof(err)) == 0)
					p->pace = pace;
			}
			if (w->nb_targets != t0 &&
			    (ret = port_pool(app, w, lcore, i, npairs, w->nb_targets - t0)) != 0)
				return ret;
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
	uint16_t *producers;
	bool rx[SL_MAX_PORTS];

	for (uint16_t r = 0; r < SL_MAX_PORTS; r++)
		app->ses.rx_lcore[r] = -1;
	sl_plan_address(app, o);
	sl_config_rx_ports(o, &app->env, rx);
	/* Each stream's producers: the lcore-queue pairs of its port. */
	producers = calloc(app->ses.nb_streams != 0 ? app->ses.nb_streams : 1, sizeof(*producers));
	if (producers == NULL)
		return -ENOMEM;
	for (uint16_t id = 0; id < app->ses.nb_streams; id++)
		producers[id] = (uint16_t)port_pairs(app, sl_config_stream_port(o, id));
	for (uint16_t r = 0; r < app->ports.n; r++) {
		struct sl_port *p = &app->ports.p[r];
		struct sl_worker *w = NULL;
		struct sl_rx_conf rc = {
			.nb_streams = app->ses.nb_streams, /* the signature's stream ids */
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
			free(producers);
			return -EINVAL;
		}
		app->ses.rx[r] = sl_rx_create(&rc);
		if (app->ses.rx[r] == NULL) {
			sl_err("port %u: cannot create its analyzer (%s): give EAL more memory (-m)",
			       r, rte_strerror(rte_errno));
			free(producers);
			return -ENOMEM;
		}
		w->rxp[w->nb_rxp++] = (struct sl_rxp){ p->ops->rx_burst, p->dev, app->ses.rx[r], r,
						       app->ses.cap[r],
						       p->txqs[0].ctl ? sl_ctl_ring(app, r) : NULL, 0 };
		app->ses.rx_lcore[r] = (int16_t)w->lcore;
		app->ses.rx_dedicated[r] = w->nb_targets == 0;
	}
	free(producers);
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

	for (uint16_t i = 0; i < app->ses.nb_workers; i++) {
		const struct sl_worker *w = app->ses.workers[i];

		for (uint16_t p = 0; w != NULL && p < SL_MAX_PORTS; p++) {
			if (w->pools[p] != NULL)
				n += rte_mempool_in_use_count(w->pools[p]);
			if (w->rpools[p] != NULL)
				n += rte_mempool_in_use_count(w->rpools[p]);
		}
	}
	return n;
}
