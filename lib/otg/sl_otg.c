/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * OTG Config JSON into the flow table (sl_otg.h), with jansson. Each OTG
 * flow's packet becomes a header stack text (sl_stack.h): fixed values in
 * the text, varying ones (values, increment, decrement) as fields.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <jansson.h>

#include "sl_otg.h"

static int __attribute__((format(printf, 3, 4)))
errf(struct sl_otg_err *e, const char *path, const char *fmt, ...)
{
	va_list ap;

	snprintf(e->path, sizeof(e->path), "%s", path);
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void __attribute__((format(printf, 3, 4)))
warnf(struct sl_otg_err *e, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (e->nb_warnings >= RTE_DIM(e->warnings))
		return;
	n = snprintf(e->warnings[e->nb_warnings], sizeof(e->warnings[0]), "%s: ", path);
	if (n < 0 || (size_t)n >= sizeof(e->warnings[0]))
		n = (int)sizeof(e->warnings[0]) - 1; /* a long path: the message cut */
	va_start(ap, fmt);
	vsnprintf(e->warnings[e->nb_warnings] + n, sizeof(e->warnings[0]) - n, fmt, ap);
	va_end(ap);
	e->nb_warnings++;
}

/* OTG's header names and their fields, as the stack's. */
struct fmap {
	const char *otg, *ours;
};
struct hmap {
	const char *otg, *ours;
	struct fmap f[12];
};

static const struct hmap hmaps[] = {
	{ "ethernet", "eth", { { "src", "src" }, { "dst", "dst" }, { "ether_type", "type" } } },
	{ "vlan", "vlan", { { "id", "id" }, { "priority", "pcp" }, { "cfi", "dei" },
			    { "tpid", "tpid" } } },
	{ "mpls", "mpls", { { "label", "label" }, { "traffic_class", "tc" },
			    { "bottom_of_stack", "s" }, { "time_to_live", "ttl" } } },
	{ "ipv4", "ipv4", { { "src", "src" }, { "dst", "dst" }, { "time_to_live", "ttl" },
			    { "identification", "id" }, { "protocol", "proto" },
			    { "total_length", "len" } } },
	{ "ipv6", "ipv6", { { "src", "src" }, { "dst", "dst" }, { "traffic_class", "tc" },
			    { "flow_label", "flow" }, { "hop_limit", "hlim" },
			    { "next_header", "nh" }, { "payload_length", "plen" } } },
	{ "udp", "udp", { { "src_port", "sport" }, { "dst_port", "dport" }, { "length", "len" } } },
	{ "tcp", "tcp", { { "src_port", "sport" }, { "dst_port", "dport" }, { "seq_num", "seq" },
			  { "ack_num", "ack" }, { "window", "win" } } },
	{ "icmp", "icmp", { { "type", "type" }, { "code", "code" }, { "identifier", "id" },
			    { "sequence_number", "seq" } } },
	{ "icmpv6", "icmp6", { { "type", "type" }, { "code", "code" }, { "identifier", "id" },
			       { "sequence_number", "seq" } } },
	{ "vxlan", "vxlan", { { "vni", "vni" }, { "flags", "flags" } } },
	{ "gre", "gre", { { "protocol", "proto" } } },
	{ "gtpv1", "gtpu", { { "teid", "teid" } } },
};

/* One value of a pattern as the stack text and the field engine read it. */
static int
value_str(const json_t *v, char *buf, size_t len)
{
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_string(v) && strlen(json_string_value(v)) < 64 &&
		 strpbrk(json_string_value(v), "(),/= ") == NULL)
		snprintf(buf, len, "%s", json_string_value(v));
	else
		return -1;
	return 0;
}

/* A value of a varying field as a number: an integer, an IPv4 address, or an address's low 32 bits. */
static int
value_u32(const json_t *v, uint32_t *out)
{
	const char *s;
	struct in_addr a4;
	struct in6_addr a6;
	unsigned int m[6];
	int n = 0;

	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
			return -1;
		*out = (uint32_t)json_integer_value(v);
		return 0;
	}
	if (!json_is_string(v))
		return -1;
	s = json_string_value(v);
	if (inet_pton(AF_INET, s, &a4) == 1) {
		*out = ntohl(a4.s_addr);
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a6) == 1) {
		uint32_t low;

		memcpy(&low, a6.s6_addr + 12, 4);
		*out = ntohl(low);
		return 0;
	}
	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%n", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &n) == 6 &&
	    s[n] == '\0') {
		*out = (uint32_t)m[2] << 24 | m[3] << 16 | m[4] << 8 | m[5];
		return 0;
	}
	return -1;
}

