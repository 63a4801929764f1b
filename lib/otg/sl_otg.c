/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * OTG Config JSON into the flow table (sl_otg.h), with jansson. Each OTG
 * flow's packet becomes a header stack text (sl_stack.h): fixed values in
 * the text, varying ones (values, increment, decrement) as fields.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <jansson.h>

#include "sl_otg.h"
#include "sl_otg_map.h"
#include "sl_otg_pvt.h"

static bool
json_num_of(const json_t *v, double *out)
{
	const char *s;
	char *end;

	if (json_is_number(v)) {
		*out = json_number_value(v);
		return true;
	}
	s = json_string_value(v);
	if (s == NULL || s[0] == '\0' || strspn(s, "-+.eE0123456789") != strlen(s))
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return errno == 0 && *end == '\0' && isfinite(*out);
}

/*
 * What a field's values are: an address of its own kind (a MAC for
 * ethernet's, IPv4 or IPv6 for the IP headers' src and dst), else a JSON
 * integer: a string of another kind would mean something else.
 */
enum vkind { V_INT, V_MAC, V_IP4, V_IP6 };

static enum vkind
kind_of(const char *hdr, const char *field)
{
	bool addr = strcmp(field, "src") == 0 || strcmp(field, "dst") == 0;

	if (addr && strcmp(hdr, "eth") == 0)
		return V_MAC;
	if (addr && strcmp(hdr, "ipv4") == 0)
		return V_IP4;
	if (addr && strcmp(hdr, "ipv6") == 0)
		return V_IP6;
	return V_INT;
}

/*
 * One value: its text for the stack (the whole address), its low 32 bits
 * for the field engine, and its high bytes (a MAC's first 2, an IPv6
 * address's first 12) that a pattern cannot vary.
 */
static int
value_get(const json_t *v, enum vkind k, char *txt, size_t tlen, uint32_t *low,
	  uint8_t high[12])
{
	struct rte_ether_addr mac;
	struct in_addr a4;
	struct in6_addr a6;

	memset(high, 0, 12);
	if (k == V_INT) {
		json_int_t n;

		if (!sl_otg_int_in(v, 0, UINT32_MAX, &n))
			return -1;
		*low = (uint32_t)n;
		snprintf(txt, tlen, "%u", *low);
		return 0;
	}
	if (!json_is_string(v))
		return -1;
	if (k == V_MAC && rte_ether_unformat_addr(json_string_value(v), &mac) == 0) {
		memcpy(high, mac.addr_bytes, 2);
		*low = (uint32_t)mac.addr_bytes[2] << 24 | mac.addr_bytes[3] << 16 |
		       mac.addr_bytes[4] << 8 | mac.addr_bytes[5];
		snprintf(txt, tlen, RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&mac));
		return 0;
	}
	if (k == V_IP4 && inet_pton(AF_INET, json_string_value(v), &a4) == 1) {
		*low = ntohl(a4.s_addr);
		inet_ntop(AF_INET, &a4, txt, (socklen_t)tlen);
		return 0;
	}
	if (k == V_IP6 && inet_pton(AF_INET6, json_string_value(v), &a6) == 1) {
		uint32_t l;

		memcpy(high, a6.s6_addr, 12);
		memcpy(&l, a6.s6_addr + 12, 4);
		*low = ntohl(l);
		inet_ntop(AF_INET6, &a6, txt, (socklen_t)tlen);
		return 0;
	}
	return -1;
}

static const char *const vkind_what[] = {
	"a whole number (a JSON integer)", "a MAC (such as 02:00:00:00:00:01)",
	"an IPv4 address", "an IPv6 address",
};

/*
 * One field's pattern: a value goes into the stack (fixed), values and
 * increment/decrement into a field of the engine (and their first value
 * into the stack: an address's high bytes, which the engine does not
 * vary); auto (or nothing) leaves the stack's default.
 */
static int
pattern(const json_t *p, const char *path, const char *hdr, unsigned int nth, const char *field,
	struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const enum vkind vk = kind_of(hdr, field);
	struct sl_field_conf fc = { .kind = SL_FIELD_PATH };
	const char *choice;
	uint8_t high[12], high0[12];
	char v[80], v0[80] = "";
	const json_t *x;
	uint32_t low;

	if (!json_is_object(p))
		return sl_otg_errf(e, path, "give a pattern object ({\"choice\": \"value\", \"value\": ...})");
	if (sl_otg_opt_string(p, "choice", &choice) != 0)
		return sl_otg_errf(e, path, "choice: give a string");
	if (choice == NULL) /* a client that leaves choice out: the key says it */
		choice = json_object_get(p, "value") != NULL ? "value" :
			 json_object_get(p, "values") != NULL ? "values" :
			 json_object_get(p, "increment") != NULL ? "increment" :
			 json_object_get(p, "decrement") != NULL ? "decrement" : "auto";
	if (strcmp(choice, "auto") == 0 || strcmp(choice, "generated") == 0)
		return 0;
	if (strcmp(choice, "value") == 0) {
		if (value_get(json_object_get(p, "value"), vk, v, sizeof(v), &low, high) != 0)
			return sl_otg_errf(e, path, "value: give %s", vkind_what[vk]);
		snprintf(v0, sizeof(v0), "%s", v);
	} else {
		snprintf(fc.path, sizeof(fc.path), "%s.%u.%s", hdr, nth, field);
		if (strcmp(choice, "values") == 0) {
			x = json_object_get(p, "values");
			if (!json_is_array(x) || json_array_size(x) == 0 ||
			    json_array_size(x) > SL_FIELD_LIST_MAX)
				return sl_otg_errf(e, path, "values: give 1 to %d values", SL_FIELD_LIST_MAX);
			fc.mode = SL_FIELD_LIST;
			for (size_t i = 0; i < json_array_size(x); i++) {
				if (value_get(json_array_get(x, i), vk, v, sizeof(v),
					      &fc.list[fc.nb_list++], high) != 0)
					return sl_otg_errf(e, path, "values[%zu]: give %s", i, vkind_what[vk]);
				if (i == 0) {
					snprintf(v0, sizeof(v0), "%s", v);
					memcpy(high0, high, sizeof(high0));
				} else if (memcmp(high, high0, sizeof(high)) != 0) {
					return sl_otg_errf(e, path, "values[%zu]: the values may differ in their "
						    "low 32 bits only (the field engine varies those)", i);
				}
			}
		} else if (strcmp(choice, "increment") == 0 || strcmp(choice, "decrement") == 0) {
			const json_t *o = json_object_get(p, choice), *st, *cnt;
			uint32_t step = 1;

			if (!json_is_object(o) ||
			    value_get(json_object_get(o, "start"), vk, v0, sizeof(v0), &fc.start,
				      high) != 0)
				return sl_otg_errf(e, path, "%s.start: give %s", choice, vkind_what[vk]);
			st = json_object_get(o, "step");
			if (st != NULL && value_get(st, vk, v, sizeof(v), &step, high0) != 0)
				return sl_otg_errf(e, path, "%s.step: give %s (for an address, as an "
					    "address: 0.0.0.2)", choice, vkind_what[vk]);
			if (st != NULL && vk != V_INT && memcmp(high0, (uint8_t[12]){ 0 }, 12) != 0)
				return sl_otg_errf(e, path, "%s.step: Sluice varies an address's low 32 bits: "
					    "give a step below 2^32 (such as 00:00:00:00:01:00)", choice);
			if (st != NULL && step == 0)
				return sl_otg_errf(e, path, "%s.step: give a step of 1 or more", choice);
			json_int_t n = 1;

			cnt = json_object_get(o, "count");
			if (cnt != NULL && !sl_otg_int_in(cnt, 1, UINT32_MAX, &n))
				return sl_otg_errf(e, path, "%s.count: give a whole number, 1 or more", choice);
			fc.mode = choice[0] == 'i' ? SL_FIELD_INC : SL_FIELD_DEC;
			fc.count = (uint32_t)n;
			fc.step = step;
		} else {
			return sl_otg_errf(e, path, "choice '%s': give value, values, increment or decrement",
				    choice);
		}
		if (f->sc.nb_fields == SL_FIELD_MAX)
			return sl_otg_errf(e, path, "more than %d varying fields in one flow", SL_FIELD_MAX);
		f->sc.fields[f->sc.nb_fields++] = fc;
	}
	/* The (first) value in the stack: an address's high bytes come from it. */
	{
		char err[200];

		if (sl_hdrs_set(&f->sc.hdrs, field, v0, err, sizeof(err)) != 0)
			return sl_otg_errf(e, path, "%s", err);
	}
	return 0;
}

