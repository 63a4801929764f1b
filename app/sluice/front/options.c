/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options after "--". Every error prints one line naming the option and
 * what is expected, and the parse returns SL_OPTS_ERROR (exit 2); nothing
 * has been configured yet then.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <rte_ip.h>

#include "bench.h"
#include "device.h"
#include "flow.h"
#include "opts.h"
#include "outfile.h"
#include "ports.h"
#include "sl_err.h"
#include "sl_replay.h"

enum {
	OPT_DURATION = 256, OPT_COUNT, OPT_BURST, OPT_SIZE, OPT_TX_IP, OPT_TX_UDP,
	OPT_ETH_PEER, OPT_STATS_PERIOD, OPT_JSON, OPT_VERSION, OPT_MAP, OPT_TXQ,
	OPT_TXD, OPT_LLTX, OPT_LOCK, OPT_SIM, OPT_XMIT, OPT_FLOWS, OPT_IMIX, OPT_VLAN,
	OPT_RATE, OPT_IPV6, OPT_TX_IP6, OPT_TCP, OPT_CMDLINE_FILE, OPT_CLI_REF, OPT_FIELD,
	OPT_RX, OPT_RXMAP, OPT_DRAIN, OPT_RX_CLOCK, OPT_BENCH, OPT_METRICS, OPT_MTU,
	OPT_FLOW, OPT_DEVICE, OPT_OTG, OPT_PCAP, OPT_PCAP_SPEED, OPT_PCAP_LOOP, OPT_PCAP_SIGN, OPT_PCAP_MEM, OPT_API, OPT_API_CERT, OPT_API_KEY, OPT_API_TOKEN, OPT_SIGN,
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
	{ "mtu", required_argument, NULL, OPT_MTU },
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
	{ "flow", required_argument, NULL, OPT_FLOW },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "otg-config", required_argument, NULL, OPT_OTG },
	{ "api", required_argument, NULL, OPT_API },
	{ "pcap", required_argument, NULL, OPT_PCAP },
	{ "pcap-speed", required_argument, NULL, OPT_PCAP_SPEED },
	{ "pcap-loop", required_argument, NULL, OPT_PCAP_LOOP },
	{ "pcap-sign", no_argument, NULL, OPT_PCAP_SIGN },
	{ "pcap-mem", required_argument, NULL, OPT_PCAP_MEM },
	{ "api-cert", required_argument, NULL, OPT_API_CERT },
	{ "api-key", required_argument, NULL, OPT_API_KEY },
	{ "api-token", required_argument, NULL, OPT_API_TOKEN },
	{ "sign", required_argument, NULL, OPT_SIGN },
	{ "rx", required_argument, NULL, OPT_RX },
	{ "rxmap", required_argument, NULL, OPT_RXMAP },
	{ "drain", required_argument, NULL, OPT_DRAIN },
	{ "rx-clock", required_argument, NULL, OPT_RX_CLOCK },
	{ "bench", required_argument, NULL, OPT_BENCH },
	{ "metrics", required_argument, NULL, OPT_METRICS },
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
	       "                        size of the range equally often (shuffled),\n"
	       "                        MIN-MAX/STEP every STEP bytes in ascending order\n"
	       "  --imix                the classic IMIX: " SL_GEN_IMIX "\n"
	       "  --flows N             N flows: source port counts up, then source address\n"
	       "  --rate R              per port: 14.88Mpps, 500kpps, 10Gbps (L1), 9.5Gbps-l2,\n"
	       "                        50%% of link speed; default: as fast as possible\n"
	       "  --vlan ID             802.1Q tag\n"
	       "  --ipv6                IPv6 (2001:2::1 -> 2001:2::2), --tx-ip6 SRC,DST to set\n"
	       "  --tcp                 TCP instead of UDP (ports from --tx-udp / --tx-port)\n"
	       "  --field NAME=MODE:ARGS  vary a header field, repeatable: NAME src-mac, dst-mac,\n"
	       "                        src-ip, dst-ip, src-port, dst-port, vlan (a stack's:\n"
	       "                        HEADER.FIELD); MODE inc|dec:START,COUNT[,STEP],\n"
	       "                        random:START,COUNT or list:V1,V2,... e.g.\n"
	       "                        dst-ip=inc:198.18.0.2,100  vlan=list:10,20\n"
	       "  --flow 'NAME WORDS'   a flow of its own, repeatable (as flow add at the\n"
	       "                        prompt): port P, to R, src IP, dst IP, udp|tcp, sport\n"
	       "                        N, dport N, vlan N, stack H/H/..., size S, rate R,\n"
	       "                        count N, delay S, duration S, flows N, field F; with\n"
	       "                        flows, ports send only their flows; from D to D:\n"
	       "                        between two devices (their MACs, addresses, the\n"
	       "                        gateway's MAC resolved)\n"
	       "  --device 'NAME WORDS' an emulated host, repeatable (as device add): port P,\n"
	       "                        mac MAC, vlan N, ip A/P, gw G, gw-mac MAC, ip6\n"
	       "                        A/P, gw6 G, gw6-mac MAC; it answers ARP, ND and\n"
	       "                        ping and resolves its gateways (docs/devices.md)\n"
	       "  --otg-config FILE     the flows of an Open Traffic Generator Config (JSON:\n"
	       "                        ports by DPDK name or id, flows); docs/api.md\n"
	       "  --pcap FILE           replay a capture (pcap, pcapng) on port 0 at its own\n"
	       "                        timing: a flow named pcap (flow add NAME pcap FILE\n"
	       "                        for others); --pcap-speed X|max, --pcap-loop N (0:\n"
	       "                        until stopped), --pcap-sign, --pcap-mem MB\n"
	       "  --sign auto|on|off    the payload signature in frames that have room: auto\n"
	       "                        (the default) when a port receives or a port is the sim,\n"
	       "                        on in every frame, off in none (nothing is measured)\n"
	       "  --api [http://][ADDR:]PORT  serve the OTG REST API, https with a self-signed\n"
	       "                        certificate unless http:// (127.0.0.1 by default),\n"
	       "                        with the prompt, or alone until Ctrl-C; docs/api.md\n"
	       "  --api-cert FILE --api-key FILE  the API's certificate and key (PEM)\n"
	       "  --api-token FILE      each API request must carry Authorization: Bearer and\n"
	       "                        the token in FILE\n"
	       "  --tx-ip SRC,DST       IPv4 source and destination\n"
	       "  --tx-udp SP[,DP]      UDP source and destination ports\n"
	       "  --eth-peer P,MAC      destination MAC on port P\n"
	       "  --stats-period S      print live stats every S seconds\n"
	       "  --json FILE           write the summary as JSON at the end (- : stdout)\n"
	       "  --map SPEC            lcores to TX queues: 1-2:0.0 (lcores 1 and 2 share\n"
	       "                        port 0 queue 0), 1:0.0,2:0.1; default: each worker\n"
	       "                        lcore gets its own queue on every port\n"
	       "  --txq N               TX queues per port (default: as the map needs)\n"
	       "  --txd N               TX descriptors per queue\n"
	       "  --mtu N               MTU of every port, 68..9000 (frames up to N + 18 B,\n"
	       "                        N + 22 B tagged); default: the port's own\n"
	       "  --lltx auto|on|off    LLTX (driver-side locking) for all ports\n"
	       "  --lock trylock|spin   engine lock on shared non-LLTX queues\n"
	       "  --sim SPEC            add a simulated port (repeatable):\n"
	       "                        RATE[,txd=N][,lltx=on|off|fine][,verify=on|off], RATE as\n"
	       "                        10G; lltx=on: its own lock over the whole transmit,\n"
	       "                        fine: reserve, fill, publish (MT-safe, no lock)\n"
	       "  --rx PORTS            ports that receive and analyze (0,1 / all / none);\n"
	       "                        default: the ports a stream is addressed to (their MAC\n"
	       "                        is its destination) and the far end of a sim DUT\n"
	       "  --rxmap SPEC          lcores polling them: 3:1.0 (lcore 3 polls port 1);\n"
	       "                        default: a spare worker lcore, else the TX workers\n"
	       "  --drain S             after TX stops, keep receiving S seconds (0 to 64800, a\n"
	       "                        unit may follow: 500ms; default 0.1;\n"
	       "                        ends sooner once every frame sent has arrived, goes\n"
	       "                        on, at most 2 s more, while the run's frames arrive)\n"
	       "  --bench M[,K=V...]    run a benchmark instead of one run: M is mlr (RFC 9971\n"
	       "                        NDR/PDR) or rfc2544; keys min, max (loads per port),\n"
	       "                        width, loss=R[:R...], exceed, initial, final, sum,\n"
	       "                        trial, lat (seconds), sizes=64:1518:imix|rfc2544,\n"
	       "                        tx=P[:P]; M trial: one trial per size at load=RATE\n"
	       "                        per port or total=RATE, for trial=S (default 10)\n"
	       "                        (docs/benchmarking.md)\n"
	       "  --rx-clock auto|tsc   latency's RX time: auto, the port's own RX timestamps\n"
	       "                        where it has them (the sim; NICs with the offload),\n"
	       "                        else the TSC per burst; tsc: always the TSC\n"
	       "  --metrics [ADDR:]PORT serve every counter to Prometheus (OpenMetrics) on\n"
	       "                        http://ADDR:PORT/metrics; ADDR default 127.0.0.1,\n"
	       "                        [::1]:PORT for IPv6, PORT 0 any free (docs/watching.md)\n"
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

