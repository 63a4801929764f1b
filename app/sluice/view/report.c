/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the user sees: queue modes at start, live stats, the summary and the
 * JSON summary. Rates: L2 counts frames with their FCS, L1 adds preamble,
 * SFD and inter-frame gap (20 bytes), as RFC 2544 does.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <rte_cycles.h>
#include <rte_version.h>

#include "outfile.h"
#include "report.h"
#include "devices.h"
#include "sl_err.h"
#include "sl_wire.h"
#include "sl_clock.h"

void
sl_report_rates(char *buf, size_t len, uint64_t pkts, uint64_t bytes, double s,
		uint64_t speed_bps, bool l2)
{
	char a[32], b[32], c[32] = "";
	double l1 = s > 0 ? sl_wire_l1_bits(pkts, bytes) / s : 0;

	sl_rate_fmt_pps(s > 0 ? pkts / s : 0, a, sizeof(a));
	sl_rate_fmt_bps(l1, b, sizeof(b));
	if (l2)
		sl_rate_fmt_bps(s > 0 ? sl_wire_l2_bits(pkts, bytes) / s : 0, c, sizeof(c));
	if (l2)
		snprintf(buf, len, "%12s %12s L1 %12s L2", a, b, c);
	else
		snprintf(buf, len, "%12s %12s L1", a, b);
	/* A virtual PMD's link speed is a made-up figure (net_null says 10G): no % above it. */
	if (speed_bps != 0 && l1 <= (double)speed_bps * 1.05)
		snprintf(buf + strlen(buf), len - strlen(buf), l2 ? " (%.1f%% of line)" : " (%.1f%%)",
			 l1 / (double)speed_bps * 100);
}

/* Port pid sends flows of the table, each from a device (their MACs are the devices'). */
static bool
dev_flows_only(const struct sl_config *o, uint16_t pid)
{
	uint16_t n = 0;

	for (uint16_t f = 0; f < o->nb_flows; f++) {
		if (o->flows[f].port != pid)
			continue;
		if (o->flows[f].src_dev[0] == '\0')
			return false;
		n++;
	}
	return n != 0;
}

void
sl_report_modes(const struct sl_results *r)
{
	const struct sl_run_desc *d = r->desc;
	const struct sl_config *o = &d->cfg;
	char speed[32];

	if (o->sign == SL_SIGN_OFF)
		printf("signatures: off (--sign %s): frames carry none, the receive side measures "
		       "nothing\n", d->sign_asked == SL_SIGN_AUTO ? "auto, and nothing reads them" :
		       "off");
	/* A flow whose frames are too short to carry the signature is never measured: said. */
	for (uint16_t f = 0; f < o->nb_flows; f++) {
		int sg = sl_config_signed_sizes(o, &d->env, f);

		if (sg != 2)
			printf("warning: flow %s: %s frames below %u bytes carry no signature (its "
			       "headers and the signature's 16 bytes need them): %s\n",
			       o->flows[f].name, sg == 0 ? "all its" : "its",
			       sl_config_signed_min(o, &d->env, f),
			       sg == 0 ? "it is sent but not measured (give a larger size)" :
			       "those are sent but not measured");
	}

	for (uint16_t i = 0; i < r->nb_ports; i++) {
		const struct sl_port_info *pi = &d->env.port[i].info;
		const struct sl_results_port *rp = &r->port[i];
		struct sl_stream_conf c;
		char src[RTE_ETHER_ADDR_FMT_SIZE], dst[RTE_ETHER_ADDR_FMT_SIZE];
		unsigned int lcores = 0;

		/* A long name is cut (the JSON has it whole): the line stays within 100 columns. */
		printf("port %u: %.32s%s (%s), %u TX queue(s), link %s, socket %d%s\n", i,
		       pi->name, strlen(pi->name) > 32 ? "~" : "", pi->driver, rp->nb_txq,
		       sl_rate_speed_str(pi->speed_bps, speed, sizeof(speed)), pi->socket,
		       (d->port[i].caps & SL_DRV_CAP_LLTX) ? ", LLTX" : "");
		sl_config_flow(o, &d->env, i, &c);
		rte_ether_format_addr(src, sizeof(src), &c.src_mac);
		rte_ether_format_addr(dst, sizeof(dst), &c.dst_mac);
		if (dev_flows_only(o, i))
			printf("  MAC of its devices' flows: theirs -> their next hops' (show "
			       "neighbors)\n");
		else
			printf("  MAC %s -> %s%s\n", src, dst, o->peer_set[i] ? "" :
			       " (default: change with --eth-peer, set eth-peer)");
		/* A port with a real receiver behind it drops frames not addressed to it. */
		if (!o->peer_set[i] && rp->nb_txq != 0 && pi->peer_filters_mac &&
		    !dev_flows_only(o, i))
			printf("warning: port %u (%s) sends to the default MAC, which a real "
			       "receiver drops:\n  give --eth-peer %u,MAC (set eth-peer %u MAC)\n",
			       i, pi->driver, i, i);
		for (uint16_t q = 0; q < rp->nb_txq; q++) {
			const struct sl_results_txq *x = &r->txq[rp->txq0 + q];

			printf("  txq %u: mode %-9s lcores %s\n", q, sl_txq_mode_name(x->mode),
			       x->lcores);
			lcores += x->nb_lcores;
		}
		if (o->nb_map == 0 && lcores > rp->nb_txq)
			printf("  (%u lcores share %u queue(s): the port %s; the engine shares them)\n",
			       lcores, rp->nb_txq, o->pc[i].txq != 0 ?
			       "was given that many" : "offers no more");
		if (rp->rx_on)
			printf("  rxq 0: analyzed by lcore %d (%s), drain %.3g s, latency clock %s\n",
			       d->port[i].rx_lcore,
			       d->port[i].rx_dedicated ? "dedicated" : "between its TX bursts",
			       o->drain_us / 1e6, d->port[i].rx_hw_ts ?
			       "hw (the port's RX timestamps)" : "tsc (per RX burst)");
	}
	fflush(stdout);
}

