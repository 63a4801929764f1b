/* SPDX-License-Identifier: BSD-3-Clause */
/* The value parsers, shared by the options and the prompt (parse.h). */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>
#include <rte_lcore.h>

#include "parse.h"

/*
 * A decimal number at *p, at most max (no sign, no wrap: sscanf's %u wraps
 * 4294967297 to 1); advances *p. Returns 0, or -1 if there is none or it is
 * too big.
 */
static int
scan_uint(const char **p, unsigned long max, unsigned int *v)
{
	unsigned long x = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		x = x * 10 + (unsigned long)(*s - '0');
		if (x > max)
			return -1;
	}
	*v = (unsigned int)x;
	*p = s;
	return 0;
}

/* "LO-HI" or "LO" (hi = lo) followed by end or by stop; each at most max. */
static int
scan_range(const char **p, unsigned long max, unsigned int *lo, unsigned int *hi)
{
	if (scan_uint(p, max, lo) != 0)
		return -1;
	*hi = *lo;
	if (**p == '-') {
		(*p)++;
		if (scan_uint(p, max, hi) != 0)
			return -1;
	}
	return 0;
}

int
sl_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v, char *err, size_t len)
{
	return sl_u64_parse(s, min, max, v, err, len);
}

/* Seconds as sl_parse_seconds() reads them; 0 too when zero_ok. */
static int
seconds(const char *s, bool zero_ok, uint64_t *us, char *err, size_t len)
{
	/* A unit may follow, in any case: 2s, 500ms, 100us (none: seconds). */
	static const struct { const char *unit; double us; } units[] = {
		{ "", 1e6 }, { "s", 1e6 }, { "ms", 1e3 }, { "us", 1 },
	};
	size_t u = RTE_DIM(units);
	char *end = NULL;
	double v = 0;

	errno = 0;
	/* Decimal digits only: no sign, no hex (0x10), no inf or nan. */
	if ((isdigit((unsigned char)*s) || *s == '.') && strpbrk(s, "xX") == NULL) {
		v = strtod(s, &end);
		if (errno == 0 && (v > 0 || (zero_ok && v == 0)))
			for (u = 0; u < RTE_DIM(units) && strcasecmp(end, units[u].unit) != 0; u++)
				;
	}
	if (u < RTE_DIM(units))
		v *= units[u].us; /* straight to microseconds: 9ms is 9000, not 9001 */
	if (errno != 0 || u == RTE_DIM(units) || !isfinite(v) || v < 0 || (v == 0 && !zero_ok) ||
	    v > SL_MAX_SECONDS * 1e6) {
		snprintf(err, len, "'%s' is not a number of seconds %s and at most %d (18 h: "
			 "the pacer and sim clocks are 48-bit); a unit may follow: s, ms, us", s,
			 zero_ok ? "from 0" : "above 0", SL_MAX_SECONDS);
		return -EINVAL;
	}
	/* Up to the next microsecond, less the float's own error (8.3 s is 8300000). */
	*us = (uint64_t)ceil(v - 1e-6);
	if (*us == 0 && v > 0)
		*us = 1;
	return 0;
}

int
sl_parse_seconds(const char *s, uint64_t *us, char *err, size_t len)
{
	return seconds(s, false, us, err, len);
}

int
sl_parse_speed(const char *s, double *speed, char *err, size_t len)
{
	char *end;
	double v;

	if (strcmp(s, "max") == 0) {
		*speed = -1;
		return 0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v >= 0.001) || v > 1000) {
		snprintf(err, len, "'%s': give a multiplier of the capture's timing, 0.001 to "
			 "1000 (2: twice as fast), or max", s);
		return -EINVAL;
	}
	*speed = v;
	return 0;
}

int
sl_parse_seconds0(const char *s, uint64_t *us, char *err, size_t len)
{
	return seconds(s, true, us, err, len);
}

/* A whole number in [min, max] from all of s; -1 if not. */
static long
whole(const char *s, long min, long max)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno != 0 || *end != '\0' || v < min || v > max ? -1 : v;
}

