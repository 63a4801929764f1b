/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The app's units without EAL: the value parsers (parse.h), the options
 * (opts.h: actions, errors, per-port copies) and the rate model (sl_rate.h:
 * parse, check against the line, resolve for the pacer).
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <inttypes.h>
#include <unistd.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "app.h"
#include "bench.h"
#include "counters.h"
#include "flow.h"
#include "opts.h"
#include "parse.h"
#include "sl_gen.h"
#include "session.h"
#include "snapshot.h"
#include "sl_rate.h"
#include "sl_sim.h"
#include "sl_loop.h"
#include "sl_otg.h"
#include "sl_stack.h"
#include "sl_wire.h"
#include "sl_clock.h"
#include "test_count.h"
#include "worker.h"


static void
test_numbers(void)
{
	char err[256];
	uint64_t v = 7, us = 0;

	T(sl_parse_u64("42", 1, 64, &v, err, sizeof(err)) == 0 && v == 42, "v %lu", v);
	T(sl_parse_u64("65", 1, 64, &v, err, sizeof(err)) != 0 && v == 42 &&
	  strstr(err, "out of range 1..64") != NULL, "%s", err);
	T(sl_parse_u64("4x", 0, 9, &v, err, sizeof(err)) != 0 && strstr(err, "not a number"), "%s", err);
	T(sl_parse_u64("", 0, 9, &v, err, sizeof(err)) != 0, "empty accepted");
	T(sl_parse_u64("-1", 0, 9, &v, err, sizeof(err)) != 0, "negative accepted");
	T(sl_parse_u64("18446744073709551616", 0, UINT64_MAX, &v, err, sizeof(err)) != 0,
	  "2^64 accepted");
	T(sl_parse_seconds("1.5", &us, err, sizeof(err)) == 0 && us == 1500000, "us %lu", us);
	T(sl_parse_seconds("64800", &us, err, sizeof(err)) == 0, "64800: %s", err);
	T(sl_parse_seconds("64800.1", &us, err, sizeof(err)) != 0, "above the 48-bit bound");
	T(sl_parse_seconds("0", &us, err, sizeof(err)) != 0 && strstr(err, "above 0"), "%s", err);
	T(sl_parse_seconds("nan", &us, err, sizeof(err)) != 0, "nan accepted");
}

static void
test_sizes_fields_maps(void)
{
	struct sl_stream_conf c = { 0 };
	struct sl_map_entry m[SL_MAP_MAX];
	uint16_t nb = 0;
	char err[256];

	T(sl_parse_sizes(&c, "64,128:3", err, sizeof(err)) == 0 && c.nb_sizes == 2 &&
	  c.sizes[1] == 128 && c.weights[1] == 3, "%s", err);
	T(sl_parse_sizes(&c, "64-1518", err, sizeof(err)) == 0 && c.size_min == 64 &&
	  c.size_max == 1518, "range");
	T(sl_parse_sizes(&c, "63", err, sizeof(err)) != 0 && c.size_max == 1518,
	  "63 accepted or conf changed");
	T(sl_parse_sizes(&c, SL_GEN_IMIX, err, sizeof(err)) == 0 && c.nb_sizes == 3 &&
	  c.weights[0] == 7 && c.sizes[2] == 1518, "imix");
	/* MTU -> largest frame, one definition (show port info, the stream checks). */
	T(sl_wire_max_frame(1500, false) == 1518 && sl_wire_max_frame(1500, true) == 1522 &&
	  sl_wire_max_frame(9000, false) == 9018, "max frame %u/%u/%u",
	  sl_wire_max_frame(1500, false), sl_wire_max_frame(1500, true),
	  sl_wire_max_frame(9000, false));
	T(sl_parse_field(&c, "dst-ip=inc:198.18.0.2,100", err, sizeof(err)) == 0 &&
	  c.nb_fields == 1 && c.fields[0].kind == SL_FIELD_DST_IP && c.fields[0].count == 100,
	  "%s", err);
	T(sl_parse_field(&c, "src-mac=list:00:00:01,00:00:02", err, sizeof(err)) == 0 &&
	  c.nb_fields == 2 && c.fields[1].nb_list == 2 && c.fields[1].list[1] == 2, "%s", err);
	T(sl_parse_field(&c, "src-mac=list:c6:00:01", err, sizeof(err)) == 0 &&
	  c.fields[1].list[0] == 0xc60001, "high MAC byte: %x", c.fields[1].list[0]);
	T(sl_parse_field(&c, "ttl=inc:1,2", err, sizeof(err)) != 0 && strstr(err, "src-mac"),
	  "%s", err);
	T(sl_parse_field(&c, "off", err, sizeof(err)) == 0 && c.nb_fields == 0, "off");
	T(sl_parse_map(m, &nb, "1-3:0.0,4:1.2", err, sizeof(err)) == 0 && nb == 4 &&
	  m[2].lcore == 3 && m[3].port == 1 && m[3].queue == 2, "%s", err);
	T(sl_parse_map(m, &nb, "3-1:0.0", err, sizeof(err)) != 0 && nb == 4, "reversed range");
	T(sl_parse_map(m, &nb, "1:0", err, sizeof(err)) != 0, "no queue");
	/* sscanf's %u wrapped these to 1 and 64 (review finding): refused now. */
	T(sl_parse_map(m, &nb, "4294967297:0.0", err, sizeof(err)) != 0 && nb == 4, "lcore wraps");
	T(sl_parse_sizes(&c, "64-4294967360", err, sizeof(err)) != 0, "size range wraps");
	{
		bool ports[SL_MAX_PORTS];

		T(sl_parse_ports("0,2-3", ports, err, sizeof(err)) == 0 && ports[0] && !ports[1] &&
		  ports[3], "ports");
		T(sl_parse_ports("4294967296", ports, err, sizeof(err)) != 0, "port wraps");
		T(sl_parse_ports("32", ports, err, sizeof(err)) != 0, "port 32");
	}
}

static void
test_rates(void)
{
	struct sl_rate r = { 0 }, pace;
	char err[256];
	/* 64-byte frames: 84 bytes on the wire. */
	double l1 = 84 * 8, l2 = 64 * 8, line = 10e9;

	T(sl_rate_parse("14.88Mpps", &r) == 0 && r.unit == SL_RATE_PPS && r.value == 14.88e6,
	  "pps");
	T(sl_rate_parse("10Gbps", &r) == 0 && r.unit == SL_RATE_L1 && r.value == 10e9, "L1");
	T(sl_rate_parse("9.5Gbps-l2", &r) == 0 && r.unit == SL_RATE_L2, "L2");
	T(sl_rate_parse("50%", &r) == 0 && r.unit == SL_RATE_PCT && r.value == 50, "pct");
	T(sl_rate_parse("max", &r) == 0 && r.unit == SL_RATE_NONE, "max");
	T(sl_rate_parse("101%", &r) != 0, "101%% accepted");
	T(sl_rate_parse("0pps", &r) != 0 && sl_rate_parse("5Xbps", &r) != 0, "bad rates accepted");
	/* fuzz-rate's finding: a finite number times its unit was infinity. */
	r = (struct sl_rate){ SL_RATE_PPS, 1 };
	T(sl_rate_parse("550e300Gbps", &r) != 0 && r.unit == SL_RATE_PPS && r.value == 1,
	  "an infinite rate accepted: %g", r.value);
	T(sl_rate_parse("1e308Tbps-l2", &r) != 0, "an infinite L2 rate accepted");

	r = (struct sl_rate){ SL_RATE_PPS, 15e6 };
	T(sl_rate_resolve(&r, line, l1, l2, &pace, err, sizeof(err)) != 0 &&
	  strstr(err, "above the line rate: 10 Gb/s, 14.88 Mpps") != NULL, "%s", err);
	r = (struct sl_rate){ SL_RATE_PPS, 14880952.38 };
	T(sl_rate_resolve(&r, line, l1, l2, &pace, err, sizeof(err)) == 0 &&
	  pace.unit == SL_RATE_NONE, "at the line the wire paces: unit %d", pace.unit);
	r = (struct sl_rate){ SL_RATE_PCT, 50 };
	T(sl_rate_resolve(&r, line, l1, l2, &pace, err, sizeof(err)) == 0 &&
	  pace.unit == SL_RATE_L1 && fabs(pace.value - 5e9) < 1, "50%% -> %g", pace.value);
	T(sl_rate_resolve(&r, 0, l1, l2, &pace, err, sizeof(err)) != 0 &&
	  strstr(err, "link speed") != NULL, "%s", err);
	/* L2 at 64 B: 10G of L2 bits is 84/64 of 10G on the wire: above a 10G line. */
	r = (struct sl_rate){ SL_RATE_L2, 8e9 };
	T(sl_rate_resolve(&r, line, l1, l2, &pace, err, sizeof(err)) != 0, "8 Gb/s L2 at 64 B");
	r = (struct sl_rate){ SL_RATE_L2, 7e9 };
	T(sl_rate_resolve(&r, line, l1, l2, &pace, err, sizeof(err)) == 0 &&
	  pace.unit == SL_RATE_L2, "7 Gb/s L2 at 64 B: %s", err);
	r = (struct sl_rate){ SL_RATE_L1, 400e9 };
	T(sl_rate_resolve(&r, 0, l1, l2, &pace, err, sizeof(err)) == 0, "unknown line: no check");

	struct sl_stream_conf c = { .sizes = { 64 }, .weights = { 1 }, .nb_sizes = 1 };
	double m1, m2;

	sl_stream_conf_mean_bits(&c, &m1, &m2);
	T(m1 == 672 && m2 == 512, "64 B: %g %g", m1, m2);
	sl_parse_sizes(&c, SL_GEN_IMIX, err, sizeof(err));
	sl_stream_conf_mean_bits(&c, &m1, &m2);
	T(fabs(m2 / 8 - (64 * 7 + 594 * 4 + 1518) / 12.0) < 1e-9, "imix mean %g", m2 / 8);
}

