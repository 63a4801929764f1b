/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz-otg: any bytes as an OTG Config (lib/otg). Contract: never a crash;
 * a refusal says where and why and leaves the configuration as it was; an
 * accepted configuration's flows are named once each, on ports that
 * exist, and each either builds or is refused by the check with a message.
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
	return 0;
}
