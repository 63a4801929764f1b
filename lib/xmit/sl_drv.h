/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_DRV_H
#define SL_DRV_H

/**
 * @file
 * The driver contract: what a TX driver (in drivers/net/) implements for the
 * engine (sl_xmit.h). Drivers include this header only, not the engine.
 */

#include <stdint.h>

#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Outcome of one driver call (the driver contract). */
enum sl_xmit_status {
	SL_XMIT_OK = 0,	 /**< all n packets taken */
	SL_XMIT_BUSY,	 /**< ring full: a prefix (maybe empty) was taken */
	SL_XMIT_LOCKED,	 /**< LLTX driver's own trylock failed: nothing taken or touched */
};

/**
 * The driver contract: transmit a prefix of pkts.
 *
 * Takes ownership of pkts[0..sent) and returns sent; the caller keeps
 * pkts[sent..n). *status is SL_XMIT_OK when sent == n, SL_XMIT_BUSY when
 * the device ring is full (sent < n), SL_XMIT_LOCKED when an LLTX driver's
 * own trylock failed (sent == 0 and no packet, counter or state touched).
 * A driver without SL_DRV_CAP_LLTX is never called concurrently on one queue.
 *
 * An LLTX driver that can answer SL_XMIT_LOCKED holds its own lock only
 * inside this call (taken and released by the caller's thread before it
 * returns), never from a timer, a reaper or another path: the engine's
 * hand-off (docs/lltx.md rule 3) relies on the holder being a sender that
 * comes back to the engine and re-checks. Even so, the hand-off can end at
 * the release's re-check bound (counted in release_bound); the packets then
 * wait for the next producer or the queue's poll (every millisecond in the app).
 */
typedef uint16_t (*sl_drv_xmit_t)(void *drv_queue, struct rte_mbuf **pkts, uint16_t n,
				  enum sl_xmit_status *status);

/** Driver capability: safe to call concurrently on one queue (NETIF_F_LLTX). */
#define SL_DRV_CAP_LLTX (1u << 0)

#ifdef __cplusplus
}
#endif

#endif /* SL_DRV_H */
