/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_CONFIG_H
#define SL_CONFIG_H

/**
 * @file
 * A run's configuration: plain data, no EAL. What the ports are set to and
 * what each sends (today one default flow per sending port, from one
 * stream template and the port's own settings), how lcores map to queues,
 * what receives.
 *
 * Every front end (the options, the prompt's set and port commands, a
 * profile, the benchmark) edits a candidate copy, checks it with
 * sl_config_check() and commits it by assignment; a run starts from a
 * const configuration and never writes it. The check needs the machine's
 * facts (the ports' MACs, MTU ranges and speeds, the lcores): they come in
 * a struct sl_config_env, plain data too, so that the check runs in unit
 * tests and a fuzz target without EAL.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

#include "sl_dev.h"
#include "sl_gen.h"
#include "sl_drv_port.h"
#include "sl_rate.h"
#include "sl_xmit.h"

#define SL_MAP_MAX 128
#define SL_MAX_PORTS 32
#define SL_MAX_TXQ 64
#define SL_MAX_SIMS 8
/** Lcore ids a configuration can name (DPDK's default RTE_MAX_LCORE). */
#define SL_CONFIG_MAX_LCORE 128
/** Queues one lcore sends on, over every port (a worker's targets). */
#define SL_CONFIG_MAX_TARGETS 64
/** Packets per burst. */
#define SL_CONFIG_MAX_BURST 64
/** A --sim specification, as given (the sim driver parses it). */
#define SL_SIM_SPEC_MAX 256
/**
 * Every duration (--duration, --drain, --stats-period, the bench's): the
 * pacer and sim clocks are 48-bit (about 19 h).
 */
#define SL_MAX_SECONDS 64800

/** One "lcores -> port.queue" entry of a map. */
struct sl_map_entry {
	uint16_t lcore;
	uint16_t port;
	uint16_t queue;
};

/** What can be set per port (options set every port; the prompt one or all). */
struct sl_port_conf {
	uint16_t txq;          /**< 0: as the map needs */
	uint16_t txd;          /**< 0: driver default */
	uint16_t mtu;          /**< 0: the port's own (1500 for the sim) */
	enum sl_lltx lltx;
	struct sl_rate rate;
	uint16_t vlan;         /**< 0: untagged */
	bool stopped;          /**< port stop: not transmitted on */
};

/** A port's name, with its NUL (an OTG Config's ports[].name). */
#define SL_PORT_NAME_MAX 48

/**
 * A port as a test names and watches it (an OTG Config's ports[] and
 * captures[]): not how it sends, so port config all leaves it alone.
 */
struct sl_port_name {
	char name[SL_PORT_NAME_MAX]; /**< "": none given (the API says port-P) */
	bool capture;          /**< the frames it receives are kept (the API's captures) */
	uint32_t cap_snap;     /**< bytes kept of each (0: whole) */
};

/** Flows a configuration can hold (flow add), over every port. */
#define SL_CONFIG_MAX_FLOWS 4096
/** A flow's name, with its NUL. */
#define SL_FLOW_NAME_MAX 32

/**
 * A flow of the flow table (flow add, --flow): what one port sends beside
 * its other flows. Once the table holds a flow, the ports send the table's
 * flows only; while it is empty, every sending port sends its default flow
 * (the template sc with the port's MACs and VLAN). A flow's id in the
 * signature is its index in the table (a port's id for a default flow).
 */
