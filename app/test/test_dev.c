/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Emulated hosts (lib/dev/sl_dev.h): every contract of the header, frame by
 * frame, with frames built here by hand and answers read back byte by byte.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <rte_arp.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "sl_config.h"
#include "sl_dev.h"
#include "test.h"

static const struct rte_ether_addr dmac = {{ 0x02, 0, 0, 0, 0x01, 0x01 }};
static const struct rte_ether_addr gmac = {{ 0x02, 0, 0, 0, 0x0f, 0xfe }};
static const struct rte_ether_addr bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};

static struct rte_mempool *
pool(void)
{
	static struct rte_mempool *mp;

	if (mp == NULL)
		mp = rte_pktmbuf_pool_create("t_dev", 255, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					     SOCKET_ID_ANY);
	return mp;
}

static rte_be32_t
ip4(const char *s)
{
	rte_be32_t a = 0;

	inet_pton(AF_INET, s, &a);
	return a;
}

static void
ip6(const char *s, uint8_t *a)
{
	inet_pton(AF_INET6, s, a);
}

/* A device on port 0 (VLAN vlan): 198.18.0.1/24 gw .254, 2001:2::1/64 gw 2001:2::fe. */
static void
dev_conf(struct sl_dev_conf *c, uint16_t vlan)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "h0");
	c->mac = dmac;
	c->vlan = vlan;
	c->ip4 = true;
	c->prefix4 = 24;
	c->addr4 = ip4("198.18.0.1");
	c->gw4 = ip4("198.18.0.254");
	c->ip6 = true;
	c->prefix6 = 64;
	ip6("2001:2::1", c->addr6);
	ip6("2001:2::fe", c->gw6);
}

/* A frame: Ethernet (tagged with vlan) + l3 bytes. */
static struct rte_mbuf *
frame(const struct rte_ether_addr *dst, const struct rte_ether_addr *src, uint16_t vlan,
      uint16_t et, const void *l3, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool());
	uint8_t *p = m != NULL ? (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(14 + (vlan ? 4 : 0) +
										len)) : NULL;
	uint16_t off = 12;

	if (p == NULL) {
		printf("    no mbuf\n");
		abort();
	}

	memcpy(p, dst, 6);
	memcpy(p + 6, src, 6);
	if (vlan != 0) {
		p[12] = 0x81;
		p[13] = 0x00;
		p[14] = (uint8_t)(vlan >> 8);
		p[15] = (uint8_t)vlan;
		off = 16;
	}
	p[off] = (uint8_t)(et >> 8);
	p[off + 1] = (uint8_t)et;
	memcpy(p + off + 2, l3, len);
	return m;
}

static struct rte_mbuf *
arp_frame(uint16_t op, const struct rte_ether_addr *eth_dst, rte_be32_t sip, rte_be32_t tip,
	  uint16_t vlan)
{
	struct rte_arp_hdr a = {
		.arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER),
		.arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4),
		.arp_hlen = 6, .arp_plen = 4, .arp_opcode = rte_cpu_to_be_16(op),
	};

	a.arp_data.arp_sha = gmac;
	a.arp_data.arp_sip = sip;
	a.arp_data.arp_tip = tip;
	if (op == RTE_ARP_OP_REPLY)
		a.arp_data.arp_tha = dmac;
	return frame(eth_dst, &gmac, vlan, RTE_ETHER_TYPE_ARP, &a, sizeof(a));
}

/* An ICMPv6 message after an IPv6 header, its checksum computed. */
static struct rte_mbuf *
icmp6_frame(const struct rte_ether_addr *eth_dst, const char *src, const char *dst, uint8_t hops,
	    const uint8_t *msg, uint16_t len)
{
	uint8_t b[40 + 128];
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)b;

	memset(b, 0, sizeof(b));
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(len);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = hops;
	ip6(src, ip->src_addr);
	ip6(dst, ip->dst_addr);
	memcpy(b + 40, msg, len);
	*(uint16_t *)(b + 42) = rte_ipv6_udptcp_cksum(ip, b + 40);
	return frame(eth_dst, &gmac, 0, RTE_ETHER_TYPE_IPV6, b, (uint16_t)(40 + len));
}

/* An NS for target (with the router's source link-layer option). */
static struct rte_mbuf *
ns_frame(const struct rte_ether_addr *eth_dst, const char *dst, const char *tgt)
{
	uint8_t m[32] = { 135, 0 };

	ip6(tgt, m + 8);
	m[24] = 1;
	m[25] = 1;
	memcpy(m + 26, &gmac, 6);
	return icmp6_frame(eth_dst, "fe80::fe", dst, 255, m, sizeof(m));
}

