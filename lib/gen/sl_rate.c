/* SPDX-License-Identifier: BSD-3-Clause */
/* The rate model: parse, print, check against the line, resolve for the pacer. */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_common.h>

#include "sl_rate.h"

/*
 * Whether s starts as a decimal number does: a digit, or a point and a
 * digit. strtod() also takes leading spaces, a sign, hex ("0x10") and
 * "inf"; none of them is a rate. Hex: no 'x' right after a leading 0.
 */
static bool
decimal(const char *s)
{
	if (!(isdigit((unsigned char)s[0]) || (s[0] == '.' && isdigit((unsigned char)s[1]))))
		return false;
	return !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'));
}

/* A positive decimal number at the start of s (no sign, no hex, no space); *end after it. */
static int
rate_number(const char *s, double *v, char **end)
{
	if (!decimal(s))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, end);
	if (errno != 0 || *end == s || !isfinite(*v) || *v <= 0)
		return -EINVAL;
	return 0;
}

int
sl_rate_parse(const char *s, struct sl_rate *r)
{
	static const struct {
		const char *suffix;
		enum sl_rate_unit unit;
		double mult;
	} units[] = {
		{ "pps", SL_RATE_PPS, 1 }, { "kpps", SL_RATE_PPS, 1e3 }, { "Mpps", SL_RATE_PPS, 1e6 },
		{ "Gpps", SL_RATE_PPS, 1e9 },
		{ "bps", SL_RATE_L1, 1 }, { "kbps", SL_RATE_L1, 1e3 }, { "Mbps", SL_RATE_L1, 1e6 },
		{ "Gbps", SL_RATE_L1, 1e9 }, { "Tbps", SL_RATE_L1, 1e12 },
		{ "bps-l2", SL_RATE_L2, 1 }, { "kbps-l2", SL_RATE_L2, 1e3 },
		{ "Mbps-l2", SL_RATE_L2, 1e6 }, { "Gbps-l2", SL_RATE_L2, 1e9 },
		{ "Tbps-l2", SL_RATE_L2, 1e12 },
		{ "%", SL_RATE_PCT, 1 },
	};
	char *end;
	double v;

	if (strcasecmp(s, "max") == 0) {
		*r = (struct sl_rate){ SL_RATE_NONE, 0 };
		return 0;
	}
	if (rate_number(s, &v, &end) != 0)
		return -EINVAL;
	for (size_t i = 0; i < RTE_DIM(units); i++) {
		/* Units are case-insensitive (10mpps, 10MPPS): M is mega here, never milli. */
		if (strcasecmp(end, units[i].suffix) != 0)
			continue;
		if (units[i].unit == SL_RATE_PCT && v > 100)
			return -EINVAL;
		/* 550e300Gbps overflows to infinity (found by fuzz-rate). */
		if (!isfinite(v * units[i].mult))
			return -EINVAL;
		r->unit = units[i].unit;
		r->value = v * units[i].mult;
		return 0;
	}
	return -EINVAL;
}

int
sl_rate_parse_bps(const char *s, uint64_t *bps)
{
	char *end;
	double v;

	if (rate_number(s, &v, &end) != 0)
		return -EINVAL;
	switch (toupper((unsigned char)*end)) {
	case 'K': v *= 1e3; end++; break;
	case 'M': v *= 1e6; end++; break;
	case 'G': v *= 1e9; end++; break;
	case 'T': v *= 1e12; end++; break;
	default: break;
	}
	if (strcasecmp(end, "bps") == 0 || strcasecmp(end, "b") == 0)
		end += strlen(end);
	if (*end != '\0' || v < 1e3 || v > 1e13)
		return -EINVAL;
	*bps = (uint64_t)(v + 0.5);
	return 0;
}

/* v in the largest of the units (each 1000 times the one before) that keeps it at 1 or more. */
static void
scaled(double v, const char *const *units, size_t n, bool fixed, char *buf, size_t len)
{
	size_t i = 0;

	while (i + 1 < n && fabs(v) >= 1000 * (1 - 5e-7)) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, fixed ? "%.3f %s" : "%.6g %s", v, units[i]);
}

