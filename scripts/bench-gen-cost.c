/*
 * bench-gen-cost.c: cycles per frame of sl_gen_burst() for a few streams,
 * the minimum over 200,000 bursts of 32 (a burst that was preempted only
 * comes out slower, so the minimum holds on a loaded machine where Mpps
 * runs do not). Built and run by scripts/bench-gen-cost.sh, against this
 * tree and optionally an older one (HAVE_SHARE: a tree with sl_gen_share()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rte_eal.h>
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include "sl_gen.h"

static struct sl_stream s;

static double
cost(struct sl_stream_conf *c, unsigned int shares)
{
	char err[256];
	struct rte_mempool *mp;
	struct rte_mbuf *pk[32];
	static int id;
	char name[32];
	uint64_t best = UINT64_MAX;
	struct sl_gen g = { 0 };

	if (sl_stream_build(&s, c, 1518, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	snprintf(name, sizeof(name), "mb%d", id++);
	mp = sl_stream_pool_create(&s, name, 4095, SOCKET_ID_ANY);
	g.s = &s;
	g.mp = mp;
#ifdef HAVE_SHARE
	sl_gen_share(&g, 0, shares);
#else
	(void)shares;
#endif
	for (int t = 0; t < 200000; t++) {
		uint64_t t0 = rte_rdtsc_precise(), t1;

		sl_gen_burst(&g, pk, 32, t0);
		t1 = rte_rdtsc_precise();
		if (t1 - t0 < best)
			best = t1 - t0;
		rte_mempool_put_bulk(mp, (void **)pk, 32);
	}
	rte_mempool_free(mp);
	return best / 32.0;
}

int
main(int argc, char **argv)
{
	struct sl_stream_conf base = {
		.src_ip = RTE_IPV4(198u, 18, 0, 1), .dst_ip = RTE_IPV4(198u, 18, 0, 2),
		.src_port = 9, .dst_port = 9, .sizes = { 64 }, .nb_sizes = 1,
	}, c;

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	c = base; printf("64 B, 1 flow            %6.2f\n", cost(&c, 1));
	c = base; c.flows = 1024; printf("64 B, 1024 flows        %6.2f\n", cost(&c, 1));
	c = base; c.nb_sizes = 3; c.sizes[0] = 64; c.sizes[1] = 594; c.sizes[2] = 1518;
	c.weights[0] = 7; c.weights[1] = 4; c.weights[2] = 1;
	printf("IMIX, 1 flow            %6.2f\n", cost(&c, 1));
	c.flows = 1024; printf("IMIX, 1024 flows        %6.2f\n", cost(&c, 1));
	c = base; c.tcp = true; printf("TCP 64 B, 1 flow        %6.2f\n", cost(&c, 1));
	c.flows = 1024; printf("TCP 64 B, 1024 flows    %6.2f\n", cost(&c, 1));
	c = base; c.flows = 1024; printf("64 B, 1024 flows, 1 of 2 producers %6.2f\n", cost(&c, 2));
	return 0;
}
