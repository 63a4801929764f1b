/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The OTG REST API (api.h) on libmicrohttpd: POST /config, GET /config,
 * POST /control/state, POST /monitor/metrics, GET /capabilities/version.
 * Served by lib/web on the main lcore's loop: each call runs there, between
 * the loop's other events, and reads and changes the program's state
 * without a lock.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <jansson.h>

#include "api.h"
#include "api_tls.h"
#include "ctl.h"
#include "metrics.h"
#include "results.h"
#include "session.h"
#include "sl_capture.h"
#include "sl_err.h"
#include "sl_loop.h"
#include "sl_otg.h"
#include "sl_web.h"
#include "worker.h"
#include "sl_clock.h"

/* A call the loop runs for the server: its request, and the answer. */
struct api_call {
	int (*fn)(struct sl_app *app, struct api_call *c);
	const char *body;
	size_t len;
	unsigned int status;
	char *reply;           /* JSON, malloc'd */
	size_t reply_len;      /* 0: strlen(reply) */
	const char *ctype;     /* NULL: application/json */
	const char *hdr;       /* one more header (static), or NULL */
	char hdr_val[64];      /* and its value */
};

/* The rates since the last request (per flow, per port): its counts then, and when. */
struct api_prev {
	unsigned int run;      /* of this run (app->ses.runs) */
	uint64_t tsc;
	uint64_t tx, rx, tx_bytes, rx_bytes;
};

static struct {
	struct sl_app *app;
	struct sl_web *web;
	char *cert, *key;      /* PEM, for https */
	char token[256];       /* --api-token's; "": none asked */
	struct sl_capture *cap[SL_MAX_PORTS]; /* captures[]' ports (lent to the session) */
	bool link_down[SL_MAX_PORTS]; /* set down through the API since the last start */
	struct api_prev *prev; /* per flow */
	uint16_t nb_prev;
	struct api_prev prev_port[SL_MAX_PORTS];
} A;

static int
api_prev_grow(uint16_t n)
{
	struct api_prev *p = realloc(A.prev, n * sizeof(*p));

	if (p == NULL)
		return -ENOMEM;
	memset(p + A.nb_prev, 0, (n - A.nb_prev) * sizeof(*p));
	A.prev = p;
	A.nb_prev = n;
	return 0;
}

/* Port p's OTG name: the configuration's (ports[].name), else port-P. */
static const char *
api_port_name(uint16_t p)
{
	static char def[SL_MAX_PORTS][16];

	if (A.app->cfg.pn[p].name[0] != '\0')
		return A.app->cfg.pn[p].name;
	snprintf(def[p], sizeof(def[p]), "port-%u", p);
	return def[p];
}

/* A port by its OTG name (or its DPDK name); UINT16_MAX: none. */
static uint16_t
api_port_of(const struct sl_app *app, const char *name)
{
	for (uint16_t p = 0; name != NULL && p < app->ports.n; p++)
		if (strcmp(api_port_name(p), name) == 0 || strcmp(app->ports.p[p].info.name, name) == 0)
			return p;
	return UINT16_MAX;
}

/*
 * A message made valid UTF-8 in place: a byte that does not begin a whole,
 * well-formed sequence (a name cut in half by a bounded buffer, or a client's
 * bytes that are no UTF-8) becomes '?', so that JSON can carry it.
 */