/*
 * One line per port: rates since the last line (pps and L1 bit/s, scaled;
 * % of line), the port's counters since its last clear port stats, and the
 * run's progress against --duration or --count; then one line per shared
 * queue: mode, collisions, requeues, backlog.
 */
void
sl_report_live(struct sl_live *lv, const struct sl_results *r, double elapsed)
{
	const struct sl_config *o = &r->desc->cfg;
	double dt = elapsed - lv->t;

	if (dt <= 0)
		return;
	for (uint16_t i = 0; i < r->nb_ports; i++) {
		const struct sl_port_info *pi = &r->desc->env.port[i].info;
		const struct sl_results_port *rp = &r->port[i];
		char rates[96];

		sl_report_rates(rates, sizeof(rates), rp->tot.tx_packets - lv->pkts[i],
				rp->tot.tx_bytes - lv->bytes[i], dt, pi->speed_bps, false);
		printf("[%7.2fs", elapsed);
		if (o->duration_us != 0)
			printf("/%.6gs", o->duration_us / 1e6);
		printf("] port %u: %s  tx %" PRIu64, i, rates, rp->view.tx_packets);
		if (o->count != 0 && rp->view.tx_packets == rp->tot.tx_packets)
			printf("/%" PRIu64, o->count);
		printf(" dropped %" PRIu64 " backlog %" PRIu64 "\n", rp->view.dropped,
		       rp->tot.backlog);
		/* Never short in silence: what the pacers let go so far (a line of its own). */
		if (rp->pace.let_go_frames != 0)
			printf("           let-go port %u: %" PRIu64 " frames (%.1f ms) of %" PRIu64
			       " asked\n", i, rp->pace.let_go_frames, rp->pace.let_go_ns / 1e6,
			       rp->pace.asked);
		if (rp->rx_on) {
			uint64_t unique = 0, lost = 0;
			char pps[32];

			for (uint16_t s = 0; s < r->nb_ports; s++) {
				struct sl_stream_result res;

				sl_results_stream(r, s, i, &res);
				unique += res.st.rx - res.st.duplicates;
				if (res.st.rx != 0 && res.lost > 0)
					lost += (uint64_t)res.lost;
			}
			sl_rate_fmt_pps((rp->rx.frames - lv->rx[i]) / dt, pps, sizeof(pps));
			printf("           rx port %u: %12s  rx %" PRIu64 " unique %" PRIu64
			       " in flight or lost %" PRIu64 " foreign %" PRIu64 "\n", i, pps, rp->rx.rx,
			       unique, lost, rp->rx.foreign);
			lv->rx[i] = rp->rx.frames;
		}
		lv->pkts[i] = rp->tot.tx_packets;
		lv->bytes[i] = rp->tot.tx_bytes;
		for (uint16_t q = 0; q < rp->nb_txq; q++) {
			const struct sl_results_txq *x = &r->txq[rp->txq0 + q];

			if (!x->exists || x->nb_lcores < 2)
				continue;
			printf("           txq %u %-6s %u lcores: collisions %" PRIu64 " requeued %" PRIu64
			       " busy %" PRIu64 " backlog %u\n", q, sl_txq_mode_name(x->mode),
			       x->nb_lcores, x->st.collisions - x->base.collisions,
			       x->st.requeued - x->base.requeued, x->st.busy - x->base.busy,
			       x->st.backlog);
		}
	}
	lv->t = elapsed;
	fflush(stdout);
}

/* The flows of the table, each where it arrived (with no table the streams above are they). */
static void
summary_flows(const struct sl_results *r, bool table)
{
	if (!table)
		return;
	for (uint16_t f = 0; f < r->nb_flows; f++) {
		const struct sl_results_flow *fl = &r->flow[f];
		bool printed = false;

		for (uint16_t p = 0; p < r->nb_ports; p++) {
			const struct sl_results_rx *x = sl_results_flow_rx(r, f, p);
			const struct sl_rx_stream_stats *st;

			if (x == NULL || x->st.rx == 0)
				continue;
			st = &x->st;
			printf("flow %s: port %u -> %u  tx %" PRIu64 "%s rx %" PRIu64 " lost %" PRId64
			       " (%.4g%%) dup %" PRIu64 " reordered %" PRIu64 " late %" PRIu64
			       "  latency (%s) us min %.3f mean %.3f max %.3f\n", fl->name, fl->port, p,
			       fl->tx, fl->exact ? "" : "(not exact)", st->rx, fl->lost,
			       fl->tx != 0 ? (double)fl->lost / (double)fl->tx * 100 : 0,
			       st->duplicates, st->reordered, st->late, sl_rx_clock_name(st),
			       st->lat_min / 1e3,
			       st->lat_count != 0 ? st->lat_sum / (double)st->lat_count / 1e3 : 0,
			       st->lat_max / 1e3);
			printed = true;
		}
		if (!printed)
			printf("flow %s: port %u -> nowhere  tx %" PRIu64 "%s (generated %" PRIu64
			       ") rx 0\n", fl->name, fl->port, fl->tx, fl->exact ? "" : "(not exact)",
			       fl->generated);
	}
}

