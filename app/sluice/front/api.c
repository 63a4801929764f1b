/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The OTG REST API (api.h) on libmicrohttpd: POST /config, GET /config,
 * POST /control/state, POST /monitor/metrics, GET /capabilities/version.
 * The server's thread parses nothing of the program's: it hands each call
 * to the main lcore's loop through a pipe (a file event of the loop) and
 * waits for the loop to answer.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <jansson.h>
#include <microhttpd.h>

#include "api.h"
#include "metrics.h"
#include "results.h"
#include "session.h"
#include "sl_err.h"
#include "sl_loop.h"
#include "sl_otg.h"
#include "worker.h"

/* A call the loop runs for the server: its request, and the answer. */
struct api_call {
	int (*fn)(struct sl_app *app, struct api_call *c);
	const char *body;
	size_t len;
	unsigned int status;
	char *reply;           /* JSON, malloc'd */
	bool done;
};

static struct {
	struct sl_app *app;
	struct MHD_Daemon *d;
	int pipe[2];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_mutex_t one;   /* one call at a time */
	struct api_call *pending;
	bool closing;
	char *config;          /* the last configuration set (GET /config) */
	char port_name[SL_MAX_PORTS][48];
} A = { .pipe = { -1, -1 }, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
	.one = PTHREAD_MUTEX_INITIALIZER };

/* The spec's error body: {"code": N, "kind": ..., "errors": [...]}. */
static int __attribute__((format(printf, 4, 5)))
api_error(struct api_call *c, unsigned int status, const char *kind, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	json_t *o;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o = json_pack("{s:i, s:s, s:[s]}", "code", (int)status, "kind", kind, "errors", msg);
	c->status = status;
	c->reply = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return 0;
}

static int
api_json(struct api_call *c, json_t *o)
{
	c->status = MHD_HTTP_OK;
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
	struct sl_config cand = { 0 };
	struct sl_config_err ce;
	struct sl_otg_err e;
	json_t *w;
	int ret;

	if (app->ses.running)
		return api_error(c, 409, "validation", "traffic is running: stop it first "
				 "(POST /control/state, flow_transmit stop)");
	if (sl_config_copy(&cand, &app->cfg) != 0)
		return api_error(c, 500, "internal", "out of memory");
	ret = sl_otg_config(c->body, c->len, sl_session_env(app), &cand, &e);
	if (ret == 0 && sl_config_check(&cand, sl_session_env(app),
					SL_CHECK_STREAMS | SL_CHECK_RATES, &ce) != 0) {
		snprintf(e.path, sizeof(e.path), "flows");
		snprintf(e.msg, sizeof(e.msg), "%.300s", ce.msg + (ce.opt != NULL &&
			 strcmp(ce.opt, "--flow") == 0 ? ce.detail + 2 : 0));
		ret = -EINVAL;
	}
	if (ret != 0) {
		sl_config_fini(&cand);
		return ret == -ENOMEM ? api_error(c, 500, "internal", "out of memory") :
		       api_error(c, 400, "validation", "%s%s%s", e.path, e.path[0] ? ": " : "",
				 e.msg);
	}
	if (sl_config_copy(&app->cfg, &cand) != 0) {
		sl_config_fini(&cand);
		return api_error(c, 500, "internal", "out of memory");
	}
	sl_config_fini(&cand);
	free(A.config);
	A.config = strndup(c->body, c->len);
	memcpy(A.port_name, e.port_name, sizeof(A.port_name));
	w = json_array();
	for (unsigned int i = 0; i < e.nb_warnings; i++)
		json_array_append_new(w, json_string(e.warnings[i]));
	if (e.more_warnings != 0) {
		char more[64];

		snprintf(more, sizeof(more), "and %u more", e.more_warnings);
		json_array_append_new(w, json_string(more));
	}
	return api_json(c, json_pack("{s:o}", "warnings", w));
}

/* GET /config: the configuration last set. */
static int
call_get_config(struct sl_app *app, struct api_call *c)
{
	RTE_SET_USED(app);
	c->status = MHD_HTTP_OK;
	c->reply = strdup(A.config != NULL ? A.config : "{}");
	return 0;
}

/* A run the API started ends by itself (its counts, durations): stop it, with its summary. */
static void
api_run_end(struct sl_app *app, void *arg)
{
	RTE_SET_USED(arg);
	sl_session_stop(app);
}