/* One "sluice: OPT: ... (see sluice -- --help)" line. */
static int __rte_format_printf(2, 3)
usage_error(const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sluice: %s: ", opt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see sluice -- --help)\n");
	return -EINVAL;
}

/* Refuse now a --json path that cannot be written at the end of the run. */
static int
json_writable(const char *path)
{
	char dir[PATH_MAX], target[PATH_MAX];
	const char *slash;
	int ret = sl_outfile_target(path, target, sizeof(target));

	if (ret == -EPERM)
		return usage_error("--json", "'%s' is a link another user owns in a shared sticky "
				   "directory: not followed (write to a path of your own)", path);
	if (ret != 0)
		return usage_error("--json", "'%s': %s", path, strerror(-ret));
	/* The file the links lead to: written (in place when its directory is not ours). */
	path = target;
	if (access(path, W_OK) == 0)
		return 0;
	slash = strrchr(path, '/');
	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == path)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (access(dir, W_OK) != 0)
		return usage_error("--json", "cannot write in '%s': %s", dir, strerror(errno));
	return 0;
}

/* "A,B" split at the comma into a and b (b NULL without a comma). */
static void
split2(char *arg, char **a, char **b)
{
	char *comma = strchr(arg, ',');

	*a = arg;
	*b = NULL;
	if (comma != NULL) {
		*comma = '\0';
		*b = comma + 1;
	}
}

