/* lease.h: the interaction lease, a cross-process exclusive lock held only around dispatch.
 *
 * The lock is flock(2) on /tmp/agent-desktop-<uid>/interaction.lock (a private directory):
 * it belongs to the open file, so the kernel releases it when the holder exits or crashes,
 * and every agent of one user shares it whatever its state root. */
#ifndef AD_LEASE_H
#define AD_LEASE_H

#include <stdint.h>

#include "core/error.h"

typedef struct {
    int fd;                 /* -1 when not held */
    int64_t acquired_us;
    unsigned contention;    /* 1 when this acquisition had to wait for another holder */
} ad_lease;

#define AD_LEASE_INIT {.fd = -1}

/* Takes the lease, polling every few milliseconds until deadline_us. TIMEOUT (kind
 * lease_timeout, not_delivered) when another process held it the whole time. */
int ad_lease_acquire(ad_lease *l, int64_t deadline_us, ad_error *err);
/* Releases it; returns how long it was held in ms. Safe on a lease not held. */
int64_t ad_lease_release(ad_lease *l);
/* The lock directory, for tests: /tmp/agent-desktop-<uid> (or AD_LEASE_DIR when set, used by
 * unit tests only). Writes into buf. */
void ad_lease_dir(char *buf, size_t size);

#endif