static void
utf8_clean(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p != 0) {
		int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 && *p >= 0xc2 ? 2 :
			(*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 && *p <= 0xf4 ? 4 : 0;
		int k;

		for (k = 1; k < n && (p[k] & 0xc0) == 0x80; k++)
			;
		/* Overlong 3-byte forms, surrogates and code points above U+10FFFF. */
		if (n == 3 && k == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) ||
					 (p[0] == 0xed && p[1] >= 0xa0)))
			n = 0;
		if (n == 4 && k == 4 && ((p[0] == 0xf0 && p[1] < 0x90) ||
					 (p[0] == 0xf4 && p[1] >= 0x90)))
			n = 0;
		if (n == 0 || k < n) {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

/*
 * The spec's error body: {"code": N, "kind": ..., "errors": [...]}, in place
 * of any answer set before. Returns -1: a caller's error stops its caller.
 */
static int __attribute__((format(printf, 4, 5)))
api_error(struct api_call *c, unsigned int status, const char *kind, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	json_t *o;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	utf8_clean(msg);
	o = json_pack("{s:i, s:s, s:[s]}", "code", (int)status, "kind", kind, "errors", msg);
	free(c->reply);
	c->status = status;
	c->reply = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;
	c->reply_len = 0;
	c->ctype = NULL;
	json_decref(o);
	return -1;
}

static int
api_json(struct api_call *c, json_t *o)
{
	free(c->reply);
	c->status = 200;
	c->reply = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (c->reply == NULL)
		return api_error(c, 500, "internal", "out of memory");
	return 0;
}

/* POST /config: an OTG Config into the flow table, checked as a start would. */
static int
call_set_config(struct sl_app *app, struct api_call *c)
{
	struct sl_capture *cap[SL_MAX_PORTS];
	struct sl_config cand = { 0 };
	struct sl_config_err ce;
	struct sl_otg_err e;
	bool nomem = false;
	json_t *w;
	int ret;

	if (app->ses.running)
		return api_error(c, 409, "validation", "traffic is running: stop it first "
				 "(POST /control/state, flow_transmit stop)");
	if (sl_config_copy(&cand, &app->cfg) != 0)
		return api_error(c, 500, "internal", "out of memory");
	ret = sl_otg_config(c->body, c->len, sl_session_env(app), &cand, &e);
	/* Checked as a start checks it: a Config taken is one that starts. */
	if (ret == 0 && sl_session_check(app, &cand, SL_CHECK_CONFIG, &ce) != 0) {
		bool flow = ce.opt != NULL && strcmp(ce.opt, "--flow") == 0;

		snprintf(e.path, sizeof(e.path), "%s", flow ? "flows" : "");
		snprintf(e.msg, sizeof(e.msg), "%.300s", ce.msg + (flow ? ce.detail + 2 : 0));
		ret = -EINVAL;
	}
	if (ret != 0) {
		sl_config_fini(&cand);
		return ret == -ENOMEM ? api_error(c, 500, "internal", "out of memory") :
		       api_error(c, 400, "validation", "%s%s%s", e.path, e.path[0] ? ": " : "",
				 e.msg);
	}
	/* The new captures first: nothing is committed until all of it can be. */
	for (uint16_t p = 0; p < SL_MAX_PORTS; p++) {
		const struct sl_port_name *pn = &cand.pn[p];

		cap[p] = pn->capture ? sl_capture_create(SL_OTG_CAPTURE_FRAMES,
							 SL_OTG_CAPTURE_BYTES, pn->cap_snap) : NULL;
		if (pn->capture && cap[p] == NULL)
			nomem = true;
	}
	if (nomem || sl_config_copy(&app->cfg, &cand) != 0) {
		for (uint16_t p = 0; p < SL_MAX_PORTS; p++)
			sl_capture_free(cap[p]);
		sl_config_fini(&cand);
		return api_error(c, 500, "internal", "out of memory");
	}
	sl_config_fini(&cand);
	/* Nothing runs: nothing writes the old captures; the new ones are lent to the next run. */
	for (uint16_t p = 0; p < SL_MAX_PORTS; p++) {
		sl_capture_free(A.cap[p]);
		A.cap[p] = cap[p];
		app->ses.cap[p] = cap[p];
	}
	w = json_array();
	for (unsigned int i = 0; i < e.nb_warnings; i++) {
		utf8_clean(e.warnings[i]);
		json_array_append_new(w, json_string(e.warnings[i]));
	}
	if (e.more_warnings != 0) {
		char more[64];

		snprintf(more, sizeof(more), "and %u more", e.more_warnings);
		json_array_append_new(w, json_string(more));
	}
	/* A flow whose frames are too short to carry the signature is never measured: said. */
	for (uint16_t f = 0; f < app->cfg.nb_flows; f++) {
		int sg = sl_config_signed_sizes(&app->cfg, sl_session_env(app), f);
		char msg[256];

		if (sg == 2)
			continue;
		snprintf(msg, sizeof(msg), "flows[%u] (%s): %s frames below %u bytes carry no "
			 "signature (its headers and the signature's 16 bytes need them): %s", f,
			 app->cfg.flows[f].name, sg == 0 ? "all its" : "its",
			 sl_config_signed_min(&app->cfg, sl_session_env(app), f),
			 sg == 0 ? "it is sent but not measured (frames_rx stays 0): give a larger size" :
			 "those are sent but not measured");
		utf8_clean(msg);
		json_array_append_new(w, json_string(msg));
	}
	return api_json(c, json_pack("{s:o}", "warnings", w));
}

/*
 * GET /config: the configuration as it is now, rendered from the model (a
 * flow added at the prompt is in it); a flow the OTG models cannot say is
 * left out and named in a Warning header.
 */
static int
call_get_config(struct sl_app *app, struct api_call *c)
{
	struct sl_otg_left left;
	json_t *o = sl_otg_write(&app->cfg, sl_session_env(app), &left);

	if (o == NULL)
		return api_error(c, 500, "internal", "out of memory");
	if (left.nb != 0) {
		c->hdr = "X-Sluice-Flows-Left-Out";
		snprintf(c->hdr_val, sizeof(c->hdr_val), "%u: %.32s%s", left.nb, left.first,
			 left.nb > 1 ? ", ..." : "");
		printf("api: GET /config: %u flow%s left out, with no OTG form (a replay, a "
		       "random field, --flows, an L4 field the models lack): %s%s\n", left.nb,
		       left.nb == 1 ? "" : "s", left.first, left.nb > 1 ? ", ..." : "");
	}
	return api_json(c, o);
}

/* A run the API started ends by itself (its counts, durations): stop it, with its summary. */
static void
api_run_end(struct sl_app *app, void *arg)
{
	RTE_SET_USED(arg);
	sl_session_stop(app);
}

/* Names sorted with their index: a request naming n of m flows costs n log m, not n m. */
struct name_ix {
	const char *name;
	uint16_t i;
};

static int
name_ix_cmp(const void *a, const void *b)
{
	return strcmp(((const struct name_ix *)a)->name, ((const struct name_ix *)b)->name);
}

/* An index of n names (name(arg, i)), sorted; NULL: out of memory. */
static struct name_ix *
name_ix_make(uint16_t n, const char *(*name)(const void *arg, uint16_t i), const void *arg)
{
	struct name_ix *ix = malloc((n != 0 ? n : 1) * sizeof(*ix));

	if (ix == NULL)
		return NULL;
	for (uint16_t i = 0; i < n; i++)
		ix[i] = (struct name_ix){ name(arg, i), i };
	qsort(ix, n, sizeof(*ix), name_ix_cmp);
	return ix;
}

/* The index of @p name in ix (n entries), or -1. */
static int
name_ix_find(const struct name_ix *ix, uint16_t n, const char *name)
{
	struct name_ix key = { name, 0 };
	const struct name_ix *x = name != NULL ? bsearch(&key, ix, n, sizeof(*ix), name_ix_cmp) :
				  NULL;

	return x != NULL ? x->i : -1;
}

static const char *
cfg_flow_name(const void *arg, uint16_t i)
{
	return ((const struct sl_config *)arg)->flows[i].name;
}

static const char *
res_flow_name(const void *arg, uint16_t i)
{
	return ((const struct sl_results *)arg)->flow[i].name;
}

/*
 * Names (a JSON array) as a selection of flows, sel[f] true for each flow
 * named (repeats once); every flow when there is none. *all: every flow
 * is selected. 0, or the error answered (a name that is no flow).
 */
static int
flow_sel(const struct sl_config *cfg, const json_t *names, const char *path, bool *sel,
	 bool *all, struct api_call *c)
{
	struct name_ix *ix;
	uint16_t n = 0;

	memset(sel, 0, cfg->nb_flows * sizeof(*sel));
	if (names != NULL && !json_is_array(names))
		return api_error(c, 400, "validation", "%s: give an array of flow names", path);
	ix = json_array_size(names) != 0 ? name_ix_make(cfg->nb_flows, cfg_flow_name, cfg) : NULL;
	if (json_array_size(names) != 0 && ix == NULL)
		return api_error(c, 500, "internal", "out of memory");
	for (size_t i = 0; i < json_array_size(names); i++) {
		const char *nm = json_string_value(json_array_get(names, i));
		int f = name_ix_find(ix, cfg->nb_flows, nm);

		if (f < 0) {
			api_error(c, 400, "validation", "%s[%zu]: no flow named '%s' in the "
				  "configuration", path, i, nm != NULL ? nm : "(not a string)");
			free(ix);
			return -1;
		}
		n += !sel[f];
		sel[f] = true;
	}
	free(ix);
	if (json_array_size(names) == 0) {
		for (uint16_t f = 0; f < cfg->nb_flows; f++)
			sel[f] = true;
		n = cfg->nb_flows;
	}
	*all = n == cfg->nb_flows;
	return 0;
}

/*
 * traffic.flow_transmit: start, stop, pause or resume every flow or the
 * ones named; checked whole, then done (never half).
 */
static int
flow_transmit(struct sl_app *app, struct api_call *c, const json_t *ft)
{
	const char *state = json_string_value(json_object_get(ft, "state"));
	const struct sl_config *cfg = app->ses.running ? &app->ses.run_cfg : &app->cfg;
	const json_t *names = json_object_get(ft, "flow_names");
	bool *sel = NULL, all = false;
	uint8_t *init = NULL, h;
	int ret;

	if (state == NULL || (strcmp(state, "start") != 0 && strcmp(state, "stop") != 0 &&
			      strcmp(state, "pause") != 0 && strcmp(state, "resume") != 0))
		return api_error(c, 400, "validation", "traffic.flow_transmit.state: give start, "
				 "stop, pause or resume");
	if (names != NULL && !json_is_array(names))
		return api_error(c, 400, "validation", "traffic.flow_transmit.flow_names: give an "
				 "array of flow names");
	/* Stop of everything: whatever runs (flows of the API's or the options'). */
	if (strcmp(state, "stop") == 0 && json_array_size(names) == 0) {
		if (app->ses.running)
			sl_session_stop(app);
		return api_json(c, json_object());
	}
	if (cfg->nb_flows == 0)
		return api_error(c, 400, "validation", "no flow: set a configuration first "
				 "(POST /config)");
	sel = malloc(cfg->nb_flows * sizeof(*sel));
	if (sel == NULL)
		return api_error(c, 500, "internal", "out of memory");
	if (flow_sel(cfg, names, "traffic.flow_transmit.flow_names", sel, &all, c) != 0)
		goto out;
	if (!app->ses.running) {
		if (strcmp(state, "stop") == 0)
			goto ok; /* nothing runs: stopped already */
		if (strcmp(state, "start") != 0) {
			api_error(c, 409, "execution", "traffic.flow_transmit.state %s: no traffic "
				  "runs: start it first", state);
			goto out;
		}
		/* A new run: the flows not named are stopped in it from the start. */
		init = malloc(cfg->nb_flows);
		if (init == NULL) {
			api_error(c, 500, "internal", "out of memory");
			goto out;
		}
		for (uint16_t f = 0; f < cfg->nb_flows; f++)
			init[f] = sel[f] ? SL_HOLD_NONE : SL_HOLD_STOP;
		/* What a start would refuse, refused here with its reason; flows between
		 * devices wait for their next hops first (bounded: SL_CTL_RESOLVE_US). */
		{
			struct sl_config_err ce;

			sl_ctl_resolve(app, &app->cfg, false);
			if (sl_session_check(app, &app->cfg, SL_CHECK_ALL, &ce) != 0) {
				api_error(c, sl_ctl_unresolved(app, &app->cfg) ? 409 : 400,
					  "execution", "the start failed: %s", ce.msg);
				goto out;
			}
		}
		app->ses.hold_init = init;
		ret = sl_session_start(app, &app->cfg, false);
		app->ses.hold_init = NULL;
		if (ret != 0) {
			api_error(c, ret == -EINVAL ? 400 : 500, "execution", "the start failed: "
				  "see the program's output (its ports or memory)");
			goto out;
		}
		sl_session_on_end(app, api_run_end, NULL);
		memset(A.link_down, 0, sizeof(A.link_down)); /* a start brings every link up */
		goto ok;
	}
	/* Running: every flow stopped is a stop of the run, with its summary. */
	if (strcmp(state, "stop") == 0 && all) {
		sl_session_stop(app);
		goto ok;
	}
	if (app->ses.hold == NULL) {
		api_error(c, 409, "execution", "this run cannot hold single flows: stop it, then "
			  "start it here");
		goto out;
	}
	h = strcmp(state, "stop") == 0 ? SL_HOLD_STOP : state[0] == 'p' ? SL_HOLD_PAUSE :
	    SL_HOLD_NONE;
	/*
	 * A flow stopped in this run starts only with a new run: named, it is
	 * refused (before anything changes); unnamed (every flow), left as it is.
	 */
	for (uint16_t f = 0; f < cfg->nb_flows; f++)
		if (sel[f] && app->ses.hold[f] == SL_HOLD_STOP && h != SL_HOLD_STOP) {
			if (json_array_size(names) == 0) {
				sel[f] = false;
				continue;
			}
			api_error(c, 409, "execution", "flow %s stopped in this run: stop every flow, "
				  "then start (a new run) to send it again", cfg->flows[f].name);
			goto out;
		}
	for (uint16_t f = 0; f < cfg->nb_flows; f++)
		if (sel[f] && sl_session_hold(app, f, h) != 0) {
			api_error(c, 500, "internal", "flow %s: cannot %s it", cfg->flows[f].name,
				  state);
			goto out;
		}
ok:
	api_json(c, json_object());
out:
	free(init);
	free(sel);
	return 0;
}

/*
 * port_names (what, at path) as want[port]; with capture, only ports with
 * a capture. 0, or the error answered.
 */
static int
port_sel(const struct sl_app *app, const json_t *names, const char *path, bool capture,
	 bool *want, struct api_call *c)
{
	if (names != NULL && !json_is_array(names))
		return api_error(c, 400, "validation", "%s.port_names: give an array of port names",
				 path);
	for (size_t i = 0; i < json_array_size(names); i++) {
		const char *nm = json_string_value(json_array_get(names, i));
		uint16_t p = api_port_of(app, nm);

		if (p == UINT16_MAX || (capture && A.cap[p] == NULL)) {
			api_error(c, 400, "validation", "%s.port_names[%zu]: %s '%s'%s", path, i,
				  p == UINT16_MAX ? "no port named" : "no capture on",
				  nm != NULL ? nm : "(not a string)", p == UINT16_MAX ? "" :
				  ": list it in the configuration's captures[]");
			return -1;
		}
		want[p] = true;
	}
	return 0;
}

/* port.link: up or down, where the driver can. */
static int
port_link(struct sl_app *app, struct api_call *c, const json_t *lk)
{
	const char *state = json_string_value(json_object_get(lk, "state"));
	const json_t *names = json_object_get(lk, "port_names");
	bool want[SL_MAX_PORTS] = { false };

	if (state == NULL || (strcmp(state, "up") != 0 && strcmp(state, "down") != 0))
		return api_error(c, 400, "validation", "port.link.state: give up or down");
	if (port_sel(app, names, "port.link", false, want, c) != 0)
		return 0;
	for (uint16_t p = 0; p < app->ports.n; p++) {
		struct sl_port *sp = &app->ports.p[p];
		bool up = state[0] == 'u';
		int r;

		if (json_array_size(names) != 0 && !want[p])
			continue;
		r = sp->ops->link != NULL ? sp->ops->link(sp->dev, up) : -ENOTSUP;
		if (r != 0) {
			/* Nothing left half done: the ports already set back as they were. */
			for (uint16_t k = 0; k < p; k++)
				if ((json_array_size(names) == 0 || want[k]) &&
				    A.link_down[k] == up)
					app->ports.p[k].ops->link(app->ports.p[k].dev, !up);
			return api_error(c, r == -ENOTSUP ? 400 : 409, "execution", "port %s (%s): "
					 "the link cannot be set %s: %s", api_port_name(p),
					 sp->info.name, state, r == -ENOTSUP ? "its driver cannot" :
					 r == -ENODEV ? "no link before the port's first start" :
					 strerror(-r));
		}
	}
	for (uint16_t p = 0; p < app->ports.n; p++)
		if (json_array_size(names) == 0 || want[p])
			A.link_down[p] = state[0] != 'u';
	return api_json(c, json_object());
}

/* port.capture: start (a new capture when nothing runs) or stop keeping frames. */
static int
port_capture(struct sl_app *app, struct api_call *c, const json_t *cp)
{
	const char *state = json_string_value(json_object_get(cp, "state"));
	const json_t *names = json_object_get(cp, "port_names");
	bool want[SL_MAX_PORTS] = { false };

	if (state == NULL || (strcmp(state, "start") != 0 && strcmp(state, "stop") != 0))
		return api_error(c, 400, "validation", "port.capture.state: give start or stop");
	if (port_sel(app, names, "port.capture", true, want, c) != 0)
		return 0;
	for (uint16_t p = 0; p < app->ports.n; p++) {
		if (A.cap[p] == NULL || (json_array_size(names) != 0 && !want[p]))
			continue;
		/* Only between runs does nothing write it: a start there forgets the last. */
		if (state[2] == 'a' && !app->ses.running)
			sl_capture_reset(A.cap[p]);
		sl_capture_arm(A.cap[p], state[2] == 'a');
	}
	return api_json(c, json_object());
}

/* POST /monitor/capture: a port's frames kept so far, as pcap. */
static int
call_capture(struct sl_app *app, struct api_call *c)
{
	json_error_t je;
	json_t *root = json_loadb(c->body, c->len, JSON_REJECT_DUPLICATES, &je);
	const char *nm = json_string_value(json_object_get(root, "port_name"));
	uint16_t p = api_port_of(app, nm);
	int ret;

	if (root == NULL)
		return api_error(c, 400, "validation", "not JSON: %s", je.text);
	if (p == UINT16_MAX || A.cap[p] == NULL) {
		api_error(c, 400, "validation", "port_name: %s '%s'%s", p == UINT16_MAX ?
			  "no port named" : "no capture on", nm != NULL ? nm : "(none given)",
			  p == UINT16_MAX ? "" : ": list it in the configuration's captures[]");
		json_decref(root);
		return 0;
	}
	json_decref(root);
	ret = sl_capture_pcap(A.cap[p], &c->reply, &c->reply_len);
	if (ret != 0)
		return api_error(c, 500, "internal", "cannot write the pcap: %s", strerror(-ret));
	c->status = 200;
	c->ctype = "application/octet-stream";
	c->hdr = "X-Sluice-Capture-Missed";
	snprintf(c->hdr_val, sizeof(c->hdr_val), "%" PRIu64, A.cap[p]->missed);
	if (A.cap[p]->missed != 0)
		printf("api: the capture of port %s: %" PRIu64 " frames arrived past its limits "
		       "(%u frames, %u MB) and are not in it\n", api_port_name(p), A.cap[p]->missed,
		       SL_OTG_CAPTURE_FRAMES, SL_OTG_CAPTURE_BYTES >> 20);
	return 0;
}

/* POST /control/state: traffic flow_transmit; port link and capture. */
static int
call_control_state(struct sl_app *app, struct api_call *c)
{
	json_error_t je;
	json_t *root = json_loadb(c->body, c->len, JSON_REJECT_DUPLICATES, &je), *x;
	const char *choice;
	int ret;

	if (root == NULL)
		return api_error(c, 400, "validation", "not JSON: %s", je.text);
	choice = json_string_value(json_object_get(root, "choice"));
	if (choice != NULL && strcmp(choice, "traffic") == 0 &&
	    (x = json_object_get(json_object_get(root, "traffic"), "flow_transmit")) != NULL)
		ret = flow_transmit(app, c, x);
	else if (choice != NULL && strcmp(choice, "port") == 0 &&
		 (x = json_object_get(json_object_get(root, "port"), "link")) != NULL)
		ret = port_link(app, c, x);
	else if (choice != NULL && strcmp(choice, "port") == 0 &&
		 (x = json_object_get(json_object_get(root, "port"), "capture")) != NULL)
		ret = port_capture(app, c, x);
	else
		ret = api_error(c, 400, "validation", "choice: give traffic (flow_transmit) or port "
				"(link, capture); protocols: Sluice emulates none");
	json_decref(root);
	return ret;
}

static void
api_rate(struct api_prev *pv, const struct sl_app *app, uint64_t now, uint64_t tx, uint64_t rx,
	 uint64_t txb, uint64_t rxb, double rates[4])
{
	double s = pv->run == app->ses.runs && pv->tsc != 0 && now > pv->tsc ?
		   (double)(now - pv->tsc) / (double)sl_tsc_hz() : 0;

	rates[0] = s > 0 ? (double)(tx - pv->tx) / s : 0;
	rates[1] = s > 0 ? (double)(rx - pv->rx) / s : 0;
	rates[2] = s > 0 ? (double)(txb - pv->tx_bytes) / s : 0;
	rates[3] = s > 0 ? (double)(rxb - pv->rx_bytes) / s : 0;
	*pv = (struct api_prev){ app->ses.runs, now, tx, rx, txb, rxb };
}

static const char *const tx_state[] = { "stopped", "started", "paused" };

static json_t *
flow_metrics(const struct sl_app *app, const struct sl_results *r, uint16_t f, uint8_t state,
	     struct api_prev *pv)
{
	const struct sl_results_flow *fl = &r->flow[f];
	const struct sl_stream *st = f < app->ses.nb_streams ? app->ses.streams[f] : NULL;
	struct sl_rx_stream_stats s;
	json_t *o;
	double rt[4];
	/* Bytes sent are known exactly when every frame has one size (without FCS). */
	bool fixed = st != NULL && st->min_len == st->max_len;
	uint64_t txb = fixed ? fl->tx * st->max_len : 0;

	sl_results_flow_sum(r, f, &s);
	api_rate(pv, app, r->now_tsc, fl->tx, s.rx, txb, s.bytes, rt);
	if (!r->running)
		rt[0] = rt[1] = 0;
	o = json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:f, s:f, s:f, s:{s:f, s:f, s:f}}",
		      "name", fl->name, "port_tx", api_port_name(fl->port),
		      "transmit", tx_state[state],
		      "frames_tx", (json_int_t)fl->tx,
		      "frames_rx", (json_int_t)s.rx,
		      "bytes_rx", (json_int_t)s.bytes,
		      "frames_tx_rate", rt[0], "frames_rx_rate", rt[1],
		      "loss", fl->tx != 0 ? (double)fl->lost / (double)fl->tx * 100 : 0.0,
		      "latency", "minimum_ns", (double)(s.lat_count != 0 ? s.lat_min : 0),
		      "maximum_ns", (double)s.lat_max,
		      "average_ns", s.lat_count != 0 ? s.lat_sum / (double)s.lat_count : 0.0);
	if (o != NULL && fl->to >= 0)
		json_object_set_new(o, "port_rx", json_string(api_port_name((uint16_t)fl->to)));
	if (o != NULL && fixed)
		json_object_set_new(o, "bytes_tx", json_integer((json_int_t)txb));
	/* When its first and last frames arrived, ns since the epoch (none yet: empty). */
	if (o != NULL)
		json_object_set_new(o, "timestamps", s.rx == 0 || s.first_tsc == 0 ||
				    s.last_tsc == 0 ? json_object() :
				    json_pack("{s:f, s:f}", "first_timestamp_ns",
					      sl_results_unix_ns(r, s.first_tsc), "last_timestamp_ns",
					      sl_results_unix_ns(r, s.last_tsc)));
	return o;
}

