/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The replay source (source.h): a flow's pcap, each frame at its offset in
 * the capture (or at a rate, or at top speed), looped, signed where asked.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "app.h"
#include "sl_clock.h"
#include "sl_err.h"
#include "sl_replay.h"
#include "sl_wire.h"
#include "source.h"
#include "worker.h"

/* A stream's replay in a run: the capture, its schedule (sl_replay.h). */
struct sl_replay_plan {
	struct sl_replay *r;
	uint64_t *off;               /* each frame's offset, ns */
	uint64_t period;             /* a loop's, ns */
	uint32_t loops;              /* 0: until stopped */
	bool top;                    /* top speed: every frame due at once */
	bool sign;
};

/* A target's share of a replay: its frames (by 5-tuple), their times. */
struct sl_target_replay {
	const struct sl_replay *r;
	uint32_t *idx;               /* its frames, in capture order */
	uint64_t *due;               /* each one's offset from the start, TSC cycles */
	uint32_t nb, pos;            /* how many; the next one */
	uint64_t loop;               /* loops done */
	uint64_t period_tsc;
	uint32_t seq;                /* its signatures' sequence */
	bool top, sign;
};

static bool
replay_claims(const struct sl_config *o, uint16_t id)
{
	return o->nb_flows != 0 && o->flows[id].pcap[0] != '\0';
}

/*
 * Flow id's replay: its capture read, each frame checked against the port's
 * largest frame, its schedule; the stream compiled to the capture's
 * largest frame (its pools' room). 0, or -errno with the message printed.
 */
