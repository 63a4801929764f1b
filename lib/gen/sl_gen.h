/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_GEN_H
#define SL_GEN_H

/**
 * @file
 * Streams: what a generator sends. A stream is compiled once (control path)
 * into a frame template, a table of per-size header values and partial
 * checksums, and a size order; its mempools are filled with the template
 * when they are created, and frames are recycled raw (sl_gen_data_skip()).
 * In steady state a burst writes only what varies per packet: lengths
 * (when several sizes are used), the flow fields (when --flows > 1) and
 * the payload signature, and finishes the IPv4 and L4 checksums from the
 * precomputed partial sums (RFC 1071/1624 arithmetic); a lean stream
 * (sl_stream.lean) writes nothing at all when none of these vary. Only
 * streams sharing a pool (the flows of one port, sl_gen.copy_len) copy
 * their headers per packet. Every packet gets its own flow fields, so the
 * set of flows does not depend on which mbuf the pool hands out.
 *
 * Templates: Ethernet, optional 802.1Q tag, IPv4 or IPv6, UDP or TCP.
 * Sizes are Ethernet frame sizes including the 4-byte FCS, as RFC 2544
 * counts them: size 64 hands 60 bytes to the NIC.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "sl_rate.h"
#include "sl_sig.h"
#include "sl_stack.h"
#include "sl_wire.h"

#define SL_GEN_MAX_SIZES 64       /* sizes in a --size list */
#define SL_GEN_MAX_DISTINCT 2048  /* distinct sizes (a range) */
#define SL_GEN_MAX_ORDER 4096     /* length of the size order */
#define SL_GEN_MIN_FRAME SL_WIRE_MIN_FRAME /* with FCS */
#define SL_GEN_MAX_FRAME 9022     /* with FCS: 9000-byte MTU, tagged */

/** Header fields the field engine can vary. */
enum sl_field_kind {
	SL_FIELD_SRC_MAC,  /**< low 24 bits of the MAC */
	SL_FIELD_DST_MAC,
	SL_FIELD_SRC_IP,   /**< IPv4, or the low 32 bits of IPv6 */
	SL_FIELD_DST_IP,
	SL_FIELD_SRC_PORT,
	SL_FIELD_DST_PORT,
	SL_FIELD_VLAN,     /**< VLAN id (needs --vlan) */
	SL_FIELD_KINDS,
	SL_FIELD_PATH = 64, /**< a header stack's field by its path (sl_field_conf.path) */
};

/** The user's name of a field kind ("src-mac", ..., "vlan"). */
extern const char *const sl_field_names[SL_FIELD_KINDS];
/** The user's name of a field mode ("inc", "dec", "random", "list"). */
extern const char *const sl_field_modes[];

/** The classic IMIX as a size list (7:4:1), for --imix and set imix. */
#define SL_GEN_IMIX "64:7,594:4,1518:1"

/** How a field varies, packet after packet. */
enum sl_field_mode {
	SL_FIELD_INC,      /**< start, start+step, ... start+(count-1)step, start, ... */
	SL_FIELD_DEC,      /**< start, start-step, ... start-(count-1)step, start, ... */
	SL_FIELD_RANDOM,   /**< uniform in [start, start+count) */
	SL_FIELD_LIST,     /**< the values of list[], in turn */
};

#define SL_FIELD_MAX 8
#define SL_FIELD_LIST_MAX 16

struct sl_field_conf {
	enum sl_field_kind kind;
	enum sl_field_mode mode;
	uint32_t start;                     /**< host order (for a MAC: its low 24 bits) */
	uint32_t count;                     /**< INC, DEC, RANDOM: how many values (>= 1) */
	uint32_t step;                      /**< INC, DEC: between two values (0 or 1: 1) */
	uint32_t list[SL_FIELD_LIST_MAX];   /**< LIST */
	uint16_t nb_list;
	char path[24];                      /**< SL_FIELD_PATH: HEADER[.N].FIELD (sl_stack.h) */
};

/** What a user configures. IPv4 addresses and ports in host byte order. */
struct sl_stream_conf {
	struct rte_ether_addr src_mac;
	struct rte_ether_addr dst_mac;
	uint16_t vlan;                    /**< 802.1Q VLAN id, 0 = untagged */
	bool ipv6;
	uint32_t src_ip, dst_ip;          /**< IPv4 */
	uint8_t src_ip6[16], dst_ip6[16]; /**< IPv6, network order */
	bool tcp;                         /**< TCP instead of UDP */
	uint16_t src_port, dst_port;
	uint32_t flows;                   /**< 0 or 1: one flow; N: source port, then source IP */
	struct sl_field_conf fields[SL_FIELD_MAX]; /**< the field engine */
	uint16_t nb_fields;
	/** Sizes: a list sent in turn, each weight[i] times per cycle (0 = 1)... */
	uint16_t sizes[SL_GEN_MAX_SIZES];
	uint16_t weights[SL_GEN_MAX_SIZES];
	uint16_t nb_sizes;
	/**
	 * ...or, when size_max != 0, every size in [size_min, size_max] equally
	 * often: in a shuffled order, or with size_step (>= 1) size_min,
	 * size_min + step, ... up to size_max, in ascending order.
	 */
	uint16_t size_min, size_max, size_step;
	uint16_t id;                      /**< stream id in the signature */
	/**
	 * A header stack as data (sl_stack.h), or none (hdrs.n == 0) for the
	 * classic headers above (Ethernet, VLAN, IPv4/IPv6, UDP/TCP). With a
	 * stack, the MACs, addresses and ports above are its defaults; vlan,
	 * tcp and flows are not used (the stack says them; fields vary any
	 * header).
	 */
	struct sl_hdrs hdrs;
	/** No signature in any frame (--sign off): nothing reads them. */
	bool nosig;
};

/**
 * The headers of stream @p c as data: its stack, or for the classic
 * headers (hdrs.n == 0) their preset, eth[/vlan(id=VLAN)]/ipv4|ipv6/udp|tcp,
 * whose MACs, addresses and ports are the flow's (sl_stack_defaults).
 * Both are laid by sl_stack_compile(). 0, or -EINVAL with @p err.
 */
int sl_stream_conf_hdrs(const struct sl_stream_conf *c, struct sl_hdrs *h, char *err,
			size_t len);

/** The bytes of @p c's headers as the compiler lays them, or -EINVAL if it refuses them. */
int sl_stream_conf_hdr_len(const struct sl_stream_conf *c);

