/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_DEV_H
#define SL_DEV_H

/**
 * @file
 * Emulated hosts (devices): a MAC on a port, optionally a VLAN, an IPv4
 * and an IPv6 address each with a prefix and a gateway. A device answers
 * ARP requests, IPv6 neighbour solicitations (its global and its
 * link-local address, fe80::/64 with the EUI-64 of its MAC, as the OTG
 * model generates one) and ICMP/ICMPv6 echo requests; it announces itself
 * (gratuitous ARP, unsolicited NA) and resolves its gateways' MACs, with
 * retries, and probes each resolved gateway again before the entry ages.
 *
 * The table is plain state driven by two calls on one thread (the main
 * lcore): sl_dev_input() with each frame a port received that is not a
 * test frame, sl_dev_tick() with the time. Both build the frames to send
 * into mbufs of the table's pool and hand them back; the caller sends them
 * on the port and frees what it could not send. Nothing here touches a
 * port, a clock or a lock: the caller brings the time (microseconds, any
 * monotonic origin).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

/** Devices a configuration holds, over every port. */
#define SL_DEV_MAX 64
/** A device's name, with its NUL. */
#define SL_DEV_NAME_MAX 32

/** What a device is (the configuration's, plain data; addresses in network order). */
struct sl_dev_conf {
	char name[SL_DEV_NAME_MAX];
	uint16_t port;
	struct rte_ether_addr mac;
	uint16_t vlan;                /**< 0: untagged */
	uint16_t mtu;                 /**< 0: the port's */
	bool ip4;                     /**< has an IPv4 address */
	uint8_t prefix4;              /**< 1..32 */
	rte_be32_t addr4, gw4;        /**< gw4 0: no gateway */
	bool gw4_mac_given;           /**< the gateway's MAC is given, not resolved */
	struct rte_ether_addr gw4_mac;
	bool ip6;
	uint8_t prefix6;              /**< 1..128 */
	uint8_t addr6[16], gw6[16];   /**< gw6 all zero: no gateway */
	bool gw6_mac_given;
	struct rte_ether_addr gw6_mac;
};

/** A neighbour entry's state (Linux's names, as ip neigh shows them). */
enum sl_dev_nstate {
	SL_DEV_N_NONE = 0,     /**< no gateway */
	SL_DEV_N_INCOMPLETE,   /**< asked, no answer yet */
	SL_DEV_N_REACHABLE,    /**< answered within SL_DEV_REACHABLE_US */
	SL_DEV_N_PROBE,        /**< aged: asked again by unicast, the MAC still used */
	SL_DEV_N_FAILED,       /**< SL_DEV_TRIES requests unanswered; asked again every
				    SL_DEV_FAILED_RETRY_US */
	SL_DEV_N_PERMANENT,    /**< the MAC was given */
};

/** Between two requests for one gateway (RFC 1122: at most one a second). */
#define SL_DEV_RETRY_US 1000000
/** Requests before an entry fails. */
#define SL_DEV_TRIES 3
/** A failed gateway is asked again this often. */
#define SL_DEV_FAILED_RETRY_US 5000000
/** An answer holds this long; then the gateway is probed again (Linux's base_reachable_time). */
#define SL_DEV_REACHABLE_US 30000000

/** A gateway's entry. */
struct sl_dev_neigh {
	enum sl_dev_nstate state;
	struct rte_ether_addr mac;    /**< valid in REACHABLE, PROBE, PERMANENT */
	uint8_t tries;                /**< requests since the last answer */
	uint64_t next_us;             /**< the next request (INCOMPLETE, PROBE, FAILED) or
					   the end of REACHABLE */
};

/** A device's control-frame counters. */
struct sl_dev_stats {
	uint64_t arp_requests_in, arp_replies_out;   /**< requests for its address, answered */
	uint64_t arp_requests_out, arp_replies_in;   /**< its own requests, the answers */
	uint64_t ns_in, na_out, ns_out, na_in;       /**< the same for IPv6 ND */
	uint64_t echo_in, echo_out;                  /**< echo requests to it, replies */
	uint64_t announced;                          /**< gratuitous ARP and unsolicited NA */
	uint64_t garp_out, una_out;                  /**< of those: gratuitous ARP, unsolicited NA */
	uint64_t resolved, failed;                   /**< gateway resolutions, failures */
};

/** A device's state. */
struct sl_dev_state {
	struct sl_dev_conf conf;
	uint8_t ll6[16];              /**< its IPv6 link-local address */
	bool announce;                /**< announce at the next tick */
	struct sl_dev_neigh n4, n6;
	struct sl_dev_stats st;
};

/** The devices of a configuration and what they learned. */
struct sl_dev_table {
	uint16_t n;
	struct rte_mempool *mp;       /**< the frames they send */
	uint64_t not_mine;            /**< control frames for no device (ARP, NS, echo) */
	uint64_t no_mbuf;             /**< frames not built: the pool was empty */
	struct sl_dev_state d[SL_DEV_MAX];
};

/**
 * Start table @p t with devices @p c[0..n), their neighbours unresolved
 * (given MACs permanent), to announce and resolve at the next tick; frames
 * from pool @p mp. 0, or -EINVAL (n above SL_DEV_MAX).
 */
