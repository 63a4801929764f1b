/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one-path HTTP server (sl_http.h): one control thread, poll() over the
 * listening socket, a wake-up pipe and up to SL_HTTP_CONN_MAX non-blocking
 * connections. A connection reads its request head, gets one answer, and is
 * closed once the answer is written (or at its deadline).
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* accept4, pipe2, asprintf */
#endif
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "sl_http.h"

struct conn {
	int fd;               /* -1: free slot */
	bool writing;         /* the answer is made; in[] is no longer read */
	uint64_t deadline_ms;
	size_t in_len;
	char in[SL_HTTP_HEAD_MAX];
	char *out;
	size_t out_len, out_off;
};

struct sl_http {
	struct sl_http_conf c;
	char path[128];
	int lfd;
	int wake[2];          /* a byte on wake[1] ends the thread */
	uint16_t port;
	pthread_t th;
	uint64_t accept_pause_ms; /* the listening socket is not polled before this */
	struct sl_http_stats st;
	struct conn conns[SL_HTTP_CONN_MAX];
	struct pollfd pfd[SL_HTTP_CONN_MAX + 2];
};

#define STAT_INC(h, f) __atomic_store_n(&(h)->st.f, (h)->st.f + 1, __ATOMIC_RELAXED)

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
conn_close(struct conn *k)
{
	close(k->fd);
	free(k->out);
	k->fd = -1;
	k->out = NULL;
	k->writing = false;
	k->in_len = 0;
	k->out_len = k->out_off = 0;
}

/* Send what is left of the answer; close once it is all out (or on error). */
static void
conn_flush(struct conn *k)
{
	while (k->out_off < k->out_len) {
		ssize_t n = send(k->fd, k->out + k->out_off, k->out_len - k->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return; /* POLLOUT will bring us back */
		if (n <= 0) {
			conn_close(k);
			return;
		}
		k->out_off += (size_t)n;
	}
	shutdown(k->fd, SHUT_WR);
	conn_close(k);
}

/* Queue an answer: status line, headers, then the body (owned: freed here). */
static void
conn_answer(struct conn *k, const char *status, const char *ctype, const char *extra,
	    char *body, size_t blen)
{
	char head[512];
	int hl = snprintf(head, sizeof(head),
			  "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
			  "Connection: close\r\n\r\n", status, ctype, blen, extra);

	k->out = malloc((size_t)hl + blen);
	if (k->out == NULL) {
		free(body);
		conn_close(k);
		return;
	}
	memcpy(k->out, head, (size_t)hl);
	if (blen != 0)
		memcpy(k->out + hl, body, blen);
	free(body);
	k->out_len = (size_t)hl + blen;
	k->out_off = 0;
	k->writing = true;
	conn_flush(k);
}

static void
conn_refuse(struct sl_http *h, struct conn *k, const char *status, const char *extra)
{
	char *msg = NULL;
	int n;

	STAT_INC(h, refused);
	n = asprintf(&msg, "%s: this server answers only GET %s\n", status, h->path);
	conn_answer(k, status, "text/plain; charset=utf-8", extra, n < 0 ? NULL : msg,
		    n < 0 ? 0 : (size_t)n);
}

/* A token of RFC 9110 (method names): visible ASCII but separators. */
static bool
is_tchar(char ch)
{
	return ch > 32 && ch < 127 && strchr("\"(),/:;<=>?@[\\]{}", ch) == NULL;
}

/* Does the head's Accept header name OpenMetrics? (head is NUL-terminated) */
static bool
wants_openmetrics(const char *head)
{
	for (const char *l = strchr(head, '\n'); l != NULL; l = strchr(l + 1, '\n')) {
		const char *e = strchr(l + 1, '\n');
		size_t n = e != NULL ? (size_t)(e - l - 1) : strlen(l + 1);
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)RTE_MIN(n, sizeof(line) - 1), l + 1);
		if (strncasecmp(line, "accept:", 7) == 0 &&
		    strstr(line, "application/openmetrics-text") != NULL)
			return true;
	}
	return false;
}

