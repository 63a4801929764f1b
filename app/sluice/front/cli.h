/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_CLI_H
#define SL_CLI_H

/*
 * The testpmd-style prompt, on DPDK's cmdline library.
 *
 * Every command is declared once, in a table of struct sl_cmd: a syntax
 * string, a handler and a help line. The syntax string is compiled into
 * cmdline instructions at start: a plain word is a fixed token (and tab
 * completion completes it), "a|b|c" is a choice of fixed words, "<name>" is
 * an argument, and a trailing "[<name>]" makes the argument optional (two
 * instructions). `help` is generated from the same table, and so is
 * docs/cli.md (sluice -- --cli-reference).
 *
 * A handler gets the words of the line; it checks every argument before it
 * changes anything, and on bad input prints one "error: ..." line and
 * changes nothing.
 */

#include <stdbool.h>

#include <cmdline.h>

#include "parse.h"
#include "report.h"
#include "session.h"
#include "sl_err.h"

#define SL_CLI_MAX_WORDS 8
/* What a command line and a profile (--cmdline-file) may hold (docs/reliability.md). */
#define SL_CLI_LINE_MAX 1000
#define SL_CLI_FILE_MAX (1 << 20)

struct sl_cli;

struct sl_cmd {
	const char *syntax;
	void (*fn)(struct sl_cli *cli, int argc, char **argv);
	const char *help;
	const char *family; /* for help and docs: show, set, port, run */
};

struct sl_cli {
	struct sl_app *app;
	struct cmdline *cl;     /* parses lines (cmdline_parse) */
	struct rdline *rdl;     /* the prompt's line editor (sl_cli_interact), or NULL */
	bool quit;
	bool failed;        /* the last command printed an error */
	bool async;         /* at a terminal: a benchmark runs on the loop, the prompt answers */
	bool eof;           /* standard input ended: the prompt ends once nothing runs */
};

struct sl_bench_conf;

/* The tables, one per command family (cli_*.c), NULL-terminated. */
extern const struct sl_cmd sl_cmds_show[];
extern const struct sl_cmd sl_cmds_set[];
extern const struct sl_cmd sl_cmds_flow[];
extern const struct sl_cmd sl_cmds_device[];
extern const struct sl_cmd sl_cmds_port[];
extern const struct sl_cmd sl_cmds_run[];
extern const struct sl_cmd sl_cmds_bench[];
/* Every family, in help order, NULL-terminated (cli_families.c). */
extern const struct sl_cmd *const sl_cli_families[];

/* Print one error line; the command changes nothing. */
void sl_cli_error(struct sl_cli *cli, const char *fmt, ...) __rte_format_printf(2, 3);
/*
 * A configuration check's error names the setting at fault by its option
 * (sl_config_err.opt, "--size"): the prompt's command for it ("set size"),
 * or "" when no command sets it.
 */
const char *sl_cli_opt_cmd(const char *opt);

/* Build the context. Returns 0 or -ENOMEM. */
int sl_cli_init(struct sl_cli *cli, struct sl_app *app, const struct sl_cmd *const *families);
/*
 * Run the commands of a file (cli_file.c). The whole file is read and checked
 * first: at most SL_CLI_FILE_MAX bytes, lines of at most SL_CLI_LINE_MAX
 * characters, no NUL byte; an endless source (/dev/zero, a FIFO fed forever)
 * ends in one error, and SIGINT/SIGTERM end the wait for a silent one. Then
 * the lines run in order and the first that fails stops it (file:line
 * named). Returns 0 or -1 (one message printed; nothing ran if the file was
 * refused).
 */
int sl_cli_file(struct sl_cli *cli, const char *path);
/* The same for a text already in memory (name: for the messages). */
int sl_cli_text(struct sl_cli *cli, const char *name, char *text, size_t len);
/* The interactive prompt, until quit (or EOF, or a signal); start first if asked. */
void sl_cli_interact(struct sl_cli *cli, bool auto_start);
/* Stop the run: sl_session_stop() (summary, JSON; its exit code is kept in the app). */
void sl_cli_stop_run(struct sl_cli *cli);
/* After a start from a command: the loop stops the run at its end, with its summary. */
void sl_cli_started(struct sl_cli *cli);
/*
 * Run a benchmark from a command: at a terminal it starts and the prompt
 * answers while it runs (0, or the exit code of a refusal); in a profile
 * or piped input it runs to its end (its exit code).
 */
int sl_cli_bench(struct sl_cli *cli, const struct sl_bench_conf *bc);
/* The help of every command whose syntax starts with prefix (NULL: all). */
void sl_cli_help(const char *prefix);
/* Run one command line; 0, or -1 when it failed (an error line was printed). */
int sl_cli_line(struct sl_cli *cli, const char *line);
/* Print the command reference (Markdown) generated from the tables. */
void sl_cli_reference(const struct sl_cmd *const *families);
void sl_cli_free(struct sl_cli *cli);

/* Shared parsers for handlers: -1 and an error line on bad input. */
int sl_cli_port(struct sl_cli *cli, const char *s, bool allow_all);
int sl_cli_u64(struct sl_cli *cli, const char *what, const char *s, uint64_t min, uint64_t max,
	       uint64_t *v);

#endif /* SL_CLI_H */
