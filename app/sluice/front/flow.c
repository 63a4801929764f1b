/* SPDX-License-Identifier: BSD-3-Clause */
/* A flow as words (flow.h): flow add, flow set and --flow read them here. */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "flow.h"
#include "parse.h"

int
sl_flow_words(char *line, char **argv, int max)
{
	char *save = NULL, *w;
	int n = 0;

	for (w = strtok_r(line, " \t\r\n", &save); w != NULL; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == max)
			return -1;
		argv[n++] = w;
	}
	return n;
}

/* An IPv4 or IPv6 address into the flow's source or destination. */
static int
parse_ip(struct sl_flow_conf *f, const char *s, bool src, char *err, size_t len)
{
	struct sl_stream_conf *c = &f->sc;

	/* The address says the version; the other one must say the same (at start). */
	if (strchr(s, ':') != NULL) {
		if (sl_parse_ipv6(s, src ? c->src_ip6 : c->dst_ip6, err, len) != 0)
			return -EINVAL;
		c->ipv6 = true;
		return 0;
	}
	if (sl_parse_ipv4(s, src ? &c->src_ip : &c->dst_ip, err, len) != 0)
		return -EINVAL;
	c->ipv6 = false;
	return 0;
}

int
sl_flow_parse(struct sl_flow_conf *f, int argc, char **argv, char *err, size_t len)
{
	const bool was6 = f->sc.ipv6;
	int ver[2] = { 0, 0 }; /* the IP version src and dst gave here: 4, 6 */
	/* Keys given here that shape generated frames, and a replay's own. */
	static const char *const gen_keys[] = { "src", "dst", "sport", "dport", "vlan", "src-mac",
		"dst-mac", "size", "flows", "udp", "tcp", "stack", "field", "count", "burst", "gap",
		"bursts" };
	static const char *const rp_keys[] = { "speed", "loop", "signed", "iface" };
	const char *gen_key = NULL, *rp_key = NULL;
	char e[200];
	uint64_t v;

	for (int i = 0; i < argc; i++) {
		const char *k = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;
		int ret = 0;

		for (size_t g = 0; g < RTE_DIM(gen_keys) && gen_key == NULL; g++)
			if (strcmp(k, gen_keys[g]) == 0)
				gen_key = gen_keys[g];
		for (size_t g = 0; g < RTE_DIM(rp_keys) && rp_key == NULL; g++)
			if (strcmp(k, rp_keys[g]) == 0)
				rp_key = rp_keys[g];

		if (strcmp(k, "udp") == 0 || strcmp(k, "tcp") == 0) {
			f->sc.tcp = k[0] == 't';
			continue;
		}
		/* The family of a flow between devices (their addresses: from, to). */
		if (strcmp(k, "ipv4") == 0 || strcmp(k, "ipv6") == 0) {
			f->sc.ipv6 = k[3] == '6';
			continue;
		}
		if (strcmp(k, "signed") == 0) {
			f->pcap_sign = true;
			continue;
		}
		if (a == NULL) {
			snprintf(err, len, "%s: a value must follow (keys: %s)", k, SL_FLOW_KEYS);
			return -EINVAL;
		}
		i++;
		e[0] = '\0';
		if (strcmp(k, "from") == 0 ||
		    (strcmp(k, "to") == 0 && strspn(a, "0123456789") != strlen(a))) {
			/* An emulated host's name (device add): the flow is between devices. */
			char *dst = k[0] == 'f' ? f->src_dev : f->dst_dev;

			if (strlen(a) >= SL_DEV_NAME_MAX) {
				snprintf(e, sizeof(e), "'%s': a device's name has at most %d characters",
					 a, SL_DEV_NAME_MAX - 1);
				ret = -EINVAL;
			} else {
				snprintf(dst, SL_DEV_NAME_MAX, "%s", a);
				if (k[0] == 't')
					f->to = -1;
			}
		} else if (strcmp(k, "port") == 0 || strcmp(k, "to") == 0) {
			ret = sl_parse_u64(a, 0, SL_MAX_PORTS - 1, &v, e, sizeof(e));
			if (ret == 0 && k[0] == 'p')
				f->port = (uint16_t)v;
			else if (ret == 0) {
				f->to = (int16_t)v;
				f->dst_dev[0] = '\0';
			}
		} else if (strcmp(k, "src") == 0 || strcmp(k, "dst") == 0) {
			ret = parse_ip(f, a, k[0] == 's', e, sizeof(e));
			ver[k[0] == 'd'] = strchr(a, ':') != NULL ? 6 : 4;
		} else if (strcmp(k, "sport") == 0 || strcmp(k, "dport") == 0) {
			ret = sl_parse_u64(a, 0, 65535, &v, e, sizeof(e));
			if (ret == 0 && k[0] == 's')
				f->sc.src_port = (uint16_t)v;
			else if (ret == 0)
				f->sc.dst_port = (uint16_t)v;
		} else if (strcmp(k, "vlan") == 0) {
			ret = sl_parse_u64(a, 0, 4094, &v, e, sizeof(e));
			if (ret == 0)
				f->sc.vlan = (uint16_t)v;
		} else if (strcmp(k, "src-mac") == 0) {
			ret = sl_parse_mac(a, &f->sc.src_mac, e, sizeof(e));
			f->src_mac_given |= ret == 0;
		} else if (strcmp(k, "dst-mac") == 0) {
			ret = sl_parse_mac(a, &f->sc.dst_mac, e, sizeof(e));
			f->dst_mac_given |= ret == 0;
		} else if (strcmp(k, "size") == 0) {
			ret = sl_parse_sizes(&f->sc, strcmp(a, "imix") == 0 ? SL_GEN_IMIX : a, e,
					     sizeof(e));
			f->size_given |= ret == 0;
		} else if (strcmp(k, "rate") == 0) {
			if (strcmp(a, "auto") == 0)
				f->rate = (struct sl_rate){ SL_RATE_NONE, 0 };
			else
				ret = sl_parse_rate(a, &f->rate, e, sizeof(e));
		} else if (strcmp(k, "delay") == 0) {
			ret = sl_parse_seconds0(a, &f->delay_us, e, sizeof(e));
		} else if (strcmp(k, "duration") == 0) {
			ret = strcmp(a, "0") == 0 ? (f->duration_us = 0, 0) :
			      sl_parse_seconds(a, &f->duration_us, e, sizeof(e));
		} else if (strcmp(k, "burst") == 0) {
			ret = sl_parse_u64(a, 0, UINT32_MAX, &v, e, sizeof(e));
			if (ret == 0)
				f->burst_pkts = (uint32_t)v;
		} else if (strcmp(k, "gap") == 0) {
			ret = sl_parse_seconds(a, &f->burst_gap_us, e, sizeof(e));
		} else if (strcmp(k, "bursts") == 0) {
			ret = sl_parse_u64(a, 0, UINT32_MAX, &v, e, sizeof(e));
			if (ret == 0)
				f->bursts = (uint32_t)v;
		} else if (strcmp(k, "count") == 0) {
			ret = sl_parse_u64(a, 0, UINT64_MAX / 2, &f->count, e, sizeof(e));
		} else if (strcmp(k, "flows") == 0) {
			ret = sl_parse_u64(a, 1, UINT32_MAX, &v, e, sizeof(e));
			if (ret == 0)
				f->sc.flows = (uint32_t)v;
		} else if (strcmp(k, "stack") == 0) {
			/* The text read once, here: the flow holds its headers as data. */
			if (strcmp(a, "none") == 0)
				memset(&f->sc.hdrs, 0, sizeof(f->sc.hdrs));
			else
				ret = sl_stack_parse(a, &f->sc.hdrs, e, sizeof(e));
		} else if (strcmp(k, "field") == 0) {
			ret = sl_parse_field(&f->sc, a, e, sizeof(e));
		} else if (strcmp(k, "pcap") == 0) {
			if (strlen(a) >= sizeof(f->pcap)) {
				snprintf(e, sizeof(e), "a path longer than %zu characters",
					 sizeof(f->pcap) - 1);
				ret = -EINVAL;
			} else if (strcmp(a, "none") != 0 && access(a, R_OK) != 0) {
				snprintf(e, sizeof(e), "cannot read it: %s", strerror(errno));
				ret = -EINVAL;
			} else {
				snprintf(f->pcap, sizeof(f->pcap), "%s", strcmp(a, "none") == 0 ? "" : a);
			}
		} else if (strcmp(k, "speed") == 0) {
			ret = sl_parse_speed(a, &f->pcap_speed, e, sizeof(e));
		} else if (strcmp(k, "iface") == 0) {
			ret = sl_parse_u64(a, 0, 65534, &v, e, sizeof(e));
			if (ret == 0)
				f->pcap_iface = (uint16_t)(v + 1);
		} else if (strcmp(k, "loop") == 0) {
			ret = sl_parse_u64(a, 0, UINT32_MAX - 1, &v, e, sizeof(e));
			if (ret == 0)
				f->pcap_loops = v == 0 ? UINT32_MAX : (uint32_t)v;
		} else {
			snprintf(err, len, "%s: unknown key (keys: %s)", k, SL_FLOW_KEYS);
			return -EINVAL;
		}
		if (ret != 0) {
			snprintf(err, len, "%s %s: %s", k, a, e);
			return -EINVAL;
		}
	}
	if (f->pcap[0] != '\0' && gen_key != NULL) {
		snprintf(err, len, "%s: a replay sends its capture's frames as they are: drop %s "
			 "(or pcap none: a generated flow again)", gen_key, gen_key);
		return -EINVAL;
	}
	if (f->pcap[0] == '\0' && rp_key != NULL) {
		snprintf(err, len, "%s: is a replay's: give pcap FILE too", rp_key);
		return -EINVAL;
	}
	if (f->pcap[0] != '\0' && (f->count != 0 || f->burst_pkts != 0 || f->sc.nb_fields != 0 ||
				    f->sc.hdrs.n != 0)) {
		snprintf(err, len, "pcap %s: a replay sends its capture's frames: drop %s (loop N "
			 "repeats it)", f->pcap, f->count != 0 ? "count" : f->burst_pkts != 0 ?
			 "burst" : f->sc.nb_fields != 0 ? "field" : "stack");
		return -EINVAL;
	}
	if (f->burst_pkts != 0 && f->burst_gap_us == 0) {
		snprintf(err, len, "burst %u: give the pause after each (gap S, e.g. gap 1ms)",
			 f->burst_pkts);
		return -EINVAL;
	}
	/* One IP version: the other address would be silently dropped. */
	if (ver[0] != 0 && ver[1] != 0 && ver[0] != ver[1]) {
		snprintf(err, len, "src is IPv%d and dst IPv%d: give both of one version", ver[0],
			 ver[1]);
		return -EINVAL;
	}
	if ((ver[0] != 0) != (ver[1] != 0) && (ver[0] | ver[1]) != (was6 ? 6 : 4)) {
		snprintf(err, len, "%s is IPv%d but the flow's %s is IPv%d: give %s too", ver[0] ? "src" :
			 "dst", ver[0] | ver[1], ver[0] ? "dst" : "src", was6 ? 6 : 4,
			 ver[0] ? "dst" : "src");
		return -EINVAL;
	}
	return 0;
}