static void
test_options(void)
{
	struct sl_sim_conf sim;
	struct sl_config c;
	struct sl_opts o;
	char err[256];
	char *ok[] = { "sluice", "--rate", "1Mpps", "--txq", "2", "--sim", "10G,txd=64,verify=on",
		       "--count", "5", "-i", NULL };
	char *bad1[] = { "sluice", "--burst", "65", NULL };
	char *bad2[] = { "sluice", "--nosuch", NULL };
	char *bad3[] = { "sluice", "--sim", "10G,foo=1", NULL };
	char *help[] = { "sluice", "--help", NULL };
	char *ref[] = { "sluice", "--cli-reference", NULL };
	char *extra[] = { "sluice", "stray", NULL };
	enum sl_opts_action a;

	sl_opts_default(&o);
	sl_config_default(&c);
	a = sl_opts_parse(&o, &c, 10, ok);
	/* The sim's spec is passed through as given; the sim parses it. */
	T(a == SL_OPTS_RUN && c.count == 5 && o.interactive && c.nb_sims == 1 &&
	  sl_sim_parse(c.sims[0], &sim, err, sizeof(err)) == 0 &&
	  sim.txd == 64 && sim.verify && sim.speed_bps == 10000000000ull, "ok");
	T(c.pc[SL_MAX_PORTS - 1].txq == 2 && c.pc[7].rate.unit == SL_RATE_PPS,
	  "options set every port");
	sl_opts_default(&o);
	sl_config_default(&c);
	T(sl_opts_parse(&o, &c, 3, bad1) == SL_OPTS_ERROR && c.burst == 32, "--burst 65");
	sl_opts_default(&o);
	sl_config_default(&c);
	T(sl_opts_parse(&o, &c, 2, bad2) == SL_OPTS_ERROR, "unknown option");
	sl_opts_default(&o);
	sl_config_default(&c);
	T(sl_opts_parse(&o, &c, 3, bad3) == SL_OPTS_ERROR && c.nb_sims == 0, "bad sim");
	sl_opts_default(&o);
	sl_config_default(&c);
	T(sl_opts_parse(&o, &c, 2, help) == SL_OPTS_HELP, "help");
	sl_opts_default(&o);
	sl_config_default(&c);
	T(sl_opts_parse(&o, &c, 2, ref) == SL_OPTS_CLI_REFERENCE, "cli reference is an action");
	sl_opts_default(&o);
	sl_config_default(&c);
	T(sl_opts_parse(&o, &c, 2, extra) == SL_OPTS_ERROR, "stray argument");
	{
		/* Writable, as argv is: --tx-ip and --tx-ip6 split their value in place. */
		char a1[] = "1.2.3.4,5.6.7.8", a2[] = "1.2.3.4,5.6.7.8";
		char b1[] = "2001:2::9,2001:2::8", b2[] = "2001:2::9,2001:2::8";
		char *v6v4[] = { "sluice", "--ipv6", "--tx-ip", a1, NULL };
		char *v4v6[] = { "sluice", "--tx-ip", a2, "--tx-ip6", b1, NULL };
		char *v6ok[] = { "sluice", "--ipv6", "--tx-ip6", b2, NULL };

		/* IPv4 addresses with IPv6 frames were silently ignored (issue 14). */
		sl_opts_default(&o);
		sl_config_default(&c);
		T(sl_opts_parse(&o, &c, 4, v6v4) == SL_OPTS_ERROR, "--ipv6 --tx-ip accepted");
		sl_opts_default(&o);
		sl_config_default(&c);
		T(sl_opts_parse(&o, &c, 5, v4v6) == SL_OPTS_ERROR, "--tx-ip --tx-ip6 accepted");
		sl_opts_default(&o);
		sl_config_default(&c);
		T(sl_opts_parse(&o, &c, 4, v6ok) == SL_OPTS_RUN && c.sc.ipv6, "--ipv6 --tx-ip6 refused");
	}
}

/* --sim 10G,dut=PORT,...: the DUT model's spec (the sim's own parser, sl_sim_parse). */
static void
test_sim_dut(void)
{
	struct sl_sim_conf c;
	char err[256];
	const struct {
		const char *spec, *want; /* want: a piece of the error */
	} bad[] = {
		{ "10G,dut=0,foo=1", "unknown parameter 'foo=1'" },
		{ "10G,dut=0,loss=1.5", "loss: '1.5' is not a probability" },
		{ "10G,dut=0,loss=-0.1", "loss: '-0.1'" },
		{ "10G,dut=0,dup=x", "dup: 'x'" },
		{ "10G,dut=0,reorder=", "reorder: ''" },
		{ "10G,dut=0,loss=nan", "loss: 'nan'" },
		{ "10G,dut=0,capacity=5Gbps", "capacity: '5Gbps' is not a packet rate" },
		{ "10G,dut=0,capacity=0pps", "capacity: '0pps'" },
		{ "10G,dut=0,capacity=50%", "capacity: '50%'" },
		{ "10G,dut=0,capacity=-5Mpps", "capacity: '-5Mpps'" },
		{ "10G,dut=0,delay=-1", "delay: '-1'" },
		{ "10G,dut=0,delay=1000001", "delay: '1000001'" },
		{ "10G,dut=0,delay=10:2000000", "delay: '10:2000000'" },
		{ "10G,dut=0,delay=10:", "delay: '10:'" },
		{ "10G,dut=0,delay=5us", "delay: '5us'" },
		{ "10G,dut=0,seed=-1", "seed: '-1'" },
		{ "10G,dut=0,seed=18446744073709551616", "seed:" },
		{ "10G,dut=-1", "dut: '-1'" },
		{ "10G,dut=", "dut: ''" },
		{ "10G,dut=32", "dut: '32'" },
		{ "10G,dut=0,dut=1", "dut given twice" },
		{ "10G,dut=0,loss=0.1,loss=0.2", "loss given twice" },
		{ "10G,capacity=1Mpps", "capacity needs dut=PORT" },
		{ "10G,loss=0.1", "loss needs dut=PORT" },
		{ "10G,txd=64,delay=5", "delay needs dut=PORT" },
		{ "10G,seed=7", "seed needs dut=PORT" },
	};

	c.speed_bps = 1;
	T(sl_sim_parse("10G", &c, err, sizeof(err)) == 0 && c.dut.port == -1 &&
	  c.dut.capacity_pps == 0 && c.dut.loss == 0 && c.dut.delay_ns == 0, "no dut");
	T(sl_sim_parse("10G,dut=1,capacity=5Mpps,loss=0.01,dup=0.002,reorder=1,delay=50:10.5,"
		       "seed=18446744073709551615", &c, err, sizeof(err)) == 0 &&
	  c.dut.port == 1 && c.dut.capacity_pps == 5000000 && c.dut.loss == 0.01 &&
	  c.dut.dup == 0.002 && c.dut.reorder == 1 && c.dut.delay_ns == 50000 &&
	  c.dut.jitter_ns == 10500 && c.dut.seed == UINT64_MAX, "full spec: %s", err);
	T(sl_sim_parse("10G,dut=0,capacity=800kpps", &c, err, sizeof(err)) == 0 &&
	  c.dut.capacity_pps == 800000 && c.dut.jitter_ns == 0 && c.dut.seed == 0, "800kpps");
	T(sl_sim_parse("10G,dut=0,capacity=1000pps,delay=0.5", &c, err, sizeof(err)) == 0 &&
	  c.dut.capacity_pps == 1000 && c.dut.delay_ns == 500, "1000pps, 0.5 us");
	T(sl_sim_parse("10G,dut=0,delay=1000000:1000000,loss=1,dup=0", &c, err, sizeof(err)) == 0 &&
	  c.dut.delay_ns == 1000000000 && c.dut.jitter_ns == 1000000000 && c.dut.loss == 1,
	  "1 s delay and jitter: %s", err);
	T(sl_sim_parse("10G,txd=64,dut=0,verify=on", &c, err, sizeof(err)) == 0 && c.txd == 64 &&
	  c.verify && c.dut.port == 0, "mixed with the wire's keys");
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c.dut.port = 99;
		err[0] = '\0';
		T(sl_sim_parse(bad[i].spec, &c, err, sizeof(err)) != 0 && c.dut.port == 99 &&
		  strstr(err, bad[i].want) != NULL, "'%s': got '%s', want '%s'", bad[i].spec, err,
		  bad[i].want);
	}
}

/* Issue 14 item 9: parser slips, each error names what is wrong. */
static void
test_parse_slips(void)
{
	struct sl_stream_conf c = { 0 };
	struct sl_rate r;
	uint64_t bps;
	char err[256];

	err[0] = '\0';
	T(sl_parse_sizes(&c, "64:0", err, sizeof(err)) != 0 && strstr(err, "weight '0'") != NULL &&
	  strstr(err, "'64'") == NULL, "64:0: %s", err);
	err[0] = '\0';
	T(sl_parse_sizes(&c, "128,64:7:3", err, sizeof(err)) != 0 &&
	  strstr(err, "weight '7:3'") != NULL && strstr(err, "'64'") == NULL, "64:7:3: %s", err);
	err[0] = '\0';
	T(sl_parse_sizes(&c, "63:2", err, sizeof(err)) != 0 && strstr(err, "'63'") != NULL,
	  "63:2 blames the size: %s", err);
	err[0] = '\0';
	T(sl_parse_field(&c, "src-mac=list:00:00:01,0xab", err, sizeof(err)) != 0 &&
	  strstr(err, "'0xab' is not a MAC's low 3 bytes") != NULL &&
	  strstr(err, "at most") == NULL, "src-mac 0xab: %s", err);
	err[0] = '\0';
	T(sl_parse_field(&c, "dst-ip=inc:1.2.3,4", err, sizeof(err)) != 0 &&
	  strstr(err, "'1.2.3' is not an IPv4 address") != NULL, "dst-ip 1.2.3: %s", err);
	err[0] = '\0';
	T(sl_parse_field(&c, "vlan=list:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", err,
			 sizeof(err)) != 0 && strstr(err, "at most 16 values") != NULL,
	  "17 values: %s", err);
	T(sl_rate_parse("0x10Mpps", &r) != 0, "0x10Mpps accepted as hex: %g", r.value);
	T(sl_rate_parse(" 5Gbps", &r) != 0, "' 5Gbps' accepted (leading space)");
	T(sl_rate_parse("5Gbps ", &r) != 0, "'5Gbps ' accepted (trailing space)");
	T(sl_rate_parse("+5Gbps", &r) != 0 && sl_rate_parse("infGbps", &r) != 0, "sign or inf");
	T(sl_rate_parse(".5Gbps", &r) == 0 && r.value == 0.5e9 &&
	  sl_rate_parse("0.5Gbps", &r) == 0 && sl_rate_parse("1e3Mpps", &r) == 0 &&
	  r.value == 1e9, "decimal rates refused");
	T(sl_rate_parse_bps("0x10G", &bps) != 0, "--sim 0x10G accepted as hex: %lu", bps);
	T(sl_rate_parse_bps(" 10G", &bps) != 0, "--sim ' 10G' accepted");
	T(sl_rate_parse_bps("10G", &bps) == 0 && bps == 10000000000ull &&
	  sl_rate_parse_bps("1500K", &bps) == 0 && bps == 1500000, "10G, 1500K");
	err[0] = '\0';
	T(sl_sim_parse("0x10G", &(struct sl_sim_conf){ 0 }, err, sizeof(err)) != 0,
	  "sim 0x10G accepted");
}

