/* SPDX-License-Identifier: BSD-3-Clause */
/* The TSC's rate against the kernel's clock (sl_clock.h). */

#include <stdlib.h>
#include <time.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>

#include "sl_clock.h"

static uint64_t tsc_hz;

/* The TSC and CLOCK_MONOTONIC_RAW at one moment: the TSC read on both sides. */
static void
pair(uint64_t *tsc, double *ns)
{
	struct timespec t;
	uint64_t a, b;

	a = rte_rdtsc_precise();
	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	b = rte_rdtsc_precise();
	*tsc = a + (b - a) / 2;
	*ns = (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t
sl_tsc_hz(void)
{
	uint64_t hz = __atomic_load_n(&tsc_hz, __ATOMIC_RELAXED), m[3], dpdk = rte_get_tsc_hz();

	if (likely(hz != 0))
		return hz;
	for (int i = 0; i < 3; i++) {
		struct timespec d = { 0, 10000000 };
		uint64_t c0, c1;
		double n0, n1;

		pair(&c0, &n0);
		nanosleep(&d, NULL);
		pair(&c1, &n1);
		m[i] = n1 > n0 ? (uint64_t)((double)(c1 - c0) * 1e9 / (n1 - n0)) : dpdk;
	}
	qsort(m, 3, sizeof(m[0]), cmp_u64);
	hz = m[1];
	/* Agreeing within 20 ppm (the measure's own error): DPDK's, steady from run to run. */
	if ((hz > dpdk ? hz - dpdk : dpdk - hz) < dpdk / 50000)
		hz = dpdk;
	__atomic_store_n(&tsc_hz, hz, __ATOMIC_RELAXED);
	return hz;
}