static const uint8_t *
l3_of(const struct rte_mbuf *m, uint16_t *vlan)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

	*vlan = 0;
	if (p[12] == 0x81 && p[13] == 0x00) {
		*vlan = (uint16_t)((p[14] << 8 | p[15]) & 0xfff);
		return p + 18;
	}
	return p + 14;
}

SL_TEST(dev_arp_answered, "fast")
{
	struct sl_dev_table t;
	struct sl_dev_conf c;
	struct rte_mbuf *in, *out[4];
	const struct rte_arp_hdr *a;
	uint16_t n, vlan;

	CHECK(pool() != NULL, "pool");
	dev_conf(&c, 0);
	CHECK(sl_dev_table_init(&t, &c, 1, pool()) == 0, "init");
	/* A broadcast request for its address: one unicast reply, every field right. */
	in = arp_frame(RTE_ARP_OP_REQUEST, &bcast, ip4("198.18.0.254"), ip4("198.18.0.1"), 0);
	CHECK(sl_dev_wants(in), "an ARP frame is wanted");
	n = sl_dev_input(&t, 0, in, 0, out, 4);
	CHECK(n == 1, "one reply, got %u", n);
	a = (const struct rte_arp_hdr *)l3_of(out[0], &vlan);
	CHECK(memcmp(rte_pktmbuf_mtod(out[0], uint8_t *), &gmac, 6) == 0, "to the asker");
	CHECK(memcmp(rte_pktmbuf_mtod(out[0], uint8_t *) + 6, &dmac, 6) == 0, "from the device");
	CHECK(vlan == 0, "untagged");
	CHECK(a->arp_opcode == rte_cpu_to_be_16(RTE_ARP_OP_REPLY), "a reply");
	CHECK(rte_is_same_ether_addr(&a->arp_data.arp_sha, &dmac), "sha");
	CHECK(a->arp_data.arp_sip == ip4("198.18.0.1"), "sip");
	CHECK(rte_is_same_ether_addr(&a->arp_data.arp_tha, &gmac), "tha");
	CHECK(a->arp_data.arp_tip == ip4("198.18.0.254"), "tip");
	CHECK(t.d[0].st.arp_requests_in == 1 && t.d[0].st.arp_replies_out == 1, "counted");
	rte_pktmbuf_free(out[0]);
	rte_pktmbuf_free(in);
	/* For another address: nothing, counted as not a device's. */
	in = arp_frame(RTE_ARP_OP_REQUEST, &bcast, ip4("198.18.0.254"), ip4("198.18.0.9"), 0);
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 0 && t.not_mine == 1, "not mine");
	/* On another port or VLAN: nothing either. */
	CHECK(sl_dev_input(&t, 1, in, 0, out, 4) == 0, "another port");
	rte_pktmbuf_free(in);
	in = arp_frame(RTE_ARP_OP_REQUEST, &bcast, ip4("198.18.0.254"), ip4("198.18.0.1"), 7);
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 0, "another VLAN");
	rte_pktmbuf_free(in);
	/* Truncated: nothing. */
	in = arp_frame(RTE_ARP_OP_REQUEST, &bcast, ip4("198.18.0.254"), ip4("198.18.0.1"), 0);
	rte_pktmbuf_trim(in, 10);
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 0, "truncated");
	rte_pktmbuf_free(in);
	/* Tagged device: a tagged request gets a tagged reply. */
	dev_conf(&c, 100);
	sl_dev_table_init(&t, &c, 1, pool());
	in = arp_frame(RTE_ARP_OP_REQUEST, &bcast, ip4("198.18.0.254"), ip4("198.18.0.1"), 100);
	CHECK(sl_dev_wants(in), "a tagged ARP frame is wanted");
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 1, "tagged reply");
	l3_of(out[0], &vlan);
	CHECK(vlan == 100, "reply on VLAN 100, got %u", vlan);
	rte_pktmbuf_free(out[0]);
	rte_pktmbuf_free(in);
	in = arp_frame(RTE_ARP_OP_REQUEST, &bcast, ip4("198.18.0.254"), ip4("198.18.0.1"), 0);
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 0, "untagged to a tagged device: nothing");
	rte_pktmbuf_free(in);
	CHECK(rte_mempool_in_use_count(pool()) == 0, "every mbuf back: %u",
	      rte_mempool_in_use_count(pool()));
	return 0;
}

