/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_TEST_COMMON_H
#define SL_TEST_COMMON_H

/*
 * Helpers shared by the engine tests: a scripted driver, signed packets
 * from the real generator, and a producer loop for worker lcores.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "sl_gen.h"
#include "sl_xmit.h"

/*
 * A scripted driver: takes up to `budget` packets in all (then BUSY), checks
 * per-producer order from the signatures, frees what it takes. With lltx it
 * has its own trylock and answers LOCKED; without, it counts concurrent
 * entries as violations. With `park` the next call that gets in stops inside,
 * holding the driver's lock (lltx) or the engine's (otherwise), until the
 * test sets `unpark`. With `unpark_at_locked` N (lltx), its Nth LOCKED
 * answer first lets the parked call go and waits until `*parked_done` is set
 * (the parked caller's sl_xmit has returned), so that a drainer's retry finds
 * the driver's lock free. With `reenter` it calls sl_xmit() on that queue
 * from inside its own xmit (the same queue: a dead loop); with `reenter_try`
 * the call is sl_xmit_try(), and `reenter_kept` says whether it kept the packet
 * (which the driver then frees, returning 0).
 */
struct tdrv {
	uint64_t budget;          /* UINT64_MAX: unlimited */
	bool lltx;
	uint32_t lock;
	uint32_t inside;
	uint64_t violations;      /* atomic */
	uint64_t locked;          /* atomic */
	uint64_t taken;
	uint64_t order_errors;
	uint32_t next_seq[256];
	uint32_t first_producer1; /* 1 + the producer of the first signed frame taken (0: none) */
	uint32_t hold_loops;      /* rte_pause() loops inside, widens races */
	uint32_t yield_inside;    /* sched_yield() inside (lock held): provokes collisions */
	uint32_t park;            /* the next call parks inside (lock held) until unpark */
	uint32_t parked;          /* set by the parked call */
	uint32_t unpark;          /* set by the test to let it go */
	uint64_t unpark_at_locked; /* 0: never; N: at the Nth LOCKED answer, unpark and wait */
	const uint32_t *parked_done; /* set when the parked caller's sl_xmit has returned */
	uint64_t calls;           /* atomic: every call, LOCKED answers included */
	uint64_t keep_lock_at;    /* lltx, 0: never; N: call N keeps the driver's lock (another
				   * sender took it as this one left); the test clears lock */
	struct sl_txq *reenter;
	struct rte_mempool *reenter_mp;
	uint16_t reenter_ret;
	bool reenter_try;
	bool reenter_kept;
};

uint16_t tdrv_xmit(void *dq, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *st);

/* A compiled 64-byte stream and a pool of its packets. */
const struct sl_stream *test_stream(void);
struct rte_mempool *test_pool(const char *name, unsigned int n);

/* A producer running on a worker lcore. */
struct prod {
	struct sl_txq *q;
	struct sl_gen gen;
	uint64_t target;          /* packets to hand to sl_xmit */
	const volatile uint32_t *more; /* while set, keep going past target */
	const volatile uint32_t *go;   /* if set, wait for it before starting */
	uint64_t cap_tsc;         /* never run past this TSC */
	bool defer;               /* sl_xmit_try(); a kept burst goes with the next one */
	uint64_t deferred;        /* times sl_xmit_try() kept a burst */
	uint64_t generated;       /* taken by sl_xmit */
	uint64_t unsent;          /* built, freed at the end (never taken) */
	uint32_t done;            /* set (release) when the loop has ended */
};

int producer_main(void *arg);

/* Wait (yielding the CPU) until *flag is non-zero. */
void test_wait_flag(const uint32_t *flag);

/* Create a queue or return NULL; the test checks. */
struct sl_txq *test_txq(sl_drv_xmit_t xmit, void *drv, uint32_t caps, enum sl_txq_mode mode,
			uint32_t backlog, uint32_t flags);

#endif /* SL_TEST_COMMON_H */
