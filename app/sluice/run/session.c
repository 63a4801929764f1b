/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run session (session.h): a run built from its configuration (the
 * plan, plan.c), launched, its turn on the main lcore's loop (scheduler
 * poll, live stats), stopped and reported, released.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include "plan.h"
#include "ports.h"
#include "snapshot.h"
#include "session.h"
#include "ctl.h"
#include "source.h"
#include "worker.h"
#include "sl_loop.h"
#include "sl_err.h"
#include "sl_wire.h"
#include "sl_clock.h"

#define SL_FLUSH_US 200000   /* stop: time allowed to send what is queued */

uint16_t
sl_session_mtu(const struct sl_app *app, uint16_t pid)
{
	return app->cfg.pc[pid].mtu != 0 ? app->cfg.pc[pid].mtu : app->ports.p[pid].info.mtu;
}

uint32_t
sl_session_max_frame(const struct sl_app *app, uint16_t pid, bool tagged)
{
	return sl_wire_max_frame(sl_session_mtu(app, pid), tagged);
}

const struct sl_config_env *
sl_session_env(struct sl_app *app)
{
	sl_ports_env(&app->ports, &app->env);
	app->env.devs = sl_ctl_table(app);
	return &app->env;
}

int
sl_session_check(struct sl_app *app, const struct sl_config *c, unsigned int what,
		 struct sl_config_err *e)
{
	return sl_config_check(c, sl_session_env(app), what, e);
}

int
sl_session_hold(struct sl_app *app, uint16_t id, uint8_t h)
{
	if (!app->ses.running || app->ses.hold == NULL || id >= app->ses.nb_streams)
		return -EINVAL;
	if (app->ses.hold[id] == SL_HOLD_STOP && h != SL_HOLD_STOP)
		return -EALREADY; /* its share ended: a new run starts it again */
	__atomic_store_n(&app->ses.hold[id], h, __ATOMIC_RELEASE);
	return 0;
}

/* The views' description of the run as it is now (snapshot.h); 0, or -ENOMEM with the last kept. */
static int
session_describe(struct sl_app *app)
{
	struct sl_run_desc *d = sl_run_desc_make(app);

	if (d == NULL)
		return -ENOMEM;
	sl_run_desc_put(app->ses.desc);
	app->ses.desc = d;
	return 0;
}

void
sl_session_tx_states(const struct sl_app *app, uint8_t *st)
{
	uint16_t n = app->ses.nb_streams;

	memset(st, SL_TX_STOPPED, n);
	if (!app->ses.running)
		return;
	/* Sending while any of its targets has not finished. */
	for (uint16_t i = 0; i < app->ses.nb_workers; i++) {
		const struct sl_worker *w = app->ses.workers[i];

		for (uint32_t k = 0; k < w->nb_targets; k++)
			if (w->t[k].stream < n && !__atomic_load_n(&w->t[k].finished,
								   __ATOMIC_RELAXED))
				st[w->t[k].stream] = SL_TX_STARTED;
	}
	for (uint16_t id = 0; app->ses.hold != NULL && id < n; id++)
		if (st[id] == SL_TX_STARTED &&
		    __atomic_load_n(&app->ses.hold[id], __ATOMIC_RELAXED) == SL_HOLD_PAUSE)
			st[id] = SL_TX_PAUSED;
}

