/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CLI machinery: command tables -> cmdline instructions, help, files,
 * the interactive loop (which also runs the scheduler poll and live stats
 * while traffic runs).
 */

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <cmdline_rdline.h>
#include <cmdline_socket.h>
#include <rte_cycles.h>

#include "bench.h"
#include "cli.h"
#include "worker.h"
#include "sl_loop.h"

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
	cmdline_multi_string_t rest; /* a trailing "<x...>": the rest of the line */
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
		argv[i] = ci->tok[i].string_data.str != NULL &&
			  strcmp(ci->tok[i].string_data.str, TOKEN_STRING_MULTI) == 0 ? r->rest : r->w[i];
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
		if (tok[0] == '<' && strstr(tok, "...>") != NULL) {
			/* The rest of the line, its own words split by the handler. */
			t->string_data.str = TOKEN_STRING_MULTI;
			t->hdr.offset = offsetof(struct cli_result, rest);
		} else if (tok[0] == '<') {
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

static void tty_restore(void);
static struct sl_cli *tty_cli;   /* the prompt's context, for the rdline callbacks */

void
sl_cli_free(struct sl_cli *cli)
{
	if (cli->rdl != NULL) {
		tty_restore();
		rdline_free(cli->rdl);
		cli->rdl = NULL;
		tty_cli = NULL;
	}
	if (cli->cl != NULL)
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

static void cli_help_near(const char *line);

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
		cli_help_near(line);
		fflush(stdout);
		return -1;
	}
	return cli->failed ? -1 : 0;
}

/*
 * One byte of standard input, into *c: 1, or 0 (none: a signal came), -1
 * when the prompt must end (end of input, a read error), or -2 when the
 * input was refused (a message printed). Input that is not
 * a terminal (a pipe, a file) must be lines of commands, so that endless
 * input ends: a NUL byte (/dev/zero, a binary file) or a line over
 * SL_CLI_LINE_MAX is refused with one message.
 */
static int
cli_getc(struct sl_cli *cli, bool tty, size_t *line_len, char *c)
{
	ssize_t n = read(STDIN_FILENO, c, 1);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n == 0)
		return -1; /* end of input */
	if (tty)
		return 1;
	if (*c == '\0') {
		sl_err("standard input: a NUL byte: not lines of commands; the prompt ends");
		cli->app->exit_code = SL_EXIT_USAGE;
		return -2;
	}
	*line_len = *c == '\n' ? 0 : *line_len + 1;
	if (*line_len > SL_CLI_LINE_MAX) {
		sl_err("standard input: a line over %d characters; the prompt ends", SL_CLI_LINE_MAX);
		cli->app->exit_code = SL_EXIT_USAGE;
		return -2;
	}
	return 1;
}

/*
 * The interactive prompt is DPDK's rdline (history, editing keys) with our
 * own validate and complete callbacks: a bad line gets the same message as
 * in a --cmdline-file plus the help of the commands it resembles, and tab
 * completion comes from the command tables (each word once, arguments by
 * name). The terminal is put in raw mode as cmdline_stdin_new() does, ISIG
 * kept: Ctrl-C is a signal, and at the prompt it stops the run or the
 * benchmark in progress, not the program. Ctrl-D on an empty line quits.
 */
static struct termios tty_saved;
static bool tty_raw;
static struct sigaction sigint_saved;

static int
tty_write_char(struct rdline *rdl, char c)
{
	RTE_SET_USED(rdl);
	return write(STDOUT_FILENO, &c, 1) == 1 ? 0 : -1;
}

static void
tty_on_sigint(int sig)
{
	RTE_SET_USED(sig);
	sl_run_interrupt();
	/* The loop wakes up at once (its self-pipe) and says so, or ends the run. */
	if (tty_cli != NULL && tty_cli->app->loop != NULL)
		sl_loop_notify(tty_cli->app->loop);
}

/* The help lines of the commands whose syntax starts with the line's first words. */
static void
cli_help_near(const char *line)
{
	char words[2][64] = { "", "" }, prefix[160];

	if (sscanf(line, "%63s %63s", words[0], words[1]) < 1)
		return;
	for (int n = 2; n >= 1; n--) {
		bool any = false;

		snprintf(prefix, sizeof(prefix), "%s%s%s", words[0], n == 2 ? " " : "",
			 n == 2 ? words[1] : "");
		if (n == 2 && words[1][0] == '\0')
			continue;
		for (int f = 0; families[f] != NULL && !any; f++)
			for (const struct sl_cmd *c = families[f]; c->syntax != NULL; c++)
				any |= strncmp(c->syntax, prefix, strlen(prefix)) == 0 &&
				       (c->syntax[strlen(prefix)] == ' ' ||
					c->syntax[strlen(prefix)] == '\0');
		if (any) {
			sl_cli_help(prefix);
			return;
		}
	}
}

