/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_TEST_H
#define SL_TEST_H

/*
 * A small test harness, in the manner of DPDK's app/test: each test file
 * registers its cases with SL_TEST(); the binary starts EAL itself (no
 * hugepages, no PCI, nine lcores on however many CPUs the machine has) and
 * runs the cases of the suites asked for.
 */

#include <stdio.h>

#include <rte_common.h>

struct sl_test {
	const char *name;
	const char *suite;  /* "fast" or "stress" */
	int (*fn)(void);
	struct sl_test *next;
};

void sl_test_register(struct sl_test *t);

#define SL_TEST(fn_, suite_)                                                   \
	static int fn_(void);                                                  \
	static struct sl_test fn_##_reg = { #fn_, suite_, fn_, NULL };         \
	RTE_INIT(fn_##_init) { sl_test_register(&fn_##_reg); }                 \
	static int fn_(void)

/* Fail the current test with a message when cond is false. */
#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("    FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
			return -1;                                             \
		}                                                              \
	} while (0)

/* Print a figure the test observed (shows in the test log). */
#define NOTE(...)                                                              \
	do {                                                                   \
		printf("    ");                                                \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
	} while (0)

/* Set by --no-recheck: tests that exercise the missed re-check turn it off. */
extern int sl_test_no_recheck;

#endif /* SL_TEST_H */
