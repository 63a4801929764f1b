/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --cmdline-file: a profile is read whole and checked before any of its
 * lines runs, so a file that is not a profile (binary, endless, huge) is
 * refused with one message and changes nothing.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cli.h"
#include "sl_loop.h"
#include "worker.h"

/* A silent source (a FIFO nobody writes) gets one note after this long. */
#define WAIT_NOTE_MS 2000

/* The 1-based line of text[off]. */
static unsigned int
line_of(const char *text, size_t off)
{
	unsigned int no = 1;

	for (size_t i = 0; i < off; i++)
		no += text[i] == '\n';
	return no;
}

/* A source being read on the loop (file_read()). */
struct file_rd {
	const char *path;
	long note;                   /* the silence's timer, until it has spoken */
	int fd;
	char *buf;
	size_t n, cap;
	bool eof, failed;
};

/* The source is readable (or hung up): take what it has, without blocking. */
static void
file_ready(struct sl_loop *l, int fd, unsigned int events, void *arg)
{
	struct file_rd *rd = arg;

	RTE_SET_USED(events);
	while (!rd->eof && !rd->failed && rd->n <= SL_CLI_FILE_MAX) {
		ssize_t r;

		if (rd->n == rd->cap) {
			size_t ncap = rd->cap == 0 ? 4096 :
				      RTE_MIN(rd->cap * 2, (size_t)SL_CLI_FILE_MAX + 1);
			char *nb = realloc(rd->buf, ncap);

			if (nb == NULL) {
				sl_err("--cmdline-file %s: out of memory", rd->path);
				rd->failed = true;
				return;
			}
			rd->buf = nb;
			rd->cap = ncap;
		}
		r = read(fd, rd->buf + rd->n, rd->cap - rd->n);
		if (r == 0) {
			rd->eof = true;
		} else if (r < 0 && errno == EINTR) {
			continue;
		} else if (r < 0 && errno == EAGAIN) {
			return; /* all there is for now: the loop says when there is more */
		} else if (r < 0) {
			sl_err("--cmdline-file %s: %s", rd->path, strerror(errno));
			rd->failed = true;
		} else {
			rd->n += (size_t)r;
			if (rd->note > 0) /* it spoke: the silence counts again from now */
				sl_loop_timer_set(l, rd->note, WAIT_NOTE_MS * 1000ull);
		}
	}
}

/* A source silent for WAIT_NOTE_MS (a FIFO nobody writes, or a writer that stalled): one note. */
static int64_t
file_silent(struct sl_loop *l, void *arg)
{
	struct file_rd *rd = arg;

	RTE_SET_USED(l);
	sl_err("--cmdline-file %s: waiting for input (a FIFO nobody writes?); "
	       "Ctrl-C ends the wait", rd->path);
	rd->note = -1; /* once */
	return SL_LOOP_NOMORE;
}

static bool
file_until(void *arg)
{
	const struct file_rd *rd = arg;

	return rd->eof || rd->failed || rd->n > SL_CLI_FILE_MAX || sl_quitting();
}

/*
 * Read the whole source into *bufp (up to SL_CLI_FILE_MAX + 1 bytes; the
 * caller frees it). The descriptor is non-blocking and read as the main
 * lcore's loop says it is ready (a FIFO may have no writer yet, or one
 * that never writes), so a signal ends the wait as at any other moment.
 * Returns the length, or -1 with one message printed.
 */
