/* SPDX-License-Identifier: BSD-3-Clause */
/* The prompt's command families, in the order help and docs/cli.md list them. */

#include "cli.h"

const struct sl_cmd *const sl_cli_families[] = {
	sl_cmds_run, sl_cmds_show, sl_cmds_set, sl_cmds_flow, sl_cmds_device, sl_cmds_port, sl_cmds_bench, NULL,
};
