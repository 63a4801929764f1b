/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An OTG Config's devices[] (the models' Device, Device.Ethernet,
 * Device.Ipv4/Ipv6, Device.Vlan) and its flows' tx_rx.device
 * (Flow.Router), read into Sluice's devices (sl_dev.h) and flows between
 * them. One Sluice device per ethernet, named as it is. What Sluice cannot
 * emulate (a routing protocol, DHCP, a loopback, a LAG, a second address
 * of one family, a second tag) is refused with its path.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "sl_otg_pvt.h"

static const char *
name_ok(const char *n)
{
	if (n == NULL || n[0] == '\0')
		return "give it a name (a string)";
	if (strlen(n) >= SL_DEV_NAME_MAX)
		return "its name has more than 31 characters: Sluice names a device by its "
		       "ethernet's name, give a shorter one";
	return NULL;
}

static int
name_add(struct sl_otg_dev_names *names, const char *n, uint16_t dev, uint8_t kind,
	 const char *path, struct sl_otg_err *e)
{
	for (unsigned int i = 0; i < names->nb; i++)
		if (strcmp(names->n[i].name, n) == 0)
			return sl_otg_errf(e, path, "name '%s' is taken: names are unique over the "
					   "Config", n);
	if (names->nb == RTE_DIM(names->n))
		return sl_otg_errf(e, path, "too many names");
	names->n[names->nb++] = (struct sl_otg_dev_name){ n, dev, kind };
	return 0;
}

static int
mac_of(const json_t *v, struct rte_ether_addr *mac)
{
	const char *s = json_string_value(v);

	return s != NULL && rte_ether_unformat_addr(s, mac) == 0 ? 0 : -1;
}

/* gateway_mac: auto (resolved; the default) or value. */
static int
gw_mac(const json_t *g, const char *path, bool *given, struct rte_ether_addr *mac,
       struct sl_otg_err *e)
{
	const char *ch;

	*given = false;
	if (g == NULL)
		return 0;
	if (!json_is_object(g) || sl_otg_opt_string(g, "choice", &ch) != 0)
		return sl_otg_errf(e, path, "give an object with choice auto or value");
	if (ch == NULL)
		ch = json_object_get(g, "value") != NULL ? "value" : "auto";
	if (strcmp(ch, "auto") == 0)
		return 0;
	if (strcmp(ch, "value") != 0)
		return sl_otg_errf(e, path, "choice '%s': give auto or value", ch);
	if (mac_of(json_object_get(g, "value"), mac) != 0 || rte_is_zero_ether_addr(mac))
		return sl_otg_errf(e, path, "value: give the gateway's MAC (such as "
				   "02:00:00:00:00:01)");
	*given = true;
	return 0;
}

/* ipv4_addresses[] or ipv6_addresses[]: at most one, into d. */
static int
addresses(const json_t *a, bool v6, const char *path, struct sl_dev_conf *d, uint16_t dev,
	  struct sl_otg_dev_names *names, struct sl_otg_err *e)
{
	const json_t *o;
	const char *n, *addr, *gw;
	json_int_t prefix = v6 ? 64 : 24;
	char p[256];
	int af = v6 ? AF_INET6 : AF_INET;

	if (a == NULL || (json_is_array(a) && json_array_size(a) == 0))
		return 0;
	if (!json_is_array(a))
		return sl_otg_errf(e, path, "give an array");
	if (json_array_size(a) > 1)
		return sl_otg_errf(e, path, "%zu addresses: a Sluice device has one of each "
				   "family (give another ethernet for another address)",
				   json_array_size(a));
	o = json_array_get(a, 0);
	snprintf(p, sizeof(p), "%s[0]", path);
	if (!json_is_object(o) || sl_otg_opt_string(o, "name", &n) != 0 || n == NULL ||
	    sl_otg_opt_string(o, "address", &addr) != 0 || addr == NULL ||
	    sl_otg_opt_string(o, "gateway", &gw) != 0 || gw == NULL)
		return sl_otg_errf(e, p, "give name, address and gateway (strings)");
	if ((v6 ? inet_pton(af, addr, d->addr6) : inet_pton(af, addr, &d->addr4)) != 1)
		return sl_otg_errf(e, p, "address '%s': give an %s address", addr,
				   v6 ? "IPv6" : "IPv4");
	if ((v6 ? inet_pton(af, gw, d->gw6) : inet_pton(af, gw, &d->gw4)) != 1)
		return sl_otg_errf(e, p, "gateway '%s': give an %s address", gw,
				   v6 ? "IPv6" : "IPv4");
	if (json_object_get(o, "prefix") != NULL &&
	    !sl_otg_int_in(json_object_get(o, "prefix"), 1, v6 ? 128 : 32, &prefix))
		return sl_otg_errf(e, p, "prefix: give 1 to %d", v6 ? 128 : 32);
	snprintf(p, sizeof(p), "%s[0].gateway_mac", path);
	if (v6) {
		d->ip6 = true;
		d->prefix6 = (uint8_t)prefix;
		if (gw_mac(json_object_get(o, "gateway_mac"), p, &d->gw6_mac_given, &d->gw6_mac,
			   e) != 0)
			return -EINVAL;
	} else {
		d->ip4 = true;
		d->prefix4 = (uint8_t)prefix;
		if (gw_mac(json_object_get(o, "gateway_mac"), p, &d->gw4_mac_given, &d->gw4_mac,
			   e) != 0)
			return -EINVAL;
	}
	snprintf(p, sizeof(p), "%s[0].name", path);
	return name_add(names, n, dev, v6 ? SL_OTG_DEV_IP6 : SL_OTG_DEV_IP4, p, e);
}

