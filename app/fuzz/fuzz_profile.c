/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Profile files (--cmdline-file): the input is a whole file, read through
 * sl_cli_file() from a memory file, with its limits (size, line length, NUL
 * bytes), comments and blank lines, then each command (fuzz_cli.c's
 * parse path). Checked: no crash, and a file the reader refuses runs no
 * line (the configuration is as it was).
 */

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/mman.h>

#include "app.h"
#include "cli.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sl_cli cli;
	static struct sl_app *app;
	static struct sl_config before; /* a refused command commits nothing */
	static char path[64];
	static int fd = -1;

	if (app == NULL) {
		app = sl_fuzz_app();
		if (sl_cli_init(&cli, app, sl_cli_families) != 0)
			abort();
		fd = memfd_create("sluice-profile", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	sl_fuzz_app_reset(app);
	cli.quit = false;
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	if (sl_config_copy(&before, &app->cfg) != 0)
		abort();
	/* A NUL byte anywhere, or a line over the limit: refused whole. */
	if (memchr(data, '\0', size) != NULL) {
		SL_FUZZ_CHECK(sl_cli_file(&cli, path) != 0);
		SL_FUZZ_CHECK(sl_fuzz_cfg_same(&before, &app->cfg));
	} else {
		sl_cli_file(&cli, path);
	}
	if (app->ses.running) {
		sl_session_wait(app);
		sl_cli_stop_run(&cli);
	}
	return 0;
}
