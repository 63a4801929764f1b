/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_OPTS_H
#define SL_OPTS_H

/*
 * What the user asked for: the options after "--", then changed by the
 * prompt's set/port commands. Read by the session at each start.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "parse.h"
#include "sl_gen.h"
#include "sl_port.h"
#include "sl_sim.h"
#include "sl_xmit.h"

struct sl_bench_conf;

#define SL_MAX_SIMS 8

/* What can be set per port (options set every port; the prompt one or all). */
struct sl_port_conf {
	uint16_t txq;          /* 0: as the map needs */
	uint16_t txd;          /* 0: driver default */
	uint16_t mtu;          /* 0: the port's own (1500 for the sim) */
	enum sl_lltx lltx;
	struct sl_rate rate;
	uint16_t vlan;         /* 0: untagged */
	bool stopped;          /* port stop: not transmitted on */
};

struct sl_opts {
	uint64_t duration_us;  /* 0: none */
	uint64_t count;        /* packets per port; 0: no limit */
	uint16_t burst;
	struct sl_stream_conf sc;  /* headers, sizes, flows (MACs and VLAN are per port) */
	bool size_given;           /* --size/--imix given; else the smallest frame that fits */
	bool tx_ip4_given;         /* --tx-ip given (IPv4 addresses: refused with --ipv6) */
	bool peer_set[SL_MAX_PORTS];
	struct rte_ether_addr peer[SL_MAX_PORTS];
	double stats_period;   /* seconds; 0: none */
	const char *json;
	struct sl_map_entry map[SL_MAP_MAX];
	uint16_t nb_map;       /* 0: default map */
	struct sl_port_conf pc[SL_MAX_PORTS];
	enum sl_lock_policy lock;
	struct sl_sim_conf sims[SL_MAX_SIMS];
	uint16_t nb_sims;
	bool direct;           /* --xmit direct: the port's plain burst call (baseline) */
	bool pace_even;        /* a benchmark trial: frames evenly spaced (SL_PACER_EVEN_US) */
	/* Receive side (measure.md): which ports receive, who polls them, the drain. */
	enum { SL_RX_AUTO = 0, SL_RX_LIST, SL_RX_ALL } rx_mode;
	bool rx_port[SL_MAX_PORTS];   /* --rx: these ports receive (SL_RX_LIST) */
	struct sl_map_entry rxmap[SL_MAP_MAX]; /* --rxmap LCORE:PORT.0 */
	uint16_t nb_rxmap;
	uint64_t drain_us;     /* --drain: RX keeps polling this long after TX stops */
	bool rx_clock_tsc;     /* --rx-clock tsc: ignore the ports' RX timestamps */
	bool interactive;      /* -i */
	bool auto_start;       /* -a */
	const char *cmdline_file;
	struct sl_bench_conf *bench; /* --bench: run this benchmark instead of a run */
	bool metrics;                /* --metrics [ADDR:]PORT: serve GET /metrics */
	char metrics_host[64];       /* numeric; default 127.0.0.1 */
	uint16_t metrics_port;       /* 0: the kernel picks (the URL printed says which) */
};

/* What sl_opts_parse() asks the program to do. */
enum sl_opts_action {
	SL_OPTS_RUN = 0,       /* run with these options */
	SL_OPTS_HELP,          /* print the usage and exit 0 */
	SL_OPTS_VERSION,       /* print the version and exit 0 */
	SL_OPTS_CLI_REFERENCE, /* print the CLI reference and exit 0 */
	SL_OPTS_ERROR,         /* a "sluice: --opt: ..." line was printed: exit 2 */
};

void sl_opts_default(struct sl_opts *o);
/* Parse the options after "--" (argv[0] is the program). */
enum sl_opts_action sl_opts_parse(struct sl_opts *o, int argc, char **argv);
void sl_usage(void);

#endif /* SL_OPTS_H */
