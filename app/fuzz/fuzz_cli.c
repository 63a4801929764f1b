/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every prompt command's line parser: each line of the input goes through
 * sl_cli_line(), the parse path the prompt and profiles use (DPDK's cmdline
 * library, then the command's handler), on two net_null ports. Checked:
 * no crash, and cli.h's contract that a command that fails changes nothing
 * of the configuration (the options the next start reads).
 */

#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "cli.h"
#include "fuzz.h"

#define MAX_LINES 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sl_cli cli;

static struct sl_app *
fuzz_cli(void)
{
	static struct sl_app *app;

	if (app == NULL) {
		app = sl_fuzz_app();
		if (sl_cli_init(&cli, app, sl_cli_families) != 0)
			abort();
	}
	sl_fuzz_app_reset(app);
	cli.quit = false;
	cli.failed = false;
	return app;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sl_config before; /* a refused command commits nothing */
	struct sl_app *app = fuzz_cli();
	char *text = sl_fuzz_str(data, size), *save = NULL, *line;
	int n = 0;

	for (line = strtok_r(text, "\n", &save); line != NULL && n < MAX_LINES;
	     line = strtok_r(NULL, "\n", &save), n++) {
		if (sl_config_copy(&before, &app->cfg) != 0)
			abort();
		if (sl_cli_line(&cli, line) != 0)
			SL_FUZZ_CHECK(sl_fuzz_cfg_same(&before, &app->cfg));
		if (app->ses.running) {
			sl_session_wait(app);
			sl_cli_stop_run(&cli);
		}
		if (cli.quit)
			break;
	}
	free(text);
	return 0;
}
