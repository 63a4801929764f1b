/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_FRONT_API_TLS_H
#define SL_FRONT_API_TLS_H

/* The API's credentials (api_tls.c): its TLS material and its bearer token. */

#include <stddef.h>

#include "app.h"

/*
 * The TLS certificate and key, PEM, malloc'd (api_tls.c): o's files, or a
 * self-signed pair made now for o's host. 0 or -errno with err set.
 */
int sl_api_tls(const struct sl_opts *o, char **cert, char **key, char *err, size_t len);
/* The bearer token in path (one line, 16 characters or more). 0 or -EINVAL. */
int sl_api_token(const char *path, char *tok, size_t tlen, char *err, size_t len);

#endif /* SL_FRONT_API_TLS_H */
