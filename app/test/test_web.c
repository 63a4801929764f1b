/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/web's contract (sl_web.h), on one thread: the server and its client
 * sockets are driven by turns of one loop. Routes answer on the loop's
 * thread with the request's body; 404, 405 (with Allow), 401 without the
 * token, 413 past body_max; Connection: close when asked; past the
 * connection limit the connection waiting longest is closed and a real
 * request is answered; the port is closed after sl_web_free().
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "sl_loop.h"
#include "sl_web.h"
#include "test_count.h"


static pthread_t loop_thread;
static int calls_off_loop, calls;

static void
echo(void *arg, const struct sl_web_req *q, struct sl_web_reply *r)
{
	const char *h = sl_web_header(q, "X-Test");

	(void)arg;
	calls++;
	if (!pthread_equal(pthread_self(), loop_thread))
		calls_off_loop++;
	r->status = 200;
	r->ctype = "text/plain";
	if (asprintf(&r->body, "%s %s %zu %s|%s", q->method, q->path, q->len,
		     h != NULL ? h : "-", q->body) < 0)
		r->body = NULL;
	r->len = r->body != NULL ? strlen(r->body) : 0;
}

static struct sl_web *dying;

/* A handler that frees its own server (sl_web.h: when libmicrohttpd's turn returns). */
static void
suicide(void *arg, const struct sl_web_req *q, struct sl_web_reply *r)
{
	(void)arg;
	(void)q;
	sl_web_free(dying);
	r->status = 200;
}

static const struct sl_web_route routes[] = {
	{ "GET", "/a", echo },
	{ "POST", "/a", echo },
	{ "POST", "/b", echo },
	{ "GET", "/die", suicide },
};

static int
client(uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 &&
	    errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send req on a new connection; turn the loop until the answer ends (EOF) or 2 s pass. */
static size_t
ask(struct sl_loop *l, uint16_t port, const char *req, size_t req_len, char *out, size_t cap)
{
	int fd = client(port);
	size_t got = 0, sent = 0;
	uint64_t end = sl_loop_now_us() + 2000000;

	out[0] = '\0';
	if (fd < 0)
		return 0;
	while (sl_loop_now_us() < end) {
		ssize_t n;

		if (sent < req_len) {
			n = send(fd, req + sent, req_len - sent, MSG_NOSIGNAL);
			if (n > 0)
				sent += (size_t)n;
		}
		sl_loop_once(l, 1000);
		n = recv(fd, out + got, cap - 1 - got, 0);
		if (n > 0) {
			got += (size_t)n;
			out[got] = '\0';
		} else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
			break;
		}
	}
	close(fd);
	return got;
}

static unsigned int
status_of(const char *a)
{
	unsigned int s = 0;

	return sscanf(a, "HTTP/1.%*d %u", &s) == 1 ? s : 0;
}

