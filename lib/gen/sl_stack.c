/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Header stacks (sl_stack.h): the text parsed into data and written back,
 * the data's headers laid into a
 * template, what is not given filled in, and the places a frame writes
 * per size (lengths) and per frame (checksums) recorded.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "sl_sig.h"
#include "sl_stack.h"

enum hdr {
	H_ETH, H_VLAN, H_MPLS, H_IPV4, H_IPV6, H_UDP, H_TCP, H_ICMP, H_ICMP6, H_VXLAN, H_GRE,
	H_GTPU, H_KINDS,
};

/* A field: its byte offset in the header, window bytes, shift and width in bits. */
struct fdef {
	const char *name;
	uint8_t off, win, shift, bits;
	uint8_t big;     /* 6: a MAC, 16: an IPv6 address (a pattern varies the low 32 bits) */
};

struct hdef {
	const char *name;
	uint8_t len;
	struct fdef f[SL_STACK_FIELDS_MAX];
};

#define F(n, o, w, s, b) { n, o, w, s, b, 0 }
static const struct hdef hdefs[H_KINDS] = {
	[H_ETH] = { "eth", 14, { { "dst", 0, 4, 0, 32, 6 }, { "src", 6, 4, 0, 32, 6 },
				 F("type", 12, 2, 0, 16) } },
	[H_VLAN] = { "vlan", 4, { F("pcp", 0, 1, 5, 3), F("dei", 0, 1, 4, 1), F("id", 0, 2, 0, 12),
				  F("type", 2, 2, 0, 16), F("tpid", 0, 0, 0, 16) } },
	[H_MPLS] = { "mpls", 4, { F("label", 0, 4, 12, 20), F("tc", 2, 1, 1, 3),
				  F("s", 2, 1, 0, 1), F("ttl", 3, 1, 0, 8) } },
	[H_IPV4] = { "ipv4", 20, { F("tos", 1, 1, 0, 8), F("dscp", 1, 1, 2, 6), F("ecn", 1, 1, 0, 2),
				   F("len", 2, 2, 0, 16), F("id", 4, 2, 0, 16), F("frag", 6, 2, 0, 16),
				   F("ttl", 8, 1, 0, 8), F("proto", 9, 1, 0, 8), F("csum", 10, 2, 0, 16),
				   F("src", 12, 4, 0, 32), F("dst", 16, 4, 0, 32),
				   /* frag's bits, tos's, and the first byte's halves */
				   F("rsv", 6, 1, 7, 1), F("df", 6, 1, 6, 1), F("mf", 6, 1, 5, 1),
				   F("foff", 6, 2, 0, 13), F("prec", 1, 1, 5, 3), F("lowdelay", 1, 1, 4, 1),
				   F("thru", 1, 1, 3, 1), F("rel", 1, 1, 2, 1), F("cost", 1, 1, 1, 1),
				   F("tosmbz", 1, 1, 0, 1), F("ver", 0, 1, 4, 4), F("ihl", 0, 1, 0, 4) } },
	[H_IPV6] = { "ipv6", 40, { F("tc", 0, 4, 20, 8), F("flow", 0, 4, 0, 20), F("plen", 4, 2, 0, 16),
				   F("nh", 6, 1, 0, 8), F("hlim", 7, 1, 0, 8),
				   { "src", 8, 4, 0, 32, 16 }, { "dst", 24, 4, 0, 32, 16 } } },
	[H_UDP] = { "udp", 8, { F("sport", 0, 2, 0, 16), F("dport", 2, 2, 0, 16), F("len", 4, 2, 0, 16),
				F("csum", 6, 2, 0, 16) } },
	[H_TCP] = { "tcp", 20, { F("sport", 0, 2, 0, 16), F("dport", 2, 2, 0, 16), F("seq", 4, 4, 0, 32),
				 F("ack", 8, 4, 0, 32), F("flags", 13, 1, 0, 8), F("win", 14, 2, 0, 16),
				 F("csum", 16, 2, 0, 16), F("urg", 18, 2, 0, 16),
				 /* the data offset, and flags' bits (urgf, ackf: the flags, not
				  * the pointer and the number) */
				 F("doff", 12, 1, 4, 4), F("ns", 12, 1, 0, 1), F("cwr", 13, 1, 7, 1),
				 F("ece", 13, 1, 6, 1), F("urgf", 13, 1, 5, 1), F("ackf", 13, 1, 4, 1),
				 F("psh", 13, 1, 3, 1), F("rst", 13, 1, 2, 1), F("syn", 13, 1, 1, 1),
				 F("fin", 13, 1, 0, 1) } },
	[H_ICMP] = { "icmp", 8, { F("type", 0, 1, 0, 8), F("code", 1, 1, 0, 8), F("csum", 2, 2, 0, 16),
				  F("id", 4, 2, 0, 16), F("seq", 6, 2, 0, 16) } },
	[H_ICMP6] = { "icmp6", 8, { F("type", 0, 1, 0, 8), F("code", 1, 1, 0, 8), F("csum", 2, 2, 0, 16),
				    F("id", 4, 2, 0, 16), F("seq", 6, 2, 0, 16) } },
	[H_VXLAN] = { "vxlan", 8, { F("flags", 0, 1, 0, 8), F("vni", 4, 4, 8, 24),
				    F("rsv0", 1, 4, 8, 24), F("rsv1", 7, 1, 0, 8) } },
	[H_GRE] = { "gre", 4, { F("flags", 0, 2, 0, 16), F("proto", 2, 2, 0, 16),
				F("c", 0, 2, 15, 1), F("rsv0", 0, 2, 3, 12), F("ver", 0, 2, 0, 3) } },
	[H_GTPU] = { "gtpu", 8, { F("flags", 0, 1, 0, 8), F("type", 1, 1, 0, 8), F("len", 2, 2, 0, 16),
				  F("teid", 4, 4, 0, 32) } },
};
#undef F

