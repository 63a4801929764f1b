/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the user sees: queue modes at start, live stats, the summary and the
 * JSON summary. Rates: L2 counts frames with their FCS, L1 adds preamble,
 * SFD and inter-frame gap (20 bytes), as RFC 2544 does.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_version.h>

#include "report.h"
#include "sl_err.h"
#include "sl_wire.h"

uint64_t
sl_report_txq_generated(const struct sl_app *app, const struct sl_txq *q)
{
	uint64_t g = 0;

	for (uint16_t i = 0; i < app->nb_workers; i++) {
		const struct sl_worker *w = app->workers[i];

		for (uint16_t t = 0; t < w->nb_targets; t++)
			if (w->t[t].txq == q)
				g += SL_CNT_READ(w->t[t].generated);
	}
	return g;
}

void
sl_report_txq_stats(const struct sl_app *app, const struct sl_app_txq *aq,
		    struct sl_txq_stats *st)
{
	sl_txq_stats_get(aq->txq, st);
	for (uint16_t i = 0; i < app->nb_workers; i++) {
		const struct sl_worker *w = app->workers[i];

		for (uint16_t t = 0; t < w->nb_targets; t++)
			if (w->t[t].txq == aq->txq)
				st->tx_packets += SL_CNT_READ(w->t[t].direct_sent);
	}
}

void
sl_report_port_totals(const struct sl_app *app, uint16_t pid, struct sl_port_totals *pt)
{
	const struct sl_port *p = &app->ports.p[pid];

	memset(pt, 0, sizeof(*pt));
	for (uint16_t q = 0; q < p->nb_txq; q++) {
		struct sl_txq_stats st;

		if (p->txqs[q].txq == NULL)
			continue;
		sl_report_txq_stats(app, &p->txqs[q], &st);
		pt->generated += sl_report_txq_generated(app, p->txqs[q].txq);
		pt->tx_packets += st.tx_packets;
		pt->tx_bytes += st.tx_bytes;
		pt->dropped += st.dropped;
		pt->backlog += st.backlog;
	}
}

void
sl_report_totals(const struct sl_app *app, struct sl_port_totals *all)
{
	memset(all, 0, sizeof(*all));
	for (uint16_t i = 0; i < app->ports.n; i++) {
		struct sl_port_totals pt;

		sl_report_port_totals(app, i, &pt);
		all->generated += pt.generated;
		all->tx_packets += pt.tx_packets;
		all->tx_bytes += pt.tx_bytes;
		all->dropped += pt.dropped;
		all->backlog += pt.backlog;
	}
}

void
sl_report_lcores(char *buf, size_t len, const struct sl_app_txq *aq)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint16_t i = 0; i < aq->nb_lcores && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%u", i ? "," : "", aq->lcores[i]);
	if (aq->nb_lcores == 0)
		snprintf(buf, len, "-");
}

void
sl_report_modes(const struct sl_app *app)
{
	char lc[256];

	for (uint16_t i = 0; i < app->ports.n; i++) {
		const struct sl_port *p = &app->ports.p[i];

		printf("port %u: %s (%s), %u TX queue(s), link %u Mb/s, socket %d%s\n", i,
		       p->info.name, p->info.driver, p->nb_txq, p->info.speed_mbps, p->info.socket,
		       (p->caps & SL_DRV_CAP_LLTX) ? ", LLTX" : "");
		for (uint16_t q = 0; q < p->nb_txq; q++) {
			sl_report_lcores(lc, sizeof(lc), &p->txqs[q]);
			printf("  txq %u: mode %-9s lcores %s\n", q,
			       sl_txq_mode_name(sl_txq_get_mode(p->txqs[q].txq)), lc);
		}
	}
	fflush(stdout);
}

double
sl_report_elapsed(const struct sl_app *app)
{
	uint64_t end = app->end_tsc > app->start_tsc ? app->end_tsc : rte_rdtsc();

	return (double)(end - app->start_tsc) / (double)rte_get_tsc_hz();
}

/*
 * One line per port: rates since the last line (pps, L1 and L2 bit/s, % of
 * line), totals, drops, backlog, and the run's progress against --duration
 * or --count; then one line per shared queue: mode, collisions, requeues,
 * backlog.
 */