/* POST /control/state: traffic flow_transmit start or stop, every flow. */
static int
call_control_state(struct sl_app *app, struct api_call *c)
{
	json_error_t je;
	json_t *root = json_loadb(c->body, c->len, JSON_REJECT_DUPLICATES, &je), *ft, *names;
	const char *choice, *state;
	int ret;

	if (root == NULL)
		return api_error(c, 400, "validation", "not JSON: %s", je.text);
	choice = json_string_value(json_object_get(root, "choice"));
	ft = json_object_get(json_object_get(root, "traffic"), "flow_transmit");
	if (choice == NULL || strcmp(choice, "traffic") != 0 || ft == NULL) {
		json_decref(root);
		return api_error(c, 400, "validation", "choice: only traffic.flow_transmit is "
				 "supported (ports' link and capture: not yet; protocols: none)");
	}
	state = json_string_value(json_object_get(ft, "state"));
	names = json_object_get(ft, "flow_names");
	if (json_array_size(names) != 0 && json_array_size(names) != app->cfg.nb_flows) {
		json_decref(root);
		return api_error(c, 400, "validation", "traffic.flow_transmit.flow_names: Sluice "
				 "starts and stops every flow together: give none (all)");
	}
	if (state == NULL || (strcmp(state, "start") != 0 && strcmp(state, "stop") != 0)) {
		json_decref(root);
		return api_error(c, 400, "validation", "traffic.flow_transmit.state: give start or "
				 "stop (pause and resume: not supported)");
	}
	json_decref(root);
	if (strcmp(state, "stop") == 0) {
		if (app->ses.running)
			sl_session_stop(app);
		return api_json(c, json_object());
	}
	if (app->ses.running)
		return api_json(c, json_object()); /* already started */
	if (app->cfg.nb_flows == 0)
		return api_error(c, 400, "validation", "no flow: set a configuration first "
				 "(POST /config)");
	ret = sl_session_start(app, &app->cfg, false);
	if (ret != 0)
		return api_error(c, ret == -EINVAL ? 400 : 500, "execution", "the start failed: "
				 "see the program's output");
	sl_session_on_end(app, api_run_end, NULL);
	return api_json(c, json_object());
}

static json_t *
flow_metrics(const struct sl_app *app, const struct sl_results *r, uint16_t f)
{
	const struct sl_results_flow *fl = &r->flow[f];
	struct sl_rx_stream_stats st;

	sl_results_flow_sum(r, f, &st);
	return json_pack("{s:s, s:s, s:I, s:I, s:I, s:f, s:{s:f, s:f, s:f}}",
			 "name", fl->name,
			 "transmit", app->ses.running ? "started" : "stopped",
			 "frames_tx", (json_int_t)fl->tx,
			 "frames_rx", (json_int_t)st.rx,
			 "bytes_rx", (json_int_t)st.bytes,
			 "loss", fl->tx != 0 ? (double)fl->lost / (double)fl->tx * 100 : 0.0,
			 "latency", "minimum_ns", (double)(st.lat_count != 0 ? st.lat_min : 0),
			 "maximum_ns", (double)st.lat_max,
			 "average_ns", st.lat_count != 0 ? st.lat_sum / (double)st.lat_count : 0.0);
}

/* POST /monitor/metrics: flow or port metrics, from one results snapshot. */
static int
call_metrics(struct sl_app *app, struct api_call *c)
{
	json_error_t je;
	json_t *root = json_loadb(c->body, c->len, JSON_REJECT_DUPLICATES, &je), *arr, *names;
	const char *choice;
	struct sl_results *r;
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
	r = sl_results_take(app);
	if (r == NULL) {
		json_decref(root);
		return api_error(c, 500, "internal", "out of memory");
	}
	arr = json_array();
	if (port) {
		for (uint16_t p = 0; p < r->nb_ports; p++) {
			char def[16];
			const char *n = A.port_name[p];
			bool want = json_array_size(names) == 0;

			snprintf(def, sizeof(def), "port-%u", p);
			if (n[0] == '\0')
				n = def;
			for (size_t i = 0; i < json_array_size(names); i++)
				want |= strcmp(json_string_value(json_array_get(names, i)) ?: "", n) == 0;
			if (!want)
				continue;
			json_array_append_new(arr, json_pack(
				"{s:s, s:s, s:s, s:I, s:I, s:I, s:I}", "name", n,
				"location", app->ports.p[p].info.name,
				"transmit", app->ses.running ? "started" : "stopped",
				"frames_tx", (json_int_t)r->port[p].tot.tx_packets,
				"bytes_tx", (json_int_t)r->port[p].tot.tx_bytes,
				"frames_rx", (json_int_t)r->port[p].rx.frames,
				"bytes_rx", (json_int_t)r->port[p].rx.bytes));
		}
	} else {
		for (uint16_t f = 0; f < r->nb_flows; f++) {
			bool want = json_array_size(names) == 0;

			for (size_t i = 0; i < json_array_size(names); i++)
				want |= strcmp(json_string_value(json_array_get(names, i)) ?: "",
					       r->flow[f].name) == 0;
			if (want)
				json_array_append_new(arr, flow_metrics(app, r, f));
		}
	}
	sl_results_free(r);
	json_decref(root);
	return api_json(c, json_pack("{s:s, s:o}", "choice", port ? "port_metrics" : "flow_metrics",
				     port ? "port_metrics" : "flow_metrics", arr));
}

