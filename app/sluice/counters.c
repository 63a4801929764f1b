/* SPDX-License-Identifier: BSD-3-Clause */
/* The counter descriptions (counters.h). */

#include <string.h>

#include "counters.h"
#include "sl_xmit.h"

#define Q(f) offsetof(struct sl_txq_stats, f)
#define P(f) offsetof(struct sl_port_totals, f)

const struct sl_counter sl_txq_counters[] = {
	{ "tx_packets", "pkts", 12, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(tx_packets),
	  "packets the driver took, counted once (engine, per lcore)" },
	{ "tx_bytes", "bytes", 14, SL_CNT_SHOW, Q(tx_bytes),
	  "their bytes, as handed to the driver (no FCS)" },
	{ "busy", "busy", 8, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(busy),
	  "driver calls answered BUSY: the device ring was full" },
	{ "collisions", "collisions", 10, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(collisions),
	  "engine trylock failures plus driver LOCKED answers" },
	{ "locked", "locked", 8, 0, Q(locked),
	  "driver LOCKED answers (part of collisions)" },
	{ "waited", "waited", 8, 0, Q(waited),
	  "collisions the bounded wait resolved: the lock came free, the burst went direct" },
	{ "requeued", "requeued", 10, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(requeued),
	  "packets put into the backlog" },
	{ "backlog", "backlog", 8, SL_CNT_SUMMARY | SL_CNT_SHOW | SL_CNT_GAUGE | SL_CNT_U32,
	  Q(backlog), "packets in the backlog now" },
	{ "dropped", "dropped", 8, SL_CNT_SUMMARY | SL_CNT_SHOW, Q(dropped),
	  "packets freed without being sent, all reasons (drop_reasons)" },
	{ "dead_loops", "dead_loops", 10, SL_CNT_SUMMARY, Q(dead_loops),
	  "re-entrant calls refused" },
	{ "release_bound", "rel_bound", 9, 0, Q(release_bound),
	  "releases that stopped re-draining at their bound (work left for the poll)" },
	{ NULL, NULL, 0, 0, 0, NULL },
};

const struct sl_counter sl_port_counters[] = {
	{ "generated", "generated", 14, 0, P(generated),
	  "packets the workers handed to the engine (or to the direct burst call)" },
	{ "tx_packets", "tx", 14, 0, P(tx_packets),
	  "packets the drivers took (engine counters; --xmit direct: the burst call's count)" },
	{ "tx_bytes", "bytes", 16, 0, P(tx_bytes), "their bytes, as handed (no FCS)" },
	{ "dropped", "dropped", 8, 0, P(dropped), "packets freed without being sent" },
	{ "backlog", "backlog", 8, SL_CNT_GAUGE, P(backlog), "packets in the backlogs now" },
	{ NULL, NULL, 0, 0, 0, NULL },
};

uint64_t
sl_counter_get(const struct sl_counter *c, const void *base)
{
	const char *p = (const char *)base + c->off;

	if (c->flags & SL_CNT_U32) {
		uint32_t v;

		memcpy(&v, p, sizeof(v));
		return v;
	}
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}
