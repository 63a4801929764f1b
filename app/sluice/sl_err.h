/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_ERR_H
#define SL_ERR_H

/* Messages to the user, a leaf: it includes nothing of the app. */

#include <rte_common.h>

/* Exit codes (interface.md). */
#define SL_EXIT_OK 0
#define SL_EXIT_RUNTIME 1
#define SL_EXIT_USAGE 2
#define SL_EXIT_LOSS 3    /* the run went as asked, and the analyzer counted lost frames */
#define SL_EXIT_BENCH_GOAL 4 /* a benchmark ended without its goal: a result short of its
				width (out of budget, interrupted) or at the generator's ceiling */

/* Print "sluice: <msg>" on stderr. */
void sl_err(const char *fmt, ...) __rte_format_printf(1, 2);

#endif /* SL_ERR_H */
