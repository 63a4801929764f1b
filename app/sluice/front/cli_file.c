/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --cmdline-file: a profile is read whole and checked before any of its
 * lines runs, so a file that is not a profile (binary, endless, huge) is
 * refused with one message and changes nothing.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cli.h"
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

/*
 * Read the whole source into *bufp (grown as needed, up to SL_CLI_FILE_MAX
 * + 1 bytes; the caller frees it). Never blocks without looking at the quit
 * flag: the descriptor is non-blocking and polled (a FIFO may have no writer
 * yet, or one that never writes). Returns the length, or -1 with one
 * message printed.
 */
static ssize_t
file_read(const char *path, char **bufp)
{
	struct pollfd pfd = { .events = POLLIN };
	size_t n = 0, cap = 0;
	char *buf = NULL;
	int waited = 0;
	struct stat st;

	pfd.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (pfd.fd < 0) {
		sl_err("--cmdline-file %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(pfd.fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		sl_err("--cmdline-file %s: is a directory; give a file of commands", path);
		goto err;
	}
	if (fstat(pfd.fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > SL_CLI_FILE_MAX) {
		sl_err("--cmdline-file %s: %lld bytes; a profile holds at most %d (1 MiB) of "
		       "commands", path, (long long)st.st_size, SL_CLI_FILE_MAX);
		goto err;
	}
	while (n <= SL_CLI_FILE_MAX) {
		ssize_t r;
		int ready = poll(&pfd, 1, 100);

		if (sl_quitting()) {
			/* The user's signal ends the program, cleanly, as at any other moment. */
			sl_err("--cmdline-file %s: interrupted by a signal while reading; nothing "
			       "was run", path);
			close(pfd.fd);
			return 0;
		}
		if (ready == 0) {
			waited += 100;
			if (waited == WAIT_NOTE_MS)
				sl_err("--cmdline-file %s: waiting for input (a FIFO nobody writes?); "
				       "Ctrl-C ends the wait", path);
			continue;
		}
		if (ready < 0 && errno != EINTR) {
			sl_err("--cmdline-file %s: %s", path, strerror(errno));
			goto err;
		}
		if (ready < 0 || !(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if (n == cap) {
			size_t ncap = cap == 0 ? 4096 : RTE_MIN(cap * 2, (size_t)SL_CLI_FILE_MAX + 1);
			char *nb = realloc(buf, ncap);

			if (nb == NULL) {
				sl_err("--cmdline-file %s: out of memory", path);
				goto err;
			}
			buf = nb;
			cap = ncap;
			*bufp = buf;
		}
		r = read(pfd.fd, buf + n, cap - n);
		if (r == 0)
			break;
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r < 0) {
			sl_err("--cmdline-file %s: %s", path, strerror(errno));
			goto err;
		}
		n += (size_t)r;
	}
	close(pfd.fd);
	if (n > SL_CLI_FILE_MAX) {
		sl_err("--cmdline-file %s: more than %d bytes (1 MiB), the most a profile holds: "
		       "an endless source (/dev/zero, a pipe fed forever)? Give a file of commands",
		       path, SL_CLI_FILE_MAX);
		return -1;
	}
	return (ssize_t)n;
err:
	close(pfd.fd);
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

	n = file_read(path, &buf);
	if (n == 0)
		ret = 0; /* an empty file: nothing to run */
	else if (n > 0)
		ret = sl_cli_text(cli, path, buf, (size_t)n);
	free(buf);
	return ret;
}
