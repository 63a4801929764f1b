/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side (lib/rx, lib/sig): arbitrary frames, in arbitrary
 * sequences, through sl_rx_analyze() as a receiving port's poll does.
 *
 * Input: 4 header bytes (streams 1..4, producers per stream 1..4, this run's
 * tag, the first receive time's low byte), then records of
 *   length:2 (big endian, at most FRAME_MAX) | flags:1 | frame bytes
 * flags: bit 0 the port stamped an RX time (the next 8 bytes of the frame
 * give it), bit 1 the harness writes a valid check into the signature that
 * ends the frame (a fuzzer cannot find a 16-bit hash), bit 2 the frame comes
 * in two segments, bit 3 it ends its burst.
 *
 * Checked: no crash, no read past the frame (ASan), and the accounting of
 * sl_rx.h: every frame is counted once (rx + foreign + bad + stale =
 * frames), the streams add up to the port, duplicates, reordered and late
 * arrivals are within rx, the reorder distances add up to the reordered,
 * every latency sample is in the histogram and between min and max.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "fuzz.h"
#include "sl_rx.h"
#include "sl_sig.h"

#define FRAME_MAX 1600
#define BURST 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rte_mempool *pool;
static int ts_off;
static uint64_t ts_flag;

static void
init(void)
{
	sl_fuzz_eal();
	pool = rte_pktmbuf_pool_create("fuzz_rx", 2 * BURST + 63, 0, 0,
				       RTE_PKTMBUF_HEADROOM + FRAME_MAX, SOCKET_ID_ANY);
	if (pool == NULL || rte_mbuf_dyn_rx_timestamp_register(&ts_off, &ts_flag) != 0)
		abort();
}

/* Write the check a generator would into the signature ending the frame. */
static void
fix_check(uint8_t *f, uint16_t len)
{
	uint64_t w0, w1;

	if (len < SL_SIG_LEN)
		return;
	memcpy(&w0, f + len - SL_SIG_LEN, 8);
	memcpy(&w1, f + len - SL_SIG_LEN + 8, 8);
	w0 = (w0 & ~UINT64_C(0xffffff)) | SL_SIG_MAGIC;
	w0 |= (uint64_t)sl_sig_check(w0, w1) << 8;
	memcpy(f + len - SL_SIG_LEN, &w0, 8);
}

/* One frame into an mbuf (two chained ones if asked); NULL if the pool is dry. */
static struct rte_mbuf *
frame_mbuf(const uint8_t *f, uint16_t len, uint8_t flags)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool), *m2;
	uint16_t first = (flags & 4) && len > 1 ? len / 2 : len;

	if (m == NULL)
		return NULL;
	memcpy(rte_pktmbuf_append(m, first), f, first);
	if (first < len) {
		m2 = rte_pktmbuf_alloc(pool);
		if (m2 == NULL) {
			rte_pktmbuf_free(m);
			return NULL;
		}
		memcpy(rte_pktmbuf_append(m2, len - first), f + first, len - first);
		if (rte_pktmbuf_chain(m, m2) != 0)
			abort();
	}
	if ((flags & 1) && len >= 8) {
		uint64_t ts;

		memcpy(&ts, f, 8);
		*RTE_MBUF_DYNFIELD(m, ts_off, rte_mbuf_timestamp_t *) = ts;
		m->ol_flags |= ts_flag;
	}
	return m;
}

static void
check_accounting(struct sl_rx *rx, uint16_t nb_streams, uint64_t frames, uint64_t bytes)
{
	static uint64_t hist[SL_HIST_BUCKETS];
	struct sl_rx_port_stats ps;
	uint64_t rx_sum = 0;

	sl_rx_port_stats(rx, &ps);
	SL_FUZZ_CHECK(ps.frames == frames && ps.bytes == bytes);
	SL_FUZZ_CHECK(ps.rx + ps.foreign + ps.bad_signature + ps.stale == ps.frames);
	for (uint16_t s = 0; s < nb_streams; s++) {
		struct sl_rx_stream_stats st;
		uint64_t dist = 0, samples = 0;

		SL_FUZZ_CHECK(sl_rx_stream_stats(rx, s, &st));
		rx_sum += st.rx;
		SL_FUZZ_CHECK(st.duplicates + st.reordered + st.late <= st.rx);
		for (int i = 0; i < SL_RX_DIST_BUCKETS; i++)
			dist += st.dist[i];
		SL_FUZZ_CHECK(dist == st.reordered);
		/* Every first arrival is one sample or one that ran backwards. */
		SL_FUZZ_CHECK(st.lat_count + st.lat_backwards == st.rx - st.duplicates);
		SL_FUZZ_CHECK(st.lat_hw <= st.lat_count);
		memset(hist, 0, sizeof(hist));
		sl_rx_stream_hist(rx, s, hist);
		for (uint32_t i = 0; i < SL_HIST_BUCKETS; i++)
			samples += hist[i];
		SL_FUZZ_CHECK(samples == st.lat_count);
		if (st.lat_count != 0) {
			uint64_t p50 = sl_rx_quantile(hist, 0.5, st.lat_min, st.lat_max);

			SL_FUZZ_CHECK(st.lat_min <= st.lat_max);
			SL_FUZZ_CHECK(p50 >= st.lat_min && p50 <= st.lat_max);
		}
	}
	SL_FUZZ_CHECK(rx_sum == ps.rx);
	SL_FUZZ_CHECK(!sl_rx_stream_stats(rx, nb_streams, &(struct sl_rx_stream_stats){ 0 }));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t f[FRAME_MAX];
	uint16_t producers[4];
	struct rte_mbuf *burst[BURST];
	struct sl_rx_conf c = { 0 };
	struct sl_rx *rx;
	uint64_t frames = 0, bytes = 0, tsc;
	size_t off = 4;
	uint16_t n = 0;

	if (pool == NULL)
		init();
	if (size < 4)
		return 0;
	c.nb_streams = 1 + data[0] % 4;
	for (int i = 0; i < 4; i++)
		producers[i] = 1 + (data[1] >> (2 * i)) % 4;
	c.producers = producers;
	c.run = data[2];
	c.socket_id = SOCKET_ID_ANY;
	tsc = UINT64_C(1) << 33 | data[3];
	rx = sl_rx_create(&c);
	SL_FUZZ_CHECK(rx != NULL);
	while (off + 3 <= size) {
		uint16_t len = (uint16_t)(data[off] << 8 | data[off + 1]) % (FRAME_MAX + 1);
		uint8_t flags = data[off + 2];
		struct rte_mbuf *m;

		off += 3;
		if (len > size - off)
			len = (uint16_t)(size - off);
		memcpy(f, data + off, len);
		off += len;
		if (flags & 2)
			fix_check(f, len);
		m = frame_mbuf(f, len, flags);
		if (m == NULL)
			abort();
		burst[n++] = m;
		frames++;
		bytes += len;
		if (n == BURST || (flags & 8) || off + 3 > size) {
			tsc += 1000 + data[off - 1];
			sl_rx_analyze(rx, burst, n, tsc);
			for (uint16_t i = 0; i < n; i++) {
				SL_FUZZ_CHECK(!(burst[i]->ol_flags & ts_flag));
				rte_pktmbuf_free(burst[i]);
			}
			n = 0;
		}
	}
	check_accounting(rx, c.nb_streams, frames, bytes);
	sl_rx_free(rx);
	return 0;
}
