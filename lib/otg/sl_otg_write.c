/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A configuration written as an OTG Config (sl_otg.h): the model rendered,
 * so that GET /config says what runs, a flow added at the prompt included.
 * sl_otg_config() reads what this writes back to the same flows, frame for
 * frame: every value the stack would fill in differently from OTG's
 * defaults (IPv4's DF, TCP's PSH|ACK, the addresses and ports) is written.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <rte_common.h>
#include <rte_ether.h>

#include "sl_otg.h"
#include "sl_otg_map.h"
#include "sl_stack.h"

/* Why a flow has no OTG form: a non-zero return of the builders below. */
#define NO_FORM 1

/*
 * Port p's name: its own, else port-P as the API names it, else (another
 * port was given that name) port-P-K, the first K no port has.
 */
static const char *
port_name(const struct sl_config *c, uint16_t p, char buf[24])
{
	if (c->pn[p].name[0] != '\0')
		return c->pn[p].name;
	for (unsigned int k = 0;; k++) {
		bool taken = false;

		if (k == 0)
			snprintf(buf, 24, "port-%u", p);
		else
			snprintf(buf, 24, "port-%u-%u", p, k);
		for (uint16_t q = 0; q < SL_MAX_PORTS && !taken; q++)
			taken = strcmp(c->pn[q].name, buf) == 0;
		if (!taken)
			return buf;
	}
}

/* A value of a field: a number, or an address as text. */
static json_t *
val_json(const char *field, const char *text)
{
	unsigned long v;
	char *end;

	if (strcmp(field, "src") == 0 || strcmp(field, "dst") == 0) {
		if (strchr(text, ':') != NULL || strchr(text, '.') != NULL)
			return json_string(text);
	}
	v = strtoul(text, &end, 0);
	return json_integer((json_int_t)v);
}

static json_t *
pat_value(json_t *v)
{
	return json_pack("{s:s, s:o}", "choice", "value", "value", v);
}

/* An address's text for the low 32 bits @p low on top of @p base's high bytes. */
static json_t *
addr_low(const char *base, uint32_t low)
{
	char txt[INET6_ADDRSTRLEN];
	struct rte_ether_addr mac;
	struct in6_addr a6;
	struct in_addr a4;

	if (inet_pton(AF_INET, base, &a4) == 1) {
		a4.s_addr = htonl(low);
		inet_ntop(AF_INET, &a4, txt, sizeof(txt));
	} else if (inet_pton(AF_INET6, base, &a6) == 1) {
		uint32_t be = htonl(low);

		memcpy(a6.s6_addr + 12, &be, 4);
		inet_ntop(AF_INET6, &a6, txt, sizeof(txt));
	} else if (rte_ether_unformat_addr(base, &mac) == 0) {
		mac.addr_bytes[2] = (uint8_t)(low >> 24);
		mac.addr_bytes[3] = (uint8_t)(low >> 16);
		mac.addr_bytes[4] = (uint8_t)(low >> 8);
		mac.addr_bytes[5] = (uint8_t)low;
		snprintf(txt, sizeof(txt), RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&mac));
	} else {
		return json_integer(low);
	}
	return json_string(txt);
}

/*
 * A field engine's pattern in OTG's words, for a field of a header of
 * @p kind; @p base is the field's value in the stack (an address: its high
 * bytes), NULL for a number. NULL: no form (random), or out of memory
 * (*nomem).
 */
static json_t *
pat_of(const struct sl_field_conf *fc, const char *kind, const char *base, bool *nomem)
{
	/* A step is an address too, of zero high bytes: 0.0.0.2, ::2, 00:00:00:00:00:02. */
	const char *zero = base == NULL ? NULL : strcmp(kind, "ipv4") == 0 ? "0.0.0.0" :
			   strcmp(kind, "ipv6") == 0 ? "::" : "00:00:00:00:00:00";
	json_t *o;

#define V(x) (base != NULL ? addr_low(base, x) : json_integer(x))
#define STEP(x) (zero != NULL ? addr_low(zero, x) : json_integer(x))
	switch (fc->mode) {
	case SL_FIELD_INC:
	case SL_FIELD_DEC: {
		const char *ch = fc->mode == SL_FIELD_INC ? "increment" : "decrement";

		o = json_pack("{s:s, s:{s:o, s:o, s:I}}", "choice", ch, ch, "start", V(fc->start),
			      "step", STEP(fc->step != 0 ? fc->step : 1), "count",
			      (json_int_t)fc->count);
		break;
	}
	case SL_FIELD_LIST: {
		json_t *a = json_array();

		for (uint16_t i = 0; a != NULL && i < fc->nb_list; i++)
			json_array_append_new(a, V(fc->list[i]));
		o = json_pack("{s:s, s:o}", "choice", "values", "values", a);
		break;
	}
	default:
		return NULL; /* random: the models (1.3.0) have no such pattern */
	}
#undef V
#undef STEP
	*nomem |= o == NULL;
	return o;
}

