/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sim's device arguments: --sim RATE[,key=value...], parsed here, by
 * the driver that reads them (the application passes the text through).
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "sl_rate.h"
#include "sl_sim.h"

int
sl_sim_parse(const char *arg, struct sl_sim_conf *sc, char *err, size_t len)
{
	struct sl_sim_conf s = { .txd = 512, .dut = { .port = -1 } };
	char buf[256], *save = NULL, *tok;
	const char *impair = NULL; /* the first DUT parameter given, for "needs dut=" */
	uint32_t given = 0;        /* DUT keys seen, one bit each */
	uint64_t v;

	if (strlen(arg) >= sizeof(buf)) {
		snprintf(err, len, "spec too long");
		return -EINVAL;
	}
	strcpy(buf, arg);
	tok = strtok_r(buf, ",", &save);
	if (tok == NULL || sl_rate_parse_bps(tok, &s.speed_bps) != 0) {
		snprintf(err, len, "'%s' does not start with a line rate such as 10G", arg);
		return -EINVAL;
	}
	while ((tok = strtok_r(NULL, ",", &save)) != NULL) {
		static const char *const dut_keys[] = { "dut=", "capacity=", "loss=", "dup=",
							 "reorder=", "delay=", "seed=", "queue=" };
		const char *val = strchr(tok, '=') != NULL ? strchr(tok, '=') + 1 : "";
		int key = -1;

		for (int i = 0; i < (int)RTE_DIM(dut_keys); i++)
			if (strncmp(tok, dut_keys[i], strlen(dut_keys[i])) == 0)
				key = i;
		if (key >= 0) {
			if (given & (1u << key)) {
				snprintf(err, len, "%.*s given twice", (int)(strlen(dut_keys[key]) - 1),
					 dut_keys[key]);
				return -EINVAL;
			}
			given |= 1u << key;
			if (key != 0 && impair == NULL)
				impair = dut_keys[key];
		}
		if (strncmp(tok, "txd=", 4) == 0) {
			char e2[128];

			if (sl_u64_parse(tok + 4, 1, 65536, &v, e2, sizeof(e2)) != 0) {
				snprintf(err, len, "txd: %s", e2);
				return -EINVAL;
			}
			s.txd = (uint32_t)v;
		} else if (strcmp(tok, "lltx=on") == 0 || strcmp(tok, "lltx=off") == 0 ||
			   strcmp(tok, "lltx=fine") == 0) {
			s.lltx = strcmp(tok, "lltx=off") != 0;
			s.fine = strcmp(tok, "lltx=fine") == 0;
		} else if (strncmp(tok, "wire=", 5) == 0) {
			if (sl_rate_parse_bps(tok + 5, &s.wire_bps) != 0 || s.wire_bps == 0) {
				snprintf(err, len, "wire: '%s' is not a bit rate such as 9.6G", tok + 5);
				return -EINVAL;
			}
		} else if (strcmp(tok, "verify=on") == 0 || strcmp(tok, "verify=off") == 0) {
			s.verify = tok[8] == 'n';
		} else if (key == 0) {
			char e2[128];

			if (sl_u64_parse(val, 0, 31, &v, e2, sizeof(e2)) != 0) {
				snprintf(err, len, "dut: '%s': %s (a port number)", val, e2);
				return -EINVAL;
			}
			s.dut.port = (int32_t)v;
		} else if (key == 1) {
			struct sl_rate r;

			if (sl_rate_parse(val, &r) != 0 || r.unit != SL_RATE_PPS || r.value < 1 ||
			    r.value > 1e12) {
				snprintf(err, len, "capacity: '%s' is not a packet rate such as 5Mpps, "
					 "800kpps or 1000pps (at least 1pps)", val);
				return -EINVAL;
			}
			s.dut.capacity_pps = (uint64_t)(r.value + 0.5);
		} else if (key >= 2 && key <= 4) {
			char *end;
			double p;

			errno = 0;
			p = strtod(val, &end);
			if (*val == '\0' || *end != '\0' || errno != 0 || !(p >= 0 && p <= 1)) {
				snprintf(err, len, "%.*s: '%s' is not a probability from 0 to 1 "
					 "(such as 0.01)", (int)(strlen(dut_keys[key]) - 1),
					 dut_keys[key], val);
				return -EINVAL;
			}
			if (key == 2)
				s.dut.loss = p;
			else if (key == 3)
				s.dut.dup = p;
			else
				s.dut.reorder = p;
		} else if (key == 5) {
			char dv[64], *jit, *end;
			double us[2] = { 0, 0 };

			snprintf(dv, sizeof(dv), "%s", val);
			jit = strchr(dv, ':');
			if (jit != NULL)
				*jit++ = '\0';
			for (int i = 0; i < 2; i++) {
				const char *x = i == 0 ? dv : jit;

				if (x == NULL)
					break;
				errno = 0;
				us[i] = strtod(x, &end);
				if (*x == '\0' || *end != '\0' || errno != 0 ||
				    !(us[i] >= 0 && us[i] <= SL_SIM_DUT_MAX_DELAY_NS / 1000.0)) {
					snprintf(err, len, "delay: '%s' is not US[:JITTER_US], "
						 "microseconds from 0 to 1000000 (such as 50 or 50:10.5)",
						 val);
					return -EINVAL;
				}
			}
			s.dut.delay_ns = (uint64_t)llround(us[0] * 1000);
			s.dut.jitter_ns = (uint64_t)llround(us[1] * 1000);
		} else if (key == 6) {
			char e2[128];

			if (sl_u64_parse(val, 0, UINT64_MAX, &v, e2, sizeof(e2)) != 0) {
				snprintf(err, len, "seed: '%s': %s", val, e2);
				return -EINVAL;
			}
			s.dut.seed = v;
		} else if (key == 7) {
			char e2[128];

			if (sl_u64_parse(val, 1, SL_SIM_DUT_MAX_QUEUE, &v, e2, sizeof(e2)) != 0) {
				snprintf(err, len, "queue: '%s': %s (frames the DUT queues ahead "
					 "of its capacity, 1..%u)", val, e2, SL_SIM_DUT_MAX_QUEUE);
				return -EINVAL;
			}
			s.dut.queue = (uint32_t)v;
		} else {
			snprintf(err, len, "unknown parameter '%s' (txd=N, lltx=on|off|fine, verify=on|off, "
				 "wire=RATE, dut=PORT, capacity=RATE, queue=N, loss=P, dup=P, reorder=P, "
				 "delay=US[:JITTER_US], seed=N)", tok);
			return -EINVAL;
		}
	}
	if (s.wire_bps > s.speed_bps) {
		snprintf(err, len, "wire: the wire's rate is above the line rate (it sends at most "
			 "that)");
		return -EINVAL;
	}
	if (impair != NULL && s.dut.port < 0) {
		snprintf(err, len, "%.*s needs dut=PORT (the sim port the wire delivers to)",
			 (int)(strlen(impair) - 1), impair);
		return -EINVAL;
	}
	*sc = s;
	return 0;
}

