/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_LOOP_H
#define SL_LOOP_H

/**
 * @file
 * One event loop, as Redis's ae.c has it: file events (poll()), timers, and
 * one step before each sleep, all run on the thread that runs the loop.
 * Signals reach it through a self-pipe: a handler calls sl_loop_notify()
 * (async-signal-safe) and the loop wakes up and calls its notify function
 * on its own thread. No EAL: the clock is CLOCK_MONOTONIC.
 *
 * Handlers may add and delete file events and timers, their own included,
 * and may stop the loop, or run it (a wait inside a handler): a timer is
 * not run again while its handler runs. A loop is used by one thread; only
 * sl_loop_notify() may be called from elsewhere (a signal handler, another
 * thread).
 */

#include <stdbool.h>
#include <stdint.h>

#define SL_LOOP_READ 1u
#define SL_LOOP_WRITE 2u
/** At most this many file events and timers. */
#define SL_LOOP_MAX_FILES 16
#define SL_LOOP_MAX_TIMERS 16
/** A timer function's answer: do not run again. */
#define SL_LOOP_NOMORE (-1)

struct sl_loop;

/** A file event: fd is ready for @p events (SL_LOOP_READ, SL_LOOP_WRITE; a hang-up reads). */
typedef void sl_loop_file_fn(struct sl_loop *l, int fd, unsigned int events, void *arg);
/** A timer: returns the microseconds until it runs again, or SL_LOOP_NOMORE. */
typedef int64_t sl_loop_timer_fn(struct sl_loop *l, void *arg);
/** The step before each sleep, and the notify function. */
typedef void sl_loop_step_fn(struct sl_loop *l, void *arg);

/** A loop; NULL if out of memory or file descriptors (errno set). */
struct sl_loop *sl_loop_create(void);
void sl_loop_free(struct sl_loop *l);

/** Watch fd for events (replacing what was watched on it). 0, or -ENOSPC. */
int sl_loop_file_add(struct sl_loop *l, int fd, unsigned int events, sl_loop_file_fn *fn,
		     void *arg);
/** Stop watching fd (nothing if it was not watched). */
void sl_loop_file_del(struct sl_loop *l, int fd);

/** Run fn in delay_us microseconds (then as it answers). A timer id (> 0), or -ENOSPC. */
long sl_loop_timer_add(struct sl_loop *l, uint64_t delay_us, sl_loop_timer_fn *fn, void *arg);
/** Make timer id due in delay_us (0: at the next turn). */
void sl_loop_timer_set(struct sl_loop *l, long id, uint64_t delay_us);
void sl_loop_timer_del(struct sl_loop *l, long id);

/** The step run before each sleep (NULL: none). */
void sl_loop_before_sleep(struct sl_loop *l, sl_loop_step_fn *fn, void *arg);
/** What runs on the loop's thread after sl_loop_notify() (NULL: only the wake-up). */
void sl_loop_on_notify(struct sl_loop *l, sl_loop_step_fn *fn, void *arg);
/** Wake the loop up and have it run its notify function: async-signal-safe. */
void sl_loop_notify(struct sl_loop *l);

/**
 * One turn: the before-sleep step, a sleep until an event, the next timer
 * or @p max_wait_us (whichever is first), then the ready file events and
 * the due timers. Returns the number of handlers run.
 */
int sl_loop_once(struct sl_loop *l, uint64_t max_wait_us);
/**
 * Turns until sl_loop_stop() (or until @p until returns true, if not NULL).
 * A handler may run the loop again (a wait inside a command): a stop ends
 * every run in progress, the outer ones too.
 */
void sl_loop_run(struct sl_loop *l, bool (*until)(void *arg), void *arg);
/** End sl_loop_run(), every one in progress, after the current turn. */
void sl_loop_stop(struct sl_loop *l);
/** Microseconds on the loop's clock (monotonic). */
uint64_t sl_loop_now_us(void);

#endif /* SL_LOOP_H */