/*
 * Fields with no place of their own in the stack, given their model
 * default (as clients that write out every default send them): taken,
 * since the frame carries that value anyway.
 */
static bool
at_default(const char *hdr, const char *key, const json_t *v)
{
	static const struct { const char *hdr, *key; json_int_t dflt; } d[] = {
		{ "ethernet", "pfc_queue", 0 }, { "ipv6", "version", 6 },
		{ "gtpv1", "version", 1 }, { "gtpv1", "protocol_type", 1 },
		{ "gtpv1", "reserved", 0 }, { "gtpv1", "e_flag", 0 }, { "gtpv1", "s_flag", 0 },
		{ "gtpv1", "pn_flag", 0 },
	};
	const char *ch = json_string_value(json_object_get(v, "choice"));
	json_int_t n;

	if (ch != NULL && strcmp(ch, "value") != 0)
		return false;
	if (!sl_otg_int_of(json_object_get(v, "value"), &n))
		return false;
	for (size_t i = 0; i < RTE_DIM(d); i++)
		if (strcmp(d[i].hdr, hdr) == 0 && strcmp(d[i].key, key) == 0)
			return n == d[i].dflt;
	return false;
}

/*
 * IPv4's priority (Flow.Ipv4.Priority): raw (the whole TOS byte), tos
 * (RFC 791's precedence and bits) or dscp (RFC 2474's DSCP and RFC 3168's
 * ECN, the default), each field a pattern.
 */
static int
ipv4_priority(const json_t *p, const char *path, unsigned int nth, struct sl_flow_conf *f,
	      struct sl_otg_err *e)
{
	static const struct sl_otg_fmap tos[] = {
		{ "precedence", "prec" }, { "delay", "lowdelay" }, { "throughput", "thru" },
		{ "reliability", "rel" }, { "monetary", "cost" }, { "unused", "tosmbz" },
	}, dscp[] = { { "phb", "dscp" }, { "ecn", "ecn" } };
	const struct sl_otg_fmap *fm = NULL;
	const char *ch, *key;
	size_t nf = 0;
	const json_t *o, *v;
	char p2[240];

	if (!json_is_object(p) || sl_otg_opt_string(p, "choice", &ch) != 0)
		return sl_otg_errf(e, path, "give an object with choice raw, tos or dscp");
	if (ch == NULL)
		ch = "dscp";
	o = json_object_get(p, ch);
	if (strcmp(ch, "raw") == 0) {
		snprintf(p2, sizeof(p2), "%s.raw", path);
		return o != NULL ? pattern(o, p2, "ipv4", nth, "tos", f, e) : 0;
	}
	if (strcmp(ch, "tos") == 0)
		fm = tos, nf = RTE_DIM(tos);
	else if (strcmp(ch, "dscp") == 0)
		fm = dscp, nf = RTE_DIM(dscp);
	else
		return sl_otg_errf(e, path, "choice '%s': give raw, tos or dscp", ch);
	if (o != NULL && !json_is_object(o))
		return sl_otg_errf(e, path, "%s: give an object", ch);
	json_object_foreach((json_t *)o, key, v) {
		const char *ours = NULL;

		for (size_t i = 0; i < nf; i++)
			if (strcmp(key, fm[i].otg) == 0)
				ours = fm[i].ours;
		snprintf(p2, sizeof(p2), "%s.%s.%s", path, ch, key);
		if (ours == NULL)
			return sl_otg_errf(e, p2, "not a field of %s", ch);
		if (pattern(v, p2, "ipv4", nth, ours, f, e) != 0)
			return -EINVAL;
	}
	return 0;
}

/*
 * A checksum (Flow.*.Checksum): generated good (the default: computed per
 * frame), or custom, a value sent as it is in every frame. A bad one on
 * purpose is not supported.
 */
static int
checksum(const json_t *c, const char *path, const char *hdr, int k, struct sl_flow_conf *f,
	 struct sl_otg_err *e)
{
	const char *ch, *g;
	json_int_t n;
	char v[16], err[200];