/* Is port p named in names (by its OTG name or its DPDK name; none: every port)? */
static bool
port_named(const struct sl_app *app, const json_t *names, uint16_t p)
{
	if (json_array_size(names) == 0)
		return true;
	for (size_t i = 0; i < json_array_size(names); i++)
		if (api_port_of(app, json_string_value(json_array_get(names, i))) == p)
			return true;
	return false;
}

/* POST /monitor/metrics: flow or port metrics, from one results snapshot. */
static int
call_metrics(struct sl_app *app, struct api_call *c)
{
	json_error_t je;
	json_t *root = json_loadb(c->body, c->len, JSON_REJECT_DUPLICATES, &je), *arr, *names;
	const char *choice;
	struct sl_results *r;
	uint8_t *state = NULL;
	bool port;

	if (root == NULL)
		return api_error(c, 400, "validation", "not JSON: %s", je.text);
	choice = json_string_value(json_object_get(root, "choice"));
	if (choice == NULL || (strcmp(choice, "flow") != 0 && strcmp(choice, "port") != 0)) {
		json_decref(root);
		return api_error(c, 400, "validation", "choice: give flow or port (protocol "
				 "metrics: Sluice emulates no protocol)");
	}
	port = choice[0] == 'p';
	names = json_object_get(json_object_get(root, choice), port ? "port_names" : "flow_names");
	if (names != NULL && !json_is_array(names)) {
		/* choice is root's: answered before root goes */
		api_error(c, 400, "validation", "%s.%s: give an array of names", choice,
			  port ? "port_names" : "flow_names");
		json_decref(root);
		return -1;
	}
	/*
	 * Every name must be a port's, or a flow's (of the configuration set,
	 * or of the run's): an unknown one is an error, not an empty answer.
	 */
	if (json_array_size(names) != 0) {
		const struct sl_config *cf[2] = { &app->cfg, &app->ses.run_cfg };
		struct name_ix *ix[2] = { NULL, NULL };
		size_t bad = SIZE_MAX;

		for (int k = 0; k < 2 && !port; k++)
			ix[k] = name_ix_make(cf[k]->nb_flows, cfg_flow_name, cf[k]);
		if (!port && (ix[0] == NULL || ix[1] == NULL)) {
			free(ix[0]);
			free(ix[1]);
			json_decref(root);
			return api_error(c, 500, "internal", "out of memory");
		}
		for (size_t i = 0; i < json_array_size(names) && bad == SIZE_MAX; i++) {
			const char *n = json_string_value(json_array_get(names, i));

			if (n == NULL || (port ? api_port_of(app, n) == UINT16_MAX :
					  name_ix_find(ix[0], cf[0]->nb_flows, n) < 0 &&
					  name_ix_find(ix[1], cf[1]->nb_flows, n) < 0))
				bad = i;
		}
		free(ix[0]);
		free(ix[1]);
		if (bad != SIZE_MAX) {
			const char *n = json_string_value(json_array_get(names, bad));

			api_error(c, 400, "validation", "%s.%s[%zu]: %s%.64s", choice,
				  port ? "port_names" : "flow_names", bad,
				  n == NULL ? "give a name (a string)" :
				  port ? "no port is named " : "no flow is named ", n != NULL ? n : "");
			json_decref(root);
			return -1;
		}
	}
	r = sl_results_take(app);
	state = calloc(RTE_MAX(app->ses.nb_streams, 1), 1);
	if (r == NULL || state == NULL ||
	    (A.nb_prev < r->nb_flows && api_prev_grow(r->nb_flows) != 0)) {
		sl_results_free(r);
		free(state);
		json_decref(root);
		return api_error(c, 500, "internal", "out of memory");
	}
	sl_session_tx_states(app, state);
	arr = json_array();
	if (port) {
		for (uint16_t p = 0; p < r->nb_ports; p++) {
			const struct sl_results_port *rp = &r->port[p];
			uint8_t ps = SL_TX_STOPPED;
			double rt[4];
			json_t *o;

			if (!port_named(app, names, p))
				continue;
			/* Started if a flow of it is, else paused if one is. */
			for (uint16_t f = 0; f < r->nb_flows && f < app->ses.nb_streams; f++)
				if (r->flow[f].port == p && state[f] != SL_TX_STOPPED && ps != SL_TX_STARTED)
					ps = state[f];
			api_rate(&A.prev_port[p], app, r->now_tsc, rp->tot.tx_packets, rp->rx.frames,
				 rp->tot.tx_bytes, rp->rx.bytes, rt);
			if (!r->running)
				rt[0] = rt[1] = rt[2] = rt[3] = 0;
			o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f}",
				      "name", api_port_name(p), "location", app->ports.p[p].info.name,
				      "link", A.link_down[p] ? "down" : "up",
				      "transmit", tx_state[ps],
				      "capture", A.cap[p] != NULL &&
				      __atomic_load_n(&A.cap[p]->armed, __ATOMIC_RELAXED) ?
				      "started" : "stopped",
				      "frames_tx", (json_int_t)rp->tot.tx_packets,
				      "bytes_tx", (json_int_t)rp->tot.tx_bytes,
				      "frames_rx", (json_int_t)rp->rx.frames,
				      "bytes_rx", (json_int_t)rp->rx.bytes,
				      "frames_tx_rate", rt[0], "frames_rx_rate", rt[1],
				      "bytes_tx_rate", rt[2], "bytes_rx_rate", rt[3]);
			json_array_append_new(arr, o);
		}
	} else {
		/* The flows named (each once, in the table's order); a name of no flow, none. */
		bool *want = calloc(RTE_MAX(r->nb_flows, 1), sizeof(*want));
		struct name_ix *ix = json_array_size(names) != 0 ?
				     name_ix_make(r->nb_flows, res_flow_name, r) : NULL;

		if (want == NULL || (json_array_size(names) != 0 && ix == NULL)) {
			free(want);
			free(ix);
			sl_results_free(r);
			free(state);
			json_decref(arr);
			json_decref(root);
			return api_error(c, 500, "internal", "out of memory");
		}
		for (size_t i = 0; i < json_array_size(names); i++) {
			int f = name_ix_find(ix, r->nb_flows,
					     json_string_value(json_array_get(names, i)));

			if (f >= 0)
				want[f] = true;
		}
		for (uint16_t f = 0; f < r->nb_flows; f++)
			if (json_array_size(names) == 0 || want[f])
				json_array_append_new(arr, flow_metrics(app, r, f,
					f < app->ses.nb_streams ? state[f] : SL_TX_STOPPED,
					&A.prev[f]));
		free(want);
		free(ix);
	}
	sl_results_free(r);
	free(state);
	json_decref(root);
	return api_json(c, json_pack("{s:s, s:o}", "choice", port ? "port_metrics" : "flow_metrics",
				     port ? "port_metrics" : "flow_metrics", arr));
}

