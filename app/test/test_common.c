/* SPDX-License-Identifier: BSD-3-Clause */
#include <sched.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_pause.h>

#include "sl_sig.h"
#include "test_common.h"

uint16_t
tdrv_xmit(void *dq, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *st)
{
	struct tdrv *d = dq;
	uint64_t call = __atomic_fetch_add(&d->calls, 1, __ATOMIC_RELAXED) + 1;
	uint16_t k;

	if (d->lltx) {
		uint32_t exp = 0;

		if (!__atomic_compare_exchange_n(&d->lock, &exp, 1, 0, __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED)) {
			if (__atomic_fetch_add(&d->locked, 1, __ATOMIC_RELAXED) + 1 ==
			    d->unpark_at_locked) {
				/* The holder leaves between this answer and the caller's retry. */
				__atomic_store_n(&d->unpark, 1, __ATOMIC_RELEASE);
				test_wait_flag(d->parked_done);
			}
			*st = SL_XMIT_LOCKED;
			return 0;
		}
	} else if (__atomic_fetch_add(&d->inside, 1, __ATOMIC_ACQUIRE) != 0) {
		__atomic_fetch_add(&d->violations, 1, __ATOMIC_RELAXED);
	}
	if (d->reenter != NULL) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(d->reenter_mp);

		if (m == NULL) {
			d->reenter_ret = 0;
		} else if (!d->reenter_try) {
			d->reenter_ret = sl_xmit(d->reenter, &m, 1);
		} else {
			d->reenter_ret = sl_xmit_try(d->reenter, &m, 1, m->pkt_len,
						     &d->reenter_kept);
			if (d->reenter_kept)
				rte_pktmbuf_free(m);
		}
	}
	if (__atomic_load_n(&d->park, __ATOMIC_ACQUIRE) &&
	    __atomic_exchange_n(&d->park, 0, __ATOMIC_ACQ_REL)) {
		__atomic_store_n(&d->parked, 1, __ATOMIC_RELEASE);
		test_wait_flag(&d->unpark);
	}
	for (uint32_t i = 0; i < d->hold_loops; i++)
		rte_pause();
	if (d->yield_inside)
		sched_yield();
	k = (uint16_t)RTE_MIN((uint64_t)n, d->budget);
	if (d->budget != UINT64_MAX)
		d->budget -= k;
	for (uint16_t i = 0; i < k; i++) {
		struct sl_sig sg, *s = &sg;

		if (sl_sig_parse(pkts[i], s) == SL_SIG_OK) {
			if (d->first_producer1 == 0)
				d->first_producer1 = s->producer + 1u;
			if (s->seq != d->next_seq[s->producer])
				d->order_errors++;
			d->next_seq[s->producer] = s->seq + 1;
		}
	}
	d->taken += k;
	rte_pktmbuf_free_bulk(pkts, k);
	*st = k == n ? SL_XMIT_OK : SL_XMIT_BUSY;
	if (d->lltx) {
		if (call != d->keep_lock_at)
			__atomic_store_n(&d->lock, 0, __ATOMIC_RELEASE);
	} else {
		__atomic_fetch_sub(&d->inside, 1, __ATOMIC_RELEASE);
	}
	return k;
}

const struct sl_stream *
test_stream(void)
{
	static struct sl_stream s;
	static bool built;
	char err[128];

	if (!built) {
		struct sl_stream_conf c = {
			.src_mac = { { 0x02, 0, 0, 0, 0, 1 } },
			.dst_mac = { { 0x02, 0, 0, 0, 0, 2 } },
			.src_ip = RTE_IPV4(198u, 18, 0, 1), /* unsigned: 198 << 24 overflows int */
			.dst_ip = RTE_IPV4(198u, 18, 0, 2),
			.src_port = 9,
			.dst_port = 9,
			.sizes = { 64 },
			.nb_sizes = 1,
		};

		if (sl_stream_build(&s, &c, 1518, err, sizeof(err)) != 0)
			return NULL;
		built = true;
	}
	return &s;
}

struct rte_mempool *
test_pool(const char *name, unsigned int n)
{
	return sl_stream_pool_create(test_stream(), name, n, SOCKET_ID_ANY);
}

void
test_wait_flag(const uint32_t *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		sched_yield();
}

int
producer_main(void *arg)
{
	struct prod *p = arg;
	struct rte_mbuf *pk[64];
	uint16_t off = 0, pend = 0;
	uint64_t bytes = 0;
	bool kept = false;

	while (p->go != NULL && !__atomic_load_n(p->go, __ATOMIC_ACQUIRE))
		rte_pause();
	for (;;) {
		uint64_t now = rte_rdtsc();
		uint16_t k;

		if (pend == 0) {
			bool want = p->generated < p->target ||
				(p->more != NULL && __atomic_load_n(p->more, __ATOMIC_RELAXED));

			if (!want || now >= p->cap_tsc)
				break;
			if (sl_gen_burst(&p->gen, pk, 32, now) == 0) {
				rte_pause();
				continue;
			}
			off = 0;
			pend = 32;
			bytes = p->gen.bytes;
		} else if (now >= p->cap_tsc) {
			break;
		}
		if (p->defer && off == 0 && pend == 32 && !kept) {
			k = sl_xmit_try(p->q, pk, pend, bytes, &kept);
			if (kept) {
				/* The next burst goes behind the kept one, then both. */
				p->deferred++;
				if (sl_gen_burst(&p->gen, pk + 32, 32, now) != 0) {
					pend = 64;
					bytes += p->gen.bytes;
				}
				continue;
			}
		} else {
			kept = false;
			k = sl_xmit(p->q, pk + off, pend);
		}
		off += k;
		pend -= k;
		p->generated += k;
		if (k == 0)
			rte_delay_us_sleep(5); /* back-pressure: back off */
	}
	if (pend != 0) {
		rte_pktmbuf_free_bulk(pk + off, pend);
		p->unsent += pend;
	}
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return 0;
}

struct sl_txq *
test_txq(sl_drv_xmit_t xmit, void *drv, uint32_t caps, enum sl_txq_mode mode, uint32_t backlog,
	 uint32_t flags)
{
	struct sl_txq_conf c = {
		.xmit = xmit,
		.drv_queue = drv,
		.drv_caps = caps,
		.mode = mode,
		.backlog_size = backlog,
		.socket_id = SOCKET_ID_ANY,
		.flags = flags,
	};

	return sl_txq_create(&c);
}
