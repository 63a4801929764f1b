/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The simulated NIC behind the port-driver table (sl_port.h): a new sl_sim
 * per run with the queues the run asks for, its wire and verifier figures.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "sl_sim.h"
#include "sl_clock.h"

struct sim_port {
	struct sl_sim_conf conf;   /* as opened: speed, default txd, lltx, verify, dut */
	struct sl_sim *sim;        /* this run's, NULL before the first setup */
	struct sl_sim_rx *rx;      /* the receive side, from open to close */
	uint16_t idx;
};

/*
 * The sims of the process by index, for dut=PORT. The application numbers
 * its ports as ethdev ports first (every one DPDK has), then the sims by
 * index: port P is sim P - (ethdev ports).
 */
#define SIM_REG_MAX 256
static struct sim_port *sim_reg[SIM_REG_MAX];

static uint16_t
sim_ethdev_count(void)
{
	uint16_t pid, n = 0;

	RTE_ETH_FOREACH_DEV(pid)
		n++;
	return n;
}

/* The sim port user port number @p port names, or NULL with err saying why. */
static struct sim_port *
sim_dut_peer(int32_t port, char *err, size_t len)
{
	uint16_t base = sim_ethdev_count(), pid, k = 0, nb_sims = 0;

	for (uint16_t i = 0; i < SIM_REG_MAX; i++)
		if (sim_reg[i] != NULL)
			nb_sims = i + 1;
	if (port < base) {
		char name[RTE_ETH_NAME_MAX_LEN] = "?";

		RTE_ETH_FOREACH_DEV(pid) {
			if (k++ == port) {
				rte_eth_dev_get_name_by_port(pid, name);
				break;
			}
		}
		snprintf(err, len, "dut=%d: port %d (%s) is not a sim port: the DUT model "
			 "delivers only to sim ports (%u..%d)", port, port, name, base,
			 base + nb_sims - 1);
		return NULL;
	}
	if (port - base >= SIM_REG_MAX || sim_reg[port - base] == NULL) {
		if (nb_sims == 0)
			snprintf(err, len, "dut=%d: there is no port %d", port, port);
		else
			snprintf(err, len, "dut=%d: there is no port %d (the sim ports are %u..%d)",
				 port, port, base, base + nb_sims - 1);
		return NULL;
	}
	return sim_reg[port - base];
}

static int
sim_setup(void *dev, struct sl_port_setup *c, char *err, size_t len)
{
	struct sim_port *sp = dev;
	struct sl_sim_conf sc = sp->conf;

	sl_sim_free(sp->sim);
	sp->sim = NULL;
	sc.nb_txq = c->nb_txq;
	if (c->nb_txd != 0)
		sc.txd = c->nb_txd;
	if (sc.dut.port >= 0 && sim_dut_peer(sc.dut.port, err, len) == NULL)
		return -EINVAL;
	sp->sim = sl_sim_create(&sc);
	if (sp->sim == NULL) {
		snprintf(err, len, "cannot create the simulated port (%s)", rte_strerror(rte_errno));
		return -ENOMEM;
	}
	if (sc.dut.port >= 0) {
		struct sim_port *peer = sim_dut_peer(sc.dut.port, err, len);
		int ret = sl_sim_dut_attach(sp->sim, peer->rx);

		if (ret != 0) {
			snprintf(err, len, "dut=%d: cannot set up the DUT model (%s)",
				 sc.dut.port, strerror(-ret));
			sl_sim_free(sp->sim);
			sp->sim = NULL;
			return ret;
		}
	}
	sl_sim_rx_start(sp->rx, c->rx);
	c->rx_hw_ts = c->rx && sl_sim_rx_stamp(sp->rx, c->rx && c->rx_hw_ts) == 1;
	/*
	 * lltx off: the engine does not use the capability (it locks the queue
	 * itself); the driver keeps its own lock, as an LLTX NIC driver would.
	 * lltx on: a sim without its own lock is not MT-safe, so it cannot be
	 * forced.
	 */
	c->caps = c->lltx == SL_LLTX_OFF ? 0 : sl_sim_caps(sp->sim);
	c->nb_txd = sc.txd > UINT16_MAX ? UINT16_MAX : (uint16_t)sc.txd;
	/* The MTU: a simulated wire carries what it is given; the app sizes frames by it. */
	c->mtu = c->mtu != 0 ? c->mtu : RTE_ETHER_MTU;
	return 0;
}