struct sl_flow_conf {
	char name[SL_FLOW_NAME_MAX];
	uint16_t port;             /**< the port it is sent on */
	int16_t to;                /**< addressed to this port (its MAC, or the
				        sending port's --eth-peer); -1: not said */
	struct sl_stream_conf sc;  /**< headers, fields, sizes (MACs: below) */
	bool size_given;           /**< else the smallest frame its headers fit */
	bool src_mac_given;        /**< else the sending port's MAC */
	bool dst_mac_given;        /**< else as to says, else the port's default */
	struct sl_rate rate;       /**< NONE: an equal share of the port's rate */
	uint64_t count;            /**< packets; 0: an equal share of --count */
	uint64_t delay_us;         /**< it starts this long after the run (0: at once) */
	uint64_t duration_us;      /**< it stops this long after it started (0: count, run) */
	uint32_t burst_pkts;       /**< bursts of this many packets (0: none, a steady flow) */
	uint64_t burst_gap_us;     /**< with a pause this long after each */
	uint32_t bursts;           /**< this many bursts (0: until its count, duration, the run) */
	/* A replay instead of generated frames (sl_replay.h): "" none. */
	char pcap[256];            /**< the capture (pcap or pcapng) */
	double pcap_speed;         /**< its timing divided by this; 0: as captured (1); < 0: top speed */
	uint32_t pcap_loops;       /**< times through it; 0: once; UINT32_MAX: until stopped */
	bool pcap_sign;            /**< the signature in each frame that can carry one */
	uint16_t pcap_iface;       /**< 1 + the pcapng interface it replays; 0: every one */
	/*
	 * Between emulated hosts (sl_dev.h): from device src_dev (its MAC,
	 * address and VLAN; its port) to device dst_dev's address, the
	 * destination MAC its next hop's (the gateway's, resolved). "": none.
	 */
	char src_dev[SL_DEV_NAME_MAX];
	char dst_dev[SL_DEV_NAME_MAX];
};

/** Whether frames carry the signature (--sign). */
enum sl_sign {
	SL_SIGN_AUTO = 0,      /**< the default: when something reads them (a port receives,
				    or a port is the sim: its verifier, its DUT model) */
	SL_SIGN_ON,            /**< every frame long enough */
	SL_SIGN_OFF,           /**< none: nothing reads them, and nothing is measured */
};

/** Which ports receive. */
enum sl_rx_mode {
	SL_RX_AUTO = 0,        /**< those a stream is addressed to, the far end of a DUT */
	SL_RX_LIST,            /**< rx_port[] */
	SL_RX_ALL,             /**< every port */
};

struct sl_config {
	/* How long: the first of duration and count ends the run. */
	uint64_t duration_us;  /**< 0: none */
	uint64_t count;        /**< packets per port; 0: no limit */
	uint16_t burst;
	uint64_t pcap_mem;         /**< bytes a replay's capture may hold (0: SL_REPLAY_MEM_DEFAULT) */
	/* What is sent: the default flow's template (MACs and VLAN are per port). */
	struct sl_stream_conf sc;
	bool size_given;       /**< sizes given; else the smallest frame the headers fit */
	bool tx_ip4_given;     /**< IPv4 addresses given (refused with IPv6 frames) */
	bool peer_set[SL_MAX_PORTS];
	struct rte_ether_addr peer[SL_MAX_PORTS];
	/* The ports. */
	struct sl_port_conf pc[SL_MAX_PORTS];
	struct sl_port_name pn[SL_MAX_PORTS];
	char sims[SL_MAX_SIMS][SL_SIM_SPEC_MAX]; /**< --sim specs, opened after the ethdevs */
	uint16_t nb_sims;
	/* Lcores to queues, and the engine. */
	struct sl_map_entry map[SL_MAP_MAX];
	uint16_t nb_map;       /**< 0: the default map (sl_config_map()) */
	enum sl_lock_policy lock;
	bool direct;           /**< --xmit direct: the port's plain burst call (baseline) */
	bool pace_even;        /**< frames evenly spaced (SL_PACER_EVEN_US): a trial */
	/* The receive side (measure.md). */
	enum sl_rx_mode rx_mode;
	bool rx_port[SL_MAX_PORTS];
	struct sl_map_entry rxmap[SL_MAP_MAX]; /**< LCORE:PORT.0 */
	uint16_t nb_rxmap;
	uint64_t drain_us;     /**< RX keeps polling this long after TX stops */
	bool rx_clock_tsc;     /**< ignore the ports' RX timestamps */
	enum sl_sign sign;
	/*
	 * The flow table: owned, on the heap. Copy a configuration with
	 * sl_config_copy() and free it with sl_config_fini(), never by
	 * assignment (the two would share the table).
	 */
	struct sl_flow_conf *flows;
	uint16_t nb_flows;
	/* Emulated hosts on the ports (device add, --device, an OTG Config's devices). */
	struct sl_dev_conf devices[SL_DEV_MAX];
	uint16_t nb_devices;
};

