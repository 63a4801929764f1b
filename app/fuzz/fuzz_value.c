/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The value parsers (parse.h), one target each, chosen at build time:
 * FUZZ_FIELD (--field / set field), FUZZ_SIZES (--size / set size),
 * FUZZ_RATE (--rate / set rate), FUZZ_MAP (--map / set map), FUZZ_STACK
 * (flow add ... stack TEXT: sl_stack_parse()). The input is the argument
 * string. Checked beyond "no crash": parse.h's contract (0, or
 * -EINVAL with a message and the output unchanged) and what a success
 * promises (within the limits; a field or size list the generator then
 * builds or refuses with a message).
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "parse.h"
#include "sl_gen.h"
#include "sl_rate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if defined(FUZZ_FIELD) || defined(FUZZ_SIZES)
/* A success must give a configuration the generator builds, or refuses with a message. */
static void
build(const struct sl_stream_conf *c)
{
	static struct sl_stream s;
	char err[256] = "";

	if (sl_stream_build(&s, c, SL_GEN_MAX_FRAME, err, sizeof(err)) != 0)
		SL_FUZZ_CHECK(err[0] != '\0');
	else
		SL_FUZZ_CHECK(s.hdr_len > 0);
}

static void
fuzz_conf(const char *arg)
{
	struct sl_stream_conf c, before;
	char err[256] = "";
	int ret;

	memset(&c, 0, sizeof(c));
	c.sizes[0] = 64;
	c.weights[0] = 1;
	c.nb_sizes = 1;
	c.src_ip = 0xc6120001;
	c.dst_ip = 0xc6120002;
	before = c;
#ifdef FUZZ_FIELD
	ret = sl_parse_field(&c, arg, err, sizeof(err));
#else
	ret = sl_parse_sizes(&c, arg, err, sizeof(err));
#endif
	SL_FUZZ_CHECK(ret == 0 || ret == -EINVAL);
	if (ret != 0) {
		SL_FUZZ_CHECK(err[0] != '\0');
		SL_FUZZ_CHECK(memcmp(&c, &before, sizeof(c)) == 0);
		return;
	}
	SL_FUZZ_CHECK(c.nb_fields <= SL_FIELD_MAX);
	for (uint16_t i = 0; i < c.nb_fields; i++)
		SL_FUZZ_CHECK(c.fields[i].nb_list <= SL_FIELD_LIST_MAX);
	SL_FUZZ_CHECK(c.nb_sizes <= SL_GEN_MAX_SIZES);
	if (c.size_max == 0) {
		SL_FUZZ_CHECK(c.nb_sizes >= 1);
		for (uint16_t i = 0; i < c.nb_sizes; i++)
			SL_FUZZ_CHECK(c.sizes[i] >= SL_GEN_MIN_FRAME);
	} else {
		SL_FUZZ_CHECK(c.size_min <= c.size_max);
	}
	build(&c);
}
#endif

#ifdef FUZZ_RATE
static void
fuzz_rate(const char *arg)
{
	struct sl_rate r = { SL_RATE_PPS, 1234.5 }, before = r, pace;
	char err[256] = "";
	int ret = sl_parse_rate(arg, &r, err, sizeof(err));

	SL_FUZZ_CHECK(ret == 0 || ret == -EINVAL);
	if (ret != 0) {
		SL_FUZZ_CHECK(err[0] != '\0');
		SL_FUZZ_CHECK(memcmp(&r, &before, sizeof(r)) == 0);
		return;
	}
	SL_FUZZ_CHECK(r.unit == SL_RATE_NONE || (isfinite(r.value) && r.value > 0));
	SL_FUZZ_CHECK(r.unit != SL_RATE_PCT || r.value <= 100);
	/* What a start does with it: 64-byte frames on a 10G and on an unknown line. */
	err[0] = '\0';
	if (sl_rate_resolve(&r, 10e9, 84 * 8, 64 * 8, &pace, err, sizeof(err)) == 0)
		SL_FUZZ_CHECK(pace.unit != SL_RATE_PCT &&
			      (pace.unit == SL_RATE_NONE || (isfinite(pace.value) &&
							     pace.value > 0)));
	else
		SL_FUZZ_CHECK(err[0] != '\0');
	err[0] = '\0';
	if (sl_rate_resolve(&r, 0, 84 * 8, 64 * 8, &pace, err, sizeof(err)) != 0)
		SL_FUZZ_CHECK(err[0] != '\0');
	sl_rate_str(&r, err, sizeof(err));
}
#endif

