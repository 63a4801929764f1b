/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_APP_H
#define SL_APP_H

/*
 * The sluice application: options, ports (ethdev and simulated), the lcore
 * map, workers and the report. One struct sl_app holds the run; workers see
 * only their own struct sl_worker, published before rte_eal_remote_launch().
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_lcore.h>
#include <rte_spinlock.h>

#include "sl_ethdev.h"
#include "sl_gen.h"
#include "sl_sim.h"
#include "sl_xmit.h"

#define SL_MAX_PORTS 32
#define SL_MAX_SIMS 8
#define SL_MAX_TXQ 64
#define SL_MAX_TARGETS 64
#define SL_MAP_MAX 128

/* Exit codes (interface.md). */
#define SL_EXIT_OK 0
#define SL_EXIT_RUNTIME 1
#define SL_EXIT_USAGE 2

struct sl_sim_spec {
	uint64_t speed_bps;
	uint32_t txd;
	bool lltx;
	bool verify;
};

/* A rate as the user gave it (--rate); per port. */
enum sl_rate_unit {
	SL_RATE_NONE = 0, /* as fast as possible */
	SL_RATE_PPS,
	SL_RATE_L1,       /* bit/s on the wire: frame + FCS + 20 bytes */
	SL_RATE_L2,       /* bit/s of frames with FCS */
	SL_RATE_PCT,      /* % of link speed, L1 */
};

struct sl_rate {
	enum sl_rate_unit unit;
	double value;
};

/* What can be set per port (options set every port; the CLI one or all). */
struct sl_port_conf {
	uint16_t txq;          /* 0: as the map needs */
	uint16_t txd;          /* 0: driver default */
	enum sl_lltx lltx;
	struct sl_rate rate;
	uint16_t vlan;         /* 0: untagged */
	bool stopped;          /* port stop: not transmitted on */
};

/* One "lcores -> port.queue" entry of --map. */
struct sl_map_entry {
	uint16_t lcore;
	uint16_t port;
	uint16_t queue;
};

struct sl_opts {
	uint64_t duration_us;  /* 0: none */
	uint64_t count;        /* packets per port; 0: no limit */
	uint16_t burst;
	struct sl_stream_conf sc;  /* headers, sizes, flows (MACs and VLAN are per port) */
	bool size_given;           /* --size/--imix given; else the smallest frame that fits */
	bool peer_set[SL_MAX_PORTS];
	struct rte_ether_addr peer[SL_MAX_PORTS];
	double stats_period;   /* seconds; 0: none */
	const char *json;
	struct sl_map_entry map[SL_MAP_MAX];
	uint16_t nb_map;       /* 0: default map */
	struct sl_port_conf pc[SL_MAX_PORTS]; /* --txq, --txd, --lltx, --rate, --vlan; per port in the CLI */
	enum sl_lock_policy lock;
	struct sl_sim_spec sims[SL_MAX_SIMS];
	uint16_t nb_sims;
	bool direct;           /* --xmit direct: bypass the engine (baseline) */
	bool interactive;      /* -i */
	bool auto_start;       /* -a */
	const char *cmdline_file;
};

/* A TX queue of the run. */
struct sl_app_txq {
	struct sl_txq *txq;
	struct sl_ethdev_txq eq;     /* ethdev handle (ethdev ports) */
	struct sl_txq_stats base;    /* clear port stats: counters at the clear */
	uint16_t port, queue;
	uint16_t nb_lcores;
	uint16_t lcores[RTE_MAX_LCORE];
};

struct sl_port {
	char name[RTE_ETH_NAME_MAX_LEN];
	char driver[32];
	bool is_sim;
	bool verify;                 /* sim with its wire verifier */
	uint16_t eth_id;             /* ethdev port id */
	struct sl_sim *sim;
	uint32_t caps;
	uint32_t speed_mbps;         /* link speed, 0 if unknown */
	int socket;
	uint16_t nb_txq;
	uint16_t max_frame;          /* largest frame with FCS the MTU allows */
	struct rte_ether_addr mac;
	struct sl_stream stream;     /* this port's frames (its MACs) */
	struct sl_app_txq txqs[SL_MAX_TXQ];
	bool started;
};

/* What one worker sends to: a queue, its generator, its share of --count. */
struct sl_target {
	struct sl_txq *txq;
	struct sl_gen gen;
	struct sl_pacer pacer;
	uint16_t port;
	uint16_t eth_port;           /* ethdev id, for --xmit direct */
	uint64_t quota;              /* UINT64_MAX: no limit */
	struct rte_mbuf *pending[SL_GEN_MAX_SIZES > 64 ? SL_GEN_MAX_SIZES : 64];
	uint16_t pend_off, pend_n;   /* generated, not yet taken by sl_xmit */
	bool finished;               /* share of --count sent and drained */
	/* Single writer: this worker. */
	uint64_t generated;
	uint64_t unsent;             /* built but never taken, freed at stop */
};