/* One header of a stack, rendered: the OTG object of its kind. */
struct hdr_out {
	const struct sl_otg_hmap *m;
	json_t *fields;    /* the kind's object: {field: pattern} */
	json_t *prio;      /* IPv4's priority: {"choice": ..., ...}, built as given */
	uint32_t given;    /* our fields given a value or a pattern (bit: index in m) */
	bool frag, flags;  /* IPv4's flag bits given; TCP's control bits given */
};

/* Put @p pat at our field @p f of header @p h; NO_FORM if OTG has no place for it. */
static int
put_field(struct hdr_out *h, const char *f, json_t *pat)
{
	static const struct { const char *ours, *choice, *otg; } prio[] = {
		{ "tos", "raw", NULL }, { "dscp", "dscp", "phb" }, { "ecn", "dscp", "ecn" },
		{ "prec", "tos", "precedence" }, { "lowdelay", "tos", "delay" },
		{ "thru", "tos", "throughput" }, { "rel", "tos", "reliability" },
		{ "cost", "tos", "monetary" }, { "tosmbz", "tos", "unused" },
	};
	const char *otg = sl_otg_field_otg(h->m, f);

	if (otg != NULL) {
		json_object_set_new(h->fields, otg, pat);
		return 0;
	}
	if (strcmp(h->m->ours, "ipv4") == 0) {
		for (size_t i = 0; i < RTE_DIM(prio); i++) {
			const char *ch;

			if (strcmp(prio[i].ours, f) != 0)
				continue;
			ch = json_string_value(json_object_get(h->prio, "choice"));
			if (ch != NULL && strcmp(ch, prio[i].choice) != 0)
				break; /* two ways of the byte at once */
			json_object_set_new(h->prio, "choice", json_string(prio[i].choice));
			if (prio[i].otg == NULL)
				json_object_set_new(h->prio, "raw", pat);
			else if (json_object_get(h->prio, prio[i].choice) != NULL)
				json_object_set_new(json_object_get(h->prio, prio[i].choice),
						    prio[i].otg, pat);
			else
				json_object_set_new(h->prio, prio[i].choice,
						    json_pack("{s:o}", prio[i].otg, pat));
			return 0;
		}
	}
	json_decref(pat);
	return NO_FORM;
}

/* A whole word of bits given as one value, as its OTG fields (IPv4 frag, TCP flags). */
static int
put_bits(struct hdr_out *h, const char *f, uint32_t v)
{
	static const struct { const char *word, *bit; uint8_t shift, bits; } w[] = {
		{ "frag", "rsv", 15, 1 }, { "frag", "df", 14, 1 }, { "frag", "mf", 13, 1 },
		{ "frag", "foff", 0, 13 },
		{ "flags", "cwr", 7, 1 }, { "flags", "ece", 6, 1 }, { "flags", "urgf", 5, 1 },
		{ "flags", "ackf", 4, 1 }, { "flags", "psh", 3, 1 }, { "flags", "rst", 2, 1 },
		{ "flags", "syn", 1, 1 }, { "flags", "fin", 0, 1 },
	};
	bool any = false;

	for (size_t i = 0; i < RTE_DIM(w); i++) {
		if (strcmp(w[i].word, f) != 0)
			continue;
		any = true;
		if (put_field(h, w[i].bit, pat_value(json_integer((v >> w[i].shift) &
								  ((1u << w[i].bits) - 1)))) != 0)
			return NO_FORM;
	}
	return any ? 0 : NO_FORM;
}

static bool
is_any(const char *f, const char *const *set)
{
	for (; *set != NULL; set++)
		if (strcmp(f, *set) == 0)
			return true;
	return false;
}