static void
test_routes(void)
{
	struct sl_loop *l = sl_loop_create();
	struct sl_web_conf c = { .host = "127.0.0.1", .port = 0, .routes = routes,
				 .nb_routes = 3, .body_max = 64, .close = true };
	char err[256], a[4096], big[512];
	struct sl_web *w;
	uint16_t port;

	loop_thread = pthread_self();
	w = l != NULL ? sl_web_create(l, &c, err, sizeof(err)) : NULL;
	T(w != NULL, "create: %s", w == NULL ? err : "");
	if (w == NULL) {
		sl_loop_free(l);
		return;
	}
	port = sl_web_port(w);
	T(port != 0, "the kernel's port was not told");
#define ASK(s) ask(l, port, s, strlen(s), a, sizeof(a))
	ASK("GET /a?q=1 HTTP/1.1\r\nHost: x\r\nX-Test: t1\r\n\r\n");
	T(status_of(a) == 200 && strstr(a, "GET /a 0 t1|") != NULL,
	  "GET /a: the path without its query, the header: %.200s", a);
	T(strstr(a, "Connection: close") != NULL, "close asked, not said: %.200s", a);
	ASK("POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
	T(status_of(a) == 200 && strstr(a, "POST /b 5 -|hello") != NULL, "POST /b's body: %.200s", a);
	ASK("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n");
	T(status_of(a) == 404 && strstr(a, "GET /a, POST /a, POST /b") != NULL,
	  "404 names the routes: %.300s", a);
	ASK("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
	T(status_of(a) == 405 && strstr(a, "Allow: GET, POST") != NULL, "405 with Allow: %.300s", a);
	{
		int n = snprintf(big, sizeof(big), "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: "
				 "65\r\n\r\n");

		memset(big + n, 'y', 65);
		ask(l, port, big, (size_t)n + 65, a, sizeof(a));
	}
	T(status_of(a) == 413, "a body over body_max: %.200s", a);
	{
		char ch[256];
		int n = snprintf(ch, sizeof(ch), "POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
				 "chunked\r\n\r\n41\r\n");

		memset(ch + n, 'z', 65);
		memcpy(ch + n + 65, "\r\n0\r\n\r\n", 7);
		ask(l, port, ch, (size_t)n + 72, a, sizeof(a));
		T(status_of(a) == 413, "a chunked body over body_max: %.200s", a);
	}
	T(calls == 2 && calls_off_loop == 0, "handlers: %d calls, %d off the loop's thread", calls,
	  calls_off_loop);
	{
		static char head[9300];
		int n = snprintf(head, sizeof(head), "GET /a HTTP/1.1\r\nHost: x\r\nX-Pad: ");

		memset(head + n, 'p', 9000);
		memcpy(head + n + 9000, "\r\n\r\n", 4);
		ask(l, port, head, (size_t)n + 9004, a, sizeof(a));
		T(status_of(a) == 431, "a 9 KB head: %.100s", a);
	}
	/* Past the limit the oldest idle connection goes; a real request is answered. */
	{
		struct sl_web_stats st;
		int idle[SL_WEB_CONN_MAX + 8];
		int n = 0;

		/* a request with its head and half its body: not the one to go */
		int half = client(port);
		const char *hb = "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nhe";

		for (int i = 0; i < 20; i++) {
			if (i == 2 && half >= 0 && send(half, hb, strlen(hb), MSG_NOSIGNAL) < 0)
				break;
			sl_loop_once(l, 1000);
		}
		for (; n < SL_WEB_CONN_MAX + 8; n++) {
			idle[n] = client(port);
			if (idle[n] < 0)
				break;
			sl_loop_once(l, 0);
		}
		for (int i = 0; i < 50; i++)
			sl_loop_once(l, 1000);
		ASK("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
		sl_web_stats(w, &st);
		T(status_of(a) == 200, "%d idle connections held: a real request got %.100s", n, a);
		T(n < SL_WEB_CONN_MAX || st.evicted >= (uint64_t)(n - SL_WEB_CONN_MAX),
		  "%d idle connections, %" PRIu64 " evicted", n, st.evicted);
		for (int i = 0; i < n; i++)
			close(idle[i]);
		{
			size_t got = 0;
			uint64_t end = sl_loop_now_us() + 2000000;

			a[0] = '\0';
			if (half >= 0 && send(half, "ll", 2, MSG_NOSIGNAL) == 2)
				while (sl_loop_now_us() < end) {
					ssize_t k;

					sl_loop_once(l, 1000);
					k = recv(half, a + got, sizeof(a) - 1 - got, 0);
					if (k == 0)
						break; /* the answer is whole: Connection: close */
					if (k > 0) {
						got += (size_t)k;
						a[got] = '\0';
					}
				}
			T(status_of(a) == 200 && strstr(a, "POST /b 4 -|hell") != NULL,
			  "a request half sent while %d idle ones came: %.300s", n, a);
			if (half >= 0)
				close(half);
		}
	}
	c.token = "s3cret";
	c.port = 0;
	{
		struct sl_web *w2 = sl_web_create(l, &c, err, sizeof(err));
		uint16_t p2 = w2 != NULL ? sl_web_port(w2) : 0;

		ask(l, p2, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", 29, a, sizeof(a));
		T(status_of(a) == 401, "no token: %.100s", a);
		ask(l, p2, "GET /a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n\r\n", 58,
		    a, sizeof(a));
		T(status_of(a) == 200, "the token: %.100s", a);
		ask(l, p2, "GET /a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3creT\r\n\r\n", 58,
		    a, sizeof(a));
		T(status_of(a) == 401, "a wrong token: %.100s", a);
		sl_web_free(w2);
	}
	/* An address in use: a message, nothing left. */
	c.token = NULL;
	c.port = port;
	T(sl_web_create(l, &c, err, sizeof(err)) == NULL && strstr(err, "choose another port"),
	  "the same port twice: %s", err);
	c.host = "localhost";
	T(sl_web_create(l, &c, err, sizeof(err)) == NULL && strstr(err, "numeric"),
	  "a name for an address: %s", err);
	/* A handler that frees its server: no use after free (ASan in CI). */
	c.nb_routes = 4;
	c.port = 0;
	c.host = "127.0.0.1";
	dying = sl_web_create(l, &c, err, sizeof(err));
	if (dying != NULL) {
		uint16_t pd = sl_web_port(dying);

		ask(l, pd, "GET /die HTTP/1.1\r\nHost: x\r\n\r\n", 31, a, sizeof(a));
		T(status_of(a) == 200, "the handler that frees its server answered: %.100s", a);
	}
	sl_web_free(w);
	{
		int fd = client(port);
		char b;

		for (int i = 0; i < 20; i++)
			sl_loop_once(l, 1000);
		T(fd < 0 || (recv(fd, &b, 1, 0) <= 0 && errno != EAGAIN),
		  "after sl_web_free the port still takes connections");
		if (fd >= 0)
			close(fd);
	}
	sl_loop_free(l);
#undef ASK
}

/* 32 MB: more than socket buffers take (tcp_wmem: 4 MB here), so an unread one stays held. */
#define BIG (32u << 20)

static void
big(void *arg, const struct sl_web_req *q, struct sl_web_reply *r)
{
	(void)arg;
	(void)q;
	r->status = 200;
	r->ctype = "application/octet-stream";
	r->body = calloc(1, BIG);
	r->len = r->body != NULL ? BIG : 0;
}

static const struct sl_web_route big_routes[] = {
	{ "GET", "/big", big },
	{ "GET", "/a", echo },
};

/*
 * Answers held for a client that does not read are bounded: past out_max a
 * large one is 503 with Retry-After, a small one (what a call did) goes.
 */
static void
test_held(void)
{
	struct sl_loop *l = sl_loop_create();
	struct sl_web_conf c = { .host = "127.0.0.1", .routes = big_routes, .nb_routes = 2,
				 .out_max = BIG + BIG / 2, .close = true };
	char err[256], a[4096];
	struct sl_web *w = l != NULL ? sl_web_create(l, &c, err, sizeof(err)) : NULL;
	int hold, rcv = 4096;
	uint16_t port;

	T(w != NULL, "create: %s", w == NULL ? err : "");
	if (w == NULL) {
		sl_loop_free(l);
		return;
	}
	port = sl_web_port(w);
	/* A client that asks for 32 MB and reads nothing (a small receive buffer). */
	hold = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (hold >= 0) {
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
		const char *req = "GET /big HTTP/1.1\r\nHost: x\r\n\r\n";

		setsockopt(hold, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
		inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
		if (connect(hold, (struct sockaddr *)&sa, sizeof(sa)) != 0 && errno != EINPROGRESS)
			T(false, "connect: %s", strerror(errno));
		for (int i = 0; i < 200; i++) {
			if (i == 5 && send(hold, req, strlen(req), MSG_NOSIGNAL) < 0)
				break;
			sl_loop_once(l, 1000);
		}
	}
	ask(l, port, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", 31, a, sizeof(a));
	T(status_of(a) == 503 && strstr(a, "Retry-After: 1") != NULL,
	  "a second 32 MB answer past 48 MB held: %.120s", a);
	ask(l, port, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", 29, a, sizeof(a));
	T(status_of(a) == 200, "a small answer always goes: %.120s", a);
	if (hold >= 0)
		close(hold);
	sl_web_free(w);
	sl_loop_free(l);
}

int
main(void)
{
	test_routes();
	test_held();
	printf("test_web: %d passed, %d failed\n", pass, fail);
	return fail != 0;
}
