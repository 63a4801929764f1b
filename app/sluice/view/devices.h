/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_VIEW_DEVICES_H
#define SL_VIEW_DEVICES_H

/* The devices of a results snapshot as the JSON summary's "devices" array. */

#include "sl_stats.h"
#include "snapshot.h"

/* "devices": each device's name, port, MAC, counters and neighbours (none: nothing written). */
void sl_report_json_devices(struct sl_json *j, const struct sl_results *r);

#endif /* SL_VIEW_DEVICES_H */