static const char *const frag_bits[] = { "frag", "rsv", "df", "mf", "foff", NULL };
static const char *const tcp_bits[] = { "flags", "cwr", "ece", "urgf", "ackf", "psh", "rst",
					"syn", "fin", NULL };

/* A flow's stack (and its patterns) as packet[]; NO_FORM, -ENOMEM or 0. */
static int
packet_of(const struct sl_flow_conf *f, const struct sl_hdrs *s, json_t *pk)
{
	struct hdr_out h[SL_STACK_MAX] = { 0 };
	unsigned int occ[SL_STACK_MAX];
	char text[64];
	bool nomem = false;
	int ret = 0;

	/* Each header's kind, and its occurrence of that kind (a pattern's path says it). */
	for (unsigned int i = 0; i < s->n; i++) {
		h[i].m = sl_otg_hmap_ours(sl_hdrs_kind(s, i));
		if (h[i].m == NULL)
			return NO_FORM;
		occ[i] = 1;
		for (unsigned int j = 0; j < i; j++)
			occ[i] += s->kind[j] == s->kind[i];
		h[i].fields = json_object();
		h[i].prio = json_object();
		nomem |= h[i].fields == NULL || h[i].prio == NULL;
	}
	/* The values the stack was given. */
	for (unsigned int v = 0; ret == 0 && !nomem && v < s->nb_vals; v++) {
		const char *field;
		uint8_t hi;

		if (sl_hdrs_val(s, v, &hi, &field, text, sizeof(text)) != 0) {
			ret = NO_FORM;
			break;
		}
		h[hi].frag |= is_any(field, frag_bits);
		h[hi].flags |= is_any(field, tcp_bits);
		if (strcmp(field, "csum") == 0) {
			const char *key = strcmp(h[hi].m->otg, "ipv4") == 0 ? "header_checksum" :
					  "checksum";

			json_object_set_new(h[hi].fields, key, json_pack("{s:s, s:I}", "choice",
						"custom", "custom", (json_int_t)strtoul(text, NULL, 0)));
		} else if (strcmp(field, "frag") == 0 || strcmp(field, "flags") == 0) {
			if (strcmp(h[hi].m->ours, "ipv4") != 0 && strcmp(h[hi].m->ours, "tcp") != 0)
				ret = NO_FORM;
			else
				ret = put_bits(&h[hi], field, (uint32_t)strtoul(text, NULL, 0));
		} else {
			ret = put_field(&h[hi], field, pat_value(val_json(field, text)));
		}
	}
	/*
	 * The flow's addresses and ports where the stack takes them from the
	 * flow; between devices, the addresses are the devices' (left auto).
	 */
	for (unsigned int i = 0; ret == 0 && !nomem && i < s->n; i++) {
		const char *k = h[i].m->ours, *nk = sl_hdrs_kind(s, i + 1);
		char a[INET6_ADDRSTRLEN];
		json_t *o = h[i].fields;

		if (f->src_dev[0] != '\0' && (strcmp(k, "ipv4") == 0 || strcmp(k, "ipv6") == 0))
			continue;
		if (strcmp(k, "ipv4") == 0) {
			uint32_t be = htonl(f->sc.src_ip);

			inet_ntop(AF_INET, &be, a, sizeof(a));
			if (json_object_get(o, "src") == NULL)
				json_object_set_new(o, "src", pat_value(json_string(a)));
			be = htonl(f->sc.dst_ip);
			inet_ntop(AF_INET, &be, a, sizeof(a));
			if (json_object_get(o, "dst") == NULL)
				json_object_set_new(o, "dst", pat_value(json_string(a)));
		} else if (strcmp(k, "ipv6") == 0) {
			inet_ntop(AF_INET6, f->sc.src_ip6, a, sizeof(a));
			if (json_object_get(o, "src") == NULL)
				json_object_set_new(o, "src", pat_value(json_string(a)));
			inet_ntop(AF_INET6, f->sc.dst_ip6, a, sizeof(a));
			if (json_object_get(o, "dst") == NULL)
				json_object_set_new(o, "dst", pat_value(json_string(a)));
		} else if (strcmp(k, "udp") == 0 || strcmp(k, "tcp") == 0) {
			if (json_object_get(o, "src_port") == NULL)
				json_object_set_new(o, "src_port",
						    pat_value(json_integer(f->sc.src_port)));
			/* before VXLAN and GTP-U: their ports, OTG's auto as the stack's */
			if (json_object_get(o, "dst_port") == NULL &&
			    (nk == NULL || (strcmp(nk, "vxlan") != 0 && strcmp(nk, "gtpu") != 0)))
				json_object_set_new(o, "dst_port",
						    pat_value(json_integer(f->sc.dst_port)));
		}
	}
	/* The patterns: over the value a field was given (its first value). */
	for (uint16_t i = 0; ret == 0 && !nomem && i < f->sc.nb_fields; i++) {
		const struct sl_field_conf *fc = &f->sc.fields[i];
		char kind[16], field[16];
		unsigned int nth = 0, hi;
		const char *base = NULL;
		json_t *pat, *cur;

		/* HEADER.N.FIELD, or HEADER.FIELD: the first such header's */
		if (fc->kind != SL_FIELD_PATH ||
		    (sscanf(fc->path, "%15[a-z0-9].%u.%15[a-z0-9]", kind, &nth, field) != 3 &&
		     (nth = 1, sscanf(fc->path, "%15[a-z0-9].%15[a-z0-9]", kind, field)) != 2)) {
			ret = NO_FORM;
			break;
		}
		for (hi = 0; hi < s->n; hi++)
			if (strcmp(sl_hdrs_kind(s, hi), kind) == 0 && occ[hi] == nth)
				break;
		if (hi == s->n || strcmp(field, "csum") == 0 || strcmp(field, "frag") == 0 ||
		    strcmp(field, "flags") == 0) {
			ret = NO_FORM;
			break;
		}
		h[hi].frag |= is_any(field, frag_bits);
		h[hi].flags |= is_any(field, tcp_bits);
		/* An address's high bytes: from its value in the stack (the first one). */
		cur = json_object_get(h[hi].fields, sl_otg_field_otg(h[hi].m, field) ?: "");
		if (json_is_string(json_object_get(cur, "value")))
			base = json_string_value(json_object_get(cur, "value"));
		if ((strcmp(field, "src") == 0 || strcmp(field, "dst") == 0) && base == NULL) {
			ret = NO_FORM;
			break;
		}
		pat = pat_of(fc, h[hi].m->ours, base, &nomem);
		if (pat == NULL) {
			ret = nomem ? -ENOMEM : NO_FORM;
			break;
		}
		ret = put_field(&h[hi], field, pat);
	}
	/* Where the stack fills in otherwise than OTG's defaults: IPv4's DF, TCP's flags. */
	for (unsigned int i = 0; ret == 0 && !nomem && i < s->n; i++) {
		const char *k = h[i].m->ours;
		json_t *o = h[i].fields;

		if (strcmp(k, "ipv4") == 0 && !h[i].frag)
			json_object_set_new(o, "dont_fragment", pat_value(json_integer(1)));
		if (strcmp(k, "tcp") == 0 && !h[i].flags) {
			json_object_set_new(o, "ctl_ack", pat_value(json_integer(1)));
			json_object_set_new(o, "ctl_psh", pat_value(json_integer(1)));
		}
		if (json_object_size(h[i].prio) != 0)
			json_object_set(o, "priority", h[i].prio);
	}
	for (unsigned int i = 0; ret == 0 && !nomem && i < s->n; i++) {
		json_t *o = h[i].fields;

		/* ICMP's fields are its echo message's. */
		if (strcmp(h[i].m->ours, "icmp") == 0 || strcmp(h[i].m->ours, "icmp6") == 0)
			o = json_pack("{s:s, s:O}", "choice", "echo", "echo", h[i].fields);
		if (o == NULL || json_array_append_new(pk, json_pack("{s:s, s:O}", "choice",
								      h[i].m->otg, h[i].m->otg, o)) != 0)
			nomem = true;
		if (o != h[i].fields)
			json_decref(o);
	}
	for (unsigned int i = 0; i < s->n; i++) {
		json_decref(h[i].fields);
		json_decref(h[i].prio);
	}
	return nomem ? -ENOMEM : ret;
}