/* The receive side in the summary: per port, per stream, and a verdict. */
static void
summary_rx(const struct sl_results *r)
{
	uint64_t rxport_drops = 0;

	if (!r->rx_any)
		return;
	for (uint16_t p = 0; p < r->nb_ports; p++) {
		const struct sl_results_port *rp = &r->port[p];
		const struct sl_port_rx_drops *dr = &rp->drops;

		if (!rp->rx_on)
			continue;
		rxport_drops += dr->imissed + dr->ierrors + dr->rx_nombuf;
		printf("rx port %u %-10s frames %" PRIu64 " signed %" PRIu64 " foreign %" PRIu64
		       " bad_signature %" PRIu64 " stale %" PRIu64 "  port drops: imissed %" PRIu64
		       " ierrors %" PRIu64 " rx_nombuf %" PRIu64 "\n", p, r->desc->env.port[p].info.name,
		       rp->rx.frames, rp->rx.rx, rp->rx.foreign, rp->rx.bad_signature, rp->rx.stale,
		       dr->imissed, dr->ierrors, dr->rx_nombuf);
	}
	for (uint16_t s = 0; s < r->nb_ports; s++) {
		bool printed = false;

		for (uint16_t p = 0; p < r->nb_ports; p++) {
			const struct sl_results_rx *x = sl_results_rx(r, s, p);
			struct sl_stream_result res;

			if (x == NULL || x->st.rx == 0 || x->hist == NULL)
				continue;
			sl_results_stream(r, s, p, &res);
			printf("stream %u: port %u -> %u  tx %" PRIu64 " rx %" PRIu64 " lost %" PRId64
			       " (%.4g%%) dup %" PRIu64 " reordered %" PRIu64 " late %" PRIu64
			       "  latency (%s) us min %.3f p50 %.3f p99 %.3f max %.3f jitter %.3f\n", s, s,
			       p, res.tx, res.st.rx, res.lost, res.loss_ratio * 100, res.st.duplicates,
			       res.st.reordered, res.st.late,
			       sl_rx_clock_name(&res.st), res.st.lat_min / 1e3,
			       sl_rx_quantile(x->hist, 0.5, res.st.lat_min, res.st.lat_max) / 1e3,
			       sl_rx_quantile(x->hist, 0.99, res.st.lat_min, res.st.lat_max) / 1e3,
			       res.st.lat_max / 1e3, res.st.jitter_ns / 1e3);
			if (res.st.lat_backwards != 0)
				printf("stream %u: %" PRIu64 " frame(s) arrived before they were sent, "
				       "by the clocks: not latency samples, and the smaller latencies "
				       "are suspect (the sending and receiving clocks may disagree: "
				       "docs/measure.md)\n", s, res.st.lat_backwards);
			printed = true;
		}
		if (!printed && r->measured[s]) {
			struct sl_stream_result res;

			sl_results_stream(r, s, -1, &res);
			printf("stream %u: port %u -> nowhere  tx %" PRIu64 " rx 0 lost %" PRId64 "\n", s,
			       s, res.tx, res.lost);
		}
	}
	summary_flows(r, r->table);
	if (r->nb_measured == 0)
		printf("verdict: nothing measured (no signed frame arrived, and none was sent to a "
		       "receiving port: check --rx and --eth-peer)\n");
	else if (r->lost != 0)
		printf("verdict: LOST %" PRIu64 " frame(s)%s\n", r->lost, rxport_drops != 0 ?
		       " (the receiving ports dropped some themselves: see port drops, not the DUT's)" :
		       "");
	else if (r->not_conserved != 0)
		printf("verdict: NOT CONSERVED: %u stream(s) had more distinct frames arrive than were "
		       "sent (received on several ports, or not from this run)\n", r->not_conserved);
	else
		printf("verdict: every frame sent arrived (tx = unique rx + lost 0)\n");
}

static void summary_short(const struct sl_results *r);
static bool verify_sum(const struct sl_results *r, struct sl_port_verify *sum);
static const char *rate_unit_name(enum sl_rate_unit u);

/*
 * Within 100 columns, whatever the port names: per port a line of counters
 * (its name last), a line of rates (pps, L1 and L2 bit/s, scaled), a line
 * per queue that carried traffic; the totals; the verifier's results.
 */
