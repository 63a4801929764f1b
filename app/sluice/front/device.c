/* SPDX-License-Identifier: BSD-3-Clause */
/* A device as words (device.h): device add, --device, show devices. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "device.h"
#include "parse.h"

/* "A/PREFIX" of family af into addr (network order) and prefix. */
static int
parse_cidr(const char *s, int af, void *addr, uint8_t *prefix, char *err, size_t len)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash, *end;
	unsigned long p;
	unsigned int max = af == AF_INET ? 32 : 128;

	if (strlen(s) >= sizeof(buf))
		goto bad;
	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash == NULL)
		goto bad;
	*slash = '\0';
	errno = 0;
	p = strtoul(slash + 1, &end, 10);
	if (slash[1] == '\0' || *end != '\0' || errno != 0 || p < 1 || p > max ||
	    inet_pton(af, buf, addr) != 1)
		goto bad;
	*prefix = (uint8_t)p;
	return 0;
bad:
	snprintf(err, len, "'%s': give an %s address and its prefix, e.g. %s", s,
		 af == AF_INET ? "IPv4" : "IPv6", af == AF_INET ? "198.18.0.1/24" :
		 "2001:db8::1/64");
	return -EINVAL;
}

static int
parse_ip(const char *s, int af, void *addr, char *err, size_t len)
{
	if (inet_pton(af, s, addr) == 1)
		return 0;
	snprintf(err, len, "'%s': give an %s address", s, af == AF_INET ? "IPv4" : "IPv6");
	return -EINVAL;
}

static bool
zero16(const uint8_t *a)
{
	static const uint8_t z[16];

	return memcmp(a, z, 16) == 0;
}

int
sl_device_parse(struct sl_dev_conf *d, const char *name, int argc, char **argv, char *err,
		size_t len)
{
	/* ip, gw, gw-mac are IPv4's (ip4, gw4, gw4-mac: the same words). */
	static const char *const keys[] = { "port", "mac", "vlan", "mtu", "ip", "ip6", "gw", "gw6",
					    "gw-mac", "gw6-mac" };
	bool port = false, mac = false, seen[RTE_DIM(keys)] = { false };
	char e[200];
	uint64_t v;

	memset(d, 0, sizeof(*d));
	if (strlen(name) == 0 || strlen(name) >= SL_DEV_NAME_MAX ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
	    strlen(name) || strcmp(name, "all") == 0 ||
	    strspn(name, "0123456789") == strlen(name)) {
		snprintf(err, len, "name '%s': give 1 to %d letters, digits, '-', '_' or '.', not "
			 "digits alone (to N is port N) and not 'all'", name, SL_DEV_NAME_MAX - 1);
		return -EINVAL;
	}
	snprintf(d->name, sizeof(d->name), "%s", name);
	for (int i = 0; i < argc; i += 2) {
		const char *k = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;
		int ret;

		if (strcmp(k, "ip4") == 0 || strcmp(k, "gw4") == 0 || strcmp(k, "gw4-mac") == 0)
			k = k[0] == 'i' ? "ip" : k[3] == '\0' ? "gw" : "gw-mac";

		if (a == NULL) {
			snprintf(err, len, "%s: a value must follow (keys: %s)", k, SL_DEVICE_KEYS);
			return -EINVAL;
		}
		e[0] = '\0';
		for (size_t s = 0; s < RTE_DIM(keys); s++) {
			if (strcmp(k, keys[s]) != 0)
				continue;
			if (seen[s]) {
				snprintf(err, len, "%s is given twice: give it once", k);
				return -EINVAL;
			}
			seen[s] = true;
		}
		if (strcmp(k, "port") == 0) {
			ret = sl_parse_u64(a, 0, SL_MAX_PORTS - 1, &v, e, sizeof(e));
			d->port = (uint16_t)v;
			port = true;
		} else if (strcmp(k, "mac") == 0) {
			ret = sl_parse_mac(a, &d->mac, e, sizeof(e));
			mac = true;
		} else if (strcmp(k, "vlan") == 0) {
			ret = sl_parse_u64(a, 1, 4094, &v, e, sizeof(e));
			d->vlan = (uint16_t)v;
		} else if (strcmp(k, "mtu") == 0) {
			ret = sl_parse_u64(a, 68, 9000, &v, e, sizeof(e));
			d->mtu = (uint16_t)v;
		} else if (strcmp(k, "ip") == 0) {
			ret = parse_cidr(a, AF_INET, &d->addr4, &d->prefix4, e, sizeof(e));
			d->ip4 = true;
		} else if (strcmp(k, "ip6") == 0) {
			ret = parse_cidr(a, AF_INET6, d->addr6, &d->prefix6, e, sizeof(e));
			d->ip6 = true;
		} else if (strcmp(k, "gw") == 0) {
			ret = parse_ip(a, AF_INET, &d->gw4, e, sizeof(e));
		} else if (strcmp(k, "gw6") == 0) {
			ret = parse_ip(a, AF_INET6, d->gw6, e, sizeof(e));
		} else if (strcmp(k, "gw-mac") == 0) {
			ret = sl_parse_mac(a, &d->gw4_mac, e, sizeof(e));
			d->gw4_mac_given = true;
		} else if (strcmp(k, "gw6-mac") == 0) {
			ret = sl_parse_mac(a, &d->gw6_mac, e, sizeof(e));
			d->gw6_mac_given = true;
		} else {
			snprintf(err, len, "'%s': unknown key (keys: %s)", k, SL_DEVICE_KEYS);
			return -EINVAL;
		}
		if (ret != 0) {
			snprintf(err, len, "%s %s: %s", k, a, e);
			return -EINVAL;
		}
	}
	if (!port || !mac) {
		snprintf(err, len, "give its %s (keys: %s)", !port ? "port (port P)" :
			 "MAC (mac XX:XX:XX:XX:XX:XX)", SL_DEVICE_KEYS);
		return -EINVAL;
	}
	if ((d->gw4 != 0 || d->gw4_mac_given) && !d->ip4) {
		snprintf(err, len, "gw: give the device's own IPv4 address first (ip A/P)");
		return -EINVAL;
	}
	if ((d->gw6_mac_given || !zero16(d->gw6)) && !d->ip6) {
		snprintf(err, len, "gw6: give the device's own IPv6 address first (ip6 A/P)");
		return -EINVAL;
	}
	if (d->gw6_mac_given && zero16(d->gw6)) {
		snprintf(err, len, "gw6-mac: give the gateway it belongs to (gw6 G)");
		return -EINVAL;
	}
	if (d->gw4_mac_given && d->gw4 == 0) {
		snprintf(err, len, "gw-mac: give the gateway it belongs to (gw G)");
		return -EINVAL;
	}
	return 0;
}

