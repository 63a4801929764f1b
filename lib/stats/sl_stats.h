/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_STATS_H
#define SL_STATS_H

/**
 * @file
 * Per-lcore counters and the JSON writer used for summaries.
 *
 * Counters follow one rule everywhere in Sluice: each counter has exactly one
 * writer (the lcore that owns the cache line it sits on); readers on other
 * lcores use relaxed atomic loads and sum over lcores. A relaxed load of a
 * single-writer 64-bit counter never tears on the platforms DPDK supports and
 * may lag the writer by a few increments, which is all a rate display needs.
 * Totals that must be exact (the conservation check) are read after the
 * writers have stopped, when rte_eal_wait_lcore() has ordered their stores.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

/** Add @p v to a single-writer counter (writer side; plain add, no lock prefix). */
#define SL_CNT_ADD(c, v) __atomic_store_n(&(c), (c) + (v), __ATOMIC_RELAXED)
/** Read a counter written by another lcore. */
#define SL_CNT_READ(c) __atomic_load_n(&(c), __ATOMIC_RELAXED)

/** A streaming JSON writer: commas and nesting are handled for the caller. */
struct sl_json {
	FILE *f;
	int depth;
	bool need_comma[16];
};

void sl_json_begin(struct sl_json *j, FILE *f);
/** Open an object; @p key is NULL inside an array or at top level. */
void sl_json_obj_open(struct sl_json *j, const char *key);
void sl_json_obj_close(struct sl_json *j);
void sl_json_arr_open(struct sl_json *j, const char *key);
void sl_json_arr_close(struct sl_json *j);
void sl_json_u64(struct sl_json *j, const char *key, uint64_t v);
void sl_json_i64(struct sl_json *j, const char *key, int64_t v);
void sl_json_dbl(struct sl_json *j, const char *key, double v);
void sl_json_str(struct sl_json *j, const char *key, const char *v);
void sl_json_bool(struct sl_json *j, const char *key, bool v);
/** End the document; returns 0, or -1 if any write to the stream failed. */
int sl_json_end(struct sl_json *j);

#endif /* SL_STATS_H */
