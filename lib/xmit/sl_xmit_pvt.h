/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_XMIT_PVT_H
#define SL_XMIT_PVT_H

/*
 * Internals shared with the tests only. Not part of the API, and compiled
 * only into the test build of the engine (lib sl_xmit_test, -DSL_XMIT_TEST,
 * linked into sluice-test alone): the production engine has no fault switch
 * and no hook in its code. struct sl_txq keeps the same layout in both
 * builds (test_flags sits in a cold line), so the inline code of sl_xmit.h
 * agrees with either library.
 */

#ifndef SL_XMIT_TEST
#error "sl_xmit_pvt.h is for the test build only (-DSL_XMIT_TEST)"
#endif

struct sl_txq; /* sl_xmit.h */

/*
 * Test switch: the owner does not re-check "missed" after unlocking. Exists
 * so that a test can show that packets get stranded without the re-check
 * (the 2021 lockless qdisc bug) and are not with it.
 */
#define SL_TXQ_T_NO_RECHECK (1u << 0)
/*
 * Test switch: locked mode hands a colliding burst to the backlog at once,
 * without the bounded wait (the engine before issue 16), for comparisons.
 */
#define SL_TXQ_T_NO_WAIT (1u << 1)

/* Take the queue's lock word as the current lcore (returns 1 on success). */
int sl_txq_test_trylock(struct sl_txq *q);
/* Release it, with the missed re-check unless SL_TXQ_T_NO_RECHECK. */
void sl_txq_test_release(struct sl_txq *q);

/*
 * Split-enqueue hook. While one is set, every backlog enqueue is done in its
 * steps (move the RTS producer head, copy the pointers, call fn, publish
 * the tail), so that a test can stop a producer between moving the head
 * and publishing the tail. fn runs on the enqueuing thread, for every
 * queue: it must check q and the thread itself. NULL removes it.
 */
typedef void (*sl_txq_test_hook_t)(struct sl_txq *q, void *arg);
void sl_txq_test_set_enq_hook(sl_txq_test_hook_t fn, void *arg);

#endif /* SL_XMIT_PVT_H */