	if (!json_is_object(c) || sl_otg_opt_string(c, "choice", &ch) != 0 ||
	    sl_otg_opt_string(c, "generated", &g) != 0)
		return sl_otg_errf(e, path, "give an object with choice generated or custom");
	if (ch == NULL || strcmp(ch, "generated") == 0) {
		if (g != NULL && strcmp(g, "good") != 0)
			return sl_otg_errf(e, path, "generated '%s': Sluice computes good checksums only", g);
		return 0;
	}
	if (strcmp(ch, "custom") != 0)
		return sl_otg_errf(e, path, "choice '%s': give generated or custom", ch);
	/* GRE's exists only with its C bit, which Sluice does not send. */
	if (k == 10)
		return sl_otg_errf(e, path, "custom: GRE's checksum is not supported (no C bit)");
	if (!sl_otg_int_in(json_object_get(c, "custom"), 0, 65535, &n))
		return sl_otg_errf(e, path, "custom: give 0 to 65535");
	snprintf(v, sizeof(v), "%u", (unsigned int)n);
	RTE_SET_USED(hdr);
	if (sl_hdrs_set(&f->sc.hdrs, "csum", v, err, sizeof(err)) != 0)
		return sl_otg_errf(e, path, "%s", err);
	return 0;
}

/* One header of packet[]: into the flow's stack, its fixed values, its fields. */
static int
header(const json_t *h, const char *path, unsigned int *count, struct sl_flow_conf *f,
       struct sl_otg_err *e)
{
	const char *choice = json_string_value(json_object_get(h, "choice")), *key;
	const struct sl_otg_hmap *m = NULL;
	bool frag_given = false, flags_given = false;
	const json_t *o, *v;
	char p2[200], err[200];
	int k = -1;

	for (size_t i = 0; choice != NULL && i < SL_OTG_NB_HMAPS; i++)
		if (strcmp(choice, sl_otg_hmaps[i].otg) == 0)
			m = &sl_otg_hmaps[i], k = (int)i;
	if (m == NULL)
		return sl_otg_errf(e, path, "header '%s': not supported (Sluice sends ethernet, vlan, mpls, "
			    "ipv4, ipv6, udp, tcp, icmp, icmpv6, vxlan, gre, gtpv1)",
			    choice != NULL ? choice : "(no choice)");
	o = json_object_get(h, choice);
	if (o != NULL && !json_is_object(o))
		return sl_otg_errf(e, path, "%s: give an object", choice);
	count[k]++;
	if (sl_hdrs_push(&f->sc.hdrs, m->ours, err, sizeof(err)) != 0)
		return sl_otg_errf(e, path, "%s", err);
	/* ICMP's fields sit in its echo message. */
	if ((k == 7 || k == 8) && o != NULL) {
		const char *ic = json_string_value(json_object_get(o, "choice"));

		if (ic != NULL && strcmp(ic, "echo") != 0)
			return sl_otg_errf(e, path, "%s.choice '%s': only echo is supported", choice, ic);
		if (json_object_get(o, "echo") != NULL)
			o = json_object_get(o, "echo");
	}
	json_object_foreach((json_t *)o, key, v) {
		const char *ours = NULL, *vc;

		if (strcmp(key, "choice") == 0)
			continue;
		for (int i = 0; i < (int)RTE_DIM(m->f) && m->f[i].otg != NULL; i++)
			if (strcmp(key, m->f[i].otg) == 0)
				ours = m->f[i].ours;
		snprintf(p2, sizeof(p2), "%s.%s.%s", path, choice, key);
		if (ours != NULL) {
			uint8_t nv = f->sc.hdrs.nb_vals;

			if (pattern(v, p2, m->ours, count[k], ours, f, e) != 0)
				return -EINVAL;
			/* A sub-field given a value (auto or empty gives none). */
			if (f->sc.hdrs.nb_vals != nv &&
			    (strcmp(ours, "rsv") == 0 || strcmp(ours, "df") == 0 ||
			     strcmp(ours, "mf") == 0 || strcmp(ours, "foff") == 0))
				frag_given = true;
			if (f->sc.hdrs.nb_vals != nv &&
			    (strncmp(key, "ctl_", 4) == 0 || strcmp(key, "ecn_cwr") == 0 ||
			     strcmp(key, "ecn_echo") == 0))
				flags_given = true;
			continue;
		}
		if (k == 3 && strcmp(key, "priority") == 0) {
			if (ipv4_priority(v, p2, count[k], f, e) != 0)
				return -EINVAL;
			continue;
		}
		if (strcmp(key, "checksum") == 0 || strcmp(key, "header_checksum") == 0) {
			if (checksum(v, p2, m->ours, k, f, e) != 0)
				return -EINVAL;
			continue;
		}
		if (k == 3 && strcmp(key, "options") == 0) {
			if (!json_is_array(v) || json_array_size(v) != 0)
				return sl_otg_errf(e, p2, "IPv4 options are not supported: give none");
			continue;
		}
		vc = json_string_value(json_object_get(v, "choice"));
		if (vc != NULL && (strcmp(vc, "auto") == 0 || strcmp(vc, "generated") == 0))
			continue; /* computed per frame, as asked */
		if (at_default(m->otg, key, v))
			continue; /* what the frame carries anyway */
		/* A field Sluice cannot apply is refused, never ignored. */
		if (k == 0 && strcmp(key, "pfc_queue") == 0)
			return sl_otg_errf(e, p2, "not supported: a port's frames go out on its own TX queues "
				    "(no PFC priority queue): leave pfc_queue out or auto");
		return sl_otg_errf(e, p2, "not supported: leave it out (or auto)");
	}
	/*
	 * OTG's defaults where they are not the stack's: IPv4's flags and
	 * offset 0 (the stack sets DF), TCP's control bits 0 (the stack sends
	 * PSH|ACK).
	 */
	if (k == 3 && !frag_given && sl_hdrs_set(&f->sc.hdrs, "df", "0", err, sizeof(err)) != 0)
		return sl_otg_errf(e, path, "%s", err);
	if (k == 6 && !flags_given && sl_hdrs_set(&f->sc.hdrs, "flags", "0", err, sizeof(err)) != 0)
		return sl_otg_errf(e, path, "%s", err);
	return 0;
}

/* A frame size of JSON: a whole number within what Sluice sends. */
static int
size_of(const json_t *v, uint16_t *out)
{
	json_int_t n;

	if (!sl_otg_int_in(v, SL_GEN_MIN_FRAME, SL_GEN_MAX_FRAME, &n))
		return -1;
	*out = (uint16_t)n;
	return 0;
}

/*
 * The predefined distributions of the OTG model (Flow.WeightPairs): sizes
 * with the FCS; weights as the spec gives them, the fractional ones x 40
 * (58.67 -> 2347: a cycle of 4,000 frames, within SL_GEN_MAX_ORDER; each
 * share within 0.02 % of the spec's).
 */
