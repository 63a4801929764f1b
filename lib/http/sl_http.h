/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_HTTP_H
#define SL_HTTP_H

/**
 * @file
 * A small HTTP/1.x server that answers one thing: GET on one path (e.g.
 * /metrics for Prometheus). It runs on a DPDK control thread
 * (rte_ctrl_thread_create: off the worker lcores) that sleeps in poll(),
 * and it is built to survive what a listening socket meets:
 *
 * - a request line that is not HTTP (garbage bytes): 400, then closed;
 * - a method other than GET: 405 (with Allow: GET); another path: 404;
 * - a request head longer than SL_HTTP_HEAD_MAX: 431;
 * - a slow client (half a request, or a response it does not read): closed
 *   SL_HTTP_TIMEOUT_MS after it connected, whatever it did;
 * - more connections than SL_HTTP_CONN_MAX: the one waiting longest for its
 *   request is closed to make room, so a flood of idle connections cannot
 *   lock out a real client.
 *
 * Every answer has Connection: close and the connection ends after it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SL_HTTP_CONN_MAX 256
#define SL_HTTP_HEAD_MAX 8192
#define SL_HTTP_TIMEOUT_MS 5000

struct sl_http;

/**
 * Make the body of a 200 answer. Called on the server's thread, once per
 * good request. @p openmetrics: the client's Accept names
 * application/openmetrics-text. Returns a malloc'ed body (the server frees
 * it) and its length in @p len, or NULL (the client gets 500).
 */
typedef char *(*sl_http_body_fn)(void *arg, bool openmetrics, size_t *len);

struct sl_http_conf {
	const char *host;     /**< numeric IPv4 or IPv6 address to listen on */
	uint16_t port;        /**< 0: the kernel picks one (sl_http_port() tells it) */
	const char *path;     /**< the one path answered, e.g. "/metrics" */
	sl_http_body_fn body;
	void *arg;
};

/** What the server has seen (relaxed reads from another thread). */
struct sl_http_stats {
	uint64_t accepted;    /**< connections accepted */
	uint64_t ok;          /**< 200 answers */
	uint64_t refused;     /**< 400, 404, 405, 431 answers */
	uint64_t timed_out;   /**< connections closed at SL_HTTP_TIMEOUT_MS */
	uint64_t evicted;     /**< idle connections closed to make room */
};

/**
 * Listen and start the thread. Returns the server, or NULL with rte_errno
 * set and a message in @p err (the address cannot be parsed, cannot be
 * bound: in use, not on this machine; no thread). Nothing is left open on
 * failure.
 */
struct sl_http *sl_http_create(const struct sl_http_conf *c, char *err, size_t len);
/** The port listened on (the kernel's choice when conf.port was 0). */
uint16_t sl_http_port(const struct sl_http *h);
void sl_http_stats(const struct sl_http *h, struct sl_http_stats *st);
/** Stop the thread, close every connection and the socket. NULL is a no-op. */
void sl_http_free(struct sl_http *h);

#endif /* SL_HTTP_H */
