/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_SNAPSHOT_H
#define SL_SNAPSHOT_H

/*
 * A run's results at one moment, taken in run/ (the one place that reads a
 * run's counters for the views): every counter the views show, read once
 * from their single writers (the workers' counters, the queues', the
 * analyzers', the drivers'), receive side first, so that a read during a
 * run never shows more arrived than was sent. The live line, the summary,
 * the JSON, Prometheus, telemetry, show ... stats and a benchmark's trial
 * read a snapshot, never the run's objects. The receive side's per-stream
 * records are keyed by the signature's stream id (today a sending port's
 * id: its one flow).
 */

#include <stdbool.h>
#include <stdint.h>

#include "app.h"
#include "sl_port.h"
#include "sl_dev.h"
#include "sl_rx.h"
#include "sl_xmit.h"

/* A port of a run as its views show it (struct sl_run_desc). */
struct sl_run_desc_port {
	uint32_t caps;              /* its driver's, for this run's queues (SL_DRV_CAP_*) */
	bool rx_hw_ts;              /* its rx_burst stamps frames: the latency clock is hw */
	int16_t rx_lcore;           /* who polls its receive queue; -1: not received */
	bool rx_dedicated;          /* a lcore that sends nothing */
};

/*
 * What a run is, as its views show it: the configuration it started from,
 * the facts of the machine it was checked against, its ports as it set
 * them up, who sends and who receives where. The session makes one at
 * open (before any run) and at each start; it never changes after, and
 * every snapshot of that run holds it (counted: the last one frees it),
 * so that a view reads a snapshot and nothing else.
 */
struct sl_run_desc {
	unsigned int refs;
	struct sl_config cfg;       /* the run's own copy, --sign auto resolved */
	enum sl_sign sign_asked;    /* --sign as the user gave it */
	struct sl_config_env env;
	struct sl_run_desc_port port[SL_MAX_PORTS];
	uint16_t nb_map;
	struct sl_map_entry map[SL_MAP_MAX];   /* the map in force: --map, or the default */
	uint16_t nb_sends;
	struct sl_map_entry sends[SL_MAP_MAX]; /* each queue's lcores, by port and queue */
};

/* The description of app's run now (NULL: out of memory); give it back with sl_run_desc_put(). */
struct sl_run_desc *sl_run_desc_make(const struct sl_app *app);
void sl_run_desc_put(struct sl_run_desc *d);

/* What a port (or all ports) sent, summed over its queues and producers. */
struct sl_port_totals {
	uint64_t generated, tx_packets, tx_bytes, dropped, backlog;
};

/*
 * What the pacers of a queue, a port or the run asked and let go. asked is
 * what their rates asked over the run's window (offered + unsent +
 * let_go_frames; with --count, never more than the count); offered is what
 * the paced traffic handed to the engine; let_go_frames what the time they
 * let go (a lag past the catch-up bound: the lcore did not run) would have
 * sent; let_go_ns that time at the queue's (port's, run's) rate:
 * let_go_frames over the sum of its pacers' rates, so it only grows while
 * the rates hold. Unpaced traffic asks nothing.
 */
struct sl_pace_totals {
	uint64_t asked, let_go_frames, let_go_ns;
	/* Not in the table: the paced traffic's own share of generated, its
	 * frames made but not sent, and its rate (frames a second). */
	uint64_t offered, unsent;
	double rate_fps;
};

/* A stream's results where it is received (the definitions are sl_rx.h's). */
struct sl_stream_result {
	uint16_t stream;            /* its id: the sending port */
	int rx_port;                /* where these rx figures come from; -1: nowhere */
	uint64_t tx;                /* signed frames the sending port's driver took (what can arrive) */
	uint64_t tx_all;            /* every frame it took, signed or too short to be */
	uint64_t unique;            /* distinct frames received, over every receiving port */
	int64_t lost;               /* tx - unique (negative: more arrived than sent) */
	double loss_ratio;
	struct sl_rx_stream_stats st; /* at rx_port */
};

/*
 * A stream of the run (a flow of the table, or a port's default flow) over
 * every receiving port. tx is exact when the engine dropped nothing on its
 * port, or the port sends this stream alone: drops on a queue that several
 * streams share cannot be split among them (docs/generator.md).
 */
struct sl_results_flow {
	uint16_t id, port;
	char name[SL_FLOW_NAME_MAX];
	int to;                     /* the port it is addressed to (flow ... to), or -1 */
	uint64_t generated;         /* frames its targets handed to the engine */
	uint64_t tx;                /* signed frames its port's driver took (see exact) */
	bool exact;
	uint64_t unique;            /* distinct frames received, over every receiving port */
	int64_t lost;               /* tx - unique */
	bool seen;                  /* it arrived somewhere */
};

/* One TX queue of the run. */
struct sl_results_txq {
	uint16_t port, queue, nb_lcores;
	bool exists;                /* the engine's queue object exists (a run built it) */
	char lcores[96];            /* "1,2", "-": who sends on it */
	enum sl_txq_mode mode;
	struct sl_txq_stats st;     /* the engine's counters */
	struct sl_txq_stats base;   /* at the port's last clear port stats */
	uint64_t generated;         /* what the workers handed to it */
	struct sl_pace_totals pace; /* what its pacers asked and let go */
};

