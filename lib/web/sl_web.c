/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP server (sl_web.h): libmicrohttpd in its external epoll mode.
 * Its epoll descriptor is a file event of the loop and its timeout a timer
 * of the loop; MHD_run() is called from both, never from two places at
 * once (a handler that runs the loop again finds the server's event gone
 * until it returns). The server tracks its connections (MHD's connection
 * notifications) to bound a request's time and the number held: a
 * connection to close is shut down under libmicrohttpd, which then sees
 * its end and frees it as it would any other.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/queue.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "sl_loop.h"
#include "sl_web.h"

/* How often connections are checked against their deadlines. */
#define WEB_SWEEP_US 100000
/* Descriptors kept for the rest of the program when the limit is low. */
#define WEB_FD_SPARE 24

struct web_conn {
	TAILQ_ENTRY(web_conn) next;
	int fd;
	uint64_t since_us;     /* when this phase began */
	bool sending;          /* the request is whole: its answer is going */
	bool shut;             /* shut down by the server: libmicrohttpd will free it */
	struct web_out *out;   /* the answer being sent, or NULL */
	/* the request in progress */
	bool started;
	bool too_big;          /* its body passed body_max: dropped, answered 413 */
	const struct sl_web_route *route;
	char *buf;
	size_t len;
};

TAILQ_HEAD(web_conns, web_conn);

/* An answer's body as libmicrohttpd reads it (web_read): each block read is progress. */
struct web_out {
	struct sl_web *w;
	struct web_conn *c;    /* NULL once its connection is gone */
	char *body;
	size_t len;
};

struct sl_web {
	struct sl_loop *loop;
	struct MHD_Daemon *d;
	struct sl_web_conf c;
	int efd;               /* libmicrohttpd's epoll descriptor */
	long timer;
	bool in_run;
	bool dying;            /* sl_web_free() from a handler: freed when MHD_run() returns */
	unsigned int closed;   /* connections libmicrohttpd has freed */
	uint64_t out_bytes;    /* answers' bodies held until sent (SL_WEB_OUT_MAX) */
	uint16_t port;
	unsigned int conn_max; /* SL_WEB_CONN_MAX, or fewer with few descriptors */
	unsigned int nb_conns;
	struct web_conns conns;
	char token[256];
	char *cert, *key;
	char host[64];
	char allow[400];       /* "GET, POST ..." of every route, for 404's message */
	struct sl_web_stats st;
};

static void web_on_file(struct sl_loop *l, int fd, unsigned int events, void *arg);

static void
web_default_error(unsigned int status, const char *msg, struct sl_web_reply *r)
{
	r->status = status;
	r->ctype = "text/plain; charset=utf-8";
	if (asprintf(&r->body, "%u %s\n", status, msg) < 0)
		r->body = NULL;
	r->len = r->body != NULL ? strlen(r->body) : 0;
}

static void
web_error(struct sl_web *w, unsigned int status, const char *msg, struct sl_web_reply *r)
{
	memset(r, 0, sizeof(*r));
	(w->c.error != NULL ? w->c.error : web_default_error)(status, msg, r);
	w->st.refused++;
}

static void
web_too_big(struct sl_web *w, struct sl_web_reply *r)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "the body is over %zu bytes", w->c.body_max);
	web_error(w, MHD_HTTP_CONTENT_TOO_LARGE, msg, r);
}

static ssize_t
web_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct web_out *o = cls;
	size_t n;

	if (pos >= o->len)
		return MHD_CONTENT_READER_END_OF_STREAM;
	n = o->len - pos < max ? o->len - pos : max;
	memcpy(buf, o->body + pos, n);
	if (o->c != NULL)
		o->c->since_us = sl_loop_now_us(); /* SL_WEB_SEND_MS counts from the last progress */
	return (ssize_t)n;
}

static void
web_out_free(void *cls)
{
	struct web_out *o = cls;

	o->w->out_bytes -= o->len;
	if (o->c != NULL && o->c->out == o)
		o->c->out = NULL;
	free(o->body);
	free(o);
}

