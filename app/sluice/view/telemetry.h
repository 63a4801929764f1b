/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_TELEMETRY_H
#define SL_TELEMETRY_H

struct sl_app;

/* How often the main lcore's loop publishes a snapshot for telemetry while a run goes. */
#define SL_TEL_PUBLISH_US 100000

/*
 * Register /sluice/totals, ports, streams, flows, txqs, and publish their
 * snapshot from app->loop (its before-sleep step: at once after a start or
 * a stop; its timer while a run goes). The reads answer -EAGAIN until the
 * first snapshot (the loop's first turn).
 */
void sl_telemetry_init(struct sl_app *app);
/* Before the ports close: nothing published any more, reads answer -EAGAIN. */
void sl_telemetry_close(void);

#endif /* SL_TELEMETRY_H */