static ssize_t
file_read(struct sl_cli *cli, const char *path, char **bufp)
{
	struct file_rd rd = { .path = path, .note = -1 };
	struct sl_loop *own = NULL, *l = cli->app->loop;
	struct stat st;

	rd.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rd.fd < 0) {
		sl_err("--cmdline-file %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(rd.fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		sl_err("--cmdline-file %s: is a directory; give a file of commands", path);
		goto err;
	}
	if (fstat(rd.fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > SL_CLI_FILE_MAX) {
		sl_err("--cmdline-file %s: %lld bytes; a profile holds at most %d (1 MiB) of "
		       "commands", path, (long long)st.st_size, SL_CLI_FILE_MAX);
		goto err;
	}
	/* A harness without the program's loop gets one of its own: the same loop, not a poll of ours. */
	if (l == NULL && (l = own = sl_loop_create()) == NULL) {
		sl_err("--cmdline-file %s: %s", path, strerror(errno));
		goto err;
	}
	if (sl_loop_file_add(l, rd.fd, SL_LOOP_READ, file_ready, &rd) != 0 ||
	    (rd.note = sl_loop_timer_add(l, WAIT_NOTE_MS * 1000ull, file_silent, &rd)) < 0) {
		sl_err("--cmdline-file %s: the loop watches too much already", path);
		rd.failed = true;
	} else {
		sl_loop_run(l, file_until, &rd);
	}
	if (rd.note > 0)
		sl_loop_timer_del(l, rd.note);
	sl_loop_file_del(l, rd.fd);
	sl_loop_free(own);
	close(rd.fd);
	*bufp = rd.buf;
	if (rd.failed)
		return -1;
	if (!rd.eof && rd.n <= SL_CLI_FILE_MAX) {
		/* The user's signal (or the loop's stop) ends the wait, cleanly. */
		sl_err("--cmdline-file %s: interrupted by a signal while reading; nothing "
		       "was run", path);
		return 0;
	}
	if (rd.n > SL_CLI_FILE_MAX) {
		sl_err("--cmdline-file %s: more than %d bytes (1 MiB), the most a profile holds: "
		       "an endless source (/dev/zero, a pipe fed forever)? Give a file of commands",
		       path, SL_CLI_FILE_MAX);
		return -1;
	}
	return (ssize_t)rd.n;
err:
	close(rd.fd);
	return -1;
}

/* Refuse a text that is not lines of commands: a NUL byte, a line too long. */
static int
text_check(const char *name, const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);
	size_t start = 0;

	if (nul != NULL) {
		sl_err("%s:%u: a NUL byte: not a text file (a profile is lines of commands)", name,
		       line_of(text, (size_t)(nul - text)));
		return -1;
	}
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i - start > SL_CLI_LINE_MAX) {
			sl_err("%s:%u: %zu characters; a line holds at most %d", name,
			       line_of(text, start), i - start, SL_CLI_LINE_MAX);
			return -1;
		}
		start = i + 1;
	}
	return 0;
}

int
sl_cli_text(struct sl_cli *cli, const char *name, char *text, size_t len)
{
	unsigned int no = 0;
	char *next = text, *end = text + len;

	if (text_check(name, text, len) != 0)
		return -1;
	while (next < end) {
		char *s = next, *e = memchr(next, '\n', (size_t)(end - next));

		if (e == NULL)
			e = end;
		next = e + 1;
		no++;
		*e = '\0';
		while (isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (*s == '\0' || *s == '#')
			continue;
		/* A signal ends the file where it is, as the end of the file would. */
		if (sl_quitting())
			break;
		if (sl_cli_line(cli, s) != 0) {
			if (sl_quitting())
				break; /* refused because a signal came meanwhile: not the file's fault */
			sl_err("%s:%u: '%s' failed; the file stops here", name, no, s);
			return -1;
		}
		/* A `start` in a file runs to its end (duration, count, or a signal). */
		if (cli->app->ses.running) {
			sl_session_wait(cli->app);
			sl_cli_stop_run(cli);
		}
		if (cli->quit || sl_quitting())
			break;
	}
	return 0;
}

int
sl_cli_file(struct sl_cli *cli, const char *path)
{
	char *buf = NULL;
	ssize_t n;
	int ret = -1;

	n = file_read(cli, path, &buf);
	if (n == 0)
		ret = 0; /* an empty file: nothing to run */
	else if (n > 0)
		ret = sl_cli_text(cli, path, buf, (size_t)n);
	free(buf);
	return ret;
}
