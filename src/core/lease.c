/* lease.c: flock-based interaction lease. */
#include "core/lease.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/state_files.h"

#define POLL_INTERVAL_NS (2 * 1000 * 1000)

/* How many leases this thread holds: the outer one locked the file, the rest are nested. */
static _Thread_local unsigned held_depth;

bool ad_lease_held(void)
{
    return held_depth > 0;
}

/* XDG_RUNTIME_DIR must be ours and private (XDG Base Directory spec): a directory another
 * user controls could hold or swap our lock. */
static int open_runtime_dir(const char *path, ad_state_dir *ret, ad_error *err)
{
    ret->path = strdup(path);
    ret->fd = path[0] == '/' ? open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    struct stat st;
    if (!ret->path || ret->fd < 0 || fstat(ret->fd, &st) != 0 || st.st_uid != geteuid() ||
        (st.st_mode & 077)) {
        ad_error_set(err, AD_INTERNAL, "XDG_RUNTIME_DIR %s is not an absolute private "
                                       "directory of this user", path);
        ad_error_suggest(err, "Set XDG_RUNTIME_DIR to your own runtime directory (mode 0700, "
                              "/run/user/%u when logged in through systemd), the same for "
                              "every agent, or unset it", (unsigned)geteuid());
        ad_state_dir_close(ret);
        return -1;
    }
    return 0;
}

int ad_lease_open(const char *runtime_dir, const char *tmp_base, ad_error *err)
{
    ad_state_dir base = AD_STATE_DIR_INIT, dir = AD_STATE_DIR_INIT;
    char name[64];
    int fd = -1;
    bool runtime = runtime_dir && *runtime_dir;
    if (runtime) {
        if (open_runtime_dir(runtime_dir, &base, err) < 0)
            return -1;
        snprintf(name, sizeof(name), "agent-desktop");
    } else {
        /* /tmp is sticky: once our directory exists no other user can replace it, but one
         * can create it first, which ad_state_dir_sub refuses. */
        base.path = strdup(tmp_base);
        base.fd = open(tmp_base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        snprintf(name, sizeof(name), "agent-desktop-%u", (unsigned)geteuid());
        if (!base.path || base.fd < 0) {
            ad_error_set(err, AD_INTERNAL, "Cannot open %s for the lease directory", tmp_base);
            goto done;
        }
    }
    if (ad_state_dir_sub(&base, name, true, &dir, err) != 0) {
        if (!runtime)
            ad_error_suggest(err, "%s/%s is not a private directory of yours (another user "
                                  "may have created it). Set XDG_RUNTIME_DIR to your own "
                                  "runtime directory (mode 0700, /run/user/%u under systemd) "
                                  "for every agent, or have an administrator remove it",
                             tmp_base, name, (unsigned)geteuid());
        goto done;
    }
    fd = openat(dir.fd, "interaction.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
        close(fd);
        fd = -1;
        errno = EPERM;
    }
    if (fd < 0) {
        ad_error_set(err, AD_INTERNAL, "Cannot open the interaction lock %s/interaction.lock: "
                                       "%s", dir.path, strerror(errno));
        ad_error_suggest(err, "Remove %s/interaction.lock (it must be a regular file of "
                              "yours); agent-desktop recreates it", dir.path);
    }
done:
    ad_state_dir_close(&dir);
    ad_state_dir_close(&base);
    return fd;
}

int ad_lease_acquire(ad_lease *l, int64_t deadline_us, ad_error *err)
{
    l->fd = -1;
    l->contention = 0;
    l->nested = held_depth > 0;
    if (l->nested) {
        held_depth++;
        l->acquired_us = ad_now_us();
        return 0;
    }
    int fd = ad_lease_open(getenv("XDG_RUNTIME_DIR"), "/tmp", err);
    if (fd < 0)
        return -1;
    bool waited = false;
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            break;
        if (errno != EWOULDBLOCK && errno != EINTR) {
            close(fd);
            return ad_error_set(err, AD_INTERNAL, "Cannot lock the interaction lease: %s",
                                strerror(errno));
        }
        if (!waited)
            l->contention++; /* one contention per acquisition that had to wait */
        waited = true;
        if (ad_now_us() >= deadline_us) {
            close(fd);
            ad_error_set(err, AD_TIMEOUT, "Another agent held the interaction lock until the "
                                          "deadline");
            /* Not every command that takes the lease has --timeout-ms: name no flag. */
            ad_error_suggest(err, "Retry after the other action has finished");
            /* The kind the spec names (commands/clipboard.md), for every command. */
            ad_error_detail(err, "kind", json_string("lock_timeout"));
            return -1;
        }
        /* Polling against the deadline: flock has no timed wait. */
        struct timespec ts = {0, POLL_INTERVAL_NS};
        nanosleep(&ts, NULL);
    }
    l->fd = fd;
    l->acquired_us = ad_now_us();
    held_depth++;
    return 0;
}

int64_t ad_lease_release(ad_lease *l)
{
    if (l->nested) {
        l->nested = false;
        held_depth--;
        return (ad_now_us() - l->acquired_us) / 1000;
    }
    if (l->fd < 0)
        return 0;
    held_depth--;
    int64_t held = (ad_now_us() - l->acquired_us) / 1000;
    flock(l->fd, LOCK_UN);
    close(l->fd);
    l->fd = -1;
    return held;
}