SL_TEST(dev_nd_answered, "fast")
{
	struct sl_dev_table t;
	struct sl_dev_conf c;
	struct rte_mbuf *in, *out[4];
	const struct rte_ipv6_hdr *ip;
	const struct rte_ether_addr snm = {{ 0x33, 0x33, 0xff, 0, 0, 0x01 }};
	uint8_t want[16];
	uint16_t vlan;

	dev_conf(&c, 0);
	sl_dev_table_init(&t, &c, 1, pool());
	/* NS to the solicited-node group for the global address. */
	in = ns_frame(&snm, "ff02::1:ff00:1", "2001:2::1");
	CHECK(sl_dev_wants(in), "ICMPv6 wanted");
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 1, "an NA");
	ip = (const struct rte_ipv6_hdr *)l3_of(out[0], &vlan);
	CHECK(ip->proto == IPPROTO_ICMPV6 && ip->hop_limits == 255, "ND hop limit 255");
	CHECK(rte_ipv6_udptcp_cksum_verify(ip, ip + 1) == 0, "checksum valid");
	ip6("2001:2::1", want);
	CHECK(memcmp(ip->src_addr, want, 16) == 0, "from the target address");
	ip6("fe80::fe", want);
	CHECK(memcmp(ip->dst_addr, want, 16) == 0, "to the asker");
	{
		const uint8_t *h = (const uint8_t *)(ip + 1);

		CHECK(h[0] == 136 && h[4] == 0x60, "NA, solicited + override: %u %#x", h[0], h[4]);
		ip6("2001:2::1", want);
		CHECK(memcmp(h + 8, want, 16) == 0, "target");
		CHECK(h[24] == 2 && h[25] == 1 && memcmp(h + 26, &dmac, 6) == 0, "target LL option");
	}
	CHECK(memcmp(rte_pktmbuf_mtod(out[0], uint8_t *), &gmac, 6) == 0, "to the asker's MAC");
	rte_pktmbuf_free(out[0]);
	rte_pktmbuf_free(in);
	/* Its link-local address (EUI-64 of 02:00:00:00:01:01: fe80::ff:fe00:101). */
	in = ns_frame(&snm, "ff02::1:ff00:101", "fe80::ff:fe00:101");
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 1, "NA for the link-local address");
	rte_pktmbuf_free(out[0]);
	rte_pktmbuf_free(in);
	/* A hop limit other than 255 is not ND (RFC 4861 7.1.1): dropped. */
	{
		uint8_t m[32] = { 135, 0 };

		ip6("2001:2::1", m + 8);
		in = icmp6_frame(&snm, "fe80::fe", "ff02::1:ff00:1", 64, m, sizeof(m));
		CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 0, "hop limit 64 refused");
		rte_pktmbuf_free(in);
		/* A bad checksum: dropped. */
		in = icmp6_frame(&snm, "fe80::fe", "ff02::1:ff00:1", 255, m, sizeof(m));
		rte_pktmbuf_mtod(in, uint8_t *)[14 + 40 + 2] ^= 0x55;
		CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 0, "bad checksum refused");
		rte_pktmbuf_free(in);
	}
	CHECK(t.d[0].st.ns_in == 2 && t.d[0].st.na_out == 2, "counted");
	CHECK(rte_mempool_in_use_count(pool()) == 0, "every mbuf back");
	return 0;
}

