/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_SIM_H
#define SL_SIM_H

/**
 * @file
 * The simulated NIC: a TX driver with no hardware behind it.
 *
 * Each queue has a descriptor ring of txd entries. A virtual wire, shared by
 * the port's queues, serialises frames at the line rate with Ethernet's wire
 * overhead (frames padded to 60 bytes, plus FCS, preamble, SFD and
 * inter-frame gap: 24 bytes beyond the bytes handed to the driver). Wire
 * time is computed lazily from the TSC: a descriptor is free again once its
 * frame has left the wire, so a full ring answers SL_XMIT_BUSY and the line
 * rate is real. No thread runs behind it.
 *
 * Personalities: lltx off (not MT-safe: a concurrent entry on one queue is
 * detected, counted as a violation and refused with BUSY), lltx on
 * (SL_DRV_CAP_LLTX, coarse: an internal trylock per queue over the whole
 * transmit; SL_XMIT_LOCKED when it fails) and lltx fine (SL_DRV_CAP_LLTX,
 * fine-grained, as MT-safe NIC drivers do it: a caller reserves its
 * descriptors with one CAS on the queue's tail, fills them outside any lock
 * and publishes each by storing its mbuf; the wire takes descriptors in ring
 * order once published, as a NIC's DMA engine would. Reaping, the verifier
 * and the DUT model are behind a trylock that a caller skips when another
 * holds it. Never answers SL_XMIT_LOCKED).
 *
 * With verify on, every frame leaving the wire is checked: its payload
 * signature (sl_sig.h) gives per (stream, producer) sequence numbers on the
 * queue (lost, duplicated, reordered) and the TX time (latency to the end of
 * the frame on the wire).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "sl_drv.h"
#include "sl_port.h"

struct sl_sim;

/**
 * A device under test between a sim port's wire and a receiving sim port
 * (--sim 10G,dut=PORT,...): frames leaving the wire go through the model,
 * in this order: capacity, loss, duplication, reordering, delay. Every
 * random choice comes from a generator seeded with seed (deterministic for
 * a given seed and order of frames).
 */
struct sl_sim_dut {
	int32_t port;          /**< receiving port (a sim's port number), -1: none */
	uint64_t capacity_pps; /**< forwarding capacity, 0: unlimited */
	uint32_t queue;        /**< frames the DUT queues ahead of its capacity; 0: SL_SIM_DUT_QUEUE */
	double loss;           /**< probability a frame is dropped, 0..1 */
	double dup;            /**< probability a frame is delivered twice */
	double reorder;        /**< probability a frame is held back behind the next one */
	uint64_t delay_ns;     /**< fixed delay */
	uint64_t jitter_ns;    /**< plus uniform 0..jitter_ns (FIFO kept: no reordering) */
	uint64_t seed;
};

/**
 * Default depth of the DUT's queue in front of its capacity (frames): a
 * queue of Q frames served at capacity_pps, i.e. a token bucket of depth Q.
 */
#define SL_SIM_DUT_QUEUE 512
/** Largest queue=. */
#define SL_SIM_DUT_MAX_QUEUE 65536
/** Largest delay and jitter, nanoseconds (1 s each). */
#define SL_SIM_DUT_MAX_DELAY_NS 1000000000ull
/** Slots of a sim port's RX ring (it holds SL_SIM_RX_RING - 1 frames). */
#define SL_SIM_RX_RING 65536

struct sl_sim_conf {
	uint64_t speed_bps;  /**< line rate, bit/s (> 0) */
	uint64_t wire_bps;   /**< the rate its wire really sends at (0: speed_bps): a port
			          that advertises more than it can send, for tests of a
			          generator that falls short of its load (at most speed_bps) */
	uint32_t txd;        /**< descriptors per queue (1..65536) */
	uint16_t nb_txq;     /**< queues (1..1024) */
	bool lltx;           /**< MT-safe, SL_DRV_CAP_LLTX: internal trylock (coarse) */
	bool fine;           /**< with lltx: fine-grained (reserve, fill, publish) instead */
	bool verify;         /**< check signatures at the wire */
	int socket_id;
	struct sl_sim_dut dut; /**< the wire's far end; dut.port -1 when none */
};

