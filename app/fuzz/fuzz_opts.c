/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option parser (opts.h): the input is the argument list after "--",
 * one argument a line. Checked: no crash, and what SL_OPTS_RUN promises
 * (values within their limits, every port's settings copied from the
 * options', no IPv4 addresses for IPv6 frames).
 */

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "opts.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_run(const struct sl_config *o)
{
	SL_FUZZ_CHECK(o->burst >= 1 && o->burst <= 64);
	SL_FUZZ_CHECK(o->nb_map <= SL_MAP_MAX && o->nb_rxmap <= SL_MAP_MAX);
	SL_FUZZ_CHECK(o->nb_sims <= SL_MAX_SIMS);
	SL_FUZZ_CHECK(o->sc.nb_fields <= SL_FIELD_MAX && o->sc.nb_sizes <= SL_GEN_MAX_SIZES);
	SL_FUZZ_CHECK(o->duration_us <= (uint64_t)SL_MAX_SECONDS * 1000000);
	SL_FUZZ_CHECK(o->drain_us <= (uint64_t)SL_MAX_SECONDS * 1000000);
	SL_FUZZ_CHECK(!(o->sc.ipv6 && o->tx_ip4_given));
	for (uint16_t i = 0; i < o->nb_rxmap; i++)
		SL_FUZZ_CHECK(o->rxmap[i].queue == 0);
	for (int i = 1; i < SL_MAX_PORTS; i++)
		SL_FUZZ_CHECK(memcmp(&o->pc[i], &o->pc[0], sizeof(o->pc[0])) == 0);
	SL_FUZZ_CHECK(o->pc[0].vlan <= 4094);
	SL_FUZZ_CHECK(o->nb_flows <= SL_OPTS_MAX_FLOWS && (o->nb_flows == 0) == (o->flows == NULL));
	for (uint16_t i = 0; i < o->nb_flows; i++) {
		const struct sl_flow_conf *f = &o->flows[i];

		SL_FUZZ_CHECK(memchr(f->name, '\0', sizeof(f->name)) != NULL && f->name[0] != '\0');
		SL_FUZZ_CHECK(sl_config_flow_find(o, f->name) == i);
		SL_FUZZ_CHECK(f->sc.nb_fields <= SL_FIELD_MAX && f->sc.nb_sizes <= SL_GEN_MAX_SIZES);
		SL_FUZZ_CHECK(f->port < SL_MAX_PORTS && f->to < SL_MAX_PORTS && f->sc.vlan <= 4094);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sl_config c;
	static struct sl_opts o;
	char *text = sl_fuzz_str(data, size), *argv[MAX_ARGS + 2];
	int argc = sl_fuzz_argv(text, argv, MAX_ARGS);

	sl_opts_default(&o);
	sl_config_fini(&c); /* the last input's flows */
	sl_config_default(&c);
	switch (sl_opts_parse(&o, &c, argc, argv)) {
	case SL_OPTS_RUN:
		check_run(&c);
		break;
	case SL_OPTS_HELP:
	case SL_OPTS_VERSION:
	case SL_OPTS_CLI_REFERENCE:
	case SL_OPTS_ERROR:
		break;
	default:
		SL_FUZZ_CHECK(!"an action opts.h does not name");
	}
	free(text);
	return 0;
}
