/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Emulated hosts: ARP (RFC 826, gratuitous ARP as RFC 5227 announces),
 * IPv6 neighbour discovery (RFC 4861: NS, NA, the solicited-node group),
 * ICMP and ICMPv6 echo. One thread drives a table (sl_dev.h); frames are
 * parsed from the first segment only (a control frame fits one).
 */

#include <errno.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mempool.h>

#include "sl_dev.h"

#define IP6_HLEN 40
#define ICMP6_NS 135
#define ICMP6_NA 136
#define ICMP6_ECHO_REQ 128
#define ICMP6_ECHO_REP 129
#define ND_OPT_SRC_LL 1
#define ND_OPT_TGT_LL 2
#define NA_F_ROUTER 0x80
#define NA_F_SOLICITED 0x40
#define NA_F_OVERRIDE 0x20
/* The ND messages' hop limit: a receiver drops any other (RFC 4861 7.1). */
#define ND_HOP_LIMIT 255
#define DEV_TTL 64

static const uint8_t all_nodes6[16] = { 0xff, 0x02, [15] = 1 };

/* A frame as parsed: where its L3 begins, its VLAN (0: none). */
struct rx_view {
	const uint8_t *p;
	uint32_t len;      /* bytes of the first segment */
	uint32_t l3;       /* offset of the L3 header */
	uint16_t vlan;
	uint16_t et;
	const struct rte_ether_hdr *eth;
};

bool
sl_dev_same_net4(rte_be32_t a, rte_be32_t b, uint8_t prefix)
{
	uint32_t mask = prefix == 0 ? 0 : prefix >= 32 ? UINT32_MAX : ~(UINT32_MAX >> prefix);

	return ((rte_be_to_cpu_32(a) ^ rte_be_to_cpu_32(b)) & mask) == 0;
}

bool
sl_dev_same_net6(const uint8_t *a, const uint8_t *b, uint8_t prefix)
{
	unsigned int full = prefix / 8, rest = prefix % 8;

	if (prefix > 128)
		return false;
	if (memcmp(a, b, full) != 0)
		return false;
	return rest == 0 || ((a[full] ^ b[full]) & (uint8_t)(0xff << (8 - rest))) == 0;
}

void
sl_dev_link_local(const struct rte_ether_addr *mac, uint8_t *ll6)
{
	const uint8_t *m = mac->addr_bytes;

	memset(ll6, 0, 16);
	ll6[0] = 0xfe;
	ll6[1] = 0x80;
	ll6[8] = m[0] ^ 0x02;
	ll6[9] = m[1];
	ll6[10] = m[2];
	ll6[11] = 0xff;
	ll6[12] = 0xfe;
	ll6[13] = m[3];
	ll6[14] = m[4];
	ll6[15] = m[5];
}

const char *
sl_dev_nstate_name(enum sl_dev_nstate s)
{
	static const char *const names[] = {
		[SL_DEV_N_NONE] = "-", [SL_DEV_N_INCOMPLETE] = "INCOMPLETE",
		[SL_DEV_N_REACHABLE] = "REACHABLE", [SL_DEV_N_PROBE] = "PROBE",
		[SL_DEV_N_FAILED] = "FAILED", [SL_DEV_N_PERMANENT] = "PERMANENT",
	};

	return (unsigned int)s < RTE_DIM(names) ? names[s] : "?";
}

static bool
is_zero16(const uint8_t *a)
{
	static const uint8_t z[16];

	return memcmp(a, z, 16) == 0;
}

/* A neighbour entry as a configuration starts it. */
static void
neigh_start(struct sl_dev_neigh *n, bool has_gw, bool given, const struct rte_ether_addr *mac)
{
	memset(n, 0, sizeof(*n));
	if (!has_gw)
		return;
	if (given) {
		n->state = SL_DEV_N_PERMANENT;
		n->mac = *mac;
		return;
	}
	n->state = SL_DEV_N_INCOMPLETE;
	n->next_us = 0; /* ask at the first tick */
}

static void
dev_start(struct sl_dev_state *d)
{
	const struct sl_dev_conf *c = &d->conf;

	neigh_start(&d->n4, c->ip4 && c->gw4 != 0, c->gw4_mac_given, &c->gw4_mac);
	neigh_start(&d->n6, c->ip6 && !is_zero16(c->gw6), c->gw6_mac_given, &c->gw6_mac);
	d->announce = true;
}