static const char *const kinds_list =
	"eth, vlan, mpls, ipv4, ipv6, udp, tcp, icmp, icmp6, vxlan, gre, gtpu";

/* One header of a parsed stack: its kind, offset, and which fields were given. */
struct hdr_at {
	enum hdr kind;
	uint16_t off;
	uint32_t given;   /* bit i: f[i] given */
};
_Static_assert(SL_STACK_FIELDS_MAX <= 32, "one bit of given per field");

static void
put(uint8_t *p, const struct fdef *f, uint32_t v)
{
	uint32_t w = 0, mask = (f->bits == 32 ? UINT32_MAX : ((1u << f->bits) - 1)) << f->shift;

	for (int i = 0; i < f->win; i++)
		w = w << 8 | p[f->off + i];
	w = (w & ~mask) | ((v << f->shift) & mask);
	for (int i = f->win - 1; i >= 0; i--, w >>= 8)
		p[f->off + i] = (uint8_t)w;
}

static int
find_kind(const char *name, size_t n)
{
	for (int k = 0; k < H_KINDS; k++)
		if (strlen(hdefs[k].name) == n && strncmp(hdefs[k].name, name, n) == 0)
			return k;
	return -1;
}

static int
find_field(enum hdr k, const char *name)
{
	for (int i = 0; i < SL_STACK_FIELDS_MAX && hdefs[k].f[i].name != NULL; i++)
		if (strcmp(hdefs[k].f[i].name, name) == 0)
			return i;
	return -1;
}

/* The names of a header's fields, for messages. */
static void
field_names(enum hdr k, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < SL_STACK_FIELDS_MAX && hdefs[k].f[i].name != NULL && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					hdefs[k].f[i].name);
}

/* A value for field f of header k, parsed: a number, or an address where the field is one. */
static int
val_parse(enum hdr k, const struct fdef *f, const char *v, struct sl_hdr_val *x, char *err,
	  size_t len)
{
	unsigned long long n;
	struct in_addr a4;
	char *end;

	if (f->big == 6) {
		struct rte_ether_addr mac;

		if (rte_ether_unformat_addr(v, &mac) != 0) {
			snprintf(err, len, "%s.%s=%s: give a MAC (such as 02:00:00:00:00:01)",
				 hdefs[k].name, f->name, v);
			return -EINVAL;
		}
		x->len = 6;
		memcpy(x->b, mac.addr_bytes, 6);
		return 0;
	}
	if (f->big == 16) {
		if (inet_pton(AF_INET6, v, x->b) != 1) {
			snprintf(err, len, "%s.%s=%s: give an IPv6 address (such as 2001:2::1)",
				 hdefs[k].name, f->name, v);
			return -EINVAL;
		}
		x->len = 16;
		return 0;
	}
	x->len = 4;
	if (f->bits == 32 && strchr(v, '.') != NULL && (strcmp(f->name, "src") == 0 ||
							 strcmp(f->name, "dst") == 0)) {
		if (inet_pton(AF_INET, v, &a4) != 1) {
			snprintf(err, len, "%s.%s=%s: give an IPv4 address or a number",
				 hdefs[k].name, f->name, v);
			return -EINVAL;
		}
		x->v32 = ntohl(a4.s_addr);
		return 0;
	}
	errno = 0;
	n = strtoull(v, &end, 0);
	if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 ||
	    (f->bits < 32 && n >> f->bits != 0) || n > UINT32_MAX) {
		snprintf(err, len, "%s.%s=%s: give a whole number from 0 to %llu", hdefs[k].name,
			 f->name, v, f->bits == 32 ? (unsigned long long)UINT32_MAX :
			 (1ull << f->bits) - 1);
		return -EINVAL;
	}
	x->v32 = (uint32_t)n;
	return 0;
}

