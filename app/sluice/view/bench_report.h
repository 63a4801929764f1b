/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_BENCH_REPORT_H
#define SL_BENCH_REPORT_H

/*
 * A benchmark's record and its views: the progress line's outcome of a
 * trial, the results table (show bench, the end of a benchmark) and the
 * JSON's bench object. The benchmark (front/bench.c) fills the record as
 * its trials end; these only read it.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sl_bench.h"
#include "sl_config.h"
#include "sl_rate.h"
#include "sl_stats.h"

/* The latency trials: at 0 (the search's minimum), 10, 50 and 90 % of the last goal's result. */
#define SL_BENCH_NB_LAT 4

struct sl_bench_lat {
	bool valid;
	uint64_t min, p50, p90, p99, p99_9, max;
	uint64_t backwards;         /* arrived before they were sent, by the clocks */
	double mean;
};

/* One direction of a trial: what one sending port's stream did. */
struct sl_bench_dir {
	uint16_t tx_port;
	int rx_port;                /* -1: nowhere it could be counted */
	uint64_t tx, rx, lost;
	struct sl_bench_lat lat;
};

struct sl_bench_trial {
	unsigned int size;          /* index in results */
	const char *kind;           /* "search", "final", "latency", "trial" */
	unsigned int goal;
	double load;                /* pps per port, asked */
	double paced;               /* pps per port the pacer was set to (load / compensation) */
	double duration_s;          /* asked */
	bool fell_short;            /* the generator offered less than the load (lib/bench's
				       tolerance): a lower bound counts at what it offered */
	bool interrupted;           /* stopped before its end: shown, not counted */
	double lag_max_us;          /* the most its pacers ran late */
	double behind_max_us;       /* the most of their schedule one was behind at once (what
				       it made up at once and what it owed): they never run
				       ahead of it, so the DUT met at most behind_max_us x paced
				       frames above the load */
	double offered_pps, tx_pps, rx_pps, fwd_pps, loss_ratio, eff_s;
	uint64_t tx, rx, lost, dropped, backlog, rx_drops;
	uint64_t let_go_frames, let_go_ns; /* what its pacers let go (its sending ports') */
	uint64_t asked, unsent;     /* what their rates asked over the window; made, never sent */
	struct sl_bench_lat lat;
	double lo, hi;              /* the search's bounds after this trial (goal) */
	double counted;             /* the load it counted at (0: not counted: interrupted, or
				       a stall run again) */
	unsigned int nb_dirs;       /* sending ports, in port order */
	struct sl_bench_dir dirs[SL_MAX_PORTS];
};

struct sl_bench_size {
	char name[16];              /* "64", "imix" */
	double mean_l1;             /* bits per frame on the wire */
	double line_pps;            /* aggregate line rate, pps */
	unsigned int nb_tx;         /* sending ports */
	/* per goal: sl_search_result() (per sending port) */
	struct sl_bench_result goal[SL_BENCH_MAX_GOALS];
	bool gen_limited, done;
	double gen_ceiling;         /* per port: what the generator achieved at its ceiling */
	unsigned int trials, shorts; /* the search's trials, those short of their load */
	double spent_s;             /* the search's trial time */
	const char *why;            /* why the search ended early; NULL: it did not */
	struct sl_bench_lat lat[SL_BENCH_NB_LAT];
	double lat_load[SL_BENCH_NB_LAT];
	unsigned int lat_trial[SL_BENCH_NB_LAT]; /* the latency trials (their directions) */
};

/* A benchmark as its views read it. */
struct sl_bench_record {
	const char *method;          /* "mlr", "rfc2544", or "trial" (bench trial) */
	bool single;                 /* bench trial: trials at a load, no search */
	bool interrupted;
	const struct sl_bench_params *p;
	struct sl_rate load;         /* bench trial: load= per port, or total= */
	bool load_total;
	double trial_s, lat_s;
	const struct sl_bench_trial *trials;
	unsigned int nb_trials;
	const struct sl_bench_size *res;
	unsigned int nb_sizes;
};

/* The latency trials' names: "0%", "10%", "50%", "90%". */
extern const char *const sl_bench_lat_names[SL_BENCH_NB_LAT];

/* A goal's column title: rfc2544's one goal is the throughput. */
const char *sl_bench_report_goal(const struct sl_bench_record *b, unsigned int g);
/* A trial's outcome on its progress line (after "..."). */
void sl_bench_report_outcome(const struct sl_bench_trial *t, unsigned int nb_tx);
/* The results per size (bench trial: each trial's measures). */
void sl_bench_report_table(const struct sl_bench_record *b);
/* The JSON's "bench" object. */
void sl_bench_report_json(struct sl_json *j, const struct sl_bench_record *b);

#endif /* SL_BENCH_REPORT_H */