/*
 * One field's pattern: a value goes into the text (fixed), values and
 * increment/decrement into a field of the engine; auto (or nothing) leaves
 * the stack's default.
 */
static int
pattern(const json_t *p, const char *path, const char *hdr, unsigned int nth, const char *field,
	char *text, size_t tlen, bool *first, struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const char *choice = json_string_value(json_object_get(p, "choice"));
	struct sl_field_conf fc = { .kind = SL_FIELD_PATH };
	char v[80];
	const json_t *x;

	if (!json_is_object(p))
		return errf(e, path, "give a pattern object ({\"choice\": \"value\", \"value\": ...})");
	if (choice == NULL) /* a client that leaves choice out: the key says it */
		choice = json_object_get(p, "value") != NULL ? "value" :
			 json_object_get(p, "values") != NULL ? "values" :
			 json_object_get(p, "increment") != NULL ? "increment" :
			 json_object_get(p, "decrement") != NULL ? "decrement" : "auto";
	if (strcmp(choice, "auto") == 0 || strcmp(choice, "generated") == 0)
		return 0;
	if (strcmp(choice, "value") == 0) {
		if (value_str(json_object_get(p, "value"), v, sizeof(v)) != 0)
			return errf(e, path, "value: give a number or an address");
		snprintf(text + strlen(text), tlen - strlen(text), "%s%s=%s", *first ? "(" : ",",
			 field, v);
		*first = false;
		return 0;
	}
	snprintf(fc.path, sizeof(fc.path), "%s.%u.%s", hdr, nth, field);
	if (strcmp(choice, "values") == 0) {
		x = json_object_get(p, "values");
		if (!json_is_array(x) || json_array_size(x) == 0 ||
		    json_array_size(x) > SL_FIELD_LIST_MAX)
			return errf(e, path, "values: give 1 to %d values", SL_FIELD_LIST_MAX);
		fc.mode = SL_FIELD_LIST;
		for (size_t i = 0; i < json_array_size(x); i++)
			if (value_u32(json_array_get(x, i), &fc.list[fc.nb_list++]) != 0)
				return errf(e, path, "values[%zu]: give a number or an address", i);
	} else if (strcmp(choice, "increment") == 0 || strcmp(choice, "decrement") == 0) {
		const json_t *o = json_object_get(p, choice), *st, *cnt;
		uint32_t step = 1;
		json_int_t n;

		if (!json_is_object(o) || value_u32(json_object_get(o, "start"), &fc.start) != 0)
			return errf(e, path, "%s.start: give a number or an address", choice);
		st = json_object_get(o, "step");
		if (st != NULL && (value_u32(st, &step) != 0 || step == 0))
			return errf(e, path, "%s.step: give a step of 1 or more (a number, or an "
				    "address: 0.0.0.2)", choice);
		fc.step = step;
		cnt = json_object_get(o, "count");
		n = json_is_integer(cnt) ? json_integer_value(cnt) : 1;
		if (n < 1 || n > UINT32_MAX)
			return errf(e, path, "%s.count: give 1 or more", choice);
		fc.mode = choice[0] == 'i' ? SL_FIELD_INC : SL_FIELD_DEC;
		fc.count = (uint32_t)n;
	} else {
		return errf(e, path, "choice '%s': give value, values, increment or decrement", choice);
	}
	if (f->sc.nb_fields == SL_FIELD_MAX)
		return errf(e, path, "more than %d varying fields in one flow", SL_FIELD_MAX);
	f->sc.fields[f->sc.nb_fields++] = fc;
	return 0;
}

