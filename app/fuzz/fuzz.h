/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_FUZZ_H
#define SL_FUZZ_H

/*
 * What the libFuzzer targets share (docs/reliability.md): an input as a C
 * string, a check that aborts (the fuzzer then keeps the input as a crash),
 * and, for the targets that need it, EAL and the program's state opened once
 * per process on virtual ports.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sl_app;

/* A contract the fuzzer found broken: print what, then abort. */
#define SL_FUZZ_CHECK(cond)                                                          \
	do {                                                                         \
		if (!(cond))                                                         \
			sl_fuzz_fail(__FILE__, __LINE__, #cond);                     \
	} while (0)

void sl_fuzz_fail(const char *file, int line, const char *what) __attribute__((noreturn));

/*
 * The options after "--" from text, one argument a line (text is split in
 * place): argv[0] "sluice", at most max arguments, NULL-terminated
 * (argv has room for max + 2). Returns argc.
 */
int sl_fuzz_argv(char *text, char **argv, int max);

/* The input as a NUL-terminated string (cut at its first NUL byte); free() it. */
char *sl_fuzz_str(const uint8_t *data, size_t size);

/*
 * Start EAL once: no hugepages, no PCI, lcore 0 only, two net_null ports,
 * the file prefix from SL_FUZZ_PREFIX (default slfuzz<pid>). Aborts on
 * failure (a fuzz target cannot run without it).
 */
void sl_fuzz_eal(void);

/* sl_fuzz_eal(), then the program's state with its ports open (once). */
struct sl_app *sl_fuzz_app(void);

/* The options and the configuration back to their defaults. */
struct sl_config;
void sl_fuzz_app_reset(struct sl_app *app);
/*
 * Two configurations alike, their flow tables by content (@p a's table
 * pointer may differ from @p b's: a copy owns its own).
 */
bool sl_fuzz_cfg_same(const struct sl_config *a, const struct sl_config *b);

#endif /* SL_FUZZ_H */
