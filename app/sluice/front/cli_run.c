/* SPDX-License-Identifier: BSD-3-Clause */
/* CLI: help, start, stop, quit. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "worker.h"

static void
cmd_help(struct sl_cli *cli, int argc, char **argv)
{
	char prefix[256] = "";

	RTE_SET_USED(cli);
	for (int i = 1; i < argc; i++)
		snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix), "%s%s",
			 i > 1 ? " " : "", argv[i]);
	sl_cli_help(argc > 1 ? prefix : NULL);
}

static void
cmd_start(struct sl_cli *cli, int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (sl_bench_busy()) {
		sl_cli_error(cli, "a benchmark is running (stop ends it)");
		return;
	}
	if (cli->app->ses.running) {
		sl_cli_error(cli, "traffic is already running (stop first)");
		return;
	}
	if (sl_quitting()) {
		sl_cli_error(cli, "not started: the program is quitting (a signal)");
		return;
	}
	uint16_t used = 0;

	for (uint16_t i = 0; i < cli->app->ports.n; i++)
		used += !cli->app->cfg.pc[i].stopped;
	if (used == 0) {
		sl_cli_error(cli, "not started: every port is stopped (port start <port>|all first)");
		return;
	}
	int ret = sl_session_start(cli->app, &cli->app->cfg, false);

	if (ret == 0) {
		sl_cli_started(cli);
		return;
	}
	/* A runtime failure (memory, a port) is not bad usage: remember which. */
	if (ret != -EINVAL && cli->app->exit_code == SL_EXIT_OK)
		cli->app->exit_code = SL_EXIT_RUNTIME;
	sl_cli_error(cli, "not started: %s", ret == -EINVAL ?
		     "fix the configuration above and start again" :
		     "see the message above (resources: -m, lcores, ports)");
}

static void
cmd_stop(struct sl_cli *cli, int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (sl_bench_busy()) {
		/* As Ctrl-C: the trial in flight ends, the benchmark with its partial report. */
		sl_bench_stop();
		return;
	}
	if (!cli->app->ses.running) {
		sl_cli_error(cli, "traffic is not running");
		return;
	}
	sl_cli_stop_run(cli);
}

static void
cmd_quit(struct sl_cli *cli, int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	cli->quit = true;
	if (cli->cl != NULL)
		cmdline_quit(cli->cl);
}

const struct sl_cmd sl_cmds_run[] = {
	{ "help", cmd_help, "list the commands", "run" },
	{ "help <word> [<word>]", cmd_help, "the commands that start with these words", "run" },
	{ "start", cmd_start, "start transmitting with the configuration in force", "run" },
	{ "stop", cmd_stop, "stop, flush, print the summary (and write --json); during a "
	  "benchmark, end it with its partial report", "run" },
	{ "quit", cmd_quit, "stop if running, and leave", "run" },
	{ "exit", cmd_quit, "the same as quit", "run" },
	{ NULL, NULL, NULL, NULL },
};
