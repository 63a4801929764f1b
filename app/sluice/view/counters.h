/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_COUNTERS_H
#define SL_COUNTERS_H

/*
 * The counters users see, described once: name (the JSON and telemetry
 * key), the word or column head in the summary and in show txq stats, what
 * it means and where it comes from, and its unit. The JSON, telemetry, the
 * summary, show txq stats and the metrics (metrics.c: Prometheus names are
 * sluice_[SCOPE_]NAME[_UNIT]_total, the unit added unless NAME ends with it)
 * are generated from these tables, so they cannot disagree.
 */

#include <stddef.h>
#include <stdint.h>

#define SL_CNT_SUMMARY (1u << 0) /* in the summary's txq lines */
#define SL_CNT_SHOW    (1u << 1) /* a column of show txq stats */
#define SL_CNT_GAUGE   (1u << 2) /* a level, not a count: clear port stats keeps it */
#define SL_CNT_U32     (1u << 3) /* the field is a uint32_t */
#define SL_CNT_I64     (1u << 4) /* the field is an int64_t (can go below 0): a gauge */
#define SL_CNT_U8      (1u << 5) /* the field is a uint8_t or bool */
#define SL_CNT_NS      (1u << 6) /* nanoseconds: Prometheus has it in seconds (NAME's _ns: _seconds) */

struct sl_counter {
	const char *name;
	const char *col;
	int width;        /* column width in show txq stats */
	uint32_t flags;
	size_t off;       /* in the table's struct */
	const char *help;
	const char *unit; /* "packets", "bytes", "calls", or "" (events without one) */
};

/* Of a TX queue, over struct sl_txq_stats; NULL-terminated. */
extern const struct sl_counter sl_txq_counters[];
/* Of a port and of the totals, over struct sl_port_totals; NULL-terminated. */
extern const struct sl_counter sl_port_counters[];
/* Of a receiving port: the analyzer's, over struct sl_rx_port_stats (sl_rx.h). */
extern const struct sl_counter sl_rx_counters[];
/* Of a receiving port: the device's own drops, over struct sl_port_rx_drops (sl_port.h). */
extern const struct sl_counter sl_rx_drop_counters[];
/* Of a port with devices, over struct sl_dev_port_totals (sl_dev.h). */
extern const struct sl_counter sl_dev_port_counters[];
/* Of a device, over struct sl_dev_stats (sl_dev.h). */
extern const struct sl_counter sl_dev_counters[];
/* Of a stream at a receiving port, over struct sl_stream_result (report.h). */
extern const struct sl_counter sl_stream_counters[];
/* Of a flow (every stream of a run by id), over struct sl_results_flow (results.h). */
extern const struct sl_counter sl_flow_counters[];
/* Of a flow at a receiving port, over struct sl_rx_stream_stats (sl_rx.h). */
extern const struct sl_counter sl_flow_rx_counters[];

/*
 * A counter in a fixed text layout whose order and words are its own (the
 * summary's port line, show port stats in testpmd's layout): the counter by
 * its name in a table above, the words before it, its printf width
 * (negative: left-aligned) and the words after it. The value comes from the
 * table's description, so the layout cannot show another figure.
 */
struct sl_counter_fmt {
	const char *name;
	const char *pre;
	int width;
	const char *post;
};

/* The summary's port line: "tx N pkts N bytes  dropped N" (over sl_port_counters). */
extern const struct sl_counter_fmt sl_port_summary_fmt[];
/* show port stats: "TX-packets: N TX-dropped: N TX-bytes: N backlog: N" (sl_port_counters). */
extern const struct sl_counter_fmt sl_port_show_fmt[];

/* The counter called name in table, or NULL. */
const struct sl_counter *sl_counter_find(const struct sl_counter *table, const char *name);
/* Print the counters of the struct at base in layout fmt (names from table); chars printed. */
int sl_counter_print(const struct sl_counter *table, const struct sl_counter_fmt *fmt,
		     const void *base);

/* Of a queue, a port and the totals, over struct sl_pace_totals; NULL-terminated. */
extern const struct sl_counter sl_pace_counters[];

/* The value of counter c in the struct at base (an SL_CNT_I64 one: cast it back). */
uint64_t sl_counter_get(const struct sl_counter *c, const void *base);

#endif /* SL_COUNTERS_H */