/* One option; 0 or -EINVAL (the line printed). */
static int
opt_one(struct sl_opts *o, struct sl_config *cf, int c, char *arg, char *err, size_t len)
{
	uint64_t v;
	char *a, *b;

	switch (c) {
	case OPT_DURATION:
		return sl_parse_seconds(arg, &cf->duration_us, err, len);
	case OPT_COUNT:
		return sl_parse_u64(arg, 1, UINT64_MAX / 2, &cf->count, err, len);
	case OPT_BURST:
		if (sl_parse_u64(arg, 1, 64, &v, err, len) != 0)
			return -EINVAL;
		cf->burst = (uint16_t)v;
		return 0;
	case OPT_SIZE:
	case OPT_IMIX:
		if (sl_parse_sizes(&cf->sc, c == OPT_IMIX ? SL_GEN_IMIX : arg, err, len) != 0)
			return -EINVAL;
		cf->size_given = true;
		return 0;
	case OPT_FLOWS:
		if (sl_parse_u64(arg, 1, 1u << 24, &v, err, len) != 0)
			return -EINVAL;
		cf->sc.flows = (uint32_t)v;
		return 0;
	case OPT_VLAN:
		if (sl_parse_u64(arg, 1, 4094, &v, err, len) != 0)
			return -EINVAL;
		cf->pc[0].vlan = (uint16_t)v;
		return 0;
	case OPT_RATE:
		return sl_parse_rate(arg, &cf->pc[0].rate, err, len);
	case OPT_IPV6:
		cf->sc.ipv6 = true;
		return 0;
	case OPT_TX_IP6: {
		uint8_t s6[16], d6[16];

		split2(arg, &a, &b);
		if (b == NULL) {
			snprintf(err, len, "expected SRC,DST, got '%s'", a);
			return -EINVAL;
		}
		if (sl_parse_ipv6(a, s6, err, len) != 0 || sl_parse_ipv6(b, d6, err, len) != 0)
			return -EINVAL;
		memcpy(cf->sc.src_ip6, s6, 16);
		memcpy(cf->sc.dst_ip6, d6, 16);
		cf->sc.ipv6 = true;
		return 0;
	}
	case OPT_TCP:
		cf->sc.tcp = true;
		return 0;
	case OPT_FIELD:
		return sl_parse_field(&cf->sc, arg, err, len);
	case OPT_TX_IP: {
		uint32_t s4, d4;

		split2(arg, &a, &b);
		if (b == NULL) {
			snprintf(err, len, "expected SRC,DST, got '%s'", a);
			return -EINVAL;
		}
		if (sl_parse_ipv4(a, &s4, err, len) != 0 || sl_parse_ipv4(b, &d4, err, len) != 0)
			return -EINVAL;
		cf->sc.src_ip = s4;
		cf->sc.dst_ip = d4;
		cf->tx_ip4_given = true;
		return 0;
	}
	case OPT_TX_UDP: {
		uint64_t sp, dp;

		split2(arg, &a, &b);
		if (sl_parse_u64(a, 0, 65535, &sp, err, len) != 0 ||
		    (b != NULL && sl_parse_u64(b, 0, 65535, &dp, err, len) != 0))
			return -EINVAL;
		cf->sc.src_port = (uint16_t)sp;
		cf->sc.dst_port = b != NULL ? (uint16_t)dp : (uint16_t)sp;
		return 0;
	}
	case OPT_ETH_PEER: {
		struct rte_ether_addr mac;

		split2(arg, &a, &b);
		if (b == NULL) {
			snprintf(err, len, "expected PORT,MAC (e.g. 0,02:00:00:00:00:01), got '%s'", a);
			return -EINVAL;
		}
		if (sl_parse_u64(a, 0, SL_MAX_PORTS - 1, &v, err, len) != 0 ||
		    sl_parse_mac(b, &mac, err, len) != 0)
			return -EINVAL;
		cf->peer[v] = mac;
		cf->peer_set[v] = true;
		return 0;
	}
	case OPT_STATS_PERIOD:
		if (sl_parse_seconds(arg, &v, err, len) != 0)
			return -EINVAL;
		o->stats_period = v / 1e6;
		return 0;
	case OPT_MAP:
		return sl_parse_map(cf->map, &cf->nb_map, arg, err, len);
	case OPT_TXQ:
		if (sl_parse_u64(arg, 1, SL_MAX_TXQ, &v, err, len) != 0)
			return -EINVAL;
		cf->pc[0].txq = (uint16_t)v;
		return 0;
	case OPT_TXD:
		if (sl_parse_u64(arg, 1, 65535, &v, err, len) != 0)
			return -EINVAL;
		cf->pc[0].txd = (uint16_t)v;
		return 0;
	case OPT_MTU:
		if (sl_parse_u64(arg, RTE_ETHER_MIN_MTU, SL_PORT_MAX_MTU, &v, err, len) != 0)
			return -EINVAL;
		cf->pc[0].mtu = (uint16_t)v;
		return 0;
	case OPT_LLTX:
		return sl_parse_lltx(arg, &cf->pc[0].lltx, err, len);
	case OPT_LOCK:
		if (strcmp(arg, "trylock") == 0)
			cf->lock = SL_LOCK_TRYLOCK;
		else if (strcmp(arg, "spin") == 0)
			cf->lock = SL_LOCK_SPIN;
		else {
			snprintf(err, len, "'%s': expected trylock or spin", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_SIM:
		if (cf->nb_sims == SL_MAX_SIMS) {
			snprintf(err, len, "at most %d simulated ports", SL_MAX_SIMS);
			return -EINVAL;
		}
		/* The sim parses its own arguments; checked now, opened with the ports. */
		if (sl_ports_sim_check(arg, err, len) != 0)
			return -EINVAL;
		snprintf(cf->sims[cf->nb_sims++], SL_SIM_SPEC_MAX, "%s", arg);
		return 0;
	case OPT_XMIT:
		if (strcmp(arg, "engine") != 0 && strcmp(arg, "direct") != 0) {
			snprintf(err, len, "'%s': expected engine or direct", arg);
			return -EINVAL;
		}
		cf->direct = strcmp(arg, "direct") == 0;
		return 0;
	case OPT_RX:
		if (sl_parse_ports(arg, cf->rx_port, err, len) != 0)
			return -EINVAL;
		/* all: every port there is (not the 32 a list could name). */
		cf->rx_mode = strcmp(arg, "all") == 0 ? SL_RX_ALL : SL_RX_LIST;
		return 0;
	case OPT_RXMAP:
		if (sl_parse_map(cf->rxmap, &cf->nb_rxmap, arg, err, len) != 0)
			return -EINVAL;
		for (uint16_t i = 0; i < cf->nb_rxmap; i++)
			if (cf->rxmap[i].queue != 0) {
				snprintf(err, len, "port %u queue %u: a port receives on queue 0 only",
					 cf->rxmap[i].port, cf->rxmap[i].queue);
				cf->nb_rxmap = 0;
				return -EINVAL;
			}
		return 0;
	case OPT_DRAIN:
		return sl_parse_seconds0(arg, &cf->drain_us, err, len);
	case OPT_BENCH: {
		static struct sl_bench_conf bc;
		char m[16], *comma = strchr(arg, ',');

		if (o->bench != NULL) {
			snprintf(err, len, "given twice: one benchmark a run (several sizes: "
				 "sizes=64:1518; at the prompt, one bench after the other)");
			return -EINVAL;
		}
		snprintf(m, sizeof(m), "%.*s", comma != NULL ? (int)(comma - arg) : (int)strlen(arg),
			 arg);
		if (sl_bench_parse(m, comma != NULL ? comma + 1 : NULL, &bc, err, len) != 0)
			return -EINVAL;
		o->bench = &bc;
		return 0;
	}
	case OPT_RX_CLOCK:
		if (strcmp(arg, "auto") != 0 && strcmp(arg, "tsc") != 0) {
			snprintf(err, len, "'%s': expected auto or tsc", arg);
			return -EINVAL;
		}
		cf->rx_clock_tsc = arg[0] == 't';
		return 0;
	case OPT_METRICS:
		if (sl_parse_listen(arg, o->metrics_host, sizeof(o->metrics_host), &o->metrics_port,
				    err, len) != 0)
			return -EINVAL;
		o->metrics = true;
		return 0;
	case OPT_SIGN:
		if (strcmp(arg, "on") == 0)
			cf->sign = SL_SIGN_ON;
		else if (strcmp(arg, "off") == 0)
			cf->sign = SL_SIGN_OFF;
		else if (strcmp(arg, "auto") == 0)
			cf->sign = SL_SIGN_AUTO;
		else
			return snprintf(err, len, "'%s': give on, off or auto", arg), -EINVAL;
		return 0;
	case OPT_PCAP_MEM:
		if (sl_parse_u64(arg, 1, 1u << 20, &v, err, len) != 0)
			return -EINVAL;
		cf->pcap_mem = v << 20;
		return 0;
	case OPT_API:
		o->api_plain = strncmp(arg, "http://", 7) == 0;
		if (o->api_plain)
			arg += 7;
		else if (strncmp(arg, "https://", 8) == 0)
			arg += 8;
		if (sl_parse_listen(arg, o->api_host, sizeof(o->api_host), &o->api_port, err,
				    len) != 0)
			return -EINVAL;
		o->api = true;
		return 0;
	case OPT_API_CERT:
	case OPT_API_KEY:
	case OPT_API_TOKEN: {
		char *dst = c == OPT_API_CERT ? o->api_cert : c == OPT_API_KEY ? o->api_key :
			    o->api_token;

		if (access(arg, R_OK) != 0 || strlen(arg) >= sizeof(o->api_cert)) {
			snprintf(err, len, "cannot read '%s': %s", arg, access(arg, R_OK) != 0 ?
				 strerror(errno) : "the path is too long");
			return -EINVAL;
		}
		snprintf(dst, sizeof(o->api_cert), "%s", arg);
		return 0;
	}
	case OPT_CMDLINE_FILE:
		if (access(arg, R_OK) != 0) {
			snprintf(err, len, "cannot read '%s': %s", arg, strerror(errno));
			return -EINVAL;
		}
		o->cmdline_file = arg;
		return 0;
	}
	return 0;
}

#define SPEC_LINE 1024
#define SPEC_WORDS 64

/*
 * The words of option opt's 'NAME WORDS...' spec into w (line holds them,
 * SPEC_LINE bytes): their number, or -1 with the message (what: the form).
 */
static int
spec_words(const char *opt, const char *spec, const char *what, char *line, char **w)
{
	int n;

	if (strlen(spec) >= SPEC_LINE) {
		usage_error(opt, "longer than %d characters", SPEC_LINE - 1);
		return -1;
	}
	snprintf(line, SPEC_LINE, "%s", spec);
	n = sl_flow_words(line, w, SPEC_WORDS);
	if (n <= 0) {
		usage_error(opt, "'%s': give '%s' (%s)", spec, what,
			    n == 0 ? "no name" : "more than 64 words");
		return -1;
	}
	return n;
}

/* --device 'NAME WORDS...': a device (device.h), as device add makes it. */
static int
device_opt(struct sl_config *cf, const char *spec)
{
	char line[SPEC_LINE], *w[SPEC_WORDS], err[320];
	struct sl_dev_conf d;
	int n = spec_words("--device", spec, "NAME port P mac MAC ip A/P ...", line, w);

	if (n < 0)
		return -1;
	if (sl_device_parse(&d, w[0], n - 1, w + 1, err, sizeof(err)) != 0 ||
	    sl_device_add(cf, &d, err, sizeof(err)) != 0) {
		usage_error("--device", "%s: %s", w[0], err);
		return -1;
	}
	return 0;
}

/* --flow 'NAME WORDS...': a flow of the table (flow.h), as flow add makes it. */
static int
flow_opt(struct sl_config *cf, const char *spec)
{
	char line[SPEC_LINE], *w[SPEC_WORDS], err[320];
	struct sl_flow_conf f;
	int n = spec_words("--flow", spec, "NAME [port P] [to R] ...", line, w);

	if (n < 0)
		return -1;
	if (strlen(w[0]) >= SL_FLOW_NAME_MAX || strcmp(w[0], "all") == 0 ||
	    strspn(w[0], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
	    strlen(w[0])) {
		usage_error("--flow", "name '%s': give 1 to %d letters, digits, '-', '_' or '.' "
			    "(not 'all')", w[0], SL_FLOW_NAME_MAX - 1);
		return -1;
	}
	if (sl_config_flow_find(cf, w[0]) >= 0) {
		usage_error("--flow", "two flows are named %s: give each its own name", w[0]);
		return -1;
	}
	sl_config_flow_init(cf, &f, w[0], 0);
	if (sl_flow_parse(&f, n - 1, w + 1, err, sizeof(err)) != 0) {
		usage_error("--flow", "%s: %s", w[0], err);
		return -1;
	}
	sl_flow_device_port(cf, &f, n - 1, w + 1);
	if (sl_config_flow_add(cf, &f) != 0) {
		usage_error("--flow", "out of memory");
		return -1;
	}
	return 0;
}

enum sl_opts_action
sl_opts_parse(struct sl_opts *o, struct sl_config *cf, int argc, char **argv)
{
	const char *run_opt = NULL; /* --duration, --count or --rate, if given */
	const char *flow_specs[SL_OPTS_MAX_FLOWS];
	struct sl_flow_conf pcap = { 0 };  /* --pcap and its options, a flow at the end */
	const char *pcap_opt = NULL;
	bool pcap_given = false;
	int c, nb_flow_specs = 0;
	char err[256];

	/* 0, not 1: glibc then forgets a previous parse's state (a half-read "-ia"). */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hia", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->interactive = true;
			continue;
		case 'a':
			o->auto_start = true;
			continue;
		case OPT_JSON:
			/* "-": standard output, after the summary */
			if (strcmp(optarg, "-") != 0 && json_writable(optarg) != 0)
				return SL_OPTS_ERROR;
			o->json = optarg;
			continue;
		case OPT_CLI_REF:
			return SL_OPTS_CLI_REFERENCE;
		case OPT_OTG:
			o->otg_config = optarg;
			continue;
		case OPT_PCAP:
		case OPT_PCAP_SPEED:
		case OPT_PCAP_LOOP:
		case OPT_PCAP_SIGN: {
			char e[256];
			uint64_t v;

			if (c == OPT_PCAP) {
				if (strlen(optarg) >= sizeof(pcap.pcap) || access(optarg, R_OK) != 0) {
					usage_error("--pcap", "cannot read '%s': %s", optarg,
						    access(optarg, R_OK) != 0 ? strerror(errno) :
						    "the path is too long");
					return SL_OPTS_ERROR;
				}
				snprintf(pcap.pcap, sizeof(pcap.pcap), "%s", optarg);
			} else if (c == OPT_PCAP_SPEED) {
				if (sl_parse_speed(optarg, &pcap.pcap_speed, e, sizeof(e)) != 0) {
					usage_error("--pcap-speed", "%s", e);
					return SL_OPTS_ERROR;
				}
			} else if (c == OPT_PCAP_LOOP) {
				if (sl_parse_u64(optarg, 0, UINT32_MAX - 1, &v, e, sizeof(e)) != 0) {
					usage_error("--pcap-loop", "%s (0: until stopped)", e);
					return SL_OPTS_ERROR;
				}
				pcap.pcap_loops = v == 0 ? UINT32_MAX : (uint32_t)v;
			} else {
				pcap.pcap_sign = true;
			}
			if (c != OPT_PCAP)
				pcap_opt = c == OPT_PCAP_SPEED ? "--pcap-speed" :
					   c == OPT_PCAP_LOOP ? "--pcap-loop" : "--pcap-sign";
			pcap_given |= c == OPT_PCAP;
			continue;
		}
		case OPT_DEVICE:
			if (device_opt(cf, optarg) != 0)
				return SL_OPTS_ERROR;
			continue;
		case OPT_FLOW:
			if (nb_flow_specs == SL_OPTS_MAX_FLOWS) {
				usage_error("--flow", "more than %d: add the others at the prompt or "
					    "in a --cmdline-file (flow add)", SL_OPTS_MAX_FLOWS);
				return SL_OPTS_ERROR;
			}
			flow_specs[nb_flow_specs++] = optarg;
			continue;
		case 'h':
			return SL_OPTS_HELP;
		case OPT_VERSION:
			return SL_OPTS_VERSION;
		case ':':
			usage_error(argv[optind - 1], "needs a value");
			return SL_OPTS_ERROR;
		case '?':
			if (optopt != 0 && optopt < 256)
				usage_error("option", "unknown option '-%c'", optopt);
			else
				usage_error("option", "unknown option '%s'", argv[optind - 1]);
			return SL_OPTS_ERROR;
		default:
			if (opt_one(o, cf, c, optarg, err, sizeof(err)) != 0) {
				const struct option *lo = long_opts;

				while (lo->name != NULL && lo->val != c)
					lo++;
				fprintf(stderr, "sluice: --%s: %s (see sluice -- --help)\n",
					lo->name != NULL ? lo->name : "?", err);
				return SL_OPTS_ERROR;
			}
			if (c == OPT_DURATION || c == OPT_COUNT || c == OPT_RATE)
				run_opt = c == OPT_DURATION ? "--duration" :
					  c == OPT_COUNT ? "--count" : "--rate";
		}
	}
	if (optind < argc) {
		usage_error("arguments", "unexpected '%s'", argv[optind]);
		return SL_OPTS_ERROR;
	}
	if (o->otg_config != NULL && nb_flow_specs != 0) {
		usage_error("--otg-config", "gives the flows: drop --flow (or put them in the OTG "
			    "Config)");
		return SL_OPTS_ERROR;
	}
	/* The API's TLS and token go with --api, the certificate with its key. */
	if (!o->api && (o->api_cert[0] || o->api_key[0] || o->api_token[0])) {
		usage_error(o->api_token[0] ? "--api-token" : "--api-cert", "is for the API: add "
			    "--api [ADDR:]PORT (e.g. --api 8443)");
		return SL_OPTS_ERROR;
	}
	if ((o->api_cert[0] != '\0') != (o->api_key[0] != '\0')) {
		usage_error(o->api_cert[0] ? "--api-cert" : "--api-key", "give the certificate "
			    "and its key together: --api-cert CERT.pem --api-key KEY.pem");
		return SL_OPTS_ERROR;
	}
	if (o->api_plain && o->api_cert[0] != '\0') {
		usage_error("--api-cert", "is for https: drop http:// from --api");
		return SL_OPTS_ERROR;
	}
	/* The flows, once the template they start from is complete. */
	for (int i = 0; i < nb_flow_specs; i++)
		if (flow_opt(cf, flow_specs[i]) != 0)
			return SL_OPTS_ERROR;
	/* --pcap: a flow named pcap on port 0, replaying the capture. */
	if (!pcap_given && pcap_opt != NULL) {
		usage_error(pcap_opt, "is for a replay: add --pcap FILE");
		return SL_OPTS_ERROR;
	}
	if (pcap_given) {
		struct sl_flow_conf f;

		if (cf->count != 0) {
			usage_error("--count", "a replay sends its capture: give --pcap-loop N "
				    "(the capture N times)");
			return SL_OPTS_ERROR;
		}
		if (sl_config_flow_find(cf, "pcap") >= 0 || o->otg_config != NULL) {
			usage_error("--pcap", "%s: give the replay as a flow (flow add NAME pcap FILE)",
				    o->otg_config != NULL ? "with --otg-config" :
				    "a --flow is named pcap");
			return SL_OPTS_ERROR;
		}
		/* A pcapng of several interfaces: interface i on port i, flow pcapI. */
		uint32_t nif = sl_replay_ifaces(pcap.pcap);

		for (uint32_t i = 0; i < RTE_MAX(nif, 1u); i++) {
			char nm[SL_FLOW_NAME_MAX];

			snprintf(nm, sizeof(nm), nif > 1 ? "pcap%u" : "pcap", i);
			if (i >= SL_MAX_PORTS) {
				usage_error("--pcap", "%s has %u interfaces, more than %d ports: replay "
					    "them with flow add NAME port P pcap FILE iface N", pcap.pcap,
					    nif, SL_MAX_PORTS);
				return SL_OPTS_ERROR;
			}
			sl_config_flow_init(cf, &f, nm, (uint16_t)i);
			snprintf(f.pcap, sizeof(f.pcap), "%s", pcap.pcap);
			f.pcap_speed = pcap.pcap_speed;
			f.pcap_loops = pcap.pcap_loops;
			f.pcap_sign = pcap.pcap_sign;
			f.pcap_iface = nif > 1 ? (uint16_t)(i + 1) : 0;
			if (sl_config_flow_add(cf, &f) != 0) {
				usage_error("--pcap", "out of memory");
				return SL_OPTS_ERROR;
			}
		}
	}
	/* IPv4 addresses for IPv6 frames would be silently ignored: say so. */
	if (cf->sc.ipv6 && cf->tx_ip4_given) {
		usage_error("--tx-ip", "IPv4 addresses, but the frames are IPv6 (--ipv6): give "
			    "--tx-ip6 SRC,DST");
		return SL_OPTS_ERROR;
	}
	/* --bench is a run of its own: it would be ignored by the prompt. */
	if (o->bench != NULL && (o->interactive || o->auto_start || o->cmdline_file != NULL)) {
		usage_error("--bench", "runs a benchmark and exits, without the prompt: drop %s, "
			    "or type 'bench METHOD [K=V,...]' at the prompt or in the file",
			    o->cmdline_file != NULL ? "--cmdline-file" :
			    o->interactive ? "-i" : "-a");
		return SL_OPTS_ERROR;
	}
	/* A benchmark sets each trial's load and duration itself. */
	if (o->bench != NULL && run_opt != NULL) {
		usage_error("--bench", "sets each trial's load and duration: drop %s (the loads: "
			    "min=, max= or load=; the durations: trial=, initial=, final=, lat=)",
			    run_opt);
		return SL_OPTS_ERROR;
	}
	/* Options set every port alike; the prompt can then set one port. */
	for (int i = 1; i < SL_MAX_PORTS; i++)
		cf->pc[i] = cf->pc[0];
	return SL_OPTS_RUN;
}

void
sl_opts_default(struct sl_opts *o)
{
	memset(o, 0, sizeof(*o));
}