struct sl_results_port {
	struct sl_port_totals tot;  /* since the run's start */
	struct sl_port_totals view; /* since the last clear port stats (gauges as they are) */
	uint16_t txq0, nb_txq;      /* its queues: txq[txq0 .. txq0 + nb_txq) */
	bool rx_on;                 /* it receives in this run (it has an analyzer) */
	bool has_dev;               /* devices are on it (run/ctl.h) */
	struct sl_dev_port_totals dev; /* their control frames */
	struct sl_rx_port_stats rx;
	struct sl_port_rx_drops drops;
	bool has_wire;              /* its driver models a wire (the sim) */
	struct sl_port_wire wire;
	bool verifies, verified;    /* a verifier (the sim's), with results */
	struct sl_port_verify verify;
	uint64_t signed_tx;         /* its stream's signed frames its driver took */
	bool all_signed;            /* every size carries a signature */
	bool has_dut;               /* its driver models a DUT behind it (the sim's) */
	struct sl_port_dut dut;
	/* Its pacers (one per lcore-queue pair, which share the rate equally). */
	uint64_t pacer_lag_max;     /* TSC cycles the latest ran behind */
	uint64_t pacer_behind_max;  /* TSC cycles of its schedule the furthest behind was at
				       once (sl_pacer.behind_max) */
	uint64_t pacer_skipped;     /* TSC cycles let go, summed over them */
	uint32_t nb_pacers;
	uint64_t pool_empty;        /* bursts that found the pool empty */
	struct sl_pace_totals pace; /* its queues' */
	struct sl_rate pace_rate;   /* the rate its pacers hold it to (NONE: unpaced) */
};

/* Stream s at receiving port r: the analyzer's figures, its latency histogram. */
struct sl_results_rx {
	bool on;                    /* r receives and knows s */
	struct sl_rx_stream_stats st;
	uint64_t *hist;             /* SL_HIST_BUCKETS, when st.rx != 0; else NULL */
};

struct sl_results {
	const struct sl_run_desc *desc; /* the run's description (held: never NULL) */
	bool running;
	uint64_t hz, start_tsc, end_tsc, now_tsc;
	uint64_t now_unix_ns;       /* the wall clock when now_tsc was read (sl_results_unix_ns()) */
	uint64_t anchor_tsc, anchor_unix_ns; /* both read together at the run's start (0: none) */
	double elapsed_s;           /* the run's seconds (until now while running) */
	uint64_t pool_in_use, discarded;
	uint64_t gen_first_tsc, gen_last_tsc; /* the workers' first send to their last (0: none) */
	uint16_t nb_ports;
	struct sl_results_port port[SL_MAX_PORTS];
	struct sl_port_totals total;
	struct sl_pace_totals pace;     /* the ports' */
	uint16_t nb_txq;
	struct sl_results_txq *txq;
	/* The streams (s) at the receiving ports (r): rx[s * nb_ports + r]. */
	struct sl_results_rx *rx;
	uint64_t unique[SL_MAX_PORTS];  /* distinct frames of s over every receiving port */
	bool seen[SL_MAX_PORTS];        /* s arrived somewhere */
	bool measured[SL_MAX_PORTS];    /* s is judged (sl_results_take()) */
	bool rx_any;                    /* some port receives */
	unsigned int nb_measured, not_conserved;
	uint64_t lost;                  /* over the measured streams */
	bool all_arrived;               /* every measured stream arrived whole */
	/*
	 * The run's streams (the flows) by id: the port-level records above
	 * (rx[], unique[]) are the sums of each port's streams.
	 */
	uint16_t nb_flows;
	bool table;                     /* the streams are a flow table's (else one per port) */
	struct sl_results_flow *flow;
	struct sl_results_rx *frx;      /* flow f at receiving port r: frx[f * nb_ports + r] */
	/* The devices (run/ctl.h) as they are now: their neighbours and counters. */
	uint16_t nb_dev;
	struct sl_dev_state *dev;
};

/*
 * Read the run's counters into a new snapshot (NULL: out of memory), on
 * the main lcore's thread (no other reads the run). Free it with
 * sl_results_free().
 */
struct sl_results *sl_results_take(const struct sl_app *app);
/* The same without the latency histograms (cheaper: a drain's check, a live line). */
struct sl_results *sl_results_take_opt(const struct sl_app *app, bool hist);
void sl_results_free(struct sl_results *r);
/*
 * A TSC reading of this run (a frame's arrival) on the wall clock, ns since
 * the epoch: between the pairs read at the run's start and at the snapshot,
 * exact at both ends, so a reading moves from one snapshot to the next only
 * by the wall clock's slew (NTP), not by the TSC rate's error.
 */
static inline double
sl_results_unix_ns(const struct sl_results *r, uint64_t tsc)
{
	if (r->anchor_tsc == 0 || r->now_tsc <= r->anchor_tsc)
		return (double)r->now_unix_ns - ((double)r->now_tsc - (double)tsc) * 1e9 /
		       (double)r->hz;
	return (double)r->anchor_unix_ns + ((double)tsc - (double)r->anchor_tsc) *
	       ((double)r->now_unix_ns - (double)r->anchor_unix_ns) /
	       ((double)r->now_tsc - (double)r->anchor_tsc);
}
/* Add a stream's figures at a port into a sum of streams (jitter: the worst). */
void sl_results_stats_add(struct sl_rx_stream_stats *d, const struct sl_rx_stream_stats *x);
/* The counter views of port pid count from zero again, now (clear port stats). */
void sl_results_clear(struct sl_app *app, uint16_t pid);

#endif /* SL_SNAPSHOT_H */
