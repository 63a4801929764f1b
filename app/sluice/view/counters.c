/* SPDX-License-Identifier: BSD-3-Clause */
/* The counter descriptions (counters.h). */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "counters.h"
#include "sl_dev.h"
#include "results.h"
#include "sl_port.h"
#include "sl_rx.h"
#include "sl_xmit.h"

#define Q(f) offsetof(struct sl_txq_stats, f)
#define P(f) offsetof(struct sl_port_totals, f)
#define R(f) offsetof(struct sl_rx_port_stats, f)
#define D(f) offsetof(struct sl_port_rx_drops, f)
#define S(f) offsetof(struct sl_stream_result, f)
#define F(f) offsetof(struct sl_results_flow, f)
#define X(f) offsetof(struct sl_rx_stream_stats, f)

const struct sl_counter sl_txq_counters[] = {
	{ "tx_packets", "pkts", 12, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(tx_packets),
	  "packets the driver took, counted once (engine, per lcore)", "packets" },
	{ "tx_bytes", "bytes", 14, SL_CNT_SHOW, Q(tx_bytes),
	  "their bytes, as handed to the driver (no FCS)", "bytes" },
	{ "busy", "busy", 8, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(busy),
	  "driver calls answered BUSY: the device ring was full", "calls" },
	{ "collisions", "collisions", 10, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(collisions),
	  "engine trylock failures plus driver LOCKED answers", "" },
	{ "locked", "locked", 8, 0, Q(locked),
	  "driver LOCKED answers (part of collisions)", "calls" },
	{ "waited", "waited", 8, 0, Q(waited),
	  "collisions the bounded wait resolved: the lock came free, the burst went direct", "" },
	{ "deferred", "deferred", 10, 0, Q(deferred),
	  "locked: bursts the worker kept, the lock being held, to send with its next one", "" },
	{ "requeued", "requeued", 10, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(requeued),
	  "packets put into the backlog", "packets" },
	{ "backlog", "backlog", 8, SL_CNT_SUMMARY | SL_CNT_SHOW | SL_CNT_GAUGE | SL_CNT_U32,
	  Q(backlog), "packets in the backlog now", "packets" },
	{ "dropped", "dropped", 8, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(dropped),
	  "packets freed without being sent, all reasons (drop_reasons)", "packets" },
	{ "dead_loops", "dead_loops", 10, SL_CNT_SUMMARY, Q(dead_loops),
	  "re-entrant calls refused", "" },
	{ "release_bound", "rel_bound", 9, 0, Q(release_bound),
	  "releases that stopped re-draining at their bound (work left for the poll)", "" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};

const struct sl_counter sl_port_counters[] = {
	{ "generated", "generated", 14, 0, P(generated),
	  "packets the workers handed to the engine (sl_xmit, or --xmit direct's pass-through)",
	  "packets" },
	{ "tx_packets", "tx", 14, 0, P(tx_packets),
	  "packets the drivers took (engine counters, --xmit direct's pass-through included)",
	  "packets" },
	{ "tx_bytes", "bytes", 16, 0, P(tx_bytes), "their bytes, as handed (no FCS)", "bytes" },
	{ "dropped", "dropped", 8, 0, P(dropped), "packets freed without being sent", "packets" },
	{ "backlog", "backlog", 8, SL_CNT_GAUGE, P(backlog), "packets in the backlogs now",
	  "packets" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};

#define A(f) offsetof(struct sl_pace_totals, f)

const struct sl_counter sl_pace_counters[] = {
	{ "asked", "asked", 14, 0, A(asked),
	  "packets the paced rates asked over the run's window (offered + unsent + let go)",
	  "packets" },
	{ "let_go_frames", "let_go", 10, 0, A(let_go_frames),
	  "packets the pacers let go: the time their lcore did not run past the catch-up "
	  "bound, at their rate", "" },
	{ "let_go_ns", "let_go_ns", 12, SL_CNT_NS, A(let_go_ns),
	  "that time, at the rate of the queue (the port, the run)", "" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};

const struct sl_counter sl_rx_counters[] = {
	{ "rx_packets", "rx", 14, 0, R(frames), "frames received, all of them", "packets" },
	{ "rx_bytes", "bytes", 16, 0, R(bytes), "their bytes (no FCS)", "bytes" },
	{ "rx_signed", "signed", 14, 0, R(rx), "frames with a valid signature of this run",
	  "packets" },
	{ "rx_foreign", "foreign", 10, 0, R(foreign),
	  "frames without a signature (ARP, ND, anything else)", "packets" },
	{ "rx_bad_signature", "bad_signature", 10, 0, R(bad_signature),
	  "frames whose signature's check failed (truncated, corrupted)", "packets" },
	{ "rx_stale", "stale", 10, 0, R(stale), "signed frames of an earlier run", "packets" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};

const struct sl_counter sl_rx_drop_counters[] = {
	{ "imissed", "imissed", 10, 0, D(imissed),
	  "frames the device dropped for want of room in its RX ring", "packets" },
	{ "ierrors", "ierrors", 10, 0, D(ierrors), "bad frames the device dropped", "packets" },
	{ "rx_nombuf", "rx_nombuf", 10, 0, D(rx_nombuf),
	  "frames the device dropped for want of an mbuf", "packets" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};

#define DV(f) offsetof(struct sl_dev_port_totals, f)
const struct sl_counter sl_dev_port_counters[] = {
	{ "arp_rx", "arp_rx", 10, 0, DV(arp_rx),
	  "ARP requests for the port's devices and replies to them", "" },
	{ "arp_tx", "arp_tx", 10, 0, DV(arp_tx),
	  "ARP replies, requests and gratuitous ARP its devices sent", "" },
	{ "nd_rx", "nd_rx", 10, 0, DV(nd_rx),
	  "neighbour solicitations for its devices and advertisements to them", "" },
	{ "nd_tx", "nd_tx", 10, 0, DV(nd_tx),
	  "neighbour advertisements and solicitations its devices sent", "" },
	{ "echo_replied", "echo_replied", 10, 0, DV(echo_replied),
	  "echo requests (ICMP, ICMPv6) its devices answered", "" },
	{ "resolved", "resolved", 10, 0, DV(resolved), "gateways its devices resolved", "" },
	{ "unresolved", "unresolved", 10, SL_CNT_GAUGE, DV(unresolved),
	  "gateways of its devices without a MAC now (incomplete, failed)", "" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};
#undef DV

#define DS(f) offsetof(struct sl_dev_stats, f)
const struct sl_counter sl_dev_counters[] = {
	{ "arp_requests_in", "arp_req_in", 10, 0, DS(arp_requests_in),
	  "ARP requests for the device's address", "" },
	{ "arp_replies_out", "arp_rep_out", 10, 0, DS(arp_replies_out), "its ARP replies", "" },
	{ "arp_requests_out", "arp_req_out", 10, 0, DS(arp_requests_out),
	  "its ARP requests for its gateway", "" },
	{ "arp_replies_in", "arp_rep_in", 10, 0, DS(arp_replies_in), "ARP replies to it", "" },
	{ "ns_in", "ns_in", 10, 0, DS(ns_in), "neighbour solicitations for its addresses", "" },
	{ "na_out", "na_out", 10, 0, DS(na_out), "its neighbour advertisements", "" },
	{ "ns_out", "ns_out", 10, 0, DS(ns_out), "its solicitations for its gateway", "" },
	{ "na_in", "na_in", 10, 0, DS(na_in), "advertisements to it", "" },
	{ "echo_in", "echo_in", 10, 0, DS(echo_in), "echo requests to it", "" },
	{ "echo_out", "echo_out", 10, 0, DS(echo_out), "its echo replies", "" },
	{ "announced", "announced", 10, 0, DS(announced),
	  "its gratuitous ARP and unsolicited NAs", "" },
	{ "resolved", "resolved", 10, 0, DS(resolved), "gateways it resolved", "" },
	{ "failed", "failed", 10, 0, DS(failed), "gateways that did not answer", "" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};
#undef DS

const struct sl_counter sl_stream_counters[] = {
	{ "tx_packets", "tx", 14, 0, S(tx_all), "frames of the stream its port's drivers took",
	  "packets" },
	{ "tx_signed", "signed", 14, 0, S(tx), "of those, the signed ones (what lost counts against)",
	  "packets" },
	{ "rx_packets", "rx", 14, 0, S(st.rx), "its frames received at this port", "packets" },
	{ "unique", "unique", 14, 0, S(unique),
	  "distinct frames of it received over every receiving port", "packets" },
	{ "lost", "lost", 10, SL_CNT_I64, S(lost),
	  "tx_signed - unique: in flight or lost while running, lost after the drain "
	  "(below 0: more arrived than were sent)", "packets" },
	{ "duplicates", "dup", 8, 0, S(st.duplicates), "frames whose sequence had already arrived",
	  "" },
	{ "reordered", "reordered", 10, 0, S(st.reordered),
	  "frames behind the highest sequence already received (RFC 4737)", "packets" },
	{ "late", "late", 8, 0, S(st.late), "frames older than the tracking window", "packets" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};

const struct sl_counter sl_flow_counters[] = {
	{ "generated", "generated", 14, 0, F(generated), "frames of the flow its lcores handed "
	  "to the engine", "packets" },
	{ "tx_signed", "tx", 14, 0, F(tx), "signed frames of it the port's drivers took (exact "
	  "unless tx_exact is 0)", "packets" },
	{ "unique", "unique", 14, 0, F(unique),
	  "distinct frames of it received over every receiving port", "packets" },
	{ "lost", "lost", 10, SL_CNT_I64, F(lost), "tx_signed - unique (below 0: more arrived "
	  "than were sent)", "packets" },
	{ "tx_exact", "exact", 6, SL_CNT_GAUGE | SL_CNT_U8, F(exact), "1 when tx_signed is exact "
	  "(0: the engine dropped frames on a queue several flows share)", "" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};

const struct sl_counter sl_flow_rx_counters[] = {
	{ "rx_packets", "rx", 14, 0, X(rx), "its frames received at this port", "packets" },
	{ "rx_bytes", "bytes", 14, 0, X(bytes), "their bytes", "bytes" },
	{ "duplicates", "dup", 8, 0, X(duplicates), "frames whose sequence had already arrived",
	  "" },
	{ "reordered", "reordered", 10, 0, X(reordered),
	  "frames behind the highest sequence already received (RFC 4737)", "packets" },
	{ "late", "late", 8, 0, X(late), "frames older than the tracking window", "packets" },
	{ "latency_samples", "samples", 10, 0, X(lat_count), "frames timed", "" },
	{ "latency_min_ns", "min", 10, SL_CNT_GAUGE, X(lat_min), "the smallest latency", "" },
	{ "latency_max_ns", "max", 10, SL_CNT_GAUGE, X(lat_max), "the largest latency", "" },
	{ NULL, NULL, 0, 0, 0, NULL, NULL },
};

const struct sl_counter_fmt sl_port_summary_fmt[] = {
	{ "tx_packets", "tx ", 14, " pkts " },
	{ "tx_bytes", "", 16, " bytes  " },
	{ "dropped", "dropped ", -8, "" },
	{ NULL, NULL, 0, NULL },
};

const struct sl_counter_fmt sl_port_show_fmt[] = {
	{ "tx_packets", "  TX-packets: ", -14, "" },
	{ "dropped", " TX-dropped: ", -10, "" },
	{ "tx_bytes", " TX-bytes: ", -16, "" },
	{ "backlog", " backlog: ", 0, "" },
	{ NULL, NULL, 0, NULL },
};

const struct sl_counter *
sl_counter_find(const struct sl_counter *table, const char *name)
{
	for (const struct sl_counter *c = table; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

int
sl_counter_print(const struct sl_counter *table, const struct sl_counter_fmt *fmt,
		 const void *base)
{
	int n = 0;

	for (const struct sl_counter_fmt *f = fmt; f->name != NULL; f++) {
		const struct sl_counter *c = sl_counter_find(table, f->name);

		/* test_app checks that every layout's names are found; a miss shows. */
		if (c == NULL)
			n += printf("%s%*s%s", f->pre, f->width, "?", f->post);
		else if (c->flags & SL_CNT_I64) /* signed (a stream's lost can go below 0) */
			n += printf("%s%*" PRId64 "%s", f->pre, f->width,
				    (int64_t)sl_counter_get(c, base), f->post);
		else
			n += printf("%s%*" PRIu64 "%s", f->pre, f->width, sl_counter_get(c, base),
				    f->post);
	}
	return n;
}

uint64_t
sl_counter_get(const struct sl_counter *c, const void *base)
{
	const char *p = (const char *)base + c->off;

	if (c->flags & SL_CNT_U32) {
		uint32_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	if (c->flags & SL_CNT_U8)
		return *(const uint8_t *)p;
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}