static const struct imix {
	const char *name;
	uint16_t size[4], weight[4];
} imixes[] = {
	{ "imix", { 64, 570, 1518 }, { 7, 4, 1 } },
	{ "ipsec_imix", { 90, 92, 594, 1418 }, { 2347, 80, 946, 627 } },
	{ "ipv6_imix", { 60, 496, 594, 1518 }, { 2347, 80, 946, 627 } },
	{ "standard_imix", { 58, 62, 594, 1518 }, { 2347, 80, 946, 627 } },
	{ "tcp_imix", { 90, 92, 594, 1518 }, { 2347, 80, 946, 627 } },
};

static int
flow_size(const json_t *s, const char *path, struct sl_flow_conf *f, struct sl_otg_err *e)
{
	struct sl_stream_conf *c = &f->sc;
	const char *ch;

	if (sl_otg_opt_string(s, "choice", &ch) != 0)
		return sl_otg_errf(e, path, "choice: give a string");
	c->nb_sizes = 0;
	c->size_min = c->size_max = c->size_step = 0;
	f->size_given = true;
	if (ch == NULL || strcmp(ch, "fixed") == 0) {
		if (size_of(json_object_get(s, "fixed"), &c->sizes[0]) != 0)
			return sl_otg_errf(e, path, "fixed: give a frame size (with the FCS), %d to %d",
				    SL_GEN_MIN_FRAME, SL_GEN_MAX_FRAME);
		c->weights[0] = 1;
		c->nb_sizes = 1;
		return 0;
	}
	if (strcmp(ch, "increment") == 0 || strcmp(ch, "random") == 0) {
		const json_t *o = json_object_get(s, ch), *st = json_object_get(o, "step");
		bool inc = ch[0] == 'i';

		if (size_of(json_object_get(o, inc ? "start" : "min"), &c->size_min) != 0 ||
		    size_of(json_object_get(o, inc ? "end" : "max"), &c->size_max) != 0 ||
		    c->size_min > c->size_max)
			return sl_otg_errf(e, path, "%s: give %s <= %s, frame sizes %d to %d", ch,
				    inc ? "start" : "min", inc ? "end" : "max", SL_GEN_MIN_FRAME,
				    SL_GEN_MAX_FRAME);
		if (inc) {
			json_int_t n = 1;

			if (st != NULL && !sl_otg_int_in(st, 1, SL_GEN_MAX_FRAME, &n))
				return sl_otg_errf(e, path, "increment.step: give a whole number, 1 or more");
			c->size_step = (uint16_t)n;
		}
		return 0;
	}
	if (strcmp(ch, "weight_pairs") == 0) {
		const json_t *wp = json_object_get(s, ch), *o = json_object_get(wp, "custom");
		const char *pre;
		double wmin = 0;
		bool whole = true;

		if (sl_otg_opt_string(wp, "choice", &pre) != 0)
			return sl_otg_errf(e, path, "weight_pairs.choice: give a string");
		if (pre != NULL && strcmp(pre, "predefined") == 0) {
			const json_t *pd = json_object_get(wp, "predefined");
			const char *name = json_string_value(pd);
			const struct imix *m = NULL;

			if (pd != NULL && name == NULL)
				return sl_otg_errf(e, path, "weight_pairs.predefined: give a name (a string)");
			if (name == NULL)
				name = "imix"; /* the spec's default */
			for (size_t i = 0; i < RTE_DIM(imixes); i++)
				if (strcmp(imixes[i].name, name) == 0)
					m = &imixes[i];
			if (m == NULL)
				return sl_otg_errf(e, path, "weight_pairs.predefined '%s': give imix, "
					    "ipsec_imix, ipv6_imix, standard_imix or tcp_imix", name);
			if (m->size[0] < SL_GEN_MIN_FRAME)
				return sl_otg_errf(e, path, "weight_pairs.predefined '%s': its %u-byte frames "
					    "are below Ethernet's %d: give weight_pairs.custom", name,
					    m->size[0], SL_GEN_MIN_FRAME);
			for (c->nb_sizes = 0; c->nb_sizes < 4 && m->size[c->nb_sizes] != 0;
			     c->nb_sizes++) {
				c->sizes[c->nb_sizes] = m->size[c->nb_sizes];
				c->weights[c->nb_sizes] = m->weight[c->nb_sizes];
			}
			return 0;
		}
		if (!json_is_array(o) || json_array_size(o) == 0 ||
		    json_array_size(o) > SL_GEN_MAX_SIZES)
			return sl_otg_errf(e, path, "weight_pairs.custom: give 1 to %d pairs",
				    SL_GEN_MAX_SIZES);
		/*
		 * Weights are numbers above 0: whole ones (up to 4096) taken as
		 * they are, as --size 64:7,... takes them; otherwise scaled to
		 * whole ones, the smallest 100.
		 */
		for (size_t i = 0; i < json_array_size(o); i++) {
			double w = 0;

			if (!json_num_of(json_object_get(json_array_get(o, i), "weight"), &w) ||
			    !(w > 0))
				return sl_otg_errf(e, path, "weight_pairs.custom[%zu].weight: give a number "
					    "above 0", i);
			wmin = i == 0 || w < wmin ? w : wmin;
			whole &= w == floor(w) && w <= 4096;
		}
		if (whole)
			wmin = 100;
		for (size_t i = 0; i < json_array_size(o); i++) {
			const json_t *pr = json_array_get(o, i);
			double w = 0;

			json_num_of(json_object_get(pr, "weight"), &w);
			w = w / wmin * 100;

			if (size_of(json_object_get(pr, "size"), &c->sizes[i]) != 0)
				return sl_otg_errf(e, path, "weight_pairs.custom[%zu].size: give a frame size "
					    "%d to %d", i, SL_GEN_MIN_FRAME, SL_GEN_MAX_FRAME);
			if (w > 4096)
				return sl_otg_errf(e, path, "weight_pairs.custom[%zu].weight: more than 40 times "
					    "the smallest weight", i);
			c->weights[i] = (uint16_t)(w + 0.5);
		}
		c->nb_sizes = (uint16_t)json_array_size(o);
		return 0;
	}
	return sl_otg_errf(e, path, "choice '%s': give fixed, increment, random or weight_pairs", ch);
}