void
sl_report_live(struct sl_app *app, double elapsed)
{
	struct sl_live *lv = &app->live;
	double dt = elapsed - lv->t;

	if (dt <= 0)
		return;
	for (uint16_t i = 0; i < app->ports.n; i++) {
		const struct sl_port *p = &app->ports.p[i];
		uint32_t speed_mbps = p->info.speed_mbps;
		struct sl_port_totals pt;
		double pps, l1, l2;

		sl_report_port_totals(app, i, &pt);
		pps = (pt.tx_packets - lv->pkts[i]) / dt;
		l2 = sl_wire_l2_bits(pt.tx_packets - lv->pkts[i], pt.tx_bytes - lv->bytes[i]) / dt;
		l1 = sl_wire_l1_bits(pt.tx_packets - lv->pkts[i], pt.tx_bytes - lv->bytes[i]) / dt;
		printf("[%7.2fs", elapsed);
		if (app->o.duration_us != 0)
			printf("/%.6gs", app->o.duration_us / 1e6);
		printf("] port %u: %9.3f Mpps %8.3f Gb/s L1 %8.3f Gb/s L2", i, pps / 1e6, l1 / 1e9,
		       l2 / 1e9);
		/* A virtual PMD's link speed is a made-up figure (net_null says 10G). */
		if (speed_mbps != 0 && l1 <= speed_mbps * 1e6 * 1.05)
			printf(" (%5.1f%% of line)", l1 / (speed_mbps * 1e6) * 100);
		else if (speed_mbps != 0)
			printf(" (the PMD says its link is %g Gb/s)", speed_mbps / 1e3);
		printf("  tx %" PRIu64, pt.tx_packets);
		if (app->o.count != 0)
			printf("/%" PRIu64, app->o.count);
		printf(" dropped %" PRIu64 " backlog %" PRIu64 "\n", pt.dropped, pt.backlog);
		lv->pkts[i] = pt.tx_packets;
		lv->bytes[i] = pt.tx_bytes;
		for (uint16_t q = 0; q < p->nb_txq; q++) {
			struct sl_txq_stats st;

			if (p->txqs[q].txq == NULL || p->txqs[q].nb_lcores < 2)
				continue;
			sl_report_txq_stats(app, &p->txqs[q], &st);
			printf("           txq %u %-6s %u lcores: collisions %" PRIu64 " requeued %" PRIu64
			       " busy %" PRIu64 " backlog %u\n", q, sl_txq_mode_name(sl_txq_get_mode(p->txqs[q].txq)),
			       p->txqs[q].nb_lcores, st.collisions, st.requeued, st.busy, st.backlog);
		}
	}
	lv->t = elapsed;
	fflush(stdout);
}

void
sl_report_summary(const struct sl_app *app)
{
	double d = sl_report_elapsed(app);
	struct sl_port_totals all = { 0 };

	printf("\n---------------- sluice summary (%.3f s) ----------------\n", d);
	for (uint16_t i = 0; i < app->ports.n; i++) {
		const struct sl_port *p = &app->ports.p[i];
		struct sl_port_totals pt;

		sl_report_port_totals(app, i, &pt);
		printf("port %u %-12s tx %14" PRIu64 " pkts %16" PRIu64 " bytes  %9.3f Mpps  "
		       "%8.3f Gb/s L1  dropped %" PRIu64 "\n", i, p->info.name,
		       pt.tx_packets, pt.tx_bytes, d > 0 ? pt.tx_packets / d / 1e6 : 0,
		       d > 0 ? sl_wire_l1_bits(pt.tx_packets, pt.tx_bytes) / d / 1e9 : 0,
		       pt.dropped);
		for (uint16_t q = 0; q < p->nb_txq; q++) {
			struct sl_txq_stats st;

			if (p->txqs[q].txq == NULL)
				continue;
			sl_report_txq_stats(app, &p->txqs[q], &st);
			if (st.tx_packets == 0 && st.dropped == 0)
				continue;
			printf("  txq %u %-9s", q, sl_txq_mode_name(sl_txq_get_mode(p->txqs[q].txq)));
			for (const struct sl_counter *c = sl_txq_counters; c->name != NULL; c++)
				if (c->flags & SL_CNT_SUMMARY)
					printf(" %s %" PRIu64, c->name, sl_counter_get(c, &st));
			printf("\n");
		}
		all.generated += pt.generated;
		all.tx_packets += pt.tx_packets;
		all.dropped += pt.dropped;
		all.backlog += pt.backlog;
	}
	printf("total: generated %" PRIu64 " = tx %" PRIu64 " + dropped %" PRIu64 " + backlog %"
	       PRIu64 " (%s); mbufs not returned: %" PRIu64 "\n", all.generated, all.tx_packets,
	       all.dropped, all.backlog,
	       all.generated == all.tx_packets + all.dropped + all.backlog ? "conserved" :
									    "NOT CONSERVED",
	       app->pool_in_use);
	if (app->discarded != 0)
		printf("simulated ports: %" PRIu64 " frame(s) taken but still in descriptors when the "
		       "drain at stop timed out (freed, never on the wire)\n", app->discarded);
	fflush(stdout);
}