/*
 * A flow without a stack (the classic headers) as the stack it is: eth,
 * vlan, ipv4 or ipv6, udp or tcp, its fields on their paths. NO_FORM for
 * what the stack cannot say the same way (a MAC's 24-bit field, --flows).
 */
static int
classic_stack(const struct sl_flow_conf *f, struct sl_flow_conf *out)
{
	static const char *const paths[SL_FIELD_KINDS] = {
		[SL_FIELD_SRC_IP] = "src", [SL_FIELD_DST_IP] = "dst",
		[SL_FIELD_SRC_PORT] = "sport", [SL_FIELD_DST_PORT] = "dport",
		[SL_FIELD_VLAN] = "id",
	};
	const struct sl_stream_conf *c = &f->sc;
	struct sl_hdrs *s = &out->sc.hdrs;
	char err[160], v[32];
	int ret = 0;

	*out = *f;
	memset(s, 0, sizeof(*s));
	if (c->flows > 1)
		return NO_FORM;
	ret |= sl_hdrs_push(s, "eth", err, sizeof(err));
	if (f->src_mac_given) {
		snprintf(v, sizeof(v), RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&c->src_mac));
		ret |= sl_hdrs_set(s, "src", v, err, sizeof(err));
	}
	if (f->dst_mac_given) {
		snprintf(v, sizeof(v), RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&c->dst_mac));
		ret |= sl_hdrs_set(s, "dst", v, err, sizeof(err));
	}
	if (c->vlan != 0) {
		ret |= sl_hdrs_push(s, "vlan", err, sizeof(err));
		snprintf(v, sizeof(v), "%u", c->vlan & 0xfff);
		ret |= sl_hdrs_set(s, "id", v, err, sizeof(err));
		snprintf(v, sizeof(v), "%u", c->vlan >> 13);
		if (c->vlan >> 12 != 0)
			ret |= sl_hdrs_set(s, "pcp", v, err, sizeof(err));
	}
	ret |= sl_hdrs_push(s, c->ipv6 ? "ipv6" : "ipv4", err, sizeof(err));
	ret |= sl_hdrs_push(s, c->tcp ? "tcp" : "udp", err, sizeof(err));
	if (ret != 0)
		return NO_FORM;
	for (uint16_t i = 0; i < c->nb_fields; i++) {
		struct sl_field_conf *fc = &out->sc.fields[i];
		const char *hdr;

		if (fc->kind >= SL_FIELD_KINDS || paths[fc->kind] == NULL)
			return NO_FORM;
		hdr = fc->kind == SL_FIELD_VLAN ? "vlan" :
		      fc->kind == SL_FIELD_SRC_PORT || fc->kind == SL_FIELD_DST_PORT ?
		      (c->tcp ? "tcp" : "udp") : (c->ipv6 ? "ipv6" : "ipv4");
		snprintf(fc->path, sizeof(fc->path), "%s.1.%s", hdr, paths[fc->kind]);
		fc->kind = SL_FIELD_PATH;
	}
	return 0;
}