SL_TEST(dev_echo_answered, "fast")
{
	struct sl_dev_table t;
	struct sl_dev_conf c;
	struct rte_mbuf *in, *out[4];
	uint8_t b[20 + 8 + 32];
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)b;
	const struct rte_ipv4_hdr *rip;
	const uint8_t *ric;
	uint16_t vlan;

	dev_conf(&c, 0);
	sl_dev_table_init(&t, &c, 1, pool());
	memset(b, 0, sizeof(b));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(sizeof(b));
	ip->time_to_live = 63;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = ip4("198.18.1.7");
	ip->dst_addr = ip4("198.18.0.1");
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	b[20] = 8;            /* echo request */
	b[24] = 0x12;         /* identifier */
	b[27] = 5;            /* sequence */
	for (unsigned int i = 28; i < sizeof(b); i++)
		b[i] = (uint8_t)i;
	*(uint16_t *)(b + 22) = (uint16_t)~rte_raw_cksum(b + 20, sizeof(b) - 20);
	in = frame(&dmac, &gmac, 0, RTE_ETHER_TYPE_IPV4, b, sizeof(b));
	CHECK(sl_dev_wants(in), "ICMP wanted");
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 1, "a reply");
	rip = (const struct rte_ipv4_hdr *)l3_of(out[0], &vlan);
	ric = (const uint8_t *)(rip + 1);
	CHECK(rte_ipv4_cksum(rip) == 0, "IP checksum valid");
	CHECK(rip->src_addr == ip4("198.18.0.1") && rip->dst_addr == ip4("198.18.1.7"), "addrs");
	CHECK(ric[0] == 0 && ric[1] == 0, "echo reply");
	CHECK(rte_raw_cksum(ric, sizeof(b) - 20) == 0xffff, "ICMP checksum valid");
	CHECK(memcmp(ric + 4, b + 24, sizeof(b) - 24) == 0, "identifier, sequence, data echoed");
	CHECK(memcmp(rte_pktmbuf_mtod(out[0], uint8_t *), &gmac, 6) == 0, "to the sender's MAC");
	rte_pktmbuf_free(out[0]);
	/* A device whose MTU its reply would exceed: no reply (60 B > 40). */
	t.d[0].conf.mtu = 40;
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 0, "a reply over the MTU");
	t.d[0].conf.mtu = 0;
	/* A bad ICMP checksum: no reply. */
	rte_pktmbuf_mtod(in, uint8_t *)[14 + 30] ^= 1;
	CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 0, "bad checksum: nothing");
	rte_pktmbuf_free(in);
	/* ICMPv6 echo to its global address. */
	{
		uint8_t m[16] = { 128, 0, 0, 0, 0, 9, 0, 1, 'p', 'i', 'n', 'g' };
		const struct rte_ipv6_hdr *r6;

		in = icmp6_frame(&dmac, "2001:2:0:1::7", "2001:2::1", 63, m, sizeof(m));
		CHECK(sl_dev_input(&t, 0, in, 0, out, 4) == 1, "an echo reply (v6)");
		r6 = (const struct rte_ipv6_hdr *)l3_of(out[0], &vlan);
		CHECK(rte_ipv6_udptcp_cksum_verify(r6, r6 + 1) == 0, "ICMPv6 checksum valid");
		CHECK(((const uint8_t *)(r6 + 1))[0] == 129, "type 129");
		CHECK(memcmp((const uint8_t *)(r6 + 1) + 4, m + 4, sizeof(m) - 4) == 0, "echoed");
		rte_pktmbuf_free(out[0]);
		rte_pktmbuf_free(in);
	}
	/* A UDP frame is not wanted. */
	ip->next_proto_id = IPPROTO_UDP;
	in = frame(&dmac, &gmac, 0, RTE_ETHER_TYPE_IPV4, b, sizeof(b));
	CHECK(!sl_dev_wants(in), "UDP not wanted");
	rte_pktmbuf_free(in);
	CHECK(t.d[0].st.echo_in == 3 && t.d[0].st.echo_out == 2, "counted: %" PRIu64 " in",
	      t.d[0].st.echo_in);
	CHECK(rte_mempool_in_use_count(pool()) == 0, "every mbuf back");
	return 0;
}

/* Free what a tick sent; return how many, and the first one's L3 in *first. */
static uint16_t
tick(struct sl_dev_table *t, uint64_t now, struct rte_mbuf **out)
{
	return sl_dev_tick(t, 0, now, out, 8);
}

static void
free_n(struct rte_mbuf **m, uint16_t n)
{
	rte_pktmbuf_free_bulk(m, n);
}