/** What a check needs to know of one port. */
struct sl_config_port_env {
	struct sl_port_info info;
	bool can_rx;           /**< the driver receives */
	bool has_tx_burst;     /**< a plain burst call (--xmit direct) */
};

/** The machine's facts a check needs: plain data, filled once the ports are open. */
struct sl_config_env {
	uint16_t nb_ports;
	struct sl_config_port_env port[SL_MAX_PORTS];
	uint16_t main_lcore;
	uint16_t nb_lcores;    /**< enabled lcores, the main one included */
	bool worker[SL_CONFIG_MAX_LCORE];
	/*
	 * What the devices learned (their gateways' MACs), NULL: nothing yet. A
	 * flow between devices takes its destination MAC from it; unresolved,
	 * a check with SL_CHECK_NEXT_HOPS refuses it, any other sends 00:00:00:00:00:00.
	 */
	const struct sl_dev_table *devs;
};

/** What a check refused: the setting at fault and what to do. */
struct sl_config_err {
	const char *opt;       /**< the option at fault ("--size"), NULL if none is one */
	int port;              /**< the port, or -1 */
	int flow;              /**< the flow (today a port's default flow: its id), or -1 */
	uint16_t detail;       /**< msg + detail: the message after "OPT: " */
	char msg[384];         /**< the whole message, as printed after "sluice: " */
};

/** What sl_config_check() checks. */
#define SL_CHECK_RANGES 0u   /**< only the counts and the tables' bounds (every check begins so) */
#define SL_CHECK_STREAMS 1u  /**< every port's flow builds: MTU, sizes, fields, VLAN */
#define SL_CHECK_RUN 2u      /**< the rest a start needs: lcores, map, peers, rates, rx */
#define SL_CHECK_RATES 4u    /**< rates alone (part of RUN): each resolves, each port's
				   flows' paced rates add up to at most its line */
#define SL_CHECK_NEXT_HOPS 8u /**< flows between devices know their next hops' MACs
				   (env->devs): a start's, not a configuration's check */
#define SL_CHECK_ALL (SL_CHECK_STREAMS | SL_CHECK_RUN | SL_CHECK_NEXT_HOPS)
/** What a configuration taken must pass: all a start checks but what the devices learn. */
#define SL_CHECK_CONFIG (SL_CHECK_STREAMS | SL_CHECK_RUN)

/**
 * The defaults (64 B UDP/IPv4 198.18.0.1 -> 198.18.0.2, port 9, burst 32),
 * no flow in the table. @p c must hold no table (zeroed, or sl_config_fini()).
 */
void sl_config_default(struct sl_config *c);

/**
 * Make @p dst a copy of @p src, its flow table duplicated (dst's own is
 * freed first; dst must be zeroed or hold a configuration). 0, or -ENOMEM
 * with @p dst unchanged.
 */
int sl_config_copy(struct sl_config *dst, const struct sl_config *src);
/** Free @p c's flow table (the configuration stays valid, with none). */
void sl_config_fini(struct sl_config *c);

/** The index of the flow named @p name in the table, or -1. */
int sl_config_flow_find(const struct sl_config *c, const char *name);
/** Append flow @p f (its name not in the table). 0, -ENOSPC (full) or -ENOMEM. */
int sl_config_flow_add(struct sl_config *c, const struct sl_flow_conf *f);
/** Remove flow @p idx; the later flows move down one (their ids with them). */
void sl_config_flow_del(struct sl_config *c, uint16_t idx);
/** A new flow of the table: the template's headers and sizes, on port @p port. */
void sl_config_flow_init(const struct sl_config *c, struct sl_flow_conf *f, const char *name,
			 uint16_t port);

