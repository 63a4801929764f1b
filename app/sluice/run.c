/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run: the lcore -> port.queue map, the queue objects, the workers and
 * the main lcore's loop (scheduler poll, live stats, stop, flush).
 *
 * Publication: everything a worker reads (its struct sl_worker, the queues,
 * the streams, the pools) is written before rte_eal_remote_launch(), which
 * orders those stores before the worker starts. While running, workers read
 * only sl_stop (relaxed; a late stop costs one more burst).
 */

#include <errno.h>
#include <inttypes.h>
#include <sched.h>

#include <numa.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_malloc.h>
#include <rte_mbuf_pool_ops.h>

#include "sl_app.h"

#define SL_FLUSH_US 200000   /* stop: time allowed to send what is queued */
#define SL_BACKLOG_SIZE 1024
#define SL_POLL_US 200       /* main lcore: scheduler poll period */
#define SL_KICK_MS 50        /* stop: empty bursts to let PMDs finish */

volatile uint32_t sl_stop;
volatile uint32_t sl_quit;

/* The default map: worker k gets queue k on every port. */
static void
map_default(struct sl_app *app)
{
	unsigned int lcore, k = 0;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		for (uint16_t p = 0; p < app->nb_ports && app->nb_map < SL_MAP_MAX; p++)
			app->map[app->nb_map++] = (struct sl_map_entry){ lcore, p, k };
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
		int nic = app->ports[e->port].socket;
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
	for (uint16_t i = app->nb_ports; i < SL_MAX_PORTS; i++)
		if (o->peer_set[i]) {
			sl_err("--eth-peer: port %u does not exist (there are %u port(s))", i,
			       app->nb_ports);
			return -EINVAL;
		}
	for (uint16_t i = 0; i < app->nb_ports; i++) {
		app->ports[i].nb_txq = 0;
		for (uint16_t q = 0; q < SL_MAX_TXQ; q++)
			app->ports[i].txqs[q].nb_lcores = 0;
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
		if (e->port >= app->nb_ports) {
			sl_err("--map: port %u does not exist (there are %u port(s), 0..%u)", e->port,
			       app->nb_ports, app->nb_ports - 1);
			return -EINVAL;
		}
		p = &app->ports[e->port];
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
	for (uint16_t i = 0; i < app->nb_ports; i++) {
		struct sl_port *p = &app->ports[i];

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

/* --xmit direct bypasses the engine: only exclusive queues of ethdev ports. */
static int
direct_check(const struct sl_app *app)
{
	for (uint16_t i = 0; i < app->nb_ports; i++) {
		const struct sl_port *p = &app->ports[i];

		for (uint16_t q = 0; q < p->nb_txq; q++)
			if (p->is_sim || p->txqs[q].nb_lcores > 1) {
				sl_err("--xmit direct: port %u queue %u is %s; the direct baseline "
				       "needs one lcore per queue on ethdev ports", i, q,
				       p->is_sim ? "simulated" : "shared");
				return -EINVAL;
			}
	}
	return 0;
}

static int
txqs_create(struct sl_app *app)
{
	for (uint16_t i = 0; i < app->nb_ports; i++) {
		struct sl_port *p = &app->ports[i];

		for (uint16_t q = 0; q < p->nb_txq; q++) {
			struct sl_app_txq *aq = &p->txqs[q];
			struct sl_txq_conf c = {
				.drv_caps = p->caps,
				.mode = sl_txq_mode_select(aq->nb_lcores, p->caps, app->o.lock),
				.backlog_size = SL_BACKLOG_SIZE,
				.port_id = i,
				.queue_id = q,
				.socket_id = p->socket,
			};

			aq->port = i;
			aq->queue = q;
			memset(&aq->base, 0, sizeof(aq->base));
			if (p->is_sim) {
				c.xmit = sl_sim_xmit;
				c.drv_queue = sl_sim_txq(p->sim, q);
			} else {
				aq->eq = (struct sl_ethdev_txq){ p->eth_id, q };
				c.xmit = sl_ethdev_xmit;
				c.drv_queue = &aq->eq;
			}
			aq->txq = sl_txq_create(&c);
			if (aq->txq == NULL) {
				sl_err("port %u queue %u: cannot create the queue object (%s)", i, q,
				       rte_strerror(rte_errno));
				return -ENOMEM;
			}
		}
	}
	return 0;
}

static int
streams_build(struct sl_app *app)
{
	struct sl_opts *o = &app->o;
	char err[256];

	for (uint16_t i = 0; i < app->nb_ports; i++) {
		struct sl_port *p = &app->ports[i];
		struct sl_stream_conf c = o->sc;
		uint16_t hdr;

		/* Default size: 64, or the smallest frame these headers allow. */
		c.vlan = o->pc[i].vlan;
		hdr = RTE_ETHER_HDR_LEN + (c.vlan ? 4 : 0) + (c.ipv6 ? 40 : 20) + (c.tcp ? 20 : 8) +
		      RTE_ETHER_CRC_LEN;
		if (!o->size_given)
			c.sizes[0] = RTE_MAX(c.sizes[0], hdr);
		c.src_mac = p->mac;
		c.dst_mac = o->peer_set[i] ? o->peer[i] :
			(struct rte_ether_addr){ { 0x02, 0, 0, 0, 0, (uint8_t)i } };
		if (sl_stream_build(&p->stream, &c, p->max_frame, err, sizeof(err)) != 0) {
			sl_err("%s: port %u (%s): %s", strncmp(err, "field", 5) == 0 ? "--field" :
			       strstr(err, "VLAN") ? "--vlan" :
			       strstr(err, "flows") ? "--flows" : "--size", i, p->name, err);
			return -EINVAL;
		}
	}
	return 0;
}

/* Mean bits per frame of a stream's size order, on the wire (L1) or as frames (L2). */
static double
stream_mean_bits(const struct sl_stream *s, bool l1)
{
	double sum = 0;

	for (uint16_t k = 0; k < s->nb_order; k++)
		sum += l1 ? s->sz[s->order[k]].l1_bits : s->sz[s->order[k]].l2_bits;
	return sum / s->nb_order;
}

/*
 * The port's --rate as a pacer unit and value, checked against the line:
 * a rate above it is refused with the line rate in the message.
 */
static int
rate_resolve(const struct sl_app *app, uint16_t pid, uint8_t *unit, double *value)
{
	const struct sl_port *p = &app->ports[pid];
	const struct sl_rate *r = &app->o.pc[pid].rate;
	double line = p->speed_mbps * 1e6, l1 = 0;
	double mean_l1 = stream_mean_bits(&p->stream, true);
	double mean_l2 = stream_mean_bits(&p->stream, false);

	switch (r->unit) {
	case SL_RATE_NONE:
		*unit = SL_PACE_NONE;
		*value = 0;
		return 0;
	case SL_RATE_PPS:
		*unit = SL_PACE_PPS;
		*value = r->value;
		l1 = r->value * mean_l1;
		break;
	case SL_RATE_L1:
		*unit = SL_PACE_L1;
		*value = r->value;
		l1 = r->value;
		break;
	case SL_RATE_L2:
		*unit = SL_PACE_L2;
		*value = r->value;
		l1 = r->value * mean_l1 / mean_l2;
		break;
	case SL_RATE_PCT:
		if (line == 0) {
			sl_err("--rate %g%%: port %u (%s) reports no link speed; give an absolute rate",
			       r->value, pid, p->name);
			return -EINVAL;
		}
		*unit = SL_PACE_L1;
		*value = line * r->value / 100;
		l1 = *value;
		break;
	}
	if (line != 0 && l1 > line * (1 + 1e-9)) {
		char rs[64];

		sl_rate_str(r, rs, sizeof(rs));
		sl_err("--rate %s is above the line rate of port %u (%s): %g Gb/s, %.4g Mpps at "
		       "these sizes", rs, pid, p->name, line / 1e9, line / mean_l1 / 1e6);
		return -EINVAL;
	}
	/*
	 * At line rate the wire is the pacer: a software pacer that matched it
	 * exactly would leave the descriptor ring empty, and every late wake-up
	 * would be wire time lost for good. Send as fast as the device takes.
	 */
	if (line != 0 && l1 >= line * (1 - 1e-9))
		*unit = SL_PACE_NONE;
	return 0;
}

/* Give each worker its targets, generators, pools and share of --count. */
static int
workers_create(struct sl_app *app)
{
	struct sl_opts *o = &app->o;
	uint64_t per_port_targets[SL_MAX_PORTS] = { 0 }, seen[SL_MAX_PORTS] = { 0 };
	unsigned int lcore;

	for (uint16_t i = 0; i < app->nb_ports; i++)
		for (uint16_t q = 0; q < app->ports[i].nb_txq; q++)
			per_port_targets[i] += app->ports[i].txqs[q].nb_lcores;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		struct sl_worker *w;

		w = rte_zmalloc_socket("sl_worker", sizeof(*w), RTE_CACHE_LINE_SIZE,
				       rte_lcore_to_socket_id(lcore));
		if (w == NULL)
			return -ENOMEM;
		app->workers[app->nb_workers++] = w;
		w->lcore = lcore;
		w->burst = o->burst;
		for (uint16_t i = 0; i < app->nb_ports; i++) {
			struct sl_port *p = &app->ports[i];
			unsigned int ntarg = 0;

			for (uint16_t q = 0; q < p->nb_txq; q++) {
				struct sl_app_txq *aq = &p->txqs[q];

				for (uint16_t j = 0; j < aq->nb_lcores; j++) {
					struct sl_target *t;
					uint8_t unit = SL_PACE_NONE;
					double rate = 0;
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
					t->eth_port = p->eth_id;
					t->gen = (struct sl_gen){ .s = &p->stream, .producer = lcore };
					k = seen[i]++;
					t->quota = o->count == 0 ? UINT64_MAX :
						o->count / per_port_targets[i] +
						(k < o->count % per_port_targets[i]);
					/* The port's rate, shared equally by its targets. */
					if (rate_resolve(app, i, &unit, &rate) != 0)
						return -EINVAL;
					if (sl_pacer_init(&t->pacer, unit,
							  rate / per_port_targets[i]) != 0) {
						sl_err("--rate: port %u's rate shared by its %" PRIu64
						       " lcore-queue pairs is below 1 per second "
						       "each: give a higher rate or fewer lcores",
						       i, per_port_targets[i]);
						return -EINVAL;
					}
					ntarg++;
				}
			}
			if (ntarg != 0) {
				char name[RTE_MEMPOOL_NAMESIZE];
				/* Enough for every descriptor and backlog slot it can fill. */
				uint32_t txd = o->pc[i].txd != 0 ? o->pc[i].txd : 4096;
				uint32_t n;

				for (uint16_t s = 0; s < o->nb_sims && o->pc[i].txd == 0; s++)
					txd = RTE_MAX(txd, o->sims[s].txd);
				n = ntarg * (txd + SL_BACKLOG_SIZE + 4 * 64) + 1024;
				snprintf(name, sizeof(name), "sl_w%u_p%u", lcore, i);
				w->pools[i] = sl_stream_pool_create(&p->stream, name,
								    rte_align32pow2(n) - 1,
								    p->socket);
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
 * The pool for the one RX queue PMDs want. Its objects are packed in one
 * virtually contiguous area (RTE_MEMPOOL_F_NO_IOVA_CONTIG): net_af_xdp
 * registers the pool's memory as its UMEM assuming exactly that, and without
 * hugepages a default pool is laid out page by page, with gaps, so frames
 * copied into buffers past the first gap were silently refused by the kernel.
 * Sized for af_xdp's fill ring (2 x 2048).
 */
static struct rte_mempool *
rx_pool_create(int socket)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = RTE_MBUF_DEFAULT_BUF_SIZE,
	};
	struct rte_mempool *mp;

	mp = rte_mempool_create_empty("sl_rx", 8191, sizeof(struct rte_mbuf) +
				      RTE_MBUF_DEFAULT_BUF_SIZE, 0, sizeof(priv), socket,
				      RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL) != 0)
		goto err;
	rte_pktmbuf_pool_init(mp, &priv);
	if (rte_mempool_populate_default(mp) < 0)
		goto err;
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
err:
	rte_mempool_free(mp);
	return NULL;
}

int
sl_run_setup(struct sl_app *app)
{
	int ret;

	sl_run_release(app);
	if (app->rx_pool == NULL)
		app->rx_pool = rx_pool_create((int)rte_socket_id());
	if (app->rx_pool == NULL) {
		sl_err("cannot create the RX pool (%s): give EAL more memory (-m 512)",
		       rte_strerror(rte_errno));
		return -ENOMEM;
	}
	ret = map_apply(app);
	if (ret == 0 && app->o.direct)
		ret = direct_check(app);
	if (ret == 0)
		ret = streams_build(app);
	if (ret == 0)
		ret = sl_ports_start(app);
	if (ret == 0)
		ret = txqs_create(app);
	if (ret == 0)
		ret = workers_create(app);
	return ret;
}

/*
 * The TX loop of one worker lcore. With direct set (--xmit direct, a
 * benchmark baseline for exclusive ethdev queues) the engine is bypassed
 * and rte_eth_tx_burst() is called on the same packets; the compiler builds
 * the two loops separately, so neither pays for the other.
 */
static __rte_always_inline int
worker_loop(struct sl_worker *w, const bool direct)
{
	unsigned int active = w->nb_targets, backoff = 0;

	w->start_tsc = rte_rdtsc();
	while (active != 0 && !sl_stopping()) {
		uint64_t tsc = rte_rdtsc();
		bool progress = false;

		if (w->deadline_tsc != 0 && tsc >= w->deadline_tsc)
			break;
		for (uint16_t i = 0; i < w->nb_targets; i++) {
			struct sl_target *t = &w->t[i];
			uint16_t k;

			if (t->finished)
				continue;
			if (t->pend_n == 0) {
				uint16_t n = w->burst;
				uint64_t due;

				if (t->quota == 0) {
					/* Share sent: done once its own backlog is empty too. */
					if (sl_txq_drain_own(t->txq) != 0)
						progress = true;
					else if (sl_txq_get_mode(t->txq) != SL_TXQ_EXCLUSIVE ||
						 sl_txq_pending(t->txq) == 0) {
						t->finished = true;
						active--;
					}
					continue;
				}
				if (t->quota != UINT64_MAX)
					n = RTE_MIN((uint64_t)n, t->quota);
				due = t->pacer.next;
				n = sl_gen_due(&t->gen, &t->pacer, tsc, n);
				if (n == 0) {
					progress = true; /* paced: nothing due yet */
					continue;
				}
				if (sl_gen_burst(&t->gen, t->pending, n, tsc) == 0) {
					t->pacer.next = due; /* not sent: still due */
					continue; /* pool empty: mbufs are in flight */
				}
				t->pend_off = 0;
				t->pend_n = n;
				if (t->quota != UINT64_MAX)
					t->quota -= n;
			}
			if (direct) {
				/* Packets only, as a plain loop would count them. */
				k = rte_eth_tx_burst(t->eth_port, sl_txq_queue_id(t->txq),
						     t->pending + t->pend_off, t->pend_n);
				SL_CNT_ADD(sl_txq_lcore(t->txq)->tx_packets, k);
			}
			else if (t->pend_off == 0)
				k = sl_xmit_sized(t->txq, t->pending, t->pend_n, t->gen.bytes);
			else
				k = sl_xmit(t->txq, t->pending + t->pend_off, t->pend_n);
			t->pend_off += k;
			t->pend_n -= k;
			SL_CNT_ADD(t->generated, k);
			progress |= k != 0;
		}
		/*
		 * The device is not keeping up (or the pool is empty): back off,
		 * stay responsive to stop. A few short pauses first; then give
		 * the CPU away, since with more lcores than CPUs the lcore that
		 * would drain the queue may be waiting for this very CPU; then
		 * sleep, so that a stalled device does not burn a core.
		 */
		if (unlikely(!progress)) {
			if (backoff < 64)
				backoff++;
			if (backoff <= 6)
				for (unsigned int s = 0; s < (1u << backoff); s++)
					rte_pause();
			else if (backoff < 64)
				sched_yield();
			else
				rte_delay_us_sleep(10);
		} else {
			backoff = 0;
		}
	}
	w->end_tsc = rte_rdtsc();
	for (uint16_t i = 0; i < w->nb_targets; i++) {
		struct sl_target *t = &w->t[i];

		if (t->pend_n != 0) {
			rte_pktmbuf_free_bulk(t->pending + t->pend_off, t->pend_n);
			t->unsent += t->pend_n;
			t->pend_n = 0;
		}
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return 0;
}

static int
worker_main(void *arg)
{
	return worker_loop(arg, false);
}

static int
worker_direct(void *arg)
{
	return worker_loop(arg, true);
}

static bool
workers_done(const struct sl_app *app)
{
	for (uint16_t i = 0; i < app->nb_workers; i++)
		if (!__atomic_load_n(&app->workers[i]->done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/*
 * Some PMDs hand frames to the kernel only when called: af_xdp's TX ring is
 * processed on each kick (a send() per burst, a batch at a time), so frames
 * still in it when the socket closes never leave. After the workers stopped,
 * call every queue with an empty burst for a while (a no-op elsewhere), then
 * ask the PMD to free completed mbufs.
 */
static void
ethdev_kick(const struct sl_port *p)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * SL_KICK_MS / 1000;

	while (rte_get_timer_cycles() < end) {
		for (uint16_t q = 0; q < p->nb_txq; q++)
			rte_eth_tx_burst(p->eth_id, q, NULL, 0);
		rte_delay_us_sleep(200);
	}
	for (uint16_t q = 0; q < p->nb_txq; q++)
		rte_eth_tx_done_cleanup(p->eth_id, q, 0);
}

/* After the workers stopped: send or count what is queued, free what drivers hold. */
static void
run_flush(struct sl_app *app)
{
	uint64_t end = app->start_tsc;

	for (uint16_t i = 0; i < app->nb_workers; i++)
		end = RTE_MAX(end, app->workers[i]->end_tsc);
	for (uint16_t i = 0; i < app->nb_ports; i++) {
		struct sl_port *p = &app->ports[i];

		for (uint16_t q = 0; q < p->nb_txq; q++) {
			int dropped = sl_txq_flush(p->txqs[q].txq, SL_FLUSH_US);

			if (dropped == -EBUSY)
				sl_err("port %u queue %u: still owned at stop; its backlog was not flushed",
				       i, q);
			if (dropped > 0)
				printf("port %u queue %u: %d packet(s) still queued at stop were dropped "
				       "(device did not take them within %u ms)\n",
				       i, q, dropped, SL_FLUSH_US / 1000);
		}
		if (p->is_sim)
			app->discarded += sl_sim_drain(p->sim, SL_FLUSH_US);
	}
	/*
	 * The run ends when what was counted as sent has been sent: the
	 * backlogs flushed and (on the sim) the wire idle. Rates divide by this.
	 */
	app->end_tsc = RTE_MAX(end, rte_rdtsc());
	for (uint16_t i = 0; i < app->nb_ports; i++)
		if (!app->ports[i].is_sim)
			ethdev_kick(&app->ports[i]);
}

void
sl_run_launch(struct sl_app *app)
{
	struct sl_opts *o = &app->o;
	uint64_t hz = rte_get_tsc_hz(), deadline = 0;

	sl_report_modes(app);
	/* A new run clears the last stop, but not a signal's: it quits. */
	__atomic_store_n(&sl_stop, sl_quitting(), __ATOMIC_RELAXED);
	app->start_tsc = rte_rdtsc();
	app->end_tsc = 0;
	if (o->duration_us != 0)
		deadline = app->start_tsc + o->duration_us * hz / US_PER_S;
	app->next_stats = app->start_tsc + (uint64_t)(o->stats_period * (double)hz);
	memset(&app->live, 0, sizeof(app->live));
	for (uint16_t i = 0; i < app->nb_workers; i++) {
		struct sl_worker *w = app->workers[i];

		w->deadline_tsc = deadline;
		if (w->nb_targets == 0) {
			w->done = 1;
			continue;
		}
		if (rte_eal_remote_launch(o->direct ? worker_direct : worker_main, w, w->lcore) != 0) {
			sl_err("lcore %u is busy: it cannot transmit in this run", w->lcore);
			w->done = 1;
		}
	}
	app->running = true;
	app->runs++;
}

/* One turn of the main lcore while running: the scheduler poll, live stats. */
bool
sl_run_tick(struct sl_app *app)
{
	uint64_t hz = rte_get_tsc_hz(), now = rte_rdtsc();

	if (sl_stopping() || workers_done(app))
		return false;
	for (uint16_t i = 0; i < app->nb_ports; i++)
		for (uint16_t q = 0; q < app->ports[i].nb_txq; q++)
			sl_txq_poll(app->ports[i].txqs[q].txq);
	if (app->o.stats_period != 0 && now >= app->next_stats) {
		sl_report_live(app, (double)(now - app->start_tsc) / hz);
		app->next_stats += (uint64_t)(app->o.stats_period * (double)hz);
	}
	return true;
}

/* Stop the workers, flush, stop the ethdev ports, count what is not back. */
void
sl_run_finish(struct sl_app *app)
{
	__atomic_store_n(&sl_stop, 1, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	run_flush(app);
	sl_run_teardown(app);
	app->running = false;
}

int
sl_run(struct sl_app *app)
{
	sl_run_launch(app);
	while (sl_run_tick(app))
		rte_delay_us_sleep(SL_POLL_US);
	sl_run_finish(app);
	return 0;
}

void
sl_run_teardown(struct sl_app *app)
{
	app->pool_in_use = 0;
	for (uint16_t i = 0; i < app->nb_ports; i++) {
		struct sl_port *p = &app->ports[i];

		/* Stopping a port frees the mbufs its descriptors still hold. */
		if (!p->is_sim && p->started) {
			rte_eth_dev_stop(p->eth_id);
			p->started = false;
		}
	}
	for (uint16_t i = 0; i < app->nb_workers; i++) {
		struct sl_worker *w = app->workers[i];

		for (uint16_t p = 0; p < SL_MAX_PORTS; p++)
			if (w->pools[p] != NULL)
				app->pool_in_use += rte_mempool_in_use_count(w->pools[p]);
	}
}

/* Free what a run built: queues, sims, workers and their pools. */
void
sl_run_release(struct sl_app *app)
{
	rte_spinlock_lock(&app->tel_lock);
	sl_ports_free(app);
	for (uint16_t i = 0; i < app->nb_workers; i++) {
		struct sl_worker *w = app->workers[i];

		for (uint16_t p = 0; p < SL_MAX_PORTS; p++)
			rte_mempool_free(w->pools[p]);
		rte_free(w);
		app->workers[i] = NULL;
	}
	app->nb_workers = 0;
	app->discarded = 0;
	rte_spinlock_unlock(&app->tel_lock);
}