/* One header of packet[]: its stack text, its fixed values, its fields. */
static int
header(const json_t *h, const char *path, unsigned int *count, char *text, size_t tlen,
       struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const char *choice = json_string_value(json_object_get(h, "choice")), *key;
	const struct hmap *m = NULL;
	const json_t *o, *v;
	char p2[200];
	bool first = true;
	int k;

	for (size_t i = 0; choice != NULL && i < RTE_DIM(hmaps); i++)
		if (strcmp(choice, hmaps[i].otg) == 0)
			m = &hmaps[i], k = (int)i;
	if (m == NULL)
		return errf(e, path, "header '%s': not supported (Sluice sends ethernet, vlan, mpls, "
			    "ipv4, ipv6, udp, tcp, icmp, icmpv6, vxlan, gre, gtpv1)",
			    choice != NULL ? choice : "(no choice)");
	o = json_object_get(h, choice);
	if (o != NULL && !json_is_object(o))
		return errf(e, path, "%s: give an object", choice);
	count[k]++;
	snprintf(text + strlen(text), tlen - strlen(text), "%s%s", text[0] != '\0' ? "/" : "",
		 m->ours);
	/* ICMP's fields sit in its echo message. */
	if ((k == 7 || k == 8) && o != NULL) {
		const char *ic = json_string_value(json_object_get(o, "choice"));

		if (ic != NULL && strcmp(ic, "echo") != 0)
			return errf(e, path, "%s.choice '%s': only echo is supported", choice, ic);
		if (json_object_get(o, "echo") != NULL)
			o = json_object_get(o, "echo");
	}
	json_object_foreach((json_t *)o, key, v) {
		const char *ours = NULL;

		if (strcmp(key, "choice") == 0)
			continue;
		for (int i = 0; i < 12 && m->f[i].otg != NULL; i++)
			if (strcmp(key, m->f[i].otg) == 0)
				ours = m->f[i].ours;
		snprintf(p2, sizeof(p2), "%s.%s.%s", path, choice, key);
		if (ours == NULL) {
			if (strstr(key, "checksum") != NULL || strstr(key, "length") != NULL)
				continue; /* computed per frame, as OTG's "generated" asks */
			warnf(e, p2, "not supported: ignored");
			continue;
		}
		if (pattern(v, p2, m->ours, count[k], ours, text, tlen, &first, f, e) != 0)
			return -EINVAL;
	}
	if (!first)
		snprintf(text + strlen(text), tlen - strlen(text), ")");
	if (strlen(text) >= tlen - 1)
		return errf(e, path, "the packet's headers take more than %zu characters", tlen - 1);
	return 0;
}

/* A port by its OTG name: its location is a port id or a DPDK port name. */
static int
port_of(const json_t *ports, const struct sl_config_env *env, const char *name, const char *path,
	uint16_t *pid, struct sl_otg_err *e)
{
	for (size_t i = 0; i < json_array_size(ports); i++) {
		const json_t *p = json_array_get(ports, i);
		const char *n = json_string_value(json_object_get(p, "name"));
		const char *loc = json_string_value(json_object_get(p, "location"));
		char *end;
		unsigned long v;

		if (n == NULL || strcmp(n, name) != 0)
			continue;
		if (loc == NULL)
			return errf(e, path, "port %s has no location: give a port id (\"0\") or a "
				    "DPDK port name", name);
		v = strtoul(loc, &end, 10);
		*pid = UINT16_MAX;
		if (*loc >= '0' && *loc <= '9' && *end == '\0' && v < env->nb_ports)
			*pid = (uint16_t)v;
		for (uint16_t k = 0; k < env->nb_ports && *pid == UINT16_MAX; k++)
			if (strcmp(env->port[k].info.name, loc) == 0)
				*pid = k;
		if (*pid != UINT16_MAX) {
			snprintf(e->port_name[*pid], sizeof(e->port_name[0]), "%s", name);
			return 0;
		}
		return errf(e, path, "port %s: location '%s' is no port here (ports 0..%u, by id or "
			    "DPDK name)", name, loc, env->nb_ports ? env->nb_ports - 1 : 0);
	}
	return errf(e, path, "no port named '%s' in ports[]", name);
}

