/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_STACK_H
#define SL_STACK_H

/**
 * @file
 * Header stacks: a flow's headers outer to inner, held as data (struct
 * sl_hdrs) and written as text,
 *
 *   eth/vlan(id=10)/vlan(id=20)/mpls(label=100)/ipv4(src=198.18.0.1)/udp/
 *   vxlan(vni=5000)/eth/ipv4(src=10.0.0.1,dst=10.0.0.2)/udp(dport=7)
 *
 * Headers: eth, vlan, mpls, ipv4, ipv6, udp, tcp, icmp, icmp6, vxlan,
 * gre, gtpu. Each may give values to its fields (NAME(FIELD=VALUE,...));
 * what is not given is filled in: the next header's ethertype, protocol or
 * port (vxlan 4789, gtpu 2152), lengths (per frame size), MPLS's
 * bottom-of-stack bit, TTLs, and every checksum (IPv4 headers, UDP, TCP,
 * ICMP, ICMPv6; outer and inner). The payload (zero, then the signature
 * in its last 16 bytes) follows the last header.
 *
 * A field of any header can also vary frame by frame (the field engine,
 * sl_gen.h): its path is HEADER[.N].FIELD (N: the header's occurrence,
 * from 1), e.g. ipv4.2.src for the inner IPv4 source, vxlan.vni.
 *
 * Compiled once (control path) into a template and the places a frame
 * writes: length fields, IPv4 headers, L4 checksums (innermost first).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

/**
 * A stack's text, with its NUL: the longest sl_stack_str() writes (16
 * headers, 32 values, IPv6 addresses in full) fits, so every stack the
 * data can hold is written whole and reads back.
 */
#define SL_STACK_TEXT_MAX 2048
#define SL_STACK_MAX 16        /**< headers in a stack */
#define SL_STACK_HDR_MAX 256   /**< bytes of headers */

#define SL_STACK_VALS_MAX 32   /**< values given in one stack */
#define SL_STACK_FIELDS_MAX 24 /**< fields of one header kind (at most 32: a bit each) */

/** One value given to a field of a stack's header (struct sl_hdrs). */
struct sl_hdr_val {
	uint8_t hdr;       /**< its header's index in the stack */
	uint8_t field;     /**< the field's index in its header's kind (SL_HDR_TPID: a tag's TPID) */
	uint8_t len;       /**< 4: a number (v32, host order); 6: a MAC; 16: an IPv6 address (b) */
	union {
		uint32_t v32;
		uint8_t b[16];
	};
};

/** A tag's TPID: the type field of the header before the vlan it is given to. */
#define SL_HDR_TPID 0xff

/**
 * A header stack as data: the headers' kinds, outer to inner (each an index in
 * sl_stack.c's table of kinds), and the values given to
 * their fields. n == 0: no stack. Built by sl_stack_parse() from the text,
 * or a header and a value at a time (sl_hdrs_push(), sl_hdrs_set()); the
 * text again by sl_stack_str(), which sl_stack_parse() reads back to the
 * same stack.
 */
struct sl_hdrs {
	uint8_t n;
	uint8_t nb_vals;
	uint8_t kind[SL_STACK_MAX];
	struct sl_hdr_val val[SL_STACK_VALS_MAX];
};

/** Parse @p text into @p s. 0, or -EINVAL with @p err saying what is wrong and what to give. */
int sl_stack_parse(const char *text, struct sl_hdrs *s, char *err, size_t len);
/** Add a header of kind @p kind ("ipv4") at the inner end. 0, or -EINVAL with @p err. */
int sl_hdrs_push(struct sl_hdrs *s, const char *kind, char *err, size_t len);
/** Give @p field of the innermost header @p value (as the text writes it). 0, or -EINVAL. */
int sl_hdrs_set(struct sl_hdrs *s, const char *field, const char *value, char *err,
		size_t len);
