/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_FLOW_H
#define SL_FLOW_H

/*
 * A flow as words, the one syntax of flow add, flow set and --flow:
 *
 *   NAME [port P] [to R] [from DEVICE to DEVICE [ipv4|ipv6]] [src IP] [dst IP] [udp|tcp] [sport N] [dport N]
 *        [vlan N] [src-mac MAC] [dst-mac MAC] [stack H/H/...] [size S] [rate R]
 *        [count N] [delay S] [duration S] [burst N gap S [bursts N]] [flows N]
 *        [field NAME=MODE:ARGS]...
 *
 * stack: a header stack (sl_stack.h), e.g. eth/ipv4/udp/vxlan/eth/ipv4/udp;
 * its fields vary by path (field vxlan.vni=inc:100,10).
 *
 * Each key sets one part of the flow; what is not given keeps its value
 * (a new flow: the options' template, --tx-ip, --size, ..., on port 0).
 */

#include <stddef.h>

#include "sl_config.h"

/** Keys, for help lines. */
#define SL_FLOW_KEYS "port P, to R, from DEVICE, to DEVICE, ipv4|ipv6, " \
	"src IP, dst IP, udp|tcp, sport N, dport N, vlan N, " \
	"src-mac MAC, dst-mac MAC, stack H/H/..., size S, rate R, count N, delay S, " \
	"duration S, burst N, gap S, bursts N, flows N, field NAME=MODE:ARGS, pcap FILE, " \
	"speed X|max, loop N, signed, iface N"

/**
 * Apply the words argv[0..argc) to @p f. 0, or -EINVAL with @p err naming
 * the word at fault and what is expected (f may be partly written: parse
 * into a copy).
 */
int sl_flow_parse(struct sl_flow_conf *f, int argc, char **argv, char *err, size_t len);

/** Split @p line (modified) into at most @p max words. Returns their number, or -1 if more. */
int sl_flow_words(char *line, char **argv, int max);

/**
 * A flow from a device (from DEVICE) is sent on the device's port, unless
 * the words argv[0..argc) said a port (the check refuses another).
 */
void sl_flow_device_port(const struct sl_config *c, struct sl_flow_conf *f, int argc, char **argv);

/** A flow back as the words that make it (show flows), into buf. */
void sl_flow_str(const struct sl_flow_conf *f, char *buf, size_t len);

#endif /* SL_FLOW_H */