int
sl_dev_table_init(struct sl_dev_table *t, const struct sl_dev_conf *c, uint16_t n,
		  struct rte_mempool *mp)
{
	if (n > SL_DEV_MAX)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->n = n;
	t->mp = mp;
	for (uint16_t i = 0; i < n; i++) {
		struct sl_dev_state *d = &t->d[i];

		d->conf = c[i];
		sl_dev_link_local(&c[i].mac, d->ll6);
		dev_start(d);
	}
	return 0;
}

void
sl_dev_wake(struct sl_dev_table *t)
{
	for (uint16_t i = 0; i < t->n; i++) {
		struct sl_dev_neigh *ns[2] = { &t->d[i].n4, &t->d[i].n6 };

		for (int k = 0; k < 2; k++)
			if (ns[k]->state == SL_DEV_N_FAILED) {
				ns[k]->state = SL_DEV_N_INCOMPLETE;
				ns[k]->tries = 0;
				ns[k]->next_us = 0;
			}
	}
}

void
sl_dev_clear(struct sl_dev_table *t)
{
	for (uint16_t i = 0; i < t->n; i++)
		dev_start(&t->d[i]);
}

void
sl_dev_port_totals(const struct sl_dev_state *d, uint16_t n, uint16_t port,
		   struct sl_dev_port_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (uint16_t i = 0; i < n; i++) {
		const struct sl_dev_stats *s = &d[i].st;

		if (d[i].conf.port != port)
			continue;
		t->arp_rx += s->arp_requests_in + s->arp_replies_in;
		t->arp_tx += s->arp_replies_out + s->arp_requests_out + s->garp_out;
		t->nd_rx += s->ns_in + s->na_in;
		t->nd_tx += s->na_out + s->ns_out + s->una_out;
		t->echo_replied += s->echo_out;
		t->resolved += s->resolved;
		t->unresolved += (d[i].n4.state == SL_DEV_N_INCOMPLETE ||
				  d[i].n4.state == SL_DEV_N_FAILED) +
				 (d[i].n6.state == SL_DEV_N_INCOMPLETE ||
				  d[i].n6.state == SL_DEV_N_FAILED);
	}
}

/* ---- building frames ---- */

/* A new frame of @p l3len bytes after the Ethernet header (and d's tag); NULL: no mbuf. */
static uint8_t *
frame_new(struct sl_dev_table *t, const struct sl_dev_state *d, const struct rte_ether_addr *dst,
	  uint16_t et, uint32_t l3len, struct rte_mbuf **mp)
{
	uint32_t hl = RTE_ETHER_HDR_LEN + (d->conf.vlan != 0 ? RTE_VLAN_HLEN : 0);
	struct rte_mbuf *m = t->mp != NULL ? rte_pktmbuf_alloc(t->mp) : NULL;
	struct rte_ether_hdr *eth;
	uint8_t *p;

	if (m == NULL || hl + l3len > rte_pktmbuf_tailroom(m)) {
		rte_pktmbuf_free(m);
		t->no_mbuf++;
		return NULL;
	}
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(hl + l3len));
	eth = (struct rte_ether_hdr *)p;
	eth->dst_addr = *dst;
	eth->src_addr = d->conf.mac;
	if (d->conf.vlan != 0) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16(d->conf.vlan);
		vh->eth_proto = rte_cpu_to_be_16(et);
	} else {
		eth->ether_type = rte_cpu_to_be_16(et);
	}
	*mp = m;
	return p + hl;
}

/* An ARP frame: op, the sender's addresses (d's), the target's. */
static struct rte_mbuf *
arp_build(struct sl_dev_table *t, const struct sl_dev_state *d, const struct rte_ether_addr *eth_dst,
	  uint16_t op, const struct rte_ether_addr *tha, rte_be32_t tip)
{
	struct rte_mbuf *m = NULL;
	struct rte_arp_hdr *a = (struct rte_arp_hdr *)frame_new(t, d, eth_dst, RTE_ETHER_TYPE_ARP,
							       sizeof(*a), &m);

	if (a == NULL)
		return NULL;
	a->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	a->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	a->arp_hlen = RTE_ETHER_ADDR_LEN;
	a->arp_plen = 4;
	a->arp_opcode = rte_cpu_to_be_16(op);
	a->arp_data.arp_sha = d->conf.mac;
	a->arp_data.arp_sip = d->conf.addr4;
	a->arp_data.arp_tha = *tha;
	a->arp_data.arp_tip = tip;
	return m;
}