/** Counters of the whole port, summed over queues. */
struct sl_sim_stats {
	uint64_t frames;       /**< frames taken into descriptors */
	uint64_t bytes;        /**< their bytes as handed (no FCS) */
	uint64_t wire_frames;  /**< frames that left the wire */
	uint64_t wire_bytes;   /**< their bytes as handed (no FCS) */
	uint64_t busy;         /**< calls answered BUSY (ring full or link down) */
	uint64_t locked;       /**< calls answered LOCKED (lltx on) */
	uint64_t violations;   /**< concurrent entries on a queue (lltx off) */
	uint64_t overlaps;     /**< lltx fine: calls that found another inside (reaping) */
	uint64_t discarded;    /**< frames freed at drain time-out, never on the wire */
	/* Wire clock, TSC cycles: first and last frame start, last frame end. */
	uint64_t first_start_tsc, last_start_tsc, last_end_tsc;
	/* Wire time between the first and the last frame with nothing to send. */
	uint64_t wire_idle_tsc;
	/* Verifier (when verify is on). */
	uint64_t signed_frames, unsigned_frames;
	uint64_t lost, duplicates, reordered;
	uint64_t lat_min_ns, lat_max_ns, lat_avg_ns;
	uint64_t lat_backwards; /* signed frames on the wire "before" signed: not in the latency */
};

/**
 * Create a simulated port.
 * @return the port, or NULL with rte_errno = EINVAL (bad conf) or ENOMEM.
 */
struct sl_sim *sl_sim_create(const struct sl_sim_conf *conf);

/** Free a port; frames still in descriptors are freed (see sl_sim_drain()). */
void sl_sim_free(struct sl_sim *sim);

/** Driver queue handle of queue @p qid, for struct sl_txq_conf.drv_queue. */
void *sl_sim_txq(struct sl_sim *sim, uint16_t qid);

/** SL_DRV_CAP_LLTX if the port was created with lltx on or fine, else 0. */
uint32_t sl_sim_caps(const struct sl_sim *sim);

/** Line rate in bit/s. */
uint64_t sl_sim_speed(const struct sl_sim *sim);

/** The driver entry point (sl_drv_xmit_t); see the driver contract in sl_xmit.h. */
uint16_t sl_sim_xmit(void *txq, struct rte_mbuf **pkts, uint16_t n, enum sl_xmit_status *status);

/**
 * Fault injection. Link down: the port takes no new frames (SL_XMIT_BUSY);
 * frames already on the wire finish. Stall: the wire sends nothing for @p us
 * microseconds from now. Slow drain: the wire runs at speed / @p factor
 * (1 restores it). MT-safe.
 */
void sl_sim_set_link(struct sl_sim *sim, bool up);
void sl_sim_stall(struct sl_sim *sim, uint64_t us);
void sl_sim_set_slowdown(struct sl_sim *sim, uint32_t factor);

/**
 * At stop: wait (at most timeout_us) for every frame to leave the wire, then
 * free and count the frames still in descriptors as discarded. With a DUT
 * model, the frames it holds in its reorder slots are then delivered to the
 * receiving ring (so that only frames waiting for their delivery time stay
 * held). Call only when no lcore transmits on the port.
 * @return frames discarded.
 */
uint64_t sl_sim_drain(struct sl_sim *sim, uint64_t timeout_us);

/**
 * Open a simulated port as a Sluice port (sl_port.h): @p conf gives its line
 * rate, default descriptors, personality, verifier and DUT (nb_txq and
 * socket_id are set by each setup); @p idx numbers it (name simN, MAC
 * 02:51:ce:00:00:N). Its RX side is created here.
 *
 * conf->dut.port is a port number as the application numbers ports: every
 * ethdev port first, then the sims by idx (port P is the sim of idx
 * P - rte_eth_dev_count_avail()). It is resolved at each setup (the
 * receiving sim may be opened after this one): a port that is not a sim, or
 * does not exist, refuses the setup with an error naming it.
 *
 * The table offers rx_burst, rx_drops (imissed: frames the RX side refused)
 * and dut (the model of the frames this port sends). Setup with rx starts
 * receiving; stop empties the RX ring (frames not collected by then are
 * freed: xstat rx_flushed).
 * @return 0, or -ENOMEM.
 */
int sl_sim_port_open(const struct sl_sim_conf *conf, uint16_t idx, struct sl_port_info *info,
		     const struct sl_port_ops **ops, void **dev);

/**
 * Parse a sim's device arguments, RATE[,txd=N][,lltx=on|off|fine]
 * [,verify=on|off][,wire=RATE][,dut=PORT,capacity=RATE,queue=N,loss=P,dup=P,
 * reorder=P,delay=US[:JITTER_US],seed=N] (docs/sim-dut.md). 0, or -EINVAL
 * with @p err saying what is wrong (@p sc unchanged).
 */
int sl_sim_parse(const char *arg, struct sl_sim_conf *sc, char *err, size_t len);

/** Sum the counters. MT-safe; exact after sl_sim_drain(). */
void sl_sim_stats_get(const struct sl_sim *sim, struct sl_sim_stats *st);

