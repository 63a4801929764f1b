/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration's check (sl_config.h), without EAL: the input is an
 * option list (one argument a line) parsed into a candidate, then checked
 * against a fixed machine (a 10G NIC, a 1G port that cannot receive, a
 * sim-like port whose wire goes to port 0; lcores 0 to 3). Checked: no
 * crash; a refusal names its setting (its message starts with the option
 * it names, the port is one there is); an accepted configuration builds
 * every port's flow and resolves every sending port's rate, as a start
 * will, and its map names only worker lcores and existing ports.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "opts.h"
#include "sl_config.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
env_init(struct sl_config_env *env)
{
	static const uint64_t speed[] = { 10000000000ull, 1000000000ull, 25000000000ull };

	memset(env, 0, sizeof(*env));
	env->nb_ports = 3;
	for (uint16_t i = 0; i < env->nb_ports; i++) {
		struct sl_port_info *pi = &env->port[i].info;

		snprintf(pi->name, sizeof(pi->name), "port%u", i);
		pi->speed_bps = speed[i];
		pi->mtu = 1500;
		pi->min_mtu = 68;
		pi->max_mtu = i == 1 ? 1500 : 9000;
		pi->max_txq = i == 1 ? 2 : 0;
		pi->mac = (struct rte_ether_addr){ { 0x02, 0, 0, 0, 1, (uint8_t)i } };
		pi->wire_to = i == 2 ? 0 : -1;
		pi->speed_made_up = i == 1;
		env->port[i].can_rx = i != 1;
		env->port[i].has_tx_burst = i != 2;
	}
	env->main_lcore = 0;
	env->nb_lcores = 4;
	for (uint16_t l = 1; l < 4; l++)
		env->worker[l] = true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sl_config_env env;
	static struct sl_config c;
	static struct sl_opts o;
	char *text = sl_fuzz_str(data, size), *argv[MAX_ARGS + 2];
	int argc = sl_fuzz_argv(text, argv, MAX_ARGS), ret;
	struct sl_map_entry map[SL_MAP_MAX];
	struct sl_config_err e;

	if (env.nb_ports == 0)
		env_init(&env);
	sl_opts_default(&o);
	sl_config_fini(&c); /* the last input's flows */
	sl_config_default(&c);
	if (sl_opts_parse(&o, &c, argc, argv) != SL_OPTS_RUN) {
		free(text);
		return 0;
	}
	memset(&e, 0, sizeof(e));
	ret = sl_config_check(&c, &env, SL_CHECK_ALL, &e);
	if (ret != 0) {
		SL_FUZZ_CHECK(ret == -EINVAL && e.msg[0] != '\0');
		SL_FUZZ_CHECK(e.port >= -1 && e.port < SL_MAX_PORTS);
		if (e.opt != NULL)
			SL_FUZZ_CHECK(strncmp(e.msg, e.opt, e.detail) == 0 &&
				      e.detail == strlen(e.opt));
	} else {
		uint16_t n = sl_config_map(&c, &env, map);

		for (uint16_t i = 0; i < n; i++)
			SL_FUZZ_CHECK(env.worker[map[i].lcore] && map[i].port < env.nb_ports &&
				      map[i].queue < SL_MAX_TXQ);
		/* Every stream a start builds builds, and paces at a rate that resolves. */
		for (uint16_t id = 0; id < sl_config_nb_streams(&c, &env); id++) {
			struct sl_rate pace;
			char err[256];

			SL_FUZZ_CHECK(sl_config_stream_port(&c, id) < env.nb_ports);
			SL_FUZZ_CHECK(sl_config_stream_build(&c, &env, id, NULL, &e) == 0);
			if (sl_config_port_has_lcore(&c, sl_config_stream_port(&c, id)) &&
			    !c.pc[sl_config_stream_port(&c, id)].stopped && c.nb_map == 0)
				SL_FUZZ_CHECK(sl_config_stream_rate(&c, &env, id, &pace, err,
								    sizeof(err)) == 0);
		}
		for (uint16_t p = 0; p < env.nb_ports; p++) {
			struct sl_rate pace;
			char err[256];

			if (c.nb_flows == 0)
				SL_FUZZ_CHECK(sl_config_flow_build(&c, &env, p, NULL, &e) == 0);
			if (sl_config_port_has_lcore(&c, p) && !c.pc[p].stopped && c.nb_map == 0)
				SL_FUZZ_CHECK(sl_config_rate(&c, &env, p, &c.pc[p].rate, &pace, err,
							     sizeof(err)) == 0);
		}
		/* The check is a function of its input: the same answer twice. */
		SL_FUZZ_CHECK(sl_config_check(&c, &env, SL_CHECK_ALL, &e) == 0);
	}
	free(text);
	return 0;
}