/** sl_hdrs_set() for header @p h (0 .. n - 1) instead of the innermost. */
int sl_hdrs_set_at(struct sl_hdrs *s, unsigned int h, const char *field, const char *value,
		   char *err, size_t len);
/** The bytes of @p s's headers as laid (not checked: sl_stack_compile() checks), or -EINVAL. */
int sl_hdrs_len(const struct sl_hdrs *s);
/** Header @p i's kind, as the text names it ("ipv4"); NULL past the stack. */
const char *sl_hdrs_kind(const struct sl_hdrs *s, unsigned int i);
/**
 * Value @p v of @p s (0 .. nb_vals - 1): its header's index, its field's name
 * ("src"; "tpid" for a tag's TPID) and its text as sl_stack_str() writes it
 * ("198.18.0.1", "02:00:00:00:00:01", "0x88a8", "64"). 0, or -EINVAL past the values.
 */
int sl_hdrs_val(const struct sl_hdrs *s, unsigned int v, uint8_t *hdr, const char **field,
		char *text, size_t len);
/** The text of @p s into buf; its length, or -ENOSPC if it does not fit (buf cut). */
int sl_stack_str(const struct sl_hdrs *s, char *buf, size_t len);

/** What a stack's headers take from the flow where the text gives nothing. */
struct sl_stack_defaults {
	struct rte_ether_addr src_mac, dst_mac;  /**< the first eth header's */
	uint32_t src_ip, dst_ip;                 /**< IPv4, host order */
	uint8_t src_ip6[16], dst_ip6[16];
	uint16_t src_port, dst_port;             /**< UDP/TCP, host order */
};

/** Where a frame's length-dependent and checksum bytes are (sl_gen_burst). */
struct sl_stack_rt {
	uint8_t nb_len;
	/** 16-bit lengths: the field at off holds pkt_len - sub (network order). */
	struct { uint16_t off, sub; } len[SL_STACK_MAX];
	uint8_t nb_ip4;
	uint16_t ip4[SL_STACK_MAX];  /**< IPv4 headers (20 bytes, checksum at +10) */
	uint8_t nb_l4;
	/** L4 checksums, innermost first. */
	struct {
		uint16_t off;        /**< the L4 header */
		uint16_t csum;       /**< its checksum field */
		uint16_t ip;         /**< its IP header (pseudo-header), if ph */
		uint8_t ph;          /**< pseudo-header: 0 none (ICMP), 4, 6 */
		uint8_t proto;       /**< in the pseudo-header */
		uint8_t udp;         /**< a computed 0 goes out as 0xffff */
		uint8_t off0;        /**< checksum given as 0 (udp(csum=0)): left 0 */
	} l4[SL_STACK_MAX];
	uint8_t extra_tags;      /**< VLAN tags and MPLS labels: 4 bytes each beyond the MTU */
};

/**
 * Compile @p s with @p d into @p tmpl (its headers; the rest left as it
 * is), *hdr_len and @p rt. 0, or -EINVAL with @p err saying which header
 * or field is wrong and what is expected.
 */
int sl_stack_compile(const struct sl_hdrs *s, const struct sl_stack_defaults *d, uint8_t *tmpl,
		     uint16_t *hdr_len, struct sl_stack_rt *rt, char *err, size_t len);

/** A field of a stack by its path (HEADER[.N].FIELD): where it is and how wide. */
struct sl_stack_field {
	uint16_t off;     /**< first byte of its window in the frame */
	uint8_t win;      /**< window bytes, 1..4, big endian */
	uint8_t shift;    /**< its lowest bit in the window */
	uint8_t bits;     /**< its width, 1..32 */
	uint8_t big;      /**< 6: a MAC's, 16: an IPv6 address's low 32 bits (0: the whole field) */
};

/** Find @p path in @p s's headers. 0, or -EINVAL with @p err. */
int sl_stack_field_find(const struct sl_hdrs *s, const char *path, struct sl_stack_field *f,
			char *err, size_t len);

#endif /* SL_STACK_H */
