/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the user sees: queue modes at start, live stats, the summary and the
 * JSON summary. Rates: L2 counts frames with their FCS, L1 adds preamble,
 * SFD and inter-frame gap (20 bytes), as RFC 2544 does.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_version.h>

#include "outfile.h"
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
			if (w->t[t].txq == aq->txq) {
				st->tx_packets += SL_CNT_READ(w->t[t].direct_sent);
				st->tx_bytes += SL_CNT_READ(w->t[t].direct_bytes);
			}
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

/* Distinct frames of stream s received over every receiving port. */
static uint64_t
stream_unique(const struct sl_app *app, uint16_t s, bool *seen)
{
	uint64_t u = 0;

	*seen = false;
	for (uint16_t r = 0; r < app->ports.n; r++) {
		struct sl_rx_stream_stats st;

		if (app->rx[r] == NULL || !sl_rx_stream_stats(app->rx[r], s, &st))
			continue;
		u += st.rx - st.duplicates;
		*seen |= st.rx != 0;
	}
	return u;
}

/*
 * Signed frames of stream s (port s) that its drivers took: what the workers
 * counted as signed and taken, less what the engine then dropped (flush at
 * stop, dead loops, a full backlog with the drop policy) when every frame is
 * signed; with some sizes too short to carry a signature, such drops cannot be
 * split and are left in (docs/measure.md).
 */
static uint64_t
stream_signed_tx(const struct sl_app *app, uint16_t s)
{
	uint64_t tx = 0, dropped = 0;
	bool all = true;

	for (uint16_t i = 0; i < app->nb_workers; i++) {
		const struct sl_worker *w = app->workers[i];

		for (uint16_t k = 0; k < w->nb_targets; k++)
			if (w->t[k].port == s) {
				tx += SL_CNT_READ(w->t[k].signed_sent);
				all &= w->t[k].sig_mix == 0;
			}
	}
	if (all)
		for (uint16_t q = 0; q < app->ports.p[s].nb_txq; q++) {
			struct sl_txq_stats st;

			if (app->ports.p[s].txqs[q].txq == NULL)
				continue;
			sl_txq_stats_get(app->ports.p[s].txqs[q].txq, &st);
			dropped += st.dropped;
		}
	return tx > dropped ? tx - dropped : 0;
}

void
sl_report_stream(const struct sl_app *app, uint16_t s, int r, struct sl_stream_result *res)
{
	struct sl_port_totals pt;
	bool seen;

	memset(res, 0, sizeof(*res));
	res->stream = s;
	res->rx_port = r;
	/* What arrived first, then what was sent: a live read never shows more arrived. */
	res->unique = stream_unique(app, s, &seen);
	sl_report_port_totals(app, s, &pt);
	res->tx_all = pt.tx_packets;
	res->tx = stream_signed_tx(app, s);
	res->lost = (int64_t)res->tx - (int64_t)res->unique;
	res->loss_ratio = res->tx != 0 ? (double)res->lost / (double)res->tx : 0;
	if (r >= 0 && app->rx[r] != NULL)
		sl_rx_stream_stats(app->rx[r], s, &res->st);
}

static bool
rx_any(const struct sl_app *app)
{
	for (uint16_t r = 0; r < app->ports.n; r++)
		if (app->rx[r] != NULL)
			return true;
	return false;
}

/*
 * Is stream s measured: it sent signed frames and it was seen somewhere, or
 * is addressed to a receiving port, or its own port does not receive (a
 * sending port's frames are expected back elsewhere: a DUT that drops them
 * all is 100 % loss, not success).
 */
static bool
stream_measured(const struct sl_app *app, uint16_t s)
{
	bool seen;

	if (stream_signed_tx(app, s) == 0)
		return false;
	stream_unique(app, s, &seen);
	if (seen || app->rx[s] == NULL)
		return true;
	for (uint16_t r = 0; r < app->ports.n; r++)
		if (app->rx[r] != NULL && app->addressed[s][r])
			return true;
	return false;
}

unsigned int
sl_report_measured(const struct sl_app *app, unsigned int *not_conserved)
{
	unsigned int n = 0;

	*not_conserved = 0;
	if (!rx_any(app))
		return 0;
	for (uint16_t s = 0; s < app->ports.n; s++) {
		struct sl_stream_result res;

		if (!stream_measured(app, s))
			continue;
		n++;
		sl_report_stream(app, s, -1, &res);
		*not_conserved += res.lost < 0;
	}
	return n;
}


bool
sl_report_all_arrived(const struct sl_app *app)
{
	for (uint16_t s = 0; s < app->ports.n; s++) {
		struct sl_stream_result res;

		if (!stream_measured(app, s))
			continue;
		sl_report_stream(app, s, -1, &res);
		if (res.lost > 0)
			return false;
	}
	return true;
}