/**
 * The streams a run of @p c sends, by id (the signature's stream id): the
 * table's flows, or, with none, one default flow per port (id = port).
 */
static inline uint16_t
sl_config_nb_streams(const struct sl_config *c, const struct sl_config_env *env)
{
	return c->nb_flows != 0 ? c->nb_flows : env->nb_ports;
}

/** The port stream @p id is sent on. */
static inline uint16_t
sl_config_stream_port(const struct sl_config *c, uint16_t id)
{
	return c->nb_flows != 0 ? c->flows[id].port : id;
}

/** Stream @p id's name: the flow's, or "port-N" for a default flow. */
void sl_config_stream_name(const struct sl_config *c, uint16_t id, char *buf, size_t len);

/** Stream @p id as it is built: headers, fields and sizes, MACs, VLAN, id. */
void sl_config_stream(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
		      struct sl_stream_conf *out);

/**
 * The smallest frame (with its FCS) of stream @p id that carries the
 * signature: its headers and 16 bytes. Frames below it go out unsigned,
 * and the receive side cannot count them.
 */
uint16_t sl_config_signed_min(const struct sl_config *c, const struct sl_config_env *env,
			      uint16_t id);
/**
 * Which of stream @p id's sizes carry the signature: 2 all, 1 some, 0 none
 * (its sizes below sl_config_signed_min()). With the signature off: 2.
 */
int sl_config_signed_sizes(const struct sl_config *c, const struct sl_config_env *env, uint16_t id);

/** Streams sent on port @p pid (0 for a port with none). */
uint16_t sl_config_port_streams(const struct sl_config *c, const struct sl_config_env *env,
				uint16_t pid);

/**
 * The rate stream @p id is paced at, resolved (@p pace; NONE: unpaced): its
 * own, else an equal share of its port's rate among the port's streams
 * without one. 0, or -EINVAL with @p err.
 */
int sl_config_stream_rate(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
			  struct sl_rate *pace, char *err, size_t len);

/** sl_config_stream_rate() with the port's count of streams sharing its rate given. */
int sl_config_stream_rate_n(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
			    uint16_t nshare, struct sl_rate *pace, char *err, size_t len);
/** Port @p pid's streams without a rate of their own (1 with no table). */
uint16_t sl_config_port_sharing(const struct sl_config *c, uint16_t pid);

/**
 * Check an edit of the flow table (flow add, set, del) as a start would,
 * for what the edit can change: the table's names, ports and counts, flow
 * @p idx built (-1: none, a delete), and every port's rates. Cheaper than
 * sl_config_check(SL_CHECK_STREAMS | SL_CHECK_RATES), which builds every
 * flow. 0, or -EINVAL with @p e.
 */
int sl_config_check_edit(const struct sl_config *c, const struct sl_config_env *env, int idx,
			 struct sl_config_err *e);

/**
 * The packets stream @p id sends: its own count, else an equal share of
 * --count among its port's streams without one (the first ones one more
 * when it does not divide); 0: no limit.
 */
uint64_t sl_config_stream_count(const struct sl_config *c, const struct sl_config_env *env,
				uint16_t id);

/**
 * Compile stream @p id into @p s (NULL: a scratch one, to check only), its
 * port's MTU checked first. 0, or -EINVAL (-ENOMEM) with @p e.
 */
int sl_config_stream_build(const struct sl_config *c, const struct sl_config_env *env, uint16_t id,
			   struct sl_stream *s, struct sl_config_err *e);

/**
 * Check @p c against the machine. 0, or -EINVAL with @p e saying which
 * setting of which port or flow is at fault and what to do (the first
 * fault, in the order a start meets them).
 */