/* How much of what has arrived is the head: up to its empty line, or all of it. */
static size_t
head_len(const struct conn *k)
{
	const char *e = memmem(k->in, k->in_len, "\r\n\r\n", 4);
	const char *f = memmem(k->in, k->in_len, "\n\n", 2);

	if (f != NULL && (e == NULL || f < e))
		return (size_t)(f - k->in) + 2;
	return e != NULL ? (size_t)(e - k->in) + 4 : k->in_len;
}

/*
 * Judge what has arrived. The request line is checked as soon as it is
 * whole (garbage is answered at once, not at the deadline); the answer is
 * made once the head ends with an empty line.
 */
static void
conn_parse(struct sl_http *h, struct conn *k)
{
	char *eol = memchr(k->in, '\n', k->in_len);
	char method[16], target[256], version[16];
	char *end, *q;
	int n = 0;

	if (eol == NULL) {
		if (k->in_len >= sizeof(k->in) - 1)
			conn_refuse(h, k, "400 Bad Request", "");
		return;
	}
	/* A NUL in the head (what has come of it): strstr() below would stop at it and wait. */
	if (memchr(k->in, '\0', head_len(k)) != NULL)
		goto bad;
	k->in[k->in_len] = '\0'; /* conn_read() keeps a byte for it */
	if (
	    sscanf(k->in, "%15s %255s %15s%n", method, target, version, &n) != 3 ||
	    k->in + n > eol || strncmp(version, "HTTP/1.", 7) != 0 ||
	    (version[7] != '0' && version[7] != '1') || version[8] != '\0')
		goto bad;
	for (const char *m = method; *m != '\0'; m++)
		if (!is_tchar(*m))
			goto bad;
	end = strstr(k->in, "\r\n\r\n");
	if (end == NULL)
		end = strstr(k->in, "\n\n");
	if (end == NULL) {
		if (k->in_len >= sizeof(k->in) - 1)
			conn_refuse(h, k, "431 Request Header Fields Too Large", "");
		return;
	}
	*end = '\0';
	q = strchr(target, '?');
	if (q != NULL)
		*q = '\0';
	if (strcmp(method, "GET") != 0) {
		conn_refuse(h, k, "405 Method Not Allowed", "Allow: GET\r\n");
	} else if (strcmp(target, h->path) != 0) {
		conn_refuse(h, k, "404 Not Found", "");
	} else {
		bool om = wants_openmetrics(k->in);
		size_t blen = 0;
		char *body = h->c.body(h->c.arg, om, &blen);

		if (body == NULL) {
			STAT_INC(h, refused);
			conn_answer(k, "500 Internal Server Error", "text/plain", "", NULL, 0);
			return;
		}
		STAT_INC(h, ok);
		conn_answer(k, "200 OK", om ? "application/openmetrics-text; version=1.0.0; "
			    "charset=utf-8" : "text/plain; version=0.0.4; charset=utf-8", "",
			    body, blen);
	}
	return;
bad:
	conn_refuse(h, k, "400 Bad Request", "");
}

static void
conn_read(struct sl_http *h, struct conn *k)
{
	/* One byte kept for the terminating NUL conn_parse() writes. */
	size_t room = sizeof(k->in) - 1 - k->in_len;
	ssize_t n;

	if (room == 0) {
		conn_refuse(h, k, "431 Request Header Fields Too Large", "");
		return;
	}
	n = recv(k->fd, k->in + k->in_len, room, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n <= 0) {
		conn_close(k);
		return;
	}
	k->in_len += (size_t)n;
	conn_parse(h, k);
}

/*
 * Make room: close the connection that has waited longest for its request.
 * What it has sent is read first, so a request already there is answered,
 * not lost (an answer that goes out at once frees the slot too). Returns the
 * slot freed (its descriptor closed), or NULL when every connection is
 * sending an answer.
 */