static int
call_version(struct sl_app *app, struct api_call *c)
{
	RTE_SET_USED(app);
	return api_json(c, json_pack("{s:s, s:s, s:s}", "api_spec_version", "1.0.0",
				     "sdk_version", "", "app_version", SL_VERSION));
}

/* The loop's side: run the pending call, answer it. */
static void
api_on_loop(struct sl_loop *l, int fd, unsigned int events, void *arg)
{
	struct sl_app *app = arg;
	struct api_call *c;
	char b[64];

	RTE_SET_USED(l);
	RTE_SET_USED(events);
	while (read(fd, b, sizeof(b)) > 0)
		;
	pthread_mutex_lock(&A.mu);
	c = A.pending;
	pthread_mutex_unlock(&A.mu);
	if (c == NULL)
		return;
	c->fn(app, c);
	pthread_mutex_lock(&A.mu);
	c->done = true;
	A.pending = NULL;
	pthread_cond_broadcast(&A.cv);
	pthread_mutex_unlock(&A.mu);
}

/* The server's side: hand c to the loop and wait for its answer (or the end). */
static void
api_call_loop(struct api_call *c)
{
	pthread_mutex_lock(&A.one);
	pthread_mutex_lock(&A.mu);
	if (!A.closing) {
		A.pending = c;
		if (write(A.pipe[1], "x", 1) != 1)
			A.pending = NULL;
		while (A.pending == c && !c->done && !A.closing)
			pthread_cond_wait(&A.cv, &A.mu);
		if (!c->done)
			A.pending = NULL;
	}
	pthread_mutex_unlock(&A.mu);
	pthread_mutex_unlock(&A.one);
	if (!c->done)
		api_error(c, 503, "execution", "the program is ending");
}

/* A request's body, as it arrives (bounded). */
struct req {
	char *buf;
	size_t len;
	bool too_big;
};

static enum MHD_Result
reply(struct MHD_Connection *conn, unsigned int status, const char *body)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body,
								  MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (r == NULL)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "application/json");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