void
sl_device_str(const struct sl_dev_conf *d, char *buf, size_t len)
{
	static const uint8_t z16[16];
	char a[INET6_ADDRSTRLEN], m[RTE_ETHER_ADDR_FMT_SIZE];
	size_t off;

	rte_ether_format_addr(m, sizeof(m), &d->mac);
	off = (size_t)snprintf(buf, len, "%s port %u mac %s", d->name, d->port, m);
	if (d->vlan != 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " vlan %u", d->vlan);
	if (d->mtu != 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " mtu %u", d->mtu);
	if (d->ip4 && off < len) {
		inet_ntop(AF_INET, &d->addr4, a, sizeof(a));
		off += (size_t)snprintf(buf + off, len - off, " ip %s/%u", a, d->prefix4);
		if (d->gw4 != 0 && off < len) {
			inet_ntop(AF_INET, &d->gw4, a, sizeof(a));
			off += (size_t)snprintf(buf + off, len - off, " gw %s", a);
		}
		if (d->gw4_mac_given && off < len) {
			rte_ether_format_addr(m, sizeof(m), &d->gw4_mac);
			off += (size_t)snprintf(buf + off, len - off, " gw-mac %s", m);
		}
	}
	if (d->ip6 && off < len) {
		inet_ntop(AF_INET6, d->addr6, a, sizeof(a));
		off += (size_t)snprintf(buf + off, len - off, " ip6 %s/%u", a, d->prefix6);
		if (memcmp(d->gw6, z16, 16) != 0 && off < len) {
			inet_ntop(AF_INET6, d->gw6, a, sizeof(a));
			off += (size_t)snprintf(buf + off, len - off, " gw6 %s", a);
		}
		if (d->gw6_mac_given && off < len) {
			rte_ether_format_addr(m, sizeof(m), &d->gw6_mac);
			snprintf(buf + off, len - off, " gw6-mac %s", m);
		}
	}
}

int
sl_device_add(struct sl_config *c, const struct sl_dev_conf *d, char *err, size_t len)
{
	if (sl_config_device_find(c, d->name) >= 0) {
		snprintf(err, len, "device %s exists: device del %s first, or give another name",
			 d->name, d->name);
		return -EINVAL;
	}
	if (c->nb_devices >= SL_DEV_MAX) {
		snprintf(err, len, "the table is full (%d devices)", SL_DEV_MAX);
		return -EINVAL;
	}
	c->devices[c->nb_devices++] = *d;
	return 0;
}

void
sl_device_del(struct sl_config *c, uint16_t idx)
{
	if (idx >= c->nb_devices)
		return;
	memmove(&c->devices[idx], &c->devices[idx + 1],
		(size_t)(c->nb_devices - idx - 1) * sizeof(c->devices[0]));
	c->nb_devices--;
}