static int
flow_rate(const json_t *r, const char *path, struct sl_flow_conf *f, struct sl_otg_err *e)
{
	static const struct { const char *k; enum sl_rate_unit u; double mul; } units[] = {
		{ "pps", SL_RATE_PPS, 1 }, { "bps", SL_RATE_L2, 1 }, { "kbps", SL_RATE_L2, 1e3 },
		{ "mbps", SL_RATE_L2, 1e6 }, { "gbps", SL_RATE_L2, 1e9 },
		{ "percentage", SL_RATE_PCT, 1 },
	};
	const char *ch;

	if (sl_otg_opt_string(r, "choice", &ch) != 0)
		return sl_otg_errf(e, path, "choice: give a string");
	if (ch == NULL)
		ch = "pps";
	for (size_t i = 0; i < RTE_DIM(units); i++) {
		const json_t *v = json_object_get(r, units[i].k);
		double x = 0;

		if (strcmp(ch, units[i].k) != 0)
			continue;
		if (v == NULL)
			return 0; /* the default: the port's rate, shared */
		if (!json_num_of(v, &x) || !(x > 0) || !isfinite(x * units[i].mul) ||
		    (units[i].u == SL_RATE_PCT && x > 100))
			return sl_otg_errf(e, path, "%s: give a number above 0%s", ch,
				    units[i].u == SL_RATE_PCT ? " and at most 100" : "");
		f->rate = (struct sl_rate){ units[i].u, x * units[i].mul };
		return 0;
	}
	return sl_otg_errf(e, path, "choice '%s': give pps, bps, kbps, mbps, gbps or percentage", ch);
}

/* A gap other than the spec's default, 12 bytes (which clients always send). */
static bool
gap_given(const json_t *o)
{
	json_int_t g;

	return json_object_get(o, "gap") != NULL &&
	       !(sl_otg_int_of(json_object_get(o, "gap"), &g) && g == 12);
}

/*
 * Flow.Delay (of continuous, fixed_packets and fixed_seconds): the flow
 * starts this long after the run; in bytes, the time they take at the
 * port's line rate. Kept in whole microseconds (sl_flow_conf.delay_us).
 */
static int
flow_delay(const json_t *o, const char *path, const struct sl_config_env *env,
	   struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const json_t *d = json_object_get(o, "delay");
	const char *ch;
	double x = 0, us;

	if (d == NULL)
		return 0;
	if (!json_is_object(d) || sl_otg_opt_string(d, "choice", &ch) != 0)
		return sl_otg_errf(e, path, "delay: give an object ({\"choice\": \"microseconds\", ...})");
	if (ch == NULL)
		ch = "bytes"; /* the spec's default */
	if (strcmp(ch, "bytes") != 0 && strcmp(ch, "nanoseconds") != 0 &&
	    strcmp(ch, "microseconds") != 0)
		return sl_otg_errf(e, path, "delay.choice '%s': give bytes, nanoseconds or microseconds", ch);
	if (json_object_get(d, ch) != NULL &&
	    (!json_num_of(json_object_get(d, ch), &x) || !(x >= 0)))
		return sl_otg_errf(e, path, "delay.%s: give a number, 0 or more", ch);
	if (ch[0] == 'b') {
		uint64_t bps = env->port[f->port].info.speed_bps;

		if (x > 0 && bps == 0)
			return sl_otg_errf(e, path, "delay.bytes: port %u's line rate is unknown: give the "
				    "delay in nanoseconds or microseconds", f->port);
		us = x > 0 ? x * 8 / (double)bps * 1e6 : 0;
	} else {
		us = ch[0] == 'n' ? x / 1e3 : x;
	}
	if (us > (double)SL_MAX_SECONDS * 1e6)
		return sl_otg_errf(e, path, "delay: at most %d s", SL_MAX_SECONDS);
	f->delay_us = (uint64_t)(us + 0.5);
	return 0;
}

static int
flow_duration(const json_t *d, const char *path, const struct sl_config_env *env,
	      struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const char *ch;
	const json_t *o;

	if (sl_otg_opt_string(d, "choice", &ch) != 0)
		return sl_otg_errf(e, path, "choice: give a string");
	if (ch == NULL)
		ch = "continuous";
	o = json_object_get(d, ch);
	if (strcmp(ch, "burst") != 0 && flow_delay(o, path, env, f, e) != 0)
		return -EINVAL;
	if (strcmp(ch, "continuous") == 0)
		return 0;
	if (strcmp(ch, "fixed_packets") == 0) {
		json_int_t n;

		if (!sl_otg_int_in(json_object_get(o, "packets"), 1, INT64_MAX, &n))
			return sl_otg_errf(e, path, "fixed_packets.packets: give a whole number, 1 or more");
		f->count = (uint64_t)n;
		if (gap_given(o))
			sl_otg_warnf(e, path, "fixed_packets.gap: the rate sets the gap here: ignored");
		return 0;
	}
	if (strcmp(ch, "fixed_seconds") == 0) {
		double s = 0;

		json_num_of(json_object_get(o, "seconds"), &s);
		if (!(s >= 1e-6) || s > SL_MAX_SECONDS)
			return sl_otg_errf(e, path, "fixed_seconds.seconds: give 0.000001 <= s <= %d",
				    SL_MAX_SECONDS);
		f->duration_us = (uint64_t)(s * 1e6 + 0.5);
		return 0;
	}
	if (strcmp(ch, "burst") == 0) {
		const json_t *g = json_object_get(o, "inter_burst_gap");
		const char *gc = json_string_value(json_object_get(g, "choice"));
		json_int_t n = 0, b = 0;
		double ns = 0;

		json_num_of(json_object_get(g, "nanoseconds"), &ns);
		if (!sl_otg_int_in(json_object_get(o, "packets"), 1, UINT32_MAX, &n) ||
		    (json_object_get(o, "bursts") != NULL &&
		     !sl_otg_int_in(json_object_get(o, "bursts"), 0, UINT32_MAX, &b)))
			return sl_otg_errf(e, path, "burst: give packets >= 1 and bursts >= 0 (0: no limit)");
		if (gc != NULL && strcmp(gc, "nanoseconds") != 0)
			return sl_otg_errf(e, path, "burst.inter_burst_gap: give it in nanoseconds");
		if (ns < 1000 || ns > (double)SL_MAX_SECONDS * 1e9)
			return sl_otg_errf(e, path, "burst.inter_burst_gap.nanoseconds: give 1000 ns or more");
		f->burst_pkts = (uint32_t)n;
		f->bursts = (uint32_t)b;
		f->burst_gap_us = (uint64_t)(ns / 1e3 + 0.5);
		if (gap_given(o))
			sl_otg_warnf(e, path, "burst.gap: the rate sets the gap within a burst: ignored");
		return 0;
	}
	return sl_otg_errf(e, path, "choice '%s': give fixed_packets, fixed_seconds, burst or continuous",
		    ch);
}