static int
replay_load(struct sl_app *app, uint16_t id, struct sl_stream *s)
{
	const struct sl_config *o = &app->ses.run_cfg;
	const struct sl_flow_conf *fc = &o->flows[id];
	struct sl_replay_plan *rp = calloc(1, sizeof(*rp));
	uint16_t pid = fc->port, mtu = sl_config_mtu(o, &app->env, pid);
	struct sl_replay_timing tm = { .speed = fc->pcap_speed == 0 ? 1 : fc->pcap_speed };
	struct sl_stream_conf c;
	struct sl_stream_err se;
	char err[512];

	if (rp == NULL)
		return -ENOMEM;
	app->ses.src_state[id] = rp; /* freed by replay_forget(), whatever follows */
	rp->r = sl_replay_load(fc->pcap, o->pcap_mem != 0 ? o->pcap_mem : SL_REPLAY_MEM_DEFAULT,
			       (int)fc->pcap_iface - 1, err, sizeof(err));
	if (rp->r == NULL) {
		sl_err("flow %s: %s", fc->name, err);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < rp->r->nb; i++) {
		const struct sl_replay_frame *f = &rp->r->f[i];
		const uint8_t *d = rp->r->data + f->off;
		uint16_t type = (uint16_t)(d[12] << 8 | d[13]);
		bool tagged = type == 0x8100 || type == 0x88a8;
		uint32_t max = sl_wire_max_frame(mtu, tagged);

		if ((uint32_t)f->len + SL_WIRE_FCS > max) {
			sl_err("flow %s: %s: frame %u: %u bytes (with the FCS) is above port %u's "
			       "largest frame, %u at MTU %u: give --mtu %u (or port config %u mtu N), "
			       "or leave the frame out (editcap)", fc->name, fc->pcap, f->num,
			       f->len + SL_WIRE_FCS, pid, max, mtu,
			       f->len + SL_WIRE_FCS - (max - mtu), pid);
			return -EINVAL;
		}
	}
	/* A rate (the flow's, or its share of the port's --rate) replaces the timing. */
	if (sl_config_stream_rate(o, &app->env, id, &tm.rate, err, sizeof(err)) != 0) {
		sl_err("flow %s: %s", fc->name, err);
		return -EINVAL;
	}
	if (tm.rate.unit == SL_RATE_NONE && fc->pcap_speed < 0)
		tm.speed = 0;
	rp->off = malloc(rp->r->nb * sizeof(*rp->off));
	if (rp->off == NULL)
		return -ENOMEM;
	if (sl_replay_schedule(rp->r, &tm, rp->off, &rp->period, err, sizeof(err)) != 0) {
		sl_err("flow %s: %s", fc->name, err);
		return -EINVAL;
	}
	rp->top = tm.rate.unit == SL_RATE_NONE && tm.speed == 0;
	rp->loops = fc->pcap_loops == UINT32_MAX ? 0 : fc->pcap_loops == 0 ? 1 : fc->pcap_loops;
	/* A capture that spans no time, looped at its own timing, would loop at top speed. */
	if (!rp->top && rp->period == 0 && rp->loops != 1) {
		sl_err("flow %s: %s spans no time (%s): its loops have no timing of their own: "
		       "give a rate (the flow's rate, or --rate) or --pcap-speed max", fc->name,
		       fc->pcap, rp->r->nb_all == 1 ? "one frame" : "every frame stamped alike");
		return -EINVAL;
	}
	rp->sign = fc->pcap_sign && o->sign != SL_SIGN_OFF;
	{
		char how[64], lp[32];

		if (tm.rate.unit != SL_RATE_NONE)
			sl_rate_str(&tm.rate, how, sizeof(how));
		else if (rp->top)
			snprintf(how, sizeof(how), "top speed");
		else
			snprintf(how, sizeof(how), "its own timing x %g", tm.speed);
		if (rp->loops == 0)
			snprintf(lp, sizeof(lp), "until stopped");
		else
			snprintf(lp, sizeof(lp), "%u time%s", rp->loops, rp->loops > 1 ? "s" : "");
		printf("flow %s: replays %s: %u frames (%u can carry a signature: %s), %" PRIu64
		       " bytes; %s, a loop every %.6f s, %s\n", fc->name, fc->pcap, rp->r->nb,
		       rp->r->nb_signable, rp->sign ? "signed" : "sent unsigned", rp->r->bytes, how,
		       (double)rp->period / 1e9, lp);
	}
	/* A plain stream whose frame is the capture's largest: the pools' room. */
	sl_config_stream(o, &app->env, id, &c);
	memset(c.sizes, 0, sizeof(c.sizes));
	c.sizes[0] = (uint16_t)RTE_MAX(rp->r->max_len + SL_WIRE_FCS, SL_WIRE_MIN_FRAME);
	c.weights[0] = 1;
	c.nb_sizes = 1;
	c.size_min = c.size_max = c.size_step = 0;
	c.nb_fields = 0;
	c.hdrs.n = 0;
	c.hdrs.nb_vals = 0;
	if (sl_stream_compile(s, &c, (uint16_t)RTE_MAX(sl_wire_max_frame(mtu, true),
						      (uint32_t)c.sizes[0]), &se) != 0) {
		sl_err("flow %s: %s", fc->name, se.msg);
		return -EINVAL;
	}
	return 0;
}

static void
replay_forget(struct sl_app *app, uint16_t id)
{
	struct sl_replay_plan *rp = app->ses.src_state[id];

	if (rp == NULL)
		return;
	sl_replay_free(rp->r);
	free(rp->off);
	free(rp);
	app->ses.src_state[id] = NULL;
}

/*
 * Target t, pair k of the P that send replay id: the frames whose 5-tuple
 * falls to it, each at its offset in TSC cycles; unpaced (the schedule
 * times it); its quota every loop's frames of it.
 */
