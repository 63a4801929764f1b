/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The flow table of a configuration (sl_config.h): the flows, how each is
 * built (its MACs, VLAN, sizes), its rate and count, and the streams a run
 * sends: the table's flows, or one default flow per port.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_config.h"
#include "sl_sig.h"
#include "sl_wire.h"

/* The smallest frame (with FCS) a stream's headers fit, at least 64. */
static uint16_t
min_frame(const struct sl_stream_conf *sc)
{
	int hl = sl_stream_conf_hdr_len(sc);

	return hl > 0 && hl + SL_WIRE_FCS > SL_WIRE_MIN_FRAME ? (uint16_t)(hl + SL_WIRE_FCS) :
	       SL_WIRE_MIN_FRAME;
}

/* Port pid's default flow: the template with the port's MACs and VLAN. */
void
sl_config_flow(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid,
	       struct sl_stream_conf *out)
{
	*out = c->sc;
	out->vlan = c->pc[pid].vlan;
	/* Default size: 64, or the smallest frame these headers allow. */
	if (!c->size_given && out->sizes[0] < min_frame(out))
		out->sizes[0] = min_frame(out);
	out->id = pid; /* one flow per port: its id in the signature */
	out->src_mac = env->port[pid].info.mac;
	out->dst_mac = c->peer_set[pid] ? c->peer[pid] :
		(struct rte_ether_addr){ { 0x02, 0, 0, 0, 0, (uint8_t)pid } };
}

int
sl_config_copy(struct sl_config *dst, const struct sl_config *src)
{
	struct sl_flow_conf *f = NULL;

	if (dst == src)
		return 0;
	if (src->nb_flows != 0) {
		f = malloc((size_t)src->nb_flows * sizeof(*f));
		if (f == NULL)
			return -ENOMEM;
		memcpy(f, src->flows, (size_t)src->nb_flows * sizeof(*f));
	}
	free(dst->flows);
	*dst = *src;
	dst->flows = f;
	return 0;
}

void
sl_config_fini(struct sl_config *c)
{
	free(c->flows);
	c->flows = NULL;
	c->nb_flows = 0;
}

int
sl_config_flow_find(const struct sl_config *c, const char *name)
{
	for (uint16_t i = 0; i < c->nb_flows; i++)
		if (strcmp(c->flows[i].name, name) == 0)
			return i;
	return -1;
}

int
sl_config_flow_add(struct sl_config *c, const struct sl_flow_conf *f)
{
	struct sl_flow_conf *n;

	if (c->nb_flows >= SL_CONFIG_MAX_FLOWS)
		return -ENOSPC;
	n = realloc(c->flows, ((size_t)c->nb_flows + 1) * sizeof(*n));
	if (n == NULL)
		return -ENOMEM;
	c->flows = n;
	c->flows[c->nb_flows++] = *f;
	return 0;
}

void
sl_config_flow_del(struct sl_config *c, uint16_t idx)
{
	if (idx >= c->nb_flows)
		return;
	memmove(&c->flows[idx], &c->flows[idx + 1],
		(size_t)(c->nb_flows - idx - 1) * sizeof(c->flows[0]));
	if (--c->nb_flows == 0) {
		free(c->flows);
		c->flows = NULL;
	}
}

void
sl_config_flow_init(const struct sl_config *c, struct sl_flow_conf *f, const char *name,
		    uint16_t port)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->port = port;
	f->to = -1;
	f->sc = c->sc;
	f->sc.vlan = 0;
	f->size_given = c->size_given;
}

void
sl_config_stream_name(const struct sl_config *c, uint16_t id, char *buf, size_t len)
{
	if (c->nb_flows != 0 && id < c->nb_flows)
		snprintf(buf, len, "%s", c->flows[id].name);
	else
		snprintf(buf, len, "port-%u", id);
}

/* The smallest frame (with its FCS) of stream sc that carries the signature; 0: headers refused. */
static uint16_t
signed_min(const struct sl_stream_conf *sc)
{
	int hl = sl_stream_conf_hdr_len(sc);

	return hl > 0 ? (uint16_t)(hl + SL_SIG_LEN + SL_WIRE_FCS) : 0;
}

uint16_t
sl_config_signed_min(const struct sl_config *c, const struct sl_config_env *env, uint16_t id)
{
	struct sl_stream_conf sc;

	sl_config_stream(c, env, id, &sc);
	return signed_min(&sc);
}

int
sl_config_signed_sizes(const struct sl_config *c, const struct sl_config_env *env, uint16_t id)
{
	uint16_t need, lo = UINT16_MAX, hi = 0;
	struct sl_stream_conf sc;

	if (c->sign == SL_SIGN_OFF)
		return 2;
	sl_config_stream(c, env, id, &sc);
	need = signed_min(&sc);
	if (sc.size_max != 0) {
		lo = sc.size_min;
		hi = sc.size_max;
	} else {
		for (uint16_t i = 0; i < sc.nb_sizes; i++) {
			lo = RTE_MIN(lo, sc.sizes[i]);
			hi = RTE_MAX(hi, sc.sizes[i]);
		}
	}
	return lo >= need ? 2 : hi >= need ? 1 : 0;
}

void
sl_config_stream(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
		 struct sl_stream_conf *out)
{
	const struct sl_flow_conf *f;
	uint16_t pid;

