/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ethdev port behind the port-driver table (sl_port.h): probe, setup
 * with its RX pool on the port's socket, the af_xdp quirks at stop, xstats.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include "sl_ethdev.h"

#define ETHDEV_KICK_MS 50     /* at stop: empty bursts to let PMDs finish */
#define ETHDEV_DEFAULT_TXD 4096 /* what a PMD default is assumed to be, for pool sizing */

struct ethdev_port {
	uint16_t port_id;
	uint16_t nb_txq;
	uint16_t mtu0;                 /* the MTU at open: set again when none is asked */
	bool started;
	struct rte_mempool *rx_pool;   /* its socket's shared pool (rx_pools) */
	bool promisc;                  /* Sluice turned promiscuous mode on */
	struct sl_ethdev_txq *txqs;
	/* RX timestamps: the PMD's clock to the TSC, calibrated at setup. */
	int ts_off;                    /* -1: not stamping */
	uint64_t ts_flag;
	uint64_t clk0, tsc0;
	double tsc_per_clk;
};

/*
 * The device clock's rate against the TSC, over 10 ms of both, read with
 * rte_eth_read_clock() (the unit of the PMD's RX timestamps). 0 on failure.
 */
static int
ethdev_ts_calibrate(struct ethdev_port *e)
{
	uint64_t c1, t1;

	if (rte_mbuf_dyn_rx_timestamp_register(&e->ts_off, &e->ts_flag) != 0 ||
	    rte_eth_read_clock(e->port_id, &e->clk0) != 0)
		return -1;
	e->tsc0 = rte_rdtsc();
	rte_delay_us_sleep(10000);
	if (rte_eth_read_clock(e->port_id, &c1) != 0 || c1 <= e->clk0)
		return -1;
	t1 = rte_rdtsc();
	e->tsc_per_clk = (double)(t1 - e->tsc0) / (double)(c1 - e->clk0);
	return 0;
}

/*
 * The RX pools, one per NUMA socket, shared by the ports on it (as before the
 * port table: one pool, not one per port, so many ports still fit in -m).
 * Control path only (setup and close are never concurrent).
 */
static struct {
	struct rte_mempool *mp;
	unsigned int users;
} rx_pools[RTE_MAX_NUMA_NODES + 1];

/*
 * The pool for the one RX queue PMDs want. Its objects are packed in one
 * virtually contiguous area (RTE_MEMPOOL_F_NO_IOVA_CONTIG): net_af_xdp
 * registers the pool's memory as its UMEM assuming exactly that, and without
 * hugepages a default pool is laid out page by page, with gaps, so frames
 * copied into buffers past the first gap were silently refused by the kernel.
 * Sized for af_xdp's fill ring (2 x 2048).
 */