/* Units scale for display, any case is accepted, fields read back. */
static void
test_units(void)
{
	static const struct { double v; const char *pps, *bps; } disp[] = {
		{ 0, "0.000 pps", "0.000 b/s" },
		{ 500, "500.000 pps", "500.000 b/s" },
		{ 999.4, "999.400 pps", "999.400 b/s" },
		{ 1000, "1.000 kpps", "1.000 kb/s" },
		{ 14880952, "14.881 Mpps", "14.881 Mb/s" },
		{ 6.16e6, "6.160 Mpps", "6.160 Mb/s" },
		{ 9.9e9, "9.900 Gpps", "9.900 Gb/s" },
		{ 4e11, "400.000 Gpps", "400.000 Gb/s" },
		{ 1.2e12, "1200.000 Gpps", "1.200 Tb/s" },
	};
	static const struct { const char *in; enum sl_rate_unit u; double v; } cases[] = {
		{ "10mpps", SL_RATE_PPS, 10e6 }, { "10MPPS", SL_RATE_PPS, 10e6 },
		{ "500KPPS", SL_RATE_PPS, 500e3 }, { "10gbps", SL_RATE_L1, 10e9 },
		{ "9.5GBPS-L2", SL_RATE_L2, 9.5e9 }, { "MAX", SL_RATE_NONE, 0 },
		{ "1mbps", SL_RATE_L1, 1e6 },
	};
	static const struct { const char *in; uint64_t us; } secs[] = {
		{ "2s", 2000000 }, { "2S", 2000000 }, { "500ms", 500000 }, { "500MS", 500000 },
		{ "100us", 100 }, { "1.5", 1500000 }, { ".5s", 500000 },
	};
	const char *bad_secs[] = { "2x", "s", "ms", "-1s", "2 s", "2sec", "0ms", "nans", "inf" };
	struct sl_rate r;
	char buf[64], err[256];
	uint64_t us;

	for (size_t i = 0; i < RTE_DIM(disp); i++) {
		sl_rate_fmt_pps(disp[i].v, buf, sizeof(buf));
		T(strcmp(buf, disp[i].pps) == 0, "%g pps shown as '%s', want '%s'", disp[i].v, buf,
		  disp[i].pps);
		sl_rate_fmt_bps(disp[i].v, buf, sizeof(buf));
		T(strcmp(buf, disp[i].bps) == 0, "%g b/s shown as '%s', want '%s'", disp[i].v, buf,
		  disp[i].bps);
	}
	for (size_t i = 0; i < RTE_DIM(cases); i++)
		T(sl_rate_parse(cases[i].in, &r) == 0 && r.unit == cases[i].u &&
		  fabs(r.value - cases[i].v) < 1e-6 * (cases[i].v + 1), "'%s': unit %d value %g",
		  cases[i].in, r.unit, r.value);
	T(sl_rate_parse("10mpp", &r) != 0, "10mpp accepted");
	r = (struct sl_rate){ SL_RATE_PPS, 500 };
	sl_rate_str(&r, buf, sizeof(buf));
	T(strcmp(buf, "500 pps") == 0, "500 pps reads back as '%s'", buf);
	r = (struct sl_rate){ SL_RATE_L2, 9.5e9 };
	sl_rate_str(&r, buf, sizeof(buf));
	T(strcmp(buf, "9.5 Gb/s L2") == 0, "9.5Gbps-l2 reads back as '%s'", buf);
	r = (struct sl_rate){ SL_RATE_L1, 250e6 };
	sl_rate_str(&r, buf, sizeof(buf));
	T(strcmp(buf, "250 Mb/s L1") == 0, "250Mbps reads back as '%s'", buf);
	for (size_t i = 0; i < RTE_DIM(secs); i++)
		T(sl_parse_seconds(secs[i].in, &us, err, sizeof(err)) == 0 && us == secs[i].us,
		  "'%s': %lu us (%s)", secs[i].in, us, err);
	for (size_t i = 0; i < RTE_DIM(bad_secs); i++)
		T(sl_parse_seconds(bad_secs[i], &us, err, sizeof(err)) != 0 &&
		  strstr(err, "a unit may follow") != NULL, "'%s' accepted (%lu us)", bad_secs[i], us);
	{
		const char *specs[] = { "dst-ip=inc:198.18.0.2,100", "src-mac=list:00:00:01,0a:0b:0c",
					"vlan=dec:4094,3", "src-port=random:1024,1000" };

		for (size_t i = 0; i < RTE_DIM(specs); i++) {
			struct sl_stream_conf c = { 0 };

			T(sl_parse_field(&c, specs[i], err, sizeof(err)) == 0 && c.nb_fields == 1,
			  "'%s': %s", specs[i], err);
			sl_config_field_str(&c.fields[0], buf, sizeof(buf));
			T(strcmp(buf, specs[i]) == 0, "'%s' reads back as '%s'", specs[i], buf);
		}
	}
}

/* --metrics [ADDR:]PORT: what it accepts, and that a refusal changes nothing. */
static void
test_listen(void)
{
	static const struct { const char *in, *host; uint16_t port; } good[] = {
		{ "9100", "127.0.0.1", 9100 }, { "0", "127.0.0.1", 0 },
		{ "0.0.0.0:80", "0.0.0.0", 80 }, { "198.18.0.1:65535", "198.18.0.1", 65535 },
		{ "[::1]:9100", "::1", 9100 }, { "[2001:2::1]:1", "2001:2::1", 1 },
	};
	static const char *const bad[] = {
		"", ":", "abc", "65536", "-1", "1.2.3:80", "::1:80", "[::1]", "[::1:80", "[1.2.3.4]:80",
		"127.0.0.1:", "localhost:80", " 80", "80 ", "0x50", "[]:80",
	};
	char host[64], err[256];
	uint16_t port;

	for (size_t i = 0; i < RTE_DIM(good); i++) {
		T(sl_parse_listen(good[i].in, host, sizeof(host), &port, err, sizeof(err)) == 0 &&
		  strcmp(host, good[i].host) == 0 && port == good[i].port, "'%s': %s %u (%s)",
		  good[i].in, host, port, err);
	}
	for (size_t i = 0; i < RTE_DIM(bad); i++) {
		strcpy(host, "unchanged");
		port = 7;
		err[0] = '\0';
		T(sl_parse_listen(bad[i], host, sizeof(host), &port, err, sizeof(err)) != 0 &&
		  strcmp(host, "unchanged") == 0 && port == 7 && strstr(err, "[ADDR:]PORT") != NULL,
		  "'%s' accepted or changed the output: %s %u '%s'", bad[i], host, port, err);
	}
}

/* Two 10G sim ports (sim0, sim1) and one worker lcore, as the OTG tests see them. */
static void
two_sims(struct sl_config_env *env)
{
	env->nb_ports = 2;
	env->nb_lcores = 2;
	env->worker[1] = true;
	for (uint16_t p = 0; p < 2; p++) {
		snprintf(env->port[p].info.name, sizeof(env->port[p].info.name), "sim%u", p);
		env->port[p].info.mtu = 1500;
		env->port[p].info.min_mtu = 68;
		env->port[p].info.max_mtu = 9000;
		env->port[p].info.speed_bps = 10000000000ull;
		env->port[p].info.wire_to = -1;
		env->port[p].can_rx = true;
	}
}

/*
 * The flow table (sl_config.h): a copy owns its table, a delete moves the
 * later flows down, counts and rates are shared exactly, a flow's MACs
 * follow to/peer, and the check refuses what a start would.
 */
static void
test_flow_table(void)
{
	struct sl_config_env *env = calloc(1, sizeof(*env));
	struct sl_config *c = calloc(1, sizeof(*c)), *d = calloc(1, sizeof(*c));
	struct sl_stream_conf sc;
	struct sl_config_err e;
	struct sl_flow_conf f;
	struct sl_rate pace;
	char err[256], name[SL_FLOW_NAME_MAX];
	uint64_t sum = 0;

	if (env == NULL || c == NULL || d == NULL) {
		T(false, "out of memory");
		goto out;
	}
	two_sims(env);
	env->nb_lcores = 3;
	env->worker[2] = true;
	for (uint16_t p = 0; p < 2; p++)
		env->port[p].info.mac = (struct rte_ether_addr){ { 2, 0x51, 0xce, 0, 0, (uint8_t)p } };
	sl_config_default(c);
	/* No table: one default stream per port, id = port, --count whole. */
	c->count = 1001;
	T(sl_config_nb_streams(c, env) == 2 && sl_config_stream_port(c, 1) == 1 &&
	  sl_config_stream_count(c, env, 1) == 1001, "default streams");
	/* Three flows on port 0, one on port 1; b has a count, c a rate. */
	for (int i = 0; i < 4; i++) {
		sl_config_flow_init(c, &f, (const char *[]){ "a", "b", "c", "r" }[i], i == 3);
		f.count = i == 1 ? 7 : 0;
		if (i == 2)
			f.rate = (struct sl_rate){ SL_RATE_PPS, 1000 };
		f.to = i == 3 ? 0 : 1;
		T(sl_config_flow_add(c, &f) == 0, "add %d", i);
	}
	T(sl_config_flow_find(c, "c") == 2 && sl_config_flow_find(c, "zz") == -1, "find");
	T(sl_config_nb_streams(c, env) == 4 && sl_config_port_streams(c, env, 0) == 3 &&
	  sl_config_port_streams(c, env, 1) == 1, "streams by port");
	/* --count 1001 shared by a and c (b has its own): 501 + 500, exactly. */
	T(sl_config_stream_count(c, env, 0) == 501 && sl_config_stream_count(c, env, 1) == 7 &&
	  sl_config_stream_count(c, env, 2) == 500 && sl_config_stream_count(c, env, 3) == 1001,
	  "counts %" PRIu64 " %" PRIu64 " %" PRIu64, sl_config_stream_count(c, env, 0),
	  sl_config_stream_count(c, env, 1), sl_config_stream_count(c, env, 2));
	/* The port's rate shared by a and b (c has its own). */
	c->pc[0].rate = (struct sl_rate){ SL_RATE_PPS, 3000 };
	T(sl_config_stream_rate(c, env, 0, &pace, err, sizeof(err)) == 0 &&
	  pace.unit == SL_RATE_PPS && pace.value == 1500, "a's share %g", pace.value);
	T(sl_config_stream_rate(c, env, 2, &pace, err, sizeof(err)) == 0 && pace.value == 1000,
	  "c's own rate %g", pace.value);
	/* MACs: to's MAC, unless the port has a peer (a router's). */
	sl_config_stream(c, env, 0, &sc);
	T(rte_is_same_ether_addr(&sc.dst_mac, &env->port[1].info.mac) &&
	  rte_is_same_ether_addr(&sc.src_mac, &env->port[0].info.mac) && sc.id == 0, "to's MAC");
	c->peer_set[0] = true;
	c->peer[0] = (struct rte_ether_addr){ { 2, 9, 9, 9, 9, 9 } };
	sl_config_stream(c, env, 0, &sc);
	T(rte_is_same_ether_addr(&sc.dst_mac, &c->peer[0]), "the peer's MAC");
	T(sl_config_addressed(c, env, 0, 1) && sl_config_addressed(c, env, 1, 0) &&
	  !sl_config_addressed(c, env, 0, 0), "addressed by to");
	T(sl_config_check(c, env, SL_CHECK_ALL, &e) == 0, "a good table: %s", e.msg);
	/* The check's compile is the run's: each stream as sl_config_stream_build() makes it. */
	{
		struct sl_stream *out = calloc(4, sizeof(*out)), *one = malloc(sizeof(*one));
		size_t head = offsetof(struct sl_stream, sz), tail = offsetof(struct sl_stream, fields);

		T(out != NULL && one != NULL, "out of memory");
		T(out == NULL || sl_config_compile(c, env, SL_CHECK_ALL, out, &e) == 0,
		  "compile: %s", e.msg);
		for (uint16_t i = 0; out != NULL && one != NULL && i < 4; i++) {
			T(sl_config_stream_build(c, env, i, one, &e) == 0, "build %u: %s", i, e.msg);
			T(memcmp(&out[i], one, head) == 0 &&
			  memcmp(out[i].sz, one->sz, one->nb_sizes * sizeof(one->sz[0])) == 0 &&
			  memcmp((char *)&out[i] + tail, (char *)one + tail, sizeof(*one) - tail) == 0 &&
			  out[i].id == i, "stream %u: the check's compile differs from a build", i);
		}
		free(one);
		free(out);
	}
	/* A copy owns its table: changing it leaves the original. */
	T(sl_config_copy(d, c) == 0 && d->flows != c->flows && d->nb_flows == 4, "copy");
	d->flows[0].count = 99;
	sl_config_flow_del(d, 1);
	T(c->flows[0].count == 0 && c->nb_flows == 4 && strcmp(c->flows[1].name, "b") == 0,
	  "the original kept");
	T(d->nb_flows == 3 && strcmp(d->flows[1].name, "c") == 0, "del moves c down to id 1");
	sl_config_stream_name(d, 1, name, sizeof(name));
	T(strcmp(name, "c") == 0, "name %s", name);
	/* Refusals, each naming the flow. */
	d->flows[0].port = 5;
	T(sl_config_check(d, env, SL_CHECK_STREAMS, &e) != 0 && e.flow == 0 &&
	  strstr(e.msg, "flow a: port 5 does not exist") != NULL, "%s", e.msg);
	{
		struct sl_stream *out = calloc(4, sizeof(*out));

		T(out != NULL && sl_config_compile(d, env, SL_CHECK_ALL, out, &e) != 0 &&
		  e.flow == 0 && strstr(e.msg, "flow a: port 5 does not exist") != NULL,
		  "compile refuses as the check does: %s", e.msg);
		free(out);
	}
	d->flows[0].port = 0;
	snprintf(d->flows[2].name, sizeof(d->flows[2].name), "a");
	T(sl_config_check(d, env, SL_CHECK_STREAMS, &e) != 0 &&
	  strstr(e.msg, "two flows are named a") != NULL, "%s", e.msg);
	snprintf(d->flows[2].name, sizeof(d->flows[2].name), "r");
	d->flows[0].rate = (struct sl_rate){ SL_RATE_L1, 6e9 };
	d->flows[1].rate = (struct sl_rate){ SL_RATE_L1, 5e9 };
	T(sl_config_check(d, env, SL_CHECK_STREAMS | SL_CHECK_RATES, &e) != 0 &&
	  strstr(e.msg, "flows a, c ask 11 Gb/s (L1) together") != NULL && e.port == 0,
	  "%s", e.msg);
	T(sl_config_check(d, env, SL_CHECK_STREAMS, &e) == 0, "rates are not STREAMS' part");
	d->flows[1].rate = (struct sl_rate){ SL_RATE_L1, 4e9 };
	T(sl_config_check(d, env, SL_CHECK_ALL, &e) == 0, "10 Gb/s together: %s", e.msg);
	d->count = 1;
	d->flows[0].rate.unit = SL_RATE_NONE;
	d->flows[0].count = 0;
	d->flows[1].count = 0;
	T(sl_config_check(d, env, SL_CHECK_STREAMS, &e) != 0 &&
	  strstr(e.msg, "--count 1: port 0's 2 flows without a count") != NULL, "%s", e.msg);
	/* A count that does not divide: the shares add up to it. */
	d->count = 1000003;
	for (uint16_t i = 0; i < d->nb_flows; i++)
		sum += sl_config_stream_port(d, i) == 0 ? sl_config_stream_count(d, env, i) : 0;
	T(sum == 1000003, "shares add up: %" PRIu64, sum);
	sl_config_fini(d);
	T(d->flows == NULL && d->nb_flows == 0 && sl_config_nb_streams(d, env) == 2, "fini");
	sl_config_fini(c);
out:
	free(env);
	free(c);
	free(d);
}

