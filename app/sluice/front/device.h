/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_DEVICE_H
#define SL_DEVICE_H

/*
 * A device (an emulated host, sl_dev.h) as words, the one syntax of
 * device add and --device:
 *
 *   NAME port P mac MAC [vlan N] [mtu N]
 *        [ip A/PREFIX [gw G] [gw-mac MAC]]
 *        [ip6 A/PREFIX [gw6 G] [gw6-mac MAC]]
 *
 * (ip4, gw4, gw4-mac: the same as ip, gw, gw-mac.)
 *
 * A gateway's MAC is resolved (ARP, ND) unless gw4-mac/gw6-mac gives it.
 */

#include <stddef.h>

#include "sl_config.h"

#define SL_DEVICE_KEYS "port P, mac MAC, vlan N, mtu N, ip A/P, gw G, gw-mac MAC, " \
	"ip6 A/P, gw6 G, gw6-mac MAC"

/**
 * A device named @p name from the words argv[0..argc) into @p d (zeroed
 * first). 0, or -EINVAL with @p err naming the word at fault.
 */
int sl_device_parse(struct sl_dev_conf *d, const char *name, int argc, char **argv, char *err,
		    size_t len);

/** Device @p d back as the words that make it (show devices). */
void sl_device_str(const struct sl_dev_conf *d, char *buf, size_t len);

/**
 * Add device @p d to configuration @p c (a candidate): its name not taken,
 * the table not full. 0, or -EINVAL with @p err.
 */
int sl_device_add(struct sl_config *c, const struct sl_dev_conf *d, char *err, size_t len);

/** Remove device @p idx from @p c; the later ones move down. */
void sl_device_del(struct sl_config *c, uint16_t idx);

#endif /* SL_DEVICE_H */