void
sl_rate_fmt_pps(double pps, char *buf, size_t len)
{
	static const char *const u[] = { "pps", "kpps", "Mpps", "Gpps" };

	scaled(pps, u, RTE_DIM(u), true, buf, len);
}

void
sl_rate_fmt_bps(double bps, char *buf, size_t len)
{
	static const char *const u[] = { "b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s" };

	scaled(bps, u, RTE_DIM(u), true, buf, len);
}

const char *
sl_rate_speed_str(uint64_t bps, char *buf, size_t len)
{
	if (bps == 0)
		snprintf(buf, len, "unknown");
	else if (bps >= 1000000000)
		snprintf(buf, len, "%.10g Gb/s", bps / 1e9);
	else if (bps >= 1000000)
		snprintf(buf, len, "%.10g Mb/s", bps / 1e6);
	else
		snprintf(buf, len, "%.10g kb/s", bps / 1e3);
	return buf;
}

void
sl_rate_str(const struct sl_rate *r, char *buf, size_t len)
{
	static const char *const pps[] = { "pps", "kpps", "Mpps", "Gpps" };
	static const char *const l1[] = { "b/s L1", "kb/s L1", "Mb/s L1", "Gb/s L1", "Tb/s L1" };
	static const char *const l2[] = { "b/s L2", "kb/s L2", "Mb/s L2", "Gb/s L2", "Tb/s L2" };

	switch (r->unit) {
	case SL_RATE_PPS:
		scaled(r->value, pps, RTE_DIM(pps), false, buf, len);
		break;
	case SL_RATE_L1:
		scaled(r->value, l1, RTE_DIM(l1), false, buf, len);
		break;
	case SL_RATE_L2:
		scaled(r->value, l2, RTE_DIM(l2), false, buf, len);
		break;
	case SL_RATE_PCT:
		snprintf(buf, len, "%.6g%% of line", r->value);
		break;
	default:
		snprintf(buf, len, "max");
	}
}

int
sl_rate_resolve(const struct sl_rate *r, double line_bps, double mean_l1, double mean_l2,
		struct sl_rate *pace, char *err, size_t len)
{
	double l1 = 0;
	char rs[64];

	*pace = *r;
	switch (r->unit) {
	case SL_RATE_NONE:
		return 0;
	case SL_RATE_PPS:
		l1 = r->value * mean_l1;
		break;
	case SL_RATE_L1:
		l1 = r->value;
		break;
	case SL_RATE_L2:
		l1 = r->value * mean_l1 / mean_l2;
		break;
	case SL_RATE_PCT:
		if (line_bps == 0) {
			snprintf(err, len, "%g%% needs a link speed and the port reports none: give "
				 "an absolute rate", r->value);
			return -EINVAL;
		}
		pace->unit = SL_RATE_L1;
		pace->value = line_bps * r->value / 100;
		l1 = pace->value;
		break;
	}
	if (line_bps != 0 && l1 > line_bps * (1 + 1e-9)) {
		sl_rate_str(r, rs, sizeof(rs));
		snprintf(err, len, "%s is above the line rate: %g Gb/s, %.4g Mpps at these sizes", rs,
			 line_bps / 1e9, line_bps / mean_l1 / 1e6);
		return -EINVAL;
	}
	if (line_bps != 0 && l1 >= line_bps * (1 - 1e-9))
		*pace = (struct sl_rate){ SL_RATE_NONE, 0 };
	return 0;
}

int
sl_u64_parse(const char *s, uint64_t min, uint64_t max, uint64_t *v, char *err, size_t len)
{
	unsigned long long x;
	char *end;

	errno = 0;
	if (s == NULL || !isdigit((unsigned char)*s) || (x = strtoull(s, &end, 10), errno != 0) ||
	    *end != '\0') {
		snprintf(err, len, "'%s' is not a number", s != NULL ? s : "");
		return -EINVAL;
	}
	if (x < min || x > max) {
		snprintf(err, len, "%llu is out of range %" PRIu64 "..%" PRIu64, x, min, max);
		return -EINVAL;
	}
	*v = x;
	return 0;
}