#ifdef FUZZ_MAP
static void
fuzz_map(const char *arg)
{
	static struct sl_map_entry m[SL_MAP_MAX], before[SL_MAP_MAX];
	uint16_t nb = 3;
	char err[256] = "";
	int ret;

	for (int i = 0; i < SL_MAP_MAX; i++)
		m[i] = (struct sl_map_entry){ 7, 7, 7 };
	memcpy(before, m, sizeof(m));
	ret = sl_parse_map(m, &nb, arg, err, sizeof(err));
	SL_FUZZ_CHECK(ret == 0 || ret == -EINVAL);
	if (ret != 0) {
		SL_FUZZ_CHECK(err[0] != '\0');
		SL_FUZZ_CHECK(nb == 3 && memcmp(m, before, sizeof(m)) == 0);
		return;
	}
	SL_FUZZ_CHECK(nb >= 1 && nb <= SL_MAP_MAX);
	for (uint16_t i = 0; i < nb; i++)
		SL_FUZZ_CHECK(m[i].lcore < RTE_MAX_LCORE && m[i].port < SL_MAX_PORTS &&
			      m[i].queue < SL_MAX_TXQ);
}
#endif

#ifdef FUZZ_STACK
/*
 * A stack read is written back as text that reads back to the same data,
 * and both compile to the same headers (or are refused alike, with a
 * message); a refusal says why.
 */
static void
fuzz_stack(const char *arg)
{
	static uint8_t t1[SL_STACK_HDR_MAX + 16], t2[SL_STACK_HDR_MAX + 16];
	struct sl_stack_defaults d = { .src_ip = 0xc6120001, .dst_ip = 0xc6120002,
				       .src_port = 5000, .dst_port = 7 };
	struct sl_hdrs a, b;
	struct sl_stack_rt r1, r2;
	char err[256] = "", text[SL_STACK_TEXT_MAX];
	uint16_t l1 = 0, l2 = 0;
	int ret = sl_stack_parse(arg, &a, err, sizeof(err)), c1, c2;

	SL_FUZZ_CHECK(ret == 0 || ret == -EINVAL);
	if (ret != 0) {
		SL_FUZZ_CHECK(err[0] != '\0');
		return;
	}
	SL_FUZZ_CHECK(a.n >= 1 && a.n <= SL_STACK_MAX && a.nb_vals <= SL_STACK_VALS_MAX);
	SL_FUZZ_CHECK(sl_stack_str(&a, text, sizeof(text)) > 0);
	SL_FUZZ_CHECK(sl_stack_parse(text, &b, err, sizeof(err)) == 0);
	SL_FUZZ_CHECK(a.n == b.n && a.nb_vals == b.nb_vals && memcmp(a.kind, b.kind, a.n) == 0);
	for (uint8_t i = 0; i < a.nb_vals; i++)
		SL_FUZZ_CHECK(a.val[i].hdr == b.val[i].hdr && a.val[i].field == b.val[i].field &&
			      a.val[i].len == b.val[i].len &&
			      memcmp(a.val[i].b, b.val[i].b, a.val[i].len) == 0);
	memset(t1, 0, sizeof(t1));
	memset(t2, 0, sizeof(t2));
	err[0] = '\0';
	c1 = sl_stack_compile(&a, &d, t1, &l1, &r1, err, sizeof(err));
	SL_FUZZ_CHECK(c1 == 0 || err[0] != '\0');
	c2 = sl_stack_compile(&b, &d, t2, &l2, &r2, err, sizeof(err));
	SL_FUZZ_CHECK(c1 == c2);
	if (c1 == 0)
		SL_FUZZ_CHECK(l1 == l2 && l1 <= SL_STACK_HDR_MAX && memcmp(t1, t2, l1) == 0);
}
#endif

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = sl_fuzz_str(data, size);

#if defined(FUZZ_FIELD) || defined(FUZZ_SIZES)
	fuzz_conf(arg);
#elif defined(FUZZ_RATE)
	fuzz_rate(arg);
#elif defined(FUZZ_MAP)
	fuzz_map(arg);
#elif defined(FUZZ_STACK)
	fuzz_stack(arg);
#else
#error "define FUZZ_FIELD, FUZZ_SIZES, FUZZ_RATE, FUZZ_MAP or FUZZ_STACK"
#endif
	free(arg);
	return 0;
}