/*
 * Header stacks (sl_stack.h) and the OTG reader (sl_otg.h): what is filled
 * in, where a path's field is, what is refused, and that a refused Config
 * leaves the configuration as it was.
 */
static void
test_stack_otg(void)
{
	struct sl_stack_defaults d = {
		.src_ip = 0xc6120001, .dst_ip = 0xc6130001, .src_port = 1000, .dst_port = 7,
	};
	struct sl_config_env *env = calloc(1, sizeof(*env));
	struct sl_config *c = calloc(1, sizeof(*c));
	uint8_t tmpl[SL_STACK_HDR_MAX + 16];
	struct sl_stack_field sf;
	struct sl_hdrs hs, hs2;
	char text[SL_STACK_TEXT_MAX];
	struct sl_stack_rt rt;
	struct sl_otg_err e;
	uint16_t hl = 0;
	char err[256];
	static const char cfg[] = "{\"ports\":[{\"name\":\"p1\",\"location\":\"0\"},"
		"{\"name\":\"p2\",\"location\":\"sim1\"}],\"flows\":[{\"name\":\"f\","
		"\"tx_rx\":{\"choice\":\"port\",\"port\":{\"tx_name\":\"p1\",\"rx_names\":[\"p2\"]}},"
		"\"packet\":[{\"choice\":\"ethernet\"},{\"choice\":\"ipv4\",\"ipv4\":{\"dst\":"
		"{\"choice\":\"increment\",\"increment\":{\"start\":\"10.0.0.1\",\"step\":"
		"\"0.0.0.2\",\"count\":4}}}},{\"choice\":\"udp\"}],\"size\":{\"choice\":\"fixed\","
		"\"fixed\":128},\"duration\":{\"choice\":\"fixed_packets\",\"fixed_packets\":"
		"{\"packets\":99}}}]}";

	if (env == NULL || c == NULL) {
		T(false, "out of memory");
		goto out;
	}
#define COMPILE(text) (sl_stack_parse(text, &hs, err, sizeof(err)) != 0 ? -EINVAL : \
		       sl_stack_compile(&hs, &d, tmpl, &hl, &rt, err, sizeof(err)))
#define FIND(text, path) (sl_stack_parse(text, &hs, err, sizeof(err)) != 0 ? -EINVAL : \
			  sl_stack_field_find(&hs, path, &sf, err, sizeof(err)))
	/* VXLAN: 14 + 20 + 8 + 8 + 14 + 20 + 8; outer dport 4789, the VNI flag. */
	T(COMPILE("eth/ipv4/udp/vxlan(vni=5000)/eth/ipv4/udp") == 0 && hl == 92, "vxlan: %s %u",
	  err, hl);
	T(tmpl[12] == 0x08 && tmpl[13] == 0x00 && tmpl[14 + 9] == 17 &&
	  (tmpl[34 + 2] << 8 | tmpl[34 + 3]) == 4789 && tmpl[42] == 0x08 &&
	  (tmpl[46] << 16 | tmpl[47] << 8 | tmpl[48]) == 5000, "vxlan's filled fields");
	T(rt.nb_ip4 == 2 && rt.nb_l4 == 2 && rt.l4[0].off == 84 && rt.l4[1].off == 34 &&
	  rt.nb_len == 4 && rt.extra_tags == 0, "vxlan: 2 IPv4 sums, L4 innermost first, 4 lengths");
	/* QinQ: the outer TPID 0x88a8, two tags count against the MTU. */
	T(COMPILE("eth/vlan(id=10)/vlan(id=20)/ipv4/tcp") == 0 && tmpl[12] == 0x88 &&
	  tmpl[13] == 0xa8 &&
	  tmpl[16] == 0x81 && rt.extra_tags == 2, "qinq: %s", err);
	T(FIND("eth/ipv4/udp/vxlan/eth/ipv4/udp", "ipv4.2.src") == 0 && sf.off == 64 + 12 &&
	  sf.win == 4 && sf.bits == 32,
	  "ipv4.2.src at %u", sf.off);
	T(FIND("eth/ipv4/udp/vxlan/eth/ipv4/udp", "vxlan.vni") == 0 && sf.off == 46 &&
	  sf.shift == 8 && sf.bits == 24,
	  "vxlan.vni");
	T(FIND("eth/ipv4/udp", "ipv4.csum") != 0 &&
	  strstr(err, "computed for every frame") != NULL, "a checksum cannot vary: %s", err);
	T(COMPILE("eth/ipv4/tcp/udp") != 0 &&
	  strstr(err, "tcp cannot be followed by udp") != NULL, "%s", err);
	T(COMPILE("eth/vlan/vlan/vlan/vlan/vlan/ipv4/udp") != 0 && strstr(err, "5 VLAN tags") != NULL,
	  "%s", err);
	T(COMPILE("eth//ipv4/udp") != 0, "empty");
	/*
	 * Nothing after the IP header (or GRE): a raw payload, the protocol
	 * as OTG's defaults (IPv4 61, IPv6 59, GRE 0x6558), the lengths
	 * still per frame, no L4 checksum (issue 48 item 3).
	 */
	T(COMPILE("eth/ipv4") == 0 && hl == 34 && tmpl[14 + 9] == 61 && rt.nb_l4 == 0 &&
	  rt.nb_ip4 == 1 && rt.nb_len == 1, "eth/ipv4: %s (len %u, proto %u)", err, hl, tmpl[23]);
	T(COMPILE("eth/ipv6") == 0 && hl == 54 && tmpl[14 + 6] == 59 && rt.nb_l4 == 0 &&
	  rt.nb_len == 1, "eth/ipv6: %s (len %u, nh %u)", err, hl, tmpl[20]);
	T(COMPILE("eth/ipv4/gre") == 0 && hl == 38 && tmpl[14 + 9] == 47 && tmpl[36] == 0x65 &&
	  tmpl[37] == 0x58, "eth/ipv4/gre: %s", err);
	T(COMPILE("eth/ipv6/ipv4(proto=17)") == 0 && tmpl[20] == 4 && tmpl[54 + 9] == 17,
	  "an inner protocol given is the user's: %s", err);
	T(COMPILE("eth/ipv4/icmp6") != 0 &&
	  strstr(err, "(give udp, tcp, icmp, gre, ipv4, ipv6 or nothing)") != NULL, "%s", err);
	/* Outer types the receive side could not follow: frames that would arrive as foreign. */
	T(COMPILE("eth/vlan/vlan(tpid=0x9100)/ipv4/udp") != 0 && strstr(err, "tpid 0x9100") != NULL,
	  "an inner tag's TPID: %s", err);
	T(COMPILE("eth/vlan(type=0x1234)/ipv4/udp") != 0 &&
	  strstr(err, "vlan: type 0x1234 before ipv4") != NULL, "a tag's type: %s", err);
	T(COMPILE("eth(type=0x0800)/ipv4/udp") == 0, "the right type given is taken: %s", err);
	T(COMPILE("eth/ipv4/udp/vxlan/eth(type=0x1234)/ipv4/udp") == 0,
	  "past the outer IP header a type is the user's: %s", err);
	/*
	 * The stack is data: read once, written back as text that reads back
	 * to the same data (MACs, addresses, a TPID, numbers), and built a
	 * header and a value at a time as the OTG reader builds it.
	 */
	{
		static const char *const texts[] = {
			"eth(src=02:00:00:00:00:0a)/vlan(tpid=0x88a8,id=7)/vlan(id=9)/ipv6(src=2001:2::1,"
			"hlim=9)/udp(dport=4789)/vxlan(vni=16777215)/eth/ipv4(src=10.1.2.3,dst=4)/tcp",
			"eth/mpls(label=100,ttl=3)/ipv4(tos=0x10,ttl=1)/gre/eth/ipv4/icmp(type=0)",
			/* a header's fields past its 12th (issue 48: they were not written back) */
			"eth/ipv4(rsv=0,df=1,mf=1,foff=100,prec=5,lowdelay=1,thru=1,rel=0,cost=1,"
			"tosmbz=0,ver=4,ihl=5)/udp/vxlan(rsv0=3,rsv1=5)/eth/ipv4/tcp(doff=5,ns=1,"
			"cwr=1,ece=0,urgf=1,ackf=0,psh=1,rst=0,syn=1,fin=0)",
		};
		uint8_t t2[SL_STACK_HDR_MAX + 16];

		for (size_t i = 0; i < RTE_DIM(texts); i++) {
			int n = sl_stack_parse(texts[i], &hs, err, sizeof(err)) == 0 ?
				sl_stack_str(&hs, text, sizeof(text)) : -1;

			T(n > 0 && sl_stack_parse(text, &hs2, err, sizeof(err)) == 0 &&
			  hs2.n == hs.n && hs2.nb_vals == hs.nb_vals &&
			  memcmp(hs.kind, hs2.kind, hs.n) == 0 &&
			  memcmp(hs.val, hs2.val, hs.nb_vals * sizeof(hs.val[0])) == 0,
			  "round trip of '%s': '%s' (%s)", texts[i], text, err);
			memset(tmpl, 0, SL_STACK_HDR_MAX);
			memset(t2, 0, SL_STACK_HDR_MAX);
			T(sl_stack_compile(&hs, &d, tmpl, &hl, &rt, err, sizeof(err)) == 0 &&
			  sl_stack_compile(&hs2, &d, t2, &hl, &rt, err, sizeof(err)) == 0 &&
			  memcmp(tmpl, t2, hl) == 0, "the text written back compiles to the same "
			  "headers: %s", err);
		}
		/* The sub-fields' bits in the frame: flags and offset, TOS, VXLAN, TCP flags. */
		T(sl_stack_parse(texts[2], &hs, err, sizeof(err)) == 0 &&
		  sl_stack_compile(&hs, &d, tmpl, &hl, &rt, err, sizeof(err)) == 0 &&
		  tmpl[14 + 6] == 0x60 && tmpl[14 + 7] == 100 && tmpl[14 + 1] == 0xba &&
		  tmpl[14] == 0x45 && tmpl[42 + 1] == 0 && tmpl[42 + 3] == 3 && tmpl[42 + 7] == 5 &&
		  tmpl[50 + 14 + 20 + 12] == 0x51 && tmpl[50 + 14 + 20 + 13] == 0xaa,
		  "sub-fields: frag %02x%02x tos %02x vxlan %02x%02x%02x/%02x tcp %02x %02x (%s)",
		  tmpl[20], tmpl[21], tmpl[15], tmpl[43], tmpl[44], tmpl[45], tmpl[49], tmpl[96],
		  tmpl[97], err);
		T(sl_stack_parse(texts[0], &hs, err, sizeof(err)) == 0 &&
		  sl_stack_compile(&hs, &d, tmpl, &hl, &rt, err, sizeof(err)) == 0 &&
		  tmpl[12] == 0x88 && tmpl[13] == 0xa8 && tmpl[6 + 5] == 0x0a,
		  "tpid=0x88a8 is eth's type: %02x%02x", tmpl[12], tmpl[13]);
		memset(&hs2, 0, sizeof(hs2));
		T(sl_hdrs_push(&hs2, "eth", err, sizeof(err)) == 0 &&
		  sl_hdrs_push(&hs2, "ipv4", err, sizeof(err)) == 0 &&
		  sl_hdrs_set(&hs2, "dst", "10.0.0.1", err, sizeof(err)) == 0 &&
		  sl_hdrs_push(&hs2, "udp", err, sizeof(err)) == 0 &&
		  sl_stack_str(&hs2, text, sizeof(text)) > 0 &&
		  strcmp(text, "eth/ipv4(dst=10.0.0.1)/udp") == 0, "built: '%s'", text);
		T(sl_hdrs_set(&hs2, "vni", "1", err, sizeof(err)) != 0 &&
		  strstr(err, "udp: 'vni=1' is not FIELD=VALUE") != NULL, "%s", err);
		T(sl_hdrs_push(&hs2, "ipx", err, sizeof(err)) != 0 &&
		  strstr(err, "'ipx': not a header") != NULL, "%s", err);
		T(sl_stack_str(&hs2, text, 8) == -ENOSPC, "a text that does not fit says so");
		/* The longest text the data holds is written whole and reads back. */
		memset(&hs2, 0, sizeof(hs2));
		sl_hdrs_push(&hs2, "eth", err, sizeof(err));
		sl_hdrs_set(&hs2, "src", "02:ff:ff:ff:ff:ff", err, sizeof(err));
		sl_hdrs_set(&hs2, "dst", "02:ff:ff:ff:ff:fe", err, sizeof(err));
		for (int i = 0; i < 5; i++) {
			sl_hdrs_push(&hs2, "ipv6", err, sizeof(err));
			sl_hdrs_set(&hs2, "src", "2001:db8:1111:2222:3333:4444:5555:6666", err,
				    sizeof(err));
			sl_hdrs_set(&hs2, "dst", "2001:db8:1111:2222:3333:4444:5555:7777", err,
				    sizeof(err));
			sl_hdrs_set(&hs2, "flow", "1048575", err, sizeof(err));
			sl_hdrs_set(&hs2, "tc", "255", err, sizeof(err));
			sl_hdrs_set(&hs2, "hlim", "255", err, sizeof(err));
			sl_hdrs_set(&hs2, "nh", "41", err, sizeof(err));
		}
		sl_hdrs_push(&hs2, "udp", err, sizeof(err));
		T(hs2.nb_vals == 32 && sl_stack_str(&hs2, text, sizeof(text)) > 600 &&
		  sl_stack_parse(text, &hs, err, sizeof(err)) == 0 && hs.nb_vals == 32 &&
		  memcmp(hs.val, hs2.val, sizeof(hs.val)) == 0, "the longest text (%zu): %s",
		  strlen(text), err);
	}
	/* The OTG reader, on two ports (sim0, sim1). */
	two_sims(env);
	sl_config_default(c);
	T(sl_otg_config(cfg, strlen(cfg), env, c, &e) == 0 && c->nb_flows == 1, "otg: %s: %s",
	  e.path, e.msg);
	if (c->nb_flows == 1) {
		const struct sl_flow_conf *f = &c->flows[0];

		T(f->port == 0 && f->to == 1 && f->count == 99 && f->sc.nb_sizes == 1 &&
		  f->sc.sizes[0] == 128 && f->sc.nb_fields == 1 &&
		  f->sc.fields[0].start == 0x0a000001 && f->sc.fields[0].step == 2 &&
		  f->sc.fields[0].count == 4 && strcmp(f->sc.fields[0].path, "ipv4.1.dst") == 0 &&
		  sl_stack_str(&f->sc.hdrs, text, sizeof(text)) > 0 &&
		  strcmp(text, "eth/ipv4(dst=10.0.0.1,df=0)/udp") == 0 &&
		  strcmp(c->pn[1].name, "p2") == 0 && c->pn[0].name[0] == 'p',
		  "otg flow: stack '%s'", text);
	}
	/* A refused Config leaves the table as it was, and names its path. */
	T(sl_otg_config("{\"ports\":[],\"flows\":[{}]}", strlen("{\"ports\":[],\"flows\":[{}]}"),
			env, c, &e) != 0 &&
	  strcmp(e.path, "flows[0]") == 0 && c->nb_flows == 1, "refused: %s: %s", e.path, e.msg);
	T(sl_otg_config("[1,", 3, env, c, &e) != 0 && strncmp(e.msg, "not JSON", 8) == 0 &&
	  c->nb_flows == 1, "not JSON: %s", e.msg);
	sl_config_fini(c);
