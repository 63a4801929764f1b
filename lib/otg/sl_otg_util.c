/* SPDX-License-Identifier: BSD-3-Clause */
/* What the OTG reader's files share (sl_otg_pvt.h): errors, numbers, strings, ports. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "sl_otg_pvt.h"

int __attribute__((format(printf, 3, 4)))
sl_otg_errf(struct sl_otg_err *e, const char *path, const char *fmt, ...)
{
	va_list ap;

	snprintf(e->path, sizeof(e->path), "%s", path);
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void __attribute__((format(printf, 3, 4)))
sl_otg_warnf(struct sl_otg_err *e, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (e->nb_warnings >= RTE_DIM(e->warnings)) {
		e->more_warnings++;
		return;
	}
	n = snprintf(e->warnings[e->nb_warnings], sizeof(e->warnings[0]), "%s: ", path);
	if (n < 0 || (size_t)n >= sizeof(e->warnings[0]))
		n = (int)sizeof(e->warnings[0]) - 1; /* a long path: the message cut */
	va_start(ap, fmt);
	vsnprintf(e->warnings[e->nb_warnings] + n, sizeof(e->warnings[0]) - n, fmt, ap);
	va_end(ap);
	e->nb_warnings++;
}

/*
 * Numbers as OTG clients send them: the proto3 JSON mapping writes 64-bit
 * integers as strings ("pps": "1000", snappi and gosnappi both), and
 * accepts strings for any number; so do we, whole strings only.
 */
bool
sl_otg_int_of(const json_t *v, json_int_t *out)
{
	const char *s;
	char *end;
	long long n;

	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return true;
	}
	s = json_string_value(v);
	if (s == NULL || s[0] == '\0' || strspn(s, "-0123456789") != strlen(s))
		return false;
	errno = 0;
	n = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*out = n;
	return true;
}

/* A whole number within [lo, hi] (absent or wrong: false). */
bool
sl_otg_int_in(const json_t *v, json_int_t lo, json_int_t hi, json_int_t *out)
{
	json_int_t n;

	if (!sl_otg_int_of(v, &n) || n < lo || n > hi)
		return false;
	*out = n;
	return true;
}

/* A member of an object that, when present, must be a string (absent: NULL). */
int
sl_otg_opt_string(const json_t *o, const char *key, const char **out)
{
	const json_t *v = json_object_get(o, key);

	*out = json_string_value(v);
	return v == NULL || json_is_string(v) ? 0 : -1;
}

/*
 * A location as Ixia-c writes a test port's: HOST:PORT or HOST:PORT;ID (a
 * name or an address, then a TCP port of digits). A PCI address
 * (0000:01:00.0) is not one: its part after the last ':' is no TCP port.
 */
static bool
loc_is_host(const char *loc)
{
	const char *c = strrchr(loc, ':'), *semi = strchr(loc, ';');
	size_t digits;

	if (c == NULL || c == loc || (semi != NULL && semi < c))
		return false;
	digits = strspn(c + 1, "0123456789");
	return digits >= 1 && digits <= 5 && (c[1 + digits] == '\0' || c[1 + digits] == ';');
}

/* A port by its OTG name: its location is a port id or a DPDK port name. */
int
sl_otg_port_of(const json_t *ports, const struct sl_config_env *env, const char *name,
	       const char *path, uint16_t *pid, struct sl_otg_err *e)
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
			return sl_otg_errf(e, path, "port %s has no location: give a port id (\"0\") or a "
				    "DPDK port name", name);
		v = strtoul(loc, &end, 10);
		*pid = UINT16_MAX;
		if (*loc >= '0' && *loc <= '9' && strspn(loc, "0123456789") == strlen(loc) &&
		    *end == '\0' && v < env->nb_ports)
			*pid = (uint16_t)v;
		for (uint16_t k = 0; k < env->nb_ports && *pid == UINT16_MAX; k++)
			if (strcmp(env->port[k].info.name, loc) == 0)
				*pid = k;
		if (*pid != UINT16_MAX)
			return 0;
		/* Ixia-c's HOST:PORT[;ID] (a test port's agent), or a DPDK name: neither is here. */
		if (loc_is_host(loc))
			return sl_otg_errf(e, path, "port %s: location '%s' names a host (HOST:PORT[;ID], "
				    "as Ixia-c writes a test port's): Sluice drives the ports of "
				    "its own host only; give a port id (\"0\") or a DPDK port name",
				    name, loc);
		return sl_otg_errf(e, path, "port %s: location '%s' is no port here (ports 0..%u, by id or "
			    "DPDK name)", name, loc, env->nb_ports ? env->nb_ports - 1 : 0);
	}
	return sl_otg_errf(e, path, "no port named '%s' in ports[]", name);
}
