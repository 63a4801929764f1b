/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The capture's contract (sl_capture.h): it keeps the first frames while
 * armed and counts the rest in missed; a pcap taken while the writer
 * appends holds only whole frames, in order, each as written (read back
 * with libpcap, not our writer); reset forgets them.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "sl_capture.h"
#include "sl_clock.h"
#include "test.h"

#define CAP_FRAMES 4000u

/* Frame i: 60 to 123 bytes, each byte (i + offset) & 0xff, its index in the first 4. */
static struct rte_mbuf *
cap_frame(struct rte_mempool *mp, uint32_t i)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint16_t len = (uint16_t)(60 + i % 64);
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	for (uint16_t k = 0; k < len; k++)
		p[k] = (uint8_t)(i + k);
	memcpy(p, &i, 4);
	return m;
}

/* CRC-32 as Ethernet's FCS, bit by bit: independent of the capture's (rte_net_crc). */
static uint32_t
crc32_eth(const uint8_t *p, uint32_t len)
{
	uint32_t crc = 0xffffffff;

	for (uint32_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

/*
 * Decode pcap buf with libpcap: every frame in order and as written, with
 * its FCS (4 bytes, CRC-32 little endian) where the snap length keeps it?
 * Returns frames, or -1.
 */
static long
cap_check(const char *buf, size_t len, uint32_t snap)
{
	char err[PCAP_ERRBUF_SIZE];
	FILE *f = fmemopen((void *)buf, len, "r");
	pcap_t *p = f != NULL ? pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO,
									  err) : NULL;
	struct pcap_pkthdr *h;
	const u_char *d;
	long n = 0;
	int r;

	if (p == NULL)
		return -1;
	while ((r = pcap_next_ex(p, &h, &d)) == 1) {
		uint32_t i, flen = (uint32_t)(60 + n % 64), want = flen + 4;
		uint8_t fcs[4];
		uint32_t crc;

		memcpy(&i, d, 4);
		if (i != (uint32_t)n || h->len != want || h->caplen != RTE_MIN(want, snap))
			break;
		for (uint32_t k = 4; k < RTE_MIN(h->caplen, flen); k++)
			if (d[k] != (uint8_t)(i + k))
				goto out;
		if (h->caplen > flen) {
			crc = crc32_eth(d, flen);
			for (int b = 0; b < 4; b++)
				fcs[b] = (uint8_t)(crc >> (8 * b));
			if (memcmp(d + flen, fcs, h->caplen - flen) != 0)
				goto out;
		}
		n++;
	}
out:
	pcap_close(p); /* closes f */
	return r == -2 ? n : -1;
}

struct cap_writer {
	struct sl_capture *c;
	struct rte_mbuf **m;
	uint32_t n;
	uint32_t done;
};

static void *
cap_writer_main(void *arg)
{
	struct cap_writer *w = arg;

	for (uint32_t i = 0; i < w->n; i += 7) {
		sl_capture_burst(w->c, w->m + i, (uint16_t)RTE_MIN(7u, w->n - i), rte_rdtsc());
		if (i % 70 == 0)
			sched_yield(); /* let the reader in mid-capture (2 CPUs or fewer) */
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

SL_TEST(capture_contract, "fast")
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("t_cap", 2 * CAP_FRAMES + 64, 0, 0,
							  RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	struct rte_mbuf **m = calloc(CAP_FRAMES + 100, sizeof(*m));
	struct sl_capture *c = sl_capture_create(CAP_FRAMES, 1u << 20, 100);
	struct cap_writer w = { .c = c, .m = m, .n = CAP_FRAMES + 100 };
	unsigned int reads = 0, mid = 0;
	pthread_t t;
	char *buf;
	size_t len;
	long got, last = 0;

	CHECK(mp != NULL && m != NULL && c != NULL, "memory");
	for (uint32_t i = 0; i < w.n; i++) {
		m[i] = cap_frame(mp, i);
		CHECK(m[i] != NULL, "frame %u", i);
	}
	/* Disarmed: nothing kept. */
	sl_capture_burst(c, m, 10, rte_rdtsc());
	CHECK(__atomic_load_n(&c->n, __ATOMIC_ACQUIRE) == 0 && c->missed == 0, "kept while disarmed");
	sl_capture_arm(c, true);
	CHECK(pthread_create(&t, NULL, cap_writer_main, &w) == 0, "thread");
	/* Read while it writes: each pcap whole frames, in order, never fewer than before. */
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE) && reads < 200) {
		CHECK(sl_capture_pcap(c, &buf, &len) == 0, "pcap");
		got = cap_check(buf, len, 100);
		free(buf);
		CHECK(got >= last, "a pcap mid-capture: %ld frames, the last had %ld", got, last);
		mid += got > 0 && got < CAP_FRAMES;
		last = got;
		reads++;
	}
	pthread_join(t, NULL);
	CHECK(sl_capture_pcap(c, &buf, &len) == 0, "pcap");
	got = cap_check(buf, len, 100);
	free(buf);
	/* The first CAP_FRAMES kept, cut at 100 bytes; the last 100 missed. */
	CHECK(got == CAP_FRAMES && c->missed == 100, "kept %ld of %u, missed %" PRIu64 " (want 100)",
	      got, CAP_FRAMES, c->missed);
	NOTE("%u pcaps taken while it wrote (%u mid-capture), each whole and in order", reads, mid);
	/* Disarmed: nothing more; reset forgets them. */
	sl_capture_arm(c, false);
	sl_capture_reset(c);
	sl_capture_burst(c, m, 10, rte_rdtsc());
	CHECK(sl_capture_pcap(c, &buf, &len) == 0 && cap_check(buf, len, 100) == 0, "after reset");
	free(buf);
	/* The byte limit: 1 MB of frames of at most 100 bytes is not reached; a small one is. */
	sl_capture_free(c);
	c = sl_capture_create(CAP_FRAMES, 1000, 0);
	CHECK(c != NULL, "memory");
	sl_capture_arm(c, true);
	sl_capture_burst(c, m, 64, rte_rdtsc());
	CHECK(sl_capture_pcap(c, &buf, &len) == 0, "pcap");
	got = cap_check(buf, len, UINT32_MAX);
	free(buf);
	/* Frames of 64, 65, ... bytes with the FCS: 64 + ... + 77 = 987, + 78 > 1000: 14 fit. */
	CHECK(got == 14 && c->missed == 50, "byte limit: kept %ld (want 14), missed %" PRIu64, got,
	      c->missed);
	sl_capture_free(c);
	/*
	 * A frame its port stamped is kept at its stamp, not its burst's
	 * time: two frames of one burst stamped 1 s apart are 1 s apart in
	 * the pcap; a third, not stamped, at the burst's time.
	 */
	{
		uint64_t hz = sl_tsc_hz(), t0 = rte_rdtsc(), flag, ns[3];
		char err[PCAP_ERRBUF_SIZE];
		struct pcap_pkthdr *h;
		const u_char *d;
		pcap_t *p;
		FILE *f;
		int off, k = 0;

		CHECK(rte_mbuf_dyn_rx_timestamp_register(&off, &flag) == 0, "timestamp field");
		c = sl_capture_create(16, 1u << 16, 0);
		CHECK(c != NULL, "memory");
		sl_capture_arm(c, true);
		for (int i = 0; i < 2; i++) {
			*RTE_MBUF_DYNFIELD(m[i], off, rte_mbuf_timestamp_t *) = t0 + (uint64_t)i * hz;
			m[i]->ol_flags |= flag;
		}
		m[2]->ol_flags &= ~flag;
		sl_capture_burst(c, m, 3, t0 + 3 * hz);
		m[0]->ol_flags &= ~flag;
		m[1]->ol_flags &= ~flag;
		CHECK(sl_capture_pcap(c, &buf, &len) == 0, "pcap");
		f = fmemopen(buf, len, "r");
		p = f != NULL ? pcap_fopen_offline_with_tstamp_precision(f,
				PCAP_TSTAMP_PRECISION_NANO, err) : NULL;
		CHECK(p != NULL, "pcap open");
		while (k < 3 && pcap_next_ex(p, &h, &d) == 1) {
			ns[k++] = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
			(void)d;
		}
		pcap_close(p);
		free(buf);
		CHECK(k == 3 && ns[1] - ns[0] >= 999999999 && ns[1] - ns[0] <= 1000000001 &&
		      ns[2] - ns[0] >= 2999999999 && ns[2] - ns[0] <= 3000000001,
		      "stamps kept: %d frames, %" PRIu64 " and %" PRIu64 " ns after the first", k,
		      ns[1] - ns[0], ns[2] - ns[0]);
		sl_capture_free(c);
	}
	for (uint32_t i = 0; i < w.n; i++)
		rte_pktmbuf_free(m[i]);
	free(m);
	rte_mempool_free(mp);
	return 0;
}