/* Queue r on conn; r->body is the server's now. Past SL_WEB_OUT_MAX held: 503. */
static enum MHD_Result
web_queue(struct sl_web *w, struct MHD_Connection *conn, struct sl_web_reply *r)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct web_conn *c = ci != NULL ? ci->socket_context : NULL;
	struct MHD_Response *resp;
	struct web_out *o = NULL;
	enum MHD_Result ret;

	/*
	 * A large answer past the bound is refused (its call changed nothing:
	 * a download); a small one always goes (what a call did must be said:
	 * 256 connections of them stay under 16 MB).
	 */
	if (r->body != NULL && r->len > SL_WEB_OUT_SMALL &&
	    w->out_bytes + r->len > (w->c.out_max != 0 ? w->c.out_max : SL_WEB_OUT_MAX)) {
		free(r->body);
		web_error(w, MHD_HTTP_SERVICE_UNAVAILABLE, "too many answers being sent: try again "
			  "in a second", r);
		r->hdr = MHD_HTTP_HEADER_RETRY_AFTER;
		snprintf(r->hdr_val, sizeof(r->hdr_val), "1");
	}
	if (r->body != NULL && (o = calloc(1, sizeof(*o))) == NULL) {
		free(r->body);
		return MHD_NO;
	}
	if (o != NULL) {
		*o = (struct web_out){ .w = w, .c = c, .body = r->body, .len = r->len };
		w->out_bytes += r->len;
		if (c != NULL) {
			if (c->out != NULL)
				c->out->c = NULL; /* the last answer's, if still held */
			c->out = o;
		}
		resp = MHD_create_response_from_callback(r->len, 32 * 1024, web_read, o,
							 web_out_free);
		if (resp == NULL) {
			web_out_free(o);
			return MHD_NO;
		}
	} else {
		resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
		if (resp == NULL)
			return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				r->ctype != NULL ? r->ctype : "application/json");
	if (r->hdr != NULL)
		MHD_add_response_header(resp, r->hdr, r->hdr_val);
	if (w->c.close)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = MHD_queue_response(conn, r->status != 0 ? r->status : 500, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* The bearer token, compared in constant time. */
static bool
web_authorized(const struct sl_web *w, struct MHD_Connection *conn)
{
	const char *h = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
						    MHD_HTTP_HEADER_AUTHORIZATION);
	size_t n = strlen(w->token);
	unsigned char d = 0;

	if (n == 0)
		return true;
	if (h == NULL || strncasecmp(h, "Bearer ", 7) != 0)
		return false;
	h += 7;
	if (strlen(h) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)(h[i] ^ w->token[i]);
	return d == 0;
}

static void
conn_shut(struct sl_web *w, struct web_conn *c, uint64_t *counter)
{
	if (c->shut)
		return;
	c->shut = true;
	(*counter)++;
	shutdown(c->fd, SHUT_RDWR);
}

/*
 * Make room (not @p keep): the connection waiting longest for its request's
 * head; without one, the one waiting longest for the rest of its body.
 */
static void
web_evict(struct sl_web *w, const struct web_conn *keep)
{
	struct web_conn *c, *old = NULL;
	unsigned int live = 0;

	TAILQ_FOREACH(c, &w->conns, next) {
		if (c->shut)
			continue;
		live++;
		if (c == keep || c->sending)
			continue;
		if (old == NULL || (old->started && !c->started) ||
		    (old->started == c->started && c->since_us < old->since_us))
			old = c;
	}
	if (live > w->conn_max && old != NULL)
		conn_shut(w, old, &w->st.evicted);
}

static void
web_notify_conn(void *cls, struct MHD_Connection *conn, void **socket_context,
		enum MHD_ConnectionNotificationCode toe)
{
	struct sl_web *w = cls;
	struct web_conn *c = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

		c = calloc(1, sizeof(*c));
		if (c == NULL) {
			if (ci != NULL)
				shutdown(ci->connect_fd, SHUT_RDWR);
			return;
		}
		c->fd = ci != NULL ? ci->connect_fd : -1;
		c->since_us = sl_loop_now_us();
		*socket_context = c;
		TAILQ_INSERT_TAIL(&w->conns, c, next);
		w->nb_conns++;
		w->st.accepted++;
		web_evict(w, c);
		return;
	}
	if (c == NULL)
		return;
	TAILQ_REMOVE(&w->conns, c, next);
	w->nb_conns--;
	w->closed++;
	if (c->out != NULL)
		c->out->c = NULL;
	free(c->buf);
	free(c);
	*socket_context = NULL;
}

static void
web_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
	      enum MHD_RequestTerminationCode toe)
{
	struct web_conn *c = *con_cls;