static int
size_of(const struct sl_flow_conf *f, json_t *fl)
{
	const struct sl_stream_conf *c = &f->sc;
	json_t *o;

	if (!f->size_given)
		return 0; /* the smallest frame its headers fit, as a Config without size */
	if (c->size_max != 0 && c->size_step != 0)
		o = json_pack("{s:s, s:{s:i, s:i, s:i}}", "choice", "increment", "increment",
			      "start", c->size_min, "end", c->size_max, "step", c->size_step);
	else if (c->size_max != 0)
		o = json_pack("{s:s, s:{s:i, s:i}}", "choice", "random", "random", "min",
			      c->size_min, "max", c->size_max);
	else if (c->nb_sizes == 1)
		o = json_pack("{s:s, s:i}", "choice", "fixed", "fixed", c->sizes[0]);
	else {
		json_t *a = json_array();

		for (uint16_t i = 0; a != NULL && i < c->nb_sizes; i++)
			json_array_append_new(a, json_pack("{s:i, s:i}", "size", c->sizes[i],
							   "weight", c->weights[i] ?: 1));
		o = json_pack("{s:s, s:{s:s, s:o}}", "choice", "weight_pairs", "weight_pairs",
			      "choice", "custom", "custom", a);
	}
	return o == NULL || json_object_set_new(fl, "size", o) != 0 ? -ENOMEM : 0;
}

