/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_SOURCE_H
#define SL_SOURCE_H

/*
 * Traffic sources: what makes a stream's frames, one row of this table per
 * kind, as testpmd's forwarding engines are. The check compiles every
 * stream (sl_config_compile()); the plan asks each stream's row to load
 * what it sends beside that and to attach it to each lcore-queue pair that
 * sends it (a target); the worker calls the row's burst; the session detaches
 * and forgets it. Rows: generated flows (source_gen.c), replay
 * (source_replay.c); the control traffic of devices and stateful traffic
 * are to be rows of their own. Nothing outside a row's file knows its kind.
 */

#include <stdbool.h>
#include <stdint.h>

struct sl_app;
struct sl_stream;
struct sl_target;
struct sl_worker;
struct sl_config;

struct sl_source {
	const char *name;
	/* Is stream id of configuration o this kind's? (The last row takes every stream.) */
	bool (*claims)(const struct sl_config *o, uint16_t id);
	/* Plan: what the row sends beside stream id as the check compiled it
	 * into s (a replay: its capture, s re-laid to the capture's largest
	 * frame); NULL: s as compiled. 0, or -errno with the message printed. */
	int (*load)(struct sl_app *app, uint16_t id, struct sl_stream *s);
	/* Release: free what load kept (NULL: nothing). */
	void (*forget)(struct sl_app *app, uint16_t id);
	/* Plan: target t is pair k of the P that send stream id (its queue,
	 * generator, count and window already set): its share, its pacing; 0 or
	 * -errno with the message printed. */
	int (*attach)(struct sl_app *app, struct sl_target *t, uint16_t id, uint64_t k,
		      uint64_t P);
	/* Release: free what attach gave t (NULL: nothing). */
	void (*detach)(struct sl_target *t);
	/*
	 * Worker: make one burst behind t's pending frames, what is due at tsc,
	 * at most the worker's burst and what is left of the quota. Returns
	 * how many; 0 when none is due yet; -1 when the pool is empty (counted
	 * in pool_empty once per episode; the frames still due).
	 */
	int (*burst)(struct sl_worker *w, struct sl_target *t, uint64_t tsc);
	/* Worker: released from a pause of @p paused TSC cycles (NULL: nothing
	 * more than its pacer starting again). */
	void (*resume)(struct sl_target *t, uint64_t paused);
	/* Its pacer schedules its frames, so at the window's end the frames due
	 * before it are made (worker_last); else its own schedule does. */
	bool paced;
	/* Its frames keep bytes of their own past the headers: beside generated
	 * streams on a port, it takes a pool of its own. */
	bool own_pool;
};

extern const struct sl_source sl_source_gen;
extern const struct sl_source sl_source_replay;

/* Stream id's row. */
const struct sl_source *sl_source_of(const struct sl_config *o, uint16_t id);

#endif /* SL_SOURCE_H */
