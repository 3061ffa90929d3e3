/* lease.c: flock-based interaction lease. */
#include "core/lease.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h"

#define POLL_INTERVAL_NS (2 * 1000 * 1000)

void ad_lease_dir(char *buf, size_t size)
{
    const char *override = getenv("AD_LEASE_DIR");
    if (override && *override)
        snprintf(buf, size, "%s", override);
    else
        snprintf(buf, size, "/tmp/agent-desktop-%u", (unsigned)getuid());
}

/* The directory must be ours, private and not a symlink: another user must not be able to
 * hold or replace our lock. */
static int lock_dir(char *dir, size_t size, ad_error *err)
{
    ad_lease_dir(dir, size);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return ad_error_set(err, AD_INTERNAL, "Cannot create the lease directory %s", dir);
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
        (st.st_mode & 077)) {
        ad_error_set(err, AD_INTERNAL, "The lease directory %s is not a private directory of "
                                       "this user", dir);
        ad_error_suggest(err, "Remove it, or run chmod 700 on it");
        return -1;
    }
    return 0;
}

int ad_lease_acquire(ad_lease *l, int64_t deadline_us, ad_error *err)
{
    char dir[512], path[600];
    l->fd = -1;
    l->contention = 0;
    if (lock_dir(dir, sizeof(dir), err) < 0)
        return -1;
    snprintf(path, sizeof(path), "%s/interaction.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return ad_error_set(err, AD_INTERNAL, "Cannot open the interaction lock %s", path);
    bool waited = false;
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            break;
        if (errno != EWOULDBLOCK && errno != EINTR) {
            close(fd);
            return ad_error_set(err, AD_INTERNAL, "Cannot lock %s", path);
        }
        if (!waited)
            l->contention++; /* one contention per acquisition that had to wait */
        waited = true;
        if (ad_now_us() >= deadline_us) {
            close(fd);
            ad_error_set(err, AD_TIMEOUT, "Another agent held the interaction lease until the "
                                          "deadline");
            /* Not every command that takes the lease has --timeout-ms: name no flag. */
            ad_error_suggest(err, "Retry after the other action has finished");
            ad_error_detail(err, "kind", json_string("lease_timeout"));
            return -1;
        }
        /* Polling against the deadline: flock has no timed wait. */
        struct timespec ts = {0, POLL_INTERVAL_NS};
        nanosleep(&ts, NULL);
    }
    l->fd = fd;
    l->acquired_us = ad_now_us();
    return 0;
}

int64_t ad_lease_release(ad_lease *l)
{
    if (l->fd < 0)
        return 0;
    int64_t held = (ad_now_us() - l->acquired_us) / 1000;
    flock(l->fd, LOCK_UN);
    close(l->fd);
    l->fd = -1;
    return held;
}
