/* SPDX-License-Identifier: BSD-3-Clause */
/* The control plane: the devices of the configuration in force (ctl.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "ctl.h"
#include "sl_err.h"
#include "sl_loop.h"
#include "sl_port.h"
#include "sl_xmit.h"
#include "worker.h"

/* Frames of the devices' own pool: answers and requests are small and few. */
#define CTL_POOL 1023
/* A port's ring from its RX lcore (a power of 2). */
#define CTL_RING 1024
#define CTL_BURST 32
/* Bursts a turn takes from a port (its RX queue or its ring): 256 frames a millisecond. */
#define CTL_TURN_BURSTS 8
/* Between runs, what a port's driver took leaves within this (a few frame times). */
#define CTL_QUIESCE_US 200

struct sl_ctl {
	struct sl_dev_table tab;          /* the devices applied, and what they learned */
	struct rte_mempool *mp;
	struct rte_ring *ring[SL_MAX_PORTS];
	bool has_dev[SL_MAX_PORTS];       /* a device of tab is on the port */
	bool idle_up[SL_MAX_PORTS];       /* set up by the control plane, between runs */
	bool idle_failed[SL_MAX_PORTS];   /* its setup was refused (said once) */
	struct sl_ctl_port_stats st[SL_MAX_PORTS];
	uint64_t run_sent[SL_MAX_PORTS];  /* sent through the engine in the current run */
	uint64_t t0;                      /* the TSC its clock counts from */
	long timer;
};

static uint64_t
ctl_now_us(const struct sl_ctl *ctl)
{
	return (rte_rdtsc() - ctl->t0) * 1000000 / rte_get_tsc_hz();
}

/* The configuration whose devices are in force: the run's while one runs. */
static const struct sl_config *
ctl_cfg(const struct sl_app *app)
{
	return app->ses.running ? &app->ses.run_cfg : &app->cfg;
}

int
sl_ctl_open(struct sl_app *app)
{
	struct sl_ctl *ctl = calloc(1, sizeof(*ctl));

	if (ctl == NULL)
		return -ENOMEM;
	ctl->t0 = rte_rdtsc();
	ctl->timer = -1;
	app->ctl = ctl;
	return 0;
}

/* Take port pid back from the control plane (stopped; its RX frames freed). */
static void
idle_down(struct sl_app *app, uint16_t pid)
{
	struct sl_ctl *ctl = app->ctl;

	if (!ctl->idle_up[pid])
		return;
	app->ports.p[pid].ops->stop(app->ports.p[pid].dev);
	ctl->idle_up[pid] = false;
}

void
sl_ctl_close(struct sl_app *app)
{
	struct sl_ctl *ctl = app->ctl;

	if (ctl == NULL)
		return;
	for (uint16_t i = 0; i < SL_MAX_PORTS; i++) {
		if (i < app->ports.n)
			idle_down(app, i);
		if (ctl->ring[i] != NULL) {
			struct rte_mbuf *m;

			while (rte_ring_sc_dequeue(ctl->ring[i], (void **)&m) == 0)
				rte_pktmbuf_free(m);
			rte_ring_free(ctl->ring[i]);
		}
	}
	if (app->loop != NULL && ctl->timer > 0)
		sl_loop_timer_del(app->loop, ctl->timer);
	rte_mempool_free(ctl->mp);
	free(ctl);
	app->ctl = NULL;
}

/* The devices of c are those applied? */
static bool
same_devices(const struct sl_ctl *ctl, const struct sl_config *c)
{
	if (c->nb_devices != ctl->tab.n)
		return false;
	for (uint16_t i = 0; i < c->nb_devices; i++)
		if (memcmp(&c->devices[i], &ctl->tab.d[i].conf, sizeof(c->devices[i])) != 0)
			return false;
	return true;
}