/** Per-size values, precomputed. Sums are partial one's complement sums. */
struct sl_stream_size {
	uint16_t pkt_len;   /**< host order, without FCS */
	uint16_t ip_len;    /**< IPv4 total length / IPv6 payload length, network order */
	uint16_t l4_len;    /**< UDP length, network order (0 for TCP) */
	uint8_t sig;        /**< a signature fits */
	uint8_t sig_odd;    /**< the signature starts at an odd offset in the L4 segment */
	uint32_t ip_sum;    /**< IPv4 header without checksum and source address */
	uint32_t l4_sum;    /**< pseudo-header and L4 header without source address, source port, checksum */
	uint32_t l1_bits;   /**< bits on the wire: frame + FCS + preamble, SFD, IFG */
	uint32_t l2_bits;   /**< frame + FCS */
};

/** A compiled field: where it is, what it is part of, how it varies. */
struct sl_stream_field {
	uint16_t off;       /**< byte offset in the frame */
	uint8_t width;      /**< bytes written, 2, 3 (a MAC's low bytes) or 4 */
	uint8_t ip_sum;     /**< part of the IPv4 header checksum */
	uint8_t l4_sum;     /**< part of the L4 checksum (pseudo-header or header) */
	uint8_t mode;
	uint16_t keep;      /**< VLAN: the TCI bits kept (PCP, DEI) */
	uint8_t shift, bits; /**< a stack's field: its lowest bit and width in its width-byte window */
	uint32_t start, count;
	uint32_t step;      /**< INC, DEC: value k is start +/- k * step */
	uint32_t list[SL_FIELD_LIST_MAX];
};

/** A compiled stream. Read-only once built: shared by all workers of a port. */
struct sl_stream {
	/*
	 * What every burst reads comes first: these scalars, one_sz and the
	 * template's headers, in the first three cache lines and mostly one
	 * page (the worker prefetches them for a port's many flows). The
	 * struct needs no more than malloc's alignment (16).
	 */
	uint16_t max_len;                 /**< largest pkt_len */
	uint16_t min_len;
	uint16_t l3_off, l4_off, hdr_len;
	uint16_t ip_len_off, ip_csum_off, l4_len_off, l4_csum_off, sport_off, sip_off;
	bool ipv6, tcp;
	uint16_t id;
	uint32_t flows, port_span;
	uint16_t sport0;
	uint32_t sip0;                    /**< IPv4 source, or the low 32 bits of IPv6's */
	uint32_t sip_skip;                /**< the flows' address index from which they skip
					       the destination (one more); UINT32_MAX: never */
	uint32_t sip_sum0;                /**< partial sum of those 32 bits, one flow */
	uint16_t sport_be0;               /**< source port as stored, one flow */
	uint16_t nb_sizes, nb_order;
	uint16_t nb_fields;
	bool stacked;                     /**< a header stack: sl_gen_burst_stack() */
	bool nosig;                       /**< no frame carries a signature (--sign off) */
	/**
	 * Classic UDP headers, one size, no field, and one flow or flows of
	 * one address (port_span >= flows): a recycled frame gets only its
	 * source port, signature and UDP checksum, and nothing at all for one
	 * flow unsigned (sl_gen_lean()).
	 */
	bool lean;
	/**
	 * sz[order[0]]: a stream of one size (nb_order 1) reads it here, near
	 * the rest, not in sz[] (sl_gen_due(), the bursts).
	 */
	struct sl_stream_size one_sz;
	uint8_t tmpl[SL_GEN_MAX_FRAME] __rte_aligned(16); /**< headers + zero payload, largest size */
	struct sl_stream_size sz[SL_GEN_MAX_DISTINCT];
	struct sl_stream_field fields[SL_FIELD_MAX];
	struct sl_stack_rt st;            /**< its lengths and checksums */
	uint16_t order[SL_GEN_MAX_ORDER]; /**< indexes into sz, sent in this order */
	/** TCP payload bytes of order[0..i) over the order written twice (sl_gen_tcp_seq()) */
	uint32_t tcp_pre[2 * SL_GEN_MAX_ORDER + 1];
	uint32_t tcp_cycle;               /**< of one walk of the order: tcp_pre[nb_order] */
};

/**
 * Compile a stream.
 * @param max_frame  largest untagged frame (with FCS) the port allows: its MTU
 *                   + 18, e.g. 1518; a VLAN tag (c->vlan) adds 4 to it.
 * @return 0, or -EINVAL with a message in err that names what is wrong.
 */
int sl_stream_build(struct sl_stream *s, const struct sl_stream_conf *c, uint16_t max_frame,
		    char *err, size_t errlen);

/** Which part of a stream configuration a compile refused. */
enum sl_stream_part {
	SL_STREAM_PART_SIZE,  /**< the sizes (a size out of range, weights) */
	SL_STREAM_PART_FIELD, /**< a field of the field engine */
	SL_STREAM_PART_VLAN,  /**< the VLAN id */
	SL_STREAM_PART_FLOWS, /**< the flow count */
	SL_STREAM_PART_STACK, /**< the header stack */
};

/** Why a compile failed: the part at fault and what to do. */
struct sl_stream_err {
	enum sl_stream_part part;
	char msg[256];
};

/**
 * sl_stream_build() with a structured error: the part of @p c at fault
 * and the message (the same words sl_stream_build() writes).
 */
int sl_stream_compile(struct sl_stream *s, const struct sl_stream_conf *c, uint16_t max_frame,
		      struct sl_stream_err *e);

/**
 * Mean L1 and L2 bits per frame of the sizes a configuration sends (weights
 * and ranges as sl_stream_build() expands them), for rate checks before a
 * stream is built.
 */
void sl_stream_conf_mean_bits(const struct sl_stream_conf *c, double *l1, double *l2);

/**
 * Create a pktmbuf pool whose every mbuf holds the stream's template.
 * @return the pool, or NULL with rte_errno set (ENOMEM, EEXIST, ...).
 */
struct rte_mempool *sl_stream_pool_create(const struct sl_stream *s, const char *name,
					  unsigned int n, int socket_id);

/**
 * The pacer's catch-up bound, in microseconds of its rate (or one burst's
 * time, if that is longer: sl_pacer_set_slack()). A worker that could not
 * send for at most this long (a micro-stall: an interrupt, a short
 * preemption, a slow driver call, the worker's own receive work) makes the
 * whole deficit up at once, as fast as the device takes it, so the average
 * rate over a second stays exact. Of a longer outage (a device that
 * stopped taking frames, a link down, the lcore descheduled for longer)
 * only the last slack's worth is made up at once, as after a micro-stall;
 * the rest is let go, and of that up to SL_PACER_OWE_US is repaid
 * without a burst (below): no catch-up burst is longer than 64/63 of the
 * slack's worth. What is let go and not repaid is counted
 * (sl_pacer.skipped): a shortfall of the offered load, reported, never
 * hidden.
 */
