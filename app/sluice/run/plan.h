/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_PLAN_H
#define SL_PLAN_H

/*
 * The plan of a run, in the order the session builds it (session.h), from
 * the run's checked configuration (app->ses.run_cfg) and the ports:
 *
 *   sl_plan_compile()  the configuration checked whole, its streams (the flow
 *                      table's flows, or each port's default flow) compiled
 *                      by the check where the run keeps them
 *   sl_plan_map()      lcores -> port.queue: each queue's lcores, each port's
 *                      queue count (a NUMA mismatch is said once per pair)
 *   sl_plan_streams()  each stream's source row, and what the row loads (a
 *                      replay's capture) (sl_plan_streams_free())
 *   (the session sets the ports up and creates their queue objects)
 *   sl_plan_workers()  each worker's targets: queue, generator (its share of
 *                      the stream's order), pacer (its share of the rate),
 *                      share of --count; a pool per (lcore, port)
 *   sl_plan_rx()       an analyzer per receiving port, and the lcore that
 *                      polls it
 *
 * Each returns 0, or -errno with its message printed (sl_plan_compile():
 * in @p e); what it built is freed by the session's release.
 */

#include "app.h"

int sl_plan_compile(struct sl_app *app, const struct sl_config *c, struct sl_config_err *e);
void sl_plan_map(struct sl_app *app);
int sl_plan_streams(struct sl_app *app);
void sl_plan_streams_free(struct sl_app *app);
int sl_plan_workers(struct sl_app *app);
int sl_plan_rx(struct sl_app *app);
/* Fill app->ses.addressed for configuration c: port t's flow goes to port r. */
void sl_plan_address(struct sl_app *app, const struct sl_config *c);
/* Mbufs out of the run's TX pools now (in rings, backlogs, pending bursts); 0 without a run. */
uint64_t sl_plan_pool_in_use(const struct sl_app *app);

#endif /* SL_PLAN_H */
