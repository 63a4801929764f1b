/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_TELEMETRY_H
#define SL_TELEMETRY_H

struct sl_app;

/* Register /sluice/totals, /sluice/ports, /sluice/txqs (reads take app->ses.tel_lock). */
void sl_telemetry_init(struct sl_app *app);

#endif /* SL_TELEMETRY_H */