#define SL_PACER_CATCHUP_US 1000

/**
 * The bound for evenly spaced frames (a benchmark's trials, RFC 2544 §16:
 * frames at a constant rate): at most one frame (or this many microseconds
 * of the rate, if more) is made up at once after a stall, so that a
 * policer's small burst allowance never sees a catch-up burst; the rest is
 * let go, repaid and counted as above.
 */
#define SL_PACER_EVEN_US 50

/**
 * What a pacer repays of the time it let go (sl_pacer.owed): the excess of
 * up to this many microseconds of lags past the slack (in all, beyond it
 * the time is let go for good). While it owes, each frame's deadline comes
 * 1/2^SL_PACER_REPAY_SHIFT of its time early (the rate 1.6 % higher,
 * whatever the caller's cadence; a catch-up after a stall at most 64/63 of
 * the slack's worth), and what is repaid is taken off the time let go: a
 * run or trial whose lcore lost a few milliseconds to stalls still offers
 * its whole load, frames evenly spaced.
 */
#define SL_PACER_OWE_US 20000
#define SL_PACER_REPAY_SHIFT 6

/**
 * A pacer: absolute deadlines, in 1/65536 TSC cycles since the first call
 * (so 2^48 cycles, about a day at 3 GHz, before it wraps). The cost of one
 * packet or one bit is kept in 1/2^32 cycles so that 64-byte frames at
 * 400G still pace to well under 0.01 %.
 */
struct sl_pacer {
	uint64_t t0;        /**< TSC of the first call */
	uint64_t next;      /**< deadline of the next packet */
	uint64_t per_unit;  /**< 2^-32 cycles per packet, or per bit */
	uint64_t lag_max;   /**< most TSC cycles a deadline was overdue when due() ran:
			         how late its lcore got back (descheduled, or too slow) */
	uint64_t slack;     /**< most lag made up, 1/65536 TSC cycles (sl_pacer_set_slack) */
	uint64_t skipped;   /**< lags beyond the slack, let go, 1/65536 TSC cycles in
			         total, less what was repaid (owed): time at the set rate
			         never offered */
	uint64_t mark;      /**< next before the last due() advanced it (see sl_gen_due) */
	uint64_t owed;      /**< of skipped, what is still to be repaid, 1/65536 TSC cycles */
	uint64_t owe_max;   /**< most owed (SL_PACER_OWE_US; sl_pacer_set_slack) */
	uint64_t behind_max; /**< most of its schedule it was behind at once, 1/65536 TSC
			          cycles: the lag it makes up at once (at most the slack)
			          plus what it owes; it never runs ahead of its schedule, so
			          this bounds what it sends above its rate at any time */
	uint64_t mark_repaid; /**< repaid by the last due() (given back with mark) */
	double mark_units;  /**< skipped_units before the last due()'s repayments */
	double skipped_units; /**< what skipped would have sent, in the pacer's unit
			           (packets, or L1 or L2 bits); net of what was repaid */
	uint8_t unit;       /**< SL_RATE_NONE, _PPS, _L1 or _L2 (sl_rate.h) */
};

/**
 * Set a pacer's catch-up bound (sl_pacer.slack): the larger of @p us
 * microseconds and the time @p units of its unit take at its rate (a
 * burst's packets, or their bits). sl_pacer_init() sets
 * SL_PACER_CATCHUP_US alone. It also sets what the pacer may owe
 * (SL_PACER_OWE_US). Call after sl_pacer_init().
 */
void sl_pacer_set_slack(struct sl_pacer *p, double units, uint64_t us);

/**
 * Frames a pacer let go: what its skipped time would have sent at its rate,
 * @p unit_bits the mean L1 or L2 bits of its frames (1 when it paces packets).
 */
static inline double
sl_pacer_skipped_frames(const struct sl_pacer *p, double unit_bits)
{
	return unit_bits > 0 ? p->skipped_units / unit_bits : 0;
}

/**
 * Let go whatever is due until @p tsc: the time from the pacer's next
 * deadline to tsc goes to skipped (and skipped_units), as a lag beyond the
 * slack would in sl_gen_due(), and the next deadline is tsc. For the end of
 * a run's window when what was due could not be made (the pool empty, the
 * device full, the worker's array of kept bursts full): counted, never
 * silent. A pacer that has not started (t0 0) or is unpaced is left alone.
 */
/* Count a lag of @p late (1/65536 cycles) let go, and move the next deadline to @p now. */
static inline void
sl_pacer_skip(struct sl_pacer *p, uint64_t late, uint64_t now)
{
	p->skipped += late;
	/* late is in 1/65536 cycles, per_unit in 2^-32 cycles a unit */
	p->skipped_units += (double)late * 65536.0 / (double)p->per_unit;
	p->next = now;
}

static inline void
sl_pacer_let_go(struct sl_pacer *p, uint64_t tsc)
{
	uint64_t now;
	int64_t late;

	if (p->unit == SL_RATE_NONE || p->t0 == 0 || p->per_unit == 0)
		return;
	now = (tsc - p->t0) << 16;
	late = (int64_t)(now - p->next);
	if (late > 0)
		sl_pacer_skip(p, (uint64_t)late, now);
}

/*
 * Repay what a pacer owes from a frame's time @p inc (1/65536 cycles):
 * 1/2^SL_PACER_REPAY_SHIFT of it, at most what is owed, taken off the time
 * let go. Returns what was repaid.
 */
static inline uint64_t
sl_pacer_repay(struct sl_pacer *p, uint64_t inc)
{
	uint64_t r = RTE_MIN(inc >> SL_PACER_REPAY_SHIFT, p->owed);

	p->owed -= r;
	p->skipped -= r;
	p->skipped_units -= (double)r * 65536.0 / (double)p->per_unit;
	if (p->skipped == 0 || p->skipped_units < 0)
		p->skipped_units = 0;
	p->mark_repaid += r;
	return r;
}

/*
 * Give back the frames the last sl_gen_due() made due (they were not
 * made): they are due again, and what their deadlines repaid is owed again.
 */
static inline void
sl_pacer_give_back(struct sl_pacer *p)
{
	uint64_t r = p->mark_repaid;

	p->next = p->mark;
	/* Unpaced: nothing was repaid (a rate change cleared what was, worker.h). */
	if (p->unit == SL_RATE_NONE)
		return;
	if (r != 0) {
		p->owed += r;
		p->skipped += r;
		p->skipped_units = p->mark_units;
		p->mark_repaid = 0;
	}
}

