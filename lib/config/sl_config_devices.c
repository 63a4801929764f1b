/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration's devices (emulated hosts, sl_dev.h): their check, and
 * what a flow between two of them takes from them.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "sl_config.h"
#include "sl_wire.h"

static int __attribute__((format(printf, 4, 5)))
derr(struct sl_config_err *e, int port, int flow, const char *fmt, ...)
{
	va_list ap;

	e->opt = flow >= 0 ? "--flow" : "--device";
	e->port = port;
	e->flow = flow;
	e->detail = (uint16_t)strlen(e->opt);
	snprintf(e->msg, sizeof(e->msg), "%s", e->opt);
	va_start(ap, fmt);
	vsnprintf(e->msg + e->detail, sizeof(e->msg) - e->detail, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int
sl_config_device_find(const struct sl_config *c, const char *name)
{
	for (uint16_t i = 0; i < c->nb_devices && i < SL_DEV_MAX; i++)
		if (strcmp(c->devices[i].name, name) == 0)
			return i;
	return -1;
}

static const char *
ip4_str(rte_be32_t a, char *buf)
{
	return inet_ntop(AF_INET, &a, buf, INET_ADDRSTRLEN);
}

static const char *
ip6_str(const uint8_t *a, char *buf)
{
	return inet_ntop(AF_INET6, a, buf, INET6_ADDRSTRLEN);
}

static bool
unicast(const struct rte_ether_addr *m)
{
	return !rte_is_zero_ether_addr(m) && !rte_is_multicast_ether_addr(m);
}

static int
check_one(const struct sl_config *c, const struct sl_config_env *env, uint16_t i,
	  struct sl_config_err *e)
{
	static const uint8_t z16[16];
	const struct sl_dev_conf *d = &c->devices[i];
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	size_t nl = strnlen(d->name, SL_DEV_NAME_MAX);

	if (nl == 0 || nl >= SL_DEV_NAME_MAX)
		return derr(e, -1, -1, ": device %u: give it a name of 1 to %d characters", i,
			    SL_DEV_NAME_MAX - 1);
	for (uint16_t k = 0; k < i; k++)
		if (strcmp(c->devices[k].name, d->name) == 0)
			return derr(e, -1, -1, ": two devices are named %s: give each its own name",
				    d->name);
	if (d->port >= env->nb_ports)
		return derr(e, d->port, -1, ": device %s: port %u does not exist (there are %u "
			    "port(s))", d->name, d->port, env->nb_ports);
	if (!unicast(&d->mac))
		return derr(e, d->port, -1, ": device %s: give a unicast MAC (mac XX:XX:XX:XX:XX:XX)",
			    d->name);
	if (d->vlan > 4094)
		return derr(e, d->port, -1, ": device %s: vlan %u: give 1 to 4094 (0: untagged)",
			    d->name, d->vlan);
	if (!d->ip4 && !d->ip6)
		return derr(e, d->port, -1, ": device %s: give it an address (ip4 A/P or ip6 A/P)",
			    d->name);
	if (d->ip4) {
		if (d->prefix4 < 1 || d->prefix4 > 32)
			return derr(e, d->port, -1, ": device %s: prefix /%u: give 1 to 32", d->name,
				    d->prefix4);
		if (d->addr4 == 0 || (rte_be_to_cpu_32(d->addr4) >> 28) >= 14)
			return derr(e, d->port, -1, ": device %s: %s is not a host address", d->name,
				    ip4_str(d->addr4, a));
		if (d->gw4 != 0 && !sl_dev_same_net4(d->gw4, d->addr4, d->prefix4))
			return derr(e, d->port, -1, ": device %s: gateway %s is outside its prefix "
				    "%s/%u: give a gateway on its link", d->name, ip4_str(d->gw4, a),
				    ip4_str(d->addr4, b), d->prefix4);
		if (d->gw4 != 0 && d->gw4 == d->addr4)
			return derr(e, d->port, -1, ": device %s: its gateway %s is its own address",
				    d->name, ip4_str(d->gw4, a));
		/* A subnet's network and broadcast addresses are no host's (RFC 1122). */
		for (int k = 0; k < 2 && d->prefix4 <= 30; k++) {
			rte_be32_t x = k == 0 ? d->addr4 : d->gw4;
			uint32_t host = rte_be_to_cpu_32(x) & (UINT32_MAX >> d->prefix4);

			if (x == 0 && k == 1)
				continue; /* no gateway */
			if (host == 0 || host == UINT32_MAX >> d->prefix4)
				return derr(e, d->port, -1, ": device %s: %s%s is its subnet's %s "
					    "address, not a host's", d->name, k == 0 ? "" : "gateway ",
					    ip4_str(x, a), host == 0 ? "network" : "broadcast");
		}
		if (d->gw4_mac_given && !unicast(&d->gw4_mac))
			return derr(e, d->port, -1, ": device %s: gw4-mac: give the gateway's "
				    "unicast MAC", d->name);
	}
	if (d->ip6) {
		if (d->prefix6 < 1 || d->prefix6 > 128)
			return derr(e, d->port, -1, ": device %s: prefix /%u: give 1 to 128", d->name,
				    d->prefix6);
		if (memcmp(d->addr6, z16, 16) == 0 || d->addr6[0] == 0xff)
			return derr(e, d->port, -1, ": device %s: %s is not a host address", d->name,
				    ip6_str(d->addr6, a));
		if (memcmp(d->gw6, z16, 16) != 0 && !sl_dev_same_net6(d->gw6, d->addr6, d->prefix6) &&
		    !(d->gw6[0] == 0xfe && (d->gw6[1] & 0xc0) == 0x80))
			return derr(e, d->port, -1, ": device %s: gateway %s is outside its prefix "
				    "%s/%u: give a gateway on its link (or its link-local address)",
				    d->name, ip6_str(d->gw6, a), ip6_str(d->addr6, b), d->prefix6);
		if (memcmp(d->gw6, d->addr6, 16) == 0)
			return derr(e, d->port, -1, ": device %s: its gateway %s is its own address",
				    d->name, ip6_str(d->gw6, a));
		if (d->gw6_mac_given && !unicast(&d->gw6_mac))
			return derr(e, d->port, -1, ": device %s: gw6-mac: give the gateway's "
				    "unicast MAC", d->name);
	}
	for (uint16_t k = 0; k < i; k++) {
		const struct sl_dev_conf *o = &c->devices[k];

		if (o->port != d->port || o->vlan != d->vlan)
			continue;
		if (d->ip4 && o->ip4 && o->addr4 == d->addr4)
			return derr(e, d->port, -1, ": devices %s and %s both have %s on port %u: give "
				    "each its own address", o->name, d->name, ip4_str(d->addr4, a),
				    d->port);
		if (d->ip6 && o->ip6 && memcmp(o->addr6, d->addr6, 16) == 0)
			return derr(e, d->port, -1, ": devices %s and %s both have %s on port %u: give "
				    "each its own address", o->name, d->name, ip6_str(d->addr6, a),
				    d->port);
	}
	return 0;
}

/*
 * Stack s's outer tag, the header right after its first eth: its index (1;
 * -1: none) and the id given to it (-1: none given). A tag further in (a
 * tunnel's) is not the device's.
 */
static int
stack_vlan(const struct sl_hdrs *s, long *id)
{
	int h = s->n > 1 && strcmp(sl_hdrs_kind(s, 0), "eth") == 0 &&
		strcmp(sl_hdrs_kind(s, 1), "vlan") == 0 ? 1 : -1;

	*id = -1;
	for (unsigned int v = 0; h >= 0 && v < s->nb_vals; v++) {
		const char *field;
		char text[64];
		uint8_t hdr;

		if (sl_hdrs_val(s, v, &hdr, &field, text, sizeof(text)) == 0 && hdr == h &&
		    strcmp(field, "id") == 0)
			*id = strtol(text, NULL, 0);
	}
	return h;
}

/* A flow between devices: both exist, it is sent on its sender's port, a family both have. */
static int
check_flow(const struct sl_config *c, uint16_t i, struct sl_config_err *e)
{
	const struct sl_flow_conf *f = &c->flows[i];
	int s, d;

	if (f->src_dev[0] == '\0' && f->dst_dev[0] == '\0')
		return 0;
	s = sl_config_device_find(c, f->src_dev);
	d = sl_config_device_find(c, f->dst_dev);
	if (f->src_dev[0] == '\0' || f->dst_dev[0] == '\0')
		return derr(e, f->port, i, ": flow %s: give both ends (from DEVICE to DEVICE)",
			    f->name);
	if (s < 0 || d < 0)
		return derr(e, f->port, i, ": flow %s: there is no device %s (show devices lists "
			    "them)", f->name, s < 0 ? f->src_dev : f->dst_dev);
	if (c->devices[s].port != f->port)
		return derr(e, f->port, i, ": flow %s is on port %u, its sender %s on port %u: "
			    "send it on port %u", f->name, f->port, f->src_dev, c->devices[s].port,
			    c->devices[s].port);
	if (s == d)
		return derr(e, f->port, i, ": flow %s: from %s to itself: give another device to "
			    "send to", f->name, f->src_dev);
	if (c->devices[s].vlan != 0 && f->sc.hdrs.n != 0) {
		long id;

		if (stack_vlan(&f->sc.hdrs, &id) < 0 || (id >= 0 && id != c->devices[s].vlan) ||
		    (id < 0 && f->sc.hdrs.nb_vals >= SL_STACK_VALS_MAX))
			return derr(e, f->port, i, ": flow %s: device %s is on VLAN %u: give its "
				    "stack a vlan header right after eth (its id left out, or %u)",
				    f->name, f->src_dev, c->devices[s].vlan, c->devices[s].vlan);
	}
	if (c->devices[s].mtu != 0) {
		uint32_t big = f->sc.size_max, lim;

		for (uint16_t k = 0; f->sc.size_max == 0 && k < f->sc.nb_sizes; k++)
			big = RTE_MAX(big, f->sc.sizes[k]);
		lim = sl_wire_max_frame(c->devices[s].mtu, c->devices[s].vlan != 0);
		if (big > lim)
			return derr(e, f->port, i, ": flow %s: frames of %u B exceed device %s's MTU "
				    "%u (frames up to %u B): give smaller sizes or a larger mtu",
				    f->name, big, f->src_dev, c->devices[s].mtu, lim);
	}
	if (f->sc.ipv6 ? !(c->devices[s].ip6 && c->devices[d].ip6) :
			 !(c->devices[s].ip4 && c->devices[d].ip4))
		return derr(e, f->port, i, ": flow %s: %s and %s have no %s address both", f->name,
			    f->src_dev, f->dst_dev, f->sc.ipv6 ? "IPv6" : "IPv4");
	return 0;
}

int
sl_config_check_devices(const struct sl_config *c, const struct sl_config_env *env,
			struct sl_config_err *e)
{
	int ret;

	if (c->nb_devices > SL_DEV_MAX)
		return derr(e, -1, -1, ": %u devices: at most %d", c->nb_devices, SL_DEV_MAX);
	for (uint16_t i = 0; i < c->nb_devices; i++) {
		ret = check_one(c, env, i, e);
		if (ret != 0)
			return ret;
	}
	for (uint16_t i = 0; i < c->nb_flows; i++) {
		ret = check_flow(c, i, e);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/*
 * Flow id between devices as it is built: the sender's MAC, VLAN and
 * address, the receiver's address, the next hop's MAC. False if the next
 * hop is not known yet (the destination MAC left zero).
 */
bool
sl_config_flow_devices(const struct sl_config *c, const struct sl_config_env *env,
		       const struct sl_flow_conf *f, struct sl_stream_conf *out)
{
	static const struct rte_ether_addr zero;
	int s = sl_config_device_find(c, f->src_dev), d = sl_config_device_find(c, f->dst_dev);
	const struct sl_dev_conf *sd, *dd;
	bool known;

	if (s < 0 || d < 0)
		return false; /* refused by the check */
	sd = &c->devices[s];
	dd = &c->devices[d];
	if (!f->src_mac_given)
		out->src_mac = sd->mac;
	if (out->hdrs.n == 0) {
		out->vlan = sd->vlan;
	} else if (sd->vlan != 0) {
		/* The stack's first tag is the device's VLAN unless it gives one (checked). */
		char id[8], err[64];
		long given;
		int h = stack_vlan(&out->hdrs, &given);

		snprintf(id, sizeof(id), "%u", sd->vlan);
		if (h >= 0 && given < 0)
			sl_hdrs_set_at(&out->hdrs, (unsigned int)h, "id", id, err, sizeof(err));
	}
	if (out->ipv6) {
		memcpy(out->src_ip6, sd->addr6, 16);
		memcpy(out->dst_ip6, dd->addr6, 16);
	} else {
		out->src_ip = rte_be_to_cpu_32(sd->addr4);
		out->dst_ip = rte_be_to_cpu_32(dd->addr4);
	}
	if (f->dst_mac_given)
		return true;
	known = env->devs != NULL && s < env->devs->n &&
		strcmp(env->devs->d[s].conf.name, sd->name) == 0 &&
		sl_dev_next_hop(env->devs, (uint16_t)s, out->ipv6,
				out->ipv6 ? (const void *)dd->addr6 : (const void *)&dd->addr4,
				&out->dst_mac);
	if (!known)
		out->dst_mac = zero;
	return known;
}
