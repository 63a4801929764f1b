/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_PARSE_H
#define SL_PARSE_H

/*
 * The value parsers, written once and shared by the options (options.c)
 * and the prompt (cli_*.c). Each returns 0, or -EINVAL with err saying what
 * is wrong and what is expected (without naming the option or command: the
 * caller does), and leaves its output unchanged on error.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

#include "sl_config.h"

/* A whole decimal number in [min, max]. */
int sl_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v, char *err, size_t len);
/*
 * Seconds (decimals allowed), above 0 and at most SL_MAX_SECONDS, as
 * microseconds (rounded up); a unit may follow: 2s, 500ms, 100us. Every
 * duration the user gives goes through it (--duration, --drain, the bench's).
 */
int sl_parse_seconds(const char *s, uint64_t *us, char *err, size_t len);
/* The same, 0 included (--drain 0). */
int sl_parse_seconds0(const char *s, uint64_t *us, char *err, size_t len);
/* "S", "S1,S2", "S:W,...", "MIN-MAX" into c's sizes. */
int sl_parse_sizes(struct sl_stream_conf *c, const char *arg, char *err, size_t len);
/* NAME=MODE:ARGS into c's fields (a field of the same name is replaced; "off" clears). */
int sl_parse_field(struct sl_stream_conf *c, const char *arg, char *err, size_t len);
/* "1-2:0.0,3:0.1" */
int sl_parse_map(struct sl_map_entry *map, uint16_t *nb, const char *arg, char *err, size_t len);
/* "0,2", "0-3", "all" or "none": a set of ports (all sets every one, none clears). */
int sl_parse_ports(const char *arg, bool *set, char *err, size_t len);
/* auto, on, off */
int sl_parse_lltx(const char *s, enum sl_lltx *l, char *err, size_t len);
/* Two IPv4 addresses "SRC" "DST" (host order). */
int sl_parse_ipv4(const char *s, uint32_t *ip, char *err, size_t len);
/* An IPv6 address (network order). */
int sl_parse_ipv6(const char *s, uint8_t ip[16], char *err, size_t len);
/* A MAC address. */
int sl_parse_mac(const char *s, struct rte_ether_addr *mac, char *err, size_t len);
/* A rate (sl_rate.h) with the message users see. */
int sl_parse_rate(const char *s, struct sl_rate *r, char *err, size_t len);
/* A replay's speed: a multiplier from 0.001 to 1000, or max (-1: top speed). */
int sl_parse_speed(const char *s, double *speed, char *err, size_t len);
/* [ADDR:]PORT, ADDR numeric IPv4 or [IPv6] (default 127.0.0.1), PORT 0..65535 (0: any free). */
int sl_parse_listen(const char *s, char *host, size_t hlen, uint16_t *port, char *err, size_t len);

#endif /* SL_PARSE_H */