	(void)cls;
	(void)conn;
	(void)toe;
	if (c == NULL)
		return;
	free(c->buf);
	c->buf = NULL;
	c->len = 0;
	c->started = false;
	c->too_big = false;
	c->route = NULL;
	c->sending = false;
	c->since_us = sl_loop_now_us(); /* the next request's time starts now */
	*con_cls = NULL;
}

static enum MHD_Result
web_head_add(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	size_t *n = cls;

	(void)kind;
	*n += strlen(key) + (value != NULL ? strlen(value) : 0) + 4; /* ": ", CRLF */
	return MHD_YES;
}

/* The request head's bytes, as it came (near enough: the line, its query, each header). */
static size_t
web_head_len(struct MHD_Connection *conn, const char *url, const char *method)
{
	size_t n = strlen(method) + strlen(url) + 12;
	int nb = MHD_get_connection_values(conn, MHD_HEADER_KIND, web_head_add, &n);

	MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, web_head_add, &n);
	/* what each header costs libmicrohttpd besides its bytes: many small ones count */
	return n + (size_t)(nb > 0 ? nb : 0) * 48;
}

static enum MHD_Result
web_handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
	    const char *version, const char *data, size_t *size, void **con_cls)
{
	struct sl_web *w = cls;
	struct web_conn *c = *con_cls;
	struct sl_web_reply r = { 0 };
	struct sl_web_req q;
	bool path = false;

	(void)version;
	if (c == NULL) {
		/* The head is in: the route, the token; errors are answered now. */
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

		c = ci != NULL ? ci->socket_context : NULL;
		if (c == NULL)
			return MHD_NO;
		*con_cls = c;
		c->started = true;
		for (unsigned int i = 0; i < w->c.nb_routes; i++)
			if (strcmp(url, w->c.routes[i].path) == 0) {
				path = true;
				if (strcmp(method, w->c.routes[i].method) == 0)
					c->route = &w->c.routes[i];
			}
		if (web_head_len(conn, url, method) > SL_WEB_HEAD_MAX) {
			web_error(w, MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE, "the request's head is "
				  "over 8 KB", &r);
			return web_queue(w, conn, &r);
		}
		if (!web_authorized(w, conn)) {
			web_error(w, MHD_HTTP_UNAUTHORIZED, "give the header Authorization: Bearer "
				  "TOKEN (the server's token)", &r);
			return web_queue(w, conn, &r);
		}
		if (c->route == NULL) {
			char msg[600];

			if (path) {
				snprintf(msg, sizeof(msg), "%s %s: not a method of this path", method,
					 url);
				web_error(w, MHD_HTTP_METHOD_NOT_ALLOWED, msg, &r);
				r.hdr = MHD_HTTP_HEADER_ALLOW;
				for (unsigned int i = 0; i < w->c.nb_routes; i++)
					if (strcmp(url, w->c.routes[i].path) == 0)
						snprintf(r.hdr_val + strlen(r.hdr_val),
							 sizeof(r.hdr_val) - strlen(r.hdr_val), "%s%s",
							 r.hdr_val[0] ? ", " : "", w->c.routes[i].method);
			} else {
				snprintf(msg, sizeof(msg), "no such endpoint: %s %s; there are %s",
					 method, url, w->allow);
				web_error(w, MHD_HTTP_NOT_FOUND, msg, &r);
			}
			return web_queue(w, conn, &r);
		}
		/* A Content-Length past the bound: refused before a byte of it is read. */
		{
			const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
								     MHD_HTTP_HEADER_CONTENT_LENGTH);

			if (cl != NULL && strtoull(cl, NULL, 10) > w->c.body_max) {
				web_too_big(w, &r);
				return web_queue(w, conn, &r);
			}
		}
		return MHD_YES;
	}
	if (*size != 0) {
		char *nb = NULL;

		/* Chunked past the bound: the rest is read and dropped (its deadline bounds it). */
		if (c->too_big || c->len + *size > w->c.body_max ||
		    (nb = realloc(c->buf, c->len + *size + 1)) == NULL) {
			c->too_big = true;
			*size = 0;
			return MHD_YES;
		}
		c->buf = nb;
		memcpy(c->buf + c->len, data, *size);
		c->len += *size;
		c->buf[c->len] = '\0';
		*size = 0;
		return MHD_YES;
	}
	/* The whole request: its handler, then the answer goes. */
	c->sending = true;
	c->since_us = sl_loop_now_us();
	if (c->too_big) {
		web_too_big(w, &r);
		return web_queue(w, conn, &r);
	}
	q = (struct sl_web_req){ .method = method, .path = url,
				 .body = c->buf != NULL ? c->buf : "", .len = c->len, .conn = conn };
	c->route->fn(w->c.arg, &q, &r);
	w->st.answered++;
	return web_queue(w, conn, &r);
}