static void
json_verify(struct sl_json *j, const struct sl_app *app)
{
	struct sl_port_verify sum = { 0 };
	uint64_t lat_min = UINT64_MAX, lat_max = 0, lat_w = 0, n = 0;
	bool any = false;

	for (uint16_t i = 0; i < app->ports.n; i++) {
		const struct sl_port *p = &app->ports.p[i];
		struct sl_port_verify v;
		bool has;

		if (p->ops->verify == NULL)
			continue;
		has = p->ops->verify(p->dev, &v);
		sum.violations += v.violations;
		if (!has)
			continue;
		any = true;
		sum.lost += v.lost;
		sum.duplicates += v.duplicates;
		sum.reordered += v.reordered;
		sum.frames += v.frames;
		sum.unsigned_frames += v.unsigned_frames;
		if (v.frames != 0) {
			lat_min = RTE_MIN(lat_min, v.lat_min_ns);
			lat_max = RTE_MAX(lat_max, v.lat_max_ns);
			lat_w += v.lat_avg_ns * v.frames;
			n += v.frames;
		}
	}
	if (!any)
		return;
	sl_json_obj_open(j, "verify");
	sl_json_u64(j, "frames", sum.frames);
	sl_json_u64(j, "unsigned", sum.unsigned_frames);
	sl_json_u64(j, "lost", sum.lost);
	sl_json_u64(j, "duplicates", sum.duplicates);
	sl_json_u64(j, "reordered", sum.reordered);
	sl_json_u64(j, "violations", sum.violations);
	sl_json_obj_open(j, "latency_ns");
	sl_json_u64(j, "min", n ? lat_min : 0);
	sl_json_u64(j, "avg", n ? lat_w / n : 0);
	sl_json_u64(j, "max", lat_max);
	sl_json_obj_close(j);
	sl_json_obj_close(j);
}

/*
 * The wire of a driver that models one (the sim): frames that left it, and
 * the rate between the first and the last frame's start, which is what a
 * pacer is judged by.
 */
static void
json_wire(struct sl_json *j, const struct sl_port *p)
{
	struct sl_port_wire w;
	double bits;

	if (p->ops->wire == NULL || !p->ops->wire(p->dev, &w))
		return;
	/* Bits of every frame but the last, which starts at the end of the span. */
	bits = w.frames > 1 ? sl_wire_l1_bits(w.frames, w.bytes) * (w.frames - 1) / w.frames : 0;
	sl_json_obj_open(j, "wire");
	sl_json_u64(j, "frames", w.frames);
	sl_json_u64(j, "bytes", w.bytes);
	sl_json_dbl(j, "span_s", w.span_s);
	sl_json_dbl(j, "idle_s", w.idle_s); /* the wire waited for frames: the source fell behind */
	sl_json_dbl(j, "pps", w.span_s > 0 ? (w.frames - 1) / w.span_s : 0);
	sl_json_dbl(j, "bps_l1", w.span_s > 0 ? bits / w.span_s : 0);
	sl_json_u64(j, "busy", w.busy);
	sl_json_u64(j, "violations", w.violations);
	sl_json_obj_close(j);
}

