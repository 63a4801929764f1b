/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_SESSION_H
#define SL_SESSION_H

/*
 * The run session: the one place where a run is built, driven and ended.
 * main.c, the prompt, -a and --cmdline-file all use these calls, so the
 * loop and the stop-and-report sequence exist once.
 *
 *   sl_session_open()   ports and telemetry, once at program start
 *   sl_session_start()  build a run from the options and launch it
 *   sl_session_poll()   one turn of the main lcore; false when the run is done
 *                       (a timer of the main lcore's loop: sl_session_loop())
 *   sl_session_wait()   run the loop until done (a non-interactive run, a trial)
 *   sl_session_stop()   stop, quiesce, report, write --json
 *   sl_session_close()  at exit
 *
 * Teardown, in this order and nowhere else:
 *   stop:    1. raise the stop flag, wait for the workers (TX and RX);
 *            2. quiesce: send the engine's backlogs while receiving (a loopback
 *               empties only as fast as it is received), flush what is left
 *               (counted as dropped), let each driver finish what it took;
 *            3. the run's end time (rates divide by start..end);
 *            4. drain: the main lcore keeps receiving on every receiving port
 *               for --drain (less once every frame sent has arrived);
 *            5. stop the devices (frees what their descriptors hold);
 *            6. count the mbufs not back in their pools;
 *            7. the summary and the JSON.
 *   release: 8. (at the next start or at close) free the
 *               queue objects, the analyzers, the workers and their pools.
 *   close:   9. release, then close every port.
 * A run stays inspectable (show, telemetry) from stop until its release.
 *
 * Only the main lcore's thread reads a run's objects: telemetry (another
 * thread) reads a snapshot its loop publishes (view/telemetry.c).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_lcore.h>
#include <pthread.h>

#include "app.h"

/*
 * The main lcore's turn during a run (the shared queues' poll, the display,
 * the stop), microseconds between turns. It often shares a CPU with a
 * worker, which each turn preempts: at 200 us the wake-ups caught a holder
 * of a shared queue's lock often enough that 2 to 6 % of the packets were
 * handed over on net_null (docs/lltx.md); at 1 ms, about a third as many.
 */
/*
 * A run's window opens this long after its start is asked: its workers are
 * launched and woken meanwhile, and wait for it (a worker on an idle CPU
 * wakes in tens of microseconds; on a VM, now and then in a millisecond).
 */
#define SL_SESSION_LEAD_US 2000
#define SL_SESSION_POLL_US 1000
/*
 * The drain (step 4) goes on past --drain while the run's own frames still
 * arrive: until none came for SL_DRAIN_QUIET_US (or three of the run's
 * frame intervals, if longer), at most SL_DRAIN_MORE_US.
 */
#define SL_DRAIN_QUIET_US 20000
#define SL_DRAIN_MORE_US 2000000

/* The run's turn while nothing runs (a start makes it due at once). */
#define SL_SESSION_IDLE_US 50000

/* Open the ports; 0, or an exit code (message printed). */
int sl_session_open(struct sl_app *app);
/*
 * Build a run from configuration c (copied: app->ses.run_cfg) and launch it;
 * quiet: a benchmark's trial (no live line, no summary, no JSON). 0;
 * -EINVAL for a configuration that cannot run (its message printed,
 * nothing left half-built), another -errno for a runtime failure.
 */
int sl_session_start(struct sl_app *app, const struct sl_config *c, bool quiet);
/* One turn: the scheduler poll and live stats. False when the run is done. */
bool sl_session_poll(struct sl_app *app);
/*
 * The run's turn on the main lcore's loop: a timer of l that polls the run
 * (sl_session_poll()) and, when it is done, calls the function given to
 * sl_session_on_end() after its start. 0, or -ENOSPC.
 */
int sl_session_loop(struct sl_app *app, struct sl_loop *l);
/* After a start: fn(app, arg) is called on the loop when the run is done; it stops it. */
void sl_session_on_end(struct sl_app *app, sl_run_end_fn *fn, void *arg);
/*
 * Run the loop until the run is done (duration, count, or a signal), the
 * caller then stops it; without a loop (a harness), poll until then.
 */
void sl_session_wait(struct sl_app *app);
/* Stop, quiesce, report and write --json; returns SL_EXIT_OK or SL_EXIT_RUNTIME. */
int sl_session_stop(struct sl_app *app);
/* Start app->cfg, wait, stop: one non-interactive run; returns the exit code. */
int sl_session_run(struct sl_app *app);
/* Release the last run and close the ports. */
void sl_session_close(struct sl_app *app);

/* The MTU port pid runs with in the configuration in force: its setting, else the port's own. */
uint16_t sl_session_mtu(const struct sl_app *app, uint16_t pid);
/* The largest frame (with FCS) port pid sends at that MTU, @p tagged with a VLAN tag. */
uint32_t sl_session_max_frame(const struct sl_app *app, uint16_t pid, bool tagged);
/* The machine's facts as they are now (the ports' MTUs change with a run's setup). */
const struct sl_config_env *sl_session_env(struct sl_app *app);
/*
 * Check a candidate configuration against the ports as a start would
 * (sl_config_check()): every front end checks its candidate with it before
 * it commits it (assigns it to app->cfg).
 */
int sl_session_check(struct sl_app *app, const struct sl_config *c, unsigned int what,
		     struct sl_config_err *e);

/*
 * Change port pid's rate while running (set rate): checked as a start
 * would (against the run's configuration), shared equally by the port's lcore-queue pairs, each of which takes
 * it at its next burst. 0, or -EINVAL with err saying why (nothing changed).
 * With !publish, only checked (so that several ports are checked before any
 * of them changes).
 */
int sl_session_rate_live(struct sl_app *app, uint16_t pid, const struct sl_rate *r, bool publish,
			 char *err, size_t len);

/*
 * Hold stream id of the run (app->ses.hold_ctl set before its start):
 * SL_HOLD_PAUSE, SL_HOLD_NONE (resume) or SL_HOLD_STOP (its share ends; it
 * cannot send again in this run). 0; -EINVAL (no such run or stream);
 * -EALREADY (stopped: only a new run starts it again).
 */
int sl_session_hold(struct sl_app *app, uint16_t id, uint8_t h);

/* Each stream's transmit state now (st: nb_streams entries). */
enum { SL_TX_STOPPED = 0, SL_TX_STARTED, SL_TX_PAUSED };
void sl_session_tx_states(const struct sl_app *app, uint8_t *st);

#endif /* SL_SESSION_H */
