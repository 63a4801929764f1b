/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sluice: EAL, options, ports, the run, the report.
 */

#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "cli.h"
#include "sl_app.h"

static struct sl_app app;

void
sl_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sluice: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void
on_signal(int sig)
{
	RTE_SET_USED(sig);
	__atomic_store_n(&sl_stop, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sl_quit, 1, __ATOMIC_RELAXED);
}

/* The EAL arguments (before "--") ask for something that needs no hugepages. */
static bool
eal_no_huge(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--no-huge") == 0 || strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-v") == 0)
			return true;
	return false;
}

/* Free hugepages of any size, from sysfs; -1 if unknown. */
static long
free_hugepages(void)
{
	glob_t g;
	long total = 0;

	if (glob("/sys/kernel/mm/hugepages/hugepages-*/free_hugepages", 0, NULL, &g) != 0)
		return -1;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		long n = 0;

		if (f != NULL) {
			if (fscanf(f, "%ld", &n) == 1)
				total += n;
			fclose(f);
		}
	}
	globfree(&g);
	return total;
}

static bool
args_want_help(int argc, char **argv)
{
	bool after = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			after = true;
		else if (after && (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0 ||
				   strcmp(argv[i], "--version") == 0 ||
				   strcmp(argv[i], "--cli-reference") == 0))
			return true;
	}
	return false;
}

/*
 * --cmdline-file and -i: the file's commands first (an error stops it: exit
 * 2); then the prompt, or, without -i, one run with what the file set
 * (unless the file ran traffic itself with start).
 */
static int
run_cli(struct sl_app *a)
{
	struct sl_cli cli;
	int code = SL_EXIT_OK;

	if (sl_cli_init(&cli, a) != 0) {
		sl_err("cannot build the command line");
		return SL_EXIT_RUNTIME;
	}
	if (a->o.cmdline_file != NULL && sl_cli_file(&cli, a->o.cmdline_file) != 0) {
		sl_cli_free(&cli);
		return SL_EXIT_USAGE;
	}
	if (a->o.interactive) {
		if (!cli.quit && !sl_quitting())
			sl_cli_interact(&cli, a->o.auto_start);
	} else if (a->runs == 0 && !cli.quit && !sl_quitting()) {
		if (sl_cli_line(&cli, "start") != 0)
			code = SL_EXIT_USAGE;
		while (a->running && sl_run_tick(a))
			rte_delay_us_sleep(200);
		if (a->running)
			sl_cli_stop_run(&cli);
	}
	sl_cli_free(&cli);
	return code;
}

int
main(int argc, char **argv)
{
	int ret, code = SL_EXIT_RUNTIME;

	sl_opts_default(&app.o);
	/* Answer --help/--version without starting EAL. */
	if (args_want_help(argc, argv)) {
		int i = 1;

		while (strcmp(argv[i], "--") != 0)
			i++;
		argv[i] = argv[0];
		return sl_opts_parse(&app.o, argc - i, argv + i) == 1 ? SL_EXIT_OK : SL_EXIT_USAGE;
	}
	if (!eal_no_huge(argc, argv) && free_hugepages() == 0) {
		sl_err("no free hugepages: reserve some (scripts/sl-nic.sh hugepages 1G, or "
		       "dpdk-hugepages.py -p 2M --setup 1G) or run without them: --no-huge -m 512");
		return SL_EXIT_RUNTIME;
	}
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		bool mnt = eal_no_huge(argc, argv);
		char l[512];
		FILE *m = fopen("/proc/mounts", "r");

		while (m != NULL && !mnt && fgets(l, sizeof(l), m) != NULL)
			mnt = strstr(l, " hugetlbfs ") != NULL;
		if (m != NULL)
			fclose(m);
		sl_err("EAL initialisation failed%s%s%s: see EAL's message above; %s, and give each "
		       "running process its own --file-prefix",
		       rte_errno ? " (" : "", rte_errno ? rte_strerror(rte_errno) : "",
		       rte_errno ? ")" : "",
		       mnt ? "without hugepages use --no-huge -m 512"
			   : "no hugetlbfs is mounted: 'scripts/sl-nic.sh hugepages 1G' reserves and "
			     "mounts one (check: scripts/sl-nic.sh status), or use --no-huge -m 512");
		return SL_EXIT_RUNTIME;
	}
	argc -= ret;
	argv += ret;
	argv[0] = (char *)"sluice";
	if (sl_opts_parse(&app.o, argc, argv) == 1) {
		rte_eal_cleanup();
		return SL_EXIT_OK;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	ret = sl_ports_probe(&app);
	if (ret != 0)
		goto out;
	sl_telemetry_init(&app);
	if (app.o.interactive || app.o.cmdline_file != NULL) {
		code = run_cli(&app);
		goto out;
	}
	ret = sl_run_setup(&app);
	if (ret != 0) {
		code = ret == -EINVAL ? SL_EXIT_USAGE : SL_EXIT_RUNTIME;
		goto out;
	}
	sl_run(&app);
	sl_report_summary(&app);
	code = SL_EXIT_OK;
	if (app.o.json != NULL && sl_report_json(&app, app.o.json) != 0)
		code = SL_EXIT_RUNTIME;
out:
	sl_ports_close(&app);
	sl_run_release(&app);
	rte_eal_cleanup();
	return code;
}
