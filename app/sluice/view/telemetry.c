/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry: the run's totals, ports and queues under /sluice/, beside
 * DPDK's /ethdev/ endpoints, read with dpdk-telemetry.py. Callbacks run on
 * DPDK's telemetry thread and read only a snapshot the main lcore's loop
 * publishes (before its next sleep when a run starts or stops, and every
 * SL_TEL_PUBLISH_US while it goes or devices exist), never the run's objects. The published pointer is swapped and
 * read under one short lock, the only one between the two threads.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "ctl.h"
#include "report.h"
#include "sl_err.h"
#include "results.h"
#include "sl_loop.h"
#include "telemetry.h"

static struct sl_app *tel_app;

/* What the loop published, and what it published it from. */
static struct {
	pthread_mutex_t mu;       /* r, closed: the loop swaps, a reader formats under it */
	struct sl_results *r;
	unsigned int runs;        /* the snapshot's app->ses.runs */
	bool closed;              /* the ports are closed: nothing to read */
	long timer;
	bool pub_running;         /* app->ses.running when r was taken */
	uint64_t pub_end;         /* app->ses.end_tsc then */
} P = { .mu = PTHREAD_MUTEX_INITIALIZER, .timer = -1 };

static int
tel_port(const char *params, int *port)
{
	char err[160];
	uint16_t v;

	if (params == NULL || sl_config_port_parse(params, tel_app->ports.n, &v, err, sizeof(err)) != 0)
		return -EINVAL;
	*port = v;
	return 0;
}

/* The port ids (a stream's id is its sending port's): what a list endpoint answers. */
static int
tel_ids(struct rte_tel_data *d)
{
	rte_tel_data_start_array(d, RTE_TEL_U64_VAL);
	for (uint16_t i = 0; i < tel_app->ports.n; i++)
		rte_tel_data_add_array_u64(d, i);
	return 0;
}

/* Every counter of a table into dict d (counters.h); a signed one below 0 as an int. */
static void
tel_table(struct rte_tel_data *d, const struct sl_counter *t, const void *base)
{
	for (const struct sl_counter *c = t; c->name != NULL; c++) {
		int64_t v = (int64_t)sl_counter_get(c, base);

		if ((c->flags & SL_CNT_I64) && v < 0)
			rte_tel_data_add_dict_int(d, c->name, (int)RTE_MAX(v, (int64_t)INT32_MIN));
		else
			rte_tel_data_add_dict_u64(d, c->name, sl_counter_get(c, base));
	}
}

/* The published snapshot, P.mu held (tel_done() lets it go); NULL: none yet, or closed. */
static struct sl_results *
tel_results(void)
{
	pthread_mutex_lock(&P.mu);
	if (P.r == NULL || P.closed) {
		pthread_mutex_unlock(&P.mu);
		return NULL;
	}
	return P.r;
}

static void
tel_done(struct sl_results *r)
{
	if (r != NULL)
		pthread_mutex_unlock(&P.mu);
}

/* A new snapshot, published. */
static void
tel_publish(struct sl_app *app)
{
	struct sl_results *r, *old;

	r = sl_results_take_opt(app, false);
	if (r == NULL)
		return;
	pthread_mutex_lock(&P.mu);
	old = P.r;
	P.r = r;
	P.runs = app->ses.runs;
	pthread_mutex_unlock(&P.mu);
	P.pub_running = app->ses.running;
	P.pub_end = app->ses.end_tsc;
	sl_results_free(old);
}

/* Before each sleep of the loop: a start or a stop is published at once. */
static void
tel_step(struct sl_loop *l, void *arg)
{
	struct sl_app *app = arg;

	RTE_SET_USED(l);
	if (P.r == NULL || app->ses.running != P.pub_running || P.runs != app->ses.runs ||
	    P.pub_end != app->ses.end_tsc)
		tel_publish(app);
}

/*
 * The loop's timer: a new snapshot every SL_TEL_PUBLISH_US while a run
 * goes, or while devices answer and resolve (their counters move between
 * runs too).
 */
static int64_t
tel_tick(struct sl_loop *l, void *arg)
{
	struct sl_app *app = arg;
	const struct sl_dev_table *t = sl_ctl_table(app);

	RTE_SET_USED(l);
	if (app->ses.running || (t != NULL && t->n != 0))
		tel_publish(app);
	return SL_TEL_PUBLISH_US;
}

