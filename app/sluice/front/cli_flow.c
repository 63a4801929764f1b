/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CLI: flow add | set | del, show flows, show flow stats. A flow command
 * edits a candidate copy of the configuration, checks it as a start builds
 * every flow (and the sum of a port's flow rates against its line), and
 * commits it, or refuses it with why and the configuration as it was.
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "flow.h"
#include "results.h"

#define FLOW_MAX_WORDS 64

static bool
flow_stopped(struct sl_cli *cli, const char *cmd)
{
	if (cli->app->ses.running)
		sl_cli_error(cli, "flow %s: stop first: the flows are built at start", cmd);
	return !cli->app->ses.running;
}

/* A name users can type again: letters, digits, '-', '_', '.'; not "all". */
static bool
flow_name_ok(struct sl_cli *cli, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && strchr("-_.", name[i]) == NULL)
			n = 0;
	if (n == 0 || n >= SL_FLOW_NAME_MAX || strcmp(name, "all") == 0) {
		sl_cli_error(cli, "flow name '%s': give 1 to %d letters, digits, '-', '_' or '.' "
			     "(not 'all')", name, SL_FLOW_NAME_MAX - 1);
		return false;
	}
	return true;
}

/*
 * Check the candidate (flow idx built, -1: none; the names, ports, counts
 * and rates of every flow) and commit it (0), or say why not (-1; nothing
 * changed).
 */
static int
flow_commit(struct sl_cli *cli, struct sl_config *cand, int idx, const char *what)
{
	struct sl_config_err e;

	if (sl_config_check_edit(cand, sl_session_env(cli->app), idx, &e) != 0) {
		sl_cli_error(cli, "flow %s: %s", what, e.msg + (e.opt != NULL &&
			     strcmp(e.opt, "--flow") == 0 ? e.detail + 2 : 0));
		return -1;
	}
	if (sl_config_copy(&cli->app->cfg, cand) != 0) {
		sl_cli_error(cli, "flow %s: out of memory", what);
		return -1;
	}
	return 0;
}

/* flow add|set NAME WORDS...: the flow built from the words, checked, committed. */
static void
flow_edit(struct sl_cli *cli, int argc, char **argv, bool add)
{
	struct sl_config cand = { 0 };
	struct sl_flow_conf f;
	char *words[FLOW_MAX_WORDS], line[SL_CLI_LINE_MAX + 1], err[320];
	int nw = 0, idx;

	if (!flow_stopped(cli, argv[1]) || !flow_name_ok(cli, argv[2]))
		return;
	idx = sl_config_flow_find(&cli->app->cfg, argv[2]);
	if (add && idx >= 0) {
		sl_cli_error(cli, "flow add: flow %s exists: flow set %s ... changes it", argv[2],
			     argv[2]);
		return;
	}
	if (!add && idx < 0) {
		sl_cli_error(cli, "flow set: no flow %s (show flows lists them; flow add adds one)",
			     argv[2]);
		return;
	}
	if (argc > 3) {
		snprintf(line, sizeof(line), "%s", argv[3]);
		nw = sl_flow_words(line, words, FLOW_MAX_WORDS);
		if (nw < 0) {
			sl_cli_error(cli, "flow %s: more than %d words", argv[1], FLOW_MAX_WORDS);
			return;
		}
	}
	if (add)
		sl_config_flow_init(&cli->app->cfg, &f, argv[2], 0);
	else
		f = cli->app->cfg.flows[idx];
	if (sl_flow_parse(&f, nw, words, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "flow %s: %s", argv[1], err);
		return;
	}
	sl_flow_device_port(&cli->app->cfg, &f, nw, words);
	if (sl_config_copy(&cand, &cli->app->cfg) != 0) {
		sl_cli_error(cli, "flow %s: out of memory", argv[1]);
		return;
	}
	if (add && sl_config_flow_add(&cand, &f) != 0)
		sl_cli_error(cli, "flow add: the table is full (%d flows) or out of memory",
			     SL_CONFIG_MAX_FLOWS);
	else if (!add)
		cand.flows[idx] = f;
	if (!cli->failed)
		flow_commit(cli, &cand, add ? cand.nb_flows - 1 : idx, argv[1]);
	sl_config_fini(&cand);
}