out:
	free(env);
	free(c);
}

/*
 * The model written as an OTG Config (GET /config) reads back to the same
 * configuration: each flow's name, ports, sizes, rate, count, timing and
 * headers (compiled: the same bytes), written again the same text; what
 * the models cannot say is left out and counted, never written wrong.
 */
static int
flows_add(struct sl_config *c, const char *const *lines)
{
	for (; *lines != NULL; lines++) {
		char line[512], *argv[64], err[256];
		struct sl_flow_conf f;
		int argc;

		snprintf(line, sizeof(line), "%s", *lines);
		argc = sl_flow_words(line, argv, 64);
		sl_config_flow_init(c, &f, argv[0], 0);
		if (argc < 1 || sl_flow_parse(&f, argc - 1, argv + 1, err, sizeof(err)) != 0 ||
		    sl_config_flow_add(c, &f) != 0) {
			T(false, "flow add %s: %s", *lines, err);
			return -1;
		}
	}
	return 0;
}

/*
 * Flow f's headers as the stack compiles them, without the bytes its
 * fields write in every frame (the stack holds a pattern's first value,
 * or the flow's default). A classic flow's template holds its lengths
 * too: the end to end check of the frames is test_flows.sh's.
 */
static int
flow_bytes(const struct sl_flow_conf *f, uint8_t *tmpl, uint16_t *hl)
{
	struct sl_stream *s = calloc(1, sizeof(*s));
	struct sl_stream_conf sc = f->sc;
	char err[256];
	int ret;

	if (s == NULL)
		return -ENOMEM;
	memcpy(sc.src_mac.addr_bytes, "\x02\x51\xce\x00\x00\x00", 6);
	memcpy(sc.dst_mac.addr_bytes, "\x02\x00\x00\x00\x00\x01", 6);
	ret = sl_stream_build(s, &sc, 1518, err, sizeof(err));
	if (ret == 0) {
		/* The headers; what the field engine writes in each frame zeroed. */
		*hl = s->hdr_len;
		memcpy(tmpl, s->tmpl, s->hdr_len);
		for (uint16_t k = 0; k < s->nb_fields; k++)
			memset(tmpl + s->fields[k].off, 0, s->fields[k].width);
	}
	free(s);
	return ret;
}

/* One configuration's round trip: written, read back the same, written again the same. */
static void
otg_round_trip(const char *what, struct sl_config *c, const struct sl_config_env *env,
	       unsigned int want_left, uint8_t *t1, uint8_t *t2)
{
	struct sl_config *c2 = calloc(1, sizeof(*c2));
	struct sl_otg_left left, left2;
	struct sl_otg_err e;
	char *txt = NULL, *txt2 = NULL;
	json_t *o;

	if (c2 == NULL) {
		T(false, "out of memory");
		return;
	}
	sl_config_default(c2);
	o = sl_otg_write(c, env, &left);
	txt = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(o);
	T(txt != NULL && (want_left == UINT_MAX || left.nb == want_left),
	  "%s: written, %u flows left out (want %d)", what, left.nb, (int)want_left);
	if (txt == NULL)
		goto out;
	T(sl_otg_config(txt, strlen(txt), env, c2, &e) == 0 &&
	  c2->nb_flows + left.nb == c->nb_flows, "%s: read back: %s: %s (%s)", what, e.path, e.msg,
	  txt);
	for (uint16_t i = 0, j = 0; i < c->nb_flows && j < c2->nb_flows; i++) {
		const struct sl_flow_conf *a = &c->flows[i], *b = &c2->flows[j];
		uint16_t h1 = 0, h2 = 0;
		bool l1 = a->rate.unit == SL_RATE_L1;

		if (strcmp(a->name, b->name) != 0)
			continue; /* left out */
		j++;
		T(a->port == b->port && a->to == b->to &&
		  a->count == b->count && a->duration_us == b->duration_us &&
		  a->delay_us == b->delay_us && a->burst_pkts == b->burst_pkts &&
		  a->bursts == b->bursts && a->burst_gap_us == b->burst_gap_us &&
		  a->size_given == b->size_given && a->sc.nb_sizes == b->sc.nb_sizes &&
		  memcmp(a->sc.sizes, b->sc.sizes, sizeof(a->sc.sizes)) == 0 &&
		  memcmp(a->sc.weights, b->sc.weights, sizeof(a->sc.weights)) == 0 &&
		  a->sc.size_min == b->sc.size_min && a->sc.size_max == b->sc.size_max &&
		  a->sc.size_step == b->sc.size_step &&
		  (a->rate.unit == b->rate.unit || (l1 && b->rate.unit == SL_RATE_PCT)) &&
		  fabs((l1 ? b->rate.value * 1e8 : b->rate.value) - a->rate.value) <=
		  1e-9 * a->rate.value,
		  "%s: flow %s read back the same (count %lu/%lu, rate %g/%g)", what, a->name,
		  a->count, b->count, a->rate.value, b->rate.value);
		T(a->sc.nb_fields == b->sc.nb_fields, "%s: flow %s: %u fields, read back %u", what,
		  a->name, a->sc.nb_fields, b->sc.nb_fields);
		for (uint16_t k = 0; k < a->sc.nb_fields && k < b->sc.nb_fields; k++) {
			const struct sl_field_conf *x = &a->sc.fields[k], *y = &b->sc.fields[k];

			T(x->mode == y->mode && x->start == y->start && x->count == y->count &&
			  (x->step ?: 1) == (y->step ?: 1) && x->nb_list == y->nb_list &&
			  memcmp(x->list, y->list, sizeof(x->list)) == 0,
			  "%s: flow %s: field %u read back the same (%s)", what, a->name, k, y->path);
		}
		if (a->sc.hdrs.n != 0) {
			int at = -1;

			if (flow_bytes(a, t1, &h1) == 0 && flow_bytes(b, t2, &h2) == 0 && h1 == h2)
				for (int k = 0; k < h1 && at < 0; k++)
					if (t1[k] != t2[k])
						at = k;
			T(h1 != 0 && h1 == h2 && at < 0, "%s: flow %s: the same %u header bytes "
			  "(read back %u; the first that differs: %d, %02x for %02x)", what, a->name,
			  h1, h2, at, at >= 0 ? t2[at] : 0, at >= 0 ? t1[at] : 0);
		}
	}
	/* Written again: the same text (a fixed point). */
	o = sl_otg_write(c2, env, &left2);
	txt2 = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(o);
	T(txt2 != NULL && strcmp(txt, txt2) == 0 && left2.nb == 0,
	  "%s: written again, the same text", what);
	T(memcmp(c2->pn, c->pn, sizeof(c->pn)) == 0 || c->pn[0].name[0] == '\0' ||
	  c->pn[1].name[0] == '\0', "%s: the ports' names and captures read back", what);
out:
	free(txt);
	free(txt2);
	sl_config_fini(c2);
	free(c2);
}