static int
replay_attach(struct sl_app *app, struct sl_target *t, uint16_t id, uint64_t k, uint64_t P)
{
	const struct sl_replay_plan *rp = app->ses.src_state[id];
	struct sl_target_replay *tr = calloc(1, sizeof(*tr));
	uint64_t hz = sl_tsc_hz();
	uint32_t n = 0;

	if (tr == NULL)
		return -ENOMEM;
	t->src_state = tr;
	for (uint32_t i = 0; i < rp->r->nb; i++)
		n += sl_replay_share(rp->r, i, (uint32_t)P) == k;
	tr->idx = malloc(RTE_MAX(n, 1u) * sizeof(*tr->idx));
	tr->due = malloc(RTE_MAX(n, 1u) * sizeof(*tr->due));
	if (tr->idx == NULL || tr->due == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < rp->r->nb; i++)
		if (sl_replay_share(rp->r, i, (uint32_t)P) == k) {
			tr->idx[tr->nb] = i;
			tr->due[tr->nb++] = sl_us_tsc(rp->off[i] / 1000, hz) +
					     (rp->off[i] % 1000) * hz / 1000000000u;
		}
	tr->r = rp->r;
	tr->period_tsc = sl_us_tsc(rp->period / 1000, hz) +
			 (rp->period % 1000) * hz / 1000000000u;
	tr->top = rp->top;
	tr->sign = rp->sign;
	t->quota = n == 0 ? 0 : rp->loops == 0 ? UINT64_MAX : (uint64_t)n * rp->loops;
	t->sig_mix = tr->sign ? 3 : 1;
	sl_pacer_init(&t->pacer, &(struct sl_rate){ SL_RATE_NONE, 0 });
	return 0;
}

static void
replay_detach(struct sl_target *t)
{
	struct sl_target_replay *tr = t->src_state;

	if (tr == NULL)
		return;
	free(tr->idx);
	free(tr->due);
	free(tr);
	t->src_state = NULL;
}

/*
 * A replay's burst: its frames whose time has come (all, at top speed), at
 * most the burst size and what is left of the quota, copied into mbufs of
 * its pool, signed where asked and possible (marked in hash.usr, for the
 * signed count). Returns as source.h's burst.
 */
static int
replay_burst(struct sl_worker *w, struct sl_target *t, uint64_t tsc)
{
	struct sl_target_replay *rp = t->src_state;
	struct rte_mbuf **pkts = t->pending + t->pend_n;
	uint16_t n = w->burst, k;
	uint32_t pos = rp->pos;
	uint64_t loop = rp->loop, bytes = 0, words[2];

	if (t->quota != UINT64_MAX)
		n = (uint16_t)RTE_MIN((uint64_t)n, t->quota);
	for (k = 0; k < n; k++) {
		if (!rp->top && tsc < t->begin_tsc + loop * rp->period_tsc + rp->due[pos])
			break;
		if (++pos == rp->nb) {
			pos = 0;
			loop++;
		}
	}
	if (k == 0)
		return 0;
	if (rte_pktmbuf_alloc_bulk(t->gen.mp, pkts, k) != 0) {
		if (!t->pool_dry)
			SL_CNT_ADD(t->pool_empty, 1);
		t->pool_dry = true;
		return -1;
	}
	t->pool_dry = false;
	for (uint16_t j = 0; j < k; j++) {
		bool sig = false;

		if (rp->sign) {
			sl_sig_words(t->stream, t->gen.producer, t->gen.run, rp->seq, tsc, &words[0],
				     &words[1]);
			sig = sl_replay_fill(rp->r, rp->idx[rp->pos], pkts[j], words);
			rp->seq += sig;
		} else {
			sl_replay_fill(rp->r, rp->idx[rp->pos], pkts[j], NULL);
		}
		pkts[j]->hash.usr = sig;
		bytes += pkts[j]->pkt_len;
		if (++rp->pos == rp->nb) {
			rp->pos = 0;
			rp->loop++;
		}
	}
	t->pend_n += k;
	t->pend_bytes += bytes;
	if (t->quota != UINT64_MAX)
		t->quota -= k;
	return k;
}

/* Released from a pause: its schedule moves by the pause. */
static void
replay_resume(struct sl_target *t, uint64_t paused)
{
	t->begin_tsc += paused;
	if (t->end_tsc != 0)
		t->end_tsc += paused;
}

const struct sl_source sl_source_replay = {
	.name = "replay",
	.claims = replay_claims,
	.load = replay_load,
	.forget = replay_forget,
	.attach = replay_attach,
	.detach = replay_detach,
	.burst = replay_burst,
	.resume = replay_resume,
	.paced = false,
	.own_pool = true,
};