static void
cmd_flow_add(struct sl_cli *cli, int argc, char **argv)
{
	flow_edit(cli, argc, argv, true);
}

static void
cmd_flow_set(struct sl_cli *cli, int argc, char **argv)
{
	flow_edit(cli, argc, argv, false);
}

static void
cmd_flow_del(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_config cand = { 0 };
	int idx = -1;

	RTE_SET_USED(argc);
	if (!flow_stopped(cli, "del"))
		return;
	if (strcmp(argv[2], "all") != 0) {
		idx = sl_config_flow_find(&cli->app->cfg, argv[2]);
		if (idx < 0) {
			sl_cli_error(cli, "flow del: no flow %s (show flows lists them)", argv[2]);
			return;
		}
	}
	if (sl_config_copy(&cand, &cli->app->cfg) != 0) {
		sl_cli_error(cli, "flow del: out of memory");
		return;
	}
	if (idx < 0)
		sl_config_fini(&cand);
	else
		sl_config_flow_del(&cand, (uint16_t)idx);
	flow_commit(cli, &cand, -1, "del");
	sl_config_fini(&cand);
}

static void
cmd_show_flows(struct sl_cli *cli, int argc, char **argv)
{
	const struct sl_config *c = &cli->app->cfg;
	char buf[SL_STACK_TEXT_MAX + 2048]; /* a flow's keys and its stack */

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (c->nb_flows == 0) {
		printf("no flow: each sending port sends its default flow (the options' template: "
		       "show config); flow add NAME port P ... adds one\n");
		return;
	}
	for (uint16_t i = 0; i < c->nb_flows; i++) {
		sl_flow_str(&c->flows[i], buf, sizeof(buf));
		printf("flow %u: %s\n", i, buf);
	}
}

/* A flow's counters over every port where it arrived. */
static struct sl_flow_base
flow_now(const struct sl_results *r, uint16_t f)
{
	struct sl_rx_stream_stats st;

	sl_results_flow_sum(r, f, &st);
	return (struct sl_flow_base){ r->flow[f].generated, r->flow[f].tx, r->flow[f].unique,
				      st.rx, st.duplicates, st.reordered, st.late };
}

/* clear flow stats: show flow stats counts from zero again (the summary and JSON keep all). */
static void
cmd_clear_flow_stats(struct sl_cli *cli, int argc, char **argv)
{
	struct sl_app *app = cli->app;
	struct sl_results *r = sl_results_take_opt(app, false);
	struct sl_flow_base *b;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	b = r != NULL ? calloc(r->nb_flows != 0 ? r->nb_flows : 1, sizeof(*b)) : NULL;
	if (b == NULL) {
		sl_results_free(r);
		sl_cli_error(cli, "out of memory");
		return;
	}
	for (uint16_t f = 0; f < r->nb_flows; f++)
		b[f] = flow_now(r, f);
	free(app->views.flow_base);
	app->views.flow_base = b;
	app->views.nb_flow_base = r->nb_flows;
	sl_results_free(r);
}

