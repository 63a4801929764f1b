/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz-otg: any bytes as an OTG Config (lib/otg). Contract: never a crash;
 * a refusal says where and why and leaves the configuration as it was; an
 * accepted configuration's flows are named once each, on ports that
 * exist, and each either builds or is refused by the check with a message;
 * written back as an OTG Config (GET /config), it reads back to the same
 * ports and flows (those with an OTG form) and writes again the same text.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sl_config.h"
#include "sl_otg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sl_config_env env;
	static struct sl_config c;
	struct sl_config_err ce;
	struct sl_otg_err e;
	int ret;

	if (env.nb_ports == 0) {
		env.nb_ports = 2;
		for (uint16_t i = 0; i < 2; i++) {
			struct sl_port_info *pi = &env.port[i].info;

			snprintf(pi->name, sizeof(pi->name), "sim%u", i);
			pi->speed_bps = 10000000000ull;
			pi->mtu = 1500;
			pi->min_mtu = 68;
			pi->max_mtu = 9000;
			pi->wire_to = -1;
			pi->mac = (struct rte_ether_addr){ { 2, 0, 0, 0, 1, (uint8_t)i } };
			env.port[i].can_rx = true;
		}
		env.nb_lcores = 2;
		env.worker[1] = true;
	}
	sl_config_fini(&c);
	sl_config_default(&c);
	ret = sl_otg_config((const char *)data, size, &env, &c, &e);
	if (ret != 0) {
		SL_FUZZ_CHECK(ret == -EINVAL || ret == -ENOMEM);
		SL_FUZZ_CHECK(ret == -ENOMEM || e.msg[0] != '\0');
		SL_FUZZ_CHECK(c.nb_flows == 0 && c.flows == NULL); /* unchanged */
		return 0;
	}
	SL_FUZZ_CHECK(c.nb_flows <= SL_CONFIG_MAX_FLOWS);
	for (uint16_t i = 0; i < c.nb_flows; i++) {
		SL_FUZZ_CHECK(c.flows[i].port < env.nb_ports);
		SL_FUZZ_CHECK(sl_config_flow_find(&c, c.flows[i].name) == i);
	}
	/* Whatever was read, the check answers it: accepted, or one message. */
	if (sl_config_check(&c, &env, SL_CHECK_ALL, &ce) != 0)
		SL_FUZZ_CHECK(ce.msg[0] != '\0');
	/*
	 * Written as GET /config writes it, it reads back (every flow with an
	 * OTG form, the ports' names and captures), and written again it is
	 * the same text.
	 */
	{
		static struct sl_config c2;
		struct sl_otg_left l1, l2;
		json_t *o = sl_otg_write(&c, &env, &l1);
		char *t1 = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL, *t2;

		json_decref(o);
		if (t1 == NULL)
			return 0; /* out of memory */
		sl_config_fini(&c2);
		sl_config_default(&c2);
		ret = sl_otg_config(t1, strlen(t1), &env, &c2, &e);
		if (ret == -ENOMEM) {
			free(t1);
			return 0;
		}
		if (ret != 0)
			fprintf(stderr, "read back: %s: %s\n%s\n", e.path, e.msg, t1);
		SL_FUZZ_CHECK(ret == 0);
		SL_FUZZ_CHECK(c2.nb_flows + l1.nb == c.nb_flows);
		/* A port without a name is written as the API names it: port-P. */
		for (uint16_t p = 0; p < env.nb_ports; p++) {
			char def[16];

			snprintf(def, sizeof(def), "port-%u", p);
			SL_FUZZ_CHECK(strcmp(c2.pn[p].name, c.pn[p].name[0] ? c.pn[p].name : def) == 0);
			SL_FUZZ_CHECK(c2.pn[p].capture == c.pn[p].capture &&
				      c2.pn[p].cap_snap == c.pn[p].cap_snap);
		}
		o = sl_otg_write(&c2, &env, &l2);
		t2 = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		json_decref(o);
		if (t2 != NULL) {
			if (strcmp(t1, t2) != 0)
				fprintf(stderr, "written again differs:\n%s\n%s\n", t1, t2);
			SL_FUZZ_CHECK(l2.nb == 0 && strcmp(t1, t2) == 0);
		}
		free(t1);
		free(t2);
	}
	return 0;
}