/* Write value x of field f into the header at hp. */
static void
val_put(uint8_t *hp, const struct fdef *f, const struct sl_hdr_val *x)
{
	if (x->len == 4)
		put(hp, f, x->v32);
	else
		memcpy(hp + f->off, x->b, x->len);
}

/* The TPID a vlan's tpid= sets: the type field of the header before it. */
static const struct fdef tpid_def = { "tpid", 0, 2, 0, 16, 0 };

int
sl_hdrs_push(struct sl_hdrs *s, const char *kind, char *err, size_t len)
{
	int k = find_kind(kind, strlen(kind));
	uint16_t bytes = 0;

	if (k < 0) {
		snprintf(err, len, "'%s': not a header (give %s)", kind, kinds_list);
		return -EINVAL;
	}
	for (uint8_t i = 0; i < s->n; i++)
		bytes += hdefs[s->kind[i]].len;
	if (s->n == SL_STACK_MAX || bytes + hdefs[k].len > SL_STACK_HDR_MAX) {
		snprintf(err, len, "more than %d headers or %d bytes of them", SL_STACK_MAX,
			 SL_STACK_HDR_MAX);
		return -EINVAL;
	}
	s->kind[s->n++] = (uint8_t)k;
	return 0;
}

int
sl_hdrs_set(struct sl_hdrs *s, const char *field, const char *value, char *err, size_t len)
{
	if (s->n == 0) {
		snprintf(err, len, "%s=%s: no header to give it to", field, value);
		return -EINVAL;
	}
	return sl_hdrs_set_at(s, s->n - 1u, field, value, err, len);
}

int
sl_hdrs_set_at(struct sl_hdrs *s, unsigned int h, const char *field, const char *value,
	       char *err, size_t len)
{
	struct sl_hdr_val x = { 0 };
	enum hdr k;
	int fi;

	if (h >= s->n) {
		snprintf(err, len, "%s=%s: no header %u to give it to", field, value, h);
		return -EINVAL;
	}
	k = (enum hdr)s->kind[h];
	fi = find_field(k, field);
	if (fi < 0) {
		char names[160];

		field_names(k, names, sizeof(names));
		snprintf(err, len, "%s: '%s=%s' is not FIELD=VALUE with a field of %s (%s)",
			 hdefs[k].name, field, value, hdefs[k].name, names);
		return -EINVAL;
	}
	if (s->nb_vals == SL_STACK_VALS_MAX) {
		snprintf(err, len, "more than %d values in one stack", SL_STACK_VALS_MAX);
		return -EINVAL;
	}
	x.hdr = (uint8_t)h;
	x.field = (uint8_t)fi;
	if (k == H_VLAN && strcmp(field, "tpid") == 0) {
		if (h < 1 || (s->kind[h - 1] != H_ETH && s->kind[h - 1] != H_VLAN)) {
			snprintf(err, len, "vlan: a tag follows eth or vlan");
			return -EINVAL;
		}
		x.field = SL_HDR_TPID;
		if (val_parse(H_VLAN, &tpid_def, value, &x, err, len) != 0)
			return -EINVAL;
	} else if (val_parse(k, &hdefs[k].f[fi], value, &x, err, len) != 0) {
		return -EINVAL;
	}
	s->val[s->nb_vals++] = x;
	return 0;
}

