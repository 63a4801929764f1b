/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_APP_BENCH_H
#define SL_APP_BENCH_H

/*
 * Benchmarks (docs/benchmarking.md): the trial (RFC 9971's measurer) on the
 * run session, and the searches of lib/bench run per frame size, then the
 * latency trials; the results kept for show bench and the JSON.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sl_bench.h"
#include "sl_rate.h"
#include "sl_stats.h"

struct sl_app;

/* The user's request: --bench SPEC or `bench METHOD [PARAMS]`. */
struct sl_bench_conf {
	struct sl_bench_params p;   /* min_load/max_load resolved per size from the rates */
	struct sl_rate min, max;    /* per sending port; PPS, L1, L2 or PCT */
	double lat_s;               /* each latency trial */
	double trial_s;             /* --bench trial=S: every trial this long (tests) */
	char sizes[128];            /* "64:128:imix"; "" : --size as given */
	bool tx[32];                /* sending ports (tx=0:1); none set: every port not stopped */
	bool tx_given;
	/* bench trial: one trial per size at a load, no search (RFC 9971's measurer). */
	bool single;
	struct sl_rate load;        /* load=: per sending port; total=: over them all */
	bool load_total;
};

/*
 * Parse "mlr|rfc2544[,key=value...]" (the option), or METHOD and the comma
 * list (the prompt); 0, or -EINVAL with err naming the key.
 */
int sl_bench_parse(const char *method, const char *params, struct sl_bench_conf *c, char *err,
		   size_t len);
/*
 * Start the benchmark: check (exit 2 on bad input: nothing started, done
 * not called), then its first trial; the main lcore's loop steps the rest
 * (every size's search, the latency trials, the table, --json), and
 * done(app, exit code, arg) is called at its end. SL_EXIT_OK once started.
 */
int sl_bench_start(struct sl_app *app, const struct sl_bench_conf *c,
		   void (*done)(struct sl_app *app, int code, void *arg), void *arg);
/* Start it and run the loop until it ends (--bench, a profile, piped input): an exit code. */
int sl_bench_run(struct sl_app *app, const struct sl_bench_conf *c);
/* A benchmark is running (between its start and its end). */
bool sl_bench_busy(void);
/* End the running benchmark as Ctrl-C does: the trial in flight shown, not counted. */
void sl_bench_stop(void);
/* show bench: the state of the last or running benchmark. */
void sl_bench_show(void);
/* The `bench` object of the JSON (nothing if no benchmark ran). */
void sl_bench_json(struct sl_json *j);

#endif /* SL_APP_BENCH_H */