static int
one_flow(const json_t *fl, size_t idx, const json_t *ports, const struct sl_config_env *env,
	 const struct sl_config *base, const struct sl_config *cand,
	 const struct sl_otg_dev_names *names, struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const json_t *dv = NULL;
	const char *name = json_string_value(json_object_get(fl, "name"));
	const json_t *trx = json_object_get(fl, "tx_rx"), *pt, *pk, *rx;
	unsigned int count[SL_OTG_NB_HMAPS] = { 0 };
	char path[96], p2[128];
	const char *tx;
	uint16_t pid;

	snprintf(path, sizeof(path), "flows[%zu]", idx);
	/* A name users can type at the prompt and in a label: flow add's charset. */
	if (name == NULL || name[0] == '\0' || strlen(name) >= SL_FLOW_NAME_MAX ||
	    strcmp(name, "all") == 0 ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
	    strlen(name))
		return sl_otg_errf(e, path, "name: give 1 to %d letters, digits, '-', '_' or '.' (not "
			    "'all')", SL_FLOW_NAME_MAX - 1);
	pt = json_object_get(trx, "port");
	if (strcmp(json_string_value(json_object_get(trx, "choice")) ?: "", "device") == 0 ||
	    (pt == NULL && json_object_get(trx, "device") != NULL)) {
		/* Between devices: the port is the sender's (sl_otg_flow_devices()). */
		dv = json_object_get(trx, "device");
		pt = NULL;
		sl_config_flow_init(base, f, name, 0);
		goto endpoints;
	}
	if (pt == NULL || (json_object_get(trx, "choice") != NULL &&
			   strcmp(json_string_value(json_object_get(trx, "choice")) ?: "", "port"))) {
		snprintf(p2, sizeof(p2), "%s.tx_rx", path);
		return sl_otg_errf(e, p2, "give tx_rx.port or tx_rx.device");
	}
	tx = json_string_value(json_object_get(pt, "tx_name"));
	snprintf(p2, sizeof(p2), "%s.tx_rx.port.tx_name", path);
	if (tx == NULL)
		return sl_otg_errf(e, p2, "give the sending port's name");
	if (sl_otg_port_of(ports, env, tx, p2, &pid, e) != 0)
		return -EINVAL;
	sl_config_flow_init(base, f, name, pid);
endpoints:
	/* The options' template gives defaults only: no field of its own, one flow. */
	f->sc.nb_fields = 0;
	f->sc.flows = 1;
	rx = pt != NULL ? json_object_get(pt, "rx_names") : NULL;
	if (rx != NULL && (!json_is_array(rx) || json_array_size(rx) > 1)) {
		snprintf(p2, sizeof(p2), "%s.tx_rx.port.rx_names", path);
		return sl_otg_errf(e, p2, "give one receiving port's name (Sluice expects a flow at one "
			    "port)");
	}
	if (json_is_array(rx) && json_array_size(rx) > 0)
		rx = json_array_get(rx, 0);
	else
		rx = pt != NULL ? json_object_get(pt, "rx_name") : NULL;
	if (rx != NULL && !json_is_string(rx)) {
		snprintf(p2, sizeof(p2), "%s.tx_rx.port.rx_names", path);
		return sl_otg_errf(e, p2, "give a port's name (a string)");
	}
	if (json_is_string(rx)) {
		uint16_t r;

		snprintf(p2, sizeof(p2), "%s.tx_rx.port.rx_names", path);
		if (sl_otg_port_of(ports, env, json_string_value(rx), p2, &r, e) != 0)
			return -EINVAL;
		f->to = (int16_t)r;
	}
	pk = json_object_get(fl, "packet");
	memset(&f->sc.hdrs, 0, sizeof(f->sc.hdrs));
	if (pk == NULL || json_array_size(pk) == 0) {
		char err[8];

		sl_stack_parse("eth/ipv4/udp", &f->sc.hdrs, err, sizeof(err));
	} else {
		for (size_t i = 0; i < json_array_size(pk); i++) {
			snprintf(p2, sizeof(p2), "%s.packet[%zu]", path, i);
			if (header(json_array_get(pk, i), p2, count, f, e) != 0)
				return -EINVAL;
		}
	}
	if (dv != NULL || pt == NULL) {
		char text[SL_STACK_TEXT_MAX];
		bool has6, has4;

		sl_stack_str(&f->sc.hdrs, text, sizeof(text));
		has6 = strstr(text, "ipv6") != NULL;
		has4 = strstr(text, "ipv4") != NULL;
		f->sc.ipv6 = has6 && !has4;
		snprintf(p2, sizeof(p2), "%s.tx_rx.device", path);
		if (sl_otg_flow_devices(dv, p2, cand, names, f, e) != 0)
			return -EINVAL;
		if ((f->sc.ipv6 && has4 && !has6) || (!f->sc.ipv6 && has6 && !has4)) {
			snprintf(p2, sizeof(p2), "%s.packet", path);
			return sl_otg_errf(e, p2, "its IP header is %s, the devices' addresses named "
					   "are %s: give the header of their family",
					   has6 ? "ipv6" : "ipv4", f->sc.ipv6 ? "IPv6" : "IPv4");
		}
	}
	f->size_given = false;
	if (json_object_get(fl, "size") != NULL) {
		snprintf(p2, sizeof(p2), "%s.size", path);
		if (flow_size(json_object_get(fl, "size"), p2, f, e) != 0)
			return -EINVAL;
	}
	if (json_object_get(fl, "rate") != NULL) {
		snprintf(p2, sizeof(p2), "%s.rate", path);
		if (flow_rate(json_object_get(fl, "rate"), p2, f, e) != 0)
			return -EINVAL;
	}
	if (json_object_get(fl, "duration") != NULL) {
		snprintf(p2, sizeof(p2), "%s.duration", path);
		if (flow_duration(json_object_get(fl, "duration"), p2, env, f, e) != 0)
			return -EINVAL;
	}
	return 0;
}

/*
 * captures[]: the ports whose frames the receive side keeps, as pcap, the
 * first ones (no overwrite), whole or cut at packet_size; no filter.
 */