static int
flow_size(const json_t *s, const char *path, struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const char *ch = json_string_value(json_object_get(s, "choice"));
	char buf[600] = "", err[200];

	if (ch == NULL || strcmp(ch, "fixed") == 0) {
		json_int_t n = json_integer_value(json_object_get(s, "fixed"));

		if (n < 1 || n > 65535)
			return errf(e, path, "fixed: give a frame size (with the FCS)");
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, n);
	} else if (strcmp(ch, "increment") == 0 || strcmp(ch, "random") == 0) {
		const json_t *o = json_object_get(s, ch);
		json_int_t a = json_integer_value(json_object_get(o, ch[0] == 'i' ? "start" : "min"));
		json_int_t b = json_integer_value(json_object_get(o, ch[0] == 'i' ? "end" : "max"));
		json_int_t st = json_object_get(o, "step") != NULL ?
				json_integer_value(json_object_get(o, "step")) : 1;

		if (a < 1 || b < a || b > 65535 || st < 1)
			return errf(e, path, "%s: give start <= end (min <= max) and step >= 1", ch);
		if (ch[0] == 'r')
			snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT,
				 a, b); /* every size of the range equally often, shuffled */
		else /* ascending, by step */
			snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT
				 "/%" JSON_INTEGER_FORMAT, a, b, st);
	} else if (strcmp(ch, "weight_pairs") == 0) {
		const json_t *o = json_object_get(json_object_get(s, ch), "custom");
		const char *pre = json_string_value(json_object_get(json_object_get(s, ch),
								    "choice"));

		if (pre != NULL && strcmp(pre, "predefined") == 0) {
			snprintf(buf, sizeof(buf), "imix");
		} else {
			for (size_t i = 0; i < json_array_size(o); i++) {
				const json_t *w = json_array_get(o, i);

				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
					 "%s%" JSON_INTEGER_FORMAT ":%.0f", i ? "," : "",
					 json_integer_value(json_object_get(w, "size")),
					 json_number_value(json_object_get(w, "weight")));
			}
		}
	} else {
		return errf(e, path, "choice '%s': give fixed, increment, random or weight_pairs", ch);
	}
	f->size_given = true;
	if (strcmp(buf, "imix") == 0)
		snprintf(buf, sizeof(buf), "%s", SL_GEN_IMIX);
	/* The sizes' own parser is the front end's; the list form is simple enough here. */
	{
		struct sl_stream_conf *c = &f->sc;
		char *save = NULL, *tok, *dash;

		c->nb_sizes = 0;
		c->size_min = c->size_max = 0;
		dash = strchr(buf, '-');
		if (dash != NULL) {
			char *slash = strchr(dash, '/');

			c->size_min = (uint16_t)atoi(buf);
			c->size_max = (uint16_t)atoi(dash + 1);
			c->size_step = slash != NULL ? (uint16_t)atoi(slash + 1) : 0;
			return 0;
		}
		for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
			char *colon = strchr(tok, ':');

			if (c->nb_sizes == SL_GEN_MAX_SIZES) {
				snprintf(err, sizeof(err), "more than %d sizes", SL_GEN_MAX_SIZES);
				return errf(e, path, "%s", err);
			}
			c->sizes[c->nb_sizes] = (uint16_t)atoi(tok);
			c->weights[c->nb_sizes++] = colon != NULL ? (uint16_t)atoi(colon + 1) : 1;
		}
	}
	return 0;
}

static int
flow_rate(const json_t *r, const char *path, struct sl_flow_conf *f, struct sl_otg_err *e)
{
	static const struct { const char *k; enum sl_rate_unit u; double mul; } units[] = {
		{ "pps", SL_RATE_PPS, 1 }, { "bps", SL_RATE_L2, 1 }, { "kbps", SL_RATE_L2, 1e3 },
		{ "mbps", SL_RATE_L2, 1e6 }, { "gbps", SL_RATE_L2, 1e9 },
		{ "percentage", SL_RATE_PCT, 1 },
	};
	const char *ch = json_string_value(json_object_get(r, "choice"));

	if (ch == NULL)
		ch = "pps";
	for (size_t i = 0; i < RTE_DIM(units); i++) {
		const json_t *v = json_object_get(r, units[i].k);

		if (strcmp(ch, units[i].k) != 0)
			continue;
		if (v == NULL)
			return 0; /* the default: the port's rate, shared */
		if (!json_is_number(v) || json_number_value(v) <= 0)
			return errf(e, path, "%s: give a number above 0", ch);
		f->rate = (struct sl_rate){ units[i].u, json_number_value(v) * units[i].mul };
		return 0;
	}
	return errf(e, path, "choice '%s': give pps, bps, kbps, mbps, gbps or percentage", ch);
}