/* An IPv6 header and room for @p plen bytes of ICMPv6 after it; the ICMPv6 header returned. */
static uint8_t *
ip6_build(struct sl_dev_table *t, const struct sl_dev_state *d, const struct rte_ether_addr *eth_dst,
	  const uint8_t *src, const uint8_t *dst, uint8_t hops, uint16_t plen, struct rte_mbuf **mp)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)frame_new(t, d, eth_dst,
								   RTE_ETHER_TYPE_IPV6,
								   IP6_HLEN + plen, mp);

	if (ip == NULL)
		return NULL;
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(plen);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = hops;
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, dst, 16);
	return (uint8_t *)(ip + 1);
}

/* The ICMPv6 checksum of the message after @p l4 (its IPv6 header just before). */
static void
icmp6_csum(uint8_t *l4)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(l4 - IP6_HLEN);

	l4[2] = 0;
	l4[3] = 0;
	/* rte_ipv6_udptcp_cksum() sums the pseudo-header (with ip->proto) and the message. */
	*(uint16_t *)(l4 + 2) = rte_ipv6_udptcp_cksum(ip, l4);
}

/* An NS (na false) or NA for target @p tgt, with its link-layer option. */
static struct rte_mbuf *
nd_build(struct sl_dev_table *t, const struct sl_dev_state *d, bool na, uint8_t flags,
	 const struct rte_ether_addr *eth_dst, const uint8_t *src, const uint8_t *dst,
	 const uint8_t *tgt)
{
	struct rte_mbuf *m = NULL;
	uint8_t *h = ip6_build(t, d, eth_dst, src, dst, ND_HOP_LIMIT, 32, &m);

	if (h == NULL)
		return NULL;
	memset(h, 0, 32);
	h[0] = na ? ICMP6_NA : ICMP6_NS;
	h[4] = na ? flags : 0;
	memcpy(h + 8, tgt, 16);
	h[24] = na ? ND_OPT_TGT_LL : ND_OPT_SRC_LL;
	h[25] = 1; /* 8 bytes */
	memcpy(h + 26, d->conf.mac.addr_bytes, RTE_ETHER_ADDR_LEN);
	icmp6_csum(h);
	return m;
}

/* The solicited-node group of @p a (ff02::1:ffXX:XXXX) and its MAC (33:33:ff:XX:XX:XX). */
static void
solicited_node(const uint8_t *a, uint8_t *grp, struct rte_ether_addr *mac)
{
	memset(grp, 0, 16);
	grp[0] = 0xff;
	grp[1] = 0x02;
	grp[11] = 0x01;
	grp[12] = 0xff;
	memcpy(grp + 13, a + 13, 3);
	mac->addr_bytes[0] = 0x33;
	mac->addr_bytes[1] = 0x33;
	memcpy(&mac->addr_bytes[2], grp + 12, 4);
}

/* The MAC of IPv6 multicast group @p g (RFC 2464: 33:33 and its low 32 bits). */
static void
mcast_mac6(const uint8_t *g, struct rte_ether_addr *mac)
{
	mac->addr_bytes[0] = 0x33;
	mac->addr_bytes[1] = 0x33;
	memcpy(&mac->addr_bytes[2], g + 12, 4);
}

/* ---- reading frames ---- */

static bool
view_of(const struct rte_mbuf *m, struct rx_view *v)
{
	v->p = rte_pktmbuf_mtod(m, const uint8_t *);
	v->len = rte_pktmbuf_data_len(m);
	if (v->len < RTE_ETHER_HDR_LEN)
		return false;
	v->eth = (const struct rte_ether_hdr *)v->p;
	v->et = rte_be_to_cpu_16(v->eth->ether_type);
	v->l3 = RTE_ETHER_HDR_LEN;
	v->vlan = 0;
	if (v->et == RTE_ETHER_TYPE_VLAN) {
		if (v->len < RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN)
			return false;
		v->vlan = (uint16_t)((v->p[14] << 8 | v->p[15]) & 0xfff);
		v->et = (uint16_t)(v->p[16] << 8 | v->p[17]);
		v->l3 += RTE_VLAN_HLEN;
	}
	return true;
}

/* Device of port @p port on VLAN @p vlan owning IPv4 @p a; NULL: none. */
static struct sl_dev_state *
dev_by_ip4(struct sl_dev_table *t, uint16_t port, uint16_t vlan, rte_be32_t a)
{
	for (uint16_t i = 0; i < t->n; i++) {
		struct sl_dev_state *d = &t->d[i];

		if (d->conf.port == port && d->conf.vlan == vlan && d->conf.ip4 &&
		    d->conf.addr4 == a)
			return d;
	}
	return NULL;
}

