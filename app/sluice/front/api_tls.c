/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The API's TLS material (api_tls.h): a certificate and key read from files,
 * or, as the OTG's reference implementation does, a self-signed one made
 * at start with GnuTLS (ECDSA P-256, SHA-256, valid 1 year, for
 * "localhost" and the address served). Clients then turn verification
 * off (snappi: verify=False) or pin this run's certificate, which the
 * program writes out when asked (--api-cert-out).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#include <gnutls/x509.h>

#include "api_tls.h"

/* A whole file, NUL-terminated, at most 1 MB. */
static char *
read_pem(const char *path, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (f == NULL) {
		snprintf(err, len, "cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(1 << 20);
	n = buf != NULL ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf == NULL || n == 0 || n == (1 << 20) - 1) {
		snprintf(err, len, "'%s': %s", path, buf == NULL ? "out of memory" :
			 n == 0 ? "empty" : "over 1 MB: give a PEM file");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (strstr(buf, "-----BEGIN ") == NULL) {
		snprintf(err, len, "'%s' is not PEM (-----BEGIN ...): give a PEM file", path);
		free(buf);
		return NULL;
	}
	return buf;
}

static char *
pem_of(gnutls_datum_t *d)
{
	char *s = malloc(d->size + 1);

	if (s != NULL) {
		memcpy(s, d->data, d->size);
		s[d->size] = '\0';
	}
	gnutls_free(d->data);
	return s;
}

/* A self-signed certificate for host (and localhost, 127.0.0.1, ::1). */
static int
self_signed(const char *host, char **cert, char **key, char *err, size_t len)
{
	gnutls_x509_privkey_t k = NULL;
	gnutls_x509_crt_t c = NULL;
	gnutls_datum_t dk = { 0 }, dc = { 0 };
	unsigned char serial[8];
	uint8_t a[16];
	time_t now = time(NULL);
	int r;

	r = gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof(serial));
	serial[0] &= 0x7f; /* a positive serial */
	if (r == 0)
		r = gnutls_x509_privkey_init(&k);
	if (r == 0)
		r = gnutls_x509_privkey_generate(k, GNUTLS_PK_ECDSA,
						 GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0);
	if (r == 0)
		r = gnutls_x509_crt_init(&c);
	if (r == 0)
		r = gnutls_x509_crt_set_version(c, 3);
	if (r == 0)
		r = gnutls_x509_crt_set_serial(c, serial, sizeof(serial));
	if (r == 0)
		r = gnutls_x509_crt_set_activation_time(c, now - 3600);
	if (r == 0)
		r = gnutls_x509_crt_set_expiration_time(c, now + 365 * 86400);
	if (r == 0)
		r = gnutls_x509_crt_set_dn_by_oid(c, GNUTLS_OID_X520_COMMON_NAME, 0, "sluice", 6);
	if (r == 0)
		r = gnutls_x509_crt_set_subject_alt_name(c, GNUTLS_SAN_DNSNAME, "localhost", 9,
							 GNUTLS_FSAN_APPEND);
	if (r == 0)
		r = gnutls_x509_crt_set_subject_alt_name(c, GNUTLS_SAN_IPADDRESS,
							 (uint8_t[4]){ 127, 0, 0, 1 }, 4,
							 GNUTLS_FSAN_APPEND);
	if (r == 0 && strcmp(host, "127.0.0.1") != 0) {
		bool v4 = inet_pton(AF_INET, host, a) == 1;

		if (v4 || inet_pton(AF_INET6, host, a) == 1)
			r = gnutls_x509_crt_set_subject_alt_name(c, GNUTLS_SAN_IPADDRESS, a,
								 v4 ? 4 : 16, GNUTLS_FSAN_APPEND);
	}
	if (r == 0)
		r = gnutls_x509_crt_set_key_usage(c, GNUTLS_KEY_DIGITAL_SIGNATURE);
	if (r == 0)
		r = gnutls_x509_crt_set_key_purpose_oid(c, GNUTLS_KP_TLS_WWW_SERVER, 0);
	if (r == 0)
		r = gnutls_x509_crt_set_key(c, k);
	if (r == 0)
		r = gnutls_x509_crt_sign2(c, c, k, GNUTLS_DIG_SHA256, 0);
	if (r == 0)
		r = gnutls_x509_crt_export2(c, GNUTLS_X509_FMT_PEM, &dc);
	if (r == 0)
		r = gnutls_x509_privkey_export2(k, GNUTLS_X509_FMT_PEM, &dk);
	gnutls_x509_crt_deinit(c);
	gnutls_x509_privkey_deinit(k);
	if (r != 0) {
		gnutls_free(dc.data);
		gnutls_free(dk.data);
		snprintf(err, len, "cannot make a self-signed certificate: %s (give --api-cert "
			 "and --api-key, or serve http://)", gnutls_strerror(r));
		return -EINVAL;
	}
	*cert = pem_of(&dc);
	*key = pem_of(&dk);
	if (*cert == NULL || *key == NULL) {
		free(*cert);
		free(*key);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int
sl_api_tls(const struct sl_opts *o, char **cert, char **key, char *err, size_t len)
{
	*cert = *key = NULL;
	if (o->api_cert[0] == '\0')
		return self_signed(o->api_host, cert, key, err, len);
	*cert = read_pem(o->api_cert, err, len);
	*key = *cert != NULL ? read_pem(o->api_key, err, len) : NULL;
	if (*key == NULL) {
		free(*cert);
		*cert = NULL;
		return -EINVAL;
	}
	/* Checked as the server will load them: a pair that does not match, said now. */
	{
		gnutls_certificate_credentials_t cr;
		gnutls_datum_t dc = { (unsigned char *)*cert, (unsigned int)strlen(*cert) };
		gnutls_datum_t dk = { (unsigned char *)*key, (unsigned int)strlen(*key) };
		int r = gnutls_certificate_allocate_credentials(&cr);

		if (r == 0) {
			r = gnutls_certificate_set_x509_key_mem(cr, &dc, &dk, GNUTLS_X509_FMT_PEM);
			gnutls_certificate_free_credentials(cr);
		}
		if (r < 0) {
			snprintf(err, len, "%s and %s: %s (give a PEM certificate and its own key)",
				 o->api_cert, o->api_key, gnutls_strerror(r));
			free(*cert);
			free(*key);
			*cert = *key = NULL;
			return -EINVAL;
		}
	}
	return 0;
}

int
sl_api_token(const char *path, char *tok, size_t tlen, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL) {
		snprintf(err, len, "cannot read '%s': %s", path, strerror(errno));
		return -EINVAL;
	}
	n = fread(tok, 1, tlen - 1, f);
	fclose(f);
	tok[n] = '\0';
	while (n > 0 && (tok[n - 1] == '\n' || tok[n - 1] == '\r' || tok[n - 1] == ' '))
		tok[--n] = '\0';
	if (n < 16 || n == tlen - 1 || strspn(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
					      "qrstuvwxyz0123456789-._~+/=") != n) {
		snprintf(err, len, "'%s': give a token of 16 to %zu characters of base64 or "
			 "URL-safe text on one line (e.g. head -c 32 /dev/urandom | base64)", path,
			 tlen - 2);
		return -EINVAL;
	}
	return 0;
}