int sl_dev_table_init(struct sl_dev_table *t, const struct sl_dev_conf *c, uint16_t n,
		      struct rte_mempool *mp);

/**
 * Ask the FAILED neighbours again now (a start that needs them): INCOMPLETE,
 * SL_DEV_TRIES requests a second apart from the next tick.
 */
void sl_dev_wake(struct sl_dev_table *t);

/** Forget every resolved neighbour (clear neighbors): each is asked again at the next tick. */
void sl_dev_clear(struct sl_dev_table *t);

/**
 * Is @p m worth handing to sl_dev_input()? An ARP frame, or ICMP over
 * IPv4, or ICMPv6 over IPv6 (no extension header), untagged or under one
 * 802.1Q tag. Reads the first 58 bytes at most (of the first segment).
 */
static inline bool
sl_dev_wants(const struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = rte_pktmbuf_data_len(m), off = 12;
	uint16_t et;

	if (len < 42)
		return false;
	et = (uint16_t)(p[12] << 8 | p[13]);
	if (et == RTE_ETHER_TYPE_VLAN) {
		et = (uint16_t)(p[16] << 8 | p[17]);
		off = 16;
	}
	if (et == RTE_ETHER_TYPE_ARP)
		return true;
	if (et == RTE_ETHER_TYPE_IPV4)
		return len > off + 11 && p[off + 11] == 1;   /* IPPROTO_ICMP */
	if (et == RTE_ETHER_TYPE_IPV6)
		return len > off + 8 && p[off + 8] == 58;    /* IPPROTO_ICMPV6 */
	return false;
}

/**
 * Take frame @p m, received on port @p port at @p now_us: an ARP request
 * or neighbour solicitation for a device's address (to its MAC or a
 * group) is answered, an echo request to a device (to its MAC) is
 * answered, an ARP reply, ARP request or neighbour advertisement from a
 * device's gateway updates its entry: a unicast MAC only; a MAC other than
 * a REACHABLE entry's only makes it PROBE; an NA without the override flag
 * moves no MAC. An ND message with an option of length 0 is discarded.
 * Replies (at most @p max; one per frame) go into @p out. Does not free
 * @p m. Returns the number of frames in @p out (0: nothing to send, or
 * not for a device).
 */
uint16_t sl_dev_input(struct sl_dev_table *t, uint16_t port, const struct rte_mbuf *m,
		      uint64_t now_us, struct rte_mbuf **out, uint16_t max);

/**
 * The timers of port @p port's devices at @p now_us: announcements,
 * requests for unresolved gateways (every SL_DEV_RETRY_US, SL_DEV_TRIES
 * times, then every SL_DEV_FAILED_RETRY_US), probes of aged entries.
 * Frames to send (at most @p max) into @p out; returns their number.
 */
uint16_t sl_dev_tick(struct sl_dev_table *t, uint16_t port, uint64_t now_us,
		     struct rte_mbuf **out, uint16_t max);

/**
 * The MAC frames of device @p idx to @p dst go to: @p dst itself on the
 * device's link (its prefix), else the gateway's. For v6, @p dst is 16
 * bytes; for IPv4 a rte_be32_t. True with @p mac set once resolved (or
 * given); false otherwise.
 */
bool sl_dev_next_hop(const struct sl_dev_table *t, uint16_t idx, bool v6, const void *dst,
		     struct rte_ether_addr *mac);

/** A port's devices' control frames, as the views name them (docs/devices.md). */
struct sl_dev_port_totals {
	uint64_t arp_rx;        /**< ARP requests for its devices and replies to them */
	uint64_t arp_tx;        /**< ARP replies, requests and gratuitous ARP sent */
	uint64_t nd_rx;         /**< NS for its devices and NA to them */
	uint64_t nd_tx;         /**< NA (solicited and unsolicited) and NS sent */
	uint64_t echo_replied;  /**< echo requests answered (ICMP and ICMPv6) */
	uint64_t resolved;      /**< gateways resolved */
	uint64_t unresolved;    /**< gateways without a MAC now (INCOMPLETE, FAILED): a level */
};

/** The totals of port @p port's devices among @p d[0..n) (a table's, or a copy). */
void sl_dev_port_totals(const struct sl_dev_state *d, uint16_t n, uint16_t port,
			struct sl_dev_port_totals *t);

/** A state's name (ip neigh's: INCOMPLETE, REACHABLE, ...; "-" for NONE). */
const char *sl_dev_nstate_name(enum sl_dev_nstate s);

/** Is @p a within @p prefix bits of @p b (IPv4, network order)? */
bool sl_dev_same_net4(rte_be32_t a, rte_be32_t b, uint8_t prefix);
/** Is @p a within @p prefix bits of @p b (IPv6)? */
bool sl_dev_same_net6(const uint8_t *a, const uint8_t *b, uint8_t prefix);
/** The link-local address of @p mac (fe80::/64, modified EUI-64, RFC 4291 appendix A). */
void sl_dev_link_local(const struct rte_ether_addr *mac, uint8_t *ll6);

#endif /* SL_DEV_H */