/* Device of port/VLAN owning IPv6 @p a (its global or link-local address). */
static struct sl_dev_state *
dev_by_ip6(struct sl_dev_table *t, uint16_t port, uint16_t vlan, const uint8_t *a)
{
	for (uint16_t i = 0; i < t->n; i++) {
		struct sl_dev_state *d = &t->d[i];

		if (d->conf.port == port && d->conf.vlan == vlan &&
		    ((d->conf.ip6 && memcmp(d->conf.addr6, a, 16) == 0) ||
		     memcmp(d->ll6, a, 16) == 0))
			return d;
	}
	return NULL;
}

/* A frame to device d by its MAC: its own, or a group's (broadcast, multicast). */
static bool
for_dev(const struct sl_dev_state *d, const struct rte_ether_addr *dst)
{
	return rte_is_same_ether_addr(dst, &d->conf.mac) || rte_is_multicast_ether_addr(dst);
}

/* An answer from a gateway: every device of port/VLAN whose gateway it is learns its MAC. */
static void
learn(struct sl_dev_table *t, uint16_t port, uint16_t vlan, bool v6, const void *ip,
      const struct rte_ether_addr *mac, uint64_t now_us, bool solicited, bool override)
{
	/* A gateway's MAC is a unicast one: anything else is a lie (or a mistake). */
	if (rte_is_zero_ether_addr(mac) || rte_is_multicast_ether_addr(mac))
		return;
	for (uint16_t i = 0; i < t->n; i++) {
		struct sl_dev_state *d = &t->d[i];
		struct sl_dev_neigh *n = v6 ? &d->n6 : &d->n4;
		bool match, same;

		if (d->conf.port != port || d->conf.vlan != vlan)
			continue;
		match = v6 ? d->conf.ip6 && memcmp(d->conf.gw6, ip, 16) == 0 :
			     d->conf.ip4 && d->conf.gw4 == *(const rte_be32_t *)ip;
		if (!match || n->state == SL_DEV_N_NONE || n->state == SL_DEV_N_PERMANENT)
			continue;
		same = rte_is_same_ether_addr(&n->mac, mac);
		switch (n->state) {
		case SL_DEV_N_REACHABLE:
			/*
			 * Nothing is asked. A different MAC with the override flag (any
			 * ARP, an NA with O: a gateway that moved, a VRRP failover) is
			 * taken (RFC 4861 7.2.5), without it kept; either way the
			 * entry is confirmed again at once (PROBE, unicast).
			 */
			if (same && solicited) {
				n->next_us = now_us + SL_DEV_REACHABLE_US;
			} else if (!same) {
				if (override)
					n->mac = *mac;
				n->state = SL_DEV_N_PROBE;
				n->tries = 0;
				n->next_us = now_us;
			}
			break;
		case SL_DEV_N_PROBE:
			/* Without the override flag an NA keeps the MAC (RFC 4861 7.2.5). */
			if (!same && !override)
				break;
			n->mac = *mac;
			if (solicited) {
				n->state = SL_DEV_N_REACHABLE;
				n->tries = 0;
				n->next_us = now_us + SL_DEV_REACHABLE_US;
			}
			break;
		default: /* INCOMPLETE, FAILED: asked, or about to be */
			d->st.resolved++;
			n->mac = *mac;
			n->tries = 0;
			/*
			 * An unsolicited frame (the gateway's own request, its
			 * gratuitous ARP) gives the MAC but does not confirm it
			 * (RFC 4861 7.2.5): it is confirmed at once (PROBE).
			 */
			n->state = solicited ? SL_DEV_N_REACHABLE : SL_DEV_N_PROBE;
			n->next_us = solicited ? now_us + SL_DEV_REACHABLE_US : now_us;
			break;
		}
	}
}

static uint16_t
arp_input(struct sl_dev_table *t, uint16_t port, const struct rx_view *v, uint64_t now_us,
	  struct rte_mbuf **out, uint16_t max)
{
	const struct rte_arp_hdr *a;
	struct sl_dev_state *d;
	uint16_t op;

