/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_PORTS_H
#define SL_PORTS_H

/*
 * The ports of the program: every ethdev port DPDK found, then the
 * simulated ports of --sim, each behind its port-driver table (sl_port.h),
 * with the engine's queue objects of the current run.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_lcore.h>

#include "sl_config.h"
#include "sl_port.h"
#include "sl_xmit.h"

/* A TX queue of the run: the engine's object and who sends on it. */
struct sl_app_txq {
	struct sl_txq *txq;
	struct sl_txq_stats base;    /* clear port stats: counters at the clear */
	uint16_t port, queue;
	uint16_t nb_lcores;
	uint16_t lcores[RTE_MAX_LCORE];
};

struct sl_port {
	struct sl_port_info info;
	const struct sl_port_ops *ops;
	void *dev;
	uint32_t caps;               /* of this run's queues */
	uint16_t nb_txq;
	uint16_t txd;                /* descriptors per queue in force */
	bool set_up;                 /* set up for the current run */
	bool rx_hw_ts;               /* its rx_burst stamps frames (the latency's clock: hw) */
	struct sl_stream stream;     /* this port's frames (its MACs) */
	struct sl_rate pace;         /* this run's rate as paced (NONE: unpaced) */
	struct sl_app_txq txqs[SL_MAX_TXQ];
};

struct sl_ports {
	struct sl_port p[SL_MAX_PORTS];
	uint16_t n;
};

/* Open every port (ethdev, then --sim); 0, or -errno with a message printed. */
int sl_ports_open(struct sl_ports *ps, const struct sl_config *c);
/* Is arg a simulated port's specification (--sim)? 0, or -EINVAL with err. */
int sl_ports_sim_check(const char *arg, char *err, size_t len);
/* The ports' facts a configuration's check needs, and the lcores'. */
void sl_ports_env(const struct sl_ports *ps, struct sl_config_env *env);
/* Set up every port with the queues the map gave it (nb_txq set), receiving
 * where rx[port] says; 0 or -errno. */
int sl_ports_setup(struct sl_ports *ps, const struct sl_config *o, const bool *rx);
/* Create the engine's queue objects of every port; 0 or -errno. */
int sl_ports_txqs_create(struct sl_ports *ps, enum sl_lock_policy lock);
/* After the producers stopped: flush the engine's backlogs, let drivers finish.
 * Returns frames the drivers discarded. */
uint64_t sl_ports_quiesce(struct sl_ports *ps, uint64_t timeout_us);
/* Stop every port's device (frees what its descriptors hold). */
void sl_ports_stop(struct sl_ports *ps);
/* Free the engine's queue objects. */
void sl_ports_txqs_free(struct sl_ports *ps);
/* Close every port. */
void sl_ports_close(struct sl_ports *ps);

#endif /* SL_PORTS_H */