int
sl_stack_parse(const char *text, struct sl_hdrs *s, char *err, size_t len)
{
	char buf[SL_STACK_TEXT_MAX], *save = NULL, *tok;

	memset(s, 0, sizeof(*s));
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, len, "longer than %d characters", SL_STACK_TEXT_MAX - 1);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	if (buf[0] == '/' || (buf[0] != '\0' && buf[strlen(buf) - 1] == '/') ||
	    strstr(buf, "//") != NULL || strstr(buf, "(,") != NULL || strstr(buf, ",,") != NULL ||
	    strstr(buf, ",)") != NULL) {
		snprintf(err, len, "an empty header or field: give HEADER(FIELD=VALUE,...)/...");
		return -EINVAL;
	}
	for (tok = strtok_r(buf, "/", &save); tok != NULL; tok = strtok_r(NULL, "/", &save)) {
		char *args = strchr(tok, '('), *a, *asave = NULL;
		size_t al;
		enum hdr k;

		if (args != NULL)
			*args = '\0';
		if (sl_hdrs_push(s, tok, err, len) != 0)
			return -EINVAL;
		k = (enum hdr)s->kind[s->n - 1];
		if (args == NULL)
			continue;
		*args = '(';
		al = strlen(args);
		if (al < 2 || args[al - 1] != ')') {
			snprintf(err, len, "%s: '%s' lacks its ')' (give %s(FIELD=VALUE,...))",
				 hdefs[k].name, args, hdefs[k].name);
			return -EINVAL;
		}
		args[al - 1] = '\0';
		for (a = strtok_r(args + 1, ",", &asave); a != NULL; a = strtok_r(NULL, ",", &asave)) {
			char *eq = strchr(a, '=');

			if (eq == NULL) {
				char names[160];

				field_names(k, names, sizeof(names));
				snprintf(err, len, "%s: '%s' is not FIELD=VALUE with a field of %s (%s)",
					 hdefs[k].name, a, hdefs[k].name, names);
				return -EINVAL;
			}
			*eq = '\0';
			if (sl_hdrs_set(s, a, eq + 1, err, len) != 0)
				return -EINVAL;
		}
	}
	if (s->n == 0) {
		snprintf(err, len, "no header (give e.g. eth/ipv4/udp)");
		return -EINVAL;
	}
	return 0;
}

/* Value x of a header of kind h as the text writes it. */
static void
val_str(const struct hdef *h, const struct sl_hdr_val *x, char *val, size_t len)
{
	const struct fdef *f = x->field == SL_HDR_TPID ? &tpid_def : &h->f[x->field];

	if (x->len == 6) {
		rte_ether_format_addr(val, (uint16_t)len, (const struct rte_ether_addr *)x->b);
	} else if (x->len == 16) {
		inet_ntop(AF_INET6, x->b, val, (socklen_t)len);
	} else if (f->bits == 32 && (strcmp(f->name, "src") == 0 || strcmp(f->name, "dst") == 0)) {
		uint32_t be = htonl(x->v32);

		inet_ntop(AF_INET, &be, val, (socklen_t)len);
	} else {
		snprintf(val, len, x->field == SL_HDR_TPID ? "0x%04x" : "%u", x->v32);
	}
}

int
sl_hdrs_len(const struct sl_hdrs *s)
{
	int bytes = 0;

	if (s->n == 0 || s->n > SL_STACK_MAX)
		return -EINVAL;
	for (uint8_t i = 0; i < s->n; i++) {
		if (s->kind[i] >= H_KINDS)
			return -EINVAL;
		bytes += hdefs[s->kind[i]].len;
	}
	return bytes;
}

const char *
sl_hdrs_kind(const struct sl_hdrs *s, unsigned int i)
{
	return i < s->n && s->kind[i] < H_KINDS ? hdefs[s->kind[i]].name : NULL;
}

int
sl_hdrs_val(const struct sl_hdrs *s, unsigned int v, uint8_t *hdr, const char **field,
	    char *text, size_t len)
{
	const struct sl_hdr_val *x = &s->val[v];
	const struct hdef *h;

	if (v >= s->nb_vals || x->hdr >= s->n || s->kind[x->hdr] >= H_KINDS ||
	    (x->field != SL_HDR_TPID && x->field >= SL_STACK_FIELDS_MAX))
		return -EINVAL;
	h = &hdefs[s->kind[x->hdr]];
	if (x->field != SL_HDR_TPID && h->f[x->field].name == NULL)
		return -EINVAL;
	*hdr = x->hdr;
	*field = x->field == SL_HDR_TPID ? tpid_def.name : h->f[x->field].name;
	val_str(h, x, text, len);
	return 0;
}