/* vlans[]: one 802.1Q tag at most, priority 0. */
static int
vlans(const json_t *v, const char *path, struct sl_dev_conf *d, uint16_t dev,
      struct sl_otg_dev_names *names, struct sl_otg_err *e)
{
	const json_t *t;
	const char *tpid;
	json_int_t id = 1, prio = 0;

	if (v == NULL || (json_is_array(v) && json_array_size(v) == 0))
		return 0;
	if (!json_is_array(v) || json_array_size(v) > 1)
		return sl_otg_errf(e, path, "give one VLAN at most (Sluice's devices carry one tag)");
	t = json_array_get(v, 0);
	if (!json_is_object(t) || sl_otg_opt_string(t, "tpid", &tpid) != 0)
		return sl_otg_errf(e, path, "give an object (tpid, priority, id, name)");
	/* Its name is the Config's too: unique with the others. */
	{
		const char *n;

		if (sl_otg_opt_string(t, "name", &n) != 0 ||
		    (n != NULL && name_add(names, n, dev, SL_OTG_DEV_VLAN, path, e) != 0))
			return sl_otg_errf(e, path, "name: give a name used nowhere else in the "
					   "Config");
	}
	if (tpid != NULL && strcmp(tpid, "x8100") != 0)
		return sl_otg_errf(e, path, "tpid %s: a device's tag is 802.1Q: give x8100", tpid);
	if (json_object_get(t, "id") != NULL &&
	    !sl_otg_int_in(json_object_get(t, "id"), 1, 4094, &id))
		return sl_otg_errf(e, path, "id: give 1 to 4094");
	if (json_object_get(t, "priority") != NULL &&
	    (!sl_otg_int_in(json_object_get(t, "priority"), 0, 7, &prio) || prio != 0))
		return sl_otg_errf(e, path, "priority: a device's frames have priority 0: give 0");
	d->vlan = (uint16_t)id;
	return 0;
}

/* One ethernet of a device: a Sluice device. */
static int
ethernet(const json_t *eth, const char *path, const json_t *ports,
	 const struct sl_config_env *env, struct sl_config *c, struct sl_otg_dev_names *names,
	 struct sl_otg_err *e)
{
	static const char *const refused[] = { "dhcpv4_interfaces", "dhcpv6_interfaces" };
	struct sl_dev_conf d = { 0 };
	const json_t *conn = json_object_get(eth, "connection");
	const char *n, *port = NULL, *why;
	json_int_t mtu = 1500;
	char p[256];
	uint16_t pid;

