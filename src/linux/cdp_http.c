/* cdp_http.c: loopback port checks and a tiny HTTP/1.0 client for /json/version
 * (cdp_http.h). Only 127.0.0.1 is ever dialed or bound. */
#include "linux/cdp_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/ctx.h" /* ad_now_us */

#define MAX_RESPONSE (64 * 1024)

static struct sockaddr_in loopback(int port)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

int ad_loopback_port(int port, int *ret_port, ad_error *err)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return ad_error_set(err, AD_ACTION_FAILED, "Cannot open a TCP socket: %s",
                            strerror(errno));
    /* SO_REUSEADDR, as Chromium's DevTools server binds: the probe then answers what that
     * server will find. On Linux a port whose old connections sit in TIME_WAIT is free for it
     * and only a socket still bound makes the bind fail; a network stack that keeps TIME_WAIT
     * ports (gVisor) refuses both, and so does the probe. */
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in a = loopback(port);
    int rc = bind(fd, (struct sockaddr *)&a, sizeof(a));
    int e = errno;
    if (rc == 0 && port == 0) {
        socklen_t len = sizeof(a);
        rc = getsockname(fd, (struct sockaddr *)&a, &len);
        e = errno;
        if (rc == 0)
            *ret_port = ntohs(a.sin_port);
    }
    close(fd);
    if (rc == 0)
        return 0;
    if (port > 0 && (e == EADDRINUSE || e == EACCES))
        return 1;
    return ad_error_set(err, AD_ACTION_FAILED, "Cannot bind a loopback port: %s", strerror(e));
}

/* Waits for `events` on fd until deadline_us; true when ready. */
static bool wait_fd(int fd, short events, int64_t deadline_us)
{
    for (;;) {
        int64_t left_ms = (deadline_us - ad_now_us()) / 1000;
        struct pollfd p = {.fd = fd, .events = events};
        int r = poll(&p, 1, left_ms > 0 ? (int)left_ms : 0);
        if (r > 0)
            return true;
        if (r == 0 || errno != EINTR)
            return false;
    }
}

/* True when buf (NUL-terminated) holds the headers and the whole Content-Length body. */
static bool response_complete(const char *buf, size_t got)
{
    const char *end = strstr(buf, "\r\n\r\n");
    if (!end)
        return false;
    const char *cl = strcasestr(buf, "\r\nContent-Length:");
    if (!cl || cl > end)
        return false; /* no length: read until the server closes */
    size_t len = strtoul(cl + 17, NULL, 10);
    return got >= (size_t)(end + 4 - buf) + len;
}

/* The whole response into buf (NUL-terminated), or -1. */
static int exchange(int port, int64_t deadline_us, char *buf, size_t size)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = loopback(port);
    int rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
    if (rc < 0 && errno == EINPROGRESS && wait_fd(fd, POLLOUT, deadline_us)) {
        int soerr = 0;
        socklen_t len = sizeof(soerr);
        rc = getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) == 0 && soerr == 0 ? 0 : -1;
    }
    char req[160];
    int req_len = snprintf(req, sizeof(req),
                           "GET /json/version HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                           "Connection: close\r\n\r\n", port);
    if (rc < 0 || send(fd, req, (size_t)req_len, MSG_NOSIGNAL) != req_len) {
        close(fd);
        return -1;
    }
    size_t got = 0;
    while (got < size - 1 && wait_fd(fd, POLLIN, deadline_us)) {
        ssize_t n = recv(fd, buf + got, size - 1 - got, 0);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            got = 0;
            break;
        }
        got += (size_t)n;
        buf[got] = '\0';
        if (response_complete(buf, got))
            break;
    }
    close(fd);
    buf[got] = '\0';
    return got > 0 ? 0 : -1;
}

int ad_cdp_version(int port, int64_t deadline_us, json_t **ret, ad_error *err)
{
    char *buf = malloc(MAX_RESPONSE);
    if (!buf)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    int status = 0;
    const char *body = NULL;
    if (exchange(port, deadline_us, buf, MAX_RESPONSE) == 0 &&
        sscanf(buf, "HTTP/%*d.%*d %d", &status) == 1 && status == 200)
        body = strstr(buf, "\r\n\r\n");
    json_t *doc = body ? json_loads(body + 4, 0, NULL) : NULL;
    free(buf);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return ad_error_set(err, AD_ACTION_FAILED,
                            "No DevTools endpoint answered on 127.0.0.1:%d", port);
    }
    *ret = doc;
    return 0;
}
