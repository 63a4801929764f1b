/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_FRONT_API_H
#define SL_FRONT_API_H

/*
 * --api [http[s]://][ADDR:]PORT: the Open Traffic Generator REST API (docs/api.md),
 * served by libmicrohttpd on its own thread. A request that reads or
 * changes the program (set_config, control state, metrics) is handed to
 * the main lcore's loop, which runs it between its other turns, and the
 * server thread waits for the answer: the configuration and the run have
 * one thread, as at the prompt. A request body is at most SL_OTG_MAX_BYTES.
 */

#include "app.h"

/*
 * Start serving as o asks (--api, --api-cert/--api-key, --api-token) on its
 * host:port (port 0: the kernel picks; the URL is printed). SL_EXIT_*.
 */
int sl_api_start(struct sl_app *app, const struct sl_opts *o);
/*
 * The API's routes for a harness that calls them without a server (the
 * fuzz target of every endpoint's body): app is the program they act on,
 * *n their number. A route's reply body is malloc'd: the caller frees it.
 */
struct sl_web_route;
const struct sl_web_route *sl_api_harness(struct sl_app *app, unsigned int *n);
/* Stop serving: waiting requests answer 503. */
void sl_api_stop(void);
/* Serve until a signal (no prompt, no run of the options'). SL_EXIT_*. */
int sl_api_serve(struct sl_app *app);

#endif /* SL_FRONT_API_H */