SL_TEST(dev_resolve_and_age, "fast")
{
	struct sl_dev_table t;
	struct sl_dev_conf c;
	struct rte_mbuf *out[8], *in;
	struct rte_ether_addr mac;
	rte_be32_t gw = ip4("198.18.0.254"), far = ip4("198.18.5.5");
	uint16_t n, vlan;
	const struct rte_arp_hdr *a;

	dev_conf(&c, 0);
	c.ip6 = false;
	sl_dev_table_init(&t, &c, 1, pool());
	CHECK(!sl_dev_next_hop(&t, 0, false, &far, &mac), "unresolved: no next hop");
	/* First tick: the gratuitous ARP, then the request for the gateway. */
	n = tick(&t, 0, out);
	CHECK(n == 2, "announce + request, got %u", n);
	a = (const struct rte_arp_hdr *)l3_of(out[0], &vlan);
	CHECK(a->arp_data.arp_sip == c.addr4 && a->arp_data.arp_tip == c.addr4,
	      "gratuitous: its own address both ways");
	a = (const struct rte_arp_hdr *)l3_of(out[1], &vlan);
	CHECK(a->arp_opcode == rte_cpu_to_be_16(RTE_ARP_OP_REQUEST) && a->arp_data.arp_tip == gw,
	      "a request for the gateway");
	CHECK(memcmp(rte_pktmbuf_mtod(out[1], uint8_t *), &bcast, 6) == 0, "broadcast");
	free_n(out, n);
	CHECK(t.d[0].n4.state == SL_DEV_N_INCOMPLETE, "incomplete");
	/* Nothing before the retry interval; a retry at it; failed after the tries. */
	CHECK(tick(&t, SL_DEV_RETRY_US - 1, out) == 0, "no retry early");
	n = tick(&t, SL_DEV_RETRY_US, out);
	CHECK(n == 1, "retry 2");
	free_n(out, n);
	n = tick(&t, 2 * SL_DEV_RETRY_US, out);
	CHECK(n == 1, "retry 3");
	free_n(out, n);
	CHECK(tick(&t, 3 * SL_DEV_RETRY_US, out) == 0 && t.d[0].n4.state == SL_DEV_N_FAILED &&
	      t.d[0].st.failed == 1, "failed after %d tries", SL_DEV_TRIES);
	CHECK(tick(&t, 3 * SL_DEV_RETRY_US + SL_DEV_FAILED_RETRY_US - 1, out) == 0,
	      "failed: quiet until its retry");
	n = tick(&t, 3 * SL_DEV_RETRY_US + SL_DEV_FAILED_RETRY_US, out);
	CHECK(n == 1, "asked again after SL_DEV_FAILED_RETRY_US");
	free_n(out, n);
	CHECK(tick(&t, 3 * SL_DEV_RETRY_US + SL_DEV_FAILED_RETRY_US + SL_DEV_RETRY_US, out) == 0,
	      "failed: one request every SL_DEV_FAILED_RETRY_US, not three");
	n = tick(&t, 3 * SL_DEV_RETRY_US + 2 * SL_DEV_FAILED_RETRY_US, out);
	CHECK(n == 1 && t.d[0].n4.state == SL_DEV_N_FAILED, "and again, still failed");
	free_n(out, n);
	/* A start that needs it wakes it: asked at once, three tries again. */
	sl_dev_wake(&t);
	CHECK(t.d[0].n4.state == SL_DEV_N_INCOMPLETE, "woken");
	n = tick(&t, 3 * SL_DEV_RETRY_US + 2 * SL_DEV_FAILED_RETRY_US + 1, out);
	CHECK(n == 1, "asked at once when woken, got %u", n);
	free_n(out, n);
	sl_dev_clear(&t);
	n = tick(&t, 3 * SL_DEV_RETRY_US + 2 * SL_DEV_FAILED_RETRY_US + 2 * SL_DEV_RETRY_US, out);
	free_n(out, n);
	for (int k = 1; k <= 3; k++) {
		n = tick(&t, 3 * SL_DEV_RETRY_US + 2 * SL_DEV_FAILED_RETRY_US + (2 + k) * SL_DEV_RETRY_US,
			 out);
		free_n(out, n);
	}
	CHECK(t.d[0].n4.state == SL_DEV_N_FAILED, "failed again");
	/* The answer: reachable, the next hop known (off link: the gateway). */
	in = arp_frame(RTE_ARP_OP_REPLY, &dmac, gw, c.addr4, 0);
	CHECK(sl_dev_input(&t, 0, in, 10000000, out, 8) == 0, "a reply is not answered");
	rte_pktmbuf_free(in);
	CHECK(t.d[0].n4.state == SL_DEV_N_REACHABLE && t.d[0].st.resolved == 1, "reachable");
	CHECK(sl_dev_next_hop(&t, 0, false, &far, &mac) && rte_is_same_ether_addr(&mac, &gmac),
	      "next hop: the gateway's MAC");
	/* Aged: probed by unicast to the MAC it has, which stays in use meanwhile. */
	CHECK(tick(&t, 10000000 + SL_DEV_REACHABLE_US - 1, out) == 0, "no probe early");
	n = tick(&t, 10000000 + SL_DEV_REACHABLE_US, out);
	CHECK(n == 1 && memcmp(rte_pktmbuf_mtod(out[0], uint8_t *), &gmac, 6) == 0,
	      "a unicast probe");
	free_n(out, n);
	CHECK(t.d[0].n4.state == SL_DEV_N_PROBE && sl_dev_next_hop(&t, 0, false, &far, &mac),
	      "probing: still usable");
	/* clear neighbors: asked again at once. */
	sl_dev_clear(&t);
	CHECK(t.d[0].n4.state == SL_DEV_N_INCOMPLETE && !sl_dev_next_hop(&t, 0, false, &far, &mac),
	      "cleared");
	n = tick(&t, 50000000, out);
	CHECK(n == 2, "announce and ask again after a clear, got %u", n);
	free_n(out, n);
	/* A given MAC is permanent: never asked. */
	c.gw4_mac_given = true;
	c.gw4_mac = gmac;
	sl_dev_table_init(&t, &c, 1, pool());
	n = tick(&t, 0, out);
	CHECK(n == 1 && t.d[0].n4.state == SL_DEV_N_PERMANENT, "only the announcement");
	free_n(out, n);
	CHECK(sl_dev_next_hop(&t, 0, false, &far, &mac) && rte_is_same_ether_addr(&mac, &gmac),
	      "permanent next hop");
	CHECK(rte_mempool_in_use_count(pool()) == 0, "every mbuf back");
	return 0;
}