/* Run one line typed at the prompt (blanks trimmed; empty and # lines skipped). */
static void
cli_run_typed(struct sl_cli *cli, const char *buf)
{
	char line[SL_CLI_LINE_MAX + 2];
	char *s = line, *e;

	snprintf(line, sizeof(line), "%s", buf);
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (*s == '\0' || *s == '#')
		return;
	/* A Ctrl-C at rest is forgotten; one that is stopping a run or a benchmark is not. */
	if (!cli->app->ses.running && !sl_bench_busy())
		sl_run_intr_take();
	sl_cli_line(cli, s);
	/* A Ctrl-C that ended this command (a bench in a script) has done its work. */
	if (!cli->app->ses.running && !sl_bench_busy())
		sl_run_intr_take();
}

static void
tty_validate(struct rdline *rdl, const char *buf, unsigned int size)
{
	RTE_SET_USED(rdl);
	RTE_SET_USED(size);
	cli_run_typed(tty_cli, buf);
}

/* The words of a line, split at blanks; the last one may be partial. */
static int
split_words(char *buf, char **w, int max)
{
	int n = 0;

	for (char *t = strtok(buf, " \t"); t != NULL && n < max; t = strtok(NULL, " \t"))
		w[n++] = t;
	return n;
}

/* Does word `typed` match syntax token `tok` (a word, a|b|c, <arg> or [<arg>])? */
static bool
token_match(const char *tok, const char *typed, size_t len, bool whole)
{
	const char *p = tok;

	if (tok[0] == '<' || tok[0] == '[')
		return true;
	while (*p != '\0') {
		size_t n = strcspn(p, "|");

		if ((whole ? n == len : n >= len) && strncmp(p, typed, len) == 0)
			return true;
		p += n + (p[n] == '|');
	}
	return false;
}

#define SL_CLI_MAX_CHOICES 64

struct choices {
	int n;
	char word[SL_CLI_MAX_CHOICES][48];
	char help[SL_CLI_MAX_CHOICES][160];
	bool arg[SL_CLI_MAX_CHOICES];
};

static void
choice_add(struct choices *ch, const char *word, size_t len, bool arg, const char *help)
{
	for (int i = 0; i < ch->n; i++)
		if (strlen(ch->word[i]) == len && strncmp(ch->word[i], word, len) == 0) {
			if (strcmp(ch->help[i], help) != 0)
				ch->help[i][0] = '\0'; /* a word several commands share */
			return;
		}
	if (ch->n == SL_CLI_MAX_CHOICES)
		return;
	snprintf(ch->word[ch->n], sizeof(ch->word[0]), "%.*s", (int)len, word);
	snprintf(ch->help[ch->n], sizeof(ch->help[0]), "%s", help);
	ch->arg[ch->n++] = arg;
}

/* What may come next after the words typed (the last one partial, "" after a blank). */
static void
choices_get(const char *buf, struct choices *ch)
{
	char copy[1024], *w[SL_CLI_MAX_WORDS + 1];
	int nw;
	bool trailing = buf[0] != '\0' && isspace((unsigned char)buf[strlen(buf) - 1]);
	const char *partial;

	memset(ch, 0, sizeof(*ch));
	snprintf(copy, sizeof(copy), "%s", buf);
	nw = split_words(copy, w, SL_CLI_MAX_WORDS + 1);
	if (trailing || nw == 0)
		partial = "";
	else
		partial = w[--nw];
	for (int f = 0; families[f] != NULL; f++)
		for (const struct sl_cmd *c = families[f]; c->syntax != NULL; c++) {
			char syn[256], *t[SL_CLI_MAX_WORDS + 1];
			int nt, k;

			snprintf(syn, sizeof(syn), "%s", c->syntax);
			nt = split_words(syn, t, SL_CLI_MAX_WORDS + 1);
			for (k = 0; k < nw && k < nt; k++)
				if (!token_match(t[k], w[k], strlen(w[k]), true))
					break;
			if (k < nw)
				continue;
			if (nw == nt || (nw < nt && t[nw][0] == '[' && partial[0] == '\0')) {
				if (partial[0] == '\0')
					choice_add(ch, "<return>", 8, true, c->help);
				if (nw == nt)
					continue;
			}
			if (t[nw][0] == '<' || t[nw][0] == '[') {
				const char *a = t[nw] + (t[nw][0] == '[');

				choice_add(ch, a, strcspn(a, "]"), true, c->help);
				continue;
			}
			for (const char *p = t[nw]; *p != '\0';) {
				size_t n = strcspn(p, "|");

				if (n >= strlen(partial) && strncmp(p, partial, strlen(partial)) == 0)
					choice_add(ch, p, n, false, c->help);
				p += n + (p[n] == '|');
			}
		}
}