static void
json_txq(struct sl_json *j, const struct sl_app *app, const struct sl_app_txq *aq)
{
	struct sl_txq_stats st;

	sl_report_txq_stats(app, aq, &st);
	sl_json_obj_open(j, NULL);
	sl_json_u64(j, "port", aq->port);
	sl_json_u64(j, "queue", aq->queue);
	sl_json_str(j, "mode", sl_txq_mode_name(sl_txq_get_mode(aq->txq)));
	sl_json_arr_open(j, "lcores");
	for (uint16_t l = 0; l < aq->nb_lcores; l++)
		sl_json_u64(j, NULL, aq->lcores[l]);
	sl_json_arr_close(j);
	sl_json_u64(j, "generated", sl_report_txq_generated(app, aq->txq));
	for (const struct sl_counter *c = sl_txq_counters; c->name != NULL; c++)
		sl_json_u64(j, c->name, sl_counter_get(c, &st));
	sl_json_obj_open(j, "drop_reasons");
	sl_json_u64(j, "dead_loop", st.drop_dead_loop);
	sl_json_u64(j, "backlog_full", st.drop_backlog_full);
	sl_json_u64(j, "flush", st.drop_flush);
	sl_json_obj_close(j);
	sl_json_obj_close(j);
}

int
sl_report_json(const struct sl_app *app, const char *path)
{
	double d = sl_report_elapsed(app);
	struct sl_port_totals all;
	struct sl_json j;
	FILE *f = fopen(path, "w");
	int ret;

	if (f == NULL) {
		sl_err("--json %s: %s", path, strerror(errno));
		return -errno;
	}
	sl_json_begin(&j, f);
	sl_json_obj_open(&j, NULL);
	sl_json_str(&j, "version", SL_VERSION);
	sl_json_str(&j, "dpdk", rte_version());
	sl_json_dbl(&j, "duration_s", d);
	sl_report_totals(app, &all);
	sl_json_obj_open(&j, "totals");
	for (const struct sl_counter *c = sl_port_counters; c->name != NULL; c++)
		sl_json_u64(&j, c->name, sl_counter_get(c, &all));
	sl_json_dbl(&j, "tx_pps", d > 0 ? all.tx_packets / d : 0);
	sl_json_dbl(&j, "tx_bps_l1", d > 0 ? sl_wire_l1_bits(all.tx_packets, all.tx_bytes) / d : 0);
	sl_json_dbl(&j, "tx_bps_l2", d > 0 ? sl_wire_l2_bits(all.tx_packets, all.tx_bytes) / d : 0);
	sl_json_u64(&j, "mempool_in_use", app->pool_in_use);
	sl_json_u64(&j, "wire_discarded", app->discarded);
	sl_json_bool(&j, "conserved",
		     all.generated == all.tx_packets + all.dropped + all.backlog);
	sl_json_obj_close(&j);
	sl_json_arr_open(&j, "ports");
	for (uint16_t i = 0; i < app->ports.n; i++) {
		const struct sl_port *p = &app->ports.p[i];
		struct sl_port_totals pt;

		sl_report_port_totals(app, i, &pt);
		sl_json_obj_open(&j, NULL);
		sl_json_u64(&j, "port", i);
		sl_json_str(&j, "name", p->info.name);
		sl_json_str(&j, "driver", p->info.driver);
		sl_json_i64(&j, "socket", p->info.socket); /* -1: any (a vdev) */
		sl_json_u64(&j, "link_speed_mbps", p->info.speed_mbps);
		sl_json_bool(&j, "lltx", (p->caps & SL_DRV_CAP_LLTX) != 0);
		for (const struct sl_counter *c = sl_port_counters; c->name != NULL; c++)
			sl_json_u64(&j, c->name, sl_counter_get(c, &pt));
		sl_json_dbl(&j, "tx_pps", d > 0 ? pt.tx_packets / d : 0);
		json_wire(&j, p);
		sl_json_obj_close(&j);
	}
	sl_json_arr_close(&j);
	sl_json_arr_open(&j, "txqs");
	for (uint16_t i = 0; i < app->ports.n; i++)
		for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++)
			json_txq(&j, app, &app->ports.p[i].txqs[q]);
	sl_json_arr_close(&j);
	json_verify(&j, app);
	sl_json_obj_close(&j);
	ret = sl_json_end(&j);
	if (fclose(f) != 0 || ret != 0) {
		sl_err("--json %s: write failed", path);
		return -EIO;
	}
	return 0;
}