static void *
sim_txq(void *dev, uint16_t q)
{
	return sl_sim_txq(((struct sim_port *)dev)->sim, q);
}

static uint64_t
sim_quiesce(void *dev, uint64_t timeout_us)
{
	struct sim_port *sp = dev;

	return sp->sim != NULL ? sl_sim_drain(sp->sim, timeout_us) : 0;
}

/*
 * The wire keeps its frames until the next setup or close (quiesce drained
 * it). The RX ring is emptied here: the application frees its pools after
 * stop, before the next setup or close; frames it did not collect in its
 * drain are freed (xstat rx_flushed). A model's reorder slot is discarded
 * (empty after quiesce), not delivered into a ring that may be stopped.
 */
static void
sim_stop(void *dev)
{
	struct sim_port *sp = dev;

	if (sp->sim != NULL)
		sl_sim_dut_discard(sp->sim);
	sl_sim_rx_flush(sp->rx);
}

static uint16_t
sim_rx_burst(void *dev, struct rte_mbuf **pkts, uint16_t n)
{
	return sl_sim_rx_burst(((struct sim_port *)dev)->rx, pkts, n);
}

static void
sim_rx_drops(void *dev, struct sl_port_rx_drops *d)
{
	sl_sim_rx_drops(((struct sim_port *)dev)->rx, d);
}

static bool
sim_dut(void *dev, struct sl_port_dut *d)
{
	struct sim_port *sp = dev;

	if (sp->sim == NULL) {
		memset(d, 0, sizeof(*d));
		return false;
	}
	return sl_sim_dut_get(sp->sim, d);
}

static int
sim_xstats(void *dev, struct sl_port_stat *st, int max)
{
	struct sim_port *sp = dev;
	struct sl_sim_stats s;
	struct sl_port_rx_drops d;
	uint64_t rx_packets, rx_flushed;
	const struct {
		const char *name;
		const uint64_t *v;
	} t[] = {
		{ "frames", &s.frames }, { "wire_frames", &s.wire_frames }, { "busy", &s.busy },
		{ "locked", &s.locked }, { "violations", &s.violations }, { "lost", &s.lost },
		{ "duplicates", &s.duplicates }, { "reordered", &s.reordered },
		{ "rx_packets", &rx_packets }, { "rx_imissed", &d.imissed },
		{ "rx_flushed", &rx_flushed },
	};
	int k;

	if (st == NULL)
		return sp->sim != NULL ? (int)RTE_DIM(t) : 0;
	if (sp->sim == NULL)
		return 0;
	sl_sim_stats_get(sp->sim, &s);
	sl_sim_rx_drops(sp->rx, &d);
	sl_sim_rx_counts(sp->rx, &rx_packets, &rx_flushed);
	for (k = 0; k < (int)RTE_DIM(t) && k < max; k++) {
		snprintf(st[k].name, sizeof(st[k].name), "%s", t[k].name);
		st[k].value = *t[k].v;
	}
	return k;
}

static bool
sim_wire(void *dev, struct sl_port_wire *w)
{
	struct sim_port *sp = dev;
	struct sl_sim_stats s;

	if (sp->sim == NULL)
		return false;
	sl_sim_stats_get(sp->sim, &s);
	w->frames = s.wire_frames;
	w->bytes = s.wire_bytes;
	w->busy = s.busy;
	w->violations = s.violations;
	w->span_s = (double)(s.last_start_tsc - s.first_start_tsc) / (double)sl_tsc_hz();
	w->idle_s = (double)s.wire_idle_tsc / (double)sl_tsc_hz();
	return true;
}

