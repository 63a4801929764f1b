/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_SIG_H
#define SL_SIG_H

/**
 * @file
 * The payload signature: the last SL_SIG_LEN bytes of every generated frame
 * whose L4 payload is long enough (16 bytes). Read at the wire by the sim's
 * verifier (and by any receiver): stream id, producer, sequence, TX time.
 *
 * Sequence numbers count from 0 per (stream, producer, TX queue) and wrap
 * at 2^32. The TSC is the generating lcore's rte_rdtsc() when the burst was
 * built. Fields are in host byte order: the signature is for Sluice's own
 * tools on the same host, not a wire protocol.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "sl_wire.h"

#define SL_SIG_MAGIC 0x51ce
#define SL_SIG_LEN 16
#define SL_SIG_MAX_STREAMS 16

struct sl_sig {
	uint16_t magic;
	uint8_t stream;
	uint8_t producer;
	uint32_t seq;
	uint64_t tsc;
} __rte_packed;

/** The signature of m, or NULL if m carries none. */
static inline const struct sl_sig *
sl_sig_get(const struct rte_mbuf *m)
{
	const struct sl_sig *s;

	if (rte_pktmbuf_data_len(m) < SL_WIRE_MIN_LEN)
		return NULL;
	s = rte_pktmbuf_mtod_offset(m, const struct sl_sig *, rte_pktmbuf_data_len(m) - SL_SIG_LEN);
	return s->magic == SL_SIG_MAGIC ? s : NULL;
}

#endif /* SL_SIG_H */