int
sl_stack_str(const struct sl_hdrs *s, char *buf, size_t len)
{
	size_t off = 0;

	if (len != 0)
		buf[0] = '\0';
	for (uint8_t i = 0; i < s->n && s->kind[i] < H_KINDS; i++) {
		const struct hdef *h = &hdefs[s->kind[i]];
		bool first = true;

		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s", i ? "/" : "",
					h->name);
		for (uint8_t v = 0; v < s->nb_vals; v++) {
			const struct sl_hdr_val *x = &s->val[v];
			const struct fdef *f;
			char val[INET6_ADDRSTRLEN];

			if (x->hdr != i || (x->field != SL_HDR_TPID && x->field >= SL_STACK_FIELDS_MAX))
				continue;
			f = x->field == SL_HDR_TPID ? &tpid_def : &h->f[x->field];
			val_str(h, x, val, sizeof(val));
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s=%s",
						first ? "(" : ",", f->name, val);
			first = false;
		}
		if (!first)
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, ")");
	}
	return off < len ? (int)off : -ENOSPC;
}

/*
 * Lay s's headers into tmpl: each zeroed at its offset, then the values
 * given; their kinds, offsets and given fields into h (*nb of them).
 */
static int
lay(const struct sl_hdrs *s, uint8_t *tmpl, struct hdr_at *h, int *nb, uint16_t *total,
    char *err, size_t len)
{
	uint16_t off = 0;

	if (s->n == 0 || s->n > SL_STACK_MAX || s->nb_vals > SL_STACK_VALS_MAX) {
		snprintf(err, len, "no header (give e.g. eth/ipv4/udp)");
		return -EINVAL;
	}
	for (uint8_t i = 0; i < s->n; i++) {
		if (s->kind[i] >= H_KINDS || off + hdefs[s->kind[i]].len > SL_STACK_HDR_MAX) {
			snprintf(err, len, "more than %d headers or %d bytes of them", SL_STACK_MAX,
				 SL_STACK_HDR_MAX);
			return -EINVAL;
		}
		h[i] = (struct hdr_at){ (enum hdr)s->kind[i], off, 0 };
		memset(tmpl + off, 0, hdefs[s->kind[i]].len);
		off += hdefs[s->kind[i]].len;
	}
	for (uint8_t v = 0; v < s->nb_vals; v++) {
		const struct sl_hdr_val *x = &s->val[v];
		struct hdr_at *at;

		if (x->hdr >= s->n)
			continue;
		at = &h[x->hdr];
		if (x->field == SL_HDR_TPID) {
			/* The tag's TPID is the type field before it. */
			struct fdef t = tpid_def;
			struct hdr_at *prev = x->hdr > 0 ? &h[x->hdr - 1] : NULL;

			if (prev == NULL || (prev->kind != H_ETH && prev->kind != H_VLAN)) {
				snprintf(err, len, "vlan: a tag follows eth or vlan");
				return -EINVAL;
			}
			t.off = prev->kind == H_ETH ? 12 : 2;
			val_put(tmpl + prev->off, &t, x);
			prev->given |= 1u << find_field(prev->kind, "type");
			continue;
		}
		if (x->field >= SL_STACK_FIELDS_MAX || hdefs[at->kind].f[x->field].name == NULL)
			continue;
		val_put(tmpl + at->off, &hdefs[at->kind].f[x->field], x);
		at->given |= 1u << x->field;
	}
	*nb = s->n;
	*total = off;
	return 0;
}

static bool
given(const struct hdr_at *h, const char *field)
{
	int fi = find_field(h->kind, field);

	return fi >= 0 && (h->given & (1u << fi)) != 0;
}

/* Set field name of header h unless the text gave it. */
static void
fill(uint8_t *tmpl, const struct hdr_at *h, const char *field, uint32_t v)
{
	int fi = find_field(h->kind, field);

	if (fi >= 0 && !given(h, field))
		put(tmpl + h->off, &hdefs[h->kind].f[fi], v);
}

static int
bad_next(const struct hdr_at *h, const struct hdr_at *next, const char *want, char *err,
	 size_t len)
{
	snprintf(err, len, "%s cannot be followed by %s (give %s)", hdefs[h->kind].name,
		 next != NULL ? hdefs[next->kind].name : "nothing", want);
	return -EINVAL;
}