/*
 * rdline's complete callback (cmdline_complete()'s contract): *state 0 asks
 * to complete, -1 to list; return 2 with the characters to add, or 1 per
 * choice listed (the state carries on) and 0 after the last.
 */
static int
tty_complete(struct rdline *rdl, const char *buf, char *dst, unsigned int size, int *state)
{
	struct choices ch;
	const char *partial = strrchr(buf, ' ');
	size_t plen;
	int words = 0, idx;

	RTE_SET_USED(rdl);
	partial = partial != NULL ? partial + 1 : buf;
	plen = strlen(partial);
	choices_get(buf, &ch);
	for (int i = 0; i < ch.n; i++)
		words += !ch.arg[i];
	if (*state == 0 && words != 0 && words == ch.n) {
		/* Only words: add what they share (and a blank when there is one). */
		size_t common = strlen(ch.word[0]);

		for (int i = 1; i < ch.n; i++)
			for (size_t k = 0; k < common; k++)
				if (ch.word[i][k] != ch.word[0][k]) {
					common = k;
					break;
				}
		if (common > plen || ch.n == 1) {
			snprintf(dst, size, "%.*s%s", (int)(common - plen), ch.word[0] + plen,
				 ch.n == 1 ? " " : "");
			return CMDLINE_PARSE_COMPLETED_BUFFER;
		}
	}
	if (*state <= 0)
		*state = 1;
	idx = *state - 1;
	if (idx >= ch.n)
		return CMDLINE_PARSE_COMPLETE_FINISHED;
	(*state)++;
	snprintf(dst, size, "%-22s %s", ch.word[idx], ch.help[idx]);
	return CMDLINE_PARSE_COMPLETE_AGAIN;
}

static void
tty_restore(void)
{
	if (tty_raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &tty_saved);
	tty_raw = false;
}

/* Output that arrives while the user may be typing: clear the line, then redraw it. */
static void
tty_output(struct sl_app *app, bool begin)
{
	RTE_SET_USED(app);
	if (tty_cli == NULL || tty_cli->rdl == NULL)
		return;
	if (begin) {
		if (write(STDOUT_FILENO, "\r\033[K", 4) < 0)
			return;
	} else {
		fflush(stdout);
		rdline_redisplay(tty_cli->rdl);
	}
}

/*
 * Ctrl-C at the prompt drops the line being typed, as a shell does: the
 * line stays on the screen with ^C after it; the caller prints its note and
 * a fresh, empty prompt (rdline_newline()).
 */
static void
tty_cancel_line(struct sl_cli *cli)
{
	if (cli->rdl == NULL)
		return;
	if (write(STDOUT_FILENO, "^C\r\n", 4) < 0)
		return;
}

/*
 * Input that is not a terminal (a pipe, a file): whole lines, each echoed
 * after the prompt and run as a --cmdline-file's line would be, without
 * rdline: its 512-byte buffer would cut a longer line and its editing keys
 * would act on control bytes (TAB, ^A, ^D, DEL, ESC) that are the line's
 * own. 1: the byte was taken; 0: the line ends the prompt (quit).
 */
static int
pipe_take(struct sl_cli *cli, char c, char *line, size_t *len)
{
	if (c != '\n') {
		line[(*len)++] = c; /* cli_getc() bounds the line to SL_CLI_LINE_MAX */
		return 1;
	}
	line[*len] = '\0';
	*len = 0;
	printf("sluice> %s\n", line);
	fflush(stdout); /* before what the command prints on stderr */
	cli_run_typed(cli, line);
	fflush(stdout);
	return !cli->quit;
}

/*
 * The end of input, as a file's end: a last line without its newline is
 * run all the same, and a run in progress goes on to its own end (duration,
 * count, or a signal) before the prompt ends.
 */
static void
pipe_end(struct sl_cli *cli, char *line, size_t *len)
{
	cli->eof = true; /* the loop goes on until the run in progress ends */
	if (*len > 0 && !pipe_take(cli, '\n', line, len))
		return; /* quit */
}