static bool
sim_verify(void *dev, struct sl_port_verify *v)
{
	struct sim_port *sp = dev;
	struct sl_sim_stats s;

	memset(v, 0, sizeof(*v));
	if (sp->sim == NULL)
		return false;
	sl_sim_stats_get(sp->sim, &s);
	v->violations = s.violations;
	if (!sp->conf.verify)
		return false;
	v->frames = s.signed_frames;
	v->unsigned_frames = s.unsigned_frames;
	v->lost = s.lost;
	v->duplicates = s.duplicates;
	v->reordered = s.reordered;
	v->lat_min_ns = s.lat_min_ns;
	v->lat_avg_ns = s.lat_avg_ns;
	v->lat_max_ns = s.lat_max_ns;
	v->lat_backwards = s.lat_backwards;
	return true;
}

static void
sim_close(void *dev)
{
	struct sim_port *sp = dev;

	if (sp->idx < SIM_REG_MAX && sim_reg[sp->idx] == sp)
		sim_reg[sp->idx] = NULL;
	sl_sim_free(sp->sim);
	sl_sim_rx_free(sp->rx);
	free(sp);
}

/*
 * The sim's link, until link up or the next setup. Down: it takes no new
 * frames to send (BUSY), and frames a DUT model delivers to it are lost on
 * the wire (the model's dropped_link).
 */
static int
sim_link(void *dev, bool up)
{
	struct sim_port *sp = dev;

	if (sp->sim == NULL)
		return -ENODEV;
	sl_sim_set_link(sp->sim, up);
	sl_sim_rx_set_link(sp->rx, up);
	return 0;
}

static const struct sl_port_ops sim_ops = {
	.kind = "sim",
	.setup = sim_setup,
	.txq = sim_txq,
	.xmit = sl_sim_xmit,
	.tx_burst = NULL, /* the direct baseline is for ethdev PMDs */
	.quiesce = sim_quiesce,
	.stop = sim_stop,
	.xstats = sim_xstats,
	.wire = sim_wire,
	.verify = sim_verify,
	.close = sim_close,
	.rx_burst = sim_rx_burst,
	.rx_drops = sim_rx_drops,
	.dut = sim_dut,
	.link = sim_link,
};

int
sl_sim_port_open(const struct sl_sim_conf *conf, uint16_t idx, struct sl_port_info *info,
		 const struct sl_port_ops **ops, void **dev)
{
	struct sim_port *sp = calloc(1, sizeof(*sp));

	if (sp == NULL)
		return -ENOMEM;
	sp->conf = *conf;
	sp->conf.socket_id = (int)rte_socket_id();
	sp->idx = idx;
	sp->rx = sl_sim_rx_create(idx, sp->conf.socket_id);
	if (sp->rx == NULL) {
		free(sp);
		return -ENOMEM;
	}
	if (idx < SIM_REG_MAX)
		sim_reg[idx] = sp;
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "sim%u", idx);
	snprintf(info->driver, sizeof(info->driver), "sl_sim");
	info->socket = sp->conf.socket_id;
	info->mtu = RTE_ETHER_MTU;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = SL_PORT_MAX_MTU;
	info->speed_bps = conf->speed_bps; /* exact: 1500K is 1,500,000 bit/s */
	info->mac = (struct rte_ether_addr){ { 0x02, 0x51, 0xce, 0x00, 0x00, (uint8_t)idx } };
	info->wire_to = conf->dut.port;
	info->speed_made_up = false;    /* its wire paces at speed_bps */
	info->peer_filters_mac = false; /* a sim port takes every frame */
	/*
	 * Frames the DUT model holds, mbufs of the sender's pool: its queue and
	 * the frames staged per TX queue. Not its delay line: delay x rate can
	 * be millions of frames (1 s at 10G); a pool that runs dry there makes
	 * the generator wait, reported as pacer_skipped_us (docs/sim-dut.md).
	 */
	if (conf->dut.port >= 0)
		info->tx_hold = (conf->dut.queue != 0 ? conf->dut.queue : SL_SIM_DUT_QUEUE) +
				64u * RTE_MAX(conf->nb_txq, (uint16_t)1);
	*ops = &sim_ops;
	*dev = sp;
	return 0;
}
