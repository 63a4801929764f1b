/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_WEB_H
#define SL_WEB_H

/**
 * @file
 * The program's one HTTP server: libmicrohttpd driven from the main lcore's
 * loop (lib/loop), no thread of its own. A server listens on one address
 * and answers a table of routes (method and path); every handler runs on
 * the loop's thread, between its other events, so it may read and change
 * what the loop owns without a lock. Several servers (the API's address,
 * --metrics's) run on one loop.
 *
 * Built to survive what a listening socket meets:
 *
 * - what is not HTTP/1.x: libmicrohttpd's 400 (or 505), then closed;
 * - a path not in the table: 404; a path there with another method: 405
 *   with Allow; a head longer than SL_WEB_HEAD_MAX: 431; a body longer than
 *   the server's body_max: 413;
 * - a slow client: a request (head and body) not whole SL_WEB_REQ_MS after
 *   its connection opened or its last answer went is closed (a byte a
 *   second does not keep it open); so is an answer of which nothing was
 *   taken for SL_WEB_SEND_MS;
 * - more than SL_WEB_CONN_MAX connections: the one waiting longest for its
 *   request's head (else for its body) is closed to make room, so a flood
 *   of idle connections cannot lock out a real client; with few file
 *   descriptors left, fewer;
 * - answers held for clients that do not read them: past SL_WEB_OUT_MAX
 *   bytes in all, a large one (a download) is 503 with Retry-After; one
 *   of at most SL_WEB_OUT_SMALL bytes (what a call did) always goes.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SL_WEB_CONN_MAX 256
#define SL_WEB_HEAD_MAX 8192
#define SL_WEB_REQ_MS 5000
#define SL_WEB_SEND_MS 30000
/** Bytes of answers held until their clients take them, over every connection. */
#define SL_WEB_OUT_MAX (256u << 20)
/** An answer this small is never refused for SL_WEB_OUT_MAX (what a call did is said). */
#define SL_WEB_OUT_SMALL (64u << 10)
/**
 * libmicrohttpd's memory per connection: far above SL_WEB_HEAD_MAX, so a
 * head it has read and we refuse (431) leaves it room to answer.
 */
#define SL_WEB_POOL (64u << 10)

struct sl_loop;
struct sl_web;

/** A whole request, as the handler sees it (valid during the call). */
struct sl_web_req {
	const char *method;
	const char *path;     /**< without the query */
	const char *body;     /**< NUL-terminated; "" when none */
	size_t len;
	void *conn;           /**< for sl_web_header() */
};

/** The answer a handler fills in (status 0: 500). */
struct sl_web_reply {
	unsigned int status;
	char *body;           /**< malloc'd, the server frees it; NULL: empty */
	size_t len;
	const char *ctype;    /**< static; NULL: application/json */
	const char *hdr;      /**< one more header's name (static), or NULL */
	char hdr_val[64];     /**< and its value */
};

typedef void sl_web_fn(void *arg, const struct sl_web_req *q, struct sl_web_reply *r);

struct sl_web_route {
	const char *method;   /**< "GET", "POST" */
	const char *path;
	sl_web_fn *fn;
};

/** Fill r with an error answer of status saying msg (the default: text/plain). */
typedef void sl_web_error_fn(unsigned int status, const char *msg, struct sl_web_reply *r);

struct sl_web_conf {
	const char *host;     /**< numeric IPv4 or IPv6 address to listen on */
	uint16_t port;        /**< 0: the kernel picks one (sl_web_port() tells it) */
	const struct sl_web_route *routes;
	unsigned int nb_routes;
	void *arg;            /**< every handler's first argument */
	size_t body_max;      /**< 0: no body taken (413) */
	const char *token;    /**< NULL or "": none; else Authorization: Bearer TOKEN */
	const char *cert, *key; /**< PEM, for https; NULL: plain http */
	sl_web_error_fn *error; /**< NULL: text/plain */
	bool close;           /**< every answer ends its connection (Connection: close) */
	size_t out_max;       /**< bytes of answers held in all; 0: SL_WEB_OUT_MAX */
};

/** What a server has seen. */
struct sl_web_stats {
	uint64_t accepted;    /**< connections opened */
	uint64_t answered;    /**< requests answered by a handler */
	uint64_t refused;     /**< 401, 404, 405, 413 answers of the server */
	uint64_t timed_out;   /**< connections closed at SL_WEB_REQ_MS or SL_WEB_SEND_MS */
	uint64_t evicted;     /**< idle connections closed to make room */
};

/**
 * Listen on the conf's address and serve on loop l. Returns the server, or
 * NULL with a message in @p err saying what to do (the address cannot be
 * parsed, is in use, is not on this machine; no TLS). Nothing is left open
 * on failure. The conf's strings are copied; routes and arg are kept.
 */
struct sl_web *sl_web_create(struct sl_loop *l, const struct sl_web_conf *c, char *err,
			     size_t len);
/** The port listened on (the kernel's choice when conf.port was 0). */
uint16_t sl_web_port(const struct sl_web *w);
/** The value of request header @p name, or NULL. */
const char *sl_web_header(const struct sl_web_req *q, const char *name);
void sl_web_stats(const struct sl_web *w, struct sl_web_stats *st);
/**
 * Close every connection and the socket. NULL is a no-op. From a handler
 * (or a loop run inside one), when libmicrohttpd's turn has returned.
 */
void sl_web_free(struct sl_web *w);

#endif /* SL_WEB_H */