int
sl_session_rate_live(struct sl_app *app, uint16_t pid, const struct sl_rate *r, bool publish,
		     char *err, size_t len)
{
	struct sl_config tmp = app->ses.run_cfg; /* a view, read only: never freed */
	struct sl_rate pace;
	unsigned int n = 0;

	if (sl_config_rate(&app->ses.run_cfg, sl_session_env(app), pid, r, &pace, err, len) != 0)
		return -EINVAL;
	tmp.pc[pid].rate = *r;
	/* A port's flows share its line: the new rate must leave their sum within it. */
	if (tmp.nb_flows != 0) {
		struct sl_config_err e;

		if (sl_config_check(&tmp, &app->env, SL_CHECK_RATES, &e) != 0) {
			snprintf(err, len, "%s", e.msg + (e.opt != NULL ? e.detail + 2 : 0));
			return -EINVAL;
		}
	}
	/* The port's lcore-queue pairs: the producers of each of its streams. */
	for (uint16_t q = 0; q < app->ports.p[pid].nb_txq; q++)
		n += app->ports.p[pid].txqs[q].nb_lcores;
	if (n == 0)
		return 0; /* the port does not send in this run: the next start takes it */
	/* Each stream that takes the port's rate (a flow without its own) gets its share. */
	for (int step = 0; step < 2; step++)
		for (uint16_t w = 0; w < app->ses.nb_workers; w++)
			for (uint16_t k = 0; k < app->ses.workers[w]->nb_targets; k++) {
				struct sl_target *t = &app->ses.workers[w]->t[k];
				struct sl_rate sp, share;
				struct sl_pacer tmpp;

				if (t->port != pid || t->own_rate)
					continue;
				if (sl_config_stream_rate(&tmp, &app->env, t->stream, &sp, err,
							  len) != 0)
					return -EINVAL;
				share = (struct sl_rate){ sp.unit, sp.value / n };
				if (sl_pacer_init(&tmpp, &share) != 0) {
					snprintf(err, len, "shared by its %u lcore-queue pairs%s, that "
						 "is below 1 per second each: give a higher rate", n,
						 tmp.nb_flows != 0 ? " and flows" : "");
					return -EINVAL;
				}
				if (step == 0 || !publish)
					continue; /* checked only: every port is checked before any takes it */
				/* The sequence lock of sl_target_rate_update(): odd while writing. */
				__atomic_fetch_add(&t->rate_gen, 1, __ATOMIC_RELAXED);
				__atomic_thread_fence(__ATOMIC_RELEASE);
				__atomic_store_n(&t->rate_unit, tmpp.unit, __ATOMIC_RELAXED);
				__atomic_store_n(&t->rate_per_unit, tmpp.per_unit, __ATOMIC_RELAXED);
				__atomic_fetch_add(&t->rate_gen, 1, __ATOMIC_RELEASE);
			}
	if (!publish)
		return 0;
	app->ports.p[pid].pace = pace; /* only once it is taken */
	app->ses.run_cfg.pc[pid].rate = *r; /* the run's configuration says what it runs at */
	/* And its description, which the views show (--json's config: the last rate). */
	if (session_describe(app) != 0) {
		snprintf(err, len, "taken, but the views still show the rate before it: out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* The run's own frames that have arrived (unique: foreign frames do not count). */
static uint64_t
rx_mine(const struct sl_results *r)
{
	uint64_t n = 0;

	for (uint16_t s = 0; s < r->nb_ports; s++)
		n += r->unique[s];
	return n;
}

/*
 * Step 4: the main lcore receives on every receiving port until every frame
 * sent has arrived, or a signal, or --drain has passed and the run's own
 * frames have stopped arriving: none for SL_DRAIN_QUIET_US, or for three of
 * the run's frame intervals when its paced rate is slower (a 10 pps flow's
 * frames are 100 ms apart, no silence). At most SL_DRAIN_MORE_US past
 * --drain, whatever arrives (foreign frames never end it): frames still in
 * flight (a DUT's queue, its delay) are waited for, not counted lost. With
 * --drain 0, what is already waiting is collected (until a round brings
 * nothing, or the run's own frames are quiet).
 */
static void
rx_drain(struct sl_app *app)
{
	uint64_t hz = sl_tsc_hz(), now = rte_rdtsc();
	uint64_t end = now + sl_us_tsc(app->ses.run_cfg.drain_us, hz), next_check = now;
	uint64_t hard = end + sl_us_tsc(SL_DRAIN_MORE_US, hz), quiet = 0;
	uint64_t mine = UINT64_MAX, moved = now;
	struct sl_rxp rxp[SL_MAX_PORTS];
	uint16_t n = 0;

	for (uint16_t r = 0; r < app->ports.n; r++)
		if (app->ses.rx[r] != NULL)
			rxp[n++] = (struct sl_rxp){ app->ports.p[r].ops->rx_burst, app->ports.p[r].dev,
						    app->ses.rx[r], r, app->ses.cap[r],
						    sl_ctl_ring(app, r), 0 };
	while (n != 0) {
		bool got = sl_worker_rx(rxp, n);

		now = rte_rdtsc();
		if (now >= hard)
			break;
		if (!got && now >= end && app->ses.run_cfg.drain_us == 0)
			break;
		/* Every millisecond, even while frames keep coming (foreign ones do). */
		if (now >= next_check) {
			struct sl_results *r;

			sl_ctl_poll(app); /* the devices answer during the drain too */
			r = sl_results_take_opt(app, false);
			bool arrived = r != NULL && r->all_arrived;

			if (r != NULL && quiet == 0) {
				double gap_us = r->pace.rate_fps > 0 ? 3e6 / r->pace.rate_fps : 0;

				quiet = sl_us_tsc((uint64_t)RTE_MIN(RTE_MAX(gap_us,
					(double)SL_DRAIN_QUIET_US), (double)SL_DRAIN_MORE_US), hz);
			}
			/* Frames that came during a stall of this lcore count as now. */
			if (r != NULL && rx_mine(r) != mine) {
				mine = rx_mine(r);
				moved = now;
			}
			sl_results_free(r);
			if (arrived || sl_interrupted())
				break;
			/*
			 * Past --drain, the run's own frames quiet for the window:
			 * done, unless a last round finds more of them (what came
			 * while this lcore was away between the round and the clock).
			 */
			if (now >= end && quiet != 0 && now - moved >= quiet) {
				struct sl_results *r2;
				bool same;

				sl_worker_rx(rxp, n);
				r2 = sl_results_take_opt(app, false);
				same = r2 == NULL || rx_mine(r2) == mine;
				if (!same) {
					mine = rx_mine(r2);
					moved = rte_rdtsc();
				}
				sl_results_free(r2);
				if (same)
					break;
			}
			next_check = now + hz / 1000;
		}
		if (!got)
			rte_delay_us_sleep(50);
	}
	app->ses.drain_end_tsc = rte_rdtsc();
}

/*
 * Step 2, first part: send what the backlogs hold without dropping anything
 * (the poll, or an exclusive queue's own drain: its producer has stopped),
 * while receiving: on a loopback (net_ring) or a DUT wired back to Sluice,
 * TX empties only as fast as someone receives, and the workers that did have
 * stopped. Bounded by timeout_us; what is left then is the flush's to drop.
 */
static void
backlogs_drain(struct sl_app *app, uint64_t timeout_us)
{
	uint64_t end = rte_get_timer_cycles() + timeout_us * rte_get_timer_hz() / US_PER_S;
	struct sl_rxp rxp[SL_MAX_PORTS];
	uint16_t nrx = 0;

	for (uint16_t r = 0; r < app->ports.n; r++)
		if (app->ses.rx[r] != NULL)
			rxp[nrx++] = (struct sl_rxp){ app->ports.p[r].ops->rx_burst,
						      app->ports.p[r].dev, app->ses.rx[r], r,
						      app->ses.cap[r], sl_ctl_ring(app, r), 0 };
	while (rte_get_timer_cycles() < end) {
		uint32_t left = 0;
		bool moved = false;

		for (uint16_t i = 0; i < app->ports.n; i++)
			for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++) {
				struct sl_txq *t = app->ports.p[i].txqs[q].txq;

				if (t == NULL || sl_txq_pending(t) == 0)
					continue;
				moved |= (sl_txq_get_mode(t) == SL_TXQ_EXCLUSIVE ?
					  sl_txq_drain_own(t) : sl_txq_poll(t)) != 0;
				left += sl_txq_pending(t);
			}
		if (left == 0)
			return;
		if (nrx != 0)
			moved |= sl_worker_rx(rxp, nrx);
		if (!moved)
			rte_delay_us_sleep(20);
	}
}

/* Free what a run built (step 8): queues, analyzers, workers and their pools. */
static void
session_release(struct sl_app *app)
{
	sl_ports_txqs_free(&app->ports);
	for (uint16_t r = 0; r < SL_MAX_PORTS; r++) {
		sl_rx_free(app->ses.rx[r]);
		app->ses.rx[r] = NULL;
		app->ses.rx_lcore[r] = -1;
	}
	memset(app->views.rx_base, 0, sizeof(app->views.rx_base));
	free(app->views.flow_base); /* a new run's flows count from zero */
	app->views.flow_base = NULL;
	app->views.nb_flow_base = 0;
	for (uint16_t i = 0; i < app->ses.nb_workers; i++) {
		struct sl_worker *w = app->ses.workers[i];

		for (uint16_t p = 0; p < SL_MAX_PORTS; p++) {
			rte_mempool_free(w->pools[p]);
			rte_mempool_free(w->rpools[p]);
		}
		for (uint32_t k = 0; k < w->nb_targets; k++)
			if (w->t[k].src != NULL && w->t[k].src->detach != NULL)
				w->t[k].src->detach(&w->t[k]);
		rte_free(w->t);
		rte_free(w);
		app->ses.workers[i] = NULL;
	}
	app->ses.nb_workers = 0;
	sl_plan_streams_free(app);
	free(app->ses.hold);
	app->ses.hold = NULL;
	app->ses.discarded = 0;
	app->ses.pool_in_use = 0;
	app->ses.start_tsc = app->ses.end_tsc = 0; /* show port stats: no run until the next start */
}

/* Build a run from its compiled streams: map, sources, ports, queues, workers. */
static int
session_build(struct sl_app *app)
{
	int ret;

	/* A new tag per run, never the last one: frames a DUT kept are stale. */
	app->ses.run_tag = (uint8_t)(app->ses.run_tag + 1 + rte_rand_max(255));
	sl_plan_map(app);
	ret = sl_plan_streams(app);
	if (ret == 0 && app->ses.hold_ctl) {
		app->ses.hold = calloc(app->ses.nb_streams, 1);
		ret = app->ses.hold != NULL ? 0 : -ENOMEM;
		if (ret == 0 && app->ses.hold_init != NULL)
			memcpy(app->ses.hold, app->ses.hold_init, app->ses.nb_streams);
	}
	if (ret == 0) {
		bool rx[SL_MAX_PORTS];

		sl_config_rx_ports(&app->ses.run_cfg, &app->env, rx);
		ret = sl_ports_setup(&app->ports, &app->ses.run_cfg, rx);
	}
	if (ret == 0)
		ret = sl_ports_txqs_create(&app->ports, app->ses.run_cfg.lock);
	if (ret == 0)
		ret = sl_plan_workers(app);
	if (ret == 0)
		ret = sl_plan_rx(app);
	return ret;
}

/*
 * --sign auto: frames carry the signature when something reads it: a port
 * receives, or a port is the sim (its verifier, its DUT model), or the
 * user asked a replay to carry it (--pcap-sign, a flow's "signed": for a
 * receiver elsewhere).
 */
static bool
sign_auto(struct sl_app *app, const struct sl_config *c)
{
	bool rx[SL_MAX_PORTS];

	for (uint16_t i = 0; i < c->nb_flows; i++)
		if (c->flows[i].pcap[0] != '\0' && c->flows[i].pcap_sign)
			return true;
	sl_config_rx_ports(c, &app->env, rx);
	for (uint16_t i = 0; i < app->ports.n; i++)
		if (rx[i] || strcmp(app->ports.p[i].info.driver, "sl_sim") == 0)
			return true;
	return false;
}

int
sl_session_open(struct sl_app *app)
{
	if (sl_ports_open(&app->ports, &app->cfg) != 0)
		return SL_EXIT_RUNTIME;
	if (sl_ctl_open(app) != 0) {
		sl_err("out of memory");
		return SL_EXIT_RUNTIME;
	}
	sl_session_env(app);
	if (sl_config_copy(&app->ses.run_cfg, &app->cfg) != 0 || session_describe(app) != 0) {
		sl_err("out of memory");
		return SL_EXIT_RUNTIME;
	}
	return SL_EXIT_OK;
}

int
sl_session_start(struct sl_app *app, const struct sl_config *c, bool quiet)
{
	const struct sl_config *o = &app->ses.run_cfg;
	uint64_t hz = sl_tsc_hz(), deadline = 0;
	struct sl_config cand = { 0 };
	struct sl_config_err e;
	int ret;

	session_release(app);
	/*
	 * Its counts bounded first (what follows reads its tables and sizes
	 * its streams); then the run's own copy (nothing writes it while it
	 * runs), --sign auto resolved, checked whole and compiled by the check
	 * before anything is touched: the streams the workers send are the
	 * check's.
	 */
	if (sl_session_check(app, c, SL_CHECK_RANGES, &e) != 0) {
		sl_err("%s", e.msg);
		return -EINVAL;
	}
	ret = sl_config_copy(&cand, c);
	if (ret != 0) {
		sl_err("out of memory");
		return ret;
	}
	if (cand.sign == SL_SIGN_AUTO)
		cand.sign = sign_auto(app, &cand) ? SL_SIGN_ON : SL_SIGN_OFF;
	/* Flows between devices wait (bounded) for their next hops' MACs. */
	sl_ctl_resolve(app, &cand, quiet);
	ret = sl_plan_compile(app, &cand, &e);
	if (ret != 0) {
		sl_err("%s", e.msg);
		sl_config_fini(&cand);
		session_release(app);
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	sl_config_fini(&app->ses.run_cfg);
	app->ses.run_cfg = cand; /* the table moves to the run */
	app->ses.quiet = quiet;
	sl_ctl_run_begin(app, &app->ses.run_cfg); /* the ports are the run's now */
	ret = session_build(app);
	if (ret == 0 && session_describe(app) != 0) {
		sl_err("out of memory");
		ret = -ENOMEM;
	}
	if (ret != 0) {
		session_release(app);
		sl_ports_stop(&app->ports);
		return ret;
	}
	if (!app->ses.quiet && app->ses.show != NULL) {
		struct sl_results *r = sl_results_take_opt(app, false);

		if (r != NULL)
			app->ses.show->modes(app, r);
		sl_results_free(r);
	}
	sl_run_rearm(); /* a new run clears the last stop, not a signal's */
	/*
	 * The run's window opens a little ahead, once every worker has been
	 * launched and woken: each waits for it, and its pacers count from it
	 * (worker.c), so the window is offered from its first instant.
	 */
	app->ses.start_tsc = rte_rdtsc() + sl_us_tsc(SL_SESSION_LEAD_US, hz);
	app->ses.end_tsc = 0;
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		app->ses.anchor_tsc = rte_rdtsc();
		app->ses.anchor_unix_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	if (o->duration_us != 0)
		deadline = app->ses.start_tsc + sl_us_tsc(o->duration_us, hz);
	app->views.next_stats = app->ses.start_tsc + (uint64_t)(app->o.stats_period * (double)hz);
	memset(&app->views.live, 0, sizeof(app->views.live));
	for (uint16_t i = 0; i < SL_MAX_PORTS; i++)
		app->views.view[i] = (struct sl_view){ app->ses.start_tsc, app->ses.start_tsc, 0, 0 };
	for (uint16_t i = 0; i < app->ses.nb_workers; i++) {
		struct sl_worker *w = app->ses.workers[i];

		w->deadline_tsc = deadline;
		w->anchor_tsc = app->ses.start_tsc;
		if (w->nb_targets == 0 && w->nb_rxp == 0) {
			w->tx_done = 1;
			w->done = 1;
			continue;
		}
		if (rte_eal_remote_launch(sl_worker_main, w, w->lcore) != 0) {
			sl_err("lcore %u is busy: it cannot transmit in this run", w->lcore);
			w->tx_done = 1;
			w->done = 1;
		}
	}
	/*
	 * Back to the caller once the window has opened (its workers wait for
	 * it on their own): a command after start, a live line or a snapshot
	 * never sees a run whose start is still ahead.
	 */
	while ((int64_t)(rte_rdtsc() - app->ses.start_tsc) < 0)
		rte_delay_us_sleep(50);
	app->ses.running = true;
	app->ses.run_done = false;
	app->ses.run_end = NULL; /* the caller says who stops it (sl_session_on_end()) */
	app->ses.runs++;
	if (app->loop != NULL)
		sl_loop_timer_set(app->loop, app->ses.tick, 0);
	return 0;
}

static bool
workers_done(const struct sl_app *app)
{
	for (uint16_t i = 0; i < app->ses.nb_workers; i++)
		if (!sl_worker_tx_done(app->ses.workers[i]))
			return false;
	return true;
}

bool
sl_session_poll(struct sl_app *app)
{
	uint64_t hz = sl_tsc_hz(), now = rte_rdtsc();

	if (!app->ses.running || sl_stopping() || workers_done(app))
		return false;
	for (uint16_t i = 0; i < app->ports.n; i++)
		for (uint16_t q = 0; q < app->ports.p[i].nb_txq; q++)
			sl_txq_poll(app->ports.p[i].txqs[q].txq);
	if (app->o.stats_period != 0 && !app->ses.quiet && app->ses.show != NULL &&
	    now >= app->views.next_stats) {
		if (app->output_hook != NULL)
			app->output_hook(app, true);
		struct sl_results *r = sl_results_take_opt(app, false);

		if (r != NULL)
			app->ses.show->live(app, r, (double)(now - app->ses.start_tsc) / hz);
		sl_results_free(r);
		if (app->output_hook != NULL)
			app->output_hook(app, false);
		app->views.next_stats += (uint64_t)(app->o.stats_period * (double)hz);
		/* Late (the main lcore was descheduled): skip the missed lines, not a burst of them. */
		if (app->views.next_stats <= now)
			app->views.next_stats = now + (uint64_t)(app->o.stats_period * (double)hz);
	}
	return true;
}

/*
 * The run's turn, a timer of the loop: every SL_SESSION_POLL_US while a run
 * is going, every SL_SESSION_IDLE_US otherwise (a start makes it due at
 * once). When the run is done, the one who started it is told (run_end),
 * once: it stops the run.
 */
static int64_t
session_tick(struct sl_loop *l, void *arg)
{
	struct sl_app *app = arg;
	sl_run_end_fn *fn;

	RTE_SET_USED(l);
	if (!app->ses.running)
		return SL_SESSION_IDLE_US;
	if (app->ses.run_done || sl_session_poll(app))
		return SL_SESSION_POLL_US;
	app->ses.run_done = true;
	fn = app->ses.run_end;
	app->ses.run_end = NULL;
	if (fn != NULL)
		fn(app, app->ses.run_end_arg);
	return app->ses.running ? SL_SESSION_POLL_US : SL_SESSION_IDLE_US;
}

int
sl_session_loop(struct sl_app *app, struct sl_loop *l)
{
	long id = sl_loop_timer_add(l, SL_SESSION_IDLE_US, session_tick, app);

	if (id < 0)
		return (int)id;
	app->loop = l;
	app->ses.tick = id;
	return sl_ctl_loop(app, l);
}

void
sl_session_on_end(struct sl_app *app, sl_run_end_fn *fn, void *arg)
{
	app->ses.run_end = fn;
	app->ses.run_end_arg = arg;
}

static bool
session_done(void *arg)
{
	const struct sl_app *app = arg;

	return !app->ses.running || app->ses.run_done;
}

void
sl_session_wait(struct sl_app *app)
{
	if (app->loop != NULL) {
		sl_loop_run(app->loop, session_done, app);
		return;
	}
	while (sl_session_poll(app))
		rte_delay_us_sleep(SL_SESSION_POLL_US);
}

int
sl_session_stop(struct sl_app *app)
{
	struct sl_results *r;
	uint64_t end, lost;

	if (!app->ses.running)
		return SL_EXIT_OK;
	/* 1. */
	sl_run_stop();
	rte_eal_mp_wait_lcore();
	sl_ctl_run_end(app); /* the devices answer what their RX lcores handed over */
	/* 2. */
	backlogs_drain(app, SL_FLUSH_US);
	app->ses.discarded = sl_ports_quiesce(&app->ports, SL_FLUSH_US);
	/* 3. The run ends when what was counted as sent has been sent. */
	end = app->ses.start_tsc;
	for (uint16_t i = 0; i < app->ses.nb_workers; i++)
		end = RTE_MAX(end, app->ses.workers[i]->end_tsc);
	app->ses.end_tsc = RTE_MAX(end, rte_rdtsc());
	/* 4. */
	rx_drain(app);
	sl_ctl_run_end(app); /* the drain's hand-overs: no mbuf stays in a ring */
	/* 5. */
	sl_ports_stop(&app->ports);
	/* 6. */
	app->ses.pool_in_use = sl_plan_pool_in_use(app);
	app->ses.running = false;
	/* 7. (a benchmark's trial reports nothing: bench.c reads the counters) */
	if (app->ses.quiet)
		return SL_EXIT_OK;
	/* The run's results, read once: the summary, the JSON and the exit code agree. */
	r = sl_results_take(app);
	if (r == NULL) {
		sl_err("no memory for the run's results");
		app->exit_code = SL_EXIT_RUNTIME;
		return SL_EXIT_RUNTIME;
	}
	if (app->ses.show != NULL && app->ses.show->end(app, r) != 0) {
		sl_results_free(r);
		app->exit_code = SL_EXIT_RUNTIME;
		return SL_EXIT_RUNTIME;
	}
	if (r->not_conserved != 0 && app->exit_code == SL_EXIT_OK)
		app->exit_code = SL_EXIT_LOSS;
	lost = r->lost;
	sl_results_free(r);
	if (lost != 0) {
		if (app->exit_code == SL_EXIT_OK)
			app->exit_code = SL_EXIT_LOSS;
		return SL_EXIT_LOSS;
	}
	return SL_EXIT_OK;
}

int
sl_session_run(struct sl_app *app)
{
	int ret;

	ret = sl_session_start(app, &app->cfg, false);
	if (ret != 0)
		return ret == -EINVAL ? SL_EXIT_USAGE : SL_EXIT_RUNTIME;
	sl_session_wait(app);
	return sl_session_stop(app);
}

void
sl_session_close(struct sl_app *app)
{
	if (app->ses.running)
		sl_session_stop(app);
	session_release(app);
	sl_run_desc_put(app->ses.desc);
	app->ses.desc = NULL;
	sl_ctl_close(app);
	sl_ports_close(&app->ports);
}