int sl_config_check(const struct sl_config *c, const struct sl_config_env *env, unsigned int what,
		    struct sl_config_err *e);

/**
 * sl_config_check() that keeps what it compiles: with SL_CHECK_STREAMS,
 * stream i of @p c into out[i] (sl_config_nb_streams() of them), the form
 * a run sends; @p out NULL: a check only. A configuration is compiled
 * once, here: the run takes these streams as they are.
 */
int sl_config_compile(const struct sl_config *c, const struct sl_config_env *env,
		      unsigned int what, struct sl_stream *out, struct sl_config_err *e);

/** The MTU port @p pid runs with: its setting, else the port's own. */
uint16_t sl_config_mtu(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid);

/** Port @p pid's default flow: the template with the port's MACs, VLAN and id. */
void sl_config_flow(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid,
		    struct sl_stream_conf *out);

/**
 * Compile port @p pid's flow into @p s (NULL: a scratch one, to check
 * only), its MTU checked first. 0, or -EINVAL (-ENOMEM) with @p e.
 */
int sl_config_flow_build(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid,
			 struct sl_stream *s, struct sl_config_err *e);

/**
 * Resolve rate @p r of port @p pid as a start paces it (@p pace; NONE:
 * unpaced). 0, or -EINVAL with @p err (without the option's name).
 */
int sl_config_rate(const struct sl_config *c, const struct sl_config_env *env, uint16_t pid,
		   const struct sl_rate *r, struct sl_rate *pace, char *err, size_t len);

/** Port @p t's flow is addressed to port @p r (r's MAC, or t's wire goes to r). */
bool sl_config_addressed(const struct sl_config *c, const struct sl_config_env *env, uint16_t t,
			 uint16_t r);

/**
 * The map in force: c->map, or the default (worker k gets queue k on every
 * port, modulo the port's queues). Returns the number of entries.
 */
uint16_t sl_config_map(const struct sl_config *c, const struct sl_config_env *env,
		       struct sl_map_entry *map);

/**
 * Which ports receive (@p rx, one per port): the rx mode's, the ports
 * --rxmap polls, and by default those a sending port's flow is addressed
 * to and the far end of a driver's wire (a sim DUT).
 */
void sl_config_rx_ports(const struct sl_config *c, const struct sl_config_env *env, bool *rx);

/** Has port @p pid a TX lcore in the map in force? */
bool sl_config_port_has_lcore(const struct sl_config *c, uint16_t pid);

/**
 * A port id below nb_ports, as every front end and view reads one (the
 * prompt, telemetry): 0, or -EINVAL with "port 'X' does not exist: ports
 * are 0..N" in err.
 */
int sl_config_port_parse(const char *s, uint16_t nb_ports, uint16_t *port, char *err, size_t len);

/**
 * Check the devices of @p c: names, ports, addresses and prefixes, each
 * gateway within its device's prefix, no address twice on a port and VLAN.
 * 0, or -EINVAL with @p e.
 */
int sl_config_check_devices(const struct sl_config *c, const struct sl_config_env *env,
			    struct sl_config_err *e);
/** The index of the device named @p name, or -1. */
int sl_config_device_find(const struct sl_config *c, const char *name);
/**
 * Flow @p f between devices as it is built (into @p out, sl_config_stream()
 * does it): the sender's MAC, VLAN and address, the receiver's address,
 * the destination MAC its next hop's. False if the next hop is not known
 * yet (env->devs has not resolved it): the destination MAC is then zero.
 */
bool sl_config_flow_devices(const struct sl_config *c, const struct sl_config_env *env,
			    const struct sl_flow_conf *f, struct sl_stream_conf *out);

/** A field as NAME=MODE:ARGS, the form --field and set field take. */
void sl_config_field_str(const struct sl_field_conf *f, char *buf, size_t len);

#endif /* SL_CONFIG_H */
