/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_OPTS_H
#define SL_OPTS_H

/*
 * The options after "--": how the program runs (struct sl_opts, the
 * program's state in app.h) and a candidate configuration (struct
 * sl_config) that main checks against the ports and commits.
 */

#include <stdbool.h>
#include <stdint.h>

#include "app.h"
#include "parse.h"
#include "sl_config.h"

/* --flow options on one command line (more: flow add in a --cmdline-file). */
#define SL_OPTS_MAX_FLOWS 256

/* What sl_opts_parse() asks the program to do. */
enum sl_opts_action {
	SL_OPTS_RUN = 0,       /* run with these options */
	SL_OPTS_HELP,          /* print the usage and exit 0 */
	SL_OPTS_VERSION,       /* print the version and exit 0 */
	SL_OPTS_CLI_REFERENCE, /* print the CLI reference and exit 0 */
	SL_OPTS_ERROR,         /* a "sluice: --opt: ..." line was printed: exit 2 */
};

void sl_opts_default(struct sl_opts *o);
/* Parse the options after "--" (argv[0] is the program) into o and the candidate c. */
enum sl_opts_action sl_opts_parse(struct sl_opts *o, struct sl_config *c, int argc, char **argv);
void sl_usage(void);

#endif /* SL_OPTS_H */
