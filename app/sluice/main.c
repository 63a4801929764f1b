/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sluice: EAL, options, signals, then one session: a run, a profile, or the
 * prompt. Everything a run does is in session.c.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <mntent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_pdump.h>

#include <rte_version.h>

#include "cli.h"
#include "opts.h"
#include "otg.h"
#include "api.h"
#include "bench.h"
#include "eal_check.h"
#include "report.h"
#include "session.h"
#include "metrics.h"
#include "telemetry.h"
#include "sl_clock.h"
#include "sl_err.h"
#include "sl_loop.h"
#include "worker.h"

static struct sl_app app;

/*
 * SIGINT, SIGTERM: quit first, then stop (sequentially consistent), so that
 * a run starting at that moment, which clears stop and then reads quit
 * (sl_session_start()), cannot miss both.
 */
static void
on_signal(int sig)
{
	struct sl_loop *l;

	RTE_SET_USED(sig);
	sl_run_quit();
	/* The main lcore's loop wakes up at once (its self-pipe), whatever it waits for. */
	l = __atomic_load_n(&app.loop, __ATOMIC_SEQ_CST);
	if (l != NULL)
		sl_loop_notify(l);
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

/* The page sizes (kB) that have free hugepages, smallest first. */
struct hp_sizes {
	unsigned long kb[8];
	int n;
};

/* Free hugepages of any size, from sysfs; -1 if unknown. Fills *hs if not NULL. */
static long
free_hugepages(struct hp_sizes *hs)
{
	glob_t g;
	long total = 0;

	if (hs != NULL)
		hs->n = 0;
	if (glob("/sys/kernel/mm/hugepages/hugepages-*kB/free_hugepages", 0, NULL, &g) != 0)
		return -1;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		long n = 0;
		unsigned long kb;

		if (f != NULL) {
			if (fscanf(f, "%ld", &n) == 1)
				total += n;
			fclose(f);
		}
		if (n <= 0 || hs == NULL || hs->n == (int)RTE_DIM(hs->kb) ||
		    sscanf(g.gl_pathv[i], "/sys/kernel/mm/hugepages/hugepages-%lukB", &kb) != 1)
			continue;
		int j = hs->n++;

		for (; j > 0 && hs->kb[j - 1] > kb; j--)
			hs->kb[j] = hs->kb[j - 1];
		hs->kb[j] = kb;
	}
	globfree(&g);
	return total;
}

/* DIR is (in) a hugetlbfs whose page size has free hugepages (EAL can use it). */
static bool
hugetlbfs_usable(const char *dir, const struct hp_sizes *hs)
{
	struct statfs s;

	if (statfs(dir, &s) != 0 || (unsigned long)s.f_type != HUGETLBFS_MAGIC)
		return false;
	for (int i = 0; i < hs->n; i++)
		if ((unsigned long)s.f_bsize == hs->kb[i] * 1024)
			return true;
	return false;
}

/* EAL option NAME's value ("NAME VALUE", "NAME=VALUE"; "" if none), or NULL if absent. */
static const char *
eal_opt(int argc, char **argv, const char *name)
{
	size_t l = strlen(name);

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], name) == 0)
			return i + 1 < argc ? argv[i + 1] : "";
		if (strncmp(argv[i], name, l) == 0 && argv[i][l] == '=')
			return argv[i] + l + 1;
	}
	return NULL;
}

/*
 * After EAL failed: when it had no hugetlbfs to use (a mount, or --huge-dir,
 * for a page size with free pages), say which command makes one and return
 * true; false if that is not the cause.
 */