static int
captures(const json_t *cs, const json_t *ports, const struct sl_config_env *env,
	 struct sl_port_name *pn, struct sl_otg_err *e)
{
	char path[96];

	if (cs != NULL && !json_is_array(cs))
		return sl_otg_errf(e, "captures", "give an array");
	for (size_t i = 0; i < json_array_size(cs); i++) {
		const json_t *c = json_array_get(cs, i), *names = json_object_get(c, "port_names");
		const json_t *ov = json_object_get(c, "overwrite"), *fl = json_object_get(c, "filters");
		const char *fmt = json_string_value(json_object_get(c, "format"));
		json_int_t snap = 0;

		snprintf(path, sizeof(path), "captures[%zu]", i);
		if (!json_is_object(c) || !json_is_array(names) || json_array_size(names) == 0)
			return sl_otg_errf(e, path, "give port_names (1 or more ports)");
		if (fmt != NULL && strcmp(fmt, "pcap") != 0)
			return sl_otg_errf(e, path, "format %s: Sluice writes pcap (nanosecond stamps): give "
				    "pcap", fmt);
		if (json_array_size(fl) != 0)
			return sl_otg_errf(e, path, "filters: not supported: Sluice keeps every frame a "
				    "port receives (filter the pcap afterwards, e.g. with tshark -Y)");
		if (json_object_get(c, "packet_size") != NULL &&
		    !sl_otg_int_in(json_object_get(c, "packet_size"), 0, 65535, &snap))
			return sl_otg_errf(e, path, "packet_size: give 0 (whole frames) to 65535 bytes");
		if (json_is_true(ov))
			sl_otg_warnf(e, path, "overwrite: Sluice keeps the first %u frames (%u MB) of each "
			      "port, never overwrites", SL_OTG_CAPTURE_FRAMES,
			      SL_OTG_CAPTURE_BYTES >> 20);
		for (size_t k = 0; k < json_array_size(names); k++) {
			const char *n = json_string_value(json_array_get(names, k));
			char p2[160];
			uint16_t pid;

			snprintf(p2, sizeof(p2), "%s.port_names[%zu]", path, k);
			if (n == NULL)
				return sl_otg_errf(e, p2, "give a port name");
			if (sl_otg_port_of(ports, env, n, p2, &pid, e) != 0)
				return -EINVAL;
			pn[pid].capture = true;
			pn[pid].cap_snap = (uint32_t)snap;
		}
	}
	return 0;
}

/*
 * layer1[]: each named port's MTU (checked against what the port accepts);
 * its speed checked against the port's own (the NIC's, or --sim's), which
 * Sluice does not set: a warning when they differ. The rest is a warning.
 */
static int
layer1(const json_t *l1, const json_t *ports, const struct sl_config_env *env,
       struct sl_config *c, struct sl_otg_err *e)
{
	static const struct { const char *name; double bps; } speeds[] = {
		{ "speed_10_fd_mbps", 1e7 }, { "speed_10_hd_mbps", 1e7 },
		{ "speed_100_fd_mbps", 1e8 }, { "speed_100_hd_mbps", 1e8 },
		{ "speed_1_gbps", 1e9 }, { "speed_10_gbps", 1e10 }, { "speed_25_gbps", 25e9 },
		{ "speed_40_gbps", 4e10 }, { "speed_50_gbps", 5e10 }, { "speed_100_gbps", 1e11 },
		{ "speed_200_gbps", 2e11 }, { "speed_400_gbps", 4e11 }, { "speed_800_gbps", 8e11 },
	};
	static const char *const known[] = { "name", "port_names", "speed", "mtu" };
	char path[96];

	if (l1 != NULL && !json_is_array(l1))
		return sl_otg_errf(e, "layer1", "give an array");
	for (size_t i = 0; i < json_array_size(l1); i++) {
		const json_t *o = json_array_get(l1, i), *pn = json_object_get(o, "port_names");
		const char *sp = json_string_value(json_object_get(o, "speed"));
		const char *k;
		json_int_t mtu = 0;
		double bps = 0;
		json_t *v;

		snprintf(path, sizeof(path), "layer1[%zu]", i);
		if (!json_is_object(o) || !json_is_array(pn) || json_array_size(pn) == 0)
			return sl_otg_errf(e, path, "give port_names (1 or more ports)");
		if (json_object_get(o, "mtu") != NULL &&
		    !sl_otg_int_in(json_object_get(o, "mtu"), 68, 9000, &mtu))
			return sl_otg_errf(e, path, "mtu: give 68 to 9000");
		for (size_t s = 0; sp != NULL && s < RTE_DIM(speeds); s++)
			if (strcmp(sp, speeds[s].name) == 0)
				bps = speeds[s].bps;
		if (sp != NULL && bps == 0)
			return sl_otg_errf(e, path, "speed '%s': give one of the spec's (speed_10_gbps, ...)",
				    sp);
		json_object_foreach((json_t *)o, k, v) {
			bool ok = false;

			for (size_t n = 0; n < RTE_DIM(known); n++)
				ok |= strcmp(k, known[n]) == 0;
			if (!ok)
				sl_otg_warnf(e, path, "%s: Sluice leaves it to the port: ignored", k);
		}
		for (size_t n = 0; n < json_array_size(pn); n++) {
			const struct sl_port_info *pi;
			char p2[160];
			uint16_t pid;

			snprintf(p2, sizeof(p2), "%s.port_names[%zu]", path, n);
			if (json_string_value(json_array_get(pn, n)) == NULL)
				return sl_otg_errf(e, p2, "give a port name");
			if (sl_otg_port_of(ports, env, json_string_value(json_array_get(pn, n)), p2, &pid,
				    e) != 0)
				return -EINVAL;
			pi = &env->port[pid].info;
			if (mtu != 0 && (mtu < pi->min_mtu || mtu > pi->max_mtu))
				return sl_otg_errf(e, path, "mtu %" PRId64 ": port %s (%s) takes %u to %u",
					    (int64_t)mtu, json_string_value(json_array_get(pn, n)),
					    pi->name, pi->min_mtu, pi->max_mtu);
			if (mtu != 0)
				c->pc[pid].mtu = (uint16_t)mtu;
			if (bps != 0 && (double)pi->speed_bps != bps)
				sl_otg_warnf(e, path, "speed %s: port %s (%s) runs at %.0f Gb/s, its NIC's or "
				      "--sim's: kept", sp, json_string_value(json_array_get(pn, n)),
				      pi->name, (double)pi->speed_bps / 1e9);
		}
	}
	return 0;
}