/*
 * The port-keyed endpoints' start: no id, the ids there are (1); a bad id,
 * -EINVAL; else its id and a snapshot to free (0), or -ENOMEM.
 */
static int
tel_port_results(const char *params, struct rte_tel_data *d, int *port, struct sl_results **r)
{
	/* First the snapshot: P.mu held, the ports are not closed meanwhile. */
	*r = tel_results();
	if (*r == NULL)
		return -EAGAIN;
	if (params == NULL || *params == '\0' || tel_port(params, port) != 0) {
		/* no id given: the ids there are */
		int ret = params == NULL || *params == '\0' ? (tel_ids(d) == 0 ? 1 : -EINVAL) :
			  -EINVAL;

		tel_done(*r);
		*r = NULL;
		return ret;
	}
	return 0;
}

static int
tel_totals(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct sl_pace_totals pc;
	struct sl_port_totals all;
	struct sl_results *r;
	unsigned int runs;
	uint64_t in_use;
	bool running;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	r = tel_results();
	if (r == NULL)
		return -EAGAIN;
	all = r->total;
	pc = r->pace;
	/* Running: the pools now (a gauge, for soaks); stopped: what the stop found. */
	in_use = r->pool_in_use;
	running = r->running;
	runs = P.runs;
	tel_done(r);
	rte_tel_data_start_dict(d);
	tel_table(d, sl_port_counters, &all);
	tel_table(d, sl_pace_counters, &pc);
	rte_tel_data_add_dict_u64(d, "running", running);
	rte_tel_data_add_dict_u64(d, "runs", runs);
	rte_tel_data_add_dict_u64(d, "mempool_in_use", in_use);
	return 0;
}

static int
tel_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct sl_dev_port_totals dv;
	struct sl_pace_totals pc;
	struct sl_port_totals pt;
	const struct sl_port_info *pi;
	struct sl_results *r;
	bool has_dev;
	int port, ret;

	RTE_SET_USED(cmd);
	ret = tel_port_results(params, d, &port, &r);
	if (ret != 0)
		return ret > 0 ? 0 : ret;
	pi = &r->desc->env.port[port].info; /* the snapshot's, held until tel_done() */
	pt = r->port[port].tot;
	pc = r->port[port].pace;
	dv = r->port[port].dev;
	has_dev = r->port[port].has_dev;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", pi->name);
	rte_tel_data_add_dict_string(d, "driver", pi->driver);
	rte_tel_data_add_dict_u64(d, "link_speed_mbps", pi->speed_bps / 1000000);
	rte_tel_data_add_dict_u64(d, "link_speed_bps", pi->speed_bps);
	tel_done(r);
	tel_table(d, sl_port_counters, &pt);
	tel_table(d, sl_pace_counters, &pc);
	if (has_dev)
		tel_table(d, sl_dev_port_counters, &dv);
	return 0;
}

