/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_CLOCK_H
#define SL_CLOCK_H

/**
 * @file
 * The TSC's rate, as every rate, duration and schedule of Sluice counts it.
 *
 * DPDK's rte_get_tsc_hz() is, on x86, the CPU's nominal frequency when
 * CPUID gives one; some machines' TSCs do not count at it ("TSC doesn't
 * count with P0 frequency", says the kernel on the VMs this was measured
 * on: 2250 MHz nominal, 2245.788 MHz counted, 0.19 % apart). Every paced
 * rate would then be 0.19 % low and every reported rate and duration
 * 0.19 % off. sl_tsc_hz() measures the TSC against the kernel's
 * CLOCK_MONOTONIC_RAW once (3 x 10 ms, the median) and keeps DPDK's figure
 * when the two agree within 20 ppm.
 */

#include <stdint.h>

/** The TSC's rate in Hz (measured at the first call: make it at start, off the data path). */
uint64_t sl_tsc_hz(void);

/*
 * Microseconds as TSC cycles at hz, without overflowing for any duration up
 * to 18 h (us * hz does above about 6000 s at 3 GHz).
 */
static inline uint64_t
sl_us_tsc(uint64_t us, uint64_t hz)
{
	return us / 1000000 * hz + us % 1000000 * hz / 1000000;
}

#endif /* SL_CLOCK_H */