static int
rate_of(const struct sl_flow_conf *f, const struct sl_config_env *env, json_t *fl)
{
	const struct sl_rate *r = &f->rate;
	double pct;
	json_t *o;

	switch (r->unit) {
	case SL_RATE_NONE:
		return 0;
	case SL_RATE_PPS:
		o = json_pack("{s:s, s:f}", "choice", "pps", "pps", r->value);
		break;
	case SL_RATE_L2:
		o = json_pack("{s:s, s:f}", "choice", "bps", "bps", r->value);
		break;
	case SL_RATE_PCT:
		o = json_pack("{s:s, s:f}", "choice", "percentage", "percentage", r->value);
		break;
	case SL_RATE_L1:
		/* OTG's percentage is of the line, L1 */
		if (f->port >= env->nb_ports || env->port[f->port].info.speed_bps == 0)
			return NO_FORM;
		pct = r->value / (double)env->port[f->port].info.speed_bps * 100;
		if (!(pct > 0 && pct <= 100))
			return NO_FORM;
		o = json_pack("{s:s, s:f}", "choice", "percentage", "percentage", pct);
		break;
	default:
		return NO_FORM;
	}
	return o == NULL || json_object_set_new(fl, "rate", o) != 0 ? -ENOMEM : 0;
}

static int
duration_of(const struct sl_flow_conf *f, json_t *fl)
{
	json_t *o, *d = json_pack("{s:s, s:I}", "choice", "microseconds", "microseconds",
				  (json_int_t)f->delay_us);

	if (f->burst_pkts != 0) {
		if (f->count != 0 || f->duration_us != 0 || f->delay_us != 0)
			return json_decref(d), NO_FORM;
		o = json_pack("{s:s, s:{s:I, s:I, s:i, s:{s:s, s:f}}}", "choice", "burst", "burst",
			      "packets", (json_int_t)f->burst_pkts, "bursts", (json_int_t)f->bursts,
			      "gap", 12, "inter_burst_gap", "choice", "nanoseconds", "nanoseconds",
			      (double)f->burst_gap_us * 1e3);
	} else if (f->count != 0 && f->duration_us != 0) {
		return json_decref(d), NO_FORM;
	} else if (f->count != 0) {
		o = json_pack("{s:s, s:{s:I, s:i, s:O}}", "choice", "fixed_packets", "fixed_packets",
			      "packets", (json_int_t)f->count, "gap", 12, "delay", d);
	} else if (f->duration_us != 0) {
		o = json_pack("{s:s, s:{s:f, s:i, s:O}}", "choice", "fixed_seconds", "fixed_seconds",
			      "seconds", (double)f->duration_us / 1e6, "gap", 12, "delay", d);
	} else {
		o = json_pack("{s:s, s:{s:i, s:O}}", "choice", "continuous", "continuous", "gap", 12,
			      "delay", d);
	}
	json_decref(d);
	return o == NULL || json_object_set_new(fl, "duration", o) != 0 ? -ENOMEM : 0;
}

/* Is @p n a device's, a flow's or a port's name in @p c (names are unique over a Config)? */
static bool
taken(const struct sl_config *c, const char *n)
{
	char pn[24];

	if (sl_config_device_find(c, n) >= 0 || sl_config_flow_find(c, n) >= 0)
		return true;
	for (uint16_t p = 0; p < SL_MAX_PORTS; p++)
		if (strcmp(port_name(c, p, pn), n) == 0)
			return true;
	return false;
}

/*
 * The name of a device's object (its Device, address, tag): the device's
 * name and @p suffix, with '_' added while it is another device's name
 * (names are unique over a Config).
 */
static void
obj_name(const struct sl_config *c, const char *name, const char *suffix, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", name, suffix);
	for (int k = 0; k < 16 && taken(c, buf) && strlen(buf) + 1 < len; k++)
		strcat(buf, "_");
}

/*
 * Whether the reader takes flow @p fl back, alone with @p ports, into @p c's
 * settings (its table aside): a stack the prompt takes that OTG's reader
 * refuses (a GRE key, an MPLS label's s=0, a type before IP) is left out,
 * never written for a read back to refuse. 0, NO_FORM, -ENOMEM.
 */
