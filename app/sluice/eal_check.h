/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_EAL_CHECK_H
#define SL_EAL_CHECK_H

/*
 * Checks of the EAL arguments (before "--") that Sluice makes before
 * rte_eal_init(), so that a mistake gets one line that says what to do
 * instead of EAL's usage text.
 */

/**
 * Every lcore of -l/--lcores/-c must run on a CPU this machine has (EAL's
 * own test: /sys/devices/system/cpu/cpuN/topology/core_id). With
 * --lcores, an lcore given with '@' runs on the CPUs after it.
 * @return 0, or -1 with one "sluice: ..." line printed that names the lcore
 *   and suggests --lcores with '@' (more lcores than CPUs).
 */
int sl_eal_lcores_check(int argc, char **argv);

#endif /* SL_EAL_CHECK_H */