static bool
hugetlbfs_missing(int argc, char **argv)
{
	struct hp_sizes hs;
	const char *dir = eal_opt(argc, argv, "--huge-dir");
	struct mntent *e;
	FILE *m;
	bool ok = false;
	char sz[24];

	if (eal_no_huge(argc, argv) || eal_opt(argc, argv, "--in-memory") != NULL ||
	    free_hugepages(&hs) <= 0 || hs.n == 0 || (dir != NULL && *dir == '\0'))
		return false;
	if (hs.kb[0] % (1024 * 1024) == 0)
		snprintf(sz, sizeof(sz), "%luG", hs.kb[0] / (1024 * 1024));
	else
		snprintf(sz, sizeof(sz), "%luM", hs.kb[0] / 1024);
	if (dir != NULL) {
		if (hugetlbfs_usable(dir, &hs))
			return false;
		sl_err("EAL initialisation failed: --huge-dir %s is no hugetlbfs for a page size "
		       "with free hugepages (%s): mount one there (mount -t hugetlbfs -o pagesize=%s "
		       "nodev %s), or leave --huge-dir out once 'scripts/sl-nic.sh hugepages 1G' has "
		       "reserved and mounted them (check: scripts/sl-nic.sh status), or run without "
		       "them: --no-huge -m 512",
		       dir, sz, sz, dir);
		return true;
	}
	m = setmntent("/proc/mounts", "r");
	while (m != NULL && !ok && (e = getmntent(m)) != NULL)
		ok = strcmp(e->mnt_type, "hugetlbfs") == 0 && hugetlbfs_usable(e->mnt_dir, &hs);
	if (m != NULL)
		endmntent(m);
	if (ok)
		return false;
	sl_err("EAL initialisation failed: no hugetlbfs is mounted for a page size with free "
	       "hugepages (%s): 'scripts/sl-nic.sh hugepages 1G' reserves and mounts one (check: "
	       "scripts/sl-nic.sh status), or run without them: --no-huge -m 512",
	       sz);
	return true;
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

/* Serve what sl_opts_parse() asked for; returns the exit code, or -1 to run. */
static int
opts_action(enum sl_opts_action a)
{
	switch (a) {
	case SL_OPTS_HELP:
		sl_usage();
		return SL_EXIT_OK;
	case SL_OPTS_VERSION:
		printf("sluice %s (%s)\n", SL_VERSION, rte_version());
		return SL_EXIT_OK;
	case SL_OPTS_CLI_REFERENCE:
		sl_cli_reference(sl_cli_families);
		return SL_EXIT_OK;
	case SL_OPTS_ERROR:
		return SL_EXIT_USAGE;
	case SL_OPTS_RUN:
	default:
		return -1;
	}
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

	if (sl_cli_init(&cli, a, sl_cli_families) != 0) {
		sl_err("cannot build the command line");
		return SL_EXIT_RUNTIME;
	}
	if (a->o.cmdline_file != NULL && sl_cli_file(&cli, a->o.cmdline_file) != 0) {
		sl_cli_free(&cli);
		/* A line that could not run for lack of resources is exit 1, not 2. */
		return a->exit_code == SL_EXIT_RUNTIME ? SL_EXIT_RUNTIME : SL_EXIT_USAGE;
	}
	if (a->o.interactive) {
		if (!cli.quit && !sl_quitting())
			sl_cli_interact(&cli, a->o.auto_start);
	} else if (a->ses.runs == 0 && !cli.quit && !sl_quitting()) {
		if (sl_cli_line(&cli, "start") != 0)
			code = a->exit_code == SL_EXIT_RUNTIME ? SL_EXIT_RUNTIME : SL_EXIT_USAGE;
		sl_session_wait(a);
		sl_cli_stop_run(&cli);
	}
	sl_cli_free(&cli);
	return code;
}

/*
 * glibc's getopt keeps a parse's state (the argument it was in, the ones it
 * moved) until a call with optind 0; EAL starts its own with optind 1. An
 * empty parse leaves the state a program starts with.
 */
static void
getopt_forget(void)
{
	char *none[] = { (char *)"sluice", NULL };

	optind = 0;
	opterr = 0;
	while (getopt(1, none, "") != -1)
		;
	optind = 1;
	opterr = 1;
}

/*
 * The application's options read into a scratch model, before EAL starts:
 * -1 if they are wrong (the parser said why). The parser may cut its
 * arguments in place (SRC,DST): it reads copies.
 */
static int
opts_precheck(int argc, char **argv)
{
	struct sl_opts o;
	struct sl_config c;
	enum sl_opts_action a;
	char **v;
	int i = 1, n;

	while (i < argc && strcmp(argv[i], "--") != 0)
		i++;
	if (i == argc)
		return 0;
	n = argc - i;
	v = calloc(n + 1, sizeof(*v));
	if (v == NULL)
		return 0; /* read once EAL is up, as before */
	v[0] = argv[0];
	for (int k = 1; k < n; k++)
		if ((v[k] = strdup(argv[i + k])) == NULL)
			goto out;
	sl_opts_default(&o);
	sl_config_default(&c);
	a = sl_opts_parse(&o, &c, n, v);
	sl_config_fini(&c);
	getopt_forget();
	for (int k = 1; k < n; k++)
		free(v[k]);
	free(v);
	return a == SL_OPTS_ERROR ? -1 : 0;
out:
	for (int k = 1; k < n; k++)
		free(v[k]);
	free(v);
	return 0;
}

/* The argument array given to rte_eal_init() (main() builds it), and its length. */
static char **eal_argv;
static int eal_argc;

/*
 * EAL leaves its runtime directory behind (DPDK 22.11): the shared
 * configuration, the memory's fbarray files (12 MB with --no-huge -m 512)
 * and its sockets, one directory per --file-prefix for every run. Sluice,
 * the primary process, removes it as it ends, only when the directory is
 * its own: not with --no-shconf or --in-memory (EAL then takes no lock,
 * and another primary may be using the prefix), not a symbolic link, and
 * no other process holding a lock on its configuration. Unlinked while
 * EAL still holds that lock (closing the descriptor below gives it up, so
 * that comes last), so no other primary can have started in between;
 * mappings and open sockets live on until rte_eal_cleanup(). A secondary
 * attached now (dpdk-pdump) ends with it.
 */
static void
runtime_dir_remove(void)
{
	const char *dir = rte_eal_get_runtime_dir();
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct dirent *de;
	int dfd, cfd;
	DIR *d;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY || dir == NULL || dir[0] == '\0' ||
	    eal_opt(eal_argc, eal_argv, "--no-shconf") != NULL ||
	    eal_opt(eal_argc, eal_argv, "--in-memory") != NULL)
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return;
	cfd = openat(dfd, "config", O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0 || fcntl(cfd, F_GETLK, &fl) != 0 || fl.l_type != F_UNLCK) {
		if (cfd >= 0)
			close(cfd);
		close(dfd);
		return;
	}
	d = fdopendir(dfd);
	if (d == NULL) {
		close(cfd);
		close(dfd);
		return;
	}
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(dir);
	close(cfd);
}

