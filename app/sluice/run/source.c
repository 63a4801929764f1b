/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of traffic sources (source.h). */

#include <rte_common.h>

#include "source.h"

/* The rows, the first that claims a stream its source: generated takes the rest. */
static const struct sl_source *const sources[] = { &sl_source_replay, &sl_source_gen };

const struct sl_source *
sl_source_of(const struct sl_config *o, uint16_t id)
{
	for (unsigned int i = 0; i < RTE_DIM(sources); i++)
		if (sources[i]->claims(o, id))
			return sources[i];
	return &sl_source_gen;
}
