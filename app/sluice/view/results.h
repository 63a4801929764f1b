/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_RESULTS_H
#define SL_RESULTS_H

/*
 * Reading a results snapshot (run/snapshot.h): a stream's or a flow's
 * figures where they arrived. Pure functions of the snapshot.
 */

#include <stdint.h>

#include "snapshot.h"

/* Stream s's results at receiving port r (-1: over every port, its rx figures zero). */
void sl_results_stream(const struct sl_results *r, uint16_t s, int rx_port,
		       struct sl_stream_result *res);
/* Stream s at receiving port rx_port: its record (NULL if that port does not receive). */
const struct sl_results_rx *sl_results_rx(const struct sl_results *r, uint16_t s, uint16_t rx_port);
/*
 * fn for each stream record the views list: stream s at every receiving
 * port where it arrived, or, measured but arrived nowhere, at none (rx_port -1).
 */
void sl_results_streams(const struct sl_results *r,
			void (*fn)(const struct sl_stream_result *res, void *arg), void *arg);

/* Flow f at receiving port r: its record (NULL if that port does not receive it). */
const struct sl_results_rx *sl_results_flow_rx(const struct sl_results *r, uint16_t f, uint16_t rx_port);

/* Flow f's receive-side figures summed over every port where it arrived (jitter: the worst). */
void sl_results_flow_sum(const struct sl_results *r, uint16_t f, struct sl_rx_stream_stats *sum);

#endif /* SL_RESULTS_H */