SL_TEST(dev_config_checked, "fast")
{
	struct sl_config c = { 0 };
	struct sl_config_env env = { 0 };
	struct sl_config_err e;
	struct sl_dev_conf d;

	sl_config_default(&c);
	env.nb_ports = 2;
	dev_conf(&d, 0);
	c.devices[0] = d;
	c.nb_devices = 1;
	CHECK(sl_config_check_devices(&c, &env, &e) == 0, "a good device: %s", e.msg);
	c.devices[0].gw4 = ip4("198.18.1.254");
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "outside its prefix"),
	      "gateway outside the prefix: %s", e.msg);
	c.devices[0] = d;
	c.devices[0].addr4 = ip4("198.18.0.255");
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "broadcast"),
	      "a subnet's broadcast address: %s", e.msg);
	c.devices[0] = d;
	c.devices[0].gw4 = ip4("198.18.0.255");
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "gateway 198.18.0.255"),
	      "a gateway at the subnet's broadcast address: %s", e.msg);
	c.devices[0] = d;
	c.devices[0].gw4_mac_given = true;
	c.devices[0].gw4_mac = bcast;
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "unicast"),
	      "a broadcast gateway MAC: %s", e.msg);
	c.devices[0] = d;
	c.devices[0].port = 2;
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "does not exist"),
	      "missing port: %s", e.msg);
	c.devices[0] = d;
	c.devices[1] = d;
	snprintf(c.devices[1].name, SL_DEV_NAME_MAX, "h1");
	c.devices[1].mac.addr_bytes[5] = 9;
	c.nb_devices = 2;
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "both have"),
	      "one address twice on a port: %s", e.msg);
	c.devices[1].port = 1;
	CHECK(sl_config_check_devices(&c, &env, &e) == 0, "on another port it may: %s", e.msg);
	/* A flow from a device on another port than the flow's. */
	c.flows = calloc(1, sizeof(*c.flows));
	c.nb_flows = 1;
	snprintf(c.flows[0].name, sizeof(c.flows[0].name), "f");
	c.flows[0].port = 1;
	snprintf(c.flows[0].src_dev, SL_DEV_NAME_MAX, "h0");
	snprintf(c.flows[0].dst_dev, SL_DEV_NAME_MAX, "h1");
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "send it on port 0"),
	      "a flow from a device on another port: %s", e.msg);
	c.flows[0].port = 0;
	CHECK(sl_config_check_devices(&c, &env, &e) == 0, "on its port: %s", e.msg);
	/* The device's MTU bounds its flows' frames (1000 + 18 B untagged). */
	c.devices[0].mtu = 1000;
	c.flows[0].sc.nb_sizes = 2;
	c.flows[0].sc.sizes[0] = 64;
	c.flows[0].sc.sizes[1] = 1018;
	CHECK(sl_config_check_devices(&c, &env, &e) == 0, "1018 B within MTU 1000: %s", e.msg);
	c.flows[0].sc.sizes[1] = 1019;
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "exceed device h0's MTU"),
	      "1019 B over MTU 1000: %s", e.msg);
	c.devices[0].mtu = 0;
	snprintf(c.flows[0].dst_dev, SL_DEV_NAME_MAX, "h0");
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "to itself"),
	      "a flow from a device to itself: %s", e.msg);
	snprintf(c.flows[0].dst_dev, SL_DEV_NAME_MAX, "nosuch");
	CHECK(sl_config_check_devices(&c, &env, &e) != 0 && strstr(e.msg, "no device nosuch"),
	      "an unknown device: %s", e.msg);
	sl_config_fini(&c);
	return 0;
}