	if (c->nb_flows == 0) {
		sl_config_flow(c, env, id, out);
		out->nosig = c->sign == SL_SIGN_OFF;
		return;
	}
	f = &c->flows[id];
	pid = f->port;
	*out = f->sc;
	if (out->hdrs.n != 0) {
		/* A stack says its tags itself; by default its smallest signed frame. */
		if (!f->size_given && out->nb_sizes != 0 && out->size_max == 0)
			out->sizes[0] = RTE_MAX(out->sizes[0], signed_min(out));
	} else {
		if (out->vlan == 0 && pid < SL_MAX_PORTS)
			out->vlan = c->pc[pid].vlan;
		if (!f->size_given && out->nb_sizes != 0 && out->size_max == 0 &&
		    out->sizes[0] < min_frame(out))
			out->sizes[0] = min_frame(out);
	}
	out->id = id;
	out->nosig = c->sign == SL_SIGN_OFF;
	if (pid >= env->nb_ports)
		return; /* refused by the check */
	if (!f->src_mac_given)
		out->src_mac = env->port[pid].info.mac;
	if (!f->dst_mac_given) {
		if (c->peer_set[pid])
			out->dst_mac = c->peer[pid];
		else if (f->to >= 0 && f->to < env->nb_ports)
			out->dst_mac = env->port[f->to].info.mac;
		else
			out->dst_mac = (struct rte_ether_addr){ { 0x02, 0, 0, 0, 0, (uint8_t)pid } };
	}
	if (f->src_dev[0] != '\0')
		sl_config_flow_devices(c, env, f, out);
}

uint16_t
sl_config_port_streams(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid)
{
	uint16_t n = 0;

	if (c->nb_flows == 0)
		return pid < env->nb_ports ? 1 : 0;
	for (uint16_t i = 0; i < c->nb_flows; i++)
		n += c->flows[i].port == pid;
	return n;
}

/* Of port pid's streams without a rate (count) of their own: how many, and id's rank. */
static uint16_t
shares(const struct sl_config *c, uint16_t id, bool count, uint16_t *rank)
{
	uint16_t pid = sl_config_stream_port(c, id), n = 0;

	*rank = 0;
	if (c->nb_flows == 0)
		return 1;
	for (uint16_t i = 0; i < c->nb_flows; i++) {
		const struct sl_flow_conf *f = &c->flows[i];

		if (f->port != pid || (count ? f->count != 0 : f->rate.unit != SL_RATE_NONE))
			continue;
		if (i < id)
			(*rank)++;
		n++;
	}
	return n;
}

int
sl_config_stream_rate_n(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
			uint16_t nshare, struct sl_rate *pace, char *err, size_t len)
{
	uint16_t pid = sl_config_stream_port(c, id);
	const struct sl_rate *r = &c->pc[pid].rate;
	struct sl_stream_conf sc;
	double l1, l2;

	struct sl_rate share;

	if (c->nb_flows != 0 && c->flows[id].rate.unit != SL_RATE_NONE)
		r = &c->flows[id].rate;
	sl_config_stream(c, env, id, &sc);
	sl_stream_conf_mean_bits(&sc, &l1, &l2);
	if (r == &c->pc[pid].rate && nshare > 1 && r->unit != SL_RATE_NONE) {
		/* A share of the port's rate: resolved as what this stream sends. */
		share = *r;
		if (r->unit == SL_RATE_PCT)
			share = (struct sl_rate){ SL_RATE_L1,
				(double)env->port[pid].info.speed_bps * r->value / 100 };
		share.value /= nshare;
		r = &share;
	}
	if (sl_rate_resolve(r, (double)env->port[pid].info.speed_bps, l1, l2, pace, err, len) != 0)
		return -EINVAL;
	/* As sl_config_rate(): a made-up link speed is paced, not left to the wire. */
	if (pace->unit == SL_RATE_NONE && r->unit != SL_RATE_NONE &&
	    env->port[pid].info.speed_made_up) {
		*pace = *r;
		if (r->unit == SL_RATE_PCT)
			*pace = (struct sl_rate){ SL_RATE_L1,
				(double)env->port[pid].info.speed_bps * r->value / 100 };
	}
	return 0;
}

int
sl_config_stream_rate(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
		      struct sl_rate *pace, char *err, size_t len)
{
	uint16_t rank;

	return sl_config_stream_rate_n(c, env, id, shares(c, id, false, &rank), pace, err, len);
}

uint16_t
sl_config_port_sharing(const struct sl_config *c, uint16_t pid)
{
	uint16_t n = 0;

	if (c->nb_flows == 0)
		return 1;
	for (uint16_t i = 0; i < c->nb_flows; i++)
		n += c->flows[i].port == pid && c->flows[i].rate.unit == SL_RATE_NONE;
	return n;
}

uint64_t
sl_config_stream_count(const struct sl_config *c, const struct sl_config_env *env, uint16_t id)
{
	uint16_t rank, n;

	RTE_SET_USED(env);
	if (c->nb_flows != 0 && c->flows[id].count != 0)
		return c->flows[id].count;
	if (c->count == 0)
		return 0;
	n = shares(c, id, true, &rank);
	if (n == 0)
		return 0;
	/* A share of 0 would mean "no limit": such a stream sends nothing (the check refuses it). */
	return c->count / n + (rank < c->count % n);
}