/*
 * "S", "S1,S2,...", "S:W,..." (weighted) or "MIN-MAX" (every size equally
 * often). On error c is unchanged and err says why.
 */
int
sl_parse_sizes(struct sl_stream_conf *c, const char *arg, char *err, size_t len)
{
	struct sl_stream_conf n = *c;
	char buf[512], *save = NULL, *tok;
	unsigned int lo, hi;

	if (strlen(arg) >= sizeof(buf)) {
		snprintf(err, len, "list too long");
		return -EINVAL;
	}
	n.size_min = n.size_max = n.size_step = 0;
	n.nb_sizes = 0;
	const char *q = arg;

	if (strchr(arg, '-') != NULL && scan_range(&q, 100000, &lo, &hi) == 0 &&
	    (*q == '\0' || *q == '/')) {
		long step = 0;

		if (lo < SL_GEN_MIN_FRAME || hi > SL_GEN_MAX_FRAME || lo > hi) {
			snprintf(err, len, "range %u-%u: give MIN-MAX within %d-%d", lo, hi,
				 SL_GEN_MIN_FRAME, SL_GEN_MAX_FRAME);
			return -EINVAL;
		}
		/* MIN-MAX/STEP: an increment, in ascending order. */
		if (*q == '/' && (step = whole(q + 1, 1, SL_GEN_MAX_FRAME)) < 0) {
			snprintf(err, len, "range %u-%u: step '%s' is not a whole number 1..%d", lo,
				 hi, q + 1, SL_GEN_MAX_FRAME);
			return -EINVAL;
		}
		n.size_min = lo;
		n.size_max = hi;
		n.size_step = (uint16_t)step;
		*c = n;
		return 0;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		long size, weight = 1;

		if (n.nb_sizes == SL_GEN_MAX_SIZES) {
			snprintf(err, len, "at most %d sizes", SL_GEN_MAX_SIZES);
			return -EINVAL;
		}
		if (colon != NULL) {
			*colon = '\0';
			weight = whole(colon + 1, 1, 4096);
		}
		size = whole(tok, SL_GEN_MIN_FRAME, SL_GEN_MAX_FRAME);
		if (size < 0) {
			snprintf(err, len, "'%s' is not a frame size %d..%d (with FCS), optionally :WEIGHT",
				 tok, SL_GEN_MIN_FRAME, SL_GEN_MAX_FRAME);
			return -EINVAL;
		}
		if (weight < 0) {
			snprintf(err, len, "size %ld: weight '%s' is not a whole number 1..4096 "
				 "(SIZE:WEIGHT)", size, colon + 1);
			return -EINVAL;
		}
		n.sizes[n.nb_sizes] = (uint16_t)size;
		n.weights[n.nb_sizes++] = (uint16_t)weight;
	}
	if (n.nb_sizes == 0) {
		snprintf(err, len, "give at least one frame size");
		return -EINVAL;
	}
	*c = n;
	return 0;
}