static int
reads_back(const struct sl_config *c, const struct sl_config_env *env, json_t *ports,
	   json_t *devs, json_t *fl)
{
	struct sl_config scratch = *c;
	json_t *doc = json_pack("{s:O, s:O, s:[O]}", "ports", ports, "devices", devs, "flows", fl);
	char *t = doc != NULL ? json_dumps(doc, JSON_COMPACT) : NULL;
	struct sl_otg_err e;
	int ret;

	json_decref(doc);
	if (t == NULL)
		return -ENOMEM;
	scratch.flows = NULL; /* the table is not the scratch's: never freed here */
	scratch.nb_flows = 0;
	ret = sl_otg_config(t, strlen(t), env, &scratch, &e);
	sl_config_fini(&scratch);
	free(t);
	return ret == 0 ? 0 : ret == -ENOMEM ? -ENOMEM : NO_FORM;
}

/* One flow of the table; NO_FORM (left out), -ENOMEM or 0. */
static int
flow_of(const struct sl_config *c, const struct sl_config_env *env,
	const struct sl_flow_conf *f, json_t *ports, json_t *devs, json_t *flows)
{
	struct sl_flow_conf cl;
	const struct sl_flow_conf *g = f;
	char n1[24], n2[24];
	json_t *fl, *pk, *rx;
	int ret;

	if (f->pcap[0] != '\0' || f->port >= env->nb_ports)
		return NO_FORM; /* a replay: the models have no such flow */
	if (f->sc.hdrs.n == 0) {
		if (classic_stack(f, &cl) != 0)
			return NO_FORM;
		g = &cl;
	}
	rx = json_array();
	if (rx != NULL && f->to >= 0 && f->to < env->nb_ports)
		json_array_append_new(rx, json_string(port_name(c, (uint16_t)f->to, n2)));
	pk = json_array();
	if (f->src_dev[0] != '\0') {
		/* Between devices: their addresses by the names devices_of() gave them. */
		const char *fam = f->sc.ipv6 ? ".ipv6" : ".ipv4";
		char tn[64], rn[64];

		obj_name(c, f->src_dev, fam, tn, sizeof(tn));
		obj_name(c, f->dst_dev, fam, rn, sizeof(rn));
		json_decref(rx);
		fl = json_pack("{s:s, s:{s:s, s:{s:s, s:[s], s:[s]}}, s:o, s:{s:b}}", "name",
			       f->name, "tx_rx", "choice", "device", "device", "mode", "mesh",
			       "tx_names", tn, "rx_names", rn, "packet", pk, "metrics", "enable", 1);
	} else {
		fl = json_pack("{s:s, s:{s:s, s:{s:s, s:o}}, s:o, s:{s:b}}", "name", f->name,
			       "tx_rx", "choice", "port", "port", "tx_name",
			       port_name(c, f->port, n1), "rx_names", rx, "packet", pk, "metrics",
			       "enable", 1);
	}
	if (fl == NULL)
		return -ENOMEM;
	ret = packet_of(g, &g->sc.hdrs, pk);
	if (ret == 0)
		ret = size_of(f, fl);
	if (ret == 0)
		ret = rate_of(f, env, fl);
	if (ret == 0)
		ret = duration_of(f, fl);
	if (ret == 0)
		ret = reads_back(c, env, ports, devs, fl);
	if (ret == 0 && json_array_append(flows, fl) != 0)
		ret = -ENOMEM;
	json_decref(fl);
	return ret;
}

/* An address of a device as Device.Ipv4/Ipv6: NAME.ipv4 or NAME.ipv6 (obj_name()). */
static json_t *
address_of(const struct sl_config *c, const struct sl_dev_conf *d, bool v6)
{
	char a[INET6_ADDRSTRLEN], g[INET6_ADDRSTRLEN], m[RTE_ETHER_ADDR_FMT_SIZE], n[64];
	json_t *o;

	inet_ntop(v6 ? AF_INET6 : AF_INET, v6 ? (const void *)d->addr6 : (const void *)&d->addr4,
		  a, sizeof(a));
	inet_ntop(v6 ? AF_INET6 : AF_INET, v6 ? (const void *)d->gw6 : (const void *)&d->gw4, g,
		  sizeof(g));
	obj_name(c, d->name, v6 ? ".ipv6" : ".ipv4", n, sizeof(n));
	o = json_pack("{s:s, s:s, s:s, s:i}", "name", n, "address", a, "gateway", g, "prefix",
		      v6 ? d->prefix6 : d->prefix4);
	if (o != NULL && (v6 ? d->gw6_mac_given : d->gw4_mac_given)) {
		rte_ether_format_addr(m, sizeof(m), v6 ? &d->gw6_mac : &d->gw4_mac);
		json_object_set_new(o, "gateway_mac", json_pack("{s:s, s:s}", "choice", "value",
								"value", m));
	}
	return o;
}