static struct conn *
slot_evict(struct sl_http *h)
{
	for (int tries = 0; tries < SL_HTTP_CONN_MAX; tries++) {
		struct conn *oldest = NULL;

		for (int i = 0; i < SL_HTTP_CONN_MAX; i++) {
			struct conn *k = &h->conns[i];

			if (k->fd >= 0 && !k->writing &&
			    (oldest == NULL || k->deadline_ms < oldest->deadline_ms))
				oldest = k;
		}
		if (oldest == NULL)
			return NULL;
		conn_read(h, oldest);
		if (oldest->fd < 0)
			return oldest; /* answered (or gone) */
		if (!oldest->writing) {
			STAT_INC(h, evicted);
			conn_close(oldest);
			return oldest;
		}
	}
	return NULL;
}

/* A free slot, or one made by slot_evict(). */
static struct conn *
slot_get(struct sl_http *h)
{
	for (int i = 0; i < SL_HTTP_CONN_MAX; i++)
		if (h->conns[i].fd < 0)
			return &h->conns[i];
	return slot_evict(h);
}

/*
 * Accept every connection waiting. Out of descriptors (EMFILE, ENFILE), a
 * waiting connection makes room as a connection over the slots does; when
 * none can, the listening socket is left alone for ACCEPT_PAUSE_MS (poll
 * would report it readable at once, for ever: a busy loop).
 */
#define ACCEPT_PAUSE_MS 100

static void
accept_all(struct sl_http *h)
{
	/* At most a slot's worth per wake-up: a flood of connects must not keep the
	 * thread from its deadlines, answers and wake pipe. */
	for (int n = 0; n < SL_HTTP_CONN_MAX; n++) {
		int fd = accept4(h->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct conn *k;

		if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
			if (slot_evict(h) != NULL)
				continue;
			h->accept_pause_ms = now_ms() + ACCEPT_PAUSE_MS;
			return;
		}
		if (fd < 0)
			return; /* EAGAIN, or a connection that went away meanwhile */
		STAT_INC(h, accepted);
		k = slot_get(h);
		if (k == NULL) { /* every slot is sending an answer */
			close(fd);
			continue;
		}
		k->fd = fd;
		k->deadline_ms = now_ms() + SL_HTTP_TIMEOUT_MS;
	}
}

static void *
http_thread(void *arg)
{
	struct sl_http *h = arg;

	for (;;) {
		struct conn *idx[SL_HTTP_CONN_MAX];
		nfds_t n = 2;
		uint64_t now;

		h->pfd[0] = (struct pollfd){ .fd = h->wake[0], .events = POLLIN };
		h->pfd[1] = (struct pollfd){ .fd = h->lfd,
					     .events = now_ms() >= h->accept_pause_ms ? POLLIN : 0 };
		for (int i = 0; i < SL_HTTP_CONN_MAX; i++) {
			struct conn *k = &h->conns[i];

			if (k->fd < 0)
				continue;
			idx[n - 2] = k;
			h->pfd[n++] = (struct pollfd){ .fd = k->fd,
						       .events = k->writing ? POLLOUT : POLLIN };
		}
		if (poll(h->pfd, n, 200) < 0 && errno != EINTR)
			break;
		if (h->pfd[0].revents != 0)
			break;
		for (nfds_t i = 2; i < n; i++) {
			struct conn *k = idx[i - 2];

			if (h->pfd[i].revents == 0 || k->fd != h->pfd[i].fd)
				continue; /* closed meanwhile (evicted) */
			if (k->writing)
				conn_flush(k);
			else
				conn_read(h, k);
		}
		if (h->pfd[1].revents & POLLIN)
			accept_all(h);
		now = now_ms();
		for (int i = 0; i < SL_HTTP_CONN_MAX; i++)
			if (h->conns[i].fd >= 0 && now >= h->conns[i].deadline_ms) {
				STAT_INC(h, timed_out);
				conn_close(&h->conns[i]);
			}
	}
	return NULL;
}

