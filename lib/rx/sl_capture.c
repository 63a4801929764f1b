/* SPDX-License-Identifier: BSD-3-Clause */
/* A port's capture in memory, written out with libpcap (sl_capture.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pcap/pcap.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>
#include <rte_net_crc.h>

#include "sl_capture.h"
#include "sl_clock.h"

struct sl_capture *
sl_capture_create(uint32_t max_frames, uint64_t max_bytes, uint32_t snap)
{
	struct sl_capture *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->max_frames = max_frames;
	c->max_bytes = max_bytes;
	c->snap = snap != 0 ? snap : UINT32_MAX;
	c->hz = sl_tsc_hz();
	/* The port's own arrival times, where it stamps frames (as sl_rx does). */
	if (rte_mbuf_dyn_rx_timestamp_register(&c->ts_off, &c->ts_flag) != 0) {
		c->ts_off = -1;
		c->ts_flag = 0;
	}
	c->rec = malloc((size_t)max_frames * sizeof(*c->rec));
	c->data = malloc(max_bytes);
	if (c->rec == NULL || c->data == NULL) {
		sl_capture_free(c);
		return NULL;
	}
	return c;
}

void
sl_capture_free(struct sl_capture *c)
{
	if (c == NULL)
		return;
	free(c->rec);
	free(c->data);
	free(c);
}

void
sl_capture_arm(struct sl_capture *c, bool on)
{
	if (on && c->tsc0 == 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c->tsc0 = rte_rdtsc();
		c->real_ns0 = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	__atomic_store_n(&c->armed, on ? 1u : 0u, __ATOMIC_RELEASE);
}

void
sl_capture_reset(struct sl_capture *c)
{
	__atomic_store_n(&c->n, 0, __ATOMIC_RELEASE);
	c->used = 0;
	c->missed = 0;
}

void
sl_capture_append(struct sl_capture *c, struct rte_mbuf **pkts, uint16_t n, uint64_t tsc)
{
	uint32_t k = c->n; /* the writer's own */

	for (uint16_t i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];
		uint32_t len = rte_pktmbuf_pkt_len(m), cap = RTE_MIN(len + (uint32_t)RTE_ETHER_CRC_LEN, c->snap);
		uint64_t t = tsc;

		if (k == c->max_frames || c->used + cap > c->max_bytes) {
			c->missed++;
			continue;
		}
		const void *src = rte_pktmbuf_read(m, 0, RTE_MIN(len, cap), c->data + c->used);

		if (src != c->data + c->used)
			memcpy(c->data + c->used, src, RTE_MIN(len, cap)); /* one segment: its data */
		if (cap > len) {
			/* The FCS, over the whole frame (all of it is in data now). */
			uint32_t fcs = rte_cpu_to_le_32(rte_net_crc_calc(c->data + c->used, len,
									  RTE_NET_CRC32_ETH));

			memcpy(c->data + c->used + len, &fcs, cap - len);
		}
		if (c->ts_off >= 0 && (m->ol_flags & c->ts_flag) != 0)
			t = *RTE_MBUF_DYNFIELD(m, c->ts_off, const rte_mbuf_timestamp_t *);
		c->rec[k] = (struct sl_capture_rec){ .tsc = t, .len = len + (uint32_t)RTE_ETHER_CRC_LEN,
						     .caplen = cap, .off = c->used };
		c->used += cap;
		k++;
	}
	__atomic_store_n(&c->n, k, __ATOMIC_RELEASE);
}

int
sl_capture_pcap(const struct sl_capture *c, char **buf, size_t *len)
{
	uint32_t n = __atomic_load_n(&c->n, __ATOMIC_ACQUIRE);
	pcap_t *p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 262144,
							  PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *d;
	FILE *f;

	*buf = NULL;
	*len = 0;
	if (p == NULL)
		return -ENOMEM;
	f = open_memstream(buf, len);
	d = f != NULL ? pcap_dump_fopen(p, f) : NULL;
	if (d == NULL) {
		if (f != NULL)
			fclose(f);
		pcap_close(p);
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct sl_capture_rec *r = &c->rec[i];
		/* A burst read just before the arming is a little before tsc0. */
		uint64_t d_tsc = r->tsc >= c->tsc0 ? r->tsc - c->tsc0 : c->tsc0 - r->tsc;
		uint64_t d_ns = d_tsc / c->hz * 1000000000u + d_tsc % c->hz * 1000000000u / c->hz;
		uint64_t ns = r->tsc >= c->tsc0 ? c->real_ns0 + d_ns : c->real_ns0 - d_ns;
		struct pcap_pkthdr h = {
			.ts = { .tv_sec = (time_t)(ns / 1000000000u),
				.tv_usec = (suseconds_t)(ns % 1000000000u) }, /* ns: nano precision */
			.caplen = r->caplen, .len = r->len,
		};

		pcap_dump((u_char *)d, &h, c->data + r->off);
	}
	pcap_dump_close(d); /* closes f: *buf and *len are final */
	pcap_close(p);
	return *buf != NULL ? 0 : -EIO;
}