	if (v->len < v->l3 + sizeof(*a))
		return 0;
	a = (const struct rte_arp_hdr *)(v->p + v->l3);
	if (a->arp_hardware != rte_cpu_to_be_16(RTE_ARP_HRD_ETHER) ||
	    a->arp_protocol != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    a->arp_hlen != RTE_ETHER_ADDR_LEN || a->arp_plen != 4)
		return 0;
	op = rte_be_to_cpu_16(a->arp_opcode);
	if (op == RTE_ARP_OP_REPLY) {
		d = dev_by_ip4(t, port, v->vlan, a->arp_data.arp_tip);
		/* A gratuitous reply (arping -A: its own address both ways): news, not an answer. */
		if (d == NULL && a->arp_data.arp_tip == a->arp_data.arp_sip &&
		    rte_is_broadcast_ether_addr(&v->eth->dst_addr)) {
			learn(t, port, v->vlan, false, &a->arp_data.arp_sip, &a->arp_data.arp_sha,
			      now_us, false, true);
			return 0;
		}
		/* To the device (or broadcast, as some answer): an answer to its request. */
		if (d == NULL || !for_dev(d, &v->eth->dst_addr))
			return 0;
		d->st.arp_replies_in++;
		learn(t, port, v->vlan, false, &a->arp_data.arp_sip, &a->arp_data.arp_sha, now_us,
		      true, true);
		return 0;
	}
	if (op != RTE_ARP_OP_REQUEST)
		return 0;
	d = dev_by_ip4(t, port, v->vlan, a->arp_data.arp_tip);
	if (d != NULL && !for_dev(d, &v->eth->dst_addr))
		return 0; /* unicast to another host: not ours to hear */
	if (a->arp_data.arp_sip != 0) /* an ARP probe (RFC 5227) has 0: nothing to learn */
		learn(t, port, v->vlan, false, &a->arp_data.arp_sip, &a->arp_data.arp_sha, now_us,
		      false, true);
	if (d == NULL) {
		t->not_mine++;
		return 0;
	}
	/* Our own announcement looped back (a wire to itself): nothing to answer. */
	if (rte_is_same_ether_addr(&a->arp_data.arp_sha, &d->conf.mac))
		return 0;
	d->st.arp_requests_in++;
	if (max == 0)
		return 0;
	/* The reply goes to the asker, unicast (RFC 826). */
	out[0] = arp_build(t, d, &a->arp_data.arp_sha, RTE_ARP_OP_REPLY, &a->arp_data.arp_sha,
			   a->arp_data.arp_sip);
	if (out[0] == NULL)
		return 0;
	d->st.arp_replies_out++;
	return 1;
}

/*
 * The link-layer address option of type @p type among the options at
 * o[0..len) (NULL: none), with @p bad set for options a node must discard
 * the message for (a length of 0, one past the end: RFC 4861 4.6).
 */
static const uint8_t *
nd_opt(const uint8_t *o, uint32_t len, uint8_t type, bool *bad)
{
	const uint8_t *found = NULL;

	*bad = false;
	while (len > 0) {
		uint32_t ol = len >= 2 ? (uint32_t)o[1] * 8 : 0;

		if (ol == 0 || ol > len) {
			*bad = true;
			return NULL;
		}
		if (o[0] == type && found == NULL)
			found = o + 2;
		o += ol;
		len -= ol;
	}
	return found;
}

static uint16_t
icmp6_input(struct sl_dev_table *t, uint16_t port, const struct rx_view *v, uint64_t now_us,
	    struct rte_mbuf **out, uint16_t max)
{
	const struct rte_ipv6_hdr *ip;
	const uint8_t *h, *ll;
	struct sl_dev_state *d;
	uint32_t plen;
	bool bad;

