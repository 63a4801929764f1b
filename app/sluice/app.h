/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_APP_H
#define SL_APP_H

/*
 * The program's state, data only: the options and the configuration, the
 * ports, the run session (what a run builds and drives, its receive side),
 * the counter views, the main lcore's loop. session.c builds and drives
 * the session; the report, telemetry and the prompt read it. No function
 * is declared here, and nothing of front/ or run/ is included: their
 * functions on this state are declared in their own headers (opts.h,
 * ports.h, session.h), which include this one.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_lcore.h>

#include "sl_config.h"
#include "sl_port.h"
#include "sl_xmit.h"

struct sl_app;
struct sl_bench_conf;
struct sl_capture;
struct sl_json;
struct sl_loop;
struct sl_run_desc;
struct sl_rx;
struct sl_source;
struct sl_stream;
struct sl_worker;

/* How the program runs (the run's configuration itself is a struct sl_config). */
struct sl_opts {
	double stats_period;   /* seconds; 0: none */
	const char *json;
	bool interactive;      /* -i */
	bool auto_start;       /* -a */
	const char *cmdline_file;
	const char *otg_config;      /* --otg-config FILE: the flows, from an OTG Config */
	struct sl_bench_conf *bench; /* --bench: run this benchmark instead of a run */
	bool metrics;                /* --metrics [ADDR:]PORT: serve GET /metrics */
	char metrics_host[64];       /* numeric; default 127.0.0.1 */
	uint16_t metrics_port;       /* 0: the kernel picks (the URL printed says which) */
	bool api;                    /* --api [SCHEME://][ADDR:]PORT: serve the OTG REST API */
	bool api_plain;              /* http:// (the default is https://) */
	char api_host[64];
	uint16_t api_port;
	char api_cert[256];          /* --api-cert FILE (PEM); none: self-signed */
	char api_key[256];           /* --api-key FILE (PEM) */
	char api_token[256];         /* --api-token FILE: each request's bearer token */
};

/* A TX queue of the run: the engine's object and who sends on it. */
struct sl_app_txq {
	struct sl_txq *txq;
	struct sl_txq_stats base;    /* clear port stats: counters at the clear */
	uint16_t port, queue;
	uint16_t nb_lcores;
	bool ctl;                    /* the main lcore sends on it too (devices: run/ctl.h) */
	uint16_t lcores[RTE_MAX_LCORE];
};

struct sl_port {
	struct sl_port_info info;
	const struct sl_port_ops *ops;
	void *dev;
	uint32_t caps;               /* of this run's queues */
	uint16_t nb_txq;
	uint16_t txd;                /* descriptors per queue in force */
	bool set_up;                 /* set up for the current run */
	bool rx_hw_ts;               /* its rx_burst stamps frames (the latency's clock: hw) */
	struct sl_rate pace;         /* this run's rate as paced (NONE: unpaced) */
	struct sl_app_txq txqs[SL_MAX_TXQ];
};

struct sl_ports {
	struct sl_port p[SL_MAX_PORTS];
	uint16_t n;
};


/* Called on the loop when a run is done (its duration, count, a stop, a signal): it stops it. */
typedef void sl_run_end_fn(struct sl_app *app, void *arg);

/* Live stats: the counters at the last line. */
struct sl_live {
	double t;
	uint64_t pkts[SL_MAX_PORTS], bytes[SL_MAX_PORTS];
	uint64_t rx[SL_MAX_PORTS];   /* frames received (the analyzer's count) */
};

/*
 * The run session (session.c): what a run builds from its configuration
 * and drives until its release. Written and read by the main lcore's thread
 * only (telemetry reads a snapshot its loop publishes).
 */
struct sl_results;
struct sl_ctl;

/*
 * What shows a run (view/), set by whoever runs the program: the session
 * calls these at its moments and names no view. NULL: nothing shown.
 */
struct sl_run_show {
	/* after a start: each port's queues, their modes and lcores */
	void (*modes)(const struct sl_app *app, const struct sl_results *r);
	/* every stats period while it runs, elapsed seconds since its start */
	void (*live)(struct sl_app *app, const struct sl_results *r, double elapsed);
	/* at its stop: the summary and what else is asked; 0, or -1 (an output not written) */
	int (*end)(const struct sl_app *app, const struct sl_results *r);
};

