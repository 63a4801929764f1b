/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options after "--". Every error names the option, says what is expected
 * and exits with SL_EXIT_USAGE; nothing has been configured yet then.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <limits.h>
#include <unistd.h>

#include <rte_lcore.h>
#include <rte_version.h>

#include "cli.h"
#include "sl_app.h"

enum {
	OPT_DURATION = 256, OPT_COUNT, OPT_BURST, OPT_SIZE, OPT_TX_IP, OPT_TX_UDP,
	OPT_ETH_PEER, OPT_STATS_PERIOD, OPT_JSON, OPT_VERSION, OPT_MAP, OPT_TXQ,
	OPT_TXD, OPT_LLTX, OPT_LOCK, OPT_SIM, OPT_XMIT, OPT_FLOWS, OPT_IMIX, OPT_VLAN,
	OPT_RATE, OPT_IPV6, OPT_TX_IP6, OPT_TCP, OPT_CMDLINE_FILE, OPT_CLI_REF, OPT_FIELD,
};

static const struct option long_opts[] = {
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "tx-ip", required_argument, NULL, OPT_TX_IP },
	{ "tx-udp", required_argument, NULL, OPT_TX_UDP },
	{ "eth-peer", required_argument, NULL, OPT_ETH_PEER },
	{ "stats-period", required_argument, NULL, OPT_STATS_PERIOD },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "map", required_argument, NULL, OPT_MAP },
	{ "txq", required_argument, NULL, OPT_TXQ },
	{ "txd", required_argument, NULL, OPT_TXD },
	{ "lltx", required_argument, NULL, OPT_LLTX },
	{ "lock", required_argument, NULL, OPT_LOCK },
	{ "sim", required_argument, NULL, OPT_SIM },
	{ "xmit", required_argument, NULL, OPT_XMIT },
	{ "flows", required_argument, NULL, OPT_FLOWS },
	{ "imix", no_argument, NULL, OPT_IMIX },
	{ "vlan", required_argument, NULL, OPT_VLAN },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "ipv6", no_argument, NULL, OPT_IPV6 },
	{ "tx-ip6", required_argument, NULL, OPT_TX_IP6 },
	{ "tcp", no_argument, NULL, OPT_TCP },
	{ "field", required_argument, NULL, OPT_FIELD },
	{ "tx-port", required_argument, NULL, OPT_TX_UDP },
	{ "interactive", no_argument, NULL, 'i' },
	{ "auto-start", no_argument, NULL, 'a' },
	{ "cmdline-file", required_argument, NULL, OPT_CMDLINE_FILE },
	{ "cli-reference", no_argument, NULL, OPT_CLI_REF },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

void
sl_usage(void)
{
	printf("Usage: sluice [EAL options] -- [options]\n"
	       "\n"
	       "Transmit 64-byte UDP/IPv4 frames (198.18.0.1 -> 198.18.0.2, UDP port 9)\n"
	       "on every port from the worker lcores, then print a summary.\n"
	       "\n"
	       "  --duration S          stop after S seconds (decimals allowed)\n"
	       "  --count N             stop after N packets per port (N >= 1)\n"
	       "  --burst N             packets per burst, 1..64 (default 32)\n"
	       "  --size S[,S...]       frame sizes including the 4-byte FCS (RFC 2544),\n"
	       "                        64 up to the port MTU + 18; several are sent in turn;\n"
	       "                        S:W weights a size (64:7,594:4), MIN-MAX sends every\n"
	       "                        size of the range equally often\n"
	       "  --imix                the classic IMIX: 64:7,594:4,1518:1\n"
	       "  --flows N             N flows: source port counts up, then source address\n"
	       "  --rate R              per port: 14.88Mpps, 500kpps, 10Gbps (L1), 9.5Gbps-l2,\n"
	       "                        50%% of link speed; default: as fast as possible\n"
	       "  --vlan ID             802.1Q tag\n"
	       "  --ipv6                IPv6 (2001:2::1 -> 2001:2::2), --tx-ip6 SRC,DST to set\n"
	       "  --tcp                 TCP instead of UDP (ports from --tx-udp / --tx-port)\n"
	       "  --field NAME=MODE:ARGS  vary a header field, repeatable: NAME src-mac, dst-mac,\n"
	       "                        src-ip, dst-ip, src-port, dst-port, vlan; MODE inc|dec|\n"
	       "                        random:START,COUNT or list:V1,V2,... e.g.\n"
	       "                        dst-ip=inc:198.18.0.2,100  vlan=list:10,20\n"
	       "  --tx-ip SRC,DST       IPv4 source and destination\n"
	       "  --tx-udp SP[,DP]      UDP source and destination ports\n"
	       "  --eth-peer P,MAC      destination MAC on port P\n"
	       "  --stats-period S      print live stats every S seconds\n"
	       "  --json FILE           write the summary as JSON at the end\n"
	       "  --map SPEC            lcores to TX queues: 1-2:0.0 (lcores 1 and 2 share\n"
	       "                        port 0 queue 0), 1:0.0,2:0.1; default: each worker\n"
	       "                        lcore gets its own queue on every port\n"
	       "  --txq N               TX queues per port (default: as the map needs)\n"
	       "  --txd N               TX descriptors per queue\n"
	       "  --lltx auto|on|off    LLTX (driver-side locking) for all ports\n"
	       "  --lock trylock|spin   engine lock on shared non-LLTX queues\n"
	       "  --sim SPEC            add a simulated port (repeatable):\n"
	       "                        RATE[,txd=N][,lltx=on|off][,verify=on|off], RATE as 10G\n"
	       "  --xmit engine|direct  direct: call rte_eth_tx_burst() without the engine\n"
	       "                        (benchmark baseline; exclusive ethdev queues only)\n"
	       "  -i, --interactive     the prompt sluice> (help lists the commands)\n"
	       "  -a, --auto-start      start transmitting at launch (with -i: before the prompt)\n"
	       "  --cmdline-file FILE   run CLI commands from FILE first (a profile, see config/)\n"
	       "  --cli-reference       print the CLI reference (Markdown) and exit\n"
	       "  -h, --help            this text\n"
	       "  --version             the version\n"
	       "\n"
	       "Example (no NIC, no hugepages):\n"
	       "  sluice --no-huge -m 512 -l 0-1 --vdev net_null0 -- --duration 3 --stats-period 1\n"
	       "Docs: docs/getting-started.md\n");
}