struct sl_worker {
	unsigned int lcore;
	uint16_t nb_targets;
	uint16_t burst;
	uint64_t deadline_tsc;       /* 0: none */
	struct sl_target t[SL_MAX_TARGETS];
	struct rte_mempool *pools[SL_MAX_PORTS];
	uint64_t start_tsc, end_tsc;
	uint32_t done;               /* set (release) when the loop has ended */
} __rte_cache_aligned;

/* Live stats: the counters at the last line. */
struct sl_live {
	double t;
	uint64_t pkts[SL_MAX_PORTS], bytes[SL_MAX_PORTS];
};

struct sl_app {
	struct sl_opts o;
	struct sl_port ports[SL_MAX_PORTS];
	uint16_t nb_ports;
	struct sl_worker *workers[RTE_MAX_LCORE];
	uint16_t nb_workers;
	uint64_t start_tsc, end_tsc;
	struct rte_mempool *rx_pool;
	uint64_t pool_in_use;        /* mbufs not back in their pools after the run */
	uint64_t discarded;          /* frames the sims freed at drain time-out */
	struct sl_map_entry map[SL_MAP_MAX]; /* the map in force: --map, or the default */
	uint16_t nb_map;
	bool running;
	rte_spinlock_t tel_lock;     /* telemetry reads vs. a run being released */
	unsigned int runs;           /* runs started */
	uint64_t next_stats;         /* TSC of the next live stats line */
	struct sl_live live;
};

/* Stop flag: written by the signal handler and the main lcore, read by workers. */
extern volatile uint32_t sl_stop;
/* Quit flag: a signal asked the program to end. */
extern volatile uint32_t sl_quit;

static inline bool
sl_quitting(void)
{
	return __atomic_load_n(&sl_quit, __ATOMIC_RELAXED) != 0;
}

static inline bool
sl_stopping(void)
{
	return __atomic_load_n(&sl_stop, __ATOMIC_RELAXED) != 0;
}

/* options.c */
void sl_opts_default(struct sl_opts *o);
/* Parse options after "--". Returns 0, 1 when --help/--version was served, or exits 2. */
int sl_opts_parse(struct sl_opts *o, int argc, char **argv);
void sl_usage(void);
int sl_parse_rate_bps(const char *s, uint64_t *bps);
int sl_parse_rate(const char *s, struct sl_rate *r);
int sl_parse_lltx(const char *s, enum sl_lltx *l);
int sl_parse_sizes(struct sl_stream_conf *c, const char *arg, char *err, size_t len);
int sl_parse_field(struct sl_stream_conf *c, const char *arg, char *err, size_t len);
int sl_parse_map(struct sl_map_entry *map, uint16_t *nb, const char *arg, char *err, size_t len);
/* Human form of a rate, e.g. "14.88 Mpps". */
void sl_rate_str(const struct sl_rate *r, char *buf, size_t len);

/* ports.c */
int sl_ports_probe(struct sl_app *app);
int sl_ports_start(struct sl_app *app);
void sl_ports_close(struct sl_app *app);
void sl_ports_free(struct sl_app *app);

/* run.c: setup (map, streams, ports, queues, workers) -> launch -> tick... -> finish */
int sl_run_setup(struct sl_app *app);
void sl_run_launch(struct sl_app *app);
bool sl_run_tick(struct sl_app *app);
void sl_run_finish(struct sl_app *app);
int sl_run(struct sl_app *app);
void sl_run_teardown(struct sl_app *app);
void sl_run_release(struct sl_app *app);

/* report.c */
struct port_totals {
	uint64_t generated, tx_packets, tx_bytes, dropped, backlog;
};
void sl_report_port_totals(const struct sl_app *app, uint16_t pid, struct port_totals *pt);
void sl_report_totals(const struct sl_app *app, struct port_totals *all);
void sl_report_modes(const struct sl_app *app);
void sl_report_live(struct sl_app *app, double elapsed);
void sl_report_summary(const struct sl_app *app);
int sl_report_json(const struct sl_app *app, const char *path);

/* telemetry.c: /sluice/totals, /sluice/ports, /sluice/txqs */
void sl_telemetry_init(struct sl_app *app);

/* Print "sluice: <msg>" on stderr. */
void sl_err(const char *fmt, ...) __rte_format_printf(1, 2);

#endif /* SL_APP_H */
