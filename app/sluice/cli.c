/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CLI machinery: command tables -> cmdline instructions, help, files,
 * the interactive loop (which also runs the scheduler poll and live stats
 * while traffic runs).
 */

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <cmdline_rdline.h>
#include <cmdline_socket.h>
#include <rte_cycles.h>

#include "cli.h"

/* The command tables in force: set by sl_cli_init(), read by help. */
static const struct sl_cmd *const *families;

/* One compiled instruction: the cmdline instruction and what it came from. */
struct cli_inst {
	const struct sl_cmd *cmd;
	struct sl_cli *cli;
	int nb_words;
	cmdline_parse_token_string_t tok[SL_CLI_MAX_WORDS];
	char *words[SL_CLI_MAX_WORDS];  /* fixed words ("a#b#c"), NULL for arguments */
	cmdline_parse_inst_t inst;      /* last: its tokens[] follow in memory */
};

struct cli_result {
	cmdline_fixed_string_t w[SL_CLI_MAX_WORDS];
};

static cmdline_parse_ctx_t *ctx;

void
sl_cli_error(struct sl_cli *cli, const char *fmt, ...)
{
	va_list ap;

	printf("error: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	cli->failed = true;
}

static void
cli_dispatch(void *parsed, struct cmdline *cl, void *data)
{
	struct cli_inst *ci = data;
	struct cli_result *r = parsed;
	char *argv[SL_CLI_MAX_WORDS];

	RTE_SET_USED(cl);
	for (int i = 0; i < ci->nb_words; i++)
		argv[i] = r->w[i];
	ci->cli->failed = false;
	ci->cmd->fn(ci->cli, ci->nb_words, argv);
	fflush(stdout);
}

/* Compile one syntax (with `optional` words kept or dropped) into an instruction. */
static cmdline_parse_inst_t *
cli_compile(struct sl_cli *cli, const struct sl_cmd *cmd, bool with_optional)
{
	struct cli_inst *ci;
	char buf[256], *save = NULL, *tok;
	int n = 0;

	ci = calloc(1, sizeof(*ci) + (SL_CLI_MAX_WORDS + 1) * sizeof(cmdline_parse_token_hdr_t *));
	if (ci == NULL)
		return NULL;
	ci->cmd = cmd;
	ci->cli = cli;
	snprintf(buf, sizeof(buf), "%s", cmd->syntax);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		cmdline_parse_token_string_t *t = &ci->tok[n];

		if (tok[0] == '[') {
			if (!with_optional)
				break;
			tok++;
			tok[strlen(tok) - 1] = '\0';
		}
		t->hdr.ops = &cmdline_token_string_ops;
		t->hdr.offset = offsetof(struct cli_result, w[n]);
		if (tok[0] == '<') {
			t->string_data.str = NULL; /* any one word */
		} else {
			ci->words[n] = strdup(tok);
			for (char *c = ci->words[n]; *c != '\0'; c++)
				if (*c == '|')
					*c = '#';
			t->string_data.str = ci->words[n];
		}
		ci->inst.tokens[n] = &t->hdr;
		n++;
	}
	ci->inst.tokens[n] = NULL;
	ci->nb_words = n;
	ci->inst.f = cli_dispatch;
	ci->inst.data = ci;
	ci->inst.help_str = cmd->help;
	return &ci->inst;
}

void
sl_cli_stop_run(struct sl_cli *cli)
{
	sl_session_stop(cli->app);
}

int
sl_cli_init(struct sl_cli *cli, struct sl_app *app, const struct sl_cmd *const *fams)
{
	size_t n = 0, k = 0;

	families = fams;
	memset(cli, 0, sizeof(*cli));
	cli->app = app;
	for (int f = 0; families[f] != NULL; f++)
		for (const struct sl_cmd *c = families[f]; c->syntax != NULL; c++)
			n += strchr(c->syntax, '[') != NULL ? 2 : 1;
	ctx = calloc(n + 1, sizeof(*ctx));
	if (ctx == NULL)
		return -ENOMEM;
	for (int f = 0; families[f] != NULL; f++)
		for (const struct sl_cmd *c = families[f]; c->syntax != NULL; c++) {
			if ((ctx[k++] = cli_compile(cli, c, false)) == NULL)
				return -ENOMEM;
			if (strchr(c->syntax, '[') != NULL &&
			    (ctx[k++] = cli_compile(cli, c, true)) == NULL)
				return -ENOMEM;
		}
	ctx[k] = NULL;
	return 0;
}

void
sl_cli_free(struct sl_cli *cli)
{
	if (cli->cl != NULL && cli->on_stdin)
		cmdline_stdin_exit(cli->cl); /* restores the terminal */
	else if (cli->cl != NULL)
		cmdline_free(cli->cl);
	cli->cl = NULL;
}

/* The help of every command whose syntax starts with the words given. */
void
sl_cli_help(const char *prefix)
{
	size_t len = prefix != NULL ? strlen(prefix) : 0;
	int shown = 0;

	for (int f = 0; families[f] != NULL; f++)
		for (const struct sl_cmd *c = families[f]; c->syntax != NULL; c++) {
			if (len != 0 && strncmp(c->syntax, prefix, len) != 0)
				continue;
			printf("  %-46s %s\n", c->syntax, c->help);
			shown++;
		}
	if (shown == 0)
		printf("error: no command starts with '%s' (try: help)\n", prefix);
}

