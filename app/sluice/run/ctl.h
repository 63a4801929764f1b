/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_CTL_H
#define SL_CTL_H

/*
 * The control plane: the devices (emulated hosts, lib/dev) of the
 * configuration in force, driven by one timer of the main lcore's loop.
 *
 * Between runs, a port with devices is set up by the control plane alone
 * (one TX queue, RX queue 0, promiscuous) and its turn polls it: frames in,
 * answers and requests out through the driver call directly (nobody else
 * sends). During a run the run owns the ports: the RX lcore of a port with
 * devices hands the frames that are not test frames and that a device may
 * answer (sl_dev_wants()) to a ring of the port (single producer, single
 * consumer: the main lcore), and the main lcore sends through the engine on
 * the port's queue 0, one more producer there (the queue is shared when a
 * worker sends on it too: locked or LLTX, never waited on).
 *
 * Counted apart from the run's traffic: the frames the control plane sent
 * are in the port's tx counters and, so that generated = tx + dropped +
 * backlog still holds, in its generated count (sl_ctl_sent()).
 */

#include <stdbool.h>
#include <stdint.h>

#include "app.h"
#include "sl_dev.h"

/* The control plane's turn, microseconds, while devices exist (else SL_CTL_IDLE_US). */
#define SL_CTL_TURN_US 1000
#define SL_CTL_IDLE_US 100000
/* A start waits this long at most for the next hops of flows between devices. */
#define SL_CTL_RESOLVE_US 3500000

/* The control plane's counters of one port. */
struct sl_ctl_port_stats {
	uint64_t rx;         /* frames handed to the devices */
	uint64_t sent;       /* frames the devices sent (taken by the driver or the engine) */
	uint64_t unsent;     /* built but not taken (a full ring, a full backlog): freed */
	uint64_t ring_full;  /* frames the RX lcore could not hand over (during runs) */
};

/* Create the control plane and its timer on the loop (NULL: none). 0, or -ENOMEM. */
int sl_ctl_open(struct sl_app *app);
/* Its turn: a timer of loop l. 0, or -ENOSPC. */
int sl_ctl_loop(struct sl_app *app, struct sl_loop *l);
/* Stop what it set up and free it. */
void sl_ctl_close(struct sl_app *app);
/* One turn: follow the configuration's devices, receive, answer, resolve. */
void sl_ctl_poll(struct sl_app *app);
/*
 * A run of configuration c takes the ports: c's devices applied, the ports
 * the control plane set up stopped (the run sets them up again), its rings
 * emptied. Called by the start.
 */
void sl_ctl_run_begin(struct sl_app *app, const struct sl_config *c);
/*
 * The run has stopped its workers (and again after the drain, whose polls
 * may hand over more): what is in the rings is answered now, a ring at
 * most, the rest freed; the rings are empty after it.
 */
void sl_ctl_run_end(struct sl_app *app);
/* Port pid's ring for its RX lcore during a run, or NULL (no device on it). */
struct rte_ring *sl_ctl_ring(const struct sl_app *app, uint16_t pid);
/* The devices and what they learned (NULL: the control plane is not open). */
const struct sl_dev_table *sl_ctl_table(const struct sl_app *app);
/* Forget every resolved neighbour: asked again at the next turn. */
void sl_ctl_clear(struct sl_app *app);
/*
 * Before a start of configuration c: turn the control plane until every
 * flow between devices knows its next hop, SL_CTL_RESOLVE_US at most (the
 * check then says which is missing). Returns at once when none is missing;
 * says it waits unless @p quiet (a benchmark's trial).
 */
void sl_ctl_resolve(struct sl_app *app, const struct sl_config *c, bool quiet);
/* Is a next hop of a flow between devices of c unknown yet? */
bool sl_ctl_unresolved(struct sl_app *app, const struct sl_config *c);
/* Port pid's counters. */
void sl_ctl_port_stats(const struct sl_app *app, uint16_t pid, struct sl_ctl_port_stats *st);
/* Frames the control plane handed to the engine on port pid in the current run. */
uint64_t sl_ctl_sent(const struct sl_app *app, uint16_t pid);

#endif /* SL_CTL_H */