/* One value of a field: an IPv4 address, a MAC's low 3 bytes (aa:bb:cc), or a number. */
static int
field_value(enum sl_field_kind kind, const char *s, uint32_t *v)
{
	struct in_addr a;
	unsigned int m[3];
	int n = 0;
	long x;

	if ((kind == SL_FIELD_SRC_IP || kind == SL_FIELD_DST_IP || kind == SL_FIELD_PATH) &&
	    inet_pton(AF_INET, s, &a) == 1) {
		*v = ntohl(a.s_addr);
		return 0;
	}
	if ((kind == SL_FIELD_SRC_MAC || kind == SL_FIELD_DST_MAC) &&
	    sscanf(s, "%2x:%2x:%2x%n", &m[0], &m[1], &m[2], &n) == 3 && s[n] == '\0') {
		*v = (uint32_t)m[0] << 16 | (uint32_t)m[1] << 8 | m[2];
		return 0;
	}
	x = whole(s, 0, UINT32_MAX);
	if (x < 0)
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

/*
 * NAME=MODE:ARGS, e.g. dst-ip=inc:198.18.0.2,100  src-mac=random:00:00:01,16
 * dst-port=dec:2000,10  vlan=list:10,20,30. A field of the same name is
 * replaced; "off" clears them all. On error c is unchanged.
 */
/* A field's name in messages: its kind's, or its path. */
static const char *
fname(const struct sl_field_conf *f)
{
	return f->kind == SL_FIELD_PATH ? f->path : sl_field_names[f->kind];
}

int
sl_parse_field(struct sl_stream_conf *c, const char *arg, char *err, size_t len)
{
	const char *const *names = sl_field_names;
	const char *const *modes = sl_field_modes;
	struct sl_field_conf f = { 0 };
	char buf[256], *eq, *colon, *save = NULL, *tok;
	uint16_t k;
	int i;

	if (strcmp(arg, "off") == 0) {
		c->nb_fields = 0;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	eq = strchr(buf, '=');
	colon = eq != NULL ? strchr(eq, ':') : NULL;
	if (eq == NULL || colon == NULL) {
		snprintf(err, len, "'%s' is not NAME=MODE:ARGS (e.g. dst-ip=inc:198.18.0.2,100)", arg);
		return -EINVAL;
	}
	*eq = *colon = '\0';
	for (i = 0; i < SL_FIELD_KINDS && strcmp(buf, names[i]) != 0; i++)
		;
	if (i == SL_FIELD_KINDS && strchr(buf, '.') != NULL && strlen(buf) < sizeof(f.path)) {
		/* A header stack's field by its path (checked against the stack at build). */
		i = SL_FIELD_PATH;
		snprintf(f.path, sizeof(f.path), "%s", buf);
	}
	if (i == SL_FIELD_KINDS) {
		snprintf(err, len, "field '%s': give src-mac, dst-mac, src-ip, dst-ip, src-port, "
			 "dst-port or vlan, or a stack's HEADER.FIELD (ipv4.2.src)", buf);
		return -EINVAL;
	}
	f.kind = i;
	for (i = 0; modes[i] != NULL && strcmp(eq + 1, modes[i]) != 0; i++)
		;
	if (modes[i] == NULL) {
		snprintf(err, len, "field mode '%s': give inc, dec, random or list", eq + 1);
		return -EINVAL;
	}
	f.mode = i;
	for (tok = strtok_r(colon + 1, ",", &save), k = 0; tok != NULL;
	     tok = strtok_r(NULL, ",", &save), k++) {
		uint32_t v;

		if (f.mode == SL_FIELD_LIST && k == SL_FIELD_LIST_MAX) {
			snprintf(err, len, "field %s: at most %d values in a list", fname(&f),
				 SL_FIELD_LIST_MAX);
			return -EINVAL;
		}
		if (f.mode != SL_FIELD_LIST && k > (f.mode == SL_FIELD_RANDOM ? 1 : 2)) {
			snprintf(err, len, "field %s: '%s' is one value too many (give START,COUNT%s)",
				 fname(&f), tok, f.mode == SL_FIELD_RANDOM ? "" : "[,STEP]");
			return -EINVAL;
		}
		if (field_value(f.kind, tok, &v) != 0) {
			const char *what = "a whole number";

			if (f.mode != SL_FIELD_LIST && k == 1)
				what = "a COUNT (a whole number)";
			else if (f.mode != SL_FIELD_LIST && k == 2)
				what = "a STEP (a whole number)";
			else if (f.kind == SL_FIELD_SRC_MAC || f.kind == SL_FIELD_DST_MAC)
				what = "a MAC's low 3 bytes (such as 00:00:01)";
			else if (f.kind == SL_FIELD_SRC_IP || f.kind == SL_FIELD_DST_IP)
				what = "an IPv4 address (such as 198.18.0.2)";
			snprintf(err, len, "field %s: '%s' is not %s", fname(&f), tok, what);
			return -EINVAL;
		}
		if (f.mode == SL_FIELD_LIST)
			f.list[f.nb_list++] = v;
		else if (k == 0)
			f.start = v;
		else if (k == 1)
			f.count = v;
		else if (v == 0)
			return snprintf(err, len, "field %s: step 0: give 1 or more", fname(&f)), -EINVAL;
		else
			f.step = v;
	}
	if (f.mode == SL_FIELD_LIST ? f.nb_list == 0 : f.count == 0) {
		snprintf(err, len, "field %s: %s", fname(&f),
			 f.mode == SL_FIELD_LIST ? "give at least one value" : "give START,COUNT (COUNT >= 1)");
		return -EINVAL;
	}
	for (k = 0; k < c->nb_fields && (c->fields[k].kind != f.kind ||
					  (f.kind == SL_FIELD_PATH && strcmp(c->fields[k].path, f.path) != 0));
	     k++)
		;
	if (k == SL_FIELD_MAX) {
		snprintf(err, len, "at most %d fields", SL_FIELD_MAX);
		return -EINVAL;
	}
	c->fields[k] = f;
	if (k == c->nb_fields)
		c->nb_fields++;
	return 0;
}

/* "1-2:0.0,3:0.1". On error map is unchanged and err says why. */
int
sl_parse_map(struct sl_map_entry *map, uint16_t *nb, const char *arg, char *err, size_t len)
{
	struct sl_map_entry m[SL_MAP_MAX];
	char buf[1024], *save = NULL, *tok;
	uint16_t k = 0;

	if (strlen(arg) >= sizeof(buf)) {
		snprintf(err, len, "spec too long");
		return -EINVAL;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		unsigned int lo, hi, port, queue;
		const char *q = tok;

		if (scan_range(&q, RTE_MAX_LCORE, &lo, &hi) == 0 && *q++ == ':' &&
		    scan_uint(&q, SL_MAX_PORTS, &port) == 0 && *q++ == '.' &&
		    scan_uint(&q, SL_MAX_TXQ, &queue) == 0 && *q == '\0') {
			/* lcores:port.queue */
		} else {
			snprintf(err, len, "'%s' is not LCORES:PORT.QUEUE (e.g. 1-2:0.0)", tok);
			return -EINVAL;
		}
		if (lo > hi || hi >= RTE_MAX_LCORE) {
			snprintf(err, len, "bad lcore range in '%s'", tok);
			return -EINVAL;
		}
		if (port >= SL_MAX_PORTS || queue >= SL_MAX_TXQ) {
			snprintf(err, len, "port or queue out of range in '%s' (queues < %d)", tok,
				 SL_MAX_TXQ);
			return -EINVAL;
		}
		for (unsigned int l = lo; l <= hi; l++) {
			if (k == SL_MAP_MAX) {
				snprintf(err, len, "more than %d entries", SL_MAP_MAX);
				return -EINVAL;
			}
			m[k++] = (struct sl_map_entry){ l, port, queue };
		}
	}
	if (k == 0) {
		snprintf(err, len, "empty map");
		return -EINVAL;
	}
	memcpy(map, m, k * sizeof(m[0]));
	*nb = k;
	return 0;
}

int
sl_parse_ports(const char *arg, bool *set, char *err, size_t len)
{
	bool n[SL_MAX_PORTS] = { false };
	char buf[256], *save = NULL, *tok;

	if (strcmp(arg, "all") == 0 || strcmp(arg, "none") == 0) {
		for (int i = 0; i < SL_MAX_PORTS; i++)
			set[i] = arg[0] == 'a';
		return 0;
	}
	if (strlen(arg) >= sizeof(buf) || arg[0] == '\0') {
		snprintf(err, len, "'%s': give ports such as 0,1 or 0-3, all or none", arg);
		return -EINVAL;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		unsigned int lo, hi;
		const char *q = tok;

		if (scan_range(&q, SL_MAX_PORTS, &lo, &hi) == 0 && *q == '\0') {
			/* a port or a range */
		} else {
			snprintf(err, len, "'%s' is not a port or a range (e.g. 0,1 or 0-3)", tok);
			return -EINVAL;
		}
		if (lo > hi || hi >= SL_MAX_PORTS) {
			snprintf(err, len, "ports go from 0 to %d: '%s'", SL_MAX_PORTS - 1, tok);
			return -EINVAL;
		}
		for (unsigned int i = lo; i <= hi; i++)
			n[i] = true;
	}
	memcpy(set, n, sizeof(n));
	return 0;
}

int
sl_parse_lltx(const char *s, enum sl_lltx *l, char *err, size_t len)
{
	if (strcmp(s, "auto") == 0)
		*l = SL_LLTX_AUTO;
	else if (strcmp(s, "on") == 0)
		*l = SL_LLTX_ON;
	else if (strcmp(s, "off") == 0)
		*l = SL_LLTX_OFF;
	else {
		snprintf(err, len, "'%s': expected auto, on or off", s);
		return -EINVAL;
	}
	return 0;
}

int
sl_parse_listen(const char *s, char *host, size_t hlen, uint16_t *port, char *err, size_t len)
{
	const char *colon = strrchr(s, ':'), *p = colon != NULL ? colon + 1 : s;
	char h[64], e[128];
	uint8_t a[16];
	uint64_t v;

	snprintf(h, sizeof(h), "127.0.0.1");
	if (colon != NULL && s[0] == '[' && colon > s + 1 && colon[-1] == ']' &&
	    (size_t)(colon - s) - 2 < sizeof(h)) {
		snprintf(h, sizeof(h), "%.*s", (int)(colon - s - 2), s + 1); /* [IPv6]:PORT */
		if (inet_pton(AF_INET6, h, a) != 1)
			goto bad;
	} else if (colon != NULL) {
		if ((size_t)(colon - s) >= sizeof(h))
			goto bad;
		snprintf(h, sizeof(h), "%.*s", (int)(colon - s), s);
		if (inet_pton(AF_INET, h, a) != 1)
			goto bad;
	}
	if (sl_parse_u64(p, 0, 65535, &v, e, sizeof(e)) != 0)
		goto bad;
	snprintf(host, hlen, "%s", h);
	*port = (uint16_t)v;
	return 0;
bad:
	snprintf(err, len, "'%s': expected [ADDR:]PORT with a numeric address, e.g. 9100, "
		 "127.0.0.1:9100 or [::1]:9100 (PORT 0: any free port)", s);
	return -EINVAL;
}

int
sl_parse_ipv4(const char *s, uint32_t *ip, char *err, size_t len)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1) {
		snprintf(err, len, "'%s' is not an IPv4 address (e.g. 198.18.0.1)", s);
		return -EINVAL;
	}
	*ip = ntohl(a.s_addr);
	return 0;
}

int
sl_parse_ipv6(const char *s, uint8_t ip[16], char *err, size_t len)
{
	uint8_t a[16];

	if (inet_pton(AF_INET6, s, a) != 1) {
		snprintf(err, len, "'%s' is not an IPv6 address (e.g. 2001:2::1)", s);
		return -EINVAL;
	}
	memcpy(ip, a, 16);
	return 0;
}

int
sl_parse_mac(const char *s, struct rte_ether_addr *mac, char *err, size_t len)
{
	if (rte_ether_unformat_addr(s, mac) != 0) {
		snprintf(err, len, "'%s' is not a MAC address (e.g. 02:00:00:00:00:01)", s);
		return -EINVAL;
	}
	return 0;
}

int
sl_parse_rate(const char *s, struct sl_rate *r, char *err, size_t len)
{
	if (sl_rate_parse(s, r) != 0) {
		snprintf(err, len, "'%s': give %s", s, SL_RATE_SYNTAX);
		return -EINVAL;
	}
	return 0;
}