	if (!json_is_object(eth) || sl_otg_opt_string(eth, "name", &n) != 0)
		return sl_otg_errf(e, path, "give an object with a name");
	if ((why = name_ok(n)) != NULL)
		return sl_otg_errf(e, path, "%s", why);
	for (size_t i = 0; i < RTE_DIM(refused); i++) {
		const json_t *r = json_object_get(eth, refused[i]);

		if (r != NULL && !(json_is_array(r) && json_array_size(r) == 0)) {
			snprintf(p, sizeof(p), "%s.%s", path, refused[i]);
			return sl_otg_errf(e, p, "not supported: Sluice's devices have static "
					   "addresses");
		}
	}
	/* connection.port_name, or the older models' port_name. */
	if (conn != NULL) {
		const char *ch;

		snprintf(p, sizeof(p), "%s.connection", path);
		if (!json_is_object(conn) || sl_otg_opt_string(conn, "choice", &ch) != 0 ||
		    sl_otg_opt_string(conn, "port_name", &port) != 0)
			return sl_otg_errf(e, p, "give an object with choice port_name");
		if (ch != NULL && strcmp(ch, "port_name") != 0)
			return sl_otg_errf(e, p, "choice %s: not supported: a Sluice device is on a "
					   "port (port_name)", ch);
	} else if (sl_otg_opt_string(eth, "port_name", &port) != 0) {
		snprintf(p, sizeof(p), "%s.port_name", path);
		return sl_otg_errf(e, p, "give a port's name");
	}
	snprintf(p, sizeof(p), "%s.connection.port_name", path);
	if (port == NULL)
		return sl_otg_errf(e, p, "give the port it is on");
	if (sl_otg_port_of(ports, env, port, p, &pid, e) != 0)
		return -EINVAL;
	snprintf(p, sizeof(p), "%s.mac", path);
	if (mac_of(json_object_get(eth, "mac"), &d.mac) != 0)
		return sl_otg_errf(e, p, "give its MAC (such as 02:00:00:00:00:01)");
	if (json_object_get(eth, "mtu") != NULL &&
	    !sl_otg_int_in(json_object_get(eth, "mtu"), 68, 9000, &mtu)) {
		snprintf(p, sizeof(p), "%s.mtu", path);
		return sl_otg_errf(e, p, "give 68 to 9000");
	}
	snprintf(d.name, sizeof(d.name), "%s", n);
	d.port = pid;
	d.mtu = (uint16_t)mtu;
	if (c->nb_devices >= SL_DEV_MAX)
		return sl_otg_errf(e, path, "more than %d ethernets in devices[]", SL_DEV_MAX);
	if (name_add(names, n, c->nb_devices, SL_OTG_DEV_ETH, path, e) != 0)
		return -EINVAL;
	snprintf(p, sizeof(p), "%s.vlans", path);
	if (vlans(json_object_get(eth, "vlans"), p, &d, c->nb_devices, names, e) != 0)
		return -EINVAL;
	snprintf(p, sizeof(p), "%s.ipv4_addresses", path);
	if (addresses(json_object_get(eth, "ipv4_addresses"), false, p, &d, c->nb_devices, names,
		      e) != 0)
		return -EINVAL;
	snprintf(p, sizeof(p), "%s.ipv6_addresses", path);
	if (addresses(json_object_get(eth, "ipv6_addresses"), true, p, &d, c->nb_devices, names,
		      e) != 0)
		return -EINVAL;
	c->devices[c->nb_devices++] = d;
	return 0;
}

int
sl_otg_devices(const json_t *devs, const json_t *ports, const struct sl_config_env *env,
	       struct sl_config *c, struct sl_otg_dev_names *names, struct sl_otg_err *e)
{
	char p[96], p2[160];

	c->nb_devices = 0;
	names->nb = 0;
	if (devs == NULL)
		return 0;
	if (!json_is_array(devs))
		return sl_otg_errf(e, "devices", "give an array");
	for (size_t i = 0; i < json_array_size(devs); i++) {
		const json_t *d = json_array_get(devs, i), *eths;
		const char *k;
		json_t *v;

		snprintf(p, sizeof(p), "devices[%zu]", i);
		if (!json_is_object(d))
			return sl_otg_errf(e, p, "give an object (name, ethernets)");
		/* Anything but its name and ethernets is a protocol Sluice does not run. */
		json_object_foreach((json_t *)d, k, v) {
			if (strcmp(k, "name") == 0 || strcmp(k, "ethernets") == 0 ||
			    (json_is_array(v) && json_array_size(v) == 0))
				continue;
			snprintf(p2, sizeof(p2), "%s.%s", p, k);
			return sl_otg_errf(e, p2, "not supported: Sluice's devices answer ARP, ND "
					   "and ping and run no routing protocol, loopback or "
					   "DHCP");
		}
		/* A Device's name is unique over the Config too (its ethernets' included). */
		{
			const char *dn;

			snprintf(p2, sizeof(p2), "%s.name", p);
			if (sl_otg_opt_string(d, "name", &dn) != 0)
				return sl_otg_errf(e, p2, "give a string");
			if (dn != NULL && name_add(names, dn, UINT16_MAX, SL_OTG_DEV_DEVICE, p2,
						   e) != 0)
				return -EINVAL;
		}
		eths = json_object_get(d, "ethernets");
		if (eths != NULL && !json_is_array(eths)) {
			snprintf(p2, sizeof(p2), "%s.ethernets", p);
			return sl_otg_errf(e, p2, "give an array");
		}
		for (size_t k2 = 0; k2 < json_array_size(eths); k2++) {
			snprintf(p2, sizeof(p2), "%s.ethernets[%zu]", p, k2);
			if (ethernet(json_array_get(eths, k2), p2, ports, env, c, names, e) != 0)
				return -EINVAL;
		}
	}
	return 0;
}