static int
tel_txqs(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct sl_results_port *rp;
	struct sl_results *r;
	int port, ret;

	RTE_SET_USED(cmd);
	ret = tel_port_results(params, d, &port, &r);
	if (ret != 0)
		return ret > 0 ? 0 : ret;
	rp = &r->port[port];
	rte_tel_data_start_dict(d);
	for (uint16_t q = 0; q < rp->nb_txq; q++) {
		const struct sl_results_txq *x = &r->txq[rp->txq0 + q];
		struct rte_tel_data *c;
		char name[16];

		if (!x->exists || (c = rte_tel_data_alloc()) == NULL)
			continue;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_string(c, "mode", sl_txq_mode_name(x->mode));
		tel_table(c, sl_txq_counters, &x->st);
		tel_table(c, sl_pace_counters, &x->pace);
		snprintf(name, sizeof(name), "%u", q);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	tel_done(r);
	return 0;
}

/* /sluice/streams: the stream ids; with an id: its results where it arrived. */
static int
tel_streams(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct sl_results *rr;
	int s, ret;

	RTE_SET_USED(cmd);
	ret = tel_port_results(params, d, &s, &rr);
	if (ret != 0)
		return ret > 0 ? 0 : ret;
	rte_tel_data_start_dict(d);
	for (uint16_t r = 0; r < rr->nb_ports; r++) {
		struct sl_stream_result res;
		struct rte_tel_data *c;
		char name[16];

		if (!rr->port[r].rx_on)
			continue;
		sl_results_stream(rr, (uint16_t)s, r, &res);
		if (res.st.rx == 0 || (c = rte_tel_data_alloc()) == NULL)
			continue;
		rte_tel_data_start_dict(c);
		/* lost < 0: more distinct frames arrived than were sent (not conserved) */
		tel_table(c, sl_stream_counters, &res);
		rte_tel_data_add_dict_string(c, "latency_clock", sl_rx_clock_name(&res.st));
		rte_tel_data_add_dict_u64(c, "latency_min_ns", res.st.lat_min);
		rte_tel_data_add_dict_u64(c, "latency_max_ns", res.st.lat_max);
		rte_tel_data_add_dict_u64(c, "latency_samples", res.st.lat_count);
		rte_tel_data_add_dict_u64(c, "latency_backwards", res.st.lat_backwards);
		snprintf(name, sizeof(name), "rx_port_%u", r);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	tel_done(rr);
	return 0;
}

/*
 * /sluice/flows: the run's flows (id: name); with an id: its counters and,
 * per receiving port where it arrived, its receive-side figures.
 */
static int
tel_flows(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct sl_results *r = tel_results();
	unsigned long id = 0;
	char *end = NULL;

	RTE_SET_USED(cmd);
	if (r == NULL)
		return -EAGAIN;
	if (params != NULL && *params != '\0') {
		errno = 0;
		id = strtoul(params, &end, 10);
		if (*params < '0' || *params > '9' || *end != '\0' || errno != 0 ||
		    id >= r->nb_flows) {
			tel_done(r);
			return -EINVAL;
		}
	}
	rte_tel_data_start_dict(d);
	if (params == NULL || *params == '\0') {
		for (uint16_t f = 0; f < r->nb_flows; f++) {
			char key[16];

			snprintf(key, sizeof(key), "%u", f);
			rte_tel_data_add_dict_string(d, key, r->flow[f].name);
		}
		tel_done(r);
		return 0;
	}
	rte_tel_data_add_dict_string(d, "name", r->flow[id].name);
	rte_tel_data_add_dict_u64(d, "tx_port", r->flow[id].port);
	tel_table(d, sl_flow_counters, &r->flow[id]);
	for (uint16_t p = 0; p < r->nb_ports; p++) {
		const struct sl_results_rx *x = sl_results_flow_rx(r, (uint16_t)id, p);
		struct rte_tel_data *c;
		char name[16];

		if (x == NULL || x->st.rx == 0 || (c = rte_tel_data_alloc()) == NULL)
			continue;
		rte_tel_data_start_dict(c);
		tel_table(c, sl_flow_rx_counters, &x->st);
		snprintf(name, sizeof(name), "rx_port_%u", p);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	tel_done(r);
	return 0;
}

void
sl_telemetry_init(struct sl_app *app)
{
	tel_app = app;
	if (app->loop != NULL && P.timer < 0) {
		P.timer = sl_loop_timer_add(app->loop, SL_TEL_PUBLISH_US, tel_tick, app);
		if (P.timer < 0)
			sl_err("telemetry: no timer left on the main loop: /sluice/ reads nothing");
		sl_loop_before_sleep(app->loop, tel_step, app);
	}
	rte_telemetry_register_cmd("/sluice/totals", tel_totals,
				   "Sluice totals: generated, tx_packets, tx_bytes, dropped, backlog");
	rte_telemetry_register_cmd("/sluice/ports", tel_ports,
				   "Sluice ports; with a port id: its TX counters. Parameters: int port_id");
	rte_telemetry_register_cmd("/sluice/streams", tel_streams,
				   "Sluice streams; with a stream id: its results at each receiving port. "
				   "Parameters: int stream_id");
	rte_telemetry_register_cmd("/sluice/flows", tel_flows,
				   "Sluice flows of the run (id: name); with an id: its counters and its "
				   "figures at each receiving port. Parameters: int flow_id");
	rte_telemetry_register_cmd("/sluice/txqs", tel_txqs,
				   "Sluice TX queues of a port: mode and counters (no port: the port ids). "
				   "Parameters: int port_id");
}

void
sl_telemetry_close(void)
{
	struct sl_results *r;

	pthread_mutex_lock(&P.mu);
	P.closed = true;
	r = P.r;
	P.r = NULL;
	pthread_mutex_unlock(&P.mu);
	sl_results_free(r);
	if (tel_app != NULL && tel_app->loop != NULL && P.timer > 0) {
		sl_loop_timer_del(tel_app->loop, P.timer);
		sl_loop_before_sleep(tel_app->loop, NULL, NULL);
	}
	P.timer = -1;
}