/* What a device must not believe or answer (the adversarial review's findings). */
SL_TEST(dev_not_fooled, "fast")
{
	static const struct rte_ether_addr other = {{ 0x02, 0, 0, 0, 0x77, 0x77 }};
	struct sl_dev_table t;
	struct sl_dev_conf c;
	struct rte_mbuf *in, *out[8];
	struct rte_ether_addr mac;
	rte_be32_t gw = ip4("198.18.0.254"), far = ip4("198.18.5.5");
	uint16_t n;

	dev_conf(&c, 0);
	sl_dev_table_init(&t, &c, 1, pool());
	n = tick(&t, 0, out);
	free_n(out, n);
	/* A reply with a broadcast sender MAC: not a gateway's MAC. */
	in = arp_frame(RTE_ARP_OP_REPLY, &dmac, gw, c.addr4, 0);
	memset(rte_pktmbuf_mtod(in, uint8_t *) + 14 + 8, 0xff, 6); /* sha */
	sl_dev_input(&t, 0, in, 1000, out, 8);
	rte_pktmbuf_free(in);
	CHECK(t.d[0].n4.state == SL_DEV_N_INCOMPLETE, "a multicast MAC is not learned");
	/* The real answer. */
	in = arp_frame(RTE_ARP_OP_REPLY, &dmac, gw, c.addr4, 0);
	sl_dev_input(&t, 0, in, 2000, out, 8);
	rte_pktmbuf_free(in);
	CHECK(t.d[0].n4.state == SL_DEV_N_REACHABLE, "resolved");
	/* Another MAC for the gateway, nobody asking (ARP: override): taken, confirmed at once. */
	in = arp_frame(RTE_ARP_OP_REPLY, &dmac, gw, c.addr4, 0);
	memcpy(rte_pktmbuf_mtod(in, uint8_t *) + 14 + 8, &other, 6);
	sl_dev_input(&t, 0, in, 3000, out, 8);
	rte_pktmbuf_free(in);
	CHECK(t.d[0].n4.state == SL_DEV_N_PROBE && sl_dev_next_hop(&t, 0, false, &far, &mac) &&
	      rte_is_same_ether_addr(&mac, &other), "a moved gateway's MAC is taken, and probed");
	n = tick(&t, 3000, out);
	CHECK(n >= 1 && memcmp(rte_pktmbuf_mtod(out[n - 1], uint8_t *), &other, 6) == 0,
	      "the probe goes to the new MAC by unicast");
	free_n(out, n);
	/* The old MAC answers the probe's address: confirmed back (an answer, asked). */
	in = arp_frame(RTE_ARP_OP_REPLY, &dmac, gw, c.addr4, 0);
	sl_dev_input(&t, 0, in, 3500, out, 8);
	rte_pktmbuf_free(in);
	CHECK(t.d[0].n4.state == SL_DEV_N_REACHABLE && rte_is_same_ether_addr(&t.d[0].n4.mac, &gmac),
	      "an answer in PROBE is taken");
	/* A gratuitous reply (arping -A) from the gateway with a new MAC: taken. */
	in = arp_frame(RTE_ARP_OP_REPLY, &bcast, gw, gw, 0);
	memcpy(rte_pktmbuf_mtod(in, uint8_t *) + 14 + 8, &other, 6);
	sl_dev_input(&t, 0, in, 3600, out, 8);
	rte_pktmbuf_free(in);
	CHECK(rte_is_same_ether_addr(&t.d[0].n4.mac, &other), "a gratuitous reply is news");
	in = arp_frame(RTE_ARP_OP_REPLY, &dmac, gw, c.addr4, 0);
	sl_dev_input(&t, 0, in, 3700, out, 8);
	rte_pktmbuf_free(in);
	n = tick(&t, 3800, out);
	free_n(out, n);
	/* A request unicast to another host's MAC: not answered (the port is promiscuous). */
	in = arp_frame(RTE_ARP_OP_REQUEST, &other, ip4("198.18.0.254"), c.addr4, 0);
	CHECK(sl_dev_input(&t, 0, in, 4000, out, 8) == 0, "a request to another MAC");
	rte_pktmbuf_free(in);
	/* An NS whose option has length 0: discarded (RFC 4861 4.6). */
	{
		uint8_t m[32] = { 135, 0 };
		const struct rte_ether_addr snm = {{ 0x33, 0x33, 0xff, 0, 0, 0x01 }};

		ip6("2001:2::1", m + 8);
		m[24] = 1;
		m[25] = 0;
		in = icmp6_frame(&snm, "fe80::fe", "ff02::1:ff00:1", 255, m, sizeof(m));
		CHECK(sl_dev_input(&t, 0, in, 5000, out, 8) == 0, "an option of length 0");
		rte_pktmbuf_free(in);
	}
	/* An NA without the override flag does not move a MAC it knows. */
	n = tick(&t, 6000, out); /* the NS goes out (IPv6 still incomplete) */
	free_n(out, n);
	{
		uint8_t m[32] = { 136, 0, 0, 0, 0x40 | 0x20 };

		ip6("2001:2::fe", m + 8);
		m[24] = 2;
		m[25] = 1;
		memcpy(m + 26, &gmac, 6);
		in = icmp6_frame(&dmac, "2001:2::fe", "2001:2::1", 255, m, sizeof(m));
		sl_dev_input(&t, 0, in, 7000, out, 8);
		rte_pktmbuf_free(in);
		CHECK(t.d[0].n6.state == SL_DEV_N_REACHABLE, "v6 resolved");
		m[4] = 0x40; /* solicited, no override */
		memcpy(m + 26, &other, 6);
		in = icmp6_frame(&dmac, "2001:2::fe", "2001:2::1", 255, m, sizeof(m));
		sl_dev_input(&t, 0, in, 8000, out, 8);
		rte_pktmbuf_free(in);
		CHECK(rte_is_same_ether_addr(&t.d[0].n6.mac, &gmac), "kept without override");
	}
	/* An echo request to another host's MAC: not answered. */
	{
		uint8_t b[28] = { 0x45, 0, 0, 28, 0, 0, 0, 0, 64, 1 };
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)b;

		ip->src_addr = ip4("198.18.1.7");
		ip->dst_addr = c.addr4;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		b[20] = 8;
		*(uint16_t *)(b + 22) = (uint16_t)~rte_raw_cksum(b + 20, 8);
		in = frame(&other, &gmac, 0, RTE_ETHER_TYPE_IPV4, b, sizeof(b));
		CHECK(sl_dev_input(&t, 0, in, 9000, out, 8) == 0, "echo to another MAC");
		rte_pktmbuf_free(in);
		in = frame(&dmac, &gmac, 0, RTE_ETHER_TYPE_IPV4, b, sizeof(b));
		CHECK(sl_dev_input(&t, 0, in, 9000, out, 8) == 1, "echo to its MAC");
		rte_pktmbuf_free(out[0]);
		rte_pktmbuf_free(in);
	}
	CHECK(rte_mempool_in_use_count(pool()) == 0, "every mbuf back");
	return 0;
}

