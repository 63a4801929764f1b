/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_REPORT_H
#define SL_REPORT_H

/*
 * What the user sees of a run: queue modes, live lines, the summary, the
 * JSON. Each renders a results snapshot (results.h), the run's description
 * it holds included, and nothing else of the program.
 */

#include "app.h"
#include "counters.h"
#include "results.h"

/*
 * Rates of pkts/bytes over s seconds, scaled for display, in fixed widths:
 * "  1.000 Mpps 672.000 Mb/s L1 512.000 Mb/s L2 (6.7% of line)" (L2 if asked;
 * without it, the short form "(6.7%)"; the % only where the rate is within the
 * port's stated speed).
 */
void sl_report_rates(char *buf, size_t len, uint64_t pkts, uint64_t bytes, double s,
		     uint64_t speed_bps, bool l2);

/* At start: each port's queues, their modes and lcores, its receive side. */
void sl_report_modes(const struct sl_results *r);
/* The live line: rates since the last one (lv keeps the counters at it). */
void sl_report_live(struct sl_live *lv, const struct sl_results *r, double elapsed);
void sl_report_summary(const struct sl_results *r);
/*
 * The summary as JSON at path; its "config" is cfg (the run's, r->desc->cfg,
 * or what a benchmark was given); extra (or NULL) adds a section at its end.
 */
int sl_report_json(const struct sl_results *r, const struct sl_config *cfg, const char *path,
		   void (*extra)(struct sl_json *j));

/* The run's views as the session calls them: modes, live, and summary + --json at the end. */
extern const struct sl_run_show sl_report_show;

#endif /* SL_REPORT_H */