/** Time a pacer let go (sl_pacer.skipped), in TSC cycles. */
static inline uint64_t
sl_pacer_skipped_tsc(const struct sl_pacer *p)
{
	return p->skipped >> 16;
}

/**
 * Set a pacer to a resolved rate (sl_rate_resolve(): NONE, PPS, L1 or L2).
 * @return 0, or -EINVAL for a rate out of range (below 1 or above 10^13).
 */
int sl_pacer_init(struct sl_pacer *p, const struct sl_rate *rate);

/**
 * Where a producer is in its stream's frame order. The stream's frames are
 * numbered g = 0, 1, 2, ... (over all its producers); frame g belongs to
 * flow f = g mod flows, in round r = g / flows, and has the size
 * s->order[(f + r) mod nb_order]: each flow walks the size order from its
 * own offset, so every flow sees the whole size mix (sizes and flows are
 * not in lockstep). Kept incrementally: no division per frame.
 */
struct sl_gen_cur {
	uint32_t flow;      /**< g mod flows */
	uint32_t rq;        /**< r / nb_order (mod 2^32: TCP sequence numbers) */
	uint16_t pos;       /**< (flow + r) mod nb_order: the entry of s->order */
	uint16_t rr;        /**< r mod nb_order */
};

/**
 * How a producer's place moves per frame it sends (sl_gen_share()): its
 * stream's flow and order counts and the steps for nb_shares frames on.
 * A burst copies it to a local, so that writing frames (which may alias
 * anything) does not make the compiler load it again per frame.
 */
struct sl_gen_walk {
	uint32_t flows, L;  /**< s->flows, s->nb_order */
	uint32_t d_flow, d_rq;
	uint16_t d_pos, d_pos_wrap, d_rr;
};

/** One producer's state for one stream on one TX queue. */
struct sl_gen {
	const struct sl_stream *s;
	struct rte_mempool *mp;
	uint32_t seq;       /**< next sequence number (signature) */
	struct sl_gen_cur cur; /**< the next frame's place in the stream's order */
	uint8_t producer;   /**< producer id in the signature, unique per stream */
	uint8_t run;        /**< run tag in the signature */
	/**
	 * The share: this producer sends frames share, share + nb_shares, ...
	 * (sl_gen_share()); 0 until set: then share 0 of 1 (all frames).
	 */
	uint16_t nb_shares;
	struct sl_gen_walk w; /**< steps of cur per frame sent (sl_gen_step()) */
	uint64_t bytes;     /**< sum of pkt_len of the last burst built */
	uint32_t fidx[SL_FIELD_MAX];  /**< next index of each field */
	uint32_t fstep[SL_FIELD_MAX]; /**< its step per frame sent */
	uint32_t rnd;       /**< xorshift state of RANDOM fields */
	/**
	 * 0: the pool holds this stream's frames (filled with its template).
	 * Else the pool is shared by several streams (the flows of one port):
	 * each frame gets the first copy_len bytes of the template, a
	 * multiple of 64 (SL_GEN_COPY_ALIGN) at least the longest header of
	 * the streams sharing the pool, so no other stream's header is left
	 * behind; an older signature past them is cleared first.
	 */
	uint16_t copy_len;
	/**
	 * With copy_len: every stream sharing the pool sends one size, the
	 * same, all signed or all unsigned, so a frame's lengths are already
	 * right and no other stream's signature can lie outside this one's:
	 * only the headers are copied.
	 */
	bool copy_plain;
	/**
	 * Where a frame's data starts from its mbuf (sl_gen_data_skip()), set
	 * by the first burst: the lean path finds the data without reading
	 * the mbuf's header.
	 */
	uint16_t data_skip;
};

/**
 * The distance from an mbuf of @p mp to its data, as rte_pktmbuf_init()
 * leaves it: the mbuf, its private area, the headroom. The generator's
 * lean path writes frames there without reading the mbuf (raw recycling,
 * below). This relies on the mbufs of a stream's pool coming back as
 * rte_pktmbuf_free() puts them in the pool: data_off and buf_addr as
 * initialised, one segment, reference count 1, and the bytes the
 * generator wrote (its lengths, its headers, its signature). Every driver
 * Sluice runs on frees frames so: they transmit, copy or hand over the
 * mbuf, and nothing in Sluice moves data_off (test: gen_raw_contract).
 */
static inline uint16_t
sl_gen_data_skip(const struct rte_mempool *mp)
{
	return (uint16_t)(sizeof(struct rte_mbuf) + rte_pktmbuf_priv_size((struct rte_mempool *)mp) +
			  RTE_MIN((uint16_t)RTE_PKTMBUF_HEADROOM,
				  rte_pktmbuf_data_room_size((struct rte_mempool *)mp)));
}

/**
 * Give a producer its share of the stream's frame order: of nb_shares
 * producers of one stream, producer share (0..nb_shares-1) sends frames
 * share, share + nb_shares, share + 2 nb_shares, ... (flow, size and the
 * INC/DEC/LIST field values of those frames, and TCP sequence numbers), so
 * that the union of every producer's first n_k frames is the stream's
 * first sum(n_k) frames when the n_k are those of an equal split
 * (n_k = N / nb_shares + (k < N mod nb_shares)). Sets g->cur, the steps and
 * the field indexes; g->s must be set. Called lazily (share 0 of 1) by
 * sl_gen_due() and sl_gen_burst() on a gen left zeroed.
 * @return 0, or -EINVAL (share >= nb_shares or nb_shares == 0).
 */
int sl_gen_share(struct sl_gen *g, uint16_t share, uint16_t nb_shares);

/*
 * Move c to this producer's next frame (nb_shares frames on in the stream).
 * One size (L = 1) and one flow (N = 1) are the common cases and take
 * short paths: with one size the round is all there is (rq = r); with one
 * flow the round is the frame index, so rr = pos.
 */
static inline void
sl_gen_step(const struct sl_gen_walk *w, struct sl_gen_cur *c)
{
	const uint32_t L = w->L;
	uint32_t wrap = 0;

	if (w->flows == 1) {
		/* One flow: the round is the frame index (rr = pos). */
		c->pos += w->d_pos;
		c->rq += w->d_rq;
		if (c->pos >= L) {
			c->pos -= L;
			c->rq++;
		}
		c->rr = c->pos;
		return;
	}
	if (c->flow >= w->flows - w->d_flow) {
		/* Past the last flow: a new round (written so as not to overflow). */
		c->flow -= w->flows - w->d_flow;
		wrap = 1;
	} else {
		c->flow += w->d_flow;
	}
	if (L == 1) {
		/* One size: the round is all there is (rq = r). */
		c->rq += w->d_rq + wrap;
		return;
	}
	c->rq += w->d_rq;
	c->pos += w->d_pos + (wrap ? w->d_pos_wrap : 0);
	c->rr += w->d_rr + wrap;
	if (c->rr >= L) {
		c->rr -= L;
		c->rq++;
	}
	if (c->pos >= L)
		c->pos -= L;
	if (c->pos >= L)
		c->pos -= L;
}