	if (v->len < v->l3 + IP6_HLEN + 8)
		return 0;
	ip = (const struct rte_ipv6_hdr *)(v->p + v->l3);
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (ip->proto != IPPROTO_ICMPV6 || v->len < v->l3 + IP6_HLEN + plen || plen < 8)
		return 0;
	h = (const uint8_t *)(ip + 1);
	if (rte_ipv6_udptcp_cksum_verify(ip, h) != 0)
		return 0;
	switch (h[0]) {
	case ICMP6_NS: {
		struct rte_ether_addr dst;
		const uint8_t *src;

		if (plen < 24 || ip->hop_limits != ND_HOP_LIMIT || h[1] != 0)
			return 0;
		ll = nd_opt(h + 24, plen - 24, ND_OPT_SRC_LL, &bad);
		if (bad)
			return 0;
		d = dev_by_ip6(t, port, v->vlan, h + 8);
		if (d == NULL) {
			t->not_mine++;
			return 0;
		}
		if (!for_dev(d, &v->eth->dst_addr))
			return 0;
		if (rte_is_same_ether_addr(&v->eth->src_addr, &d->conf.mac))
			return 0; /* our own, looped back */
		d->st.ns_in++;
		if (ll != NULL && !is_zero16(ip->src_addr))
			learn(t, port, v->vlan, true, ip->src_addr,
			      (const struct rte_ether_addr *)ll, now_us, false, true);
		if (max == 0)
			return 0;
		/* To the asker; from DAD's unspecified source, to all nodes (RFC 4861 7.2.4). */
		if (is_zero16(ip->src_addr)) {
			mcast_mac6(all_nodes6, &dst);
			out[0] = nd_build(t, d, true, NA_F_OVERRIDE, &dst, h + 8, all_nodes6, h + 8);
		} else {
			dst = ll != NULL ? *(const struct rte_ether_addr *)ll : v->eth->src_addr;
			src = h + 8;
			out[0] = nd_build(t, d, true, NA_F_SOLICITED | NA_F_OVERRIDE, &dst, src,
					  ip->src_addr, h + 8);
		}
		if (out[0] == NULL)
			return 0;
		d->st.na_out++;
		return 1;
	}
	case ICMP6_NA: {
		if (plen < 24 || ip->hop_limits != ND_HOP_LIMIT || h[1] != 0)
			return 0;
		ll = nd_opt(h + 24, plen - 24, ND_OPT_TGT_LL, &bad);
		if (bad)
			return 0;
		if (ll == NULL)
			ll = v->eth->src_addr.addr_bytes;
		d = dev_by_ip6(t, port, v->vlan, ip->dst_addr);
		if (d != NULL) {
			if (!for_dev(d, &v->eth->dst_addr))
				return 0;
			d->st.na_in++;
		} else if (!rte_is_multicast_ether_addr(&v->eth->dst_addr)) {
			return 0; /* unicast to another host */
		}
		/* Solicited: to a device that asked (a multicast NA answers nobody). */
		learn(t, port, v->vlan, true, h + 8, (const struct rte_ether_addr *)ll, now_us,
		      d != NULL && (h[4] & NA_F_SOLICITED) != 0, (h[4] & NA_F_OVERRIDE) != 0);
		return 0;
	}
	case ICMP6_ECHO_REQ: {
		struct rte_mbuf *m = NULL;
		uint8_t *r;

		d = dev_by_ip6(t, port, v->vlan, ip->dst_addr);
		if (d == NULL) {
			t->not_mine++;
			return 0;
		}
		if (!rte_is_same_ether_addr(&v->eth->dst_addr, &d->conf.mac))
			return 0; /* an echo to a group, or to another host's MAC */
		d->st.echo_in++;
		if (max == 0 || (d->conf.mtu != 0 && IP6_HLEN + plen > d->conf.mtu))
			return 0; /* its reply over the device's MTU: not answered */
		r = ip6_build(t, d, &v->eth->src_addr, ip->dst_addr, ip->src_addr, DEV_TTL,
			      (uint16_t)plen, &m);
		if (r == NULL)
			return 0;
		memcpy(r, h, plen);
		r[0] = ICMP6_ECHO_REP;
		icmp6_csum(r);
		out[0] = m;
		d->st.echo_out++;
		return 1;
	}
	default:
		return 0;
	}
}

static uint16_t
icmp4_input(struct sl_dev_table *t, uint16_t port, const struct rx_view *v,
	    struct rte_mbuf **out, uint16_t max)
{
	const struct rte_ipv4_hdr *ip;
	struct rte_ipv4_hdr *rip;
	struct rte_icmp_hdr *ic;
	struct sl_dev_state *d;
	struct rte_mbuf *m = NULL;
	uint32_t hl, tot;