static struct rte_mempool *
rx_pool_create(unsigned int port_id, int socket)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = RTE_MBUF_DEFAULT_BUF_SIZE,
	};
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *mp;

	snprintf(name, sizeof(name), "sl_rx_s%u", port_id);
	mp = rte_mempool_create_empty(name, 8191, sizeof(struct rte_mbuf) +
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


static void ethdev_stop(void *dev);

static int
ethdev_setup(void *dev, struct sl_port_setup *c, char *err, size_t len)
{
	struct ethdev_port *e = dev;
	struct sl_ethdev_txq *txqs;
	int socket = rte_eth_dev_socket_id(e->port_id);
	int ret;

	ethdev_stop(e);
	if (e->rx_pool == NULL) {
		unsigned int k = socket < 0 ? RTE_MAX_NUMA_NODES : (unsigned int)socket;

		if (rx_pools[k].mp == NULL)
			rx_pools[k].mp = rx_pool_create(k, socket < 0 ? SOCKET_ID_ANY : socket);
		if (rx_pools[k].mp != NULL)
			rx_pools[k].users++;
		e->rx_pool = rx_pools[k].mp;
		if (e->rx_pool == NULL) {
			snprintf(err, len, "port %u: cannot create its RX pool (%s): give EAL more "
				 "memory (-m 512)", e->port_id, rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	txqs = realloc(e->txqs, c->nb_txq * sizeof(*txqs));
	if (txqs == NULL) {
		snprintf(err, len, "port %u: out of memory", e->port_id);
		return -ENOMEM;
	}
	e->txqs = txqs;
	for (uint16_t q = 0; q < c->nb_txq; q++)
		txqs[q] = (struct sl_ethdev_txq){ e->port_id, q };
	struct sl_ethdev_conf ec = {
		.nb_txq = c->nb_txq,
		.nb_txd = c->nb_txd,
		.lltx = c->lltx,
		.rx_pool = e->rx_pool,
		.rx_timestamp = c->rx && c->rx_hw_ts,
		.mtu = c->mtu != 0 ? c->mtu : e->mtu0,
	};
	ret = sl_ethdev_setup(e->port_id, &ec, &c->caps, err, len);
	if (ret != 0)
		return ret;
	if (rte_eth_dev_get_mtu(e->port_id, &c->mtu) != 0)
		c->mtu = ec.mtu;
	e->ts_off = -1;
	c->rx_hw_ts = false;
	if (c->caps & SL_ETHDEV_RX_TS) {
		c->caps &= ~SL_ETHDEV_RX_TS;
		if (ethdev_ts_calibrate(e) == 0)
			c->rx_hw_ts = true;
		else
			e->ts_off = -1;
	}
	/* Devices answer for MACs of their own: the port takes every frame. */
	if (c->promisc) {
		if (rte_eth_promiscuous_enable(e->port_id) == 0)
			e->promisc = true;
	} else if (e->promisc) {
		rte_eth_promiscuous_disable(e->port_id);
		e->promisc = false;
	}
	e->nb_txq = c->nb_txq;
	e->started = true;
	rte_eth_stats_reset(e->port_id); /* rx_drops count from this setup */
	if (c->nb_txd == 0)
		c->nb_txd = ETHDEV_DEFAULT_TXD;
	return 0;
}

static void *
ethdev_txq(void *dev, uint16_t q)
{
	struct ethdev_port *e = dev;

	return q < e->nb_txq ? &e->txqs[q] : NULL;
}

static uint16_t
ethdev_tx_burst(void *dev, uint16_t q, struct rte_mbuf **pkts, uint16_t n)
{
	return rte_eth_tx_burst(((struct ethdev_port *)dev)->port_id, q, pkts, n);
}

/*
 * Some PMDs hand frames to the kernel only when called: af_xdp's TX ring is
 * processed on each kick (a send() per burst, a batch at a time), so frames
 * still in it when the socket closes never leave. Before stopping a port
 * that ran, call every queue with an empty burst for a while (a no-op
 * elsewhere), then ask the PMD to free completed mbufs.
 */
static void
ethdev_kick(const struct ethdev_port *e)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * ETHDEV_KICK_MS / 1000;

	while (rte_get_timer_cycles() < end) {
		for (uint16_t q = 0; q < e->nb_txq; q++)
			rte_eth_tx_burst(e->port_id, q, NULL, 0);
		rte_delay_us_sleep(200);
	}
	for (uint16_t q = 0; q < e->nb_txq; q++)
		rte_eth_tx_done_cleanup(e->port_id, q, 0);
}

/* Nothing to wait for here: what an ethdev port took is its own (see stop). */
static uint64_t
ethdev_quiesce(void *dev, uint64_t timeout_us)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(timeout_us);
	return 0;
}

/* Kick, then stop: stopping frees the mbufs the descriptors still hold. */
static void
ethdev_stop(void *dev)
{
	struct ethdev_port *e = dev;

	if (!e->started)
		return;
	ethdev_kick(e);
	/*
	 * Frames still waiting to be received belong to the run's pools (a
	 * net_ring port loops its TX into its RX): free them before the pools go.
	 */
	for (int i = 0; i < 4096; i++) {
		struct rte_mbuf *pkts[64];
		uint16_t n = rte_eth_rx_burst(e->port_id, 0, pkts, RTE_DIM(pkts));

		if (n == 0)
			break;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	rte_eth_dev_stop(e->port_id);
	e->started = false;
}

static int
ethdev_xstats(void *dev, struct sl_port_stat *st, int max)
{
	struct ethdev_port *e = dev;
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs;
	int n = rte_eth_xstats_get(e->port_id, NULL, 0), k = 0;

	if (n <= 0 || st == NULL)
		return n < 0 ? 0 : n;
	names = calloc(n, sizeof(*names));
	xs = calloc(n, sizeof(*xs));
	if (names != NULL && xs != NULL && rte_eth_xstats_get_names(e->port_id, names, n) == n &&
	    rte_eth_xstats_get(e->port_id, xs, n) == n)
		for (; k < n && k < max; k++) {
			snprintf(st[k].name, sizeof(st[k].name), "%s", names[xs[k].id].name);
			st[k].value = xs[k].value;
		}
	free(names);
	free(xs);
	return k;
}

static uint16_t
ethdev_rx_burst(void *dev, struct rte_mbuf **pkts, uint16_t n)
{
	struct ethdev_port *e = dev;
	uint16_t k = rte_eth_rx_burst(e->port_id, 0, pkts, n);

	/* The PMD's timestamps are in its own clock: turn them into TSC cycles. */
	if (e->ts_off >= 0)
		for (uint16_t i = 0; i < k; i++)
			if (pkts[i]->ol_flags & e->ts_flag) {
				rte_mbuf_timestamp_t *ts = RTE_MBUF_DYNFIELD(pkts[i], e->ts_off,
									     rte_mbuf_timestamp_t *);

				*ts = e->tsc0 + (uint64_t)((double)(int64_t)(*ts - e->clk0) *
							   e->tsc_per_clk);
			}
	return k;
}

static void
ethdev_rx_drops(void *dev, struct sl_port_rx_drops *d)
{
	struct rte_eth_stats st;

	memset(d, 0, sizeof(*d));
	if (rte_eth_stats_get(((struct ethdev_port *)dev)->port_id, &st) != 0)
		return;
	d->imissed = st.imissed;
	d->ierrors = st.ierrors;
	d->rx_nombuf = st.rx_nombuf;
}

static void
ethdev_close(void *dev)
{
	struct ethdev_port *e = dev;

	ethdev_stop(e);
	rte_eth_dev_close(e->port_id);
	for (unsigned int k = 0; k < RTE_DIM(rx_pools); k++)
		if (e->rx_pool != NULL && rx_pools[k].mp == e->rx_pool && --rx_pools[k].users == 0) {
			rte_mempool_free(rx_pools[k].mp);
			rx_pools[k].mp = NULL;
		}
	free(e->txqs);
	free(e);
}

static int
ethdev_link(void *dev, bool up)
{
	struct ethdev_port *e = dev;

	return up ? rte_eth_dev_set_link_up(e->port_id) : rte_eth_dev_set_link_down(e->port_id);
}

static const struct sl_port_ops ethdev_ops = {
	.kind = "ethdev",
	.setup = ethdev_setup,
	.txq = ethdev_txq,
	.xmit = sl_ethdev_xmit,
	.tx_burst = ethdev_tx_burst,
	.quiesce = ethdev_quiesce,
	.stop = ethdev_stop,
	.xstats = ethdev_xstats,
	.close = ethdev_close,
	.rx_burst = ethdev_rx_burst,
	.rx_drops = ethdev_rx_drops,
	.link = ethdev_link,
};

/*
 * The virtual PMDs: their link speed is made up (net_null says 10G and takes
 * 60 Mpps), and only some have a receiver that drops frames not addressed to
 * it (a kernel interface does; net_null, net_ring and a pcap file do not).
 * Any other driver is a NIC: its wire enforces its speed, its peer filters.
 */
static void
driver_facts(struct sl_port_info *info)
{
	static const struct { const char *driver; bool peer_filters_mac; } virt[] = {
		{ "net_null", false }, { "net_ring", false }, { "net_pcap", false },
		{ "net_tap", true }, { "net_af_packet", true }, { "net_memif", true },
		{ "net_vhost", true }, { "net_virtio_user", true },
	};

	info->speed_made_up = false;
	info->peer_filters_mac = true;
	for (size_t i = 0; i < RTE_DIM(virt); i++)
		if (strcmp(info->driver, virt[i].driver) == 0) {
			info->speed_made_up = true;
			info->peer_filters_mac = virt[i].peer_filters_mac;
		}
}

int
sl_ethdev_port_open(uint16_t port_id, struct sl_port_info *info, const struct sl_port_ops **ops,
		    void **dev)
{
	struct rte_eth_dev_info di;
	struct rte_eth_link link;
	struct ethdev_port *e;
	uint16_t mtu = RTE_ETHER_MTU;
	int ret;

	ret = rte_eth_dev_info_get(port_id, &di);
	if (ret != 0)
		return ret;
	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	e->port_id = port_id;
	e->ts_off = -1;
	memset(info, 0, sizeof(*info));
	rte_eth_dev_get_name_by_port(port_id, info->name);
	snprintf(info->driver, sizeof(info->driver), "%s", di.driver_name);
	info->socket = rte_eth_dev_socket_id(port_id);
	if (rte_eth_dev_get_mtu(port_id, &mtu) != 0)
		mtu = RTE_ETHER_MTU;
	e->mtu0 = mtu;
	info->mtu = mtu;
	info->min_mtu = di.min_mtu;
	info->max_mtu = RTE_MIN(di.max_mtu, SL_PORT_MAX_MTU);
	info->max_txq = di.max_tx_queues;
	rte_eth_macaddr_get(port_id, &info->mac);
	info->wire_to = -1;
	driver_facts(info);
	if (rte_eth_link_get_nowait(port_id, &link) == 0 &&
	    link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
	    link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
		info->speed_bps = (uint64_t)link.link_speed * 1000000; /* ethdev speaks Mb/s */
	*ops = &ethdev_ops;
	*dev = e;
	return 0;
}