const char *
sl_web_header(const struct sl_web_req *q, const char *name)
{
	return MHD_lookup_connection_value(q->conn, MHD_HEADER_KIND, name);
}

/* Deadlines: a request not whole in SL_WEB_REQ_MS, an answer not taken in SL_WEB_SEND_MS. */
static void
web_sweep(struct sl_web *w)
{
	uint64_t now = sl_loop_now_us();
	struct web_conn *c;

	TAILQ_FOREACH(c, &w->conns, next)
		if (!c->shut && now - c->since_us >
		    (uint64_t)(c->sending ? SL_WEB_SEND_MS : SL_WEB_REQ_MS) * 1000)
			conn_shut(w, c, &w->st.timed_out);
}

static void web_release(struct sl_web *w);

/*
 * libmicrohttpd's turn; the microseconds until it wants the next, or -1:
 * the server was freed meanwhile (by a handler), touch nothing.
 */
static int64_t
web_run(struct sl_web *w)
{
	MHD_UNSIGNED_LONG_LONG ms;

	if (!w->in_run) {
		w->in_run = true;
		sl_loop_file_del(w->loop, w->efd);
		/*
		 * At its connection limit libmicrohttpd takes its listening socket
		 * out of epoll and puts it back only at its next run: a run that
		 * freed connections is followed by another, so the waiting ones
		 * are taken now, not a timer later.
		 */
		for (int i = 0; i < 16; i++) {
			unsigned int before = w->closed;

			MHD_run(w->d);
			if (w->closed == before || w->dying)
				break;
		}
		w->in_run = false;
		if (w->dying) {
			web_release(w);
			return -1;
		}
		sl_loop_file_add(w->loop, w->efd, SL_LOOP_READ, web_on_file, w);
	}
	if (MHD_get_timeout(w->d, &ms) == MHD_YES && ms * 1000 < WEB_SWEEP_US)
		return (int64_t)ms * 1000;
	return WEB_SWEEP_US;
}

static int64_t
web_on_timer(struct sl_loop *l, void *arg)
{
	struct sl_web *w = arg;
	int64_t next;

	(void)l;
	web_sweep(w);
	next = web_run(w);
	return next < 0 ? SL_LOOP_NOMORE : next;
}

static void
web_on_file(struct sl_loop *l, int fd, unsigned int events, void *arg)
{
	struct sl_web *w = arg;
	int64_t next;

	(void)fd;
	(void)events;
	next = web_run(w);
	if (next >= 0 && next < WEB_SWEEP_US)
		sl_loop_timer_set(l, w->timer, (uint64_t)next);
}

