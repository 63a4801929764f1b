/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_XMIT_PVT_H
#define SL_XMIT_PVT_H

/*
 * Internals shared with the tests only. Not part of the API.
 */

#include "sl_xmit.h"

/*
 * Test switch: the owner does not re-check "missed" after unlocking. Exists
 * so that a test can show that packets get stranded without the re-check
 * (the 2021 lockless qdisc bug) and are not with it.
 */
#define SL_TXQ_T_NO_RECHECK (1u << 0)

/* Take the queue's lock word as the current lcore (returns 1 on success). */
int sl_txq_test_trylock(struct sl_txq *q);
/* Release it, with the missed re-check unless SL_TXQ_T_NO_RECHECK. */
void sl_txq_test_release(struct sl_txq *q);

#endif /* SL_XMIT_PVT_H */