/*
 * The TCP sequence number of the frame at c: the payload bytes its flow
 * sent before it (rounds 0..r-1 of that flow), as one sender numbers one
 * connection's bytes. Flow f's j-th frame has size order[(f + j) mod L],
 * so that is rq whole walks of the order plus rr entries from f mod L:
 * two lookups in the prefix sums of the order written twice.
 */
static inline uint32_t
sl_gen_tcp_seq(const struct sl_stream *s, const struct sl_gen_cur *c)
{
	uint32_t idx = c->pos + (c->pos < c->rr ? s->nb_order : 0);

	if (s->nb_order == 1)
		return c->rq * s->tcp_cycle;
	return c->rq * s->tcp_cycle + s->tcp_pre[idx] - s->tcp_pre[idx - c->rr];
}

/** sl_gen.copy_len is a multiple of this: whole cache lines, copied without a call. */
#define SL_GEN_COPY_ALIGN 64

/* Copy n bytes (a multiple of SL_GEN_COPY_ALIGN) of a template, a line at a time. */
static inline void
sl_gen_copy(uint8_t *dst, const uint8_t *src, uint16_t n)
{
	for (uint16_t k = 0; k < n; k += SL_GEN_COPY_ALIGN)
		memcpy(dst + k, src + k, SL_GEN_COPY_ALIGN);
}

