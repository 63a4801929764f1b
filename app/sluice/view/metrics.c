/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics exposition (metrics.h), generated from the counter tables:
 * a table's counter becomes a metric family, its ports, queues or streams
 * the samples. Counters keep counting over the run (clear port stats only
 * moves show port stats' baseline); a new run starts them from 0 again,
 * which Prometheus's rate() reads as a counter reset.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>

#include "metrics.h"
#include "report.h"
#include "sl_err.h"
#include "sl_web.h"

static struct sl_web *metrics_srv;

/* One sample's labels and the struct its counters are read from. */
struct sample {
	char labels[160];
	const void *base;
};

/* "sluice_" SCOPE NAME, then "_" UNIT unless NAME already ends with it. */
static void
metric_name(char *buf, size_t len, const char *scope, const struct sl_counter *c)
{
	size_t n = strlen(c->name), u = strlen(c->unit);
	bool has = u == 0 || (n >= u && strcmp(c->name + n - u, c->unit) == 0);

	/* Nanoseconds: in seconds, as Prometheus wants its base units. */
	if ((c->flags & SL_CNT_NS) && n > 3 && strcmp(c->name + n - 3, "_ns") == 0) {
		snprintf(buf, len, "sluice_%s%.*s_seconds", scope, (int)(n - 3), c->name);
		return;
	}
	snprintf(buf, len, "sluice_%s%s%s%s", scope, c->name, has ? "" : "_", has ? "" : c->unit);
}

/*
 * Escaped as both formats want: a label value's \\, \" and \n; a help
 * text's \\ and \n only (the text format refuses \" there).
 */
static void
esc(char *buf, size_t len, const char *v, bool label)
{
	size_t o = 0;

	for (; *v != '\0' && o + 3 < len; v++) {
		if (*v == '\\' || (label && *v == '"') || *v == '\n')
			buf[o++] = '\\';
		buf[o++] = *v == '\n' ? 'n' : *v;
	}
	buf[o] = '\0';
}

/* The # lines of a family: a counter's samples add _total, which the text format's names carry. */
static void
family(FILE *f, bool om, const char *name, bool counter, const char *unit, const char *help)
{
	const char *sfx = counter && !om ? "_total" : "";
	char h[512];

	esc(h, sizeof(h), help, false);
	fprintf(f, "# HELP %s%s %s\n", name, sfx, h);
	fprintf(f, "# TYPE %s%s %s\n", name, sfx, counter ? "counter" : "gauge");
	if (om && unit[0] != '\0')
		fprintf(f, "# UNIT %s %s\n", name, unit);
}

/*
 * When the counters were read (ms since the epoch), written after each
 * counter's sample: Prometheus then computes rates from Sluice's own read
 * times, not from when its scrape started (a busy machine can answer a
 * scrape a second late: ~2 of 30 samples were that late at load 20, and a
 * 15 s rate came out 7 % low). Gauges carry none, so that they go stale
 * as soon as Sluice is gone (Prometheus marks no stale sample that has a
 * timestamp).
 */
struct stamp {
	bool om;
	uint64_t ms;
};

static void
stamp_write(FILE *f, const struct stamp *ts)
{
	if (ts->om)
		fprintf(f, " %" PRIu64 ".%03" PRIu64 "\n", ts->ms / 1000, ts->ms % 1000);
	else
		fprintf(f, " %" PRIu64 "\n", ts->ms);
}

/* Every counter of table t, one family each, a sample per entry of s[0..n). */
static void
families(FILE *f, const struct stamp *ts, const char *scope, const struct sl_counter *t,
	 const struct sample *s, unsigned int n)
{
	bool om = ts->om;

	if (n == 0)
		return;
	for (const struct sl_counter *c = t; c->name != NULL; c++) {
		bool counter = (c->flags & (SL_CNT_GAUGE | SL_CNT_I64)) == 0;
		char name[96];

		metric_name(name, sizeof(name), scope, c);
		family(f, om, name, counter, (c->flags & SL_CNT_NS) ? "seconds" : c->unit, c->help);
		for (unsigned int i = 0; i < n; i++) {
			uint64_t v = sl_counter_get(c, s[i].base);

			if (c->flags & SL_CNT_NS) {
				fprintf(f, "%s%s{%s} %" PRIu64 ".%09" PRIu64, name,
					counter ? "_total" : "", s[i].labels, v / 1000000000,
					v % 1000000000);
				if (counter)
					stamp_write(f, ts);
				else
					fprintf(f, "\n");
			} else if (c->flags & SL_CNT_I64)
				fprintf(f, "%s{%s} %" PRId64 "\n", name, s[i].labels, (int64_t)v);
			else if (!counter)
				fprintf(f, "%s{%s} %" PRIu64 "\n", name, s[i].labels, v);
			else {
				fprintf(f, "%s_total{%s} %" PRIu64, name, s[i].labels, v);
				stamp_write(f, ts);
			}
		}
	}
}

struct streams {
	struct sl_stream_result *res;
	struct sample *s;
	unsigned int n, max;
};

static void
stream_add(const struct sl_stream_result *res, void *arg)
{
	struct streams *ss = arg;

	if (ss->n == ss->max)
		return;
	ss->res[ss->n] = *res;
	ss->s[ss->n].base = &ss->res[ss->n];
	if (res->rx_port >= 0)
		snprintf(ss->s[ss->n].labels, sizeof(ss->s[0].labels), "stream=\"%u\",rx_port=\"%d\"",
			 res->stream, res->rx_port);
	else
		snprintf(ss->s[ss->n].labels, sizeof(ss->s[0].labels),
			 "stream=\"%u\",rx_port=\"none\"", res->stream);
	ss->n++;
}

static void
write_ports(const struct sl_app *app, const struct sl_results *r, FILE *f,
	    const struct stamp *ts)
{
	bool om = ts->om;
	uint16_t np = r->nb_ports;
	struct sl_port_totals pt[SL_MAX_PORTS];
	struct sl_rx_port_stats rs[SL_MAX_PORTS];
	struct sl_port_rx_drops dr[SL_MAX_PORTS];
	struct sample s[SL_MAX_PORTS], srx[SL_MAX_PORTS], sdr[SL_MAX_PORTS];
	unsigned int nrx = 0;

	family(f, om, "sluice_port_info", false, "", "a port: its name and driver (value 1)");
	for (uint16_t i = 0; i < np; i++) {
		char name[96], drv[96];

		esc(name, sizeof(name), r->desc->env.port[i].info.name, true);
		esc(drv, sizeof(drv), r->desc->env.port[i].info.driver, true);
		fprintf(f, "sluice_port_info{port=\"%u\",name=\"%s\",driver=\"%s\"} 1\n", i, name, drv);
	}
	family(f, om, "sluice_port_link_speed_bytes_per_second", false, "bytes_per_second",
	       "the link speed the port reports, in bytes (a virtual port's is made up)");
	for (uint16_t i = 0; i < np; i++)
		fprintf(f, "sluice_port_link_speed_bytes_per_second{port=\"%u\"} %" PRIu64 "\n", i,
			r->desc->env.port[i].info.speed_bps / 8);
	for (uint16_t i = 0; i < np; i++) {
		pt[i] = r->port[i].tot;
		s[i].base = &pt[i];
		snprintf(s[i].labels, sizeof(s[i].labels), "port=\"%u\"", i);
		if (!r->port[i].rx_on)
			continue;
		rs[i] = r->port[i].rx;
		dr[i] = r->port[i].drops;
		srx[nrx] = (struct sample){ .base = &rs[i] };
		sdr[nrx] = (struct sample){ .base = &dr[i] };
		snprintf(srx[nrx].labels, sizeof(srx[nrx].labels), "port=\"%u\"", i);
		snprintf(sdr[nrx].labels, sizeof(sdr[nrx].labels), "port=\"%u\"", i);
		nrx++;
	}
	families(f, ts, "", sl_port_counters, s, np);
	for (uint16_t i = 0; i < np; i++)
		s[i].base = &r->port[i].pace;
	families(f, ts, "", sl_pace_counters, s, np);
	families(f, ts, "", sl_rx_counters, srx, nrx);
	families(f, ts, "", sl_rx_drop_counters, sdr, nrx);
	/* The devices' control frames, of the ports that have devices. */
	nrx = 0;
	for (uint16_t i = 0; i < np; i++) {
		if (!r->port[i].has_dev)
			continue;
		srx[nrx] = (struct sample){ .base = &r->port[i].dev };
		snprintf(srx[nrx].labels, sizeof(srx[nrx].labels), "port=\"%u\"", i);
		nrx++;
	}
	families(f, ts, "", sl_dev_port_counters, srx, nrx);
}

static void
write_txqs(const struct sl_results *r, FILE *f, const struct stamp *ts)
{
	struct sample *s = calloc((size_t)r->nb_txq + 1, sizeof(*s));
	unsigned int n = 0;

	for (uint16_t k = 0; s != NULL && k < r->nb_txq; k++) {
		const struct sl_results_txq *x = &r->txq[k];

		if (!x->exists)
			continue;
		s[n].base = &x->st;
		snprintf(s[n].labels, sizeof(s[n].labels), "port=\"%u\",queue=\"%u\"", x->port,
			 x->queue);
		n++;
	}
	families(f, ts, "txq_", sl_txq_counters, s, n);
	n = 0;
	for (uint16_t k = 0; s != NULL && k < r->nb_txq; k++)
		if (r->txq[k].exists)
			s[n++].base = &r->txq[k].pace;
	families(f, ts, "txq_", sl_pace_counters, s, n);
	free(s);
}

static void
write_streams(const struct sl_results *r, FILE *f, const struct stamp *ts)
{
	struct streams ss = { .max = (unsigned int)r->nb_ports * (r->nb_ports + 1u) };

	ss.res = calloc(ss.max + 1, sizeof(*ss.res));
	ss.s = calloc(ss.max + 1, sizeof(*ss.s));
	if (ss.res != NULL && ss.s != NULL)
		sl_results_streams(r, stream_add, &ss);
	families(f, ts, "stream_", sl_stream_counters, ss.s, ss.n);
	free(ss.res);
	free(ss.s);
}

/*
 * Per flow (every stream of the run by id): sluice_flow_*{flow,tx_port},
 * and at each port it arrived: sluice_flow_rx_*{flow,rx_port}.
 */
static void
write_flows(const struct sl_results *r, FILE *f, const struct stamp *ts)
{
	size_t nrx = (size_t)r->nb_flows * r->nb_ports;
	struct sample *s = calloc((size_t)r->nb_flows + 1, sizeof(*s));
	struct sample *sx = calloc(nrx + 1, sizeof(*sx));
	unsigned int n = 0, m = 0;

	for (uint16_t k = 0; s != NULL && sx != NULL && k < r->nb_flows; k++) {
		const struct sl_results_flow *fl = &r->flow[k];
		char name[2 * SL_FLOW_NAME_MAX];

		esc(name, sizeof(name), fl->name, true);
		s[n].base = fl;
		snprintf(s[n].labels, sizeof(s[n].labels), "flow=\"%s\",tx_port=\"%u\"", name,
			 fl->port);
		n++;
		for (uint16_t p = 0; p < r->nb_ports; p++) {
			const struct sl_results_rx *x = sl_results_flow_rx(r, k, p);

			if (x == NULL || x->st.rx == 0)
				continue;
			sx[m].base = &x->st;
			snprintf(sx[m].labels, sizeof(sx[m].labels), "flow=\"%s\",rx_port=\"%u\"",
				 name, p);
			m++;
		}
	}
	families(f, ts, "flow_", sl_flow_counters, s, n);
	families(f, ts, "flow_", sl_flow_rx_counters, sx, m);
	free(s);
	free(sx);
}

void
sl_metrics_write(const struct sl_app *app, const struct sl_results *r, FILE *f, bool om)
{
	struct stamp ts = { .om = om };
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	ts.ms = (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
	family(f, om, "sluice_running", false, "", "1 while a run transmits");
	fprintf(f, "sluice_running %d\n", r->running ? 1 : 0);
	family(f, om, "sluice_runs", true, "", "runs started (each starts the counters from 0)");
	fprintf(f, "sluice_runs_total %u", app->ses.runs);
	stamp_write(f, &ts);
	write_ports(app, r, f, &ts);
	write_txqs(r, f, &ts);
	write_streams(r, f, &ts);
	write_flows(r, f, &ts);
	if (om)
		fprintf(f, "# EOF\n");
}

/* The exposition now: a snapshot taken on the loop's thread, written after. */
char *
sl_metrics_body(struct sl_app *app, bool om, size_t *len)
{
	struct sl_results *r = sl_results_take_opt(app, false);
	char *buf = NULL;
	FILE *f;

	f = r != NULL ? open_memstream(&buf, len) : NULL;
	if (f == NULL) {
		sl_results_free(r);
		return NULL;
	}
	sl_metrics_write(app, r, f, om);
	sl_results_free(r);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void
sl_metrics_route(void *arg, const struct sl_web_req *q, struct sl_web_reply *r)
{
	const char *acc = sl_web_header(q, "Accept");
	bool om = acc != NULL && strstr(acc, "application/openmetrics-text") != NULL;

	r->body = sl_metrics_body(arg, om, &r->len);
	if (r->body == NULL) {
		r->status = 500;
		r->ctype = "text/plain; charset=utf-8";
		r->body = strdup("out of memory\n");
		r->len = r->body != NULL ? strlen(r->body) : 0;
		return;
	}
	r->status = 200;
	r->ctype = om ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
		"text/plain; version=0.0.4; charset=utf-8";
}

int
sl_metrics_start(struct sl_app *app)
{
	static const struct sl_web_route routes[] = { { "GET", "/metrics", sl_metrics_route } };
	struct sl_web_conf c = {
		.host = app->o.metrics_host, .port = app->o.metrics_port,
		.routes = routes, .nb_routes = RTE_DIM(routes), .arg = app,
		.close = true, /* a scrape is a connection: none held between them */
	};
	char err[256];
	bool v6 = strchr(c.host, ':') != NULL;

	if (!app->o.metrics)
		return 0;
	metrics_srv = sl_web_create(app->loop, &c, err, sizeof(err));
	if (metrics_srv == NULL) {
		sl_err("--metrics: %s", err);
		return SL_EXIT_RUNTIME;
	}
	printf("metrics: http://%s%s%s:%u/metrics (Prometheus, OpenMetrics)\n", v6 ? "[" : "",
	       c.host, v6 ? "]" : "", sl_web_port(metrics_srv));
	fflush(stdout);
	return 0;
}

void
sl_metrics_stop(void)
{
	sl_web_free(metrics_srv);
	metrics_srv = NULL;
}