/* A rate as one word flow add takes back: 14.88095238Mpps, 9.5Gbps-l2, 50%. */
static void
rate_word(const struct sl_rate *rt, char *buf, size_t len)
{
	static const char *const pfx[] = { "", "k", "M", "G", "T" };
	double v = rt->value;
	unsigned int k = 0;

	if (rt->unit == SL_RATE_PCT) {
		snprintf(buf, len, "%.10g%%", v);
		return;
	}
	while (v >= 1000 && k + 1 < RTE_DIM(pfx)) {
		v /= 1000;
		k++;
	}
	snprintf(buf, len, "%.10g%s%s", v, pfx[k], rt->unit == SL_RATE_PPS ? "pps" :
		 rt->unit == SL_RATE_L2 ? "bps-l2" : "bps");
}

void
sl_flow_str(const struct sl_flow_conf *f, char *buf, size_t len)
{
	const struct sl_stream_conf *c = &f->sc;
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN], r[64] = "auto";
	size_t off;

	if (c->ipv6) {
		inet_ntop(AF_INET6, c->src_ip6, s, sizeof(s));
		inet_ntop(AF_INET6, c->dst_ip6, d, sizeof(d));
	} else {
		snprintf(s, sizeof(s), "%u.%u.%u.%u", c->src_ip >> 24, (c->src_ip >> 16) & 0xff,
			 (c->src_ip >> 8) & 0xff, c->src_ip & 0xff);
		snprintf(d, sizeof(d), "%u.%u.%u.%u", c->dst_ip >> 24, (c->dst_ip >> 16) & 0xff,
			 (c->dst_ip >> 8) & 0xff, c->dst_ip & 0xff);
	}
	if (f->rate.unit != SL_RATE_NONE)
		rate_word(&f->rate, r, sizeof(r));
	off = (size_t)snprintf(buf, len, "%s port %u", f->name, f->port);
	if (f->to >= 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " to %d", f->to);
	if (f->src_dev[0] != '\0' && off < len)
		off += (size_t)snprintf(buf + off, len - off, " from %s", f->src_dev);
	if (f->dst_dev[0] != '\0' && off < len)
		off += (size_t)snprintf(buf + off, len - off, " to %s %s", f->dst_dev,
					c->ipv6 ? "ipv6" : "ipv4");
	/* A replay: its own words only (what flow add takes back for it). */
	if (f->pcap[0] != '\0') {
		char sp[32];

		if (f->pcap_speed < 0)
			snprintf(sp, sizeof(sp), "max");
		else
			snprintf(sp, sizeof(sp), "%g", f->pcap_speed > 0 ? f->pcap_speed : 1.0);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, " pcap %s", f->pcap);
		if (f->pcap_iface != 0 && off < len)
			off += (size_t)snprintf(buf + off, len - off, " iface %u",
						f->pcap_iface - 1u);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, " speed %s loop %u%s", sp,
						f->pcap_loops == UINT32_MAX ? 0 :
						f->pcap_loops == 0 ? 1 : f->pcap_loops,
						f->pcap_sign ? " signed" : "");
		if (f->rate.unit != SL_RATE_NONE && off < len)
			off += (size_t)snprintf(buf + off, len - off, " rate %s", r);
		if (f->delay_us != 0 && off < len)
			off += (size_t)snprintf(buf + off, len - off, " delay %.6gs",
						f->delay_us / 1e6);
		if (f->duration_us != 0 && off < len)
			snprintf(buf + off, len - off, " duration %.6gs", f->duration_us / 1e6);
		return;
	}
	/* Between devices, the addresses are theirs. */
	if (f->src_dev[0] != '\0' && off < len)
		off += (size_t)snprintf(buf + off, len - off, " %s sport %u dport %u",
					c->tcp ? "tcp" : "udp", c->src_port, c->dst_port);
	else if (off < len)
		off += (size_t)snprintf(buf + off, len - off, " src %s dst %s %s sport %u dport %u",
					s, d, c->tcp ? "tcp" : "udp", c->src_port, c->dst_port);
	if (c->vlan != 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " vlan %u", c->vlan);
	if (f->src_mac_given && off < len)
		off += (size_t)snprintf(buf + off, len - off, " src-mac " RTE_ETHER_ADDR_PRT_FMT,
					RTE_ETHER_ADDR_BYTES(&c->src_mac));
	if (f->dst_mac_given && off < len)
		off += (size_t)snprintf(buf + off, len - off, " dst-mac " RTE_ETHER_ADDR_PRT_FMT,
					RTE_ETHER_ADDR_BYTES(&c->dst_mac));
	if (c->hdrs.n != 0 && off < len) {
		char text[SL_STACK_TEXT_MAX];

		sl_stack_str(&c->hdrs, text, sizeof(text));
		off += (size_t)snprintf(buf + off, len - off, " stack %s", text);
	}
	if (c->flows > 1 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " flows %u", c->flows);
	if (off < len) {
		if (c->size_max != 0) {
			off += (size_t)snprintf(buf + off, len - off, " size %u-%u", c->size_min,
						c->size_max);
			if (c->size_step != 0 && off < len)
				off += (size_t)snprintf(buf + off, len - off, "/%u", c->size_step);
		} else {
			off += (size_t)snprintf(buf + off, len - off, " size ");
			for (uint16_t i = 0; i < c->nb_sizes && off < len; i++)
				off += (size_t)snprintf(buf + off, len - off, i ? ",%u" : "%u",
							c->sizes[i]);

		}
	}
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, " rate %s", r);
	if (f->count != 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " count %" PRIu64, f->count);
	if (f->delay_us != 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " delay %.6gs", f->delay_us / 1e6);
	if (f->duration_us != 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " duration %.6gs",
					f->duration_us / 1e6);
	if (f->burst_pkts != 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " burst %u gap %.6gs bursts %u",
					f->burst_pkts, f->burst_gap_us / 1e6, f->bursts);
	for (uint16_t i = 0; i < c->nb_fields && off < len; i++) {
		char fs[256];

		sl_config_field_str(&c->fields[i], fs, sizeof(fs));
		off += (size_t)snprintf(buf + off, len - off, " field %s", fs);
	}
}

void
sl_flow_device_port(const struct sl_config *c, struct sl_flow_conf *f, int argc, char **argv)
{
	int d;

	if (f->src_dev[0] == '\0')
		return;
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "port") == 0)
			return; /* given: the check says if it is not the device's */
	d = sl_config_device_find(c, f->src_dev);
	if (d >= 0)
		f->port = c->devices[d].port;
}