/* Is @p name among the strings of @p names (NULL or empty: every name)? */
static bool
name_in(const json_t *names, const char *name)
{
	if (json_array_size(names) == 0)
		return true;
	for (size_t i = 0; i < json_array_size(names); i++)
		if (strcmp(json_string_value(json_array_get(names, i)) ?: "", name) == 0)
			return true;
	return false;
}

/*
 * The devices' neighbours (their gateways) as Neighborsv4.State or
 * Neighborsv6.State: ethernet_name, the address, link_layer_address once
 * known (absent before), for the ethernets named (all: none named).
 */
static json_t *
neighbors(struct sl_app *app, const json_t *names, bool v6)
{
	const struct sl_dev_table *t;
	json_t *arr = json_array();

	sl_ctl_poll(app); /* the devices of the configuration in force */
	t = sl_ctl_table(app);
	for (uint16_t i = 0; arr != NULL && t != NULL && i < t->n; i++) {
		const struct sl_dev_state *d = &t->d[i];
		const struct sl_dev_neigh *n = v6 ? &d->n6 : &d->n4;
		char a[INET6_ADDRSTRLEN], m[RTE_ETHER_ADDR_FMT_SIZE];
		json_t *o;

		if (n->state == SL_DEV_N_NONE || !name_in(names, d->conf.name))
			continue;
		inet_ntop(v6 ? AF_INET6 : AF_INET, v6 ? (const void *)d->conf.gw6 :
			  (const void *)&d->conf.gw4, a, sizeof(a));
		o = json_pack("{s:s, s:s}", "ethernet_name", d->conf.name,
			      v6 ? "ipv6_address" : "ipv4_address", a);
		if (o != NULL && (n->state == SL_DEV_N_REACHABLE || n->state == SL_DEV_N_PROBE ||
				  n->state == SL_DEV_N_PERMANENT)) {
			snprintf(m, sizeof(m), RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&n->mac));
			for (char *p = m; *p != '\0'; p++)
				*p = (char)tolower((unsigned char)*p);
			json_object_set_new(o, "link_layer_address", json_string(m));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

/* POST /monitor/states: the devices' neighbours; every other state is empty (no protocol). */
static int
call_states(struct sl_app *app, struct api_call *c)
{
	json_error_t je;
	json_t *root = json_loadb(c->body, c->len, JSON_REJECT_DUPLICATES, &je);
	const char *choice = json_string_value(json_object_get(root, "choice"));
	static const char *const known[] = {
		"ipv4_neighbors", "ipv6_neighbors", "bgp_prefixes", "isis_lsps", "lldp_neighbors",
		"rsvp_lsps", "dhcpv4_interfaces", "dhcpv4_leases", "dhcpv6_interfaces",
		"dhcpv6_leases", "ospfv2_lsas", "ospfv3_lsas",
	};
	int ret = -1;

	if (choice != NULL && (strcmp(choice, "ipv4_neighbors") == 0 ||
			       strcmp(choice, "ipv6_neighbors") == 0)) {
		const json_t *req = json_object_get(root, choice);
		const json_t *names = json_object_get(req, "ethernet_names");

		if ((req != NULL && !json_is_object(req)) || (names != NULL && !json_is_array(names))) {
			api_error(c, 400, "validation", "%s.ethernet_names: give an array of "
				  "ethernet names", choice);
			json_decref(root);
			return 0;
		}
		for (size_t i = 0; i < json_array_size(names); i++)
			if (!json_is_string(json_array_get(names, i))) {
				api_error(c, 400, "validation", "%s.ethernet_names[%zu]: give a "
					  "string", choice, i);
				json_decref(root);
				return 0;
			}
		ret = api_json(c, json_pack("{s:s, s:o}", "choice", choice, choice,
					    neighbors(app, names, choice[3] == '6')));
		json_decref(root);
		return 0;
	}
	for (size_t i = 0; choice != NULL && i < RTE_DIM(known); i++)
		if (strcmp(choice, known[i]) == 0)
			ret = api_json(c, json_pack("{s:s, s:[]}", "choice", choice, choice));
	if (ret != 0 && c->status == 0) /* not api_json's own error (out of memory) */
		api_error(c, 400, "validation", root == NULL ? "not JSON: %s" : "choice: give one "
			  "of the spec's states (ipv4_neighbors, ...): %s", root == NULL ? je.text :
			  "Sluice's devices run no routing protocol or DHCP");
	json_decref(root);
	return 0;
}

static int
call_version(struct sl_app *app, struct api_call *c)
{
	RTE_SET_USED(app);
	return api_json(c, json_pack("{s:s, s:s, s:s}", "api_spec_version", SL_OTG_MODELS_VERSION,
				     "sdk_version", "", "app_version", SL_VERSION));
}

/* An API error body, as the spec has it: {"code": N, "kind": "validation", "errors": [msg]}. */
static void
api_web_error(unsigned int status, const char *msg, struct sl_web_reply *r)
{
	json_t *o = json_pack("{s:i, s:s, s:[s]}", "code", (int)status, "kind",
			      status >= 500 ? "internal" : "validation", "errors", msg);

	r->status = status;
	r->body = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;
	r->len = r->body != NULL ? strlen(r->body) : 0;
	json_decref(o);
}

/* A route of the API: its call, run here on the loop, and its answer. */
static void
api_route(struct sl_app *app, const struct sl_web_req *q, struct sl_web_reply *r,
	  int (*fn)(struct sl_app *app, struct api_call *c))
{
	struct api_call c = { .body = q->body, .len = q->len };

	fn(app, &c);
	r->status = c.status != 0 ? c.status : 500;
	if (c.reply == NULL) {
		r->body = strdup("{}");
		r->len = r->body != NULL ? 2 : 0;
		return;
	}
	r->body = c.reply;
	r->len = c.reply_len != 0 ? c.reply_len : strlen(c.reply);
	r->ctype = c.ctype;
	if (c.hdr != NULL) {
		r->hdr = c.hdr;
		snprintf(r->hdr_val, sizeof(r->hdr_val), "%s", c.hdr_val);
	}
}

#define API_ROUTE(name) \
static void \
route_##name(void *arg, const struct sl_web_req *q, struct sl_web_reply *r) \
{ \
	api_route(arg, q, r, call_##name); \
}
API_ROUTE(set_config)
API_ROUTE(get_config)
API_ROUTE(control_state)
API_ROUTE(metrics)
API_ROUTE(states)
API_ROUTE(capture)
API_ROUTE(version)

static const struct sl_web_route api_routes[] = {
	{ "POST", "/config", route_set_config },
	{ "GET", "/config", route_get_config },
	{ "POST", "/control/state", route_control_state },
	{ "POST", "/monitor/metrics", route_metrics },
	{ "POST", "/monitor/states", route_states },
	{ "POST", "/monitor/capture", route_capture },
	{ "GET", "/capabilities/version", route_version },
	{ "GET", "/metrics", sl_metrics_route }, /* Prometheus, on the API's address too */
};

const struct sl_web_route *
sl_api_harness(struct sl_app *app, unsigned int *n)
{
	A.app = app;
	*n = RTE_DIM(api_routes);
	return api_routes;
}

/* A loopback address (127.0.0.0/8, ::1): only this host reaches it. */
static bool
loopback(const char *host)
{
	struct in6_addr a6;
	struct in_addr a;

	if (inet_pton(AF_INET, host, &a) == 1)
		return (ntohl(a.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) != 1)
		return false;
	/* ::1, or ::ffff:127.x.y.z */
	return IN6_IS_ADDR_LOOPBACK(&a6) || (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127);
}

int
sl_api_start(struct sl_app *app, const struct sl_opts *o)
{
	struct sl_web_conf wc = {
		.host = o->api_host, .port = o->api_port, .routes = api_routes,
		.nb_routes = RTE_DIM(api_routes), .arg = app, .body_max = SL_OTG_MAX_BYTES,
		.error = api_web_error,
	};
	bool v6 = strchr(o->api_host, ':') != NULL;
	char err[256];

	if (o->api_token[0] != '\0' &&
	    sl_api_token(o->api_token, A.token, sizeof(A.token), err, sizeof(err)) != 0) {
		sl_err("--api-token: %s", err);
		return SL_EXIT_USAGE;
	}
	if (!o->api_plain) {
		if (sl_api_tls(o, &A.cert, &A.key, err, sizeof(err)) != 0) {
			sl_err("--api%s: %s", o->api_cert[0] ? "-cert" : "", err);
			return SL_EXIT_USAGE;
		}
		wc.cert = A.cert;
		wc.key = A.key;
	}
	wc.token = A.token;
	A.app = app;
	A.web = sl_web_create(app->loop, &wc, err, sizeof(err));
	if (A.web == NULL) {
		sl_err("--api %s:%u: %s", o->api_host, o->api_port, err);
		sl_api_stop();
		return strstr(err, "numeric") != NULL ? SL_EXIT_USAGE : SL_EXIT_RUNTIME;
	}
	app->ses.hold_ctl = true; /* its runs' flows can be paused, resumed, stopped */
	printf("api: %s://%s%s%s:%u/ (Open Traffic Generator: POST /config, /control/state, "
	       "/monitor/metrics)%s%s\n", o->api_plain ? "http" : "https", v6 ? "[" : "",
	       o->api_host, v6 ? "]" : "", sl_web_port(A.web),
	       o->api_plain || o->api_cert[0] ? "" : ", a self-signed certificate",
	       A.token[0] ? ", bearer token" : "");
	if (!A.token[0] && !loopback(o->api_host))
		printf("api: warning: %s is reachable from other hosts and no --api-token is "
		       "asked: anyone there can drive the traffic\n", o->api_host);
	fflush(stdout);
	return SL_EXIT_OK;
}

void
sl_api_stop(void)
{
	sl_web_free(A.web);
	A.web = NULL;
	free(A.cert);
	free(A.key);
	A.cert = A.key = NULL;
	memset(A.token, 0, sizeof(A.token));
	free(A.prev);
	A.prev = NULL;
	A.nb_prev = 0;
	/* The captures, unless a run still writes them (it ends with the program). */
	for (uint16_t p = 0; A.app != NULL && !A.app->ses.running && p < SL_MAX_PORTS; p++) {
		A.app->ses.cap[p] = NULL;
		sl_capture_free(A.cap[p]);
		A.cap[p] = NULL;
	}
}

static bool
api_until(void *arg)
{
	RTE_SET_USED(arg);
	return sl_quitting();
}

int
sl_api_serve(struct sl_app *app)
{
	printf("api: serving until Ctrl-C or SIGTERM\n");
	fflush(stdout);
	sl_loop_run(app->loop, api_until, app);
	if (app->ses.running)
		sl_session_stop(app);
	return SL_EXIT_OK;
}
