/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_OTG_PVT_H
#define SL_OTG_PVT_H

/* What the OTG reader's files share (sl_otg.c, sl_otg_dev.c). */

#include <stdbool.h>

#include <jansson.h>

#include "sl_otg.h"

/* Refuse: the path at fault and why (returns -EINVAL). */
int sl_otg_errf(struct sl_otg_err *e, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Accept with a warning. */
void sl_otg_warnf(struct sl_otg_err *e, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A whole number as OTG clients send one: a JSON integer, or a string of
 * one (the proto3 JSON mapping writes 64-bit integers as strings).
 */
bool sl_otg_int_of(const json_t *v, json_int_t *out);
/* A whole number (a JSON integer, or a string of one) within [lo, hi]. */
bool sl_otg_int_in(const json_t *v, json_int_t lo, json_int_t hi, json_int_t *out);
/* A member that, when present, must be a string (absent: *out NULL). 0 or -1. */
int sl_otg_opt_string(const json_t *o, const char *key, const char **out);
/* The port named @p name in ports[]: its id. 0, or -EINVAL with e (path at fault). */
int sl_otg_port_of(const json_t *ports, const struct sl_config_env *env, const char *name,
		   const char *path, uint16_t *pid, struct sl_otg_err *e);

/* An OTG name of a device's object: which device, and what it is. */
struct sl_otg_dev_name {
	const char *name;       /* in the JSON document (lives as long as it) */
	uint16_t dev;           /* the device (c->devices[]) */
	uint8_t kind;           /* SL_OTG_DEV_ETH, _IP4, _IP6 */
};
enum { SL_OTG_DEV_ETH, SL_OTG_DEV_IP4, SL_OTG_DEV_IP6, SL_OTG_DEV_DEVICE, SL_OTG_DEV_VLAN };

/* The names devices[] gave, for the flows' tx_rx.device. */
struct sl_otg_dev_names {
	struct sl_otg_dev_name n[5 * SL_DEV_MAX];
	unsigned int nb;
};

/*
 * devices[]: each Device's ethernets[], one Sluice device each (its name
 * the ethernet's), into c->devices (replaced); their names into @p names.
 * 0, or -EINVAL with @p e.
 */
int sl_otg_devices(const json_t *devs, const json_t *ports, const struct sl_config_env *env,
		   struct sl_config *c, struct sl_otg_dev_names *names, struct sl_otg_err *e);

/*
 * Names are unique over a Config: none of devices[]' names may be a port's
 * or a flow's. 0, or -EINVAL with @p e naming it.
 */
int sl_otg_dev_names_unique(const struct sl_otg_dev_names *names, const json_t *ports,
			    const json_t *flows, struct sl_otg_err *e);

/*
 * A flow's tx_rx.device (@p dv, at @p path): its one tx and one rx name,
 * an ethernet or an IPv4 or IPv6 address of devices[], into f (src_dev,
 * dst_dev, the family, the port). 0, or -EINVAL with @p e.
 */
int sl_otg_flow_devices(const json_t *dv, const char *path, const struct sl_config *c,
			const struct sl_otg_dev_names *names, struct sl_flow_conf *f,
			struct sl_otg_err *e);

#endif /* SL_OTG_PVT_H */