	if (v->len < v->l3 + sizeof(*ip))
		return 0;
	ip = (const struct rte_ipv4_hdr *)(v->p + v->l3);
	hl = (uint32_t)(ip->version_ihl & 0xf) * 4;
	tot = rte_be_to_cpu_16(ip->total_length);
	if ((ip->version_ihl >> 4) != 4 || hl < 20 || tot < hl + 8 || v->len < v->l3 + tot ||
	    ip->next_proto_id != IPPROTO_ICMP || rte_ipv4_cksum(ip) != 0 ||
	    (ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_MF_FLAG |
						    RTE_IPV4_HDR_OFFSET_MASK)) != 0)
		return 0;
	if (v->p[v->l3 + hl] != RTE_IP_ICMP_ECHO_REQUEST || v->p[v->l3 + hl + 1] != 0)
		return 0;
	d = dev_by_ip4(t, port, v->vlan, ip->dst_addr);
	if (d == NULL) {
		t->not_mine++;
		return 0;
	}
	if (!rte_is_same_ether_addr(&v->eth->dst_addr, &d->conf.mac) ||
	    rte_raw_cksum(v->p + v->l3 + hl, tot - hl) != 0xffff)
		return 0;
	d->st.echo_in++;
	/* A reply over its MTU would be a fragment's work: not answered. */
	if (max == 0 || (d->conf.mtu != 0 && 20 + tot - hl > d->conf.mtu))
		return 0;
	/* The reply: a 20-byte header (no options), the message with its type changed. */
	rip = (struct rte_ipv4_hdr *)frame_new(t, d, &v->eth->src_addr, RTE_ETHER_TYPE_IPV4,
					       20 + tot - hl, &m);
	if (rip == NULL)
		return 0;
	memset(rip, 0, sizeof(*rip));
	rip->version_ihl = RTE_IPV4_VHL_DEF;
	rip->total_length = rte_cpu_to_be_16((uint16_t)(20 + tot - hl));
	rip->time_to_live = DEV_TTL;
	rip->next_proto_id = IPPROTO_ICMP;
	rip->src_addr = d->conf.addr4;
	rip->dst_addr = ip->src_addr;
	rip->hdr_checksum = rte_ipv4_cksum(rip);
	ic = (struct rte_icmp_hdr *)(rip + 1);
	memcpy(ic, v->p + v->l3 + hl, tot - hl);
	ic->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
	ic->icmp_cksum = 0;
	ic->icmp_cksum = (uint16_t)~rte_raw_cksum(ic, tot - hl);
	out[0] = m;
	d->st.echo_out++;
	return 1;
}

uint16_t
sl_dev_input(struct sl_dev_table *t, uint16_t port, const struct rte_mbuf *m, uint64_t now_us,
	     struct rte_mbuf **out, uint16_t max)
{
	struct rx_view v;

	if (!view_of(m, &v))
		return 0;
	switch (v.et) {
	case RTE_ETHER_TYPE_ARP:
		return arp_input(t, port, &v, now_us, out, max);
	case RTE_ETHER_TYPE_IPV6:
		return icmp6_input(t, port, &v, now_us, out, max);
	case RTE_ETHER_TYPE_IPV4:
		return icmp4_input(t, port, &v, out, max);
	default:
		return 0;
	}
}

/* ---- timers ---- */

/* A request for neighbour @p n of device @p d (v6 or not), unicast in PROBE. */
static struct rte_mbuf *
neigh_request(struct sl_dev_table *t, struct sl_dev_state *d, bool v6, struct sl_dev_neigh *n)
{
	static const struct rte_ether_addr bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};
	static const struct rte_ether_addr zero;
	bool uni = n->state == SL_DEV_N_PROBE;
	struct rte_mbuf *m;

	if (!v6) {
		m = arp_build(t, d, uni ? &n->mac : &bcast, RTE_ARP_OP_REQUEST, &zero, d->conf.gw4);
		if (m != NULL)
			d->st.arp_requests_out++;
	} else {
		uint8_t grp[16];
		struct rte_ether_addr gmac;

		solicited_node(d->conf.gw6, grp, &gmac);
		m = nd_build(t, d, false, 0, uni ? &n->mac : &gmac, d->conf.addr6,
			     uni ? d->conf.gw6 : grp, d->conf.gw6);
		if (m != NULL)
			d->st.ns_out++;
	}
	return m;
}

static uint16_t
neigh_tick(struct sl_dev_table *t, struct sl_dev_state *d, bool v6, uint64_t now_us,
	   struct rte_mbuf **out, uint16_t max)
{
	struct sl_dev_neigh *n = v6 ? &d->n6 : &d->n4;