static void
test_otg_write(void)
{
	/* w: written (read back the same), l: left out; each alone in a table. */
	static const char *const lines[] = {
		"wa port 0 to 1 count 1000 size 128",
		"wb port 1 to 0 stack eth/vlan(id=10,pcp=3)/ipv4(tos=0x28,ttl=9)/udp(sport=5)/"
		"vxlan(vni=77)/eth/ipv6/tcp(flags=0x12,win=99) size 200,300:3 rate 1000pps duration 2",
		"wc port 0 tcp vlan 100 field dst-ip=inc:198.18.1.1,5,2 field dst-port=list:7,9 "
		"rate 10% count 77",
		"wd port 0 stack eth/ipv4(df=0,mf=1,foff=7)/gre/ipv6/icmp6(id=3) field "
		"ipv6.1.dst=dec:9,4 size 100-140 burst 10 gap 0.001 bursts 5",
		"we port 0 stack eth/mpls(label=5)/ipv4(dscp=46,ecn=1)/udp/gtpu(teid=9)/ipv4/icmp "
		"field ipv4.1.ttl=inc:1,3 size 300 delay 1 count 5",
		"wg port 0 src 2001:2::10 dst 2001:2::20 sport 1000 dport 2000 size 90",
		/* found by review: an IPv6 address of 17 characters, or with an IPv4 part */
		"wf3 port 0 stack eth/ipv6(src=2001:db8::1:2:3:4)/udp field ipv6.1.src=inc:1,5,2 "
		"size 100",
		"wf4 port 0 stack eth/ipv6(src=::ffff:10.0.0.1)/udp field ipv6.1.src=inc:1,5,2 size 100",
		/* a path without its header's index */
		"wv port 0 stack eth/ipv4/udp/vxlan/eth/ipv4/udp field vxlan.vni=inc:5000,3 size 200",
		"wt port 0 stack eth/ipv4/tcp(syn=1,ns=1) size 100",
		"wi port 0 stack eth/ipv4/icmp(type=3,code=1,csum=5) size 100",
		"wp port 0 stack eth/ipv4(dscp=10)/udp field ipv4.1.ecn=list:1,2",
		"wr port 0 rate 33.3Mbps",
		"wm port 0 src-mac 02:00:00:00:00:09 dst-mac 02:00:00:00:00:08 size 64,128,256",
		"wk port 0 stack eth/vlan(id=3,dei=1)/vlan/ipv4/udp field vlan.2.id=inc:1,3 size 100",
		/* nothing after the IP header or GRE (issue 48 item 3) */
		"wn4 port 0 stack eth/ipv4(ttl=7) size 100",
		"wn6 port 0 stack eth/vlan(id=9)/ipv6 field ipv6.1.dst=inc:1,3",
		"wng port 0 stack eth/ipv6/gre size 128",
		/* What the models cannot say, or OTG's reader refuses: left out. */
		"lr1 port 0 field src-ip=random:198.18.0.1,10",
		"lr2 port 0 stack eth/ipv4/tcp(urg=5)",
		"lr3 port 0 flows 10",
		"lr4 port 0 count 5 duration 1",
		"lr5 port 0 rate 20Gbps",
		"lr6 port 0 field src-mac=inc:00:00:01,4",
		"lr7 port 0 stack eth/ipv4/gre(c=1)/ipv4/udp size 100",
		"lr8 port 0 stack eth/mpls/mpls(s=0)/ipv4/udp",
		"lr9 port 0 stack eth(type=0x88b5)/ipv4/udp",
		NULL,
	};
	struct sl_config_env *env = calloc(1, sizeof(*env));
	struct sl_config *c = calloc(1, sizeof(*c));
	uint8_t *t1 = malloc(SL_GEN_MAX_FRAME), *t2 = malloc(SL_GEN_MAX_FRAME);

	if (env == NULL || c == NULL || t1 == NULL || t2 == NULL) {
		T(false, "out of memory");
		goto out;
	}
	two_sims(env);
	for (const char *const *l = lines; *l != NULL; l++) {
		const char *one[] = { *l, NULL };

		sl_config_default(c);
		if (flows_add(c, one) == 0)
			otg_round_trip(*l, c, env, (*l)[0] == 'l' ? 1 : 0, t1, t2);
		sl_config_fini(c);
	}
	/* All of them in one table, with names, a capture and an MTU. */
	sl_config_default(c);
	snprintf(c->pn[1].name, sizeof(c->pn[1].name), "east");
	snprintf(c->pn[0].name, sizeof(c->pn[0].name), "west");
	c->pn[1].capture = true;
	c->pn[1].cap_snap = 96;
	c->pc[0].mtu = 9000;
	if (flows_add(c, lines) == 0)
		otg_round_trip("the whole table", c, env, 9, t1, t2);
	sl_config_fini(c);
	/* A port named as another's default: the default moves aside (review). */
	sl_config_default(c);
	snprintf(c->pn[0].name, sizeof(c->pn[0].name), "port-1");
	if (flows_add(c, lines) == 0) {
		struct sl_otg_left left;
		json_t *o = sl_otg_write(c, env, &left);

		T(o != NULL && strcmp(json_string_value(json_object_get(json_array_get(
		  json_object_get(o, "ports"), 1), "name")), "port-1-1") == 0,
		  "port 1 unnamed beside a port named port-1: port-1-1");
		json_decref(o);
		otg_round_trip("a port named port-1", c, env, 9, t1, t2);
	}
	sl_config_fini(c);
out:
	free(c);
	free(env);
	free(t1);
	free(t2);
}

/*
 * The prompt's stream check (set size/flows/vlan/field/tx-ip) is start's:
 * whatever start refuses, the prompt refuses with the same words, and the
 * other way round. A port like a NIC whose MTUs go up to 1500 only.
 */
static void
test_stream_checks(void)
{
	static const struct { uint16_t mtu, vlan; const char *sizes; bool ok; } cases[] = {
		{ 0, 0, "64", true }, { 0, 0, "1518", true }, { 0, 0, "1519", false },
		{ 0, 100, "1522", true }, { 0, 100, "1523", false }, { 1500, 0, "64-1518", true },
		{ 1000, 0, "1018", true }, { 1000, 0, "1019", false },
		/* The MTU range: start refused these, the prompt let them through. */
		{ 9000, 0, "64", false }, { 1501, 0, "64", false }, { 67, 0, "64", false },
	};
	struct sl_config_env *env = calloc(1, sizeof(*env));
	struct sl_config *c = calloc(1, sizeof(*c));
	struct sl_config_err e_start, e_prompt;
	char err[256];

	if (env == NULL || c == NULL) {
		T(false, "out of memory");
		free(env);
		free(c);
		return;
	}
	/* The machine's facts as plain data: a port, two lcores; no EAL needed. */
	env->nb_ports = 1;
	env->nb_lcores = 2;
	env->worker[1] = true;
	snprintf(env->port[0].info.name, sizeof(env->port[0].info.name), "nic0");
	snprintf(env->port[0].info.driver, sizeof(env->port[0].info.driver), "net_nic");
	env->port[0].info.mtu = 1500;
	env->port[0].info.min_mtu = 68;
	env->port[0].info.max_mtu = 1500;
	env->port[0].info.speed_bps = 10000000000ull;
	env->port[0].info.wire_to = -1;
	env->port[0].can_rx = true;
	for (size_t i = 0; i < RTE_DIM(cases); i++) {
		bool bad_mtu = cases[i].mtu != 0 && (cases[i].mtu < 68 || cases[i].mtu > 1500);
		int r_start, r_prompt;

		sl_config_default(c);
		c->pc[0].mtu = cases[i].mtu;
		c->pc[0].vlan = cases[i].vlan;
		c->size_given = true;
		T(sl_parse_sizes(&c->sc, cases[i].sizes, err, sizeof(err)) == 0, "%s", err);
		e_start.msg[0] = e_prompt.msg[0] = '\0';
		/* A start builds the flow; the prompt checks the candidate: the same words. */
		r_start = sl_config_flow_build(c, env, 0, NULL, &e_start);
		r_prompt = sl_config_check(c, env, SL_CHECK_STREAMS, &e_prompt);
		T((r_start == 0) == cases[i].ok && r_prompt == r_start &&
		  strcmp(e_start.msg, e_prompt.msg) == 0 &&
		  /* Refused: the setting at fault, structured (not read back from the words). */
		  (r_start == 0 || (strcmp(e_start.opt, bad_mtu ? "--mtu" : "--size") == 0 &&
				    strncmp(e_start.msg, e_start.opt, e_start.detail) == 0 &&
				    e_start.port == 0)),
		  "mtu %u vlan %u sizes %s: start %d '%s', prompt %d '%s'", cases[i].mtu,
		  cases[i].vlan, cases[i].sizes, r_start, e_start.msg, r_prompt, e_prompt.msg);
	}
	free(env);
	free(c);
}

/*
 * The configuration's check (sl_config.h), without EAL: each fault a start
 * can meet, found before anything is touched, is named by its setting (the
 * option, the port) and its message starts with that option; a good
 * configuration passes; the check never writes its input.
 */
