/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lcore.h>

#include "sl_clock.h"
#include "test.h"

static struct sl_test *tests;
int sl_test_no_recheck;

void
sl_test_register(struct sl_test *t)
{
	struct sl_test **p = &tests;

	while (*p != NULL) /* keep file order */
		p = &(*p)->next;
	*p = t;
}

static void
usage(void)
{
	printf("usage: sluice-test [--suite fast|stress]... [--no-recheck] [--list] [NAME...]\n");
}

int
main(int argc, char **argv)
{
	char prefix[64];
	char *eal[] = { argv[0], "--no-huge", "-m", "512", "--no-pci", "--no-shconf",
			"--lcores", "(0-8)@(0-1)", "--file-prefix", prefix, "--log-level", "*:error" };
	const char *suites[4];
	const char *names[64];
	int nb_suites = 0, nb_names = 0, passed = 0, failed = 0;
	bool list = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--suite") == 0 && i + 1 < argc && nb_suites < 4)
			suites[nb_suites++] = argv[++i];
		else if (strcmp(argv[i], "--no-recheck") == 0)
			sl_test_no_recheck = 1;
		else if (strcmp(argv[i], "--list") == 0)
			list = true;
		else if (argv[i][0] != '-' && nb_names < 64)
			names[nb_names++] = argv[i];
		else {
			usage();
			return 2;
		}
	}
	snprintf(prefix, sizeof(prefix), "sltest%d", (int)getpid());
	if (rte_eal_init(RTE_DIM(eal), eal) < 0) {
		printf("EAL init failed\n");
		return 1;
	}
	sl_tsc_hz(); /* measured once, before any test counts time */
	for (struct sl_test *t = tests; t != NULL; t = t->next) {
		bool run = nb_suites == 0 && nb_names == 0;

		for (int s = 0; s < nb_suites; s++)
			run |= strcmp(t->suite, suites[s]) == 0;
		for (int n = 0; n < nb_names; n++)
			run |= strcmp(t->name, names[n]) == 0;
		if (!run)
			continue;
		if (list) {
			printf("%s %s\n", t->suite, t->name);
			continue;
		}
		printf("--- %s (%s)\n", t->name, t->suite);
		fflush(stdout);
		if (t->fn() == 0) {
			printf("ok   %s\n", t->name);
			passed++;
		} else {
			printf("FAIL %s\n", t->name);
			failed++;
		}
		fflush(stdout);
	}
	if (!list)
		printf("%d passed, %d failed\n", passed, failed);
	rte_eal_cleanup();
	return failed != 0 || (passed == 0 && !list);
}