/* Apply c's devices: a new table (what was learned is forgotten), rings and pool as needed. */
static int
apply(struct sl_app *app, const struct sl_config *c)
{
	struct sl_ctl *ctl = app->ctl;

	if (c->nb_devices != 0 && ctl->mp == NULL) {
		ctl->mp = rte_pktmbuf_pool_create("sl_ctl", CTL_POOL, 0, 0,
						  RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
		if (ctl->mp == NULL) {
			sl_err("devices: cannot create their pool (%s): give EAL more memory (-m)",
			       rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	for (uint16_t i = 0; i < SL_MAX_PORTS; i++)
		ctl->has_dev[i] = false;
	for (uint16_t i = 0; i < c->nb_devices; i++) {
		uint16_t p = c->devices[i].port;
		char name[RTE_RING_NAMESIZE];

		if (p >= app->ports.n)
			continue; /* refused by the check */
		ctl->has_dev[p] = true;
		if (ctl->ring[p] != NULL)
			continue;
		snprintf(name, sizeof(name), "sl_ctl_%u", p);
		ctl->ring[p] = rte_ring_create(name, CTL_RING, SOCKET_ID_ANY,
					       RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (ctl->ring[p] == NULL) {
			sl_err("devices: cannot create port %u's ring (%s)", p,
			       rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	for (uint16_t i = 0; i < app->ports.n; i++)
		if (!ctl->has_dev[i])
			idle_down(app, i);
	return sl_dev_table_init(&ctl->tab, c->devices, c->nb_devices, ctl->mp);
}

/* Set port pid up for its devices alone (between runs). */
static void
idle_up(struct sl_app *app, uint16_t pid)
{
	struct sl_ctl *ctl = app->ctl;
	struct sl_port *p = &app->ports.p[pid];
	const struct sl_config *c = &app->cfg;
	struct sl_port_setup s = {
		.nb_txq = 1,
		.nb_txd = c->pc[pid].txd,
		.mtu = c->pc[pid].mtu,
		.lltx = SL_LLTX_OFF,
		.rx = true,
		.promisc = true,
	};
	char err[256];

	if (ctl->idle_up[pid] || ctl->idle_failed[pid])
		return;
	if (p->ops->setup(p->dev, &s, err, sizeof(err)) != 0) {
		sl_err("port %u (%s): its devices cannot answer: %s", pid, p->info.name, err);
		ctl->idle_failed[pid] = true;
		return;
	}
	ctl->idle_up[pid] = true;
}

/* Send frames of port pid: the driver's call between runs, the engine during one. */
static void
ctl_send(struct sl_app *app, uint16_t pid, struct rte_mbuf **m, uint16_t n)
{
	struct sl_ctl *ctl = app->ctl;
	struct sl_port *p = &app->ports.p[pid];
	uint64_t discarded = 0;
	uint16_t sent = 0;

	if (n == 0)
		return;
	if (app->ses.running) {
		if (p->txqs[0].txq != NULL)
			sent = sl_xmit(p->txqs[0].txq, m, n);
		ctl->run_sent[pid] += sent;
	} else if (ctl->idle_up[pid]) {
		enum sl_xmit_status status;

		sent = p->ops->xmit(p->ops->txq(p->dev, 0), m, n, &status);
		/* Nobody sends after it: let what it took leave now (a sim's wire
		 * moves on its sender's calls; a NIC's needs nothing); what the
		 * driver then discarded never left. */
		if (sent != 0)
			discarded = RTE_MIN(p->ops->quiesce(p->dev, CTL_QUIESCE_US), (uint64_t)sent);
	}
	ctl->st[pid].sent += sent - discarded;
	ctl->st[pid].unsent += n - sent + discarded;
	if (sent < n)
		rte_pktmbuf_free_bulk(m + sent, n - sent);
}

/* Frames received on port pid: to the devices; freed. */
static void
input(struct sl_app *app, uint16_t pid, struct rte_mbuf **pkts, uint16_t n, uint64_t now)
{
	struct sl_ctl *ctl = app->ctl;
	struct rte_mbuf *out[CTL_BURST];
	uint16_t k = 0;

	for (uint16_t i = 0; i < n; i++) {
		if (sl_dev_wants(pkts[i])) {
			ctl->st[pid].rx++;
			k += sl_dev_input(&ctl->tab, pid, pkts[i], now, out + k,
					  (uint16_t)(RTE_DIM(out) - k));
		}
		if (k == RTE_DIM(out)) {
			ctl_send(app, pid, out, k);
			k = 0;
		}
	}
	rte_pktmbuf_free_bulk(pkts, n);
	ctl_send(app, pid, out, k);
}

void
sl_ctl_poll(struct sl_app *app)
{
	struct sl_ctl *ctl = app->ctl;
	const struct sl_config *c;
	uint64_t now;

	if (ctl == NULL)
		return;
	c = ctl_cfg(app);
	if (!same_devices(ctl, c) && apply(app, c) != 0)
		return;
	if (ctl->tab.n == 0)
		return;
	now = ctl_now_us(ctl);
	/* Every port up first: a request must not leave before its answerer listens. */
	for (uint16_t pid = 0; pid < app->ports.n && !app->ses.running; pid++)
		if (ctl->has_dev[pid])
			idle_up(app, pid);
	for (uint16_t pid = 0; pid < app->ports.n; pid++) {
		struct sl_port *p = &app->ports.p[pid];
		struct rte_mbuf *pkts[CTL_BURST];
		uint16_t n;

		if (!ctl->has_dev[pid])
			continue;
		if (!app->ses.running) {
			if (!ctl->idle_up[pid])
				continue;
			/* Bounded: what arrived since the last turn, a few bursts. */
			for (int b = 0; b < CTL_TURN_BURSTS; b++) {
				n = p->ops->rx_burst(p->dev, pkts, CTL_BURST);
				input(app, pid, pkts, n, now);
				if (n < CTL_BURST)
					break;
			}
		} else if (ctl->ring[pid] != NULL) {
			/* Bounded as between runs: a few bursts a turn (CTL_TURN_BURSTS). */
			for (int b = 0; b < CTL_TURN_BURSTS; b++) {
				n = (uint16_t)rte_ring_sc_dequeue_burst(ctl->ring[pid],
									(void **)pkts, CTL_BURST,
									NULL);
				input(app, pid, pkts, n, now);
				if (n < CTL_BURST)
					break;
			}
		}
		n = sl_dev_tick(&ctl->tab, pid, now, pkts, CTL_BURST);
		ctl_send(app, pid, pkts, n);
	}
}

void
sl_ctl_run_begin(struct sl_app *app, const struct sl_config *c)
{
	struct sl_ctl *ctl = app->ctl;

	if (ctl == NULL)
		return;
	if (!same_devices(ctl, c))
		apply(app, c);
	/* The ports are set up again, links may have flapped: announce again (arp_notify). */
	for (uint16_t i = 0; i < ctl->tab.n; i++)
		ctl->tab.d[i].announce = true;
	for (uint16_t i = 0; i < app->ports.n; i++) {
		struct rte_mbuf *m;

		idle_down(app, i);
		ctl->idle_failed[i] = false;
		ctl->run_sent[i] = 0;
		while (ctl->ring[i] != NULL && rte_ring_sc_dequeue(ctl->ring[i], (void **)&m) == 0)
			rte_pktmbuf_free(m);
	}
}

void
sl_ctl_run_end(struct sl_app *app)
{
	struct sl_ctl *ctl = app->ctl;

	if (ctl == NULL || !app->ses.running)
		return;
	/*
	 * Still running (the engine takes the answers), the workers stopped:
	 * what their RX lcores handed over is answered, a ring at most
	 * (CTL_RING), and what is left freed. Nothing stays in a ring past the
	 * run: its frames may be of the run's pools (a sim's), which the
	 * release frees.
	 */
	for (uint16_t pid = 0; pid < app->ports.n; pid++) {
		uint64_t now = ctl_now_us(ctl);
		struct rte_mbuf *pkts[CTL_BURST];
		unsigned int n;

		if (ctl->ring[pid] == NULL)
			continue;
		for (int b = 0; b < CTL_RING / CTL_BURST; b++) {
			n = rte_ring_sc_dequeue_burst(ctl->ring[pid], (void **)pkts, CTL_BURST, NULL);
			if (n == 0)
				break;
			input(app, pid, pkts, (uint16_t)n, now);
		}
		while ((n = rte_ring_sc_dequeue_burst(ctl->ring[pid], (void **)pkts, CTL_BURST,
						      NULL)) != 0)
			rte_pktmbuf_free_bulk(pkts, n);
	}
}

struct rte_ring *
sl_ctl_ring(const struct sl_app *app, uint16_t pid)
{
	const struct sl_ctl *ctl = app->ctl;

	if (ctl == NULL || pid >= SL_MAX_PORTS || !ctl->has_dev[pid])
		return NULL;
	return ctl->ring[pid];
}

const struct sl_dev_table *
sl_ctl_table(const struct sl_app *app)
{
	return app->ctl != NULL ? &app->ctl->tab : NULL;
}

void
sl_ctl_clear(struct sl_app *app)
{
	if (app->ctl != NULL)
		sl_dev_clear(&app->ctl->tab);
}

/* Has every flow between devices of c its next hop? */
static bool
resolved(struct sl_app *app, const struct sl_config *c)
{
	for (uint16_t i = 0; i < c->nb_flows; i++) {
		struct sl_stream_conf sc = c->flows[i].sc;

		if (c->flows[i].src_dev[0] != '\0' &&
		    !sl_config_flow_devices(c, &app->env, &c->flows[i], &sc))
			return false;
	}
	return true;
}

bool
sl_ctl_unresolved(struct sl_app *app, const struct sl_config *c)
{
	app->env.devs = sl_ctl_table(app);
	return !resolved(app, c);
}

void
sl_ctl_resolve(struct sl_app *app, const struct sl_config *c, bool quiet)
{
	uint64_t end = rte_rdtsc() + SL_CTL_RESOLVE_US * (rte_get_tsc_hz() / 1000000);
	bool said = false;

	if (app->ctl == NULL || app->ses.running)
		return;
	app->env.devs = sl_ctl_table(app);
	sl_ctl_poll(app); /* the devices of c applied, if they are app->cfg's */
	if (!resolved(app, c))
		sl_dev_wake(&app->ctl->tab); /* a failed gateway is asked again, at once */
	while (!resolved(app, c) && rte_rdtsc() < end) {
		if (!said && !quiet)
			printf("devices: resolving the next hops of flows between devices ...\n");
		said = true;
		rte_delay_us_sleep(SL_CTL_TURN_US);
		sl_ctl_poll(app);
	}
}

void
sl_ctl_port_stats(const struct sl_app *app, uint16_t pid, struct sl_ctl_port_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (app->ctl != NULL && pid < SL_MAX_PORTS)
		*st = app->ctl->st[pid];
	if (pid < SL_MAX_PORTS)
		for (uint16_t w = 0; w < app->ses.nb_workers; w++)
			for (uint16_t r = 0; r < app->ses.workers[w]->nb_rxp; r++)
				if (app->ses.workers[w]->rxp[r].port == pid)
					st->ring_full += __atomic_load_n(
						&app->ses.workers[w]->rxp[r].ctl_full,
						__ATOMIC_RELAXED);
}

uint64_t
sl_ctl_sent(const struct sl_app *app, uint16_t pid)
{
	return app->ctl != NULL && pid < SL_MAX_PORTS ? app->ctl->run_sent[pid] : 0;
}

static int64_t
ctl_tick(struct sl_loop *l, void *arg)
{
	struct sl_app *app = arg;

	(void)l;
	sl_ctl_poll(app);
	return app->ctl != NULL && app->ctl->tab.n != 0 ? SL_CTL_TURN_US : SL_CTL_IDLE_US;
}

int
sl_ctl_loop(struct sl_app *app, struct sl_loop *l)
{
	long id;

	if (app->ctl == NULL)
		return 0;
	id = sl_loop_timer_add(l, 0, ctl_tick, app);
	if (id < 0)
		return (int)id;
	app->ctl->timer = id;
	return 0;
}
