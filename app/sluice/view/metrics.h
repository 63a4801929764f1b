/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_METRICS_H
#define SL_METRICS_H

/*
 * Prometheus / OpenMetrics: every counter of the tables in counters.h (port,
 * receiving port, TX queue, stream), named sluice_[SCOPE_]NAME[_UNIT][_total]
 * with their help text and unit, served on GET /metrics by --metrics
 * [ADDR:]PORT (lib/web, on the main lcore's loop) and on the API's address,
 * and printed by the prompt's show metrics.
 */

#include <stdbool.h>
#include <stdio.h>

struct sl_app;
struct sl_results;
struct sl_web_req;
struct sl_web_reply;

/*
 * Write the exposition of a results snapshot to f: OpenMetrics 1.0 (with
 * # UNIT and # EOF), or the Prometheus text format 0.0.4 (the ports' names
 * from app).
 */
void sl_metrics_write(const struct sl_app *app, const struct sl_results *r, FILE *f,
		      bool openmetrics);
/*
 * --metrics given: listen and serve; prints the URL. 0, or SL_EXIT_RUNTIME
 * with one message saying what to do (the address is in use, not ours).
 */
int sl_metrics_start(struct sl_app *app);
/*
 * The exposition now (OpenMetrics if om, else text 0.0.4), from a results
 * snapshot: on the loop's thread. malloc'd, or NULL.
 */
char *sl_metrics_body(struct sl_app *app, bool om, size_t *len);
/* The GET /metrics route of a lib/web server whose arg is the app (Accept: OpenMetrics). */
void sl_metrics_route(void *arg, const struct sl_web_req *q, struct sl_web_reply *r);
/* Stop serving (at exit, before the run is released); a no-op without --metrics. */
void sl_metrics_stop(void);

#endif /* SL_METRICS_H */
