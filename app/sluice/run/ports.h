/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_PORTS_H
#define SL_PORTS_H

/*
 * The ports of the program: every ethdev port DPDK found, then the
 * simulated ports of --sim, each behind its port-driver table (sl_port.h),
 * with the engine's queue objects of the current run. Their state (struct
 * sl_ports) is the program's, in app.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include "app.h"

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
