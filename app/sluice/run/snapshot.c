/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The results snapshot (snapshot.h): the one place that reads a run's
 * counters for the views. Receive side first, then what was sent.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "snapshot.h"
#include "plan.h"
#include "ctl.h"
#include "sl_hist.h"
#include "sl_clock.h"
#include "worker.h"

struct sl_run_desc *
sl_run_desc_make(const struct sl_app *app)
{
	struct sl_run_desc *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	if (sl_config_copy(&d->cfg, &app->ses.run_cfg) != 0) {
		free(d);
		return NULL;
	}
	d->refs = 1;
	d->sign_asked = app->cfg.sign;
	d->env = app->env;
	for (uint16_t i = 0; i < app->ports.n && i < SL_MAX_PORTS; i++) {
		const struct sl_port *p = &app->ports.p[i];

		d->port[i] = (struct sl_run_desc_port){
			.caps = p->caps, .rx_hw_ts = p->rx_hw_ts,
			.rx_lcore = app->ses.rx_lcore[i], .rx_dedicated = app->ses.rx_dedicated[i],
		};
		for (uint16_t q = 0; q < p->nb_txq && q < SL_MAX_TXQ; q++)
			for (uint16_t l = 0; l < p->txqs[q].nb_lcores && d->nb_sends < SL_MAP_MAX; l++)
				d->sends[d->nb_sends++] = (struct sl_map_entry){
					.lcore = p->txqs[q].lcores[l], .port = i, .queue = q };
	}
	d->nb_map = app->ses.nb_map;
	memcpy(d->map, app->ses.map, sizeof(d->map));
	return d;
}

