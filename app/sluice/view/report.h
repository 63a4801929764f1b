/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_REPORT_H
#define SL_REPORT_H

/* What the user sees of a run: queue modes, live lines, the summary, the JSON. */

#include "counters.h"
#include "app.h"

/* Totals of one port, and of all ports. Readable while running (relaxed). */
void sl_report_port_totals(const struct sl_app *app, uint16_t pid, struct sl_port_totals *pt);
void sl_report_totals(const struct sl_app *app, struct sl_port_totals *all);
/* A port's totals since its last clear port stats (the counter views; gauges as they are). */
void sl_report_port_view(const struct sl_app *app, uint16_t pid, struct sl_port_totals *pt);
/* The counter views of port pid count from zero again, now. */
void sl_report_clear(struct sl_app *app, uint16_t pid);
/*
 * Rates of pkts/bytes over s seconds, scaled for display, in fixed widths:
 * "  1.000 Mpps 672.000 Mb/s L1 512.000 Mb/s L2 (6.7% of line)" (L2 if asked;
 * without it, the short form "(6.7%)"; the % only where the rate is within the
 * port's stated speed).
 */
void sl_report_rates(char *buf, size_t len, uint64_t pkts, uint64_t bytes, double s,
		     uint64_t speed_bps, bool l2);
/* Packets the workers handed to queue q (their generated counters). */
uint64_t sl_report_txq_generated(const struct sl_app *app, const struct sl_txq *q);
/* "1,2" */
void sl_report_lcores(char *buf, size_t len, const struct sl_app_txq *aq);
/* The seconds the run lasted (until now while running). */
double sl_report_elapsed(const struct sl_app *app);

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
/* Receiving port r's counters: the analyzer's (zero if it has none) and the device's drops. */
void sl_report_rx_port(const struct sl_app *app, uint16_t r, struct sl_rx_port_stats *rs,
		       struct sl_port_rx_drops *dr);
/* Stream s's results at receiving port r (r has an analyzer), or at none (r -1). */
void sl_report_stream(const struct sl_app *app, uint16_t s, int r, struct sl_stream_result *res);
/*
 * fn for each stream record the JSON summary lists: stream s at every
 * receiving port where it arrived, or, measured but arrived nowhere, at none
 * (rx_port -1).
 */
void sl_report_streams(const struct sl_app *app,
		       void (*fn)(const struct sl_app *app, const struct sl_stream_result *res,
				  void *arg),
		       void *arg);
/* Every stream seen anywhere, or addressed to a receiving port, has arrived whole. */
bool sl_report_all_arrived(const struct sl_app *app);
/* Frames lost over all measured streams (after the drain: the run's verdict). */
uint64_t sl_report_lost(const struct sl_app *app);
/* Streams measured, and how many received more distinct frames than were sent. */
unsigned int sl_report_measured(const struct sl_app *app, unsigned int *not_conserved);

void sl_report_modes(const struct sl_app *app);
void sl_report_live(struct sl_app *app, double elapsed);
void sl_report_summary(const struct sl_app *app);
/* The summary as JSON at path; its "config" is cfg (the run's, or what a benchmark was given). */
int sl_report_json(const struct sl_app *app, const struct sl_config *cfg, const char *path);

#endif /* SL_REPORT_H */