static void
eal_argv_free(void)
{
	free(eal_argv);
	eal_argv = NULL;
}

int
main(int argc, char **argv)
{
	int ret, code;
	mode_t old_mask;

	sl_opts_default(&app.o);
	/* The options' candidate: committed once parsed; a start checks it against the
	 * ports (with -i, a configuration that cannot run is said at start, as before). */
	sl_config_default(&app.cfg);
	/* Answer --help/--version without starting EAL. */
	if (args_want_help(argc, argv)) {
		int i = 1;

		while (strcmp(argv[i], "--") != 0)
			i++;
		argv[i] = argv[0];
		code = opts_action(sl_opts_parse(&app.o, &app.cfg, argc - i, argv + i));
		return code < 0 ? SL_EXIT_USAGE : code;
	}
	/*
	 * The options are read before EAL starts, too: a wrong one is answered
	 * at once, and leaves nothing behind (no runtime directory, no memory
	 * taken). They are read again once EAL has taken its own.
	 */
	if (opts_precheck(argc, argv) != 0)
		return SL_EXIT_USAGE;
	/*
	 * Before EAL starts (a second or more with hugepages): a signal during
	 * its start-up then ends the program cleanly once EAL is up, instead of
	 * being lost (a background job of a non-interactive shell starts with
	 * SIGINT ignored) or killing it half-initialised.
	 */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (sl_eal_lcores_check(argc, argv) != 0)
		return SL_EXIT_USAGE;
	if (!eal_no_huge(argc, argv) && free_hugepages(NULL) == 0) {
		sl_err("no free hugepages: 'scripts/sl-nic.sh hugepages 1G' reserves and mounts "
		       "them (docs/nics.md), or run without them: --no-huge -m 512");
		return SL_EXIT_RUNTIME;
	}
	/*
	 * Telemetry says "No legacy callbacks, legacy socket not created" on
	 * every start, at WARNING (DPDK 22.11): Sluice registers no legacy
	 * callback, so that is noise. EAL gets a last --log-level for its log
	 * type, errors only (a new log type takes the first pattern that matches
	 * it: one given on the command line, e.g. lib.telemetry:info, wins).
	 */
	/*
	 * EAL may keep pointers into the array it was given until
	 * rte_eal_cleanup(): it lives until then, and is freed after it on
	 * every path (eal_argv_free()).
	 */
	eal_argv = calloc(argc + 2, sizeof(*eal_argv));
	if (eal_argv == NULL)
		return SL_EXIT_RUNTIME;
	int at = 1;

	while (at < argc && strcmp(argv[at], "--") != 0)
		at++;
	memcpy(eal_argv, argv, at * sizeof(*argv));
	eal_argv[at] = (char *)"--log-level=lib.telemetry:error";
	memcpy(eal_argv + at + 1, argv + at, (argc - at) * sizeof(*argv));
	argc++;
	argv = eal_argv;
	eal_argc = argc;
	/*
	 * EAL creates the runtime directory, the telemetry and multi-process
	 * sockets: for this user only, whatever the umask (a umask of 0 made
	 * the sockets writable by everyone). Files the run writes later
	 * (--json) keep the user's umask.
	 */
	old_mask = umask(077);
	ret = rte_eal_init(argc, argv);
	umask(old_mask);
	if (ret >= 0)
		sl_tsc_hz(); /* measured now, before any lcore counts time with it (sl_clock.h) */
	if (ret >= 0 && chmod(rte_eal_get_runtime_dir(), 0700) != 0)
		sl_err("runtime directory %s: %s", rte_eal_get_runtime_dir(), strerror(errno));
	if (ret < 0) {
		if (!hugetlbfs_missing(argc, argv))
			sl_err("EAL initialisation failed%s%s%s: see EAL's message above; without "
			       "hugepages use --no-huge -m 512, and give each running process its "
			       "own --file-prefix",
			       rte_errno ? " (" : "", rte_errno ? rte_strerror(rte_errno) : "",
			       rte_errno ? ")" : "");
		eal_argv_free();
		return SL_EXIT_RUNTIME;
	}
	argc -= ret;
	argv += ret;
	argv[0] = (char *)"sluice";
	code = opts_action(sl_opts_parse(&app.o, &app.cfg, argc, argv));
	if (code >= 0) {
		runtime_dir_remove();
		rte_eal_cleanup();
		eal_argv_free();
		return code;
	}
	/*
	 * Let dpdk-dumpcap and dpdk-pdump attach (secondary processes: they
	 * need a run with hugepages). Costs nothing until a capture starts.
	 */
	if (rte_pdump_init() != 0)
		sl_err("packet capture (dpdk-dumpcap, dpdk-pdump) unavailable: %s",
		       rte_strerror(rte_errno));

	app.ses.show = &sl_report_show; /* the run's views: the live line, the summary, --json */
	code = sl_session_open(&app);
	if (code == SL_EXIT_OK) {
		/* The main lcore's one loop: every wait of the main lcore is a turn of it. */
		struct sl_loop *l = sl_loop_create();

		if (l == NULL || sl_session_loop(&app, l) != 0) {
			sl_err("cannot create the main loop: %s", strerror(errno));
			sl_loop_free(l);
			code = SL_EXIT_RUNTIME;
		}
	}
	if (code == SL_EXIT_OK && app.o.otg_config != NULL)
		code = sl_otg_file(&app, app.o.otg_config); /* the ports are known: their names */
	if (code == SL_EXIT_OK)
		code = sl_metrics_start(&app); /* --metrics: before any run, off the data path */
	if (code == SL_EXIT_OK && app.o.api)
		code = sl_api_start(&app, &app.o);
	if (code == SL_EXIT_OK) {
		sl_telemetry_init(&app);
		if (app.o.interactive || app.o.cmdline_file != NULL)
			code = run_cli(&app);
		else if (app.o.bench != NULL)
			code = sl_bench_run(&app, app.o.bench); /* --bench: trials, not one run */
		else if (app.o.api)
			code = sl_api_serve(&app); /* the API's clients drive the runs */
		else
			code = sl_session_run(&app);
	}
	sl_api_stop(); /* waiting requests answer; before the loop and the run go */
	/* A failed --json write on any path (a run, a stop at the prompt, a profile). */
	if (code == SL_EXIT_OK)
		code = app.exit_code;
	sl_metrics_stop();
	sl_telemetry_close(); /* telemetry's reads end before the ports close */
	sl_session_close(&app);
	{
		struct sl_loop *l = app.loop;

		/* No signal handler may write to its pipe once it is gone. */
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		__atomic_store_n(&app.loop, NULL, __ATOMIC_SEQ_CST);
		sl_loop_free(l);
	}
	rte_pdump_uninit();
	runtime_dir_remove();
	rte_eal_cleanup();
	eal_argv_free();
	return code;
}