/* The next xorshift32 value (never 0, so a period of 2^32 - 1). */
static inline uint32_t
sl_gen_xorshift(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * The next value of field i of the engine (its index moves to this
 * producer's next frame: fstep frames on).
 */
static inline uint32_t
sl_gen_field_next(struct sl_gen *g, const struct sl_stream_field *f, uint16_t i)
{
	uint32_t k = g->fidx[i], v;

	switch (f->mode) {
	case SL_FIELD_INC:
		v = f->start + k * f->step;
		break;
	case SL_FIELD_DEC:
		v = f->start - k * f->step;
		break;
	case SL_FIELD_RANDOM: {
		/*
		 * Lemire's multiply-shift with rejection: the high half of
		 * x * count is uniform in [0, count) once the x whose low
		 * half falls below 2^32 mod count are drawn again (a plain
		 * x % count favours the low 2^32 mod count values: twice
		 * as often for a range of 3e9).
		 */
		uint64_t m = (uint64_t)sl_gen_xorshift(&g->rnd) * f->count;

		if (unlikely((uint32_t)m < f->count)) {
			uint32_t t = -f->count % f->count;

			while ((uint32_t)m < t)
				m = (uint64_t)sl_gen_xorshift(&g->rnd) * f->count;
		}
		v = f->start + (uint32_t)(m >> 32);
		break;
	}
	default:
		v = f->list[k];
		break;
	}
	/* The index of this producer's next frame: fstep frames on. */
	if (k >= f->count - g->fstep[i])
		k -= f->count - g->fstep[i];
	else
		k += g->fstep[i];
	g->fidx[i] = k;
	return v;
}

/*
 * Write the next value of every field of the engine into p; return the
 * partial sums they add to the IPv4 header (*ipx) and to the L4 checksum.
 */
static inline uint64_t
sl_gen_fields(struct sl_gen *g, uint8_t *p, uint32_t *ipx)
{
	const struct sl_stream *s = g->s;
	uint64_t l4 = 0;

	*ipx = 0;
	if (unlikely(g->rnd == 0))
		g->rnd = 0x9e3779b9u ^ g->producer; /* xorshift must not start at 0 */
	for (uint16_t i = 0; i < s->nb_fields; i++) {
		const struct sl_stream_field *f = &s->fields[i];
		uint32_t v = sl_gen_field_next(g, f, i), sum;

		if (f->width == 4) {
			uint32_t be = rte_cpu_to_be_32(v);

			memcpy(p + f->off, &be, 4);
			sum = (be & 0xffff) + (be >> 16);
		} else if (f->width == 2) {
			uint16_t be = rte_cpu_to_be_16((uint16_t)(v | f->keep));

			*(unaligned_uint16_t *)(p + f->off) = be;
			sum = be;
		} else { /* a MAC's low 3 bytes: in no checksum */
			p[f->off] = (uint8_t)(v >> 16);
			p[f->off + 1] = (uint8_t)(v >> 8);
			p[f->off + 2] = (uint8_t)v;
			sum = 0;
		}
		if (f->ip_sum)
			*ipx += sum;
		if (f->l4_sum)
			l4 += sum;
	}
	return l4;
}

/** Fold a 64-bit one's complement partial sum to 16 bits. */
static inline uint16_t
sl_csum_fold(uint64_t sum)
{
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/**
 * The final L4 checksum of a partial sum. UDP sends a computed 0 as 0xffff
 * (RFC 768: 0 there means "no checksum"); TCP has no such rule and sends
 * 0x0000 as it is (RFC 793), where 0xffff would be a wrong checksum.
 */
static inline uint16_t
sl_csum_final(uint64_t sum, bool tcp)
{
	uint16_t c = (uint16_t)~sl_csum_fold(sum);

	return c == 0 && !tcp ? 0xffff : c;
}

/**
 * How many packets are due now, at most @p max; advances the deadlines of
 * those packets. Deadlines are absolute (next += cost), so rounding and
 * late wake-ups do not accumulate into the rate. Catch-up is bounded: a
 * lag of at most p->slack is made up (what is due goes at once, @p max a
 * call); of a longer lag, the part beyond p->slack is let go: the deadline
 * moves up to now less the slack, and that part is added to p->skipped
 * (after p->lag_max has recorded the whole lag), so the catch-up after any
 * stall is at most the slack's worth.
 * While the pacer owes time it let go (p->owed), each packet's deadline
 * comes a little early (sl_pacer_repay()). p->mark keeps the deadline before
 * this call's packets, so a caller that cannot send them gives them back
 * (sl_pacer_give_back()).
 */
static inline unsigned int
sl_gen_due(struct sl_gen *g, struct sl_pacer *p, uint64_t tsc, unsigned int max)
{
	const struct sl_stream *s = g->s;
	struct sl_gen_walk w;
	struct sl_gen_cur c;
	unsigned int n = 0;
	uint64_t now;
	int64_t late;

	if (p->unit == SL_RATE_NONE)
		return max;
	if (unlikely(g->nb_shares == 0))
		sl_gen_share(g, 0, 1);
	c = g->cur;
	w = g->w;
	if (unlikely(p->t0 == 0))
		p->t0 = tsc;
	/*
	 * now wraps after 2^48 TSC cycles (a day or so); next wraps with it:
	 * compared by their signed difference, both stay right across it.
	 */
	now = (tsc - p->t0) << 16;
	late = (int64_t)(now - p->next);
	if (unlikely(late > 0 && ((uint64_t)late >> 16) > p->lag_max))
		p->lag_max = (uint64_t)late >> 16;
	/*
	 * Beyond the slack: the excess is let go, the slack's worth made up;
	 * up to p->owe_max of what is let go is owed, and repaid below (so the
	 * catch-up is at most 64/63 of the slack's worth).
	 */
	if (unlikely(late > 0 && (uint64_t)late > p->slack)) {
		uint64_t excess = (uint64_t)late - p->slack;

		sl_pacer_skip(p, excess, now - p->slack);
		p->owed = RTE_MIN(p->owed + excess, p->owe_max);
	}
	/* Behind its schedule: what it makes up at once, and what it owes. */
	if (late > 0 && unlikely(RTE_MIN((uint64_t)late, p->slack) + p->owed > p->behind_max))
		p->behind_max = RTE_MIN((uint64_t)late, p->slack) + p->owed;
	p->mark = p->next;
	p->mark_units = p->skipped_units;
	p->mark_repaid = 0;
	while (n < max && (int64_t)(now - p->next) >= 0) {
		const struct sl_stream_size *sz = s->nb_order == 1 ? &s->one_sz :
						  &s->sz[s->order[c.pos]];
		uint64_t units = p->unit == SL_RATE_PPS ? 1 :
			p->unit == SL_RATE_L1 ? sz->l1_bits : sz->l2_bits;
		uint64_t inc = (uint64_t)(((unsigned __int128)units * p->per_unit) >> 16);

		if (unlikely(p->owed != 0))
			inc -= sl_pacer_repay(p, inc);
		p->next += inc;
		if (w.L > 1)
			sl_gen_step(&w, &c);
		n++;
	}
	return n;
}

/* Write v into a stack field's bits (f->bits at f->shift of its f->width-byte window). */
static inline void
sl_gen_stack_put(uint8_t *p, const struct sl_stream_field *f, uint32_t v)
{
	uint32_t mask = (f->bits == 32 ? UINT32_MAX : ((1u << f->bits) - 1)) << f->shift, w = 0;

	for (int i = 0; i < f->width; i++)
		w = w << 8 | p[f->off + i];
	w = (w & ~mask) | ((v << f->shift) & mask);
	for (int i = f->width - 1; i >= 0; i--, w >>= 8)
		p[f->off + i] = (uint8_t)w;
}

/*
 * A burst of a header stack's frames (sl_stack.h): per frame its lengths,
 * fields and signature, then every IPv4 header's checksum and every L4
 * checksum, innermost first, each summed over its headers (the payload is
 * zero but for the signature, which is added in). The classic stream's
 * incremental sums are not used here: any header, any depth.
 */
static inline unsigned int
sl_gen_burst_stack(struct sl_gen *g, struct rte_mbuf **pkts, unsigned int n, uint64_t tsc)
{
	const struct sl_stream *s = g->s;
	const uint64_t sig_w0 = (uint64_t)g->run << 24 | (uint64_t)s->id << 32 |
				(uint64_t)g->producer << 48 | ((tsc >> 32) & 0xff) << 56 | SL_SIG_MAGIC;
	const uint64_t sig_base = sl_sig_check_base(sig_w0);
	struct sl_gen_walk w;
	struct sl_gen_cur c;
	uint32_t seq = g->seq;
	uint64_t bytes = 0;

	if (unlikely(g->nb_shares == 0))
		sl_gen_share(g, 0, 1);
	if (unlikely(g->rnd == 0))
		g->rnd = 0x9e3779b9u ^ g->producer;
	c = g->cur;
	w = g->w;
	if (unlikely(rte_mempool_get_bulk(g->mp, (void **)pkts, n) != 0))
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		const struct sl_stream_size *sz = &s->sz[s->order[c.pos]];
		const uint16_t len = sz->pkt_len;
		struct rte_mbuf *m = pkts[i];
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		uint32_t ssum = 0;

		/* The previous frame's signature cleared: the payload is zero again. */
		if (g->copy_len != 0 ? m->pkt_len > g->copy_len :
		    m->pkt_len != len && m->pkt_len >= (uint32_t)(s->hdr_len + SL_SIG_LEN))
			memset(p + m->pkt_len - SL_SIG_LEN, 0, SL_SIG_LEN);
		if (g->copy_len != 0)
			sl_gen_copy(p, s->tmpl, g->copy_len);
		m->data_len = len;
		m->pkt_len = len;
		bytes += len;
		for (uint8_t k = 0; k < s->st.nb_len; k++)
			*(unaligned_uint16_t *)(p + s->st.len[k].off) =
				rte_cpu_to_be_16((uint16_t)(len - s->st.len[k].sub));
		if (w.L > 1)
			sl_gen_step(&w, &c);
		for (uint16_t k = 0; k < s->nb_fields; k++)
			sl_gen_stack_put(p, &s->fields[k], sl_gen_field_next(g, &s->fields[k], k));
		if (likely(sz->sig)) {
			uint64_t w1 = seq | (tsc & 0xffffffff) << 32;
			uint64_t w0 = sig_w0 | (uint64_t)sl_sig_check_w1(sig_base, w1) << 8;

			memcpy(p + len - 16, &w0, 8);
			memcpy(p + len - 8, &w1, 8);
			seq++;
			ssum = sl_csum_fold((w0 & 0xffffffff) + (w0 >> 32) + (w1 & 0xffffffff) +
					    (w1 >> 32));
		}
		for (uint8_t k = 0; k < s->st.nb_ip4; k++) {
			uint8_t *ip = p + s->st.ip4[k];
			uint16_t cs;

			*(unaligned_uint16_t *)(ip + 10) = 0;
			cs = rte_raw_cksum(ip, 20);
			*(unaligned_uint16_t *)(ip + 10) = (uint16_t)~cs;
		}
		for (uint8_t k = 0; k < s->st.nb_l4; k++) {
			const uint16_t off = s->st.l4[k].off;
			uint16_t *csum = (uint16_t *)(p + s->st.l4[k].csum);
			uint64_t sum;
			uint16_t cs;

			if (s->st.l4[k].off0)
				continue;
			*(unaligned_uint16_t *)csum = 0;
			sum = __rte_raw_cksum(p + off, s->hdr_len - off, 0);
			if (s->st.l4[k].ph == 4)
				sum += __rte_raw_cksum(p + s->st.l4[k].ip + 12, 8, 0);
			else if (s->st.l4[k].ph == 6)
				sum += __rte_raw_cksum(p + s->st.l4[k].ip + 8, 32, 0);
			if (s->st.l4[k].ph != 0)
				sum += rte_cpu_to_be_16((uint16_t)(len - off)) +
				       rte_cpu_to_be_16(s->st.l4[k].proto);
			if (sz->sig)
				sum += ((len - SL_SIG_LEN - off) & 1) ? rte_bswap16((uint16_t)ssum) :
									 ssum;
			cs = (uint16_t)~sl_csum_fold(sum);
			*(unaligned_uint16_t *)csum = cs == 0 && s->st.l4[k].udp ? 0xffff : cs;
		}
	}
	g->cur = c;
	g->seq = seq;
	g->bytes = bytes;
	return n;
}

/*
 * A shared pool (sl_gen.copy_len): the mbuf holds another stream's frame.
 * Lay this stream's template over it, whole cache lines (headers, then
 * zeros), zero an older signature beyond them (the sums assume a zero
 * payload), and give it this frame's length.
 */
static __rte_always_inline void
sl_gen_lay(struct rte_mbuf *m, uint8_t *p, const uint8_t *tmpl, uint16_t copy_len, uint16_t len)
{
	if (m->pkt_len > copy_len)
		memset(p + m->pkt_len - SL_SIG_LEN, 0, SL_SIG_LEN);
	sl_gen_copy(p, tmpl, copy_len);
	m->data_len = len;
	m->pkt_len = len;
}

/*
 * A lean stream's burst (sl_stream.lean): per frame, at most the source
 * port (ports: one address, flows > 1), the signature (sig; odd: at an odd
 * offset of the segment) and the UDP checksum change. Everything else is
 * read once, before the loop (the frames' byte stores would make the
 * compiler read the stream again for every frame); a frame's stores fall
 * in its headers and its last 16 bytes: one cache line for 64-byte frames.
 * With line, a frame from a shared pool first gets its stream's headers
 * here (one line, SL_GEN_COPY_ALIGN bytes), in the pass of its other writes.
 * The flow walk is sl_gen_step()'s with one size (rq counts the rounds).
 */
static __rte_always_inline void
sl_gen_lean(const struct sl_stream *s, struct rte_mbuf **pkts, unsigned int n, uint32_t seq,
	    uint64_t sig_w0, uint64_t sig_base, uint64_t tsc, struct sl_gen_cur *c,
	    const struct sl_gen_walk *w, uint16_t skip, const bool line, const bool ports,
	    const bool sig, const bool odd)
{
	const struct sl_stream_size *sz = &s->one_sz;
	const uint16_t sig_off = sz->pkt_len - SL_SIG_LEN, csum_off = s->l4_csum_off;
	const uint16_t sport_off = s->sport_off, sport0 = s->sport0;
	const uint64_t w1_hi = (tsc & 0xffffffff) << 32;
	/* What every frame's sum shares: the headers, and each word's upper half. */
	const uint64_t hdr_sum = (uint64_t)sz->l4_sum + s->sip_sum0 + (ports ? 0 : s->sport_be0);
	const uint64_t sig_hi = (sig_w0 >> 32) + (tsc & 0xffffffff);
	const uint32_t wrap_at = w->flows - w->d_flow, d_flow = w->d_flow, d_rq = w->d_rq;
	uint32_t flow = c->flow, rq = c->rq;

	for (unsigned int i = 0; i < n; i++) {
		uint8_t *p = (uint8_t *)pkts[i] + skip;
		uint64_t sum = hdr_sum;
		uint16_t csum;

		if (line)
			sl_gen_copy(p, s->tmpl, SL_GEN_COPY_ALIGN);
		if (ports) {
			uint16_t sport = rte_cpu_to_be_16((uint16_t)(sport0 + flow));

			memcpy(p + sport_off, &sport, 2);
			sum += sport;
			if (flow >= wrap_at) {
				flow -= wrap_at;
				rq += d_rq + 1;
			} else {
				flow += d_flow;
				rq += d_rq;
			}
		}
		if (sig) {
			uint64_t w1 = (uint32_t)(seq + i) | w1_hi;
			uint64_t w0 = sig_w0 | (uint64_t)sl_sig_check_w1(sig_base, w1) << 8;
			uint64_t ssum = sig_hi + (w0 & 0xffffffff) + (w1 & 0xffffffff);

			/* At an odd offset its sum is byte-swapped into the segment's. */
			sum += odd ? rte_bswap16(sl_csum_fold(ssum)) : ssum;
			memcpy(p + sig_off, &w0, 8);
			memcpy(p + sig_off + 8, &w1, 8);
		}
		csum = sl_csum_final(sum, false);
		memcpy(p + csum_off, &csum, 2);
	}
	c->flow = flow;
	c->rq = rq;
}

/*
 * sl_gen_burst()'s classic stream, compiled twice (copy: a pool shared by
 * several streams, sl_gen.copy_len), so that one stream alone pays nothing
 * for the frames of a shared pool.
 */
static __rte_always_inline unsigned int
sl_gen_burst_classic(struct sl_gen *g, struct rte_mbuf **pkts, unsigned int n, uint64_t tsc,
		     const bool copy)
{
	const struct sl_stream *s = g->s;
	const bool sizes = s->nb_order > 1, flows = s->flows > 1, fields = s->nb_fields != 0;
	const bool tcp = s->tcp, walk = sizes || flows || tcp, vary = walk || fields;
	struct sl_gen_walk w;
	struct sl_gen_cur c;
	uint32_t seq = g->seq;
	uint64_t bytes = 0;

	/* What every frame's signature shares: the burst's TSC, stream, producer, run. */
	const uint64_t sig_w0 = (uint64_t)g->run << 24 | (uint64_t)s->id << 32 |
				(uint64_t)g->producer << 48 | ((tsc >> 32) & 0xff) << 56 | SL_SIG_MAGIC;
	const uint64_t sig_base = sl_sig_check_base(sig_w0);

	if (unlikely(g->nb_shares == 0))
		sl_gen_share(g, 0, 1);
	c = g->cur;
	w = g->w;
	if (unlikely(rte_mempool_get_bulk(g->mp, (void **)pkts, n) != 0))
		return 0;
	if (s->lean) {
		/*
		 * Frames come back from the pool as they were built: only what
		 * varies is written (nothing for one flow unsigned). From a
		 * shared pool, each first gets the stream's headers (as below).
		 */
		const bool ports = s->flows > 1, sig = s->one_sz.sig, odd = s->one_sz.sig_odd;
		uint16_t skip = g->data_skip;
		bool line = false;

		if (unlikely(skip == 0))
			skip = g->data_skip = sl_gen_data_skip(g->mp);
		if (copy && g->copy_plain && g->copy_len == SL_GEN_COPY_ALIGN) {
			line = true; /* in the loop below, with the frame's writes */
		} else if (copy && g->copy_plain) {
			for (unsigned int i = 0; i < n; i++)
				sl_gen_copy((uint8_t *)pkts[i] + skip, s->tmpl, g->copy_len);
		} else if (copy) {
			const uint16_t len = s->one_sz.pkt_len;

			for (unsigned int i = 0; i < n; i++)
				sl_gen_lay(pkts[i], (uint8_t *)pkts[i] + skip, s->tmpl, g->copy_len, len);
		}
		/*
		 * One line of headers (up to 64 bytes, the common case) is copied
		 * in the loop of the frame's other writes, at a constant length:
		 * a loop of unknown length in every frame costs as much as they.
		 */
#define SL_GEN_LEAN(pt, sg, od) do { \
		if (line) \
			sl_gen_lean(s, pkts, n, seq, sig_w0, sig_base, tsc, &c, &w, skip, true, \
				    pt, sg, od); \
		else \
			sl_gen_lean(s, pkts, n, seq, sig_w0, sig_base, tsc, &c, &w, skip, false, \
				    pt, sg, od); \
	} while (0)
		if (ports && sig && odd)
			SL_GEN_LEAN(true, true, true);
		else if (ports && sig)
			SL_GEN_LEAN(true, true, false);
		else if (ports)
			SL_GEN_LEAN(true, false, false);
		else if (sig && odd)
			SL_GEN_LEAN(false, true, true);
		else if (sig)
			SL_GEN_LEAN(false, true, false);
		else if (line)
			for (unsigned int i = 0; i < n; i++)
				sl_gen_copy((uint8_t *)pkts[i] + skip, s->tmpl, SL_GEN_COPY_ALIGN);
#undef SL_GEN_LEAN
		g->cur = c;
		g->seq = seq + (sig ? n : 0);
		g->bytes = (uint64_t)n * s->one_sz.pkt_len;
		return n;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct sl_stream_size *sz = sizes ? &s->sz[s->order[c.pos]] : &s->one_sz;
		struct rte_mbuf *m = pkts[i];
		uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
		uint64_t sum = sz->l4_sum, w0;
		uint32_t sip_sum, ipx = 0;

		if (copy)
			sl_gen_lay(m, p, s->tmpl, g->copy_len, sz->pkt_len);
		if (sizes) {
			/*
			 * The mbuf still holds its previous frame's length (raw
			 * allocation keeps it): clear that frame's signature so
			 * the payload is zero again, as the sums assume.
			 */
			if (m->pkt_len != sz->pkt_len && m->pkt_len >= (uint32_t)(s->hdr_len + SL_SIG_LEN))
				memset(p + m->pkt_len - SL_SIG_LEN, 0, SL_SIG_LEN);
			*(unaligned_uint16_t *)(p + s->ip_len_off) = sz->ip_len;
			if (!tcp)
				*(unaligned_uint16_t *)(p + s->l4_len_off) = sz->l4_len;
			/* One size: the mbuf kept the template's lengths (raw allocation). */
			m->data_len = sz->pkt_len;
			m->pkt_len = sz->pkt_len;
		}
		bytes += sz->pkt_len;
		if (flows) {
			uint32_t a = c.flow / s->port_span;
			uint32_t sip = rte_cpu_to_be_32(s->sip0 + a + (a >= s->sip_skip));
			uint16_t sport = rte_cpu_to_be_16(s->sport0 + c.flow % s->port_span);

			memcpy(p + s->sip_off, &sip, 4);
			*(unaligned_uint16_t *)(p + s->sport_off) = sport;
			sip_sum = (sip & 0xffff) + (sip >> 16);
			sum += sip_sum + sport;
		} else {
			sip_sum = s->sip_sum0;
			sum += sip_sum + s->sport_be0;
		}
		if (tcp) {
			/* The flow's payload bytes before this frame (in the L4 sum). */
			uint32_t tseq = rte_cpu_to_be_32(sl_gen_tcp_seq(s, &c));

			memcpy(p + s->l4_off + 4, &tseq, 4);
			sum += (tseq & 0xffff) + (tseq >> 16);
		}
		if (walk)
			sl_gen_step(&w, &c);
		if (fields)
			sum += sl_gen_fields(g, p, &ipx);
		if (!s->ipv6 && (sizes || flows || fields))
			*(unaligned_uint16_t *)(p + s->ip_csum_off) =
				(uint16_t)~sl_csum_fold(sz->ip_sum + sip_sum + ipx);
		if (likely(sz->sig)) {
			uint64_t ssum, w1 = seq | (tsc & 0xffffffff) << 32;

			/* One multiply per frame: the check's base is the burst's. */
			w0 = sig_w0 | (uint64_t)sl_sig_check_w1(sig_base, w1) << 8;
			memcpy(p + sz->pkt_len - 16, &w0, 8);
			memcpy(p + sz->pkt_len - 8, &w1, 8);
			seq++;
			ssum = sl_csum_fold((w0 & 0xffffffff) + (w0 >> 32) + (w1 & 0xffffffff) +
					    (w1 >> 32));
			if (sz->sig_odd)
				ssum = rte_bswap16((uint16_t)ssum);
			sum += ssum;
			*(unaligned_uint16_t *)(p + s->l4_csum_off) = sl_csum_final(sum, tcp);
		} else if (vary) {
			*(unaligned_uint16_t *)(p + s->l4_csum_off) = sl_csum_final(sum, tcp);
		}
	}
	g->cur = c;
	g->seq = seq;
	g->bytes = bytes;
	return n;
}

/**
 * Allocate and fill a burst of n packets.
 *
 * @return n, or 0 if the pool has fewer than n free mbufs (nothing taken).
 *   The caller owns the packets; g->bytes holds their total pkt_len.
 */
static inline unsigned int
sl_gen_burst(struct sl_gen *g, struct rte_mbuf **pkts, unsigned int n, uint64_t tsc)
{
	if (unlikely(g->s->stacked))
		return sl_gen_burst_stack(g, pkts, n, tsc);
	if (g->copy_len != 0)
		return sl_gen_burst_classic(g, pkts, n, tsc, true);
	return sl_gen_burst_classic(g, pkts, n, tsc, false);
}

#endif /* SL_GEN_H */