static void __rte_noreturn __rte_format_printf(2, 3)
usage_error(const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sluice: %s: ", opt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see sluice -- --help)\n");
	exit(SL_EXIT_USAGE);
}

/* A whole unsigned number in [min, max], or a usage error. */
static uint64_t
parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (s == NULL || !isdigit((unsigned char)*s))
		usage_error(opt, "'%s' is not a number", s ? s : "");
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		usage_error(opt, "'%s' is not a number", s);
	if (v < min || v > max)
		usage_error(opt, "%llu is out of range %" PRIu64 "..%" PRIu64, v, min, max);
	return v;
}

static double
parse_seconds(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v <= 0 || v > 64800)
		usage_error(opt, "'%s' is not a number of seconds from 0 to 64800 (18 h: the pacer and sim clocks are 48-bit)", s);
	return v;
}

/* Refuse now a --json path that cannot be written at the end of the run. */
static void
json_writable(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == path)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (access(dir, W_OK) != 0)
		usage_error("--json", "cannot write in '%s': %s", dir, strerror(errno));
}

static uint32_t
parse_ipv4(const char *opt, const char *s)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		usage_error(opt, "'%s' is not an IPv4 address (e.g. 198.18.0.1)", s);
	return ntohl(a.s_addr);
}

int
sl_parse_rate_bps(const char *s, uint64_t *bps)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || !isfinite(v) || v <= 0)
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
	int k = 0;

	if (strlen(arg) >= sizeof(buf)) {
		snprintf(err, len, "list too long");
		return -EINVAL;
	}
	n.size_min = n.size_max = 0;
	n.nb_sizes = 0;
	if (sscanf(arg, "%u-%u%n", &lo, &hi, &k) == 2 && arg[k] == '\0') {
		if (lo < SL_GEN_MIN_FRAME || hi > SL_GEN_MAX_FRAME || lo > hi) {
			snprintf(err, len, "range %u-%u: give MIN-MAX within %d-%d", lo, hi,
				 SL_GEN_MIN_FRAME, SL_GEN_MAX_FRAME);
			return -EINVAL;
		}
		n.size_min = lo;
		n.size_max = hi;
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
		if (size < 0 || weight < 0) {
			snprintf(err, len, "'%s' is not a frame size %d..%d (with FCS), optionally :WEIGHT",
				 tok, SL_GEN_MIN_FRAME, SL_GEN_MAX_FRAME);
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

static void
parse_sizes(struct sl_stream_conf *c, const char *arg)
{
	char err[160];

	if (sl_parse_sizes(c, arg, err, sizeof(err)) != 0)
		usage_error("--size", "%s", err);
}

/* One value of a field: an IPv4 address, a MAC's low 3 bytes (aa:bb:cc), or a number. */
static int
field_value(enum sl_field_kind kind, const char *s, uint32_t *v)
{
	struct in_addr a;
	unsigned int m[3];
	int n = 0;
	long x;

	if ((kind == SL_FIELD_SRC_IP || kind == SL_FIELD_DST_IP) && inet_pton(AF_INET, s, &a) == 1) {
		*v = ntohl(a.s_addr);
		return 0;
	}
	if ((kind == SL_FIELD_SRC_MAC || kind == SL_FIELD_DST_MAC) &&
	    sscanf(s, "%2x:%2x:%2x%n", &m[0], &m[1], &m[2], &n) == 3 && s[n] == '\0') {
		*v = m[0] << 16 | m[1] << 8 | m[2];
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
int
sl_parse_field(struct sl_stream_conf *c, const char *arg, char *err, size_t len)
{
	static const char *const names[] = { "src-mac", "dst-mac", "src-ip", "dst-ip",
					     "src-port", "dst-port", "vlan" };
	static const char *const modes[] = { "inc", "dec", "random", "list" };
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
	for (i = 0; i < (int)RTE_DIM(names) && strcmp(buf, names[i]) != 0; i++)
		;
	if (i == (int)RTE_DIM(names)) {
		snprintf(err, len, "field '%s': give src-mac, dst-mac, src-ip, dst-ip, src-port, "
			 "dst-port or vlan", buf);
		return -EINVAL;
	}
	f.kind = i;
	for (i = 0; i < (int)RTE_DIM(modes) && strcmp(eq + 1, modes[i]) != 0; i++)
		;
	if (i == (int)RTE_DIM(modes)) {
		snprintf(err, len, "field mode '%s': give inc, dec, random or list", eq + 1);
		return -EINVAL;
	}
	f.mode = i;
	for (tok = strtok_r(colon + 1, ",", &save), k = 0; tok != NULL;
	     tok = strtok_r(NULL, ",", &save), k++) {
		uint32_t v;

		if (k == SL_FIELD_LIST_MAX || field_value(f.kind, tok, &v) != 0 ||
		    (f.mode != SL_FIELD_LIST && k > 1)) {
			snprintf(err, len, "field %s: bad value '%s' (%s)", names[f.kind], tok,
				 f.mode == SL_FIELD_LIST ? "at most 16 values" : "give START,COUNT");
			return -EINVAL;
		}
		if (f.mode == SL_FIELD_LIST)
			f.list[f.nb_list++] = v;
		else if (k == 0)
			f.start = v;
		else
			f.count = v;
	}
	if (f.mode == SL_FIELD_LIST ? f.nb_list == 0 : f.count == 0) {
		snprintf(err, len, "field %s: %s", names[f.kind],
			 f.mode == SL_FIELD_LIST ? "give at least one value" : "give START,COUNT (COUNT >= 1)");
		return -EINVAL;
	}
	for (k = 0; k < c->nb_fields && c->fields[k].kind != f.kind; k++)
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

int
sl_parse_rate(const char *s, struct sl_rate *r)
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

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	for (size_t i = 0; i < RTE_DIM(units); i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		r->unit = units[i].unit;
		r->value = v * units[i].mult;
		if (r->unit == SL_RATE_PCT && v > 100)
			return -ERANGE;
		return 0;
	}
	return -EINVAL;
}

void
sl_rate_str(const struct sl_rate *r, char *buf, size_t len)
{
	switch (r->unit) {
	case SL_RATE_PPS:
		snprintf(buf, len, "%.6g Mpps", r->value / 1e6);
		break;
	case SL_RATE_L1:
		snprintf(buf, len, "%.6g Gb/s L1", r->value / 1e9);
		break;
	case SL_RATE_L2:
		snprintf(buf, len, "%.6g Gb/s L2", r->value / 1e9);
		break;
	case SL_RATE_PCT:
		snprintf(buf, len, "%.6g%% of line", r->value);
		break;
	default:
		snprintf(buf, len, "max");
	}
}

static void
parse_ipv6(const char *opt, char *arg, uint8_t *src, uint8_t *dst)
{
	char *comma = strchr(arg, ',');

	if (comma == NULL)
		usage_error(opt, "expected SRC,DST, got '%s'", arg);
	*comma = '\0';
	if (inet_pton(AF_INET6, arg, src) != 1 || inet_pton(AF_INET6, comma + 1, dst) != 1)
		usage_error(opt, "'%s,%s' is not two IPv6 addresses (e.g. 2001:2::1,2001:2::2)", arg,
			    comma + 1);
}

static void
parse_eth_peer(struct sl_opts *o, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char port[16];
	uint64_t p;

	if (comma == NULL || (size_t)(comma - arg) >= sizeof(port))
		usage_error("--eth-peer", "expected PORT,MAC (e.g. 0,02:00:00:00:00:01), got '%s'", arg);
	memcpy(port, arg, comma - arg);
	port[comma - arg] = '\0';
	p = parse_u64("--eth-peer", port, 0, SL_MAX_PORTS - 1);
	if (rte_ether_unformat_addr(comma + 1, &o->peer[p]) != 0)
		usage_error("--eth-peer", "'%s' is not a MAC address (e.g. 02:00:00:00:00:01)",
			    comma + 1);
	o->peer_set[p] = true;
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
		int n = 0;

		if (sscanf(tok, "%u-%u:%u.%u%n", &lo, &hi, &port, &queue, &n) == 4 &&
		    tok[n] == '\0') {
			/* range */
		} else if (n = 0, sscanf(tok, "%u:%u.%u%n", &lo, &port, &queue, &n) == 3 &&
			   tok[n] == '\0') {
			hi = lo;
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

static void
parse_map(struct sl_opts *o, const char *arg)
{
	char err[160];

	if (sl_parse_map(o->map, &o->nb_map, arg, err, sizeof(err)) != 0)
		usage_error("--map", "%s", err);
}

static void
parse_sim(struct sl_opts *o, const char *arg)
{
	char buf[256], *save = NULL, *tok;
	struct sl_sim_spec *s;

	if (o->nb_sims == SL_MAX_SIMS)
		usage_error("--sim", "at most %d simulated ports", SL_MAX_SIMS);
	if (strlen(arg) >= sizeof(buf))
		usage_error("--sim", "spec too long");
	strcpy(buf, arg);
	s = &o->sims[o->nb_sims];
	*s = (struct sl_sim_spec){ .txd = 512 };
	tok = strtok_r(buf, ",", &save);
	if (tok == NULL || sl_parse_rate_bps(tok, &s->speed_bps) != 0)
		usage_error("--sim", "'%s' does not start with a line rate such as 10G", arg);
	while ((tok = strtok_r(NULL, ",", &save)) != NULL) {
		if (strncmp(tok, "txd=", 4) == 0)
			s->txd = parse_u64("--sim txd", tok + 4, 1, 65536);
		else if (strcmp(tok, "lltx=on") == 0 || strcmp(tok, "lltx=off") == 0)
			s->lltx = tok[6] == 'n';
		else if (strcmp(tok, "verify=on") == 0 || strcmp(tok, "verify=off") == 0)
			s->verify = tok[8] == 'n';
		else
			usage_error("--sim", "unknown parameter '%s' (txd=N, lltx=on|off, verify=on|off)",
				    tok);
	}
	o->nb_sims++;
}

void
sl_opts_default(struct sl_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->burst = 32;
	o->sc.sizes[0] = 64;
	o->sc.weights[0] = 1;
	o->sc.nb_sizes = 1;
	o->sc.src_ip = RTE_IPV4(198u, 18, 0, 1); /* 198u: 198 << 24 overflows int */
	o->sc.dst_ip = RTE_IPV4(198u, 18, 0, 2);
	/* RFC 5180's benchmarking prefix, 2001:2::/48 */
	inet_pton(AF_INET6, "2001:2::1", o->sc.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", o->sc.dst_ip6);
	o->sc.src_port = 9;
	o->sc.dst_port = 9;
	o->lock = SL_LOCK_TRYLOCK;
}

int
sl_parse_lltx(const char *s, enum sl_lltx *l)
{
	if (strcmp(s, "auto") == 0)
		*l = SL_LLTX_AUTO;
	else if (strcmp(s, "on") == 0)
		*l = SL_LLTX_ON;
	else if (strcmp(s, "off") == 0)
		*l = SL_LLTX_OFF;
	else
		return -EINVAL;
	return 0;
}

int
sl_opts_parse(struct sl_opts *o, int argc, char **argv)
{
	const char *comma;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hia", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_DURATION:
			o->duration_us = (uint64_t)ceil(parse_seconds("--duration", optarg) * 1e6);
			break;
		case OPT_COUNT:
			o->count = parse_u64("--count", optarg, 1, UINT64_MAX / 2);
			break;
		case OPT_BURST:
			o->burst = parse_u64("--burst", optarg, 1, 64);
			break;
		case OPT_SIZE:
			parse_sizes(&o->sc, optarg);
			o->size_given = true;
			break;
		case OPT_IMIX:
			parse_sizes(&o->sc, "64:7,594:4,1518:1");
			o->size_given = true;
			break;
		case OPT_FLOWS:
			o->sc.flows = parse_u64("--flows", optarg, 1, 1u << 24);
			break;
		case OPT_VLAN:
			o->pc[0].vlan = parse_u64("--vlan", optarg, 1, 4094);
			break;
		case OPT_RATE:
			if (sl_parse_rate(optarg, &o->pc[0].rate) != 0)
				usage_error("--rate", "'%s': give a positive number with a unit: pps, kpps, "
					    "Mpps, bps, kbps, Mbps, Gbps (L1), Gbps-l2 (L2), or %% of "
					    "link speed (at most 100%%)", optarg);
			break;
		case OPT_IPV6:
			o->sc.ipv6 = true;
			break;
		case OPT_TX_IP6:
			parse_ipv6("--tx-ip6", optarg, o->sc.src_ip6, o->sc.dst_ip6);
			o->sc.ipv6 = true;
			break;
		case OPT_TCP:
			o->sc.tcp = true;
			break;
		case OPT_FIELD: {
			char err[200];

			if (sl_parse_field(&o->sc, optarg, err, sizeof(err)) != 0)
				usage_error("--field", "%s", err);
			break;
		}
		case OPT_TX_IP:
			comma = strchr(optarg, ',');
			if (comma == NULL)
				usage_error("--tx-ip", "expected SRC,DST, got '%s'", optarg);
			o->sc.dst_ip = parse_ipv4("--tx-ip", comma + 1);
			*(char *)comma = '\0';
			o->sc.src_ip = parse_ipv4("--tx-ip", optarg);
			break;
		case OPT_TX_UDP:
			comma = strchr(optarg, ',');
			if (comma != NULL) {
				o->sc.dst_port = parse_u64("--tx-udp", comma + 1, 0, 65535);
				*(char *)comma = '\0';
			}
			o->sc.src_port = parse_u64("--tx-udp", optarg, 0, 65535);
			if (comma == NULL)
				o->sc.dst_port = o->sc.src_port;
			break;
		case OPT_ETH_PEER:
			parse_eth_peer(o, optarg);
			break;
		case OPT_STATS_PERIOD:
			o->stats_period = parse_seconds("--stats-period", optarg);
			break;
		case OPT_JSON:
			o->json = optarg;
			json_writable(optarg);
			break;
		case OPT_MAP:
			parse_map(o, optarg);
			break;
		case OPT_TXQ:
			o->pc[0].txq = parse_u64("--txq", optarg, 1, SL_MAX_TXQ);
			break;
		case OPT_TXD:
			o->pc[0].txd = parse_u64("--txd", optarg, 1, 65535);
			break;
		case OPT_LLTX:
			if (sl_parse_lltx(optarg, &o->pc[0].lltx) != 0)
				usage_error("--lltx", "'%s': expected auto, on or off", optarg);
			break;
		case OPT_LOCK:
			if (strcmp(optarg, "trylock") == 0)
				o->lock = SL_LOCK_TRYLOCK;
			else if (strcmp(optarg, "spin") == 0)
				o->lock = SL_LOCK_SPIN;
			else
				usage_error("--lock", "'%s': expected trylock or spin", optarg);
			break;
		case OPT_SIM:
			parse_sim(o, optarg);
			break;
		case OPT_XMIT:
			if (strcmp(optarg, "engine") == 0)
				o->direct = false;
			else if (strcmp(optarg, "direct") == 0)
				o->direct = true;
			else
				usage_error("--xmit", "'%s': expected engine or direct", optarg);
			break;
		case 'i':
			o->interactive = true;
			break;
		case 'a':
			o->auto_start = true;
			break;
		case OPT_CMDLINE_FILE:
			if (access(optarg, R_OK) != 0)
				usage_error("--cmdline-file", "cannot read '%s': %s", optarg,
					    strerror(errno));
			o->cmdline_file = optarg;
			break;
		case OPT_CLI_REF:
			sl_cli_reference();
			return 1;
		case 'h':
			sl_usage();
			return 1;
		case OPT_VERSION:
			printf("sluice %s (%s)\n", SL_VERSION, rte_version());
			return 1;
		case ':':
			usage_error(argv[optind - 1], "needs a value");
		default:
			if (optopt != 0 && optopt < 256)
				usage_error("option", "unknown option '-%c'", optopt);
			usage_error("option", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("arguments", "unexpected '%s'", argv[optind]);
	/* Options set every port alike; the prompt can then set one port. */
	for (int i = 1; i < SL_MAX_PORTS; i++)
		o->pc[i] = o->pc[0];
	return 0;
}