api_handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
	    const char *version, const char *data, size_t *size, void **con_cls)
{
	static const struct {
		const char *method, *url;
		int (*fn)(struct sl_app *app, struct api_call *c);
	} routes[] = {
		{ "POST", "/config", call_set_config },
		{ "GET", "/config", call_get_config },
		{ "POST", "/control/state", call_control_state },
		{ "POST", "/monitor/metrics", call_metrics },
		{ "GET", "/capabilities/version", call_version },
	};
	struct req *q = *con_cls;
	struct api_call c = { 0 };
	enum MHD_Result ret;

	RTE_SET_USED(cls);
	RTE_SET_USED(version);
	if (q == NULL) {
		q = calloc(1, sizeof(*q));
		if (q == NULL)
			return MHD_NO;
		*con_cls = q;
		return MHD_YES;
	}
	if (*size != 0) {
		if (q->len + *size > SL_OTG_MAX_BYTES) {
			q->too_big = true;
		} else {
			char *nb = realloc(q->buf, q->len + *size + 1);

			if (nb == NULL) {
				q->too_big = true;
			} else {
				q->buf = nb;
				memcpy(q->buf + q->len, data, *size);
				q->len += *size;
			}
		}
		*size = 0;
		return MHD_YES;
	}
	if (strcmp(method, "GET") == 0 && strcmp(url, "/metrics") == 0) {
		/* Prometheus, on the API's server: read under tel_lock, off the loop. */
		const char *acc = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Accept");
		bool om = acc != NULL && strstr(acc, "application/openmetrics-text") != NULL;
		size_t blen = 0;
		char *body = sl_metrics_body(A.app, om, &blen);
		struct MHD_Response *r;

		if (body == NULL)
			return reply(conn, 500, "{\"code\":500,\"kind\":\"internal\",\"errors\":"
				     "[\"out of memory\"]}");
		r = MHD_create_response_from_buffer(blen, body, MHD_RESPMEM_MUST_FREE);
		if (r == NULL) {
			free(body);
			return MHD_NO;
		}
		MHD_add_response_header(r, "Content-Type", om ?
					"application/openmetrics-text; version=1.0.0; charset=utf-8" :
					"text/plain; version=0.0.4; charset=utf-8");
		ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
		MHD_destroy_response(r);
		return ret;
	}
	if (q->too_big)
		return reply(conn, 413, "{\"code\":413,\"kind\":\"validation\",\"errors\":[\"the "
			     "body is over 4 MB\"]}");
	for (size_t i = 0; i < RTE_DIM(routes); i++)
		if (strcmp(method, routes[i].method) == 0 && strcmp(url, routes[i].url) == 0)
			c.fn = routes[i].fn;
	if (c.fn == NULL)
		return reply(conn, 404, "{\"code\":404,\"kind\":\"validation\",\"errors\":[\"no such "
			     "endpoint: POST /config, GET /config, POST /control/state, POST "
			     "/monitor/metrics, GET /capabilities/version, GET /metrics\"]}");
	c.body = q->buf != NULL ? q->buf : "";
	c.len = q->len;
	api_call_loop(&c);
	ret = reply(conn, c.status, c.reply != NULL ? c.reply : "{}");
	free(c.reply);
	return ret;
}

static void
api_done(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode t)
{
	struct req *q = *con_cls;

	RTE_SET_USED(cls);
	RTE_SET_USED(conn);
	RTE_SET_USED(t);
	if (q != NULL) {
		free(q->buf);
		free(q);
	}
	*con_cls = NULL;
}

int
sl_api_start(struct sl_app *app, const char *host, uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	const union MHD_DaemonInfo *di;

	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		sl_err("--api %s: give a numeric IPv4 address (127.0.0.1 by default)", host);
		return SL_EXIT_USAGE;
	}
	if (pipe(A.pipe) != 0 || sl_loop_file_add(app->loop, A.pipe[0], SL_LOOP_READ, api_on_loop,
						  app) != 0) {
		sl_err("--api: cannot set up its pipe: %s", strerror(errno));
		return SL_EXIT_RUNTIME;
	}
	/* The loop reads the pipe until it is empty: never block it. */
	{
		int fl = fcntl(A.pipe[0], F_GETFL);

		fcntl(A.pipe[0], F_SETFL, fl | O_NONBLOCK);
	}
	A.app = app;
	A.closing = false;
	A.d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, port, NULL,
			       NULL, api_handler, NULL, MHD_OPTION_SOCK_ADDR, &sa,
			       MHD_OPTION_NOTIFY_COMPLETED, api_done, NULL,
			       MHD_OPTION_CONNECTION_LIMIT, 16u, MHD_OPTION_CONNECTION_TIMEOUT, 30u,
			       MHD_OPTION_END);
	if (A.d == NULL) {
		sl_err("--api %s:%u: cannot listen (in use? choose another port)", host, port);
		return SL_EXIT_RUNTIME;
	}
	di = MHD_get_daemon_info(A.d, MHD_DAEMON_INFO_BIND_PORT);
	printf("api: http://%s:%u/ (Open Traffic Generator: POST /config, /control/state, "
	       "/monitor/metrics)\n", host, di != NULL ? di->port : port);
	fflush(stdout);
	return SL_EXIT_OK;
}

void
sl_api_stop(void)
{
	if (A.d == NULL)
		return;
	pthread_mutex_lock(&A.mu);
	A.closing = true;
	pthread_cond_broadcast(&A.cv);
	pthread_mutex_unlock(&A.mu);
	MHD_stop_daemon(A.d);
	A.d = NULL;
	if (A.app != NULL && A.app->loop != NULL)
		sl_loop_file_del(A.app->loop, A.pipe[0]);
	close(A.pipe[0]);
	close(A.pipe[1]);
	A.pipe[0] = A.pipe[1] = -1;
	free(A.config);
	A.config = NULL;
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