/* sl_dev_next_hop(): off link, the gateway's MAC once known; on link, another device's own. */
SL_TEST(dev_next_hop, "fast")
{
	struct sl_dev_conf c[2];
	struct sl_dev_table t;
	struct rte_ether_addr mac;
	rte_be32_t onlink = ip4("198.18.0.7"), peer, far = ip4("198.18.9.9");
	uint8_t peer6[16];

	dev_conf(&c[0], 0);
	dev_conf(&c[1], 0);
	snprintf(c[1].name, sizeof(c[1].name), "h1");
	c[1].mac.addr_bytes[5] = 0x42;
	c[1].addr4 = ip4("198.18.0.2");
	ip6("2001:2::2", c[1].addr6);
	peer = c[1].addr4;
	memcpy(peer6, c[1].addr6, 16);
	sl_dev_table_init(&t, c, 2, pool());
	CHECK(sl_dev_next_hop(&t, 0, false, &peer, &mac) && rte_is_same_ether_addr(&mac, &c[1].mac),
	      "a device on the link: its MAC, unresolved gateway or not");
	CHECK(sl_dev_next_hop(&t, 0, true, peer6, &mac) && rte_is_same_ether_addr(&mac, &c[1].mac),
	      "the same in IPv6");
	CHECK(!sl_dev_next_hop(&t, 0, false, &onlink, &mac), "another host on the link: unknown");
	CHECK(!sl_dev_next_hop(&t, 0, false, &far, &mac), "off link, gateway unresolved: unknown");
	CHECK(!sl_dev_next_hop(&t, 5, false, &far, &mac), "no such device");
	return 0;
}