void
sl_run_desc_put(struct sl_run_desc *d)
{
	if (d == NULL || __atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	sl_config_fini(&d->cfg);
	free(d);
}

void
sl_results_free(struct sl_results *r)
{
	if (r == NULL)
		return;
	sl_run_desc_put((struct sl_run_desc *)(uintptr_t)r->desc);
	for (uint32_t i = 0; r->rx != NULL && i < (uint32_t)r->nb_ports * r->nb_ports; i++)
		free(r->rx[i].hist);
	for (uint32_t i = 0; r->frx != NULL && i < (uint32_t)r->nb_flows * r->nb_ports; i++)
		free(r->frx[i].hist);
	free(r->rx);
	free(r->frx);
	free(r->flow);
	free(r->txq);
	free(r->dev);
	free(r);
}

void
sl_results_stats_add(struct sl_rx_stream_stats *d, const struct sl_rx_stream_stats *x)
{
	if (x->lat_count != 0) {
		d->lat_min = d->lat_count == 0 || x->lat_min < d->lat_min ? x->lat_min : d->lat_min;
		d->lat_max = x->lat_max > d->lat_max ? x->lat_max : d->lat_max;
	}
	d->rx += x->rx;
	d->bytes += x->bytes;
	d->duplicates += x->duplicates;
	d->reordered += x->reordered;
	d->late += x->late;
	for (int i = 0; i < SL_RX_DIST_BUCKETS; i++)
		d->dist[i] += x->dist[i];
	d->lat_count += x->lat_count;
	d->lat_hw += x->lat_hw;
	d->lat_backwards += x->lat_backwards;
	d->lat_sum += x->lat_sum;
	/* Jitter is per sequence of arrivals: a sum of streams shows the worst. */
	d->jitter_ns = x->jitter_ns > d->jitter_ns ? x->jitter_ns : d->jitter_ns;
	/* The first arrival of any, the last of any (0: none). */
	if (x->first_tsc != 0 && (d->first_tsc == 0 || x->first_tsc < d->first_tsc))
		d->first_tsc = x->first_tsc;
	d->last_tsc = RTE_MAX(d->last_tsc, x->last_tsc);
}

/*
 * 1. The receive side: each receiving port's analyzer and drops, each
 * stream (flow) at it, and each port's streams summed into the port's
 * record.
 */
static int
take_rx(const struct sl_app *app, struct sl_results *r, bool hist)
{
	const struct sl_config *o = &app->ses.run_cfg;
	uint16_t np = r->nb_ports;

	for (uint16_t p = 0; p < np; p++) {
		const struct sl_port *pt = &app->ports.p[p];
		struct sl_results_port *rp = &r->port[p];

		if (pt->ops->rx_drops != NULL)
			pt->ops->rx_drops(pt->dev, &rp->drops);
		if (app->ses.rx[p] == NULL)
			continue;
		rp->rx_on = true;
		r->rx_any = true;
		sl_rx_port_stats(app->ses.rx[p], &rp->rx);
		for (uint16_t f = 0; f < r->nb_flows; f++) {
			struct sl_results_rx *y = &r->frx[(uint32_t)f * np + p], *x;
			uint16_t s = r->flow[f].port;

			y->on = sl_rx_stream_stats(app->ses.rx[p], f, &y->st);
			if (!y->on || s >= np)
				continue;
			x = &r->rx[(uint32_t)s * np + p];
			x->on = true;
			sl_results_stats_add(&x->st, &y->st);
			r->flow[f].unique += y->st.rx - y->st.duplicates;
			r->flow[f].seen |= y->st.rx != 0;
			r->unique[s] += y->st.rx - y->st.duplicates;
			r->seen[s] |= y->st.rx != 0;
			if (!hist || y->st.rx == 0)
				continue;
			if (x->hist == NULL)
				x->hist = calloc(SL_HIST_BUCKETS, sizeof(*x->hist));
			if (x->hist == NULL)
				return -1;
			sl_rx_stream_hist(app->ses.rx[p], f, x->hist);
			if (o->nb_flows == 0)
				continue; /* a port's one stream: the port's record is its own */
			y->hist = calloc(SL_HIST_BUCKETS, sizeof(*y->hist));
			if (y->hist == NULL)
				return -1;
			sl_rx_stream_hist(app->ses.rx[p], f, y->hist);
		}
	}
	return 0;
}

/* The lcores of a queue as "1,2" ("-": none). */
static void
lcores_str(char *buf, size_t len, const struct sl_app_txq *aq)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint16_t i = 0; i < aq->nb_lcores && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u", i ? "," : "", aq->lcores[i]);
	if (aq->ctl && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%smain", off ? "," : "");
	if (off == 0)
		snprintf(buf, len, "-");
}

/*
 * What the pacers of queue q asked and let go (struct sl_pace_totals). A
 * pacer's frames let go are its skipped time at its rate, in frames of its
 * stream's mean size when it paces bits, and no more than what is left of
 * its --count share; its rate in frames a second is the TSC's rate over
 * its cost of a frame. Read while the workers run: their pacer fields are
 * plain, so a figure may be a burst old.
 */
static void
take_pace(const struct sl_session *ses, const struct sl_txq *q, struct sl_pace_totals *pc)
{
	double hz = (double)sl_tsc_hz();

	memset(pc, 0, sizeof(*pc));
	for (uint16_t w = 0; w < ses->nb_workers; w++)
		for (uint16_t i = 0; i < ses->workers[w]->nb_targets; i++) {
			const struct sl_target *t = &ses->workers[w]->t[i];
			uint8_t u = __atomic_load_n(&t->pacer.unit, __ATOMIC_RELAXED);
			uint64_t per = t->pacer.per_unit, quota = t->quota, lg;
			double upf, frames;

			if (t->txq != q || u == SL_RATE_NONE || u > SL_RATE_L2 ||
			    !(t->slack_units[0] > 0) || per == 0)
				continue;
			upf = u == SL_RATE_PPS ? 1 : t->slack_units[u == SL_RATE_L1 ? 1 : 2] /
						     t->slack_units[0];
			if (!(upf > 0))
				continue;
			frames = sl_pacer_skipped_frames(&t->pacer, upf);
			lg = (uint64_t)(frames + 0.5);
			if (quota != UINT64_MAX && lg > quota)
				lg = quota; /* a count asks no more than the count */
			pc->let_go_frames += lg;
			pc->offered += SL_CNT_READ(t->generated);
			pc->unsent += t->unsent;
			pc->rate_fps += hz * 4294967296.0 / ((double)per * upf);
		}
	pc->asked = pc->offered + pc->unsent + pc->let_go_frames;
	pc->let_go_ns = pc->rate_fps > 0 ?
			(uint64_t)((double)pc->let_go_frames * 1e9 / pc->rate_fps + 0.5) : 0;
}

/* Add b to a; the time let go is the frames let go over the sum of the rates. */
static void
pace_add(struct sl_pace_totals *a, const struct sl_pace_totals *b)
{
	a->asked += b->asked;
	a->let_go_frames += b->let_go_frames;
	a->offered += b->offered;
	a->unsent += b->unsent;
	a->rate_fps += b->rate_fps;
	a->let_go_ns = a->rate_fps > 0 ?
		       (uint64_t)((double)a->let_go_frames * 1e9 / a->rate_fps + 0.5) : 0;
}

/* 2. What was sent: each queue's counters and what the workers handed to it. */
static void
take_tx(const struct sl_app *app, struct sl_results *r)
{
	const struct sl_session *ses = &app->ses;
	uint16_t k = 0;

	for (uint16_t p = 0; p < r->nb_ports; p++) {
		const struct sl_port *pt = &app->ports.p[p];
		struct sl_results_port *rp = &r->port[p];
		uint64_t signed_tx = 0, dropped = 0;

		rp->txq0 = k;
		rp->nb_txq = pt->nb_txq;
		rp->pace_rate = pt->pace;
		for (uint16_t q = 0; q < pt->nb_txq; q++) {
			const struct sl_app_txq *aq = &pt->txqs[q];
			struct sl_results_txq *x = &r->txq[k++];

			x->port = p;
			x->queue = q;
			x->nb_lcores = aq->nb_lcores;
			lcores_str(x->lcores, sizeof(x->lcores), aq);
			if (aq->txq == NULL)
				continue;
			x->exists = true;
			x->mode = sl_txq_get_mode(aq->txq);
			sl_txq_stats_get(aq->txq, &x->st);
			x->base = aq->base;
			for (uint16_t w = 0; w < ses->nb_workers; w++)
				for (uint16_t t = 0; t < ses->workers[w]->nb_targets; t++)
					if (ses->workers[w]->t[t].txq == aq->txq)
						x->generated +=
							SL_CNT_READ(ses->workers[w]->t[t].generated);
			/* The devices' answers sent through the engine (run/ctl.h). */
			if (aq->ctl)
				x->generated += sl_ctl_sent(app, p);
			take_pace(ses, aq->txq, &x->pace);
			pace_add(&rp->pace, &x->pace);
			rp->tot.generated += x->generated;
			rp->tot.tx_packets += x->st.tx_packets;
			rp->tot.tx_bytes += x->st.tx_bytes;
			rp->tot.dropped += x->st.dropped;
			rp->tot.backlog += x->st.backlog;
			rp->view.tx_packets += x->st.tx_packets - x->base.tx_packets;
			rp->view.tx_bytes += x->st.tx_bytes - x->base.tx_bytes;
			rp->view.dropped += x->st.dropped - x->base.dropped;
			dropped += x->st.dropped;
		}
		rp->view.generated = rp->tot.generated;
		rp->view.backlog = rp->tot.backlog;
		/*
		 * Signed frames of the port's stream that its drivers took: what the
		 * workers counted as signed and taken, less what the engine then
		 * dropped (flush at stop, dead loops, a full backlog with the drop
		 * policy) when every frame is signed; with some sizes too short to
		 * carry a signature, such drops cannot be split and are left in
		 * (docs/measure.md).
		 */
		rp->all_signed = true;
		for (uint16_t w = 0; w < ses->nb_workers; w++)
			for (uint16_t t = 0; t < ses->workers[w]->nb_targets; t++)
				if (ses->workers[w]->t[t].port == p) {
					signed_tx += SL_CNT_READ(ses->workers[w]->t[t].signed_sent);
					rp->all_signed &= ses->workers[w]->t[t].sig_mix == 0;
				}
		if (rp->all_signed)
			signed_tx = signed_tx > dropped ? signed_tx - dropped : 0;
		rp->signed_tx = signed_tx;
		r->total.generated += rp->tot.generated;
		r->total.tx_packets += rp->tot.tx_packets;
		r->total.tx_bytes += rp->tot.tx_bytes;
		r->total.dropped += rp->tot.dropped;
		r->total.backlog += rp->tot.backlog;
		pace_add(&r->pace, &rp->pace);
		if (pt->ops->wire != NULL)
			rp->has_wire = pt->ops->wire(pt->dev, &rp->wire);
		if (pt->ops->verify != NULL) {
			rp->verifies = true;
			rp->verified = pt->ops->verify(pt->dev, &rp->verify);
		}
		if (pt->ops->dut != NULL)
			rp->has_dut = pt->ops->dut(pt->dev, &rp->dut);
		for (uint16_t w = 0; w < ses->nb_workers; w++)
			for (uint16_t t = 0; t < ses->workers[w]->nb_targets; t++) {
				const struct sl_target *tg = &ses->workers[w]->t[t];

				if (tg->port != p)
					continue;
				if (tg->pacer.lag_max > rp->pacer_lag_max)
					rp->pacer_lag_max = tg->pacer.lag_max;
				rp->pacer_behind_max = RTE_MAX(rp->pacer_behind_max,
							       tg->pacer.behind_max >> 16);
				rp->pacer_skipped += sl_pacer_skipped_tsc(&tg->pacer);
				rp->pool_empty += SL_CNT_READ(tg->pool_empty);
				rp->nb_pacers++;
			}
	}
	r->nb_txq = k;
	/* The generator's active time: its workers' first send to their last. */
	for (uint16_t i = 0; i < ses->nb_workers; i++) {
		const struct sl_worker *w = ses->workers[i];

		if (w->nb_targets == 0 || w->start_tsc == 0 || w->end_tsc < w->start_tsc)
			continue;
		if (r->gen_first_tsc == 0 || w->start_tsc < r->gen_first_tsc)
			r->gen_first_tsc = w->start_tsc;
		if (w->end_tsc > r->gen_last_tsc)
			r->gen_last_tsc = w->end_tsc;
	}
}

/* 2b. Each stream's frames: its targets' counts; exact unless its port's shared queues dropped. */
static void
take_flows(const struct sl_app *app, struct sl_results *r)
{
	const struct sl_session *ses = &app->ses;
	uint16_t nstreams[SL_MAX_PORTS] = { 0 };
	bool all_signed[SL_MAX_PORTS];

	for (uint16_t f = 0; f < r->nb_flows; f++)
		if (r->flow[f].port < SL_MAX_PORTS)
			nstreams[r->flow[f].port]++;
	for (uint16_t p = 0; p < SL_MAX_PORTS; p++)
		all_signed[p] = true;
	for (uint16_t w = 0; w < ses->nb_workers; w++)
		for (uint16_t t = 0; t < ses->workers[w]->nb_targets; t++) {
			const struct sl_target *tg = &ses->workers[w]->t[t];

			if (tg->stream >= r->nb_flows)
				continue;
			r->flow[tg->stream].generated += SL_CNT_READ(tg->generated);
			r->flow[tg->stream].tx += SL_CNT_READ(tg->signed_sent);
			all_signed[tg->port] &= tg->sig_mix == 0;
		}
	for (uint16_t f = 0; f < r->nb_flows; f++) {
		struct sl_results_flow *fl = &r->flow[f];
		uint16_t p = fl->port;

		if (p >= r->nb_ports)
			continue;
		if (nstreams[p] == 1) {
			fl->tx = r->port[p].signed_tx; /* the port's own figure, drops taken off */
			fl->exact = all_signed[p] || r->port[p].tot.dropped == 0;
		} else {
			fl->exact = r->port[p].tot.dropped == 0;
		}
		fl->lost = (int64_t)fl->tx - (int64_t)fl->unique;
	}
}

/*
 * 3. The verdicts. Stream s is measured when it sent signed frames and it
 * was seen somewhere, or is addressed to a receiving port, or its own port
 * does not receive (a sending port's frames are expected back elsewhere: a
 * DUT that drops them all is 100 % loss, not success).
 */
static void
take_verdicts(const struct sl_app *app, struct sl_results *r)
{
	r->all_arrived = true;
	for (uint16_t s = 0; s < r->nb_ports; s++) {
		bool m = r->port[s].signed_tx != 0 && (r->seen[s] || !r->port[s].rx_on);
		int64_t lost;

		for (uint16_t p = 0; p < r->nb_ports && r->port[s].signed_tx != 0 && !m; p++)
			m = r->port[p].rx_on && app->ses.addressed[s][p];
		r->measured[s] = m;
		if (!m)
			continue;
		/* what sl_results_stream() says of it over every port */
		lost = (int64_t)r->port[s].signed_tx - (int64_t)r->unique[s];
		if (lost > 0)
			r->all_arrived = false;
		if (!r->rx_any)
			continue;
		r->nb_measured++;
		r->not_conserved += lost < 0;
		if (lost > 0)
			r->lost += (uint64_t)lost;
	}
}

/* The devices' states, copied (none: nothing). */
static int
take_devices(const struct sl_app *app, struct sl_results *r)
{
	const struct sl_dev_table *t = sl_ctl_table(app);

	if (t == NULL || t->n == 0)
		return 0;
	r->dev = malloc(t->n * sizeof(*r->dev));
	if (r->dev == NULL)
		return -ENOMEM;
	memcpy(r->dev, t->d, t->n * sizeof(*r->dev));
	r->nb_dev = t->n;
	for (uint16_t p = 0; p < r->nb_ports; p++) {
		for (uint16_t i = 0; i < t->n; i++)
			r->port[p].has_dev |= t->d[i].conf.port == p;
		sl_dev_port_totals(r->dev, r->nb_dev, p, &r->port[p].dev);
	}
	return 0;
}

struct sl_results *
sl_results_take_opt(const struct sl_app *app, bool hist)
{
	const struct sl_session *ses = &app->ses;
	struct sl_results *r = calloc(1, sizeof(*r));
	uint32_t nq = 0, np = app->ports.n;
	struct timespec ts;

	if (r == NULL)
		return NULL;
	for (uint16_t p = 0; p < np; p++)
		nq += app->ports.p[p].nb_txq;
	r->txq = calloc(nq != 0 ? nq : 1, sizeof(*r->txq));
	r->rx = calloc(np != 0 ? np * np : 1, sizeof(*r->rx));
	r->nb_ports = (uint16_t)np;
	/* The run's streams (none before a first start). */
	r->nb_flows = app->ses.nb_streams;
	r->table = ses->run_cfg.nb_flows != 0;
	r->flow = calloc(r->nb_flows != 0 ? r->nb_flows : 1, sizeof(*r->flow));
	r->frx = calloc(r->nb_flows != 0 && np != 0 ? (size_t)r->nb_flows * np : 1,
			sizeof(*r->frx));
	/* The run's description: the session's, held; made here where it has none (a harness). */
	if (ses->desc != NULL) {
		__atomic_add_fetch(&ses->desc->refs, 1, __ATOMIC_RELAXED);
		r->desc = ses->desc;
	} else {
		r->desc = sl_run_desc_make(app);
	}
	if (r->txq == NULL || r->rx == NULL || r->flow == NULL || r->frx == NULL ||
	    r->desc == NULL) {
		sl_results_free(r);
		return NULL;
	}
	for (uint16_t f = 0; f < r->nb_flows; f++) {
		const struct sl_config *o = &ses->run_cfg;

		r->flow[f].id = f;
		r->flow[f].port = sl_config_stream_port(o, f);
		r->flow[f].to = o->nb_flows != 0 ? o->flows[f].to : -1;
		sl_config_stream_name(o, f, r->flow[f].name, sizeof(r->flow[f].name));
	}
	r->running = ses->running;
	r->hz = sl_tsc_hz();
	r->now_tsc = rte_rdtsc();
	clock_gettime(CLOCK_REALTIME, &ts);
	r->now_unix_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	r->start_tsc = ses->start_tsc;
	r->anchor_tsc = ses->anchor_tsc;
	r->anchor_unix_ns = ses->anchor_unix_ns;
	r->end_tsc = ses->end_tsc;
	/* 0 before the window opens (SL_SESSION_LEAD_US after the start). */
	r->elapsed_s = (double)RTE_MAX((int64_t)((ses->end_tsc > ses->start_tsc ? ses->end_tsc :
						 r->now_tsc) - ses->start_tsc), (int64_t)0) /
		       (double)r->hz;
	r->pool_in_use = ses->running ? sl_plan_pool_in_use(app) : ses->pool_in_use;
	r->discarded = ses->discarded;
	/* What arrived first, then what was sent: a live read never shows more arrived. */
	if (take_rx(app, r, hist) != 0) {
		sl_results_free(r);
		return NULL;
	}
	take_tx(app, r);
	take_flows(app, r);
	take_verdicts(app, r);
	if (take_devices(app, r) != 0) {
		sl_results_free(r);
		return NULL;
	}
	return r;
}

struct sl_results *
sl_results_take(const struct sl_app *app)
{
	return sl_results_take_opt(app, true);
}

void
sl_results_clear(struct sl_app *app, uint16_t pid)
{
	struct sl_port *p = &app->ports.p[pid];
	uint64_t now = rte_rdtsc();

	/* Counters have one writer each; a clear keeps a baseline to subtract. */
	for (uint16_t q = 0; q < p->nb_txq; q++)
		if (p->txqs[q].txq != NULL)
			sl_txq_stats_get(p->txqs[q].txq, &p->txqs[q].base);
	if (app->ses.end_tsc != 0 && now > app->ses.end_tsc)
		now = app->ses.end_tsc; /* after the run: nothing more will be counted */
	app->views.view[pid] = (struct sl_view){ now, now, 0, 0 };
}