void
sl_report_summary(const struct sl_results *r)
{
	double d = r->elapsed_s;
	struct sl_port_totals all = { 0 };
	struct sl_port_verify v;

	printf("\n---------------- sluice summary (%.3f s) ----------------\n", d);
	for (uint16_t i = 0; i < r->nb_ports; i++) {
		const struct sl_port_info *pi = &r->desc->env.port[i].info;
		const struct sl_results_port *rp = &r->port[i];
		struct sl_port_totals pt = rp->tot;
		char rates[96];

		sl_report_rates(rates, sizeof(rates), pt.tx_packets, pt.tx_bytes, d,
				pi->speed_bps, true);
		/* The name last, cut to what 100 columns leave (the JSON has it whole). */
		printf("port %u  ", i);
		sl_counter_print(sl_port_counters, sl_port_summary_fmt, &pt);
		printf(" %.26s%s\n        %s\n", pi->name, strlen(pi->name) > 26 ? "~" : "",
		       rates);
		if (rp->pace.asked > rp->pace.offered)
			printf("        offered %" PRIu64 " of %" PRIu64 " asked: let go %" PRIu64
			       " (%.3f ms), unsent %" PRIu64 "\n", rp->pace.offered, rp->pace.asked,
			       rp->pace.let_go_frames, rp->pace.let_go_ns / 1e6, rp->pace.unsent);
		for (uint16_t q = 0; q < rp->nb_txq; q++) {
			const struct sl_results_txq *x = &r->txq[rp->txq0 + q];
			const struct sl_txq_stats st = x->st;

			/* A queue no lcore sends on, if it carried nothing (a mapped
			 * one is shown even when a short run sent nothing yet). */
			if (!x->exists || (x->nb_lcores == 0 && st.tx_packets == 0 && st.dropped == 0))
				continue;
			int col = printf("  txq %u %-9s", q, sl_txq_mode_name(x->mode));

			for (const struct sl_counter *c = sl_txq_counters; c->name != NULL; c++) {
				char item[64];
				int n;

				if (!(c->flags & SL_CNT_SUMMARY))
					continue;
				n = snprintf(item, sizeof(item), " %s %" PRIu64, c->col,
					     sl_counter_get(c, &st));
				if (col + n > 100) /* wrap: the summary stays within 100 columns */
					col = printf("\n%17s", "");
				col += printf("%s", item);
			}
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
	       r->pool_in_use);
	if (r->discarded != 0)
		printf("simulated ports: %" PRIu64 " frame(s) taken but still in descriptors when the "
		       "drain at stop timed out (freed, never on the wire)\n", r->discarded);
	if (verify_sum(r, &v))
		printf("sim verifier: %" PRIu64 " frames on the wire, lost %" PRIu64 " duplicates %"
		       PRIu64 " reordered %" PRIu64 " violations %" PRIu64 "\n"
		       "              latency (signature to the frame's end on the wire) ns min %"
		       PRIu64 " avg %" PRIu64 " max %" PRIu64 "\n", v.frames, v.lost, v.duplicates, v.reordered,
		       v.violations, v.lat_min_ns, v.lat_avg_ns, v.lat_max_ns);
	if (verify_sum(r, &v) && v.lat_backwards != 0)
		printf("              %" PRIu64 " frame(s) on the wire before they were signed, by "
		       "the clocks: not in the latency (docs/measure.md)\n", v.lat_backwards);
	summary_rx(r);
	fflush(stdout); /* the summary first, then the note after it */
	summary_short(r);
}

/*
 * A run that offered less than its rates asked says so, with the likely
 * cause and what to do: time let go is an lcore that did not run (its CPU
 * shared with another lcore, thread or process, or taken by the
 * hypervisor); frames made but not sent, a device still full at the end.
 */
static void
summary_short(const struct sl_results *r)
{
	for (uint16_t i = 0; i < r->nb_ports; i++) {
		const struct sl_pace_totals *pc = &r->port[i].pace;

		if (pc->asked <= pc->offered)
			continue;
		fprintf(stderr, "note: port %u offered %.3f %% less than its rate asked\n"
			"  (%" PRIu64 " of %" PRIu64 " frames).\n", i,
			100.0 * (double)(pc->asked - pc->offered) / (double)pc->asked, pc->offered,
			pc->asked);
		if (pc->let_go_frames != 0)
			fprintf(stderr, "  Its pacers let go %.3f ms (the longest lag %.3f ms):\n"
				"  their lcore did not run, or could not keep up: another lcore,\n"
				"  thread or process (or the hypervisor) had its CPU, or it has\n"
				"  more to send than it can. A lag of up to %u us is made up, a\n"
				"  longer one let go. Give each worker lcore a CPU of its own\n"
				"  (--lcores, isolcpus=), and less to send if need be.\n",
				pc->let_go_ns / 1e6,
				(double)r->port[i].pacer_lag_max * 1e3 / (double)r->hz,
				SL_PACER_CATCHUP_US);
		if (pc->unsent != 0)
			fprintf(stderr, "  %" PRIu64 " frames were made but not taken before the\n"
				"  stop (the device full).\n", pc->unsent);
	}
}

/* The verifiers' results summed over the ports that have one; false if none. */
static bool
verify_sum(const struct sl_results *r, struct sl_port_verify *sum)
{
	uint64_t lat_min = UINT64_MAX, lat_max = 0, lat_w = 0, n = 0;
	bool any = false;

	memset(sum, 0, sizeof(*sum));
	for (uint16_t i = 0; i < r->nb_ports; i++) {
		const struct sl_port_verify v = r->port[i].verify;

		if (!r->port[i].verifies)
			continue;
		sum->violations += v.violations;
		if (!r->port[i].verified)
			continue;
		any = true;
		sum->lost += v.lost;
		sum->duplicates += v.duplicates;
		sum->reordered += v.reordered;
		sum->frames += v.frames;
		sum->unsigned_frames += v.unsigned_frames;
		sum->lat_backwards += v.lat_backwards;
		if (v.frames > v.lat_backwards) {
			lat_min = RTE_MIN(lat_min, v.lat_min_ns);
			lat_max = RTE_MAX(lat_max, v.lat_max_ns);
			lat_w += v.lat_avg_ns * (v.frames - v.lat_backwards);
			n += v.frames - v.lat_backwards;
		}
	}
	sum->lat_min_ns = n ? lat_min : 0;
	sum->lat_avg_ns = n ? lat_w / n : 0;
	sum->lat_max_ns = lat_max;
	return any;
}

static void
json_verify(struct sl_json *j, const struct sl_results *r)
{
	struct sl_port_verify sum;

	if (!verify_sum(r, &sum))
		return;
	sl_json_obj_open(j, "verify");
	sl_json_u64(j, "frames", sum.frames);
	sl_json_u64(j, "unsigned", sum.unsigned_frames);
	sl_json_u64(j, "lost", sum.lost);
	sl_json_u64(j, "duplicates", sum.duplicates);
	sl_json_u64(j, "reordered", sum.reordered);
	sl_json_u64(j, "violations", sum.violations);
	sl_json_obj_open(j, "latency_ns");
	sl_json_u64(j, "min", sum.lat_min_ns);
	sl_json_u64(j, "avg", sum.lat_avg_ns);
	sl_json_u64(j, "max", sum.lat_max_ns);
	sl_json_u64(j, "backwards", sum.lat_backwards);
	sl_json_obj_close(j);
	sl_json_obj_close(j);
}

/*
 * The wire of a driver that models one (the sim): frames that left it, and
 * the rate between the first and the last frame's start, which is what a
 * pacer is judged by.
 */
/* Every counter of a table, as "name": value (counters.h). */
static void
json_table(struct sl_json *j, const struct sl_counter *t, const void *base)
{
	for (const struct sl_counter *c = t; c->name != NULL; c++)
		if (c->flags & SL_CNT_I64)
			sl_json_i64(j, c->name, (int64_t)sl_counter_get(c, base));
		else
			sl_json_u64(j, c->name, sl_counter_get(c, base));
}

static void
json_wire(struct sl_json *j, const struct sl_results_port *rp)
{
	const struct sl_port_wire w = rp->wire;
	double bits;

	if (!rp->has_wire)
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
json_port_rx(struct sl_json *j, const struct sl_results *res, uint16_t r)
{
	const struct sl_results_port *rp = &res->port[r];
	const struct sl_port_dut dut = rp->dut;
	const struct sl_rx_port_stats rs = rp->rx;

	if (rp->has_dut) {
		sl_json_obj_open(j, "dut");
		sl_json_u64(j, "in", dut.in);
		sl_json_u64(j, "delivered", dut.delivered);
		sl_json_u64(j, "dropped_capacity", dut.dropped_capacity);
		sl_json_u64(j, "dropped_loss", dut.dropped_loss);
		sl_json_u64(j, "dropped_full", dut.dropped_full);
		sl_json_u64(j, "dropped_link", dut.dropped_link);
		sl_json_u64(j, "duplicated", dut.duplicated);
		sl_json_u64(j, "reordered", dut.reordered);
		sl_json_u64(j, "held", dut.held);
		sl_json_obj_close(j);
	}
	if (!rp->rx_on)
		return;
	sl_json_i64(j, "rx_lcore", res->desc->port[r].rx_lcore);
	json_table(j, sl_rx_counters, &rs);
	/* The analyzer's own cost: TSC cycles in sl_rx_analyze() per frame, as ns. */
	sl_json_dbl(j, "rx_ns_per_frame", rs.frames != 0 ? (double)rs.cycles * 1e9 /
		    (double)sl_tsc_hz() / (double)rs.frames : 0);
	json_table(j, sl_rx_drop_counters, &rp->drops);
}

/* A port's devices' control frames (docs/devices.md), where it has devices. */
static void
json_port_devices(struct sl_json *j, const struct sl_results_port *rp)
{
	if (rp->has_dev)
		json_table(j, sl_dev_port_counters, &rp->dev);
}

static void
json_latency(struct sl_json *j, const struct sl_results *r, uint16_t s, uint16_t rx_port,
	     const struct sl_rx_stream_stats *st)
{
	static const struct { const char *k; double q; } qs[] = {
		{ "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p99_9", 0.999 },
		{ "p99_99", 0.9999 },
	};
	const struct sl_results_rx *x = sl_results_rx(r, s, rx_port);
	const uint64_t *hist = x != NULL ? x->hist : NULL;

	sl_json_obj_open(j, "latency_ns");
	/* hw: every sample timed by the port's RX timestamp; tsc: by the burst's TSC. */
	sl_json_str(j, "clock", sl_rx_clock_name(st));
	sl_json_u64(j, "samples_hw", st->lat_hw);
	sl_json_u64(j, "samples", st->lat_count);
	/* arrived before they were sent, by the clocks: not samples (sl_rx.h) */
	sl_json_u64(j, "backwards", st->lat_backwards);
	sl_json_u64(j, "min", st->lat_min);
	sl_json_dbl(j, "mean", st->lat_count != 0 ? st->lat_sum / st->lat_count : 0);
	if (hist != NULL) {
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
}

static void
json_stream(struct sl_json *j, const struct sl_results *r, const struct sl_stream_result *res)
{
	sl_json_obj_open(j, NULL);
	sl_json_u64(j, "stream", res->stream);
	sl_json_u64(j, "tx_port", res->stream);
	sl_json_i64(j, "rx_port", res->rx_port);
	json_table(j, sl_stream_counters, res);
	sl_json_dbl(j, "loss_ratio", res->loss_ratio);
	sl_json_bool(j, "conserved", res->lost >= 0);
	sl_json_arr_open(j, "reorder_distance"); /* log2 buckets: 1, 2-3, 4-7, ... */
	for (int b = 0; b < SL_RX_DIST_BUCKETS; b++)
		sl_json_u64(j, NULL, res->st.dist[b]);
	sl_json_arr_close(j);
	if (res->rx_port >= 0)
		json_latency(j, r, res->stream, (uint16_t)res->rx_port, &res->st);
	sl_json_obj_close(j);
}

/* "flows": every stream of the run by id (the table's flows, or each port's default one). */
static void
json_flows(struct sl_json *j, const struct sl_results *r)
{
	const struct sl_config *o = &r->desc->cfg;

	sl_json_arr_open(j, "flows");
	for (uint16_t f = 0; f < r->nb_flows; f++) {
		const struct sl_results_flow *fl = &r->flow[f];

		struct sl_rx_stream_stats sum;
		int rx_port = fl->to;

		/* streams[]'s counters, over every port where it arrived (interface.md). */
		sl_results_flow_sum(r, f, &sum);
		for (uint16_t p = 0; p < r->nb_ports && rx_port < 0; p++) {
			const struct sl_results_rx *x = sl_results_flow_rx(r, f, p);

			if (x != NULL && x->st.rx != 0)
				rx_port = p;
		}
		sl_json_obj_open(j, NULL);
		sl_json_str(j, "name", fl->name);
		sl_json_u64(j, "id", fl->id);
		sl_json_u64(j, "tx_port", fl->port);
		sl_json_i64(j, "rx_port", rx_port); /* its to, else where it arrived; -1: none */
		sl_json_i64(j, "to", fl->to);
		sl_json_u64(j, "tx_packets", fl->generated);
		sl_json_u64(j, "tx_signed", fl->tx);
		sl_json_u64(j, "rx_packets", sum.rx);
		sl_json_u64(j, "duplicates", sum.duplicates);
		sl_json_u64(j, "reordered", sum.reordered);
		sl_json_u64(j, "late", sum.late);
		sl_json_dbl(j, "loss_ratio", fl->tx != 0 ? (double)fl->lost / (double)fl->tx : 0);
		if (o->nb_flows != 0 && f < o->nb_flows && o->flows[f].sc.hdrs.n != 0) {
			char text[SL_STACK_TEXT_MAX];

			sl_stack_str(&o->flows[f].sc.hdrs, text, sizeof(text));
			sl_json_str(j, "stack", text);
		}
		sl_json_u64(j, "generated", fl->generated);
		sl_json_u64(j, "tx", fl->tx);
		sl_json_bool(j, "tx_exact", fl->exact);
		sl_json_u64(j, "unique", fl->unique);
		sl_json_i64(j, "lost", fl->lost);
		sl_json_arr_open(j, "rx");
		for (uint16_t p = 0; p < r->nb_ports; p++) {
			const struct sl_results_rx *x = sl_results_flow_rx(r, f, p);
			const struct sl_rx_stream_stats *st;

			if (x == NULL || x->st.rx == 0)
				continue;
			st = &x->st;
			sl_json_obj_open(j, NULL);
			sl_json_u64(j, "rx_port", p);
			sl_json_u64(j, "rx", st->rx);
			sl_json_u64(j, "bytes", st->bytes);
			sl_json_u64(j, "duplicates", st->duplicates);
			sl_json_u64(j, "reordered", st->reordered);
			sl_json_u64(j, "late", st->late);
			sl_json_obj_open(j, "latency_ns");
			sl_json_str(j, "clock", sl_rx_clock_name(st));
			sl_json_u64(j, "samples", st->lat_count);
			sl_json_u64(j, "min", st->lat_min);
			sl_json_dbl(j, "mean", st->lat_count != 0 ?
				    st->lat_sum / (double)st->lat_count : 0);
			sl_json_u64(j, "max", st->lat_max);
			if (x->hist != NULL)
				sl_json_u64(j, "p99", sl_rx_quantile(x->hist, 0.99, st->lat_min,
								     st->lat_max));
			sl_json_dbl(j, "jitter", st->jitter_ns);
			sl_json_obj_close(j);
			sl_json_obj_close(j);
		}
		sl_json_arr_close(j);
		sl_json_obj_close(j);
	}
	sl_json_arr_close(j);
}

struct json_streams_arg {
	struct sl_json *j;
	const struct sl_results *r;
};

static void
json_stream_fn(const struct sl_stream_result *res, void *arg)
{
	const struct json_streams_arg *a = arg;

	json_stream(a->j, a->r, res);
}

static void
json_streams(struct sl_json *j, const struct sl_results *r)
{
	struct json_streams_arg a = { j, r };

	if (!r->rx_any)
		return;
	sl_json_obj_open(j, "rx");
	sl_json_u64(j, "lost", r->lost);
	sl_json_u64(j, "streams_measured", r->nb_measured);
	sl_json_u64(j, "streams_not_conserved", r->not_conserved);
	sl_json_u64(j, "drain_us", r->desc->cfg.drain_us);
	sl_json_obj_close(j);
	sl_json_arr_open(j, "streams");
	sl_results_streams(r, json_stream_fn, &a);
	sl_json_arr_close(j);
}

static void
json_txq(struct sl_json *j, const struct sl_run_desc *d, const struct sl_results_txq *x)
{
	const struct sl_txq_stats st = x->st;

	sl_json_obj_open(j, NULL);
	sl_json_u64(j, "port", x->port);
	sl_json_u64(j, "queue", x->queue);
	sl_json_str(j, "mode", sl_txq_mode_name(x->mode));
	sl_json_arr_open(j, "lcores");
	for (uint16_t l = 0; l < d->nb_sends; l++)
		if (d->sends[l].port == x->port && d->sends[l].queue == x->queue)
			sl_json_u64(j, NULL, d->sends[l].lcore);
	sl_json_arr_close(j);
	sl_json_u64(j, "generated", x->generated);
	json_table(j, sl_txq_counters, &st);
	json_table(j, sl_pace_counters, &x->pace);
	sl_json_obj_open(j, "drop_reasons");
	sl_json_u64(j, "dead_loop", st.drop_dead_loop);
	sl_json_u64(j, "backlog_full", st.drop_backlog_full);
	sl_json_u64(j, "flush", st.drop_flush);
	sl_json_obj_close(j);
	sl_json_obj_close(j);
}

static const char *
rate_unit_name(enum sl_rate_unit u)
{
	static const char *const names[] = { "max", "pps", "bps_l1", "bps_l2", "percent" };

	return u < RTE_DIM(names) ? names[u] : "?";
}

/*
 * What the run was asked to do: the options in force at its end (a rate
 * changed while running shows its last value), and the lcore map it used.
 */
static void
json_config(struct sl_json *j, const struct sl_results *r, const struct sl_config *o)
{
	const struct sl_stream_conf *c = &o->sc;
	char buf[256];

	sl_json_obj_open(j, "config");
	/*
	 * on or off as the run had it (auto resolved at its start; a benchmark
	 * reports the user's configuration: its last trial says how auto went)
	 */
	{
		enum sl_sign sg = o->sign == SL_SIGN_AUTO ? r->desc->cfg.sign : o->sign;

		sl_json_str(j, "sign", sg == SL_SIGN_OFF ? "off" : sg == SL_SIGN_ON ? "on" : "auto");
	}
	sl_json_arr_open(j, "sizes"); /* bytes with FCS; weights beside, or a range */
	for (uint16_t i = 0; c->size_max == 0 && i < c->nb_sizes; i++)
		sl_json_u64(j, NULL, c->sizes[i]);
	sl_json_arr_close(j);
	sl_json_arr_open(j, "weights");
	for (uint16_t i = 0; c->size_max == 0 && i < c->nb_sizes; i++)
		sl_json_u64(j, NULL, c->weights[i] ? c->weights[i] : 1);
	sl_json_arr_close(j);
	if (c->size_max != 0) {
		sl_json_u64(j, "size_min", c->size_min);
		sl_json_u64(j, "size_max", c->size_max);
		if (c->size_step != 0)
			sl_json_u64(j, "size_step", c->size_step); /* ascending, by this step */
	}
	sl_json_u64(j, "flows", c->flows > 1 ? c->flows : 1);
	sl_json_arr_open(j, "fields");
	for (uint16_t i = 0; i < c->nb_fields; i++) {
		sl_config_field_str(&c->fields[i], buf, sizeof(buf));
		sl_json_str(j, NULL, buf);
	}
	sl_json_arr_close(j);
	sl_json_str(j, "l3", c->ipv6 ? "ipv6" : "ipv4");
	if (c->ipv6) {
		inet_ntop(AF_INET6, c->src_ip6, buf, sizeof(buf));
		sl_json_str(j, "src_ip", buf);
		inet_ntop(AF_INET6, c->dst_ip6, buf, sizeof(buf));
		sl_json_str(j, "dst_ip", buf);
	} else {
		struct in_addr a = { htonl(c->src_ip) }, b = { htonl(c->dst_ip) };

		inet_ntop(AF_INET, &a, buf, sizeof(buf));
		sl_json_str(j, "src_ip", buf);
		inet_ntop(AF_INET, &b, buf, sizeof(buf));
		sl_json_str(j, "dst_ip", buf);
	}
	sl_json_str(j, "l4", c->tcp ? "tcp" : "udp");
	sl_json_u64(j, "src_port", c->src_port);
	sl_json_u64(j, "dst_port", c->dst_port);
	sl_json_u64(j, "burst", o->burst);
	sl_json_dbl(j, "duration_s", o->duration_us / 1e6); /* 0: none */
	sl_json_u64(j, "count", o->count);                   /* 0: none */
	sl_json_str(j, "lock", o->lock == SL_LOCK_SPIN ? "spin" : "trylock");
	sl_json_str(j, "xmit", o->direct ? "direct" : "engine");
	sl_json_arr_open(j, "map"); /* [lcore, port, queue] of the run */
	for (uint16_t i = 0; i < r->desc->nb_map; i++) {
		sl_json_arr_open(j, NULL);
		sl_json_u64(j, NULL, r->desc->map[i].lcore);
		sl_json_u64(j, NULL, r->desc->map[i].port);
		sl_json_u64(j, NULL, r->desc->map[i].queue);
		sl_json_arr_close(j);
	}
	sl_json_arr_close(j);
	sl_json_arr_open(j, "ports");
	for (uint16_t i = 0; i < r->nb_ports; i++) {
		const struct sl_port_conf *pc = &o->pc[i];

		sl_json_obj_open(j, NULL);
		sl_json_u64(j, "port", i);
		sl_rate_str(&pc->rate, buf, sizeof(buf));
		sl_json_str(j, "rate", buf);
		sl_json_str(j, "rate_unit", rate_unit_name(pc->rate.unit));
		sl_json_dbl(j, "rate_value", pc->rate.value);
		sl_json_u64(j, "vlan", pc->vlan);   /* 0: untagged */
		sl_json_u64(j, "txq", pc->txq);     /* 0: as the map needs */
		sl_json_u64(j, "txd", pc->txd);     /* 0: the driver's default */
		sl_json_str(j, "lltx", pc->lltx == SL_LLTX_ON ? "on" :
			    pc->lltx == SL_LLTX_OFF ? "off" : "auto");
		sl_json_bool(j, "stopped", pc->stopped);
		sl_json_obj_close(j);
	}
	sl_json_arr_close(j);
	sl_json_obj_close(j);
}

static int
report_json_write(const struct sl_results *r, const struct sl_config *cfg, const char *path,
		  void (*extra)(struct sl_json *j))
{
	const struct sl_run_desc *rd = r->desc;
	double d = r->elapsed_s;
	struct sl_port_totals all = r->total;
	struct sl_json j;
	bool out = strcmp(path, "-") == 0; /* --json -: standard output */
	struct sl_outfile of = { .f = stdout };
	FILE *f;
	int ret;

	/* A file is replaced atomically: the old one stays if this write fails. */
	if (!out && (ret = sl_outfile_open(&of, path)) != 0) {
		if (ret == -ENXIO)
			sl_err("--json %s: a FIFO with no reader: start the reader first", path);
		else
			sl_err("--json %s: %s", path, strerror(-ret));
		return ret;
	}
	f = of.f;
	sl_json_begin(&j, f);
	sl_json_obj_open(&j, NULL);
	sl_json_str(&j, "version", SL_VERSION);
	sl_json_str(&j, "dpdk", rte_version());
	json_config(&j, r, cfg);
	sl_json_dbl(&j, "duration_s", d);
	sl_json_obj_open(&j, "totals");
	json_table(&j, sl_port_counters, &all);
	json_table(&j, sl_pace_counters, &r->pace);
	sl_json_dbl(&j, "tx_pps", d > 0 ? all.tx_packets / d : 0);
	sl_json_dbl(&j, "tx_bps_l1", d > 0 ? sl_wire_l1_bits(all.tx_packets, all.tx_bytes) / d : 0);
	sl_json_dbl(&j, "tx_bps_l2", d > 0 ? sl_wire_l2_bits(all.tx_packets, all.tx_bytes) / d : 0);
	sl_json_u64(&j, "mempool_in_use", r->pool_in_use);
	sl_json_u64(&j, "wire_discarded", r->discarded);
	sl_json_bool(&j, "conserved",
		     all.generated == all.tx_packets + all.dropped + all.backlog);
	sl_json_obj_close(&j);
	sl_json_arr_open(&j, "ports");
	for (uint16_t i = 0; i < r->nb_ports; i++) {
		const struct sl_port_info *pi = &rd->env.port[i].info;
		const struct sl_results_port *rp = &r->port[i];
		const struct sl_port_totals pt = rp->tot;

		sl_json_obj_open(&j, NULL);
		sl_json_u64(&j, "port", i);
		sl_json_str(&j, "name", pi->name);
		sl_json_str(&j, "driver", pi->driver);
		sl_json_i64(&j, "socket", pi->socket); /* -1: any (a vdev) */
		sl_json_dbl(&j, "link_speed_mbps", pi->speed_bps / 1e6);
		sl_json_u64(&j, "link_speed_bps", pi->speed_bps);
		{
			struct sl_stream_conf c;
			char mac[RTE_ETHER_ADDR_FMT_SIZE];

			sl_config_flow(&rd->cfg, &rd->env, i, &c);
			rte_ether_format_addr(mac, sizeof(mac), &c.src_mac);
			sl_json_str(&j, "src_mac", mac);
			rte_ether_format_addr(mac, sizeof(mac), &c.dst_mac);
			sl_json_str(&j, "dst_mac", mac);
			sl_json_bool(&j, "dst_mac_default", !rd->cfg.peer_set[i]);
		}
		sl_json_bool(&j, "lltx", (rd->port[i].caps & SL_DRV_CAP_LLTX) != 0);
		json_table(&j, sl_port_counters, &pt);
		json_table(&j, sl_pace_counters, &rp->pace);
		json_port_devices(&j, rp);
		sl_json_dbl(&j, "tx_pps", d > 0 ? pt.tx_packets / d : 0);
		/* The rate the pacer held the port to: unit max (unpaced), pps, bps_l1, bps_l2. */
		sl_json_str(&j, "pace_unit", rate_unit_name(rp->pace_rate.unit));
		sl_json_dbl(&j, "pace_value", rp->pace_rate.value);
		/*
		 * How late the port's paced lcores ever ran (0 unpaced): a
		 * shortfall's cause; and the time at the port's rate its pacers
		 * let go (bounded catch-up, sl_gen.h): the mean over its (lcore,
		 * queue) pacers, which share the rate equally, so that
		 * skipped x rate is the load never offered.
		 */
		sl_json_dbl(&j, "pacer_lag_max_us", (double)rp->pacer_lag_max * 1e6 / (double)r->hz);
		sl_json_dbl(&j, "pacer_skipped_us", rp->nb_pacers == 0 ? 0 :
			    (double)rp->pacer_skipped / rp->nb_pacers * 1e6 / (double)r->hz);
		/* A shortfall's other cause: the pool's mbufs all in flight. */
		sl_json_u64(&j, "pool_empty", rp->pool_empty);
		json_wire(&j, rp);
		json_port_rx(&j, r, i);
		sl_json_obj_close(&j);
	}
	sl_json_arr_close(&j);
	sl_json_arr_open(&j, "txqs");
	for (uint16_t i = 0; i < r->nb_ports; i++)
		for (uint16_t q = 0; q < r->port[i].nb_txq; q++)
			if (r->txq[r->port[i].txq0 + q].exists)
				json_txq(&j, rd, &r->txq[r->port[i].txq0 + q]);
	sl_json_arr_close(&j);
	json_verify(&j, r);
	json_streams(&j, r);
	json_flows(&j, r);
	sl_report_json_devices(&j, r);
	if (extra != NULL)
		extra(&j);
	sl_json_obj_close(&j);
	ret = sl_json_end(&j);
	if (out ? fflush(f) != 0 || ret != 0 : (ret = sl_outfile_commit(&of, ret)) != 0) {
		sl_err("--json %s: write failed (%s)%s", path, strerror(ret < 0 ? -ret : EIO),
		       out || of.direct ? "" : "; the file is as it was");
		return -EIO;
	}
	return 0;
}

/*
 * A FIFO's or a pipe's reader that goes away mid-write is a failed write
 * (EPIPE: one message, exit 1), not a SIGPIPE that ends the program
 * before its report.
 */
int
sl_report_json(const struct sl_results *r, const struct sl_config *cfg, const char *path,
	       void (*extra)(struct sl_json *j))
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int ret;

	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	ret = report_json_write(r, cfg, path, extra);
	sigaction(SIGPIPE, &old, NULL);
	return ret;
}

/*
 * The session's calls (struct sl_run_show): each hands the snapshot to
 * its view with the view's own state and options (the live line's last
 * counters, --json and the section a benchmark adds), nothing of the run.
 */
static void
report_modes(const struct sl_app *app, const struct sl_results *r)
{
	RTE_SET_USED(app);
	sl_report_modes(r);
}

static void
report_live(struct sl_app *app, const struct sl_results *r, double elapsed)
{
	sl_report_live(&app->views.live, r, elapsed);
}

/* The end of a run: the summary, then the JSON if --json asked (-1: not written). */
static int
report_end(const struct sl_app *app, const struct sl_results *r)
{
	sl_report_summary(r);
	if (app->o.json != NULL)
		return sl_report_json(r, &r->desc->cfg, app->o.json, app->json_extra) != 0 ? -1 : 0;
	return 0;
}

const struct sl_run_show sl_report_show = {
	.modes = report_modes,
	.live = report_live,
	.end = report_end,
};
