/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The devices (lib/dev): arbitrary frames from the wire through
 * sl_dev_input(), between ticks of an arbitrary clock, as the control
 * plane drives them.
 *
 * Input: records of  length:2 (big endian, at most FRAME_MAX) | flags:1 |
 * frame bytes. flags: bit 0 the frame came on port 1 (else 0), bit 1 a tick
 * follows it, bits 2-7 the clock moves on by that many times 250 ms first.
 * The table: on port 0 an untagged device (IPv4 and IPv6, gateways to
 * resolve) and one on VLAN 100 (IPv4, its gateway's MAC given); on port 1
 * an IPv6-only device whose gateway is link-local.
 *
 * Checked: no crash, no read or write past a frame (ASan); a frame gets one
 * answer at most, a tick at most three frames per device; every frame sent
 * is from a device of its port, tagged as the device is, within one mbuf;
 * replies never outnumber the requests they answer; every mbuf goes back.
 */

#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <rte_mbuf.h>

#include "fuzz.h"
#include "sl_dev.h"

#define FRAME_MAX 1600
#define OUT_MAX 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rte_mempool *pool;
static struct sl_dev_conf confs[3];

static void
init(void)
{
	static const char *const names[] = { "a", "b", "c" };

	sl_fuzz_eal();
	pool = rte_pktmbuf_pool_create("fuzz_dev", 2 * OUT_MAX + 63, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (pool == NULL)
		abort();
	for (unsigned int i = 0; i < 3; i++) {
		snprintf(confs[i].name, sizeof(confs[i].name), "%s", names[i]);
		confs[i].mac = (struct rte_ether_addr){{ 0x02, 0, 0, 0, 0, (uint8_t)(i + 1) }};
	}
	confs[0].ip4 = true;
	confs[0].prefix4 = 24;
	inet_pton(AF_INET, "198.18.0.1", &confs[0].addr4);
	inet_pton(AF_INET, "198.18.0.254", &confs[0].gw4);
	confs[0].ip6 = true;
	confs[0].prefix6 = 64;
	inet_pton(AF_INET6, "2001:2::1", confs[0].addr6);
	inet_pton(AF_INET6, "2001:2::fe", confs[0].gw6);
	confs[1].vlan = 100;
	confs[1].ip4 = true;
	confs[1].prefix4 = 24;
	inet_pton(AF_INET, "198.18.0.2", &confs[1].addr4);
	inet_pton(AF_INET, "198.18.0.254", &confs[1].gw4);
	confs[1].gw4_mac_given = true;
	confs[1].gw4_mac = (struct rte_ether_addr){{ 0x02, 0, 0, 0, 0, 0xfe }};
	confs[2].port = 1;
	confs[2].ip6 = true;
	confs[2].prefix6 = 64;
	inet_pton(AF_INET6, "2001:2:0:1::1", confs[2].addr6);
	inet_pton(AF_INET6, "fe80::fe", confs[2].gw6);
}

/* Each frame sent: from a device of its port, tagged as it is; then freed. */
static void
check_out(const struct sl_dev_table *t, uint16_t port, struct rte_mbuf **out, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++) {
		const uint8_t *p = rte_pktmbuf_mtod(out[i], const uint8_t *);
		bool mine = false;

		SL_FUZZ_CHECK(out[i]->nb_segs == 1 && rte_pktmbuf_data_len(out[i]) >= 42);
		for (uint16_t d = 0; d < t->n; d++) {
			const struct sl_dev_conf *c = &t->d[d].conf;
			bool tagged = p[12] == 0x81 && p[13] == 0x00;

			if (c->port != port || memcmp(p + 6, &c->mac, 6) != 0)
				continue;
			mine = c->vlan == 0 ? !tagged :
			       tagged && ((p[14] << 8 | p[15]) & 0xfff) == c->vlan;
		}
		SL_FUZZ_CHECK(mine);
	}
	rte_pktmbuf_free_bulk(out, n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sl_dev_table t;
	struct rte_mbuf *out[OUT_MAX];
	uint64_t now = 0;
	size_t off = 0;
	uint16_t n;

	if (pool == NULL)
		init();
	SL_FUZZ_CHECK(sl_dev_table_init(&t, confs, 3, pool) == 0);
	while (off + 3 <= size) {
		uint16_t len = (uint16_t)(data[off] << 8 | data[off + 1]);
		uint8_t flags = data[off + 2];
		uint16_t port = flags & 1;
		struct rte_mbuf *m;
		char *p;

		off += 3;
		if (len > FRAME_MAX)
			len = FRAME_MAX;
		if (len > size - off)
			len = (uint16_t)(size - off);
		now += (uint64_t)(flags >> 2) * 250000;
		m = rte_pktmbuf_alloc(pool);
		SL_FUZZ_CHECK(m != NULL);
		p = rte_pktmbuf_append(m, len);
		SL_FUZZ_CHECK(len == 0 || p != NULL);
		if (len != 0)
			memcpy(p, data + off, len);
		off += len;
		n = sl_dev_input(&t, port, m, now, out, OUT_MAX);
		SL_FUZZ_CHECK(n <= 1);
		rte_pktmbuf_free(m);
		check_out(&t, port, out, n);
		if (flags & 2) {
			for (uint16_t q = 0; q < 2; q++) {
				n = sl_dev_tick(&t, q, now, out, OUT_MAX);
				SL_FUZZ_CHECK(n <= 3 * 2);
				check_out(&t, q, out, n);
			}
		}
	}
	for (uint16_t d = 0; d < t.n; d++) {
		const struct sl_dev_stats *s = &t.d[d].st;

		SL_FUZZ_CHECK(s->arp_replies_out <= s->arp_requests_in);
		SL_FUZZ_CHECK(s->na_out <= s->ns_in);
		SL_FUZZ_CHECK(s->echo_out <= s->echo_in);
	}
	SL_FUZZ_CHECK(rte_mempool_in_use_count(pool) == 0);
	return 0;
}
