/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz-api: every endpoint of the OTG REST API with any body, in any
 * sequence (a Config, then a start, metrics, states, a capture...), called
 * as the server calls them, on two net_null ports.
 *
 * Input: records of  route:1 | length:2 (big endian) | body. The route is
 * an index into the API's routes (modulo their number).
 *
 * Checked: no crash, leak or read past a body (ASan: each body is an
 * allocation of its own length); every answer has a
 * status of 200 to 599; a JSON answer (every one but a capture's pcap and
 * the Prometheus text) is JSON; a Config refused leaves the configuration
 * as it was, and a Config taken passes the check a start makes of a
 * Config (SL_CHECK_CONFIG).
 */

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api.h"
#include "app.h"
#include "fuzz.h"
#include "session.h"
#include "sl_web.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sl_app *app;
	static const struct sl_web_route *routes;
	static unsigned int nr;
	size_t off = 0;

	if (app == NULL) {
		app = sl_fuzz_app();
		routes = sl_api_harness(app, &nr);
	}
	if (app->ses.running)
		sl_session_stop(app);
	sl_fuzz_app_reset(app);
	while (off + 3 <= size) {
		const struct sl_web_route *rt = &routes[data[off] % nr];
		size_t len = (size_t)data[off + 1] << 8 | data[off + 2];
		struct sl_web_reply r = { 0 };
		struct sl_config before = { 0 };
		struct sl_web_req q;
		char *body;

		off += 3;
		if (len > size - off)
			len = size - off;
		/* Its own allocation, of its length: a read past it is ASan's to see. */
		body = malloc(len + 1);
		if (body == NULL)
			abort();
		memcpy(body, data + off, len);
		body[len] = '\0';
		off += len;
		q = (struct sl_web_req){ rt->method, rt->path, body, len, NULL };
		if (sl_config_copy(&before, &app->cfg) != 0)
			abort();
		rt->fn(app, &q, &r);
		SL_FUZZ_CHECK(r.status >= 200 && r.status <= 599);
		if (r.ctype == NULL && r.body != NULL) {
			json_t *j = json_loadb(r.body, r.len, 0, NULL);

			SL_FUZZ_CHECK(j != NULL);
			json_decref(j);
		}
		if (strcmp(rt->path, "/config") == 0 && strcmp(rt->method, "POST") == 0) {
			struct sl_config_err e;

			if (r.status == 200)
				SL_FUZZ_CHECK(sl_session_check(app, &app->cfg, SL_CHECK_CONFIG, &e) == 0);
			else
				SL_FUZZ_CHECK(sl_fuzz_cfg_same(&before, &app->cfg));
		}
		sl_config_fini(&before);
		free(r.body);
		free(body);
	}
	if (app->ses.running)
		sl_session_stop(app);
	return 0;
}
