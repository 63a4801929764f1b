/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_FRONT_OTG_H
#define SL_FRONT_OTG_H

#include "app.h"

/*
 * --otg-config FILE: read an OTG Config (JSON) into app->cfg's flow table.
 * SL_EXIT_OK, or the exit code with one message printed (the JSON path at
 * fault and what to do); warnings for what is accepted but ignored.
 */
int sl_otg_file(struct sl_app *app, const char *path);

#endif /* SL_FRONT_OTG_H */
