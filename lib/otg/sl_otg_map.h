/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_OTG_MAP_H
#define SL_OTG_MAP_H

/**
 * @file
 * OTG's header names and their fields, as the header stack's (sl_stack.h):
 * one table for the reader (sl_otg.c) and the writer (sl_otg_write.c).
 * Fields with no field of the same name on either side (IPv4's priority,
 * checksums, ICMP's echo) are each side's own.
 */

/** A field: OTG's name, the stack's. */
struct sl_otg_fmap {
	const char *otg, *ours;
};

/** A header: OTG's choice, the stack's kind, its fields (NULL-terminated). */
struct sl_otg_hmap {
	const char *otg, *ours;
	struct sl_otg_fmap f[20];
};

/** The headers, in this order (the reader counts each kind by its index). */
#define SL_OTG_NB_HMAPS 12
extern const struct sl_otg_hmap sl_otg_hmaps[SL_OTG_NB_HMAPS];

/** The header of the stack's kind @p ours ("icmp6"); NULL: none. */
const struct sl_otg_hmap *sl_otg_hmap_ours(const char *ours);

/** OTG's name of the stack's field @p ours of @p m ("ttl": "time_to_live"); NULL: none. */
const char *sl_otg_field_otg(const struct sl_otg_hmap *m, const char *ours);

#endif /* SL_OTG_MAP_H */