static int
web_listen(struct sl_web *w, char *err, size_t len)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct addrinfo *ai;
	char port[8];
	int one = 1, fd, rc;

	snprintf(port, sizeof(port), "%u", w->c.port);
	rc = getaddrinfo(w->c.host, port, &hints, &ai);
	if (rc != 0) {
		snprintf(err, len, "'%s' is not a numeric IPv4 or IPv6 address", w->c.host);
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 512) != 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
		int e = errno;

		snprintf(err, len, "cannot listen on %s port %u: %s%s", w->c.host, w->c.port,
			 strerror(e), e == EADDRINUSE ? " (choose another port)" :
			 e == EADDRNOTAVAIL ? " (not an address of this machine)" : "");
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	w->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
			((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

/* SL_WEB_CONN_MAX, or what the descriptor limit leaves (the rest of the program keeps some). */
static unsigned int
web_conn_max(void)
{
	struct rlimit rl;
	unsigned int open = 0;
	DIR *d = opendir("/proc/self/fd");
	uint64_t room;

	if (d != NULL) {
		while (readdir(d) != NULL)
			open++;
		closedir(d);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return SL_WEB_CONN_MAX;
	room = rl.rlim_cur > open + WEB_FD_SPARE ? rl.rlim_cur - open - WEB_FD_SPARE : 0;
	return room < 4 ? 4 : room < SL_WEB_CONN_MAX ? (unsigned int)room : SL_WEB_CONN_MAX;
}

struct sl_web *
sl_web_create(struct sl_loop *l, const struct sl_web_conf *c, char *err, size_t len)
{
	struct sl_web *w = calloc(1, sizeof(*w));
	unsigned int flags = MHD_USE_EPOLL;
	const union MHD_DaemonInfo *di;
	int lfd = -1;

	if (w == NULL) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	w->loop = l;
	w->c = *c;
	w->timer = -1;
	TAILQ_INIT(&w->conns);
	snprintf(w->host, sizeof(w->host), "%s", c->host);
	w->c.host = w->host;
	snprintf(w->token, sizeof(w->token), "%s", c->token != NULL ? c->token : "");
	w->c.token = NULL;
	for (unsigned int i = 0; i < c->nb_routes; i++)
		snprintf(w->allow + strlen(w->allow), sizeof(w->allow) - strlen(w->allow), "%s%s %s",
			 i ? ", " : "", c->routes[i].method, c->routes[i].path);
	if (c->cert != NULL) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			snprintf(err, len, "this libmicrohttpd has no TLS: serve plain http instead");
			goto fail;
		}
		w->cert = strdup(c->cert);
		w->key = strdup(c->key);
		if (w->cert == NULL || w->key == NULL) {
			snprintf(err, len, "out of memory");
			goto fail;
		}
		flags |= MHD_USE_TLS;
	}
	w->c.cert = w->c.key = NULL;
	lfd = web_listen(w, err, len);
	if (lfd < 0)
		goto fail;
	w->conn_max = web_conn_max();
	{
		int fd = lfd;

		lfd = -1; /* libmicrohttpd's from here, even when it fails (it closes it) */
		struct MHD_OptionItem tls[] = {
			{ w->cert != NULL ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, w->key },
			{ MHD_OPTION_HTTPS_MEM_CERT, 0, w->cert },
			{ MHD_OPTION_END, 0, NULL },
		};

		/* Its own limit above ours: the one to evict is ours to choose. */
		w->d = MHD_start_daemon(flags, w->port, NULL, NULL, web_handler, w,
					MHD_OPTION_LISTEN_SOCKET, fd,
					MHD_OPTION_NOTIFY_CONNECTION, web_notify_conn, w,
					MHD_OPTION_NOTIFY_COMPLETED, web_completed, w,
					MHD_OPTION_CONNECTION_LIMIT, w->conn_max + 4,
					MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)(SL_WEB_SEND_MS / 1000) * 2,
					MHD_OPTION_CONNECTION_MEMORY_LIMIT,
					(size_t)SL_WEB_POOL,
					MHD_OPTION_ARRAY, tls, MHD_OPTION_END);
	}
	if (w->d == NULL) {
		snprintf(err, len, "cannot serve on %s port %u (libmicrohttpd would not start)",
			 w->host, w->port);
		goto fail;
	}
	di = MHD_get_daemon_info(w->d, MHD_DAEMON_INFO_EPOLL_FD);
	w->efd = di != NULL ? di->epoll_fd : -1;
	if (w->efd < 0 || sl_loop_file_add(l, w->efd, SL_LOOP_READ, web_on_file, w) != 0 ||
	    (w->timer = sl_loop_timer_add(l, WEB_SWEEP_US, web_on_timer, w)) < 0) {
		snprintf(err, len, "cannot serve on the main loop (too many events)");
		goto fail;
	}
	return w;
fail:
	if (lfd >= 0)
		close(lfd);
	sl_web_free(w);
	return NULL;
}

uint16_t
sl_web_port(const struct sl_web *w)
{
	return w->port;
}

void
sl_web_stats(const struct sl_web *w, struct sl_web_stats *st)
{
	*st = w->st;
}

static void
web_release(struct sl_web *w)
{
	if (w->d != NULL) {
		if (w->efd >= 0)
			sl_loop_file_del(w->loop, w->efd);
		MHD_stop_daemon(w->d); /* every connection's notifications: their state goes */
	}
	if (w->timer > 0)
		sl_loop_timer_del(w->loop, w->timer);
	free(w->cert);
	free(w->key);
	memset(w->token, 0, sizeof(w->token));
	free(w);
}

void
sl_web_free(struct sl_web *w)
{
	if (w == NULL)
		return;
	if (w->in_run) {
		w->dying = true; /* from a handler: when libmicrohttpd's run returns */
		return;
	}
	web_release(w);
}
