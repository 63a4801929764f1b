/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_OTG_H
#define SL_OTG_H

/**
 * @file
 * An Open Traffic Generator configuration (the OTG models' Config, as
 * JSON: ports and flows) read into Sluice's configuration: each OTG flow
 * a flow of the table (sl_config.h), its packet a header stack
 * (sl_stack.h), its patterns the field engine's fields. The one JSON
 * reader of flows: --otg-config and (to come) the REST API's POST /config.
 *
 * What Sluice cannot do is refused, never ignored: each refusal names the
 * JSON path at fault (flows[0].packet[1].ipv4.src.increment.step) and
 * says what to do; what is accepted but has no effect here is a warning.
 */

#include <stddef.h>

#include "sl_config.h"

/** A JSON document is read whole, at most this many bytes. */
#define SL_OTG_MAX_BYTES (4u << 20)

/** Why a configuration was refused, and what was accepted but ignored. */
/** A capture's limits per port (captures[]): the first frames, so many bytes. */
#define SL_OTG_CAPTURE_FRAMES 65536u
#define SL_OTG_CAPTURE_BYTES (64u << 20)

/**
 * The OTG models release whose Config Sluice reads and whose API it serves
 * (GET /capabilities/version's api_spec_version): snappi and gosnappi of
 * the same version check against it (their version_check).
 */
#define SL_OTG_MODELS_VERSION "1.3.0"

struct sl_otg_err {
	char path[160];     /**< the JSON path at fault ("" for the document) */
	char msg[320];      /**< what is wrong and what to do */
	unsigned int nb_warnings;
	char warnings[4][200];
	unsigned int more_warnings;  /**< warnings beyond those kept */
	char port_name[SL_MAX_PORTS][48]; /**< each port's OTG name (ports[]) */
	bool capture[SL_MAX_PORTS];  /**< captures[]: the port's frames kept (pcap) */
	uint32_t cap_snap[SL_MAX_PORTS]; /**< bytes kept of each (packet_size; 0: whole) */
};

/**
 * Read OTG Config JSON @p json (@p len bytes) into @p c's flow table (its
 * flows replaced; the rest of @p c kept), ports named by location: a port
 * id ("0"), or a port's name as DPDK gives it ("net_null0", "sim1", a PCI
 * address). 0, or -EINVAL with @p e (c unchanged), -ENOMEM.
 */
int sl_otg_config(const char *json, size_t len, const struct sl_config_env *env,
		  struct sl_config *c, struct sl_otg_err *e);

#endif /* SL_OTG_H */
