/* SPDX-License-Identifier: BSD-3-Clause */
/* pcap replay (sl_replay.h): a capture read with libpcap, its schedule, its shares. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <rte_ip.h>
#include <rte_jhash.h>

#include "sl_replay.h"
#include "sl_sig.h"
#include "sl_wire.h"

/* Where a frame's IP packet and L4 header are (the signature's and the checksum's places). */
static void
frame_parse(const uint8_t *d, uint16_t len, struct sl_replay_frame *f)
{
	uint32_t off = 12, l3end, l4, hl;
	uint16_t type;
	uint8_t proto;

	f->sig_off = 0;
	f->ip = false;
	f->l4_proto = 0;
	if (len < 14)
		return;
	type = (uint16_t)(d[off] << 8 | d[off + 1]);
	for (int k = 0; k < SL_SIG_MAX_TAGS && (type == 0x8100 || type == 0x88a8); k++) {
		off += 4;
		if (len < off + 2)
			return;
		type = (uint16_t)(d[off] << 8 | d[off + 1]);
	}
	off += 2;
	if (type == 0x0800) {
		if (len < off + 20 || (d[off] >> 4) != 4 || (d[off] & 0xf) < 5)
			return;
		/* A fragment's L4 checksum covers what is not here. */
		if ((d[off + 6] & 0x3f) != 0 || d[off + 7] != 0)
			return;
		l3end = off + (uint32_t)(d[off + 2] << 8 | d[off + 3]);
		proto = d[off + 9];
		l4 = off + (d[off] & 0xf) * 4u;
		f->ipv6 = false;
	} else if (type == 0x86dd) {
		if (len < off + 40 || (d[off] >> 4) != 6)
			return;
		l3end = off + 40 + (uint32_t)(d[off + 4] << 8 | d[off + 5]);
		proto = d[off + 6];
		l4 = off + 40;
		f->ipv6 = true;
	} else {
		return;
	}
	if (l3end > len)
		return;
	/* An IP frame: its 5-tuple places it (sl_replay_share()), signed or not. */
	f->ip = true;
	f->l3_off = (uint16_t)off;
	f->l4_off = (uint16_t)l4;
	f->l4_proto = proto;
	switch (proto) {
	case IPPROTO_UDP:
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		hl = 8;
		break;
	case IPPROTO_TCP:
		if (l4 + 20 > l3end)
			return;
		hl = (d[l4 + 12] >> 4) * 4u;
		if (hl < 20)
			return; /* a header shorter than TCP's: sent as captured */
		break;
	default:
		return;
	}
	if (proto == IPPROTO_ICMP && f->ipv6)
		return;
	if (l4 + hl + SL_SIG_LEN > l3end)
		return; /* too short: sent unsigned */
	f->sig_off = (uint16_t)(l3end - SL_SIG_LEN);
}

/*
 * A pcapng's packet blocks in file order, as libpcap returns them: each
 * one's interface (EPB: its field; SPB: 0; the obsolete PB: its field),
 * numbered across sections. libpcap reads the frames; it does not say
 * which interface each came from, so the block headers are walked here.
 * Returns the number of packet blocks (ids malloc'd, NULL if ids is NULL),
 * and the interfaces in *nif; -1 if not a pcapng (or unreadable).
 */
