/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_OPTS_H
#define SL_OPTS_H

/*
 * The options after "--": how the program runs (struct sl_opts) and a
 * candidate configuration (struct sl_config) that main checks against the
 * ports and commits.
 */

#include <stdbool.h>
#include <stdint.h>

#include "parse.h"
#include "sl_config.h"

struct sl_bench_conf;

/* How the program runs (the run's configuration itself is a struct sl_config). */
struct sl_opts {
	double stats_period;   /* seconds; 0: none */
	const char *json;
	bool interactive;      /* -i */
	bool auto_start;       /* -a */
	const char *cmdline_file;
	const char *otg_config;      /* --otg-config FILE: the flows, from an OTG Config */
	struct sl_bench_conf *bench; /* --bench: run this benchmark instead of a run */
	bool metrics;                /* --metrics [ADDR:]PORT: serve GET /metrics */
	char metrics_host[64];       /* numeric; default 127.0.0.1 */
	uint16_t metrics_port;       /* 0: the kernel picks (the URL printed says which) */
	bool api;                    /* --api [SCHEME://][ADDR:]PORT: serve the OTG REST API */
	bool api_plain;              /* http:// (the default is https://) */
	char api_host[64];
	uint16_t api_port;
	char api_cert[256];          /* --api-cert FILE (PEM); none: self-signed */
	char api_key[256];           /* --api-key FILE (PEM) */
	char api_token[256];         /* --api-token FILE: each request's bearer token */
};

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
