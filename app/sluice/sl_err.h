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

/* Print "sluice: <msg>" on stderr. */
void sl_err(const char *fmt, ...) __rte_format_printf(1, 2);

#endif /* SL_ERR_H */
