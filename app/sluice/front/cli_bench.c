/* SPDX-License-Identifier: BSD-3-Clause */
/* CLI: bench mlr|rfc2544 [<params>], show bench (docs/benchmarking.md). */

#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

static void
cmd_bench(struct sl_cli *cli, int argc, char **argv)
{
	static struct sl_bench_conf bc;
	char err[256];
	int code;

	if (sl_bench_busy()) {
		sl_cli_error(cli, "a benchmark is running (show bench: its progress; stop ends it)");
		return;
	}
	if (cli->app->ses.running) {
		sl_cli_error(cli, "traffic is running (stop first)");
		return;
	}
	if (sl_bench_parse(argv[1], argc > 2 ? argv[2] : NULL, &bc, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "bench: %s", err);
		return;
	}
	code = sl_cli_bench(cli, &bc);
	if (code == SL_EXIT_USAGE) {
		sl_cli_error(cli, "bench: not started (see the message above)");
		return;
	}
	if (code != SL_EXIT_OK) {
		if (cli->app->exit_code == SL_EXIT_OK)
			cli->app->exit_code = code;
		sl_cli_error(cli, "bench: failed (see the message above)");
	}
}

static void
cmd_show_bench(struct sl_cli *cli, int argc, char **argv)
{
	RTE_SET_USED(cli);
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	sl_bench_show();
}

const struct sl_cmd sl_cmds_bench[] = {
	{ "bench mlr|rfc2544|trial [<params>]", cmd_bench,
	  "run a benchmark: NDR/PDR per frame size, then latency at 0/10/50/90 % of the "
	  "result; params as --bench: min=,max=,width=,loss=R[:R],exceed=,initial=,final=,"
	  "sum=,trial=,lat=,sizes=,tx=; 'trial load=RATE|total=RATE[,trial=S]' runs one "
	  "trial per size; the prompt answers while it runs (show bench, show port stats), "
	  "and stop or Ctrl-C ends it with a partial report", "bench" },
	{ "show bench", cmd_show_bench, "the benchmark's progress, bounds and results", "bench" },
	{ NULL, NULL, NULL, NULL },
};