static long
pcapng_walk(const char *path, uint32_t **ids, uint32_t *nif)
{
	FILE *f = fopen(path, "rb");
	uint32_t h[3], base = 0, in_sec = 0, cap = 0;
	long n = 0;
	bool swap = false;

	*nif = 0;
	if (ids != NULL)
		*ids = NULL;
	if (f == NULL)
		return -1;
	while (fread(h, 4, 2, f) == 2) {
		uint32_t type = h[0], blen = h[1];

		if (type == 0x0A0D0D0A) { /* a section: its byte order, its own interfaces */
			if (fread(&h[2], 4, 1, f) != 1)
				break;
			swap = h[2] == 0x4D3C2B1A;
			if (!swap && h[2] != 0x1A2B3C4D)
				break;
			base += in_sec;
			in_sec = 0;
			if (swap)
				blen = __builtin_bswap32(blen);
			if (blen < 16 || fseek(f, (long)blen - 12, SEEK_CUR) != 0)
				break;
			continue;
		}
		if (n == 0 && *nif == 0 && base == 0 && in_sec == 0 && ftell(f) == 8)
			break; /* no section header first: not a pcapng */
		if (swap) {
			type = __builtin_bswap32(type);
			blen = __builtin_bswap32(blen);
		}
		if (blen < 12 || blen % 4 != 0)
			break;
		if (type == 1) {
			in_sec++;
			(*nif)++;
		} else if (type == 6 || type == 3 || type == 2) {
			uint32_t id = 0;

			if (type != 3) {
				uint32_t w;

				if (fread(&w, 4, 1, f) != 1)
					break;
				w = swap ? __builtin_bswap32(w) : w;
				id = type == 6 ? w : (swap ? w >> 16 : w & 0xffff);
				if (fseek(f, -4, SEEK_CUR) != 0)
					break;
			}
			if (ids != NULL) {
				if ((uint32_t)n == cap) {
					uint32_t *ni = realloc(*ids, (cap ? 2 * cap : 4096) * sizeof(*ni));

					if (ni == NULL)
						break;
					*ids = ni;
					cap = cap ? 2 * cap : 4096;
				}
				(*ids)[n] = base + id;
			}
			n++;
		}
		if (fseek(f, (long)blen - 8, SEEK_CUR) != 0)
			break;
	}
	fclose(f);
	if (*nif == 0) {
		if (ids != NULL) {
			free(*ids);
			*ids = NULL;
		}
		return -1;
	}
	return n;
}

uint32_t
sl_replay_ifaces(const char *path)
{
	uint32_t nif;

	if (pcapng_walk(path, NULL, &nif) >= 0)
		return nif;
	return 1;
}