static void
test_config_check(void)
{
	struct sl_config_env *env = calloc(1, sizeof(*env));
	struct sl_config *c = calloc(1, sizeof(*c)), *copy = calloc(1, sizeof(*c));
	struct sl_config_err e;
	char err[256];
	const struct {
		const char *what, *opt;  /* opt NULL: the message names no option */
		int port;
		const char *want;        /* in the message */
	} cases[] = {
		{ "eth-peer of a missing port", "--eth-peer", 5, "port 5 does not exist" },
		{ "the main lcore in the map", "--map", -1, "lcore 0 is not a worker lcore" },
		{ "a disabled lcore in the map", "--map", -1, "lcore 9 is not a worker lcore" },
		{ "a missing port in the map", "--map", 4, "port 4 does not exist" },
		{ "txq below the map's queues", "--txq", 0, "the map uses queue 1 on port 0" },
		{ "direct on a port with no burst call", "--xmit", 1, "port 1 queue 0 is simulated" },
		{ "direct on a shared queue", "--xmit", 0, "port 0 queue 0 is shared" },
		{ "a rate above the line", "--rate", 0, "port 0 (p0)" },
		{ "a frame above the MTU", "--size", 0, "frame size 1519" },
		{ "an MTU out of range", "--mtu", 1, "accepts an MTU from 68 to 1500" },
		{ "a VLAN field without a tag", "--field", 0, "the frames have no VLAN tag" },
		{ "flows that wrap the address", "--flows", 0, "would wrap it" },
		{ "a VLAN id above 4094", "--vlan", 0, "VLAN id 4095" },
		{ "a port that cannot receive", NULL, 1, "port 1 (p1) cannot receive" },
		{ "an rx port that is missing", "--rx", 7, "port 7 does not exist" },
		{ "an rxmap lcore that is no worker", "--rxmap", 0, "lcore 3 is not a worker" },
		{ "one lcore", NULL, -1, "no worker lcore" },
		{ "burst 0", "--burst", -1, "0 packets: give 1..64" },
		{ "burst 65", "--burst", -1, "65 packets: give 1..64" },
		{ "txq above 64", "--txq", 1, "at most 64 queues" },
		{ "a map of 129 entries", "--map", -1, "129 entries: at most 128" },
		{ "a rate share below 1/s", "--rate", 0, "below 1 per second each" },
		{ "65 queues on one lcore", "--map", 1, "lcore 1 sends on more than 64 queues" },
	};

	if (env == NULL || c == NULL || copy == NULL) {
		T(false, "out of memory");
		goto out;
	}
	env->nb_ports = 2;
	for (uint16_t i = 0; i < 2; i++) {
		struct sl_port_info *pi = &env->port[i].info;

		snprintf(pi->name, sizeof(pi->name), "p%u", i);
		pi->speed_bps = 10000000000ull;
		pi->mtu = 1500;
		pi->min_mtu = 68;
		pi->max_mtu = 1500;
		pi->wire_to = -1;
		pi->mac = (struct rte_ether_addr){ { 2, 0, 0, 0, 0, (uint8_t)(0x10 + i) } };
		env->port[i].can_rx = i == 0;
		env->port[i].has_tx_burst = i == 0;
	}
	env->nb_lcores = 3;
	env->worker[1] = env->worker[2] = true;
	sl_config_default(c);
	T(sl_config_check(c, env, SL_CHECK_ALL, &e) == 0, "the defaults refused: %s", e.msg);
	for (size_t k = 0; k < RTE_DIM(cases); k++) {
		struct sl_config_env env1 = *env;
		int ret;

		sl_config_default(c);
		switch (k) {
		case 0: c->peer_set[5] = true; break;
		case 1: sl_parse_map(c->map, &c->nb_map, "0:0.0", err, sizeof(err)); break;
		case 2: sl_parse_map(c->map, &c->nb_map, "9:0.0", err, sizeof(err)); break;
		case 3: sl_parse_map(c->map, &c->nb_map, "1:4.0", err, sizeof(err)); break;
		case 4:
			sl_parse_map(c->map, &c->nb_map, "1:0.0,2:0.1", err, sizeof(err));
			c->pc[0].txq = 1;
			break;
		case 5: c->direct = true; break; /* the default map sends on port 1 too */
		case 6:
			c->direct = true;
			sl_parse_map(c->map, &c->nb_map, "1-2:0.0", err, sizeof(err));
			break;
		case 7: sl_parse_rate("20Gbps", &c->pc[0].rate, err, sizeof(err)); break;
		case 8:
			c->size_given = true;
			sl_parse_sizes(&c->sc, "1519", err, sizeof(err));
			break;
		case 9: c->pc[1].mtu = 9000; break;
		case 10: sl_parse_field(&c->sc, "vlan=inc:1,3", err, sizeof(err)); break;
		case 11:
			c->sc.src_ip = 0xfffffff0;
			c->sc.flows = 1u << 20;
			break;
		case 12: c->pc[0].vlan = 4095; break;
		case 13: c->rx_mode = SL_RX_ALL; break;
		case 14: c->rx_mode = SL_RX_LIST; c->rx_port[7] = true; break;
		case 15:
			sl_parse_map(c->rxmap, &c->nb_rxmap, "3:0.0", err, sizeof(err));
			break;
		case 16: env1.nb_lcores = 1; env1.worker[1] = env1.worker[2] = false; break;
		case 17: c->burst = 0; break;
		case 18: c->burst = 65; break;
		case 19: c->pc[1].txq = 65; break;
		case 20: c->nb_map = 129; break;
		case 21: /* two workers share port 0's 1 pps: half a frame a second each */
			sl_parse_rate("1pps", &c->pc[0].rate, err, sizeof(err));
			break;
		case 22: /* lcore 1 on all 64 queues of port 0 and one of port 1 */
			for (uint16_t q = 0; q < 64; q++)
				c->map[c->nb_map++] = (struct sl_map_entry){ 1, 0, q };
			c->map[c->nb_map++] = (struct sl_map_entry){ 1, 1, 0 };
			break;
		}
		*copy = *c;
		memset(&e, 0, sizeof(e));
		ret = sl_config_check(c, &env1, SL_CHECK_ALL, &e);
		T(ret == -EINVAL && strstr(e.msg, cases[k].want) != NULL && e.port == cases[k].port &&
		  (cases[k].opt == NULL ? e.opt == NULL :
		   e.opt != NULL && strcmp(e.opt, cases[k].opt) == 0 &&
		   strncmp(e.msg, e.opt, e.detail) == 0 && e.detail == strlen(e.opt)),
		  "%s: %d, opt %s, port %d, '%s'", cases[k].what, ret, e.opt ? e.opt : "-", e.port,
		  e.msg);
		T(memcmp(copy, c, sizeof(*c)) == 0, "%s: the check wrote its input", cases[k].what);
	}
	/* The streams alone (the prompt's set): a map fault is the start's to find. */
	sl_config_default(c);
	sl_parse_map(c->map, &c->nb_map, "0:0.0", err, sizeof(err));
	T(sl_config_check(c, env, SL_CHECK_STREAMS, &e) == 0, "a streams check looked at the map");
	/* The default map: each worker its own queue on every port, the port's limit kept. */
	{
		struct sl_map_entry map[SL_MAP_MAX];
		uint16_t n;

		sl_config_default(c);
		env->port[1].info.max_txq = 1;
		n = sl_config_map(c, env, map);
		T(n == 4 && map[0].lcore == 1 && map[0].queue == 0 && map[2].lcore == 2 &&
		  map[2].port == 0 && map[2].queue == 1 && map[3].port == 1 && map[3].queue == 0,
		  "default map: %u entries", n);
	}
out:
	free(env);
	free(c);
	free(copy);
}

/*
 * The main loop (lib/loop), without EAL: timers run in time order and as
 * often as they answer; a file event runs when its fd is readable and not
 * after it is deleted; a signal handler's sl_loop_notify() wakes a loop that
 * sleeps for a second and runs the notify function on the loop's thread;
 * a stop inside a nested run ends the outer run too.
 */
static struct sl_loop *loop_sig;
static int loop_order[8], loop_n, loop_reads, loop_notified;

static void
loop_on_sig(int sig)
{
	RTE_SET_USED(sig);
	sl_loop_notify(loop_sig);
}

static int64_t
loop_timer(struct sl_loop *l, void *arg)
{
	int id = (int)(intptr_t)arg;

	RTE_SET_USED(l);
	if (loop_n < 8)
		loop_order[loop_n++] = id;
	return id == 3 && loop_n < 4 ? 1000 : SL_LOOP_NOMORE; /* 3 runs twice */
}

static void
loop_read(struct sl_loop *l, int fd, unsigned int events, void *arg)
{
	char c;

	RTE_SET_USED(arg);
	if ((events & SL_LOOP_READ) && read(fd, &c, 1) == 1)
		loop_reads++;
	sl_loop_file_del(l, fd); /* one read, then off the loop */
}

static void
loop_notify(struct sl_loop *l, void *arg)
{
	RTE_SET_USED(l);
	RTE_SET_USED(arg);
	loop_notified++;
}

static int loop_q0, *loop_r, loop_reuse_calls;

static void
loop_reused(struct sl_loop *l, int fd, unsigned int events, void *arg)
{
	RTE_SET_USED(l);
	RTE_SET_USED(fd);
	RTE_SET_USED(events);
	RTE_SET_USED(arg);
	loop_reuse_calls++;
}

/* Closes the other watched pipe and watches a new, empty one under its number. */
static void
loop_reopen(struct sl_loop *l, int fd, unsigned int events, void *arg)
{
	char c;

	RTE_SET_USED(events);
	RTE_SET_USED(arg);
	if (read(fd, &c, 1) != 1)
		return;
	/* Its own registration stays: the new file takes the other one's slot. */
	sl_loop_file_del(l, loop_q0);
	close(loop_q0);
	if (pipe(loop_r) != 0)
		return;
	sl_loop_file_add(l, loop_r[0], SL_LOOP_READ, loop_reused, NULL);
}

static int64_t
loop_nested(struct sl_loop *l, void *arg)
{
	RTE_SET_USED(arg);
	sl_loop_stop(l); /* from inside a nested run: both end */
	return SL_LOOP_NOMORE;
}

static int64_t
loop_inner(struct sl_loop *l, void *arg)
{
	RTE_SET_USED(arg);
	sl_loop_timer_add(l, 1000, loop_nested, NULL);
	sl_loop_run(l, NULL, NULL);
	loop_n = 100; /* the inner run returned */
	return SL_LOOP_NOMORE;
}

/* The run's flags: an interrupt still pending keeps the next start stopped (issue 31 review). */
static void
test_run_flags(void)
{
	sl_run_rearm();
	T(!sl_stopping(), "rearm with nothing pending left stop set");
	sl_run_interrupt();
	sl_run_rearm(); /* a trial built after a Ctrl-C */
	T(sl_stopping() && sl_interrupted(), "an interrupt pending at a start was lost");
	T(sl_run_intr_take(), "the interrupt was not there to take");
	sl_run_rearm();
	T(!sl_stopping() && !sl_interrupted(), "after the interrupt's work, a start runs");
}

static void
test_loop(void)
{
	struct sl_loop *l = sl_loop_create();
	struct sigaction sa = { .sa_handler = loop_on_sig }, old;
	int fds[2];
	uint64_t t0;

	if (l == NULL || pipe(fds) != 0) {
		T(false, "loop or pipe: %s", strerror(errno));
		sl_loop_free(l);
		return;
	}
	/*
	 * Timers: in time order; 3 runs again 1 ms later; a deleted one never.
	 * Each is added a moment after the last: their times are far enough
	 * apart that a descheduled moment between two adds (a busy loop on the
	 * other CPU gave 2 ms) does not change their order.
	 */
	sl_loop_timer_add(l, 100000, loop_timer, (void *)(intptr_t)2);
	sl_loop_timer_add(l, 5000, loop_timer, (void *)(intptr_t)1);
	sl_loop_timer_add(l, 200000, loop_timer, (void *)(intptr_t)3);
	sl_loop_timer_del(l, sl_loop_timer_add(l, 50000, loop_timer, (void *)(intptr_t)9));
	for (int i = 0; i < 200 && loop_n < 4; i++)
		sl_loop_once(l, 100000);
	T(loop_n == 4 && loop_order[0] == 1 && loop_order[1] == 2 && loop_order[2] == 3 &&
	  loop_order[3] == 3, "timers: %d runs, order %d %d %d %d", loop_n, loop_order[0],
	  loop_order[1], loop_order[2], loop_order[3]);
	/* A file event: one byte read, then deleted by its handler: the second byte stays. */
	sl_loop_file_add(l, fds[0], SL_LOOP_READ, loop_read, NULL);
	T(write(fds[1], "ab", 2) == 2, "pipe write");
	for (int i = 0; i < 5; i++)
		sl_loop_once(l, 1000);
	T(loop_reads == 1, "file event: %d reads (want 1: deleted after the first)", loop_reads);
	/* A signal wakes a loop that would sleep a second; notify runs on the loop. */
	loop_sig = l;
	sl_loop_on_notify(l, loop_notify, NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &old);
	t0 = sl_loop_now_us();
	raise(SIGUSR1);
	sl_loop_once(l, 1000000);
	T(loop_notified == 1 && sl_loop_now_us() - t0 < 900000,
	  "notify: %d calls after %" PRIu64 " us", loop_notified, sl_loop_now_us() - t0);
	sigaction(SIGUSR1, &old, NULL);
	/*
	 * A handler that closes a watched fd and watches a new file under the
	 * same number in the same turn: the new one does not get the readiness
	 * polled for the old one (its pipe is empty).
	 */
	{
		int p[2], q[2], r[2];

		loop_reads = 0;
		loop_reuse_calls = 0;
		if (pipe(p) == 0 && pipe(q) == 0 && write(p[1], "x", 1) == 1 &&
		    write(q[1], "y", 1) == 1) {
			loop_q0 = q[0];
			loop_r = r;
			sl_loop_file_add(l, p[0], SL_LOOP_READ, loop_reopen, NULL);
			sl_loop_file_add(l, q[0], SL_LOOP_READ, loop_read, NULL);
			sl_loop_once(l, 1000);
			T(loop_reuse_calls == 0 && loop_r[0] == q[0],
			  "fd reuse: the new file got the old one's readiness (%d calls, fd %d/%d)",
			  loop_reuse_calls, loop_r[0], q[0]);
			sl_loop_file_del(l, r[0]);
			sl_loop_file_del(l, p[0]);
			close(p[0]);
			close(p[1]);
			close(q[1]);
			close(r[0]);
			close(r[1]);
		}
	}
	/* A stop inside a nested run ends the outer one as well. */
	loop_n = 0;
	sl_loop_timer_add(l, 0, loop_inner, NULL);
	sl_loop_run(l, NULL, NULL);
	T(loop_n == 100, "nested run: the outer run ended with the inner (%d)", loop_n);
	close(fds[0]);
	close(fds[1]);
	sl_loop_free(l);
}