/* show flow stats [<name>]: each stream of the last (or current) run, where it arrived. */
static void
cmd_show_flow_stats(struct sl_cli *cli, int argc, char **argv)
{
	const char *want = argc > 3 && strcmp(argv[3], "all") != 0 ? argv[3] : NULL;
	struct sl_results *r = sl_results_take(cli->app);
	int shown = 0;

	if (r == NULL) {
		sl_cli_error(cli, "out of memory");
		return;
	}
	if (r->nb_flows == 0)
		printf("(no run yet: start one)\n");
	for (uint16_t f = 0; f < r->nb_flows; f++) {
		const struct sl_results_flow *fl = &r->flow[f];
		bool any = false;

		if (want != NULL && strcmp(want, fl->name) != 0)
			continue;
		shown++;
		if (f < cli->app->views.nb_flow_base) {
			/* Since clear flow stats: one line of differences (in flight counts as lost). */
			const struct sl_flow_base *b = &cli->app->views.flow_base[f];
			struct sl_flow_base n = flow_now(r, f);

			printf("flow %s (id %u): since the clear: generated %" PRIu64 " tx %" PRIu64
			       " unique %" PRIu64 " lost %" PRId64 " rx %" PRIu64 " dup %" PRIu64
			       " reordered %" PRIu64 " late %" PRIu64 "\n", fl->name, fl->id,
			       n.generated - b->generated, n.tx - b->tx, n.unique - b->unique,
			       (int64_t)(n.tx - b->tx) - (int64_t)(n.unique - b->unique),
			       n.rx - b->rx, n.duplicates - b->duplicates,
			       n.reordered - b->reordered, n.late - b->late);
			continue;
		}
		printf("flow %s (id %u): port %u  generated %" PRIu64 " tx %" PRIu64 " unique %"
		       PRIu64 " lost %" PRId64 " (%.4g%%)%s\n", fl->name, fl->id, fl->port,
		       fl->generated, fl->tx, fl->unique, fl->lost,
		       fl->tx != 0 ? (double)fl->lost / (double)fl->tx * 100 : 0,
		       fl->exact ? "" : "  (tx not exact: its port's shared queues dropped "
		       "frames at stop)");
		for (uint16_t p = 0; p < r->nb_ports; p++) {
			const struct sl_results_rx *x = sl_results_flow_rx(r, f, p);
			const struct sl_rx_stream_stats *st;

			if (x == NULL || x->st.rx == 0)
				continue;
			st = &x->st;
			any = true;
			printf("  -> port %u: rx %" PRIu64 " dup %" PRIu64 " reordered %" PRIu64
			       " late %" PRIu64 "  latency (%s, us) min %.3f mean %.3f p99 %.3f max "
			       "%.3f jitter %.3f\n", p, st->rx, st->duplicates, st->reordered,
			       st->late, sl_rx_clock_name(st), st->lat_min / 1e3,
			       st->lat_count ? st->lat_sum / (double)st->lat_count / 1e3 : 0,
			       x->hist != NULL ? sl_rx_quantile(x->hist, 0.99, st->lat_min,
								st->lat_max) / 1e3 : 0,
			       st->lat_max / 1e3, st->jitter_ns / 1e3);
		}
		if (!any)
			printf("  (received nowhere)\n");
	}
	if (want != NULL && shown == 0)
		sl_cli_error(cli, "show flow stats: no flow %s in the last run", want);
	sl_results_free(r);
}

const struct sl_cmd sl_cmds_flow[] = {
	{ "flow add <name> <words...>", cmd_flow_add,
	  "add a flow: port P, to R, src IP, dst IP, udp or tcp, sport N, dport N, vlan N, src-mac "
	  "MAC, dst-mac MAC, stack H/H/..., size S, rate R, count N, delay S, duration S, burst N, "
	  "gap S, bursts N, flows N, "
	  "field NAME=MODE:ARGS (docs/generator.md)", "flow" },
	{ "flow add <name>", cmd_flow_add,
	  "add a flow on port 0 from the options' template (flow set NAME ... changes it)",
	  "flow" },
	{ "flow set <name> <words...>", cmd_flow_set,
	  "change a flow: the keys of flow add, the others kept", "flow" },
	{ "flow del <name>", cmd_flow_del,
	  "remove a flow (all: every one; with none, each port sends its default flow)", "flow" },
	{ "show flows", cmd_show_flows, "the flow table, as flow add words", "show" },
	{ "clear flow stats", cmd_clear_flow_stats,
	  "show flow stats counts from zero again (the summary and JSON keep the whole run)",
	  "flow" },
	{ "show flow stats [<name>]", cmd_show_flow_stats,
	  "per flow: generated, tx, unique, lost; per receiving port: rx, dup, reordered, late, "
	  "latency", "show" },
	{ NULL, NULL, NULL, NULL },
};