struct sl_replay *
sl_replay_load(const char *path, uint64_t mem, int iface, char *err, size_t len)
{
	uint32_t *ifs = NULL, nif = 1, seen = 0;
	long nblk = -1;
	char e[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, e);
	struct sl_replay *r;
	struct pcap_pkthdr *h;
	const u_char *d;
	uint64_t ts0 = 0, cap = 1024, dcap = 1 << 20;
	int ret;

	if (p == NULL) {
		snprintf(err, len, "%s: %s (give a pcap or pcapng file)", path, e);
		return NULL;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		snprintf(err, len, "%s: link type %s: Sluice replays Ethernet captures "
			 "(DLT_EN10MB); give it Ethernet headers (tcprewrite --dlt=enet) or capture on an Ethernet port", path,
			 pcap_datalink_val_to_name(pcap_datalink(p)) ?: "unknown");
		pcap_close(p);
		return NULL;
	}
	if (iface >= 0) {
		nblk = pcapng_walk(path, &ifs, &nif);
		if (nblk < 0 || (uint32_t)iface >= nif) {
			snprintf(err, len, "%s: interface %d: %s", path, iface, nblk < 0 ?
				 "only a pcapng has several (a pcap has one: drop iface)" :
				 "the capture has no such interface (0 .. its count - 1)");
			free(ifs);
			pcap_close(p);
			return NULL;
		}
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		goto nomem;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->f = malloc(cap * sizeof(*r->f));
	r->data = malloc(dcap);
	if (r->f == NULL || r->data == NULL)
		goto nomem;
	r->min_len = UINT16_MAX;
	while ((ret = pcap_next_ex(p, &h, &d)) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
		struct sl_replay_frame *f;

		if (seen++ == 0)
			ts0 = ts; /* the capture's first frame, of any interface */
		if (ts >= ts0 && ts - ts0 > r->span_ns)
			r->span_ns = ts - ts0;
		if (iface >= 0 && (seen > (uint64_t)nblk || ifs[seen - 1] != (uint32_t)iface))
			continue;
		if (h->len < 14 || h->len > UINT16_MAX) {
			snprintf(err, len, "%s: frame %u: %u bytes is no Ethernet frame this program "
				 "sends (14 to 65535): leave it out (editcap -d, or tshark -Y) and "
				 "replay the rest", path, seen, h->len);
			goto fail;
		}
		if (h->caplen > h->len) {
			snprintf(err, len, "%s: frame %u: its record says %u bytes captured of %u on "
				 "the wire: the file is corrupt (capture it again)", path, seen,
				 h->caplen, h->len);
			goto fail;
		}
		if (h->caplen < h->len) {
			snprintf(err, len, "%s: frame %u: %u of its %u bytes were captured: replay "
				 "whole frames (capture with a larger snap length, -s 0)", path,
				 seen, h->caplen, h->len);
			goto fail;
		}
		if (r->bytes + h->len > mem) {
			snprintf(err, len, "%s: its frames pass %" PRIu64 " MB at frame %u: give "
				 "--pcap-mem with more (and EAL more memory, -m), or a shorter "
				 "capture", path, mem >> 20, seen);
			goto fail;
		}
		if (r->nb == UINT32_MAX - 1) {
			snprintf(err, len, "%s: more than %u frames", path, UINT32_MAX - 1);
			goto fail;
		}
		if (r->nb == cap) {
			struct sl_replay_frame *nf = realloc(r->f, 2 * cap * sizeof(*nf));

			if (nf == NULL)
				goto nomem;
			r->f = nf;
			cap *= 2;
		}
		while (r->bytes + h->len > dcap) {
			uint8_t *nd = realloc(r->data, 2 * dcap);

			if (nd == NULL)
				goto nomem;
			r->data = nd;
			dcap *= 2;
		}
		f = &r->f[r->nb];
		/* Time runs forward: a frame stamped before the last is sent with it. */
		f->ts_ns = ts >= ts0 ? ts - ts0 : 0;
		if (r->nb > 0 && f->ts_ns < r->f[r->nb - 1].ts_ns)
			f->ts_ns = r->f[r->nb - 1].ts_ns;
		f->off = r->bytes;
		f->num = seen;
		f->len = (uint16_t)h->len;
		memcpy(r->data + r->bytes, d, h->len);
		frame_parse(d, f->len, f);
		r->nb_signable += f->sig_off != 0;
		r->bytes += h->len;
		r->min_len = RTE_MIN(r->min_len, f->len);
		r->max_len = RTE_MAX(r->max_len, f->len);
		r->nb++;
	}
	if (ret == -1 && seen == 0) {
		snprintf(err, len, "%s: its first frame: %s (the file is cut short or corrupt: "
			 "capture it again)", path, pcap_geterr(p));
		goto fail;
	}
	if (ret == -1) {
		snprintf(err, len, "%s: after frame %u: %s (the file is cut short or corrupt: "
			 "capture it again, or cut it at the last whole frame, e.g. editcap -r %s "
			 "out.pcap 1-%u)", path, seen, pcap_geterr(p), path, seen);
		goto fail;
	}
	if (r->nb == 0) {
		if (iface >= 0)
			snprintf(err, len, "%s: no frame of interface %d in it: give another "
				 "interface (iface N)", path, iface);
		else
			snprintf(err, len, "%s: no frame in it: give a capture with frames", path);
		goto fail;
	}
	r->nb_all = seen;
	free(ifs);
	pcap_close(p);
	return r;
nomem:
	snprintf(err, len, "%s: out of memory", path);
fail:
	free(ifs);
	pcap_close(p);
	sl_replay_free(r);
	return NULL;
}

void
sl_replay_free(struct sl_replay *r)
{
	if (r == NULL)
		return;
	free(r->f);
	free(r->data);
	free(r);
}

int
sl_replay_schedule(const struct sl_replay *r, const struct sl_replay_timing *t, uint64_t *off,
		   uint64_t *period, char *err, size_t len)
{
	const struct sl_rate *rt = &t->rate;
	double bits = 0, span = 0;

	for (uint32_t i = 0; i < r->nb; i++) {
		const struct sl_replay_frame *f = &r->f[i];

		if (rt->unit == SL_RATE_PPS)
			off[i] = (uint64_t)((double)i * 1e9 / rt->value);
		else if (rt->unit == SL_RATE_L1 || rt->unit == SL_RATE_L2)
			off[i] = (uint64_t)(bits * 1e9 / rt->value);
		else if (t->speed > 0)
			off[i] = (uint64_t)RTE_MIN((double)f->ts_ns / t->speed, 1e18);
		else
			off[i] = 0;
		bits += rt->unit == SL_RATE_L1 ? (double)sl_wire_l1_bytes(f->len) * 8 :
			(double)(f->len + SL_WIRE_FCS) * 8;
	}
	if (rt->unit == SL_RATE_PPS)
		span = (double)r->nb * 1e9 / rt->value;
	else if (rt->unit == SL_RATE_L1 || rt->unit == SL_RATE_L2)
		span = bits * 1e9 / rt->value;
	else if (t->speed > 0 && r->nb_all > 1)
		span = (double)r->span_ns / t->speed * (double)r->nb_all / (double)(r->nb_all - 1);
	/* At most 30 years a loop: the schedule counts in 64-bit TSC cycles. */
	if (!(span < 1e18)) {
		snprintf(err, len, "%s: its schedule spans %.3g s a loop (the capture's stamps, at "
			 "this speed or rate): give a higher --pcap-speed, a rate, or max", r->path,
			 span / 1e9);
		return -EINVAL;
	}
	*period = (uint64_t)span;
	return 0;
}

uint32_t
sl_replay_share(const struct sl_replay *r, uint32_t i, uint32_t nb)
{
	const struct sl_replay_frame *f = &r->f[i];
	const uint8_t *d = r->data + f->off;
	uint8_t key[40];
	uint32_t n = 0;

	if (nb <= 1)
		return 0;
	if (f->ip) {
		/* Addresses, protocol, and the ports of UDP and TCP. */
		uint32_t a = f->ipv6 ? f->l3_off + 8 : f->l3_off + 12, al = f->ipv6 ? 32 : 8;

		memcpy(key, d + a, al);
		n = al;
		key[n++] = f->l4_proto;
		if ((f->l4_proto == IPPROTO_UDP || f->l4_proto == IPPROTO_TCP) &&
		    f->l4_off + 4u <= f->len) {
			memcpy(key + n, d + f->l4_off, 4);
			n += 4;
		}
	} else {
		memcpy(key, d, RTE_MIN((uint32_t)f->len, 14u)); /* MACs and EtherType */
		n = RTE_MIN((uint32_t)f->len, 14u);
	}
	return rte_jhash(key, n, 0x5a17u) % nb;
}

bool
sl_replay_fill(const struct sl_replay *r, uint32_t i, struct rte_mbuf *m, const uint64_t *words)
{
	const struct sl_replay_frame *f = &r->f[i];
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	rte_memcpy(p, r->data + f->off, f->len);
	m->data_len = f->len;
	m->pkt_len = f->len;
	if (words == NULL || f->sig_off == 0)
		return false;
	memcpy(p + f->sig_off, words, SL_SIG_LEN);
	/* The L4 checksum again, over the pseudo-header (IPv4 UDP's 0: none, kept). */
	{
		uint8_t *l4 = p + f->l4_off;
		uint16_t *ck = (uint16_t *)(l4 + (f->l4_proto == IPPROTO_UDP ? 6 :
						  f->l4_proto == IPPROTO_TCP ? 16 : 2));

		if (f->l4_proto == IPPROTO_UDP && !f->ipv6 && *ck == 0)
			return true;
		*ck = 0;
		if (f->l4_proto == IPPROTO_ICMP) {
			const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + f->l3_off);

			*ck = (uint16_t)~rte_raw_cksum(l4, rte_be_to_cpu_16(ip->total_length) -
						      (f->l4_off - f->l3_off));
		} else if (f->ipv6) {
			*ck = rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)(p + f->l3_off), l4);
		} else {
			*ck = rte_ipv4_udptcp_cksum((const struct rte_ipv4_hdr *)(p + f->l3_off), l4);
		}
		if (f->l4_proto == IPPROTO_UDP && *ck == 0)
			*ck = 0xffff;
	}
	return true;
}