int
sl_stack_compile(const struct sl_hdrs *s, const struct sl_stack_defaults *d, uint8_t *tmpl,
		 uint16_t *hdr_len, struct sl_stack_rt *rt, char *err, size_t len)
{
	struct hdr_at h[SL_STACK_MAX];
	uint16_t total;
	int n, eth_seen = 0, ip4_seen = 0, ip6_seen = 0, outer_tags = 0, outer_labels = 0;

	memset(rt, 0, sizeof(*rt));
	if (lay(s, tmpl, h, &n, &total, err, len) != 0)
		return -EINVAL;
	if (h[0].kind != H_ETH)
		return snprintf(err, len, "a stack starts with eth"), -EINVAL;
	for (int i = 0; i < n; i++) {
		const struct hdr_at *x = &h[i], *nx = i + 1 < n ? &h[i + 1] : NULL;
		uint8_t *p = tmpl + x->off;
		enum hdr nk = nx != NULL ? nx->kind : H_KINDS;

		switch (x->kind) {
		case H_ETH:
		case H_VLAN: {
			uint16_t type = nk == H_VLAN ? (x->kind == H_ETH && n > i + 2 &&
							h[i + 2].kind == H_VLAN ? 0x88a8 : 0x8100) :
					nk == H_MPLS ? 0x8847 : nk == H_IPV4 ? 0x0800 :
					nk == H_IPV6 ? 0x86dd : 0;

			uint16_t to = x->kind == H_ETH ? 12 : 2, got;

			if (type == 0)
				return bad_next(x, nx, "vlan, mpls, ipv4 or ipv6", err, len);
			fill(tmpl, x, "type", type);
			got = (uint16_t)(p[to] << 8 | p[to + 1]);
			/*
			 * Before the outer IP header the receive side follows the
			 * types to the signature: a tag's TPID may be 0x8100 or
			 * 0x88a8, any other type must be the next header's.
			 */
			if (ip4_seen + ip6_seen == 0 && given(x, "type") && nk == H_VLAN &&
			    got != 0x8100 && got != 0x88a8)
				return snprintf(err, len, "vlan: tpid 0x%04x: the receive side follows "
						"0x8100 and 0x88a8 tags only", got), -EINVAL;
			if (ip4_seen + ip6_seen == 0 && given(x, "type") && nk != H_VLAN &&
			    got != type)
				return snprintf(err, len, "%s: type 0x%04x before %s: the receive side "
						"reads 0x%04x there (leave type to Sluice)",
						hdefs[x->kind].name, got, hdefs[nk].name, type),
				       -EINVAL;
			if (x->kind == H_VLAN) {
				if (ip4_seen + ip6_seen == 0)
					rt->extra_tags++, outer_tags++;
				break;
			}
			/* The outer MACs are the flow's; an inner eth's, fixed ones. */
			if (!given(x, "dst"))
				memcpy(p, eth_seen ? (const uint8_t[6]){ 2, 0, 0, 0, 0, 2 } :
				       d->dst_mac.addr_bytes, 6);
			if (!given(x, "src"))
				memcpy(p + 6, eth_seen ? (const uint8_t[6]){ 2, 0, 0, 0, 0, 1 } :
				       d->src_mac.addr_bytes, 6);
			eth_seen++;
			break;
		}
		case H_MPLS:
			if (nk != H_MPLS && nk != H_IPV4 && nk != H_IPV6)
				return bad_next(x, nx, "mpls, ipv4 or ipv6", err, len);
			fill(tmpl, x, "s", nk != H_MPLS);
			fill(tmpl, x, "ttl", 64);
			if ((p[2] & 1) != (nk != H_MPLS) && ip4_seen + ip6_seen == 0)
				return snprintf(err, len, "mpls: s=%u on %s label: the bottom of the "
						"stack is the last label (leave s to Sluice)", p[2] & 1,
						nk == H_MPLS ? "a middle" : "the last"), -EINVAL;
			if (ip4_seen + ip6_seen == 0)
				rt->extra_tags++, outer_labels++;
			break;
		case H_IPV4:
		case H_IPV6: {
			/*
			 * Nothing after: a raw payload, as OTG's protocol
			 * defaults say (IPv4 61, any host internal protocol;
			 * IPv6 59, no next header).
			 */
			uint8_t proto = nk == H_UDP ? 17 : nk == H_TCP ? 6 : nk == H_GRE ? 47 :
					nk == H_IPV4 ? 4 : nk == H_IPV6 ? 41 :
					(nk == H_ICMP && x->kind == H_IPV4) ? 1 :
					(nk == H_ICMP6 && x->kind == H_IPV6) ? 58 :
					nk == H_KINDS ? (x->kind == H_IPV4 ? 61 : 59) : 0;

			if (proto == 0)
				return bad_next(x, nx, x->kind == H_IPV4 ?
						"udp, tcp, icmp, gre, ipv4, ipv6 or nothing" :
						"udp, tcp, icmp6, gre, ipv4, ipv6 or nothing", err, len);
			if (x->kind == H_IPV4) {
				fill(tmpl, x, "ver", 4);
				fill(tmpl, x, "ihl", 5);
				/* DF (ID 0 is fine: RFC 6864), unless a bit of the word is given */
				if (!given(x, "rsv") && !given(x, "df") && !given(x, "mf") &&
				    !given(x, "foff"))
					fill(tmpl, x, "frag", 0x4000);
				fill(tmpl, x, "ttl", 64);
				fill(tmpl, x, "proto", proto);
				if (!given(x, "src"))
					put(p, &hdefs[H_IPV4].f[9], d->src_ip);
				if (!given(x, "dst"))
					put(p, &hdefs[H_IPV4].f[10], d->dst_ip);
				if (!given(x, "len"))
					rt->len[rt->nb_len++] = (typeof(rt->len[0])){ x->off + 2, x->off };
				if (!given(x, "csum"))
					rt->ip4[rt->nb_ip4++] = x->off;
				ip4_seen++;
			} else {
				p[0] = (uint8_t)(0x60 | (p[0] & 0x0f));
				fill(tmpl, x, "nh", proto);
				fill(tmpl, x, "hlim", 64);
				if (!given(x, "src"))
					memcpy(p + 8, d->src_ip6, 16);
				if (!given(x, "dst"))
					memcpy(p + 24, d->dst_ip6, 16);
				if (!given(x, "plen"))
					rt->len[rt->nb_len++] =
						(typeof(rt->len[0])){ x->off + 4, x->off + 40 };
				ip6_seen++;
			}
			break;
		}
		case H_UDP:
			if (nk != H_KINDS && nk != H_VXLAN && nk != H_GTPU)
				return bad_next(x, nx, "vxlan, gtpu or nothing", err, len);
			fill(tmpl, x, "sport", d->src_port);
			fill(tmpl, x, "dport", nk == H_VXLAN ? 4789 : nk == H_GTPU ? 2152 :
			     d->dst_port);
			if (!given(x, "len"))
				rt->len[rt->nb_len++] = (typeof(rt->len[0])){ x->off + 4, x->off };
			break;
		case H_TCP:
			if (nk != H_KINDS)
				return bad_next(x, nx, "nothing: tcp is the last header", err, len);
			fill(tmpl, x, "sport", d->src_port);
			fill(tmpl, x, "dport", d->dst_port);
			fill(tmpl, x, "doff", 5);
			/* PSH|ACK, as the classic stream, unless a flag is given */
			if (!given(x, "cwr") && !given(x, "ece") && !given(x, "urgf") &&
			    !given(x, "ackf") && !given(x, "psh") && !given(x, "rst") &&
			    !given(x, "syn") && !given(x, "fin"))
				fill(tmpl, x, "flags", 0x18);
			fill(tmpl, x, "win", 65535);
			break;
		case H_ICMP:
		case H_ICMP6:
			if (nk != H_KINDS)
				return bad_next(x, nx, "nothing: icmp is the last header", err, len);
			fill(tmpl, x, "type", x->kind == H_ICMP ? 8 : 128); /* echo request */
			break;
		case H_VXLAN:
			if (nk != H_ETH)
				return bad_next(x, nx, "eth", err, len);
			fill(tmpl, x, "flags", 0x08); /* a valid VNI */
			break;
		case H_GRE: {
			/* Nothing after: a raw payload, protocol 0x6558 as OTG's default. */
			uint16_t proto = nk == H_ETH || nk == H_KINDS ? 0x6558 : nk == H_IPV4 ?
					 0x0800 : nk == H_IPV6 ? 0x86dd : nk == H_MPLS ? 0x8847 : 0;

			if (proto == 0)
				return bad_next(x, nx, "eth, mpls, ipv4, ipv6 or nothing", err, len);
			fill(tmpl, x, "proto", proto);
			if ((p[0] & 0xf0) != 0 || (p[1] & 0x07) != 0)
				return snprintf(err, len, "gre: flags with C, K or S bits (optional "
						"fields: c, rsv0) or a version (ver) are not "
						"supported: give 0"),
				       -EINVAL;
			break;
		}
		case H_GTPU:
			if (nk != H_IPV4 && nk != H_IPV6)
				return bad_next(x, nx, "ipv4 or ipv6", err, len);
			fill(tmpl, x, "flags", 0x30); /* version 1, GTP (not GTP') */
			fill(tmpl, x, "type", 0xff);  /* G-PDU */
			if (!given(x, "len"))
				rt->len[rt->nb_len++] = (typeof(rt->len[0])){ x->off + 2, x->off + 8 };
			break;
		default:
			break;
		}
	}
	if (ip4_seen + ip6_seen == 0)
		return snprintf(err, len, "no ipv4 or ipv6 header: the receive side finds the "
				"signature from the outer IP header"), -EINVAL;
	/* What the receive side looks past to the outer IP header (sl_sig_parse()). */
	if (outer_tags > SL_SIG_MAX_TAGS || outer_labels > SL_SIG_MAX_LABELS)
		return snprintf(err, len, "%d VLAN tags and %d MPLS labels before the IP header: "
				"the receive side reads past %d and %d", outer_tags, outer_labels,
				SL_SIG_MAX_TAGS, SL_SIG_MAX_LABELS), -EINVAL;
	/* L4 checksums, innermost first: an outer one covers the inner ones. */
	for (int i = n - 1; i >= 0; i--) {
		const struct hdr_at *x = &h[i];
		int ip = i - 1;

		if (x->kind != H_UDP && x->kind != H_TCP && x->kind != H_ICMP && x->kind != H_ICMP6)
			continue;
		while (ip >= 0 && h[ip].kind != H_IPV4 && h[ip].kind != H_IPV6)
			ip--;
		rt->l4[rt->nb_l4++] = (typeof(rt->l4[0])){
			.off = x->off,
			.csum = (uint16_t)(x->off + (x->kind == H_UDP ? 6 : x->kind == H_TCP ? 16 : 2)),
			.ip = ip >= 0 ? h[ip].off : 0,
			.ph = x->kind == H_ICMP ? 0 : h[ip].kind == H_IPV4 ? 4 : 6,
			.proto = x->kind == H_UDP ? 17 : x->kind == H_TCP ? 6 : 58,
			.udp = x->kind == H_UDP,
			.off0 = given(x, "csum"),
		};
	}
	*hdr_len = total;
	return 0;
}