/*
 * One seconds parser (--duration, --drain, the bench's durations, units and
 * one bound), one port-id parser (the prompt's and telemetry's).
 */
static void
test_one_parser(void)
{
	static const struct { const char *arg; bool ok; uint64_t us; } drains[] = {
		{ "500ms", true, 500000 }, { "0", true, 0 }, { "0.05", true, 50000 },
		{ "2s", true, 2000000 }, { "64800", true, 64800000000ull }, { "64801", false, 0 },
		{ "-1", false, 0 }, { "x", false, 0 }, { "0.5x", false, 0 },
	};
	static const struct { const char *params; bool ok; double trial_s; } trials[] = {
		{ "load=100kpps,trial=500ms", true, 0.5 }, { "load=100kpps,trial=2", true, 2 },
		{ "load=100kpps,trial=64800", true, 64800 }, { "load=100kpps,trial=1ms", true, 0.001 },
		{ "load=100kpps,trial=64801", false, 0 }, { "load=100kpps,trial=86400", false, 0 },
		{ "load=100kpps,trial=500us", false, 0 }, { "load=100kpps,trial=0", false, 0 },
	};
	static const char *const bad_ports[] = { "2", "-0", "+1", " 1", "1 ", "", "0x1", "a",
						 "65536", "4294967296" };
	struct sl_bench_conf bc;
	struct sl_config c;
	struct sl_opts o;
	char err[256], a1[32];
	uint16_t port;

	for (size_t i = 0; i < RTE_DIM(drains); i++) {
		char *argv[] = { "sluice", "--drain", a1, NULL };

		snprintf(a1, sizeof(a1), "%s", drains[i].arg);
		sl_opts_default(&o);
		sl_config_default(&c);
		T((sl_opts_parse(&o, &c, 3, argv) == SL_OPTS_RUN) == drains[i].ok &&
		  (!drains[i].ok || c.drain_us == drains[i].us), "--drain %s: drain_us %lu",
		  drains[i].arg, c.drain_us);
	}
	/* Found by review: a first character that is not a digit read an unset pointer
	 * (valgrind), and a unit rounded up by a microsecond (9ms was 9001 us). */
	{
		static const char *const bad0[] = { "-1", "x", "-0", "0x10", "+1", " 1", "inf" };
		static const struct { const char *in; uint64_t us; } exact[] = {
			{ "9ms", 9000 }, { "8.3", 8300000 }, { "0.0079", 7900 }, { "13ms", 13000 },
			{ "1.3ms", 1300 }, { "46us", 46 }, { "0.5us", 1 }, { "0", 0 },
		};
		unsigned int wrong = 0;
		uint64_t us;

		for (size_t i = 0; i < RTE_DIM(bad0); i++)
			T(sl_parse_seconds0(bad0[i], &us, err, sizeof(err)) != 0, "seconds0 '%s' accepted",
			  bad0[i]);
		for (size_t i = 0; i < RTE_DIM(exact); i++)
			T(sl_parse_seconds0(exact[i].in, &us, err, sizeof(err)) == 0 &&
			  us == exact[i].us, "'%s': %lu us, want %lu", exact[i].in, us, exact[i].us);
		for (unsigned int ms = 1; ms <= 20000; ms++) {
			char b[32];

			snprintf(b, sizeof(b), "%ums", ms);
			wrong += sl_parse_seconds(b, &us, err, sizeof(err)) != 0 || us != ms * 1000ull;
			snprintf(b, sizeof(b), "%u.%03u", ms / 1000, ms % 1000);
			wrong += sl_parse_seconds(b, &us, err, sizeof(err)) != 0 || us != ms * 1000ull;
		}
		T(wrong == 0, "%u of 40000 millisecond values off by a microsecond", wrong);
	}
	for (size_t i = 0; i < RTE_DIM(trials); i++) {
		err[0] = '\0';
		T((sl_bench_parse("trial", trials[i].params, &bc, err, sizeof(err)) == 0) ==
		  trials[i].ok && (!trials[i].ok || fabs(bc.trial_s - trials[i].trial_s) < 1e-9) &&
		  (trials[i].ok || strstr(err, "from 0.001 s to 64800 s") != NULL),
		  "%s: trial_s %g (%s)", trials[i].params, bc.trial_s, err);
	}
	T(sl_bench_parse("mlr", "final=500ms,sum=1s,lat=250ms", &bc, err, sizeof(err)) == 0 &&
	  fabs(bc.p.goals[0].final_s - 0.5) < 1e-9 && fabs(bc.p.goals[0].sum_s - 1) < 1e-9 &&
	  fabs(bc.lat_s - 0.25) < 1e-9, "final/sum/lat with units: %s", err);
	T(sl_bench_parse("mlr", "initial=90000", &bc, err, sizeof(err)) != 0 &&
	  strstr(err, "initial: '90000'") != NULL, "initial=90000 accepted: %s", err);
	T(sl_config_port_parse("1", 2, &port, err, sizeof(err)) == 0 && port == 1, "port 1 of 2: %s", err);
	for (size_t i = 0; i < RTE_DIM(bad_ports); i++) {
		port = 7;
		T(sl_config_port_parse(bad_ports[i], 2, &port, err, sizeof(err)) != 0 && port == 7 &&
		  strstr(err, "ports are 0..1") != NULL, "port '%s' accepted as %u: %s",
		  bad_ports[i], port, err);
	}
	T(sl_config_port_parse("0", 0, &port, err, sizeof(err)) != 0 && strstr(err, "no ports"), "%s",
	  err);
	/* The longest duration in TSC cycles at 3 GHz: us * hz wrapped above ~6000 s. */
	T(sl_us_tsc(64800000000ull, 3000000000ull) == 64800ull * 3000000000ull &&
	  sl_us_tsc(1500000, 2000000000ull) == 3000000000ull &&
	  sl_us_tsc(1, 3000000000ull) == 3000, "us to TSC");
}

/* The text layouts of the port counters name counters that exist (counters.h). */
static void
test_counter_layouts(void)
{
	const struct sl_counter_fmt *layouts[] = { sl_port_summary_fmt, sl_port_show_fmt };
	unsigned int n = 0;

	for (size_t i = 0; i < RTE_DIM(layouts); i++)
		for (const struct sl_counter_fmt *f = layouts[i]; f->name != NULL; f++, n++)
			T(sl_counter_find(sl_port_counters, f->name) != NULL,
			  "layout %zu names '%s', not a port counter", i, f->name);
	T(n == 7, "%u counters in the two layouts, want 7", n);
	T(sl_counter_find(sl_port_counters, "no_such") == NULL, "a made-up name found");
}

/*
 * A snapshot holds the description of its run (snapshot.h): the session's,
 * counted, and never changed by what follows (a later start describes its
 * own run); where the session has none, a description of its own. The
 * last holder frees it (ASan's leak check runs this binary).
 */
static void
test_run_desc(void)
{
	struct sl_app *app = calloc(1, sizeof(*app));
	struct sl_results *r1 = NULL, *r2 = NULL, *r3 = NULL;
	struct sl_run_desc *d1, *d2;
	struct sl_flow_conf f;

	if (app == NULL) {
		T(false, "out of memory");
		return;
	}
	sl_config_default(&app->cfg);
	sl_config_default(&app->ses.run_cfg);
	sl_config_flow_init(&app->ses.run_cfg, &f, "a", false);
	T(sl_config_flow_add(&app->ses.run_cfg, &f) == 0, "add a");
	app->ses.run_cfg.sign = SL_SIGN_ON;
	app->cfg.sign = SL_SIGN_AUTO;
	r3 = sl_results_take_opt(app, false);
	T(r3 != NULL && r3->desc != NULL && r3->desc->cfg.nb_flows == 1 &&
	  r3->desc->sign_asked == SL_SIGN_AUTO && r3->desc->cfg.sign == SL_SIGN_ON,
	  "a snapshot without a session's description makes its own");
	d1 = sl_run_desc_make(app);
	app->ses.desc = d1;
	r1 = sl_results_take_opt(app, false);
	T(r1 != NULL && r1->desc == d1 && d1->refs == 2, "the session's description, held");
	/* The next run: another table, described anew; r1 keeps its own. */
	sl_config_flow_init(&app->ses.run_cfg, &f, "b", false);
	T(sl_config_flow_add(&app->ses.run_cfg, &f) == 0, "add b");
	d2 = sl_run_desc_make(app);
	sl_run_desc_put(app->ses.desc);
	app->ses.desc = d2;
	r2 = sl_results_take_opt(app, false);
	T(r1 != NULL && r1->desc->refs == 1 && r1->desc->cfg.nb_flows == 1 &&
	  strcmp(r1->desc->cfg.flows[0].name, "a") == 0, "the older snapshot keeps its run");
	T(r2 != NULL && r2->desc == d2 && d2->cfg.nb_flows == 2 && d2->refs == 2,
	  "the newer one has the next run's");
	T(d2->cfg.flows != app->ses.run_cfg.flows, "a description owns its copy of the table");
	sl_results_free(r1);
	sl_results_free(r2);
	sl_results_free(r3);
	T(d2->refs == 1, "freeing a snapshot lets its description go");
	sl_run_desc_put(app->ses.desc);
	sl_config_fini(&app->ses.run_cfg);
	sl_config_fini(&app->cfg);
	free(app);
}

int
main(void)
{
	test_numbers();
	test_sizes_fields_maps();
	test_rates();
	test_options();
	test_sim_dut();
	test_parse_slips();
	test_units();
	test_listen();
	test_stream_checks();
	test_flow_table();
	test_stack_otg();
	test_otg_write();
	test_config_check();
	test_loop();
	test_run_flags();
	test_one_parser();
	test_counter_layouts();
	test_run_desc();
	printf("test_app: %d passed, %d failed\n", pass, fail);
	return fail != 0;
}
