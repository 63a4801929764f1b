/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --otg-config FILE: an Open Traffic Generator Config (JSON) read into the
 * flow table before the run (lib/otg), as a profile's flow add would.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otg.h"
#include "session.h"
#include "sl_err.h"
#include "sl_otg.h"

int
sl_otg_file(struct sl_app *app, const char *path)
{
	struct sl_otg_err e;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	int ret;

	if (f == NULL || buf == NULL) {
		sl_err("--otg-config %s: %s", path, f == NULL ? strerror(errno) : "out of memory");
		if (f != NULL)
			fclose(f);
		free(buf);
		return SL_EXIT_USAGE;
	}
	/* Read whole, bounded: a FIFO fed forever or /dev/zero ends in one message. */
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb = cap >= SL_OTG_MAX_BYTES + 1 ? NULL : realloc(buf, cap * 2);

			if (nb == NULL)
				break;
			buf = nb;
			cap *= 2;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	ret = ferror(f);
	fclose(f);
	if (ret != 0 || len > SL_OTG_MAX_BYTES) {
		sl_err("--otg-config %s: %s", path, ret != 0 ? "cannot read it" :
		       "over 4 MB: not an OTG Config this program reads");
		free(buf);
		return SL_EXIT_USAGE;
	}
	ret = sl_otg_config(buf, len, sl_session_env(app), &app->cfg, &e);
	free(buf);
	for (unsigned int i = 0; i < e.nb_warnings; i++)
		printf("warning: --otg-config %s: %s\n", path, e.warnings[i]);
	if (e.more_warnings != 0)
		printf("warning: --otg-config %s: and %u more\n", path, e.more_warnings);
	for (uint16_t p = 0; ret == 0 && p < SL_MAX_PORTS; p++)
		if (app->cfg.pn[p].capture) {
			printf("warning: --otg-config %s: captures: only the API keeps captures "
			       "(--api, POST /monitor/capture); ignored here (dpdk-dumpcap captures "
			       "a running Sluice: docs/watching.md)\n", path);
			break;
		}
	if (ret == -ENOMEM) {
		sl_err("--otg-config %s: out of memory", path);
		return SL_EXIT_RUNTIME;
	}
	if (ret != 0) {
		sl_err("--otg-config %s: %s%s%s", path, e.path, e.path[0] != '\0' ? ": " : "", e.msg);
		return SL_EXIT_USAGE;
	}
	/* The empty Config clears the API's flows; a run of the file would send none. */
	if (app->cfg.nb_flows == 0) {
		sl_err("--otg-config %s: no flows[]: a run of it sends nothing; give flows", path);
		return SL_EXIT_USAGE;
	}
	return SL_EXIT_OK;
}
