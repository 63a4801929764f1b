/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench-gen-ceiling.c: the per-core ceiling of a TX driver, for
 * scripts/bench-gen.sh. A bare loop on one worker lcore: prebuilt 64 B
 * frames (60 bytes handed to the PMD) taken from their pool with the raw
 * rte_mempool_get_bulk() (no mbuf reset) and handed to rte_eth_tx_burst()
 * 32 at a time; what the driver does not take goes back to the pool.
 * With "write16", each frame also gets 16 bytes written at its end (a
 * sequence number and the TSC: what a signature costs at the least); with
 * "write2", 2 bytes, its UDP source port (what sets one flow's frame apart
 * from another's at the least).
 *
 * Usage: bench-gen-ceiling EAL-ARGS -- SECONDS bare|write16|write2
 * Prints one line: "<Mpps> <TSC cycles per packet> <TSC MHz>", over the
 * run less its first second. The TSC's rate is measured against
 * CLOCK_MONOTONIC_RAW over that time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#define BURST 32
#define LEN 60

static struct rte_mempool *mp;
static double secs;
static int write16, write2;
static uint64_t pkts_out, tsc_out;
static double ns_out;

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void
frame(struct rte_mbuf *m)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	memset(p, 0, LEN);
	memset(&eth->dst_addr, 0xff, RTE_ETHER_ADDR_LEN);
	eth->src_addr.addr_bytes[0] = 2;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(LEN - RTE_ETHER_HDR_LEN);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0xc6120001);
	ip->dst_addr = rte_cpu_to_be_32(0xc6130001);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(1024);
	udp->dst_port = rte_cpu_to_be_16(1024);
	udp->dgram_len = rte_cpu_to_be_16(LEN - RTE_ETHER_HDR_LEN - sizeof(*ip));
	m->data_len = LEN;
	m->pkt_len = LEN;
}

static int
loop(void *arg)
{
	struct rte_mbuf *pk[BURST];
	uint64_t hz_guess = rte_get_tsc_hz(), start = rte_rdtsc(), seq = 0, n = 0, t0 = 0;
	uint64_t warm = start + hz_guess, end = start + (uint64_t)(secs * hz_guess), tsc;
	double ns0 = 0;

	(void)arg;
	for (;;) {
		uint16_t k;

		tsc = rte_rdtsc();
		if (t0 == 0 && tsc >= warm) {
			t0 = tsc;
			ns0 = now_ns();
			n = 0;
		}
		if (tsc >= end)
			break;
		for (int r = 0; r < 64; r++) {
			if (rte_mempool_get_bulk(mp, (void **)pk, BURST) != 0)
				continue;
			if (write2)
				for (int i = 0; i < BURST; i++) {
					uint8_t *p = rte_pktmbuf_mtod(pk[i], uint8_t *);
					uint16_t sport = (uint16_t)(seq++ & 1023);

					memcpy(p + RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr),
					       &sport, 2);
				}
			if (write16)
				for (int i = 0; i < BURST; i++) {
					uint8_t *p = rte_pktmbuf_mtod(pk[i], uint8_t *) + LEN - 16;
					uint64_t w1 = tsc;

					memcpy(p, &seq, 8);
					memcpy(p + 8, &w1, 8);
					seq++;
				}
			k = rte_eth_tx_burst(0, 0, pk, BURST);
			n += k;
			if (k < BURST)
				rte_mempool_put_bulk(mp, (void **)(pk + k), BURST - k);
		}
	}
	tsc_out = rte_rdtsc() - t0;
	ns_out = now_ns() - ns0;
	pkts_out = n;
	return 0;
}

int
main(int argc, char **argv)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mbuf *all[16383];
	unsigned int lcore;
	int ret = rte_eal_init(argc, argv);

	if (ret < 0)
		rte_exit(1, "EAL init failed\n");
	argc -= ret;
	argv += ret;
	if (argc != 3 || (secs = atof(argv[1])) < 2 ||
	    (strcmp(argv[2], "bare") != 0 && strcmp(argv[2], "write16") != 0 &&
	     strcmp(argv[2], "write2") != 0))
		rte_exit(2, "usage: bench-gen-ceiling EAL-ARGS -- SECONDS(>=2) bare|write16|write2\n");
	write16 = strcmp(argv[2], "write16") == 0;
	write2 = strcmp(argv[2], "write2") == 0;
	if (rte_eth_dev_count_avail() < 1)
		rte_exit(1, "no port: give --vdev net_null0\n");
	mp = rte_pktmbuf_pool_create("ceil", RTE_DIM(all), 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (mp == NULL)
		rte_exit(1, "pool: %s\n", rte_strerror(rte_errno));
	if (rte_eth_dev_configure(0, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(0, 0, 256, rte_socket_id(), NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(0, 0, 1024, rte_socket_id(), NULL) != 0 ||
	    rte_eth_dev_start(0) != 0)
		rte_exit(1, "port 0 setup failed\n");
	/* Prebuild every frame once: the loop never writes the headers again. */
	if (rte_pktmbuf_alloc_bulk(mp, all, RTE_DIM(all)) != 0)
		rte_exit(1, "pool too small\n");
	for (unsigned int i = 0; i < RTE_DIM(all); i++)
		frame(all[i]);
	rte_pktmbuf_free_bulk(all, RTE_DIM(all));
	lcore = rte_get_next_lcore(-1, 1, 0);
	if (lcore >= RTE_MAX_LCORE)
		rte_exit(2, "give a worker lcore (-l 0-1)\n");
	rte_eal_remote_launch(loop, NULL, lcore);
	rte_eal_mp_wait_lcore();
	if (pkts_out == 0 || ns_out <= 0)
		rte_exit(1, "nothing sent\n");
	printf("%.3f %.2f %.1f\n", pkts_out / ns_out * 1e3, (double)tsc_out / pkts_out,
	       tsc_out / ns_out * 1e3);
	rte_eth_dev_stop(0);
	rte_eal_cleanup();
	return 0;
}