void
sl_cli_reference(const struct sl_cmd *const *fams)
{
	families = fams;
	printf("# CLI reference\n\n"
	       "Generated from the command tables (`sluice -- --cli-reference`); do not edit.\n"
	       "Syntax: a plain word is typed as is, `a|b` is a choice, `<x>` an argument,\n"
	       "`[<x>]` an optional one. `<port>` is a port number or `all` where said.\n");
	for (int f = 0; families[f] != NULL; f++) {
		printf("\n## %s\n\n| command | what it does |\n|---|---|\n", families[f]->family);
		for (const struct sl_cmd *c = families[f]; c->syntax != NULL; c++)
			printf("| `%s` | %s |\n", c->syntax, c->help);
	}
}

/* Parse one line as the prompt would; returns 0, or -1 (an error was printed). */
int
sl_cli_line(struct sl_cli *cli, const char *line)
{
	char buf[SL_CLI_LINE_MAX + 2];
	int ret;

	if (strlen(line) > SL_CLI_LINE_MAX) {
		printf("error: a command line holds at most %d characters; this one has %zu\n",
		       SL_CLI_LINE_MAX, strlen(line));
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s\n", line);
	/* Lines from a file or a caller: a cmdline on no input, printing to stdout. */
	if (cli->cl == NULL && (cli->cl = cmdline_new(ctx, "", -1, STDOUT_FILENO)) == NULL) {
		printf("error: cannot build the command line (out of memory)\n");
		return -1;
	}
	cli->failed = false;
	ret = cmdline_parse(cli->cl, buf);
	if (ret == CMDLINE_PARSE_AMBIGUOUS || ret == CMDLINE_PARSE_NOMATCH ||
	    ret == CMDLINE_PARSE_BAD_ARGS) {
		printf("error: unknown command or wrong arguments: '%s' (try: help)\n", line);
		return -1;
	}
	return cli->failed ? -1 : 0;
}

/*
 * One byte of standard input that is not a terminal (a pipe, a file), read
 * here rather than by cmdline_poll() so that endless input ends: a NUL byte
 * (/dev/zero, a binary file) or a line over SL_CLI_LINE_MAX is refused with
 * one message. False when the prompt must end.
 */
static bool
cli_feed(struct sl_cli *cli, size_t *line_len)
{
	char c;
	ssize_t n = read(STDIN_FILENO, &c, 1);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false; /* end of input */
	if (c == '\0') {
		sl_err("standard input: a NUL byte: not lines of commands; the prompt ends");
		cli->app->exit_code = SL_EXIT_USAGE;
		return false;
	}
	*line_len = c == '\n' ? 0 : *line_len + 1;
	if (*line_len > SL_CLI_LINE_MAX) {
		sl_err("standard input: a line over %d characters; the prompt ends", SL_CLI_LINE_MAX);
		cli->app->exit_code = SL_EXIT_USAGE;
		return false;
	}
	return cmdline_in(cli->cl, &c, 1) >= 0;
}

void
sl_cli_interact(struct sl_cli *cli, bool auto_start)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	bool tty = isatty(STDIN_FILENO) != 0;
	size_t line_len = 0;

	sl_cli_free(cli);
	cli->cl = cmdline_stdin_new(ctx, "sluice> ");
	if (cli->cl == NULL)
		return;
	cli->on_stdin = true;
	if (auto_start)
		sl_cli_line(cli, "start");
	while (!cli->quit && !sl_quitting()) {
		int ready = poll(&pfd, 1, cli->app->running ? 0 : 50);

		if (ready > 0) {
			/* Input first: a pipe may hang up with lines still to read. */
			if (pfd.revents & POLLIN) {
				if (tty ? cmdline_poll(cli->cl) == RDLINE_EXITED
					: !cli_feed(cli, &line_len))
					break;
			} else if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) {
				break;
			}
		}
		if (cli->app->running) {
			if (!sl_session_poll(cli->app)) {
				sl_cli_stop_run(cli);
				cmdline_printf(cli->cl, "sluice> ");
			}
			rte_delay_us_sleep(200);
		}
	}
	if (cli->app->running)
		sl_cli_stop_run(cli);
	printf("\n");
}

int
sl_cli_port(struct sl_cli *cli, const char *s, bool allow_all)
{
	char *end;
	long v;

	if (allow_all && strcmp(s, "all") == 0)
		return SL_MAX_PORTS;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 0 || v >= cli->app->ports.n) {
		sl_cli_error(cli, "port '%s' does not exist: ports are 0..%u%s", s,
			     cli->app->ports.n - 1, allow_all ? " or all" : "");
		return -1;
	}
	return (int)v;
}

int
sl_cli_u64(struct sl_cli *cli, const char *what, const char *s, uint64_t min, uint64_t max,
	   uint64_t *v)
{
	char err[160];

	if (sl_parse_u64(s, min, max, v, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "%s: %s", what, err);
		return -1;
	}
	return 0;
}