static int
flow_duration(const json_t *d, const char *path, struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const char *ch = json_string_value(json_object_get(d, "choice"));
	const json_t *o;

	if (ch == NULL || strcmp(ch, "continuous") == 0)
		return 0;
	o = json_object_get(d, ch);
	if (strcmp(ch, "fixed_packets") == 0) {
		json_int_t n = json_integer_value(json_object_get(o, "packets"));

		if (n < 1)
			return errf(e, path, "fixed_packets.packets: give 1 or more");
		f->count = (uint64_t)n;
		if (json_object_get(o, "gap") != NULL)
			warnf(e, path, "fixed_packets.gap: the rate sets the gap here: ignored");
		return 0;
	}
	if (strcmp(ch, "fixed_seconds") == 0) {
		double s = json_number_value(json_object_get(o, "seconds"));

		if (s <= 0 || s > SL_MAX_SECONDS)
			return errf(e, path, "fixed_seconds.seconds: give 0 < s <= %d", SL_MAX_SECONDS);
		f->duration_us = (uint64_t)(s * 1e6 + 0.5);
		return 0;
	}
	if (strcmp(ch, "burst") == 0) {
		const json_t *g = json_object_get(o, "inter_burst_gap");
		const char *gc = json_string_value(json_object_get(g, "choice"));
		json_int_t n = json_integer_value(json_object_get(o, "packets"));
		json_int_t b = json_integer_value(json_object_get(o, "bursts"));
		double ns = json_number_value(json_object_get(g, "nanoseconds"));

		if (n < 1 || n > UINT32_MAX || b < 0 || b > UINT32_MAX)
			return errf(e, path, "burst: give packets >= 1 and bursts >= 0 (0: no limit)");
		if (gc != NULL && strcmp(gc, "nanoseconds") != 0)
			return errf(e, path, "burst.inter_burst_gap: give it in nanoseconds");
		if (ns < 1000 || ns > (double)SL_MAX_SECONDS * 1e9)
			return errf(e, path, "burst.inter_burst_gap.nanoseconds: give 1000 ns or more");
		f->burst_pkts = (uint32_t)n;
		f->bursts = (uint32_t)b;
		f->burst_gap_us = (uint64_t)(ns / 1e3 + 0.5);
		if (json_object_get(o, "gap") != NULL)
			warnf(e, path, "burst.gap: the rate sets the gap within a burst: ignored");
		return 0;
	}
	return errf(e, path, "choice '%s': give fixed_packets, fixed_seconds, burst or continuous",
		    ch);
}