	if (n->state == SL_DEV_N_NONE || n->state == SL_DEV_N_PERMANENT || now_us < n->next_us)
		return 0;
	if (n->state == SL_DEV_N_REACHABLE) {
		n->state = SL_DEV_N_PROBE; /* aged: confirm it, the MAC still in use */
		n->tries = 0;
	}
	if (n->state == SL_DEV_N_FAILED) {
		/* One request every SL_DEV_FAILED_RETRY_US, until an answer. */
		if (max == 0)
			return 0;
		out[0] = neigh_request(t, d, v6, n);
		if (out[0] == NULL)
			return 0;
		n->next_us = now_us + SL_DEV_FAILED_RETRY_US;
		return 1;
	}
	if (n->tries >= SL_DEV_TRIES) {
		if (n->state != SL_DEV_N_FAILED)
			d->st.failed++;
		n->state = SL_DEV_N_FAILED; /* a probe unanswered too: the MAC is gone */
		n->tries = 0;
		n->next_us = now_us + SL_DEV_FAILED_RETRY_US;
		return 0;
	}
	if (max == 0)
		return 0;
	out[0] = neigh_request(t, d, v6, n);
	if (out[0] == NULL)
		return 0; /* no mbuf: at the next tick */
	n->tries++;
	n->next_us = now_us + SL_DEV_RETRY_US;
	return 1;
}

uint16_t
sl_dev_tick(struct sl_dev_table *t, uint16_t port, uint64_t now_us, struct rte_mbuf **out,
	    uint16_t max)
{
	static const struct rte_ether_addr bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};
	uint16_t k = 0;

	for (uint16_t i = 0; i < t->n; i++) {
		struct sl_dev_state *d = &t->d[i];

		if (d->conf.port != port)
			continue;
		if (d->announce && k + 3 <= max) {
			struct rte_ether_addr amac;
			struct rte_mbuf *m;

			d->announce = false;
			/* Gratuitous ARP: a request for its own address (RFC 5227 2.3). */
			if (d->conf.ip4 && (m = arp_build(t, d, &bcast, RTE_ARP_OP_REQUEST, &bcast,
							 d->conf.addr4)) != NULL) {
				out[k++] = m;
				d->st.announced++;
				d->st.garp_out++;
			}
			/* Unsolicited NAs to all nodes, override set (RFC 4861 7.2.6). */
			mcast_mac6(all_nodes6, &amac);
			if (d->conf.ip6 && (m = nd_build(t, d, true, NA_F_OVERRIDE, &amac,
							 d->conf.addr6, all_nodes6,
							 d->conf.addr6)) != NULL) {
				out[k++] = m;
				d->st.announced++;
				d->st.una_out++;
			}
			if (d->conf.ip6 && (m = nd_build(t, d, true, NA_F_OVERRIDE, &amac, d->ll6,
							 all_nodes6, d->ll6)) != NULL) {
				out[k++] = m;
				d->st.announced++;
				d->st.una_out++;
			}
		}
		k += neigh_tick(t, d, false, now_us, out + k, (uint16_t)(max - k));
		k += neigh_tick(t, d, true, now_us, out + k, (uint16_t)(max - k));
	}
	return k;
}

bool
sl_dev_next_hop(const struct sl_dev_table *t, uint16_t idx, bool v6, const void *dst,
		struct rte_ether_addr *mac)
{
	const struct sl_dev_state *d;
	const struct sl_dev_neigh *n;
	bool onlink, gw;

	if (idx >= t->n)
		return false;
	d = &t->d[idx];
	if (v6) {
		if (!d->conf.ip6)
			return false;
		onlink = sl_dev_same_net6(dst, d->conf.addr6, d->conf.prefix6);
		gw = memcmp(dst, d->conf.gw6, 16) == 0;
		n = &d->n6;
	} else {
		if (!d->conf.ip4)
			return false;
		onlink = sl_dev_same_net4(*(const rte_be32_t *)dst, d->conf.addr4,
					  d->conf.prefix4);
		gw = *(const rte_be32_t *)dst == d->conf.gw4;
		n = &d->n4;
	}
	if (onlink && !gw) {
		/* Another device of the table on this link: its MAC is ours to know. */
		for (uint16_t i = 0; i < t->n; i++) {
			const struct sl_dev_conf *c = &t->d[i].conf;

			if (i != idx && c->vlan == d->conf.vlan &&
			    (v6 ? c->ip6 && memcmp(c->addr6, dst, 16) == 0 :
				  c->ip4 && c->addr4 == *(const rte_be32_t *)dst)) {
				*mac = c->mac;
				return true;
			}
		}
		return false;
	}
	if (n->state != SL_DEV_N_REACHABLE && n->state != SL_DEV_N_PROBE &&
	    n->state != SL_DEV_N_PERMANENT)
		return false;
	*mac = n->mac;
	return true;
}