/*
 * The receive side and the DUT model.
 *
 * Each sim port has an RX side (struct sl_sim_rx), created when the port is
 * opened and freed when it is closed: an rte_ring of SL_SIM_RX_RING slots,
 * multi-producer (every TX queue of every sim whose dut names this port
 * enqueues into it) and single-consumer (rx_burst). Each element carries an
 * mbuf and the TSC at which it is delivered; rx_burst returns frames in ring
 * order (FIFO) and only while the frame at the head is due, so a frame is
 * never received before its delivery time (it may be after it, when a frame
 * before it in the ring is due later).
 *
 * A sim created with dut.port >= 0 and attached to a receiving RX side
 * (sl_sim_dut_attach) passes every frame that leaves its wire through the
 * model instead of freeing it. The model's state is per TX queue (no lock;
 * deterministic from dut.seed and the queue index) except its capacity: one
 * FIFO of dut.queue frames served at capacity_pps, shared by every TX queue
 * (a CAS), in wire time: GCRA of that depth, the wait added to the delivery
 * time; a frame its queue reaps after a later-sent frame of another queue
 * arrives at that later time (the model's input stays in time order). Then, per queue: loss, duplication (the same mbuf delivered
 * twice, its reference count raised), reordering (one frame held back and
 * delivered right after the next frame the model delivers), delay (fixed
 * plus uniform jitter, in order: a frame's delivery time is never before the
 * previous one's on its queue). Frames the RX side refuses (its ring full, or
 * the port not set up to receive this run) are freed and counted in the
 * model as dropped_full and at the receiver as imissed (rx_nombuf stays 0:
 * the sim never allocates to receive). Frames delivered while the receiving
 * port's link is down (sl_sim_rx_set_link()) never reach it: the model
 * counts them as dropped_link, the receiver nothing.
 */
struct sl_sim_rx;

/** An RX side on @p socket_id; @p idx only names its ring. NULL with rte_errno set. */
struct sl_sim_rx *sl_sim_rx_create(uint16_t idx, int socket_id);

/** Free the RX side and the frames in its ring. */
void sl_sim_rx_free(struct sl_sim_rx *rx);

/** The receiving port's link (up again at each sl_sim_rx_start()). Any thread. */
void sl_sim_rx_set_link(struct sl_sim_rx *rx, bool up);

/**
 * At the port's setup: counters from zero; @p on: frames arriving are kept
 * in the ring, else refused (imissed). Frames already in the ring stay.
 */
void sl_sim_rx_start(struct sl_sim_rx *rx, bool on);
/**
 * Stamp received frames with their delivery time (TSC cycles, DPDK's RX
 * timestamp dynamic field), as a NIC with RX timestamps would.
 * @return 1 stamping, 0 not asked, or a negative errno (the field could not
 *   be registered: not stamping).
 */
int sl_sim_rx_stamp(struct sl_sim_rx *rx, bool on);

/** Free the frames in the ring (due or not); returns how many. No rx_burst meanwhile. */
unsigned int sl_sim_rx_flush(struct sl_sim_rx *rx);

/** Up to @p n frames whose delivery time has come, in ring order. Single consumer. */
uint16_t sl_sim_rx_burst(struct sl_sim_rx *rx, struct rte_mbuf **pkts, uint16_t n);

/** The RX side's own drops since sl_sim_rx_start() (imissed: refused frames). */
void sl_sim_rx_drops(const struct sl_sim_rx *rx, struct sl_port_rx_drops *d);

/** Frames received (returned by rx_burst) and flushed since sl_sim_rx_start(). */
void sl_sim_rx_counts(const struct sl_sim_rx *rx, uint64_t *received, uint64_t *flushed);

/**
 * Connect @p sim's wire (created with conf.dut.port >= 0) to @p rx through
 * the model. Before any frame is sent. 0, -EINVAL (no dut in the conf) or
 * -ENOMEM.
 */
int sl_sim_dut_attach(struct sl_sim *sim, struct sl_sim_rx *rx);

/**
 * The model's ground truth since the sim was created; false if it has none.
 * MT-safe (a snapshot while frames flow); exact when no lcore transmits.
 * delivered counts the frames in the receiving ring whose delivery time has
 * come (received or not) and held the others plus the reorder slots, so
 * in + duplicated = delivered + dropped_* + held at every quiet moment.
 */
bool sl_sim_dut_get(const struct sl_sim *sim, struct sl_port_dut *d);

/**
 * Free what the model's reorder slots hold without delivering it (a stop
 * without sl_sim_drain()); counted as discarded. sl_sim_drain() instead
 * delivers them.
 */
void sl_sim_dut_discard(struct sl_sim *sim);

#endif /* SL_SIM_H */
