/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generated-flow source (source.h): frames built from a compiled
 * stream, paced, a burst at a time.
 */

#include <errno.h>
#include <inttypes.h>

#include "app.h"
#include "sl_err.h"
#include "source.h"
#include "worker.h"

static bool
gen_claims(const struct sl_config *o, uint16_t id)
{
	RTE_SET_USED(o);
	RTE_SET_USED(id);
	return true;
}

/*
 * Target t's pacing: its share of the stream's rate (the flow's, or its
 * share of the port's), and its catch-up bound.
 */
static int
gen_attach(struct sl_app *app, struct sl_target *t, uint16_t id, uint64_t k, uint64_t P)
{
	const struct sl_config *o = &app->ses.run_cfg;
	const uint16_t i = t->port;
	double l1, l2, kb = o->pace_even ? 1 : o->burst;
	char err[256], name[SL_FLOW_NAME_MAX];
	struct sl_rate pace, share;
	struct sl_stream_conf c;

	RTE_SET_USED(k);
	sl_config_stream_name(o, id, name, sizeof(name));
	if (sl_config_stream_rate(o, &app->env, id, &pace, err, sizeof(err)) != 0) {
		sl_err("--rate: %s (port %u, %s): %s", name, i, app->ports.p[i].info.name, err);
		return -EINVAL;
	}
	share = (struct sl_rate){ pace.unit, pace.value / (double)P };
	if (sl_pacer_init(&t->pacer, &share) != 0) {
		sl_err("--rate: %s's rate shared by port %u's %" PRIu64 " lcore-queue pairs is "
		       "below 1 per second each: give a higher rate or fewer lcores", name, i, P);
		return -EINVAL;
	}
	/*
	 * Catch-up after a stall (sl_gen.h): up to SL_PACER_CATCHUP_US or one
	 * burst; evenly spaced (a trial): SL_PACER_EVEN_US or one frame.
	 */
	sl_config_stream(o, &app->env, id, &c);
	sl_stream_conf_mean_bits(&c, &l1, &l2);
	t->slack_units[0] = kb;
	t->slack_units[1] = kb * l1;
	t->slack_units[2] = kb * l2;
	t->slack_us = o->pace_even ? SL_PACER_EVEN_US : SL_PACER_CATCHUP_US;
	sl_pacer_set_slack(&t->pacer, t->slack_units[share.unit == SL_RATE_PPS ? 0 :
						     share.unit == SL_RATE_L1 ? 1 : 2], t->slack_us);
	return 0;
}

/*
 * One burst behind what is pending (pending[pend_n..]): as many frames as
 * the pacer says are due, at most the burst size, what is left of the
 * quota and of the flow's burst; -1 when the pool is empty (its mbufs in
 * flight), the frames still due.
 */
static int
gen_burst(struct sl_worker *w, struct sl_target *t, uint64_t tsc)
{
	uint16_t n = w->burst;

	if (t->quota != UINT64_MAX)
		n = RTE_MIN((uint64_t)n, t->quota);
	if (unlikely(t->burst_pkts != 0))
		n = RTE_MIN(n, t->burst_left);
	sl_target_rate_update(t);
	n = sl_gen_due(&t->gen, &t->pacer, tsc, n);
	if (n == 0)
		return 0;
	if (sl_gen_burst(&t->gen, t->pending + t->pend_n, n, tsc) == 0) {
		sl_pacer_give_back(&t->pacer); /* not made: still due */
		if (!t->pool_dry)
			SL_CNT_ADD(t->pool_empty, 1);
		t->pool_dry = true;
		return -1;
	}
	t->pool_dry = false;
	t->pend_n += n;
	t->pend_bytes += t->gen.bytes;
	if (t->quota != UINT64_MAX)
		t->quota -= n;
	if (unlikely(t->burst_pkts != 0) && (t->burst_left -= n) == 0) {
		/* Its share of the burst is made: the pause, or the end. */
		t->burst_left = t->burst_pkts;
		t->gap_until = tsc + t->burst_gap_tsc;
		if (t->bursts_left != 0 && --t->bursts_left == 0)
			t->quota = 0;
	}
	return n;
}

const struct sl_source sl_source_gen = {
	.name = "generated",
	.claims = gen_claims,
	.attach = gen_attach,
	.burst = gen_burst,
	.paced = true,
};