/*
 * A member whose value is null is the field's default, as if absent (what
 * snappi's serialize() and a saved config carry for fields not set): the
 * members are dropped, at every depth, before anything is read. Depth is
 * bounded by the parser (jansson's JSON_PARSER_MAX_DEPTH).
 */
static void
drop_nulls(json_t *v)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		void *tmp;

		json_object_foreach_safe(v, tmp, k, x) {
			if (json_is_null(x))
				json_object_del(v, k);
			else
				drop_nulls(x);
		}
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			drop_nulls(json_array_get(v, i));
	}
}

int
sl_otg_config(const char *json, size_t len, const struct sl_config_env *env, struct sl_config *c,
	      struct sl_otg_err *e)
{
	static const char *const unsupported[] = { "lags", "events" };
	struct sl_otg_dev_names *names = NULL;
	struct sl_config cand = { 0 };
	json_error_t je;
	const json_t *ports, *flows;
	json_t *root;
	int ret = -EINVAL;

	memset(e, 0, sizeof(*e));
	if (len > SL_OTG_MAX_BYTES)
		return sl_otg_errf(e, "", "the document is over %u bytes", SL_OTG_MAX_BYTES);
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL)
		return sl_otg_errf(e, "", "not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
	if (!json_is_object(root)) {
		sl_otg_errf(e, "", "give a JSON object (an OTG Config)");
		goto out;
	}
	drop_nulls(root);
	for (size_t i = 0; i < RTE_DIM(unsupported); i++) {
		const json_t *u = json_object_get(root, unsupported[i]);

		if (u != NULL && !(json_is_array(u) && json_array_size(u) == 0)) {
			sl_otg_errf(e, unsupported[i], "not supported: Sluice emulates no LAG and "
				    "reports no event");
			goto out;
		}
	}
	/*
	 * A Config without flows (or without anything: {}) is the empty
	 * configuration, which clients post to clear the last test: no flow.
	 */
	ports = json_object_get(root, "ports");
	flows = json_object_get(root, "flows");
	if ((ports != NULL && !json_is_array(ports)) || (flows != NULL && !json_is_array(flows)) ||
	    json_array_size(flows) > SL_CONFIG_MAX_FLOWS || json_array_size(ports) > 64) {
		sl_otg_errf(e, "", "give ports[] (at most 64) and flows[] (at most %d flows)",
		     SL_CONFIG_MAX_FLOWS);
		goto out;
	}
	if (sl_config_copy(&cand, c) != 0) {
		ret = -ENOMEM;
		goto out;
	}
	/* The Config's flows, ports' names and captures replace those before. */
	sl_config_fini(&cand);
	memset(cand.pn, 0, sizeof(cand.pn));
	/* Each port an object with its own name and a location. */
	for (size_t i = 0; i < json_array_size(ports); i++) {
		const char *n, *loc;
		char p[32];

		snprintf(p, sizeof(p), "ports[%zu]", i);
		if (sl_otg_opt_string(json_array_get(ports, i), "name", &n) != 0 || n == NULL ||
		    sl_otg_opt_string(json_array_get(ports, i), "location", &loc) != 0) {
			sl_otg_errf(e, p, "give name and location (strings)");
			goto out;
		}
		if (strlen(n) >= SL_PORT_NAME_MAX) {
			sl_otg_errf(e, p, "name '%.20s...': at most %d characters", n,
			     SL_PORT_NAME_MAX - 1);
			goto out;
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(json_string_value(json_object_get(json_array_get(ports, j),
								     "name")), n) == 0) {
				sl_otg_errf(e, p, "two ports are named %s", n);
				goto out;
			}
	}
	/*
	 * Every port found is named (for the metrics); one that is not here is
	 * an error only where a flow or a capture uses it.
	 */
	for (size_t i = 0; i < json_array_size(ports); i++) {
		struct sl_otg_err scratch = { 0 };
		char p[32];
		uint16_t pid;

		snprintf(p, sizeof(p), "ports[%zu]", i);
		const char *n = json_string_value(json_object_get(json_array_get(ports, i), "name"));

		if (sl_otg_port_of(ports, env, n, p, &pid, &scratch) == 0) {
			if (cand.pn[pid].name[0] != '\0') {
				sl_otg_errf(e, p, "location '%s' is port %u, which %s is already: give each "
				     "port its own", json_string_value(json_object_get(
				     json_array_get(ports, i), "location")), pid, cand.pn[pid].name);
				goto out;
			}
			snprintf(cand.pn[pid].name, sizeof(cand.pn[pid].name), "%s", n);
		} else {
			sl_otg_warnf(e, p, "%s: unused here", scratch.msg);
		}
	}
	if (captures(json_object_get(root, "captures"), ports, env, cand.pn, e) != 0)
		goto out;
	if (layer1(json_object_get(root, "layer1"), ports, env, &cand, e) != 0)
		goto out;
	names = malloc(sizeof(*names));
	if (names == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	if (sl_otg_devices(json_object_get(root, "devices"), ports, env, &cand, names, e) != 0 ||
	    sl_otg_dev_names_unique(names, ports, flows, e) != 0)
		goto out;
	for (size_t i = 0; i < json_array_size(flows); i++) {
		struct sl_flow_conf f;

		if (one_flow(json_array_get(flows, i), i, ports, env, c, &cand, names, &f, e) != 0)
			goto out;
		if (sl_config_flow_find(&cand, f.name) >= 0) {
			char p[64];

			snprintf(p, sizeof(p), "flows[%zu].name", i);
			sl_otg_errf(e, p, "two flows are named %s", f.name);
			goto out;
		}
		if (sl_config_flow_add(&cand, &f) != 0) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* Every flow built and every port's rates checked now, as a start would: a
	 * configuration taken is one that runs. */
	{
		struct sl_config_err ce;

		if (sl_config_check(&cand, env, SL_CHECK_STREAMS | SL_CHECK_RATES, &ce) != 0) {
			/* The message names the flow (or the port's flows) at fault. */
			sl_otg_errf(e, "flows", "%s", ce.msg + (ce.opt != NULL &&
							 strcmp(ce.opt, "--flow") == 0 ?
							 ce.detail + 2 : 0));
			goto out;
		}
	}
	ret = sl_config_copy(c, &cand);
out:
	free(names);
	sl_config_fini(&cand);
	json_decref(root);
	return ret;
}