uint64_t
sl_report_lost(const struct sl_app *app)
{
	uint64_t lost = 0;

	if (!rx_any(app))
		return 0;
	for (uint16_t s = 0; s < app->ports.n; s++) {
		struct sl_stream_result res;

		if (!stream_measured(app, s))
			continue;
		sl_report_stream(app, s, -1, &res);
		if (res.lost > 0)
			lost += (uint64_t)res.lost;
	}
	return lost;
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
		if (app->rx[i] != NULL)
			printf("  rxq 0: analyzed by lcore %d (%s), drain %.3g s, latency clock %s\n",
			       app->rx_lcore[i],
			       app->rx_dedicated[i] ? "dedicated" : "between its TX bursts",
			       app->o.drain_us / 1e6, p->rx_hw_ts ? "hw (the port's RX timestamps)" :
			       "tsc (per RX burst)");
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
		if (app->rx[i] != NULL) {
			struct sl_rx_port_stats rs;
			uint64_t unique = 0, lost = 0;

			sl_rx_port_stats(app->rx[i], &rs);
			for (uint16_t s = 0; s < app->ports.n; s++) {
				struct sl_stream_result res;

				sl_report_stream(app, s, i, &res);
				unique += res.st.rx - res.st.duplicates;
				if (res.st.rx != 0 && res.lost > 0)
					lost += (uint64_t)res.lost;
			}
			printf("           rx port %u: %9.3f Mpps  rx %" PRIu64 " unique %" PRIu64
			       " in flight or lost %" PRIu64 " foreign %" PRIu64 "\n", i,
			       (rs.frames - lv->rx[i]) / dt / 1e6, rs.rx, unique, lost, rs.foreign);
			lv->rx[i] = rs.frames;
		}
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

/* The receive side in the summary: per port, per stream, and a verdict. */
static void
summary_rx(const struct sl_app *app)
{
	uint64_t lost_total = 0, rxport_drops = 0;
	unsigned int measured, not_conserved;
	bool any = false;

	for (uint16_t r = 0; r < app->ports.n; r++) {
		const struct sl_port *p = &app->ports.p[r];
		struct sl_port_rx_drops dr = { 0 };
		struct sl_rx_port_stats rs;

		if (app->rx[r] == NULL)
			continue;
		any = true;
		sl_rx_port_stats(app->rx[r], &rs);
		if (p->ops->rx_drops != NULL)
			p->ops->rx_drops(p->dev, &dr);
		rxport_drops += dr.imissed + dr.ierrors + dr.rx_nombuf;
		printf("rx port %u %-10s frames %" PRIu64 " signed %" PRIu64 " foreign %" PRIu64
		       " bad_signature %" PRIu64 " stale %" PRIu64 "  port drops: imissed %" PRIu64
		       " ierrors %" PRIu64 " rx_nombuf %" PRIu64 "\n", r, p->info.name, rs.frames,
		       rs.rx, rs.foreign, rs.bad_signature, rs.stale, dr.imissed, dr.ierrors,
		       dr.rx_nombuf);
	}
	if (!any)
		return;
	for (uint16_t s = 0; s < app->ports.n; s++) {
		bool printed = false;

		for (int r = 0; r < app->ports.n; r++) {
			struct sl_stream_result res;
			uint64_t hist[SL_HIST_BUCKETS] = { 0 };

			if (app->rx[r] == NULL)
				continue;
			sl_report_stream(app, s, r, &res);
			if (res.st.rx == 0)
				continue;
			sl_rx_stream_hist(app->rx[r], s, hist);
			printf("stream %u: port %u -> %d  tx %" PRIu64 " rx %" PRIu64 " lost %" PRId64
			       " (%.4g%%) dup %" PRIu64 " reordered %" PRIu64 " late %" PRIu64
			       "  latency (%s) us min %.3f p50 %.3f p99 %.3f max %.3f jitter %.3f\n", s, s, r,
			       res.tx, res.st.rx, res.lost, res.loss_ratio * 100, res.st.duplicates,
			       res.st.reordered, res.st.late,
			       res.st.lat_hw == 0 ? "tsc" : res.st.lat_hw == res.st.lat_count ? "hw" : "mixed",
			       res.st.lat_min / 1e3,
			       sl_rx_quantile(hist, 0.5, res.st.lat_min, res.st.lat_max) / 1e3,
			       sl_rx_quantile(hist, 0.99, res.st.lat_min, res.st.lat_max) / 1e3,
			       res.st.lat_max / 1e3, res.st.jitter_ns / 1e3);
			printed = true;
		}
		if (!printed && stream_measured(app, s)) {
			struct sl_stream_result res;

			sl_report_stream(app, s, -1, &res);
			printf("stream %u: port %u -> nowhere  tx %" PRIu64 " rx 0 lost %" PRId64 "\n", s,
			       s, res.tx, res.lost);
		}
	}
	lost_total = sl_report_lost(app);
	measured = sl_report_measured(app, &not_conserved);
	if (measured == 0)
		printf("verdict: nothing measured (no signed frame arrived, and none was sent to a "
		       "receiving port: check --rx and --eth-peer)\n");
	else if (lost_total != 0)
		printf("verdict: LOST %" PRIu64 " frame(s)%s\n", lost_total, rxport_drops != 0 ?
		       " (the receiving ports dropped some themselves: see port drops, not the DUT's)" :
		       "");
	else if (not_conserved != 0)
		printf("verdict: NOT CONSERVED: %u stream(s) had more distinct frames arrive than were "
		       "sent (received on several ports, or not from this run)\n", not_conserved);
	else
		printf("verdict: every frame sent arrived (tx = unique rx + lost 0)\n");
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
	summary_rx(app);
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
json_port_rx(struct sl_json *j, const struct sl_app *app, uint16_t r)
{
	const struct sl_port *p = &app->ports.p[r];
	struct sl_port_rx_drops dr = { 0 };
	struct sl_port_dut dut;
	struct sl_rx_port_stats rs;

	if (p->ops->dut != NULL && p->ops->dut(p->dev, &dut)) {
		sl_json_obj_open(j, "dut");
		sl_json_u64(j, "in", dut.in);
		sl_json_u64(j, "delivered", dut.delivered);
		sl_json_u64(j, "dropped_capacity", dut.dropped_capacity);
		sl_json_u64(j, "dropped_loss", dut.dropped_loss);
		sl_json_u64(j, "dropped_full", dut.dropped_full);
		sl_json_u64(j, "duplicated", dut.duplicated);
		sl_json_u64(j, "reordered", dut.reordered);
		sl_json_u64(j, "held", dut.held);
		sl_json_obj_close(j);
	}
	if (app->rx[r] == NULL)
		return;
	sl_rx_port_stats(app->rx[r], &rs);
	if (p->ops->rx_drops != NULL)
		p->ops->rx_drops(p->dev, &dr);
	sl_json_i64(j, "rx_lcore", app->rx_lcore[r]);
	sl_json_u64(j, "rx_packets", rs.frames);
	sl_json_u64(j, "rx_bytes", rs.bytes);
	sl_json_u64(j, "rx_signed", rs.rx);
	sl_json_u64(j, "rx_foreign", rs.foreign);
	sl_json_u64(j, "rx_bad_signature", rs.bad_signature);
	sl_json_u64(j, "rx_stale", rs.stale);
	/* The analyzer's own cost: TSC cycles in sl_rx_analyze() per frame, as ns. */
	sl_json_dbl(j, "rx_ns_per_frame", rs.frames != 0 ? (double)rs.cycles * 1e9 /
		    (double)rte_get_tsc_hz() / (double)rs.frames : 0);
	sl_json_u64(j, "imissed", dr.imissed);
	sl_json_u64(j, "ierrors", dr.ierrors);
	sl_json_u64(j, "rx_nombuf", dr.rx_nombuf);
}

static void
json_latency(struct sl_json *j, const struct sl_app *app, uint16_t s, int r,
	     const struct sl_rx_stream_stats *st)
{
	static const struct { const char *k; double q; } qs[] = {
		{ "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p99_9", 0.999 },
		{ "p99_99", 0.9999 },
	};
	uint64_t *hist = calloc(SL_HIST_BUCKETS, sizeof(*hist));

	sl_json_obj_open(j, "latency_ns");
	/* hw: every sample timed by the port's RX timestamp; tsc: by the burst's TSC. */
	sl_json_str(j, "clock", st->lat_hw == 0 ? "tsc" : st->lat_hw == st->lat_count ? "hw" :
		    "mixed");
	sl_json_u64(j, "samples_hw", st->lat_hw);
	sl_json_u64(j, "samples", st->lat_count);
	sl_json_u64(j, "min", st->lat_min);
	sl_json_dbl(j, "mean", st->lat_count != 0 ? st->lat_sum / st->lat_count : 0);
	if (hist != NULL) {
		sl_rx_stream_hist(app->rx[r], s, hist);
		for (unsigned int i = 0; i < RTE_DIM(qs); i++)
			sl_json_u64(j, qs[i].k, sl_rx_quantile(hist, qs[i].q, st->lat_min,
							       st->lat_max));
	}
	sl_json_u64(j, "max", st->lat_max);
	sl_json_dbl(j, "jitter", st->jitter_ns);
	sl_json_arr_open(j, "buckets"); /* [upper_ns, count] of every non-empty bucket */
	for (uint32_t b = 0; hist != NULL && b < SL_HIST_BUCKETS; b++)
		if (hist[b] != 0) {
			sl_json_arr_open(j, NULL);
			sl_json_u64(j, NULL, sl_hist_high(b) == UINT64_MAX ? sl_hist_low(b) :
							       sl_hist_high(b));
			sl_json_u64(j, NULL, hist[b]);
			sl_json_arr_close(j);
		}
	sl_json_arr_close(j);
	sl_json_obj_close(j);
	free(hist);
}

static void
json_stream(struct sl_json *j, const struct sl_app *app, const struct sl_stream_result *res)
{
	sl_json_obj_open(j, NULL);
	sl_json_u64(j, "stream", res->stream);
	sl_json_u64(j, "tx_port", res->stream);
	sl_json_i64(j, "rx_port", res->rx_port);
	sl_json_u64(j, "tx_packets", res->tx_all);
	sl_json_u64(j, "tx_signed", res->tx); /* what lost is counted against */
	sl_json_u64(j, "rx_packets", res->st.rx);
	sl_json_u64(j, "unique", res->unique);
	sl_json_i64(j, "lost", res->lost);
	sl_json_u64(j, "duplicates", res->st.duplicates);
	sl_json_u64(j, "reordered", res->st.reordered);
	sl_json_u64(j, "late", res->st.late);
	sl_json_dbl(j, "loss_ratio", res->loss_ratio);
	sl_json_bool(j, "conserved", res->lost >= 0);
	sl_json_arr_open(j, "reorder_distance"); /* log2 buckets: 1, 2-3, 4-7, ... */
	for (int b = 0; b < SL_RX_DIST_BUCKETS; b++)
		sl_json_u64(j, NULL, res->st.dist[b]);
	sl_json_arr_close(j);
	if (res->rx_port >= 0)
		json_latency(j, app, res->stream, res->rx_port, &res->st);
	sl_json_obj_close(j);
}

static void
json_streams(struct sl_json *j, const struct sl_app *app)
{
	if (!rx_any(app))
		return;
	sl_json_obj_open(j, "rx");
	sl_json_u64(j, "lost", sl_report_lost(app));
	{
		unsigned int nc, m = sl_report_measured(app, &nc);

		sl_json_u64(j, "streams_measured", m);
		sl_json_u64(j, "streams_not_conserved", nc);
	}
	sl_json_u64(j, "drain_us", app->o.drain_us);
	sl_json_obj_close(j);
	sl_json_arr_open(j, "streams");
	for (uint16_t s = 0; s < app->ports.n; s++) {
		bool printed = false;

		for (int r = 0; r < app->ports.n; r++) {
			struct sl_stream_result res;

			if (app->rx[r] == NULL)
				continue;
			sl_report_stream(app, s, r, &res);
			if (res.st.rx == 0)
				continue;
			json_stream(j, app, &res);
			printed = true;
		}
		if (!printed && stream_measured(app, s)) {
			struct sl_stream_result res;

			sl_report_stream(app, s, -1, &res);
			json_stream(j, app, &res);
		}
	}
	sl_json_arr_close(j);
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
	bool out = strcmp(path, "-") == 0; /* --json -: standard output */
	struct sl_outfile of = { .f = stdout };
	FILE *f;
	int ret;

	/* A file is replaced atomically: the old one stays if this write fails. */
	if (!out && (ret = sl_outfile_open(&of, path)) != 0) {
		sl_err("--json %s: %s", path, strerror(-ret));
		return ret;
	}
	f = of.f;
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
		/* How late the port's paced lcores ever ran (0 unpaced): a shortfall's cause. */
		{
			uint64_t lag = 0;

			for (uint16_t w = 0; w < app->nb_workers; w++)
				for (uint16_t k = 0; k < app->workers[w]->nb_targets; k++)
					if (app->workers[w]->t[k].port == i)
						lag = RTE_MAX(lag, app->workers[w]->t[k].pacer.lag_max);
			sl_json_dbl(&j, "pacer_lag_max_us", (double)lag * 1e6 / (double)rte_get_tsc_hz());
		}
		json_wire(&j, p);
		json_port_rx(&j, app, i);
		sl_json_obj_close(&j);
	}
	sl_json_arr_close(&j);
	sl_json_arr_open(&j, "txqs");
	for (uint16_t i = 0; i < app->ports.n; i++)
		for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++)
			json_txq(&j, app, &app->ports.p[i].txqs[q]);
	sl_json_arr_close(&j);
	json_verify(&j, app);
	json_streams(&j, app);
	if (app->json_extra != NULL)
		app->json_extra(&j);
	sl_json_obj_close(&j);
	ret = sl_json_end(&j);
	if (out ? fflush(f) != 0 || ret != 0 : (ret = sl_outfile_commit(&of, ret)) != 0) {
		sl_err("--json %s: write failed (%s)%s", path, strerror(ret < 0 ? -ret : EIO),
		       out || of.direct ? "" : "; the file is as it was");
		return -EIO;
	}
	return 0;
}