int
sl_stack_field_find(const struct sl_hdrs *s, const char *path, struct sl_stack_field *f,
		    char *err, size_t len)
{
	uint8_t tmpl[SL_STACK_HDR_MAX + 16];
	struct hdr_at h[SL_STACK_MAX];
	char buf[64], *dot, *name, names[160];
	unsigned long nth = 1;
	uint16_t total;
	int n, k, fi, seen = 0;

	if (lay(s, tmpl, h, &n, &total, err, len) != 0)
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", path);
	dot = strchr(buf, '.');
	if (dot == NULL)
		goto bad;
	*dot = '\0';
	name = dot + 1;
	k = find_kind(buf, strlen(buf));
	if (k < 0)
		goto bad;
	dot = strchr(name, '.');
	if (dot != NULL) {
		char *end;

		nth = strtoul(name, &end, 10);
		if (end != dot || nth == 0 || nth > SL_STACK_MAX)
			goto bad;
		name = dot + 1;
	}
	fi = find_field((enum hdr)k, name);
	if (fi < 0 || strcmp(name, "tpid") == 0) {
		field_names((enum hdr)k, names, sizeof(names));
		snprintf(err, len, "field %s: %s has the fields %s%s", path, hdefs[k].name, names,
			 strcmp(name, "tpid") == 0 ? " (tpid cannot vary)" : "");
		return -EINVAL;
	}
	/* GRE's optional fields are not built: its bits that would ask for them stay 0. */
	if (k == H_GRE && strcmp(name, "proto") != 0) {
		snprintf(err, len, "field %s: GRE's C, K and S bits and its version stay 0: "
			 "it cannot vary", path);
		return -EINVAL;
	}
	/* Lengths and checksums are written per frame: a pattern there would be lost. */
	if (strcmp(name, "csum") == 0 || strcmp(name, "len") == 0 || strcmp(name, "plen") == 0) {
		snprintf(err, len, "field %s: computed for every frame: it cannot vary", path);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		const struct fdef *d = &hdefs[k].f[fi];

		if ((int)h[i].kind != k || ++seen != (int)nth)
			continue;
		f->off = (uint16_t)(h[i].off + d->off + (d->big == 6 ? 2 : d->big == 16 ? 12 : 0));
		f->win = d->win;
		f->shift = d->shift;
		f->bits = d->bits;
		f->big = d->big;
		return 0;
	}
	snprintf(err, len, "field %s: the stack has %d %s header(s)", path, seen, hdefs[k].name);
	return -EINVAL;
bad:
	snprintf(err, len, "field '%s': give HEADER.FIELD or HEADER.N.FIELD (e.g. ipv4.2.src, "
		 "vxlan.vni)", path);
	return -EINVAL;
}