struct sl_session {
	const struct sl_run_show *show; /* NULL: a run shows nothing (tests, fuzzing) */
	/* The configuration the current (or last) run started from: a copy, read-only
	 * while it runs (a benchmark's trial runs its own, the user's stays as it was). */
	struct sl_config run_cfg;
	/* What the views show of it: made at open and at each start, held by
	 * every snapshot of the run (run/snapshot.h). */
	struct sl_run_desc *desc;
	/* The run's streams by id (the signature's): its flows compiled (plan.c). */
	struct sl_stream **streams;
	void *stream_block;          /* where they are, one block */
	/* Each stream's source (run/source.h: generated, replay) and what its
	 * row keeps of it for the run (its own to free). */
	const struct sl_source **src;
	void **src_state;
	uint16_t nb_streams;
	struct sl_worker *workers[RTE_MAX_LCORE];
	uint16_t nb_workers;
	struct sl_map_entry map[SL_MAP_MAX]; /* the map in force: --map, or the default */
	uint16_t nb_map;
	uint64_t start_tsc, end_tsc;
	uint64_t anchor_tsc, anchor_unix_ns; /* the TSC and the wall clock read together at the start */
	uint64_t pool_in_use;        /* mbufs not back in their pools after the run */
	uint64_t discarded;          /* frames drivers freed at quiesce, never sent */
	bool running;
	bool quiet;                  /* a benchmark trial: stop reports nothing (bench.c) */
	/*
	 * Flows held by a controller (the API's pause, resume, stop of some
	 * flows): with hold_ctl set before a start, hold[id] per stream, written
	 * by the main lcore (SL_HOLD_*, release), read by the workers between
	 * bursts; NULL otherwise, and the workers never look.
	 */
	bool hold_ctl;
	uint8_t *hold;
	const uint8_t *hold_init;    /* the holds a start begins with (nb_streams), or NULL */
	/* Each receiving port's capture, borrowed from a controller (the API); NULL: none. */
	struct sl_capture *cap[SL_MAX_PORTS];
	unsigned int runs;           /* runs started */
	uint8_t run_tag;             /* this run's tag in the signature */
	/* The receive side of the run: an analyzer per receiving port, who polls it. */
	struct sl_rx *rx[SL_MAX_PORTS];
	int16_t rx_lcore[SL_MAX_PORTS];  /* -1: not received */
	bool rx_dedicated[SL_MAX_PORTS]; /* polled by a lcore that sends nothing */
	uint64_t drain_end_tsc;          /* when the drain at stop ended */
	/* addressed[t][r]: port t's stream is addressed to port r (set at each start). */
	bool addressed[SL_MAX_PORTS][SL_MAX_PORTS];
	/* The run's turn is a timer of the main lcore's loop (tick); when the run is
	 * done, run_end is called on the loop, once (sl_session_on_end()). */
	long tick;
	bool run_done;
	sl_run_end_fn *run_end;
	void *run_end_arg;
};

/*
 * What the counter views (show port stats, show txq stats, the live line,
 * show stream stats) count from. Written by the main lcore only.
 */
struct sl_views {
	uint64_t next_stats;         /* TSC of the next live stats line */
	/*
	 * The TSC of the port's last clear (the run's start if none; the
	 * counters at the clear are each queue's base), and the port's
	 * counters at the last show port stats (testpmd's "since last show").
	 */
	struct sl_view {
		uint64_t clear_tsc;
		uint64_t show_tsc, show_pkts, show_bytes;
	} view[SL_MAX_PORTS];
	struct sl_live live;
	/* clear stream stats: the view's baseline per (stream, receiving port). */
	struct sl_stream_base {
		uint64_t tx, rx, unique, duplicates, reordered, late;
	} rx_base[SL_MAX_PORTS][SL_MAX_PORTS];
	/* clear flow stats: each flow's baseline (nb_flow_base of them; NULL: none). */
	struct sl_flow_base {
		uint64_t generated, tx, unique, rx, duplicates, reordered, late;
	} *flow_base;
	uint16_t nb_flow_base;
};

/* The program: its options, the configuration, the ports, the session, the views, the loop. */
struct sl_app {
	struct sl_opts o;
	/* The configuration in force: front ends edit a copy, check it, assign it. */
	struct sl_config cfg;
	/* The ports' facts a check needs (sl_ports_env(), at open). */
	struct sl_config_env env;
	struct sl_ports ports;
	struct sl_session ses;
	struct sl_views views;
	/* The main lcore's one loop (lib/loop; NULL in harnesses that poll). */
	struct sl_loop *loop;
	/* The devices' control plane (run/ctl.h), NULL: not open. */
	struct sl_ctl *ctl;
	int exit_code;               /* the worst outcome so far (SL_EXIT_*) */
	/* Called before (begin) and after output that is not a command's answer
	 * (live lines, the summary of a run that ended by itself); the prompt
	 * clears and redraws the line being typed. NULL: nothing to do. */
	void (*output_hook)(struct sl_app *app, bool begin);
	/* A section the JSON summary adds at its end (the benchmark's), or NULL. */
	void (*json_extra)(struct sl_json *j);
};

#endif /* SL_APP_H */