/* The terminal in raw mode (no echo, no line discipline; ISIG kept) and rdline on it. */
static int
tty_open(struct sl_cli *cli)
{
	struct sigaction sa = { .sa_handler = tty_on_sigint };
	struct termios raw;

	cli->rdl = rdline_new(tty_write_char, tty_validate, tty_complete, cli);
	if (cli->rdl == NULL)
		return -1;
	tty_cli = cli;
	if (tcgetattr(STDIN_FILENO, &tty_saved) == 0) {
		raw = tty_saved;
		raw.c_lflag &= ~(ICANON | ECHO | IEXTEN);
		tty_raw = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
	}
	/* Ctrl-C at a terminal stops the run, not the program. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &sigint_saved);
	cli->app->output_hook = tty_output;
	return 0;
}

/* The prompt's state on the loop (one prompt at a time). */
static struct {
	bool tty;
	char line[SL_CLI_LINE_MAX + 1];
	size_t line_len, pipe_len;
} P;

static void cli_stdin(struct sl_loop *l, int fd, unsigned int events, void *arg);

/* A run started at the prompt (start, -a) is done: stop it, say why if Ctrl-C did. */
static void
cli_run_end(struct sl_app *app, void *arg)
{
	struct sl_cli *cli = arg;
	bool intr = sl_run_intr_take();
	bool tty = cli->rdl != NULL;

	if (intr && tty)
		tty_cancel_line(cli);
	else
		tty_output(app, true);
	if (intr)
		printf("(Ctrl-C: run stopped; quit, exit or Ctrl-D leaves)\n");
	sl_cli_stop_run(cli);
	if (intr && tty)
		rdline_newline(cli->rdl, "sluice> ");
	else
		tty_output(app, false);
}

void
sl_cli_started(struct sl_cli *cli)
{
	if (cli->app->ses.running)
		sl_session_on_end(cli->app, cli_run_end, cli);
}

/* The benchmark started at the terminal has ended (its report printed). */
static void
cli_bench_done(struct sl_app *app, int code, void *arg)
{
	struct sl_cli *cli = arg;

	sl_run_intr_take(); /* a stop or Ctrl-C has done its work */
	/* As a benchmark run from a script says it (cli_bench.c). */
	if (code == SL_EXIT_USAGE) {
		sl_cli_error(cli, "bench: not started (see the message above)");
	} else if (code != SL_EXIT_OK) {
		if (app->exit_code == SL_EXIT_OK)
			app->exit_code = code;
		sl_cli_error(cli, "bench: failed (see the message above)");
	}
}

int
sl_cli_bench(struct sl_cli *cli, const struct sl_bench_conf *bc)
{
	/* At the terminal it runs on the loop and the prompt answers meanwhile. */
	if (cli->async)
		return sl_bench_start(cli->app, bc, cli_bench_done, cli);
	/*
	 * In a script (a profile, piped input) the next line waits for its end,
	 * as after a start in a file: standard input is off the loop while a
	 * piped line runs (cli_stdin()), so nothing is read meanwhile.
	 */
	return sl_bench_run(cli->app, bc);
}

/* Ctrl-C at rest: a note; while a run or a benchmark goes, the tick ends them. */
static void
cli_notify(struct sl_loop *l, void *arg)
{
	struct sl_cli *cli = arg;

	RTE_SET_USED(l);
	if (cli->app->ses.running || sl_bench_busy())
		return;
	if (!sl_run_intr_take())
		return;
	if (cli->rdl != NULL)
		tty_cancel_line(cli);
	printf("(Ctrl-C stops a run or a benchmark; quit, exit or Ctrl-D leaves)\n");
	fflush(stdout);
	if (cli->rdl != NULL)
		rdline_newline(cli->rdl, "sluice> ");
}

/* Standard input is ready: one byte (the loop comes back while more is there). */
static void
cli_stdin(struct sl_loop *l, int fd, unsigned int events, void *arg)
{
	struct sl_cli *cli = arg;
	char c;
	int ret;

	RTE_SET_USED(events);
	ret = cli_getc(cli, P.tty, &P.line_len, &c);
	if (ret < 0) {
		sl_loop_file_del(l, fd);
		if (!P.tty && ret == -1)
			pipe_end(cli, P.line, &P.pipe_len);
		if (P.tty || ret != -1)
			cli->quit = true;
		cli->eof = true;
		return;
	}
	if (ret == 0)
		return;
	if (!P.tty) {
		/*
		 * A line runs with standard input off the loop: a bench in it runs
		 * the loop until its end, and must not read the next line meanwhile.
		 */
		if (c == '\n')
			sl_loop_file_del(l, fd);
		if (!pipe_take(cli, c, P.line, &P.pipe_len))
			cli->quit = true;
		else if (c == '\n' && !cli->eof)
			sl_loop_file_add(l, fd, SL_LOOP_READ, cli_stdin, cli);
		return;
	}
	ret = rdline_char_in(cli->rdl, c);
	if (ret == RDLINE_RES_VALIDATED) {
		const char *typed = rdline_get_buffer(cli->rdl);
		const char *last = rdline_get_history_item(cli->rdl, 0);

		if (strlen(typed) > 1 && (last == NULL || strcmp(last, typed) != 0))
			rdline_add_history(cli->rdl, typed);
		fflush(stdout);
		if (!cli->quit)
			rdline_newline(cli->rdl, "sluice> ");
	} else if (ret == RDLINE_RES_EOF || ret == RDLINE_RES_EXITED) {
		cli->quit = true; /* Ctrl-D on an empty line */
	}
}

/* The prompt is over: quit, a signal, or the end of input once nothing runs. */
static bool
cli_over(void *arg)
{
	const struct sl_cli *cli = arg;

	if (sl_bench_busy()) {
		/* Quit or a signal: the benchmark ends first, with its partial report. */
		if (cli->quit || sl_quitting())
			sl_bench_stop();
		return false;
	}
	return cli->quit || sl_quitting() || (cli->eof && !cli->app->ses.running);
}

void
sl_cli_interact(struct sl_cli *cli, bool auto_start)
{
	struct sl_loop *l = cli->app->loop;

	P.tty = isatty(STDIN_FILENO) != 0;
	P.line_len = P.pipe_len = 0;
	cli->eof = false;
	if (cli->cl == NULL)
		cli->cl = cmdline_new(ctx, "", -1, STDOUT_FILENO);
	if (l == NULL || cli->cl == NULL || (P.tty && tty_open(cli) != 0))
		return;
	cli->async = P.tty;
	if (auto_start)
		sl_cli_line(cli, "start");
	fflush(stdout);
	if (P.tty)
		rdline_newline(cli->rdl, "sluice> ");
	/*
	 * The main lcore's loop: standard input (a byte per turn, typed or
	 * piped, read as fast as it comes), the run's turn (session.c's timer,
	 * every SL_SESSION_POLL_US while running), a benchmark's trials, and
	 * Ctrl-C through the self-pipe.
	 */
	sl_loop_on_notify(l, cli_notify, cli);
	sl_loop_file_add(l, STDIN_FILENO, SL_LOOP_READ, cli_stdin, cli);
	while (!cli_over(cli))
		sl_loop_run(l, cli_over, cli);
	sl_loop_file_del(l, STDIN_FILENO);
	sl_loop_on_notify(l, NULL, NULL);
	cli->async = false;
	if (cli->app->ses.running)
		sl_cli_stop_run(cli);
	if (P.tty) {
		cli->app->output_hook = NULL;
		sigaction(SIGINT, &sigint_saved, NULL);
	}
	printf("\n");
}

int
sl_cli_port(struct sl_cli *cli, const char *s, bool allow_all)
{
	char err[160];
	uint16_t v;

	if (allow_all && strcmp(s, "all") == 0)
		return SL_MAX_PORTS;
	if (sl_config_port_parse(s, cli->app->ports.n, &v, err, sizeof(err)) != 0) {
		sl_cli_error(cli, "%s%s", err, allow_all ? " or all" : "");
		return -1;
	}
	return v;
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

/*
 * A configuration's check names the setting at fault as its option
 * (struct sl_config_err's opt: "--size"); at the prompt the command that
 * sets it is named instead ("" if none does).
 */
const char *
sl_cli_opt_cmd(const char *opt)
{
	static const char *const names[][2] = {
		{ "--size", "set size" }, { "--flows", "set flows" }, { "--field", "set field" },
		{ "--vlan", "set vlan" }, { "--mtu", "port config mtu" }, { "--tx-ip", "set tx-ip" },
		{ "--tx-udp", "set tx-udp" }, { "--eth-peer", "set eth-peer" },
	};

	for (unsigned int i = 0; opt != NULL && i < RTE_DIM(names); i++)
		if (strcmp(opt, names[i][0]) == 0)
			return names[i][1];
	return "";
}
