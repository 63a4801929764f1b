/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sluice-capture-reset: clear the capture hooks that a killed dpdk-dumpcap
 * or dpdk-pdump left in a running Sluice.
 *
 * A capture tool asks the primary process (Sluice) to hook each port's
 * queues and removes the hooks when it ends. Killed (SIGKILL), it never
 * does: DPDK's pdump keeps no owner, the hooks stay, and every later
 * capture of that port is refused with "Packet dump enable failed:
 * Operation not permitted". This secondary process asks Sluice to remove
 * them, direction by direction, port by port, and says what it found. A
 * killed dpdk-pdump also leaves its rings (rx_ring_N, tx_ring_N: a new
 * dpdk-pdump cannot create them and crashes) and its pcap ports
 * (net_pcap_rx_N, net_pcap_tx_N) in the run's shared memory: they are freed
 * and detached too. Its pool (pdump_pool_N) cannot be freed by another
 * program (the pool's free callback is an address in the dead process); a
 * new dpdk-pdump reuses it, captures, and crashes at its exit when it frees
 * it: use dpdk-dumpcap (which reuses what it left without harm) after a
 * killed dpdk-pdump, or restart Sluice.
 *
 *   sluice-capture-reset --file-prefix PREFIX
 *
 * Run it when no capture tool is running: it cannot tell a dead tool's
 * hooks and rings from a live one's, and would end a live capture.
 *
 * Exit 0 when Sluice was reached (whether or not there was a hook to
 * clear), 1 when it could not be attached to.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_pdump.h>
#include <rte_ring.h>

/* dpdk-pdump's names (app/pdump/main.c, DPDK 22.11): per capture tuple N. */
#define PDUMP_TUPLES_MAX 54

/* A dead dpdk-pdump's rings and pcap ports: freed, detached; how many. */
static int
pdump_leftovers(void)
{
	static const char *const dirs[] = { "rx", "tx" };
	int n = 0;

	for (int t = 0; t < PDUMP_TUPLES_MAX; t++) {
		for (unsigned int d = 0; d < RTE_DIM(dirs); d++) {
			char name[RTE_ETH_NAME_MAX_LEN];
			struct rte_ring *r;
			uint16_t port;

			snprintf(name, sizeof(name), "%s_ring_%d", dirs[d], t);
			r = rte_ring_lookup(name);
			if (r != NULL) {
				rte_ring_free(r);
				printf("dpdk-pdump's ring %s freed\n", name);
				n++;
			}
			snprintf(name, sizeof(name), "net_pcap_%s_%d", dirs[d], t);
			if (rte_eth_dev_get_port_by_name(name, &port) == 0 &&
			    rte_eal_hotplug_remove("vdev", name) == 0) {
				printf("dpdk-pdump's port %s detached\n", name);
				n++;
			}
		}
	}
	return n;
}

int
main(int argc, char **argv)
{
	char *eal[argc + 6];
	int n = 0, cleared = 0, left;
	uint16_t port;

	eal[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			printf("Usage: %s --file-prefix PREFIX\n"
			       "Clear the capture hooks a killed dpdk-dumpcap or dpdk-pdump left in the\n"
			       "Sluice run started with --file-prefix PREFIX, and the rings and\n"
			       "ports a killed dpdk-pdump left. Only while no capture tool runs\n"
			       "(docs/watching.md).\n",
			       argv[0]);
			return 0;
		}
		eal[n++] = argv[i];
	}
	eal[n++] = (char *)"--proc-type=secondary";
	eal[n++] = (char *)"--no-pci";
	eal[n++] = (char *)"--log-level=*:critical"; /* pdump logs each refusal: expected here */
	eal[n] = NULL;
	if (rte_eal_init(n, eal) < 0) {
		fprintf(stderr, "sluice-capture-reset: cannot attach to the Sluice run: is it running, "
			"on hugepages, and is --file-prefix its prefix?\n");
		return 1;
	}
	/* The hooks first: the rings must be out of use before they are freed. */
	RTE_ETH_FOREACH_DEV(port) {
		static const struct { uint32_t flag; const char *name; } dir[] = {
			{ RTE_PDUMP_FLAG_RX, "RX" }, { RTE_PDUMP_FLAG_TX, "TX" },
		};
		char name[RTE_ETH_NAME_MAX_LEN] = "";

		rte_eth_dev_get_name_by_port(port, name);
		for (unsigned int d = 0; d < RTE_DIM(dir); d++) {
			/* Refused when the port has no such hook: nothing to clear. */
			if (rte_pdump_disable(port, RTE_PDUMP_ALL_QUEUES, dir[d].flag) == 0) {
				printf("port %u (%s): %s capture hooks cleared\n", port, name,
				       dir[d].name);
				cleared++;
			}
		}
	}
	left = pdump_leftovers();
	printf("%d hook set(s) cleared, %d leftover(s) of dpdk-pdump removed; captures can start "
	       "again\n", cleared, left);
	rte_eal_cleanup();
	return 0;
}