static int
http_listen(struct sl_http *h, char *err, size_t len)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct addrinfo *ai;
	char port[8];
	int one = 1, rc;

	snprintf(port, sizeof(port), "%u", h->c.port);
	rc = getaddrinfo(h->c.host, port, &hints, &ai);
	if (rc != 0) {
		snprintf(err, len, "'%s' is not a numeric IPv4 or IPv6 address", h->c.host);
		return -EINVAL;
	}
	h->lfd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (h->lfd < 0 ||
	    setsockopt(h->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(h->lfd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(h->lfd, 512) != 0 ||
	    getsockname(h->lfd, (struct sockaddr *)&ss, &sl) != 0) {
		rc = -errno;
		snprintf(err, len, "cannot listen on %s port %u: %s%s", h->c.host, h->c.port,
			 strerror(errno), errno == EADDRINUSE ? " (choose another port)" :
			 errno == EADDRNOTAVAIL ? " (not an address of this machine)" : "");
		freeaddrinfo(ai);
		return rc;
	}
	freeaddrinfo(ai);
	h->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
			((struct sockaddr_in *)&ss)->sin_port);
	return 0;
}

struct sl_http *
sl_http_create(const struct sl_http_conf *c, char *err, size_t len)
{
	struct sl_http *h = calloc(1, sizeof(*h));
	int rc;

	if (h == NULL) {
		snprintf(err, len, "out of memory");
		rte_errno = ENOMEM;
		return NULL;
	}
	h->c = *c;
	snprintf(h->path, sizeof(h->path), "%s", c->path);
	h->c.path = h->path;
	h->lfd = h->wake[0] = h->wake[1] = -1;
	for (int i = 0; i < SL_HTTP_CONN_MAX; i++)
		h->conns[i].fd = -1;
	rc = http_listen(h, err, len);
	if (rc != 0)
		goto err;
	if (pipe2(h->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
		rc = -errno;
		snprintf(err, len, "pipe: %s", strerror(errno));
		goto err;
	}
	rc = rte_ctrl_thread_create(&h->th, "sl-http", NULL, http_thread, h);
	if (rc != 0) {
		snprintf(err, len, "cannot start its thread: %s", strerror(rc < 0 ? -rc : rc));
		rc = rc < 0 ? rc : -rc;
		goto err;
	}
	return h;
err:
	if (h->lfd >= 0)
		close(h->lfd);
	if (h->wake[0] >= 0) {
		close(h->wake[0]);
		close(h->wake[1]);
	}
	free(h);
	rte_errno = -rc;
	return NULL;
}

uint16_t
sl_http_port(const struct sl_http *h)
{
	return h->port;
}

void
sl_http_stats(const struct sl_http *h, struct sl_http_stats *st)
{
	st->accepted = __atomic_load_n(&h->st.accepted, __ATOMIC_RELAXED);
	st->ok = __atomic_load_n(&h->st.ok, __ATOMIC_RELAXED);
	st->refused = __atomic_load_n(&h->st.refused, __ATOMIC_RELAXED);
	st->timed_out = __atomic_load_n(&h->st.timed_out, __ATOMIC_RELAXED);
	st->evicted = __atomic_load_n(&h->st.evicted, __ATOMIC_RELAXED);
}

void
sl_http_free(struct sl_http *h)
{
	char b = 1;

	if (h == NULL)
		return;
	if (write(h->wake[1], &b, 1) != 1)
		pthread_cancel(h->th); /* cannot happen with an empty pipe; never hang here */
	pthread_join(h->th, NULL);
	for (int i = 0; i < SL_HTTP_CONN_MAX; i++)
		if (h->conns[i].fd >= 0)
			conn_close(&h->conns[i]);
	close(h->lfd);
	close(h->wake[0]);
	close(h->wake[1]);
	free(h);
}
