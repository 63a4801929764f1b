/* SPDX-License-Identifier: BSD-3-Clause */
/* OTG's header names and their fields, as the stack's (sl_otg_map.h). */

#include <stddef.h>
#include <string.h>

#include "sl_otg_map.h"

const struct sl_otg_hmap sl_otg_hmaps[SL_OTG_NB_HMAPS] = {
	{ "ethernet", "eth", { { "src", "src" }, { "dst", "dst" }, { "ether_type", "type" } } },
	{ "vlan", "vlan", { { "id", "id" }, { "priority", "pcp" }, { "cfi", "dei" },
			    { "tpid", "tpid" } } },
	{ "mpls", "mpls", { { "label", "label" }, { "traffic_class", "tc" },
			    { "bottom_of_stack", "s" }, { "time_to_live", "ttl" } } },
	{ "ipv4", "ipv4", { { "src", "src" }, { "dst", "dst" }, { "time_to_live", "ttl" },
			    { "identification", "id" }, { "protocol", "proto" },
			    { "total_length", "len" }, { "version", "ver" },
			    { "header_length", "ihl" }, { "reserved", "rsv" },
			    { "dont_fragment", "df" }, { "more_fragments", "mf" },
			    { "fragment_offset", "foff" } } },
	{ "ipv6", "ipv6", { { "src", "src" }, { "dst", "dst" }, { "traffic_class", "tc" },
			    { "flow_label", "flow" }, { "hop_limit", "hlim" },
			    { "next_header", "nh" }, { "payload_length", "plen" } } },
	{ "udp", "udp", { { "src_port", "sport" }, { "dst_port", "dport" }, { "length", "len" } } },
	{ "tcp", "tcp", { { "src_port", "sport" }, { "dst_port", "dport" }, { "seq_num", "seq" },
			  { "ack_num", "ack" }, { "window", "win" }, { "data_offset", "doff" },
			  { "ecn_ns", "ns" }, { "ecn_cwr", "cwr" }, { "ecn_echo", "ece" },
			  { "ctl_urg", "urgf" }, { "ctl_ack", "ackf" }, { "ctl_psh", "psh" },
			  { "ctl_rst", "rst" }, { "ctl_syn", "syn" }, { "ctl_fin", "fin" } } },
	{ "icmp", "icmp", { { "type", "type" }, { "code", "code" }, { "identifier", "id" },
			    { "sequence_number", "seq" } } },
	{ "icmpv6", "icmp6", { { "type", "type" }, { "code", "code" }, { "identifier", "id" },
			       { "sequence_number", "seq" } } },
	{ "vxlan", "vxlan", { { "vni", "vni" }, { "flags", "flags" }, { "reserved0", "rsv0" },
			      { "reserved1", "rsv1" } } },
	{ "gre", "gre", { { "protocol", "proto" }, { "checksum_present", "c" },
			  { "reserved0", "rsv0" }, { "version", "ver" } } },
	{ "gtpv1", "gtpu", { { "teid", "teid" }, { "message_type", "type" },
			     { "message_length", "len" } } },
};

const struct sl_otg_hmap *
sl_otg_hmap_ours(const char *ours)
{
	for (size_t i = 0; ours != NULL && i < SL_OTG_NB_HMAPS; i++)
		if (strcmp(sl_otg_hmaps[i].ours, ours) == 0)
			return &sl_otg_hmaps[i];
	return NULL;
}

const char *
sl_otg_field_otg(const struct sl_otg_hmap *m, const char *ours)
{
	for (size_t i = 0; i < sizeof(m->f) / sizeof(m->f[0]) && m->f[i].otg != NULL; i++)
		if (strcmp(m->f[i].ours, ours) == 0)
			return m->f[i].otg;
	return NULL;
}
