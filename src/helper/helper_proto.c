/* helper_proto.c: frames over the helper's unix socket (helper_proto.h). */
#include "helper/helper_proto.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int64_t ad_helper_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int ad_helper_dir(char *buf, size_t size)
{
    const char *run = getenv("XDG_RUNTIME_DIR");
    if (run && run[0] && run[0] != '/')
        return -1;
    /* The interaction lease's directory too (core/lease.h), with its fallback. */
    int n = run && run[0] ? snprintf(buf, size, "%s/agent-desktop", run)
                          : snprintf(buf, size, "/tmp/agent-desktop-%u", (unsigned)geteuid());
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int ad_helper_path(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Waits until fd is ready for `events`, never past deadline_us. */
static int wait_fd(int fd, short events, int64_t deadline_us)
{
    for (;;) {
        int64_t left = deadline_us - ad_helper_now_us();
        if (left <= 0) {
            errno = ETIMEDOUT;
            return -1;
        }
        struct pollfd p = {.fd = fd, .events = events};
        int r = poll(&p, 1, (int)(left / 1000 + 1));
        if (r > 0)
            return 0;
        if (r < 0 && errno != EINTR)
            return -1;
    }
}

static int write_all(int fd, const void *data, size_t len, int64_t deadline_us)
{
    const unsigned char *p = data;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            p += n;
            len -= (size_t)n;
        } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
            return -1;
        } else if (wait_fd(fd, POLLOUT, deadline_us) < 0) {
            return -1;
        }
    }
    return 0;
}

static int read_all(int fd, void *data, size_t len, int64_t deadline_us)
{
    unsigned char *p = data;
    while (len > 0) {
        ssize_t n = recv(fd, p, len, MSG_DONTWAIT);
        if (n > 0) {
            p += n;
            len -= (size_t)n;
        } else if (n == 0) {
            errno = ECONNRESET;
            return -1;
        } else if (errno != EAGAIN && errno != EINTR) {
            return -1;
        } else if (wait_fd(fd, POLLIN, deadline_us) < 0) {
            return -1;
        }
    }
    return 0;
}

int ad_helper_frame_write(int fd, json_t *header, const void *payload, size_t len,
                          int64_t deadline_us)
{
    json_object_set_new(header, "bytes", json_integer((json_int_t)len));
    char *text = json_dumps(header, JSON_COMPACT);
    if (!text) {
        errno = ENOMEM;
        return -1;
    }
    size_t n = strlen(text);
    unsigned char prefix[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
                               (unsigned char)(n >> 8), (unsigned char)n};
    int rc = write_all(fd, prefix, 4, deadline_us);
    if (rc == 0)
        rc = write_all(fd, text, n, deadline_us);
    if (rc == 0 && len)
        rc = write_all(fd, payload, len, deadline_us);
    free(text);
    return rc;
}

int ad_helper_frame_read(int fd, int64_t deadline_us, json_t **ret_header,
                         unsigned char **ret_payload, size_t *ret_len)
{
    unsigned char prefix[4];
    if (read_all(fd, prefix, 4, deadline_us) < 0)
        return -1;
    size_t n = (size_t)prefix[0] << 24 | (size_t)prefix[1] << 16 | (size_t)prefix[2] << 8 |
               prefix[3];
    if (n == 0 || n > AD_HELPER_MAX_HEADER) {
        errno = EPROTO;
        return -1;
    }
    char *text = malloc(n);
    if (!text || read_all(fd, text, n, deadline_us) < 0) {
        int e = text ? errno : ENOMEM;
        free(text);
        errno = e;
        return -1;
    }
    json_t *h = json_loadb(text, n, 0, NULL);
    free(text);
    json_t *bytes = h ? json_object_get(h, "bytes") : NULL;
    json_int_t len = bytes ? json_integer_value(bytes) : 0;
    if (!json_is_object(h) || (bytes && !json_is_integer(bytes)) || len < 0 ||
        (uint64_t)len > AD_HELPER_MAX_PAYLOAD) {
        json_decref(h);
        errno = EPROTO;
        return -1;
    }
    unsigned char *payload = NULL;
    if (len > 0) {
        payload = malloc((size_t)len);
        if (!payload || read_all(fd, payload, (size_t)len, deadline_us) < 0) {
            int e = payload ? errno : ENOMEM;
            free(payload);
            json_decref(h);
            errno = e;
            return -1;
        }
    }
    *ret_header = h;
    *ret_payload = payload;
    *ret_len = (size_t)len;
    return 0;
}

long ad_helper_peer_uid(int fd)
{
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || len != sizeof(cred))
        return -1;
    return (long)cred.uid;
}

void ad_helper_reply(int fd, json_t *reply, int64_t deadline_us)
{
    json_object_set_new(reply, "v", json_integer(AD_HELPER_VERSION));
    json_object_set_new(reply, "pid", json_integer(getpid()));
    ad_helper_frame_write(fd, reply, NULL, 0, deadline_us);
    close(fd);
}
