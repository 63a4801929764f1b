/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_HIST_H
#define SL_HIST_H

/**
 * @file
 * A log-linear latency histogram in HdrHistogram's scheme: values below
 * 2^SL_HIST_SUB_BITS ns have a bucket each; above, every power of two is cut
 * into 2^(SL_HIST_SUB_BITS-1) equal buckets, so a bucket is at most 1/128 of
 * its value wide and a value reported at its bucket's middle is within
 * 1/256 (0.4 %) of the truth. Range: 1 ns to 2^SL_HIST_TOP_BITS ns (about
 * 18 minutes); larger values go to the last bucket. 4,352 64-bit counters:
 * 34 KiB. One writer; readers merge copies.
 */

#include <stdint.h>

#define SL_HIST_SUB_BITS 8
#define SL_HIST_SUB (1u << SL_HIST_SUB_BITS)       /* 256 */
#define SL_HIST_HALF (SL_HIST_SUB >> 1)            /* 128 */
#define SL_HIST_TOP_BITS 40
#define SL_HIST_BUCKETS (SL_HIST_SUB + (SL_HIST_TOP_BITS - SL_HIST_SUB_BITS) * SL_HIST_HALF)

/** The bucket of a value (ns). */
static inline uint32_t
sl_hist_index(uint64_t v)
{
	uint32_t e, idx;

	if (v < SL_HIST_SUB)
		return (uint32_t)v;
	e = 63 - (uint32_t)__builtin_clzll(v); /* >= SL_HIST_SUB_BITS */
	if (e >= SL_HIST_TOP_BITS)
		return SL_HIST_BUCKETS - 1;
	idx = SL_HIST_SUB + (e - SL_HIST_SUB_BITS) * SL_HIST_HALF +
	      (uint32_t)((v >> (e - SL_HIST_SUB_BITS + 1)) - SL_HIST_HALF);
	return idx;
}

/** The lowest value of bucket i. */
static inline uint64_t
sl_hist_low(uint32_t i)
{
	uint32_t e;

	if (i < SL_HIST_SUB)
		return i;
	e = (i - SL_HIST_SUB) / SL_HIST_HALF + SL_HIST_SUB_BITS;
	return (uint64_t)(SL_HIST_HALF + (i - SL_HIST_SUB) % SL_HIST_HALF) << (e - SL_HIST_SUB_BITS + 1);
}

/** The highest value of bucket i (inclusive). */
static inline uint64_t
sl_hist_high(uint32_t i)
{
	return i + 1 < SL_HIST_BUCKETS ? sl_hist_low(i + 1) - 1 : UINT64_MAX;
}

#endif /* SL_HIST_H */