static int
one_flow(const json_t *fl, size_t idx, const json_t *ports, const struct sl_config_env *env,
	 const struct sl_config *base, struct sl_flow_conf *f, struct sl_otg_err *e)
{
	const char *name = json_string_value(json_object_get(fl, "name"));
	const json_t *trx = json_object_get(fl, "tx_rx"), *pt, *pk, *rx;
	unsigned int count[RTE_DIM(hmaps)] = { 0 };
	char path[96], p2[128], text[SL_STACK_TEXT_MAX] = "";
	const char *tx;
	uint16_t pid;

	snprintf(path, sizeof(path), "flows[%zu]", idx);
	if (name == NULL || name[0] == '\0' || strlen(name) >= SL_FLOW_NAME_MAX)
		return errf(e, path, "name: give 1 to %d characters", SL_FLOW_NAME_MAX - 1);
	pt = json_object_get(trx, "port");
	if (pt == NULL || (json_object_get(trx, "choice") != NULL &&
			   strcmp(json_string_value(json_object_get(trx, "choice")) ?: "", "port"))) {
		snprintf(p2, sizeof(p2), "%s.tx_rx", path);
		return errf(e, p2, "give tx_rx.port (device endpoints need protocols, which Sluice "
			    "does not emulate)");
	}
	tx = json_string_value(json_object_get(pt, "tx_name"));
	snprintf(p2, sizeof(p2), "%s.tx_rx.port.tx_name", path);
	if (tx == NULL)
		return errf(e, p2, "give the sending port's name");
	if (port_of(ports, env, tx, p2, &pid, e) != 0)
		return -EINVAL;
	sl_config_flow_init(base, f, name, pid);
	rx = json_object_get(pt, "rx_names");
	if (json_is_array(rx) && json_array_size(rx) > 0)
		rx = json_array_get(rx, 0);
	else
		rx = json_object_get(pt, "rx_name");
	if (json_is_string(rx)) {
		uint16_t r;

		snprintf(p2, sizeof(p2), "%s.tx_rx.port.rx_names", path);
		if (port_of(ports, env, json_string_value(rx), p2, &r, e) != 0)
			return -EINVAL;
		f->to = (int16_t)r;
	}
	pk = json_object_get(fl, "packet");
	if (pk == NULL || json_array_size(pk) == 0) {
		snprintf(text, sizeof(text), "eth/ipv4/udp");
	} else {
		for (size_t i = 0; i < json_array_size(pk); i++) {
			snprintf(p2, sizeof(p2), "%s.packet[%zu]", path, i);
			if (header(json_array_get(pk, i), p2, count, text, sizeof(text), f, e) != 0)
				return -EINVAL;
		}
	}
	snprintf(f->sc.stack, sizeof(f->sc.stack), "%s", text);
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
		if (flow_duration(json_object_get(fl, "duration"), p2, f, e) != 0)
			return -EINVAL;
	}
	return 0;
}

int
sl_otg_config(const char *json, size_t len, const struct sl_config_env *env, struct sl_config *c,
	      struct sl_otg_err *e)
{
	static const char *const unsupported[] = { "devices", "lags", "captures", "events" };
	struct sl_config cand = { 0 };
	json_error_t je;
	const json_t *ports, *flows;
	json_t *root;
	int ret = -EINVAL;

	memset(e, 0, sizeof(*e));
	if (len > SL_OTG_MAX_BYTES)
		return errf(e, "", "the document is over %u bytes", SL_OTG_MAX_BYTES);
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL)
		return errf(e, "", "not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
	if (!json_is_object(root)) {
		errf(e, "", "give a JSON object (an OTG Config)");
		goto out;
	}
	for (size_t i = 0; i < RTE_DIM(unsupported); i++) {
		const json_t *u = json_object_get(root, unsupported[i]);

		if (u != NULL && !(json_is_array(u) && json_array_size(u) == 0)) {
			errf(e, unsupported[i], "not supported: Sluice generates flows between ports "
			     "and emulates no protocol, LAG or capture filter");
			goto out;
		}
	}
	if (json_object_get(root, "layer1") != NULL)
		warnf(e, "layer1", "the ports' speed and MTU are set with Sluice's own options: "
		      "ignored");
	ports = json_object_get(root, "ports");
	flows = json_object_get(root, "flows");
	if (!json_is_array(ports) || !json_is_array(flows) ||
	    json_array_size(flows) > SL_CONFIG_MAX_FLOWS) {
		errf(e, "", "give ports[] and flows[] (at most %d flows)", SL_CONFIG_MAX_FLOWS);
		goto out;
	}
	if (sl_config_copy(&cand, c) != 0) {
		ret = -ENOMEM;
		goto out;
	}
	sl_config_fini(&cand);
	for (size_t i = 0; i < json_array_size(flows); i++) {
		struct sl_flow_conf f;

		if (one_flow(json_array_get(flows, i), i, ports, env, c, &f, e) != 0)
			goto out;
		if (sl_config_flow_find(&cand, f.name) >= 0) {
			char p[64];

			snprintf(p, sizeof(p), "flows[%zu].name", i);
			errf(e, p, "two flows are named %s", f.name);
			goto out;
		}
		if (sl_config_flow_add(&cand, &f) != 0) {
			ret = -ENOMEM;
			goto out;
		}
	}
	ret = sl_config_copy(c, &cand);
out:
	sl_config_fini(&cand);
	json_decref(root);
	return ret;
}
