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

#include <jansson.h>

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
};

/**
 * Read OTG Config JSON @p json (@p len bytes) into @p c: its flow table,
 * its ports' names and captures (c->pn) replaced, layer1's MTUs set, the
 * rest of @p c kept. Ports are named by location: a port id ("0"), or a
 * port's name as DPDK gives it ("net_null0", "sim1", a PCI address). 0,
 * or -EINVAL with @p e (c unchanged), -ENOMEM.
 */
int sl_otg_config(const char *json, size_t len, const struct sl_config_env *env,
		  struct sl_config *c, struct sl_otg_err *e);

/** The flows sl_otg_write() left out: how many, and the first one's name. */
struct sl_otg_left {
	unsigned int nb;
	char first[SL_FLOW_NAME_MAX];
};

/**
 * @p c as an OTG Config: ports[] (every port @p env has: its name, c->pn's
 * or port-P, its location the DPDK port name), layer1[] (the MTUs set),
 * captures[] and flows[]: each flow of the table with its headers (every
 * value the stack would fill in otherwise than OTG's defaults written out:
 * IPv4's DF, TCP's PSH|ACK, addresses and ports), patterns, size, rate and
 * duration. sl_otg_config() reads it back to the same configuration, frame
 * for frame. A flow the models (SL_OTG_MODELS_VERSION) have no form for
 * is left out and counted in @p left: a replay, a random pattern, --flows'
 * walk, a classic MAC field (24 bits), a field OTG lacks (TCP's urgent
 * pointer, a tag's inner type, GTP-U's flags, a pattern on a checksum),
 * a count and a duration together. NULL: out of memory.
 */
json_t *sl_otg_write(const struct sl_config *c, const struct sl_config_env *env,
		     struct sl_otg_left *left);

#endif /* SL_OTG_H */