int
sl_otg_dev_names_unique(const struct sl_otg_dev_names *names, const json_t *ports,
			const json_t *flows, struct sl_otg_err *e)
{
	const json_t *arrs[2] = { ports, flows };

	for (unsigned int i = 0; i < names->nb; i++)
		for (int a = 0; a < 2; a++)
			for (size_t k = 0; k < json_array_size(arrs[a]); k++) {
				const char *n = json_string_value(json_object_get(
					json_array_get(arrs[a], k), "name"));

				if (n != NULL && strcmp(n, names->n[i].name) == 0)
					return sl_otg_errf(e, "devices", "name '%s' is %s[%zu]'s too: "
							   "names are unique over the Config", n,
							   a == 0 ? "ports" : "flows", k);
			}
	return 0;
}

static const struct sl_otg_dev_name *
name_find(const struct sl_otg_dev_names *names, const char *n)
{
	for (unsigned int i = 0; n != NULL && i < names->nb; i++)
		if (strcmp(names->n[i].name, n) == 0)
			return &names->n[i];
	return NULL;
}

/* One of tx_names/rx_names: the one name it holds. */
static const struct sl_otg_dev_name *
end_of(const json_t *dv, const char *key, const char *path, const struct sl_otg_dev_names *names,
       struct sl_otg_err *e)
{
	const json_t *a = json_object_get(dv, key);
	const struct sl_otg_dev_name *x;
	char p[192];

	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!json_is_array(a) || json_array_size(a) != 1) {
		sl_otg_errf(e, p, "give one name (Sluice sends a flow from one device to one; "
			    "give a flow for each pair)");
		return NULL;
	}
	x = name_find(names, json_string_value(json_array_get(a, 0)));
	if (x == NULL || x->kind == SL_OTG_DEV_DEVICE || x->kind == SL_OTG_DEV_VLAN) {
		sl_otg_errf(e, p, "'%s' is no ethernet or address of devices[]%s",
			    json_string_value(json_array_get(a, 0)) ?: "(not a string)",
			    x != NULL ? " (a Device or a VLAN: give its ethernet or an address)" : "");
		return NULL;
	}
	return x;
}

int
sl_otg_flow_devices(const json_t *dv, const char *path, const struct sl_config *c,
		    const struct sl_otg_dev_names *names, struct sl_flow_conf *f,
		    struct sl_otg_err *e)
{
	const struct sl_otg_dev_name *tx, *rx;
	const char *mode;
	bool v6;

	if (!json_is_object(dv))
		return sl_otg_errf(e, path, "give an object (tx_names, rx_names)");
	if (sl_otg_opt_string(dv, "mode", &mode) != 0 ||
	    (mode != NULL && strcmp(mode, "mesh") != 0 && strcmp(mode, "one_to_one") != 0))
		return sl_otg_errf(e, path, "mode: give mesh or one_to_one");
	tx = end_of(dv, "tx_names", path, names, e);
	if (tx == NULL)
		return -EINVAL;
	rx = end_of(dv, "rx_names", path, names, e);
	if (rx == NULL)
		return -EINVAL;
	/* The family: the addresses named, else the flow's packet (an ipv6 header). */
	if (tx->kind != SL_OTG_DEV_ETH)
		v6 = tx->kind == SL_OTG_DEV_IP6;
	else if (rx->kind != SL_OTG_DEV_ETH)
		v6 = rx->kind == SL_OTG_DEV_IP6;
	else
		v6 = f->sc.ipv6;
	if ((tx->kind != SL_OTG_DEV_ETH && rx->kind != SL_OTG_DEV_ETH && tx->kind != rx->kind))
		return sl_otg_errf(e, path, "tx_names and rx_names name addresses of two families: "
				   "give both IPv4 or both IPv6");
	f->sc.ipv6 = v6;
	snprintf(f->src_dev, sizeof(f->src_dev), "%s", c->devices[tx->dev].name);
	snprintf(f->dst_dev, sizeof(f->dst_dev), "%s", c->devices[rx->dev].name);
	f->port = c->devices[tx->dev].port;
	f->to = -1;
	return 0;
}