/*
 * The devices as devices[]: each a Device NAME.dev with one ethernet NAME
 * (names are unique over a Config), its addresses NAME.ipv4 and NAME.ipv6,
 * its tag NAME.vlan. sl_otg_config() reads them back to the same devices.
 */
static json_t *
devices_of(const struct sl_config *c, const struct sl_config_env *env)
{
	json_t *devs = json_array();
	char pn[24], m[RTE_ETHER_ADDR_FMT_SIZE], dn[64], vn[64];

	for (uint16_t i = 0; devs != NULL && i < c->nb_devices; i++) {
		const struct sl_dev_conf *d = &c->devices[i];
		json_t *eth, *v4 = json_array(), *v6 = json_array(), *vl = json_array();

		if (d->port >= env->nb_ports || v4 == NULL || v6 == NULL || vl == NULL) {
			json_decref(v4);
			json_decref(v6);
			json_decref(vl);
			continue;
		}
		rte_ether_format_addr(m, sizeof(m), &d->mac);
		if (d->ip4)
			json_array_append_new(v4, address_of(c, d, false));
		if (d->ip6)
			json_array_append_new(v6, address_of(c, d, true));
		obj_name(c, d->name, ".vlan", vn, sizeof(vn));
		obj_name(c, d->name, ".dev", dn, sizeof(dn));
		if (d->vlan != 0)
			json_array_append_new(vl, json_pack("{s:s, s:i}", "name", vn, "id", d->vlan));
		eth = json_pack("{s:s, s:{s:s, s:s}, s:s, s:i, s:o, s:o, s:o}", "name", d->name,
				"connection", "choice", "port_name", "port_name",
				port_name(c, d->port, pn), "mac", m, "mtu", d->mtu ? d->mtu : 1500,
				"vlans", vl, "ipv4_addresses", v4, "ipv6_addresses", v6);
		if (eth == NULL || json_array_append_new(devs, json_pack("{s:s, s:[o]}", "name", dn,
									 "ethernets", eth)) != 0) {
			json_decref(devs);
			return NULL;
		}
	}
	return devs;
}

json_t *
sl_otg_write(const struct sl_config *c, const struct sl_config_env *env,
	     struct sl_otg_left *left)
{
	json_t *ports = json_array(), *flows = json_array(), *l1 = json_array();
	json_t *caps = json_array(), *devs = devices_of(c, env), *o;
	bool nomem = ports == NULL || flows == NULL || l1 == NULL || caps == NULL || devs == NULL;
	char nm[24];

	memset(left, 0, sizeof(*left));
	for (uint16_t p = 0; !nomem && p < env->nb_ports; p++) {
		const char *n = port_name(c, p, nm);

		nomem |= json_array_append_new(ports, json_pack("{s:s, s:s}", "name", n,
					       "location", env->port[p].info.name)) != 0;
		if (c->pc[p].mtu != 0)
			nomem |= json_array_append_new(l1, json_pack("{s:s+, s:[s], s:i}", "name",
						       "l1-", n, "port_names", n, "mtu",
						       c->pc[p].mtu)) != 0;
		if (c->pn[p].capture)
			nomem |= json_array_append_new(caps, json_pack("{s:s+, s:[s], s:s, s:I}",
						       "name", "cap-", n, "port_names", n, "format",
						       "pcap", "packet_size",
						       (json_int_t)c->pn[p].cap_snap)) != 0;
	}
	for (uint16_t i = 0; !nomem && i < c->nb_flows; i++) {
		int ret = flow_of(c, env, &c->flows[i], ports, devs, flows);

		if (ret == NO_FORM && left->nb++ == 0)
			snprintf(left->first, sizeof(left->first), "%s", c->flows[i].name);
		nomem |= ret < 0;
	}
	o = nomem ? NULL : json_pack("{s:O, s:O, s:O, s:O, s:O}", "ports", ports, "layer1", l1,
				     "captures", caps, "devices", devs, "flows", flows);
	json_decref(devs);
	json_decref(ports);
	json_decref(flows);
	json_decref(l1);
	json_decref(caps);
	return o;
}
