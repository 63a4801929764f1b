/* SPDX-License-Identifier: BSD-3-Clause */
/* The fuzz targets' shared set-up (fuzz.h). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "app.h"
#include "fuzz.h"
#include "session.h"
#include "sl_err.h"
#include "sl_loop.h"

void
sl_fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: contract broken: %s\n", file, line, what);
	abort();
}

char *
sl_fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

int
sl_fuzz_argv(char *text, char **argv, int max)
{
	char *save = NULL, *a;
	int argc = 0;

	argv[argc++] = (char *)"sluice";
	for (a = strtok_r(text, "\n", &save); a != NULL && argc <= max;
	     a = strtok_r(NULL, "\n", &save))
		argv[argc++] = a;
	argv[argc] = NULL;
	return argc;
}

void
sl_fuzz_eal(void)
{
	static int done;
	char prefix[64], *argv[16];
	const char *env = getenv("SL_FUZZ_PREFIX");
	int argc = 0;

	if (done)
		return;
	done = 1;
	if (env != NULL)
		snprintf(prefix, sizeof(prefix), "%s", env);
	else
		snprintf(prefix, sizeof(prefix), "slfuzz%d", (int)getpid());
	argv[argc++] = (char *)"sluice-fuzz";
	argv[argc++] = (char *)"--no-huge";
	argv[argc++] = (char *)"-m";
	argv[argc++] = (char *)"256";
	argv[argc++] = (char *)"--no-pci";
	argv[argc++] = (char *)"-l";
	argv[argc++] = (char *)"0";
	argv[argc++] = (char *)"--vdev";
	argv[argc++] = (char *)"net_null0";
	argv[argc++] = (char *)"--vdev";
	argv[argc++] = (char *)"net_null1";
	argv[argc++] = (char *)"--log-level";
	argv[argc++] = (char *)"*:error";
	argv[argc++] = (char *)"--file-prefix";
	argv[argc++] = prefix;
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "sluice-fuzz: EAL initialisation failed\n");
		abort();
	}
}

void
sl_fuzz_app_reset(struct sl_app *app)
{
	sl_opts_default(&app->o);
	sl_config_fini(&app->cfg); /* the last input's flows */
	sl_config_default(&app->cfg);
	app->exit_code = SL_EXIT_OK;
}

bool
sl_fuzz_cfg_same(const struct sl_config *a, const struct sl_config *b)
{
	struct sl_config x = *a, y = *b; /* views: never freed */

	x.flows = y.flows = NULL;
	return memcmp(&x, &y, sizeof(x)) == 0 && a->nb_flows == b->nb_flows &&
	       (a->nb_flows == 0 ||
		memcmp(a->flows, b->flows, (size_t)a->nb_flows * sizeof(*a->flows)) == 0);
}

struct sl_app *
sl_fuzz_app(void)
{
	static struct sl_app *app;

	if (app != NULL)
		return app;
	sl_fuzz_eal();
	app = calloc(1, sizeof(*app));
	if (app == NULL)
		abort();
	sl_fuzz_app_reset(app);
	if (sl_session_open(app) != SL_EXIT_OK) {
		fprintf(stderr, "sluice-fuzz: cannot open the ports\n");
		abort();
	}
	/* The main lcore's loop, as main() makes it (runs and benchmarks wait on it). */
	{
		struct sl_loop *l = sl_loop_create();

		if (l == NULL || sl_session_loop(app, l) != 0)
			abort();
	}
	return app;
}
