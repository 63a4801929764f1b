/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_TEST_COUNT_H
#define SL_TEST_COUNT_H

/*
 * The counting check of the test binaries without EAL (sluice-app-test,
 * sluice-web-test): T(cond, fmt, ...) counts a pass, or a failure with
 * its place and message, and goes on. Each binary defines pass and fail.
 */

#include <stdio.h>

static int pass, fail; /* the binary's one count */

#define T(cond, ...)                                                           \
	do {                                                                   \
		if (cond) {                                                    \
			pass++;                                                \
		} else {                                                       \
			fail++;                                                \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

#endif /* SL_TEST_COUNT_H */
