/* lease.h: the interaction lease, a cross-process exclusive lock held only around dispatch.
 *
 * The lock is flock(2) on <dir>/interaction.lock: it belongs to the open file, so the kernel
 * releases it when the holder exits or crashes, and every agent of one user shares it
 * whatever its state root. <dir> must be a place no other user can create first:
 * $XDG_RUNTIME_DIR/agent-desktop when XDG_RUNTIME_DIR is set (the per-user runtime directory,
 * /run/user/<uid> under systemd, which must be ours and mode 0700), else the fallback
 * /tmp/agent-desktop-<uid>. Every level is opened without following symlinks and must be a
 * private directory of this user; a squatted one fails closed with what to do. There is no
 * environment override. */
#ifndef AD_LEASE_H
#define AD_LEASE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

typedef struct {
    int fd;                 /* -1 when not held, or when nested */
    bool nested;            /* this thread already held it: nothing was locked again */
    int64_t acquired_us;
    unsigned contention;    /* 1 when this acquisition had to wait for another holder */
} ad_lease;

#define AD_LEASE_INIT {.fd = -1}

/* How long a command waits for the lease when nothing of its own bounds the wait. */
#define AD_LEASE_WAIT_MS 5000

/* Takes the lease, polling every few milliseconds until deadline_us. TIMEOUT (kind
 * lock_timeout, not_delivered) when another holder kept it the whole time.
 *
 * Reentrant per thread: a thread that already holds it (dispatch took it for the whole
 * command: AD_LEASE_COMMAND in dispatch/command_table.h) gets a nested lease at once. A second flock on a new open file
 * would conflict with this thread's own lock and wait until the deadline. Other threads of
 * the process open their own file, so they still take turns with this one. */
int ad_lease_acquire(ad_lease *l, int64_t deadline_us, ad_error *err);
/* Releases it (a nested lease: nothing; the outer one still holds it); returns how long it
 * was held in ms. Safe on a lease not held. */
int64_t ad_lease_release(ad_lease *l);
/* True while this thread holds the lease. */
bool ad_lease_held(void);
/* Opens (creating) the lock file for a runtime directory (NULL or "" when unset) and a
 * fallback base ("/tmp" in production; tests pass their own). Returns the fd (caller closes)
 * or -1 with INTERNAL. Exposed for tests. */
int ad_lease_open(const char *runtime_dir, const char *tmp_base, ad_error *err);

#endif
