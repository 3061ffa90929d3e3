/* helper_main.c: agent-desktop-linux-clipboard-owner, the per-user process behind effects that must
 * outlive a command (helper_proto.h has the why, the socket and the protocol).
 *
 * Started by agent-desktop on demand (detached, stdio on /dev/null). It takes helper.lock
 * (flock) or exits at once because another helper runs, binds helper.sock (0600) in the 0700
 * directory, writes helper.pid, and then serves requests one at a time, routing each by its
 * "service" to a registered service. A service may answer later (the overlay's glides, so
 * that several cursors move at once): it keeps the client's socket and replies from its
 * dispatch. It exits when no service holds anything and no request
 * is pending: right after the last one let go (for the clipboard: another client took the
 * selection; for the overlay: the last cursor was stopped), or AD_HELPER_IDLE_MS after a
 * start that left nothing held. Services: "clipboard" (clip_owner.h), "overlay"
 * (overlay_x11.h), "wlinput" (wl_session.h), "notify" (notify_monitor.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "helper/clip_owner.h"
#include "helper/helper_proto.h"
#include "helper/notify_monitor.h"
#include "helper/overlay_x11.h"
#include "helper/wl_session.h"

#define AD_HELPER_IDLE_MS 5000

/* SIGTERM and SIGINT end the loop, so the socket and pid file go with the process. */
static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* One registered service: the helper routes requests by name and asks each whether it still
 * holds anything. */
typedef struct {
    const char *name;
    void *state;
    /* The reply, or NULL when the service kept client_fd to reply later itself
     * (ad_helper_reply). */
    json_t *(*request)(void *state, const json_t *req, const unsigned char *payload,
                       size_t len, int client_fd);
    int (*fd)(const void *state);
    int (*dispatch)(void *state);
    bool (*holds)(const void *state);
    int (*timeout_ms)(const void *state); /* the longest poll may wait; -1: any */
} helper_service;

static json_t *clip_request(void *s, const json_t *req, const unsigned char *p, size_t n,
                            int fd)
{
    (void)fd;
    return ad_clip_owner_request(s, req, p, n);
}
static int clip_fd(const void *s) { return ad_clip_owner_fd(s); }
static int clip_dispatch(void *s) { return ad_clip_owner_dispatch(s); }
static bool clip_holds(const void *s) { return ad_clip_owner_holds(s); }
static int clip_timeout(const void *s) { (void)s; return -1; }

static json_t *overlay_request(void *s, const json_t *req, const unsigned char *p, size_t n,
                               int fd)
{
    return ad_overlay_request(s, req, p, n, fd);
}
static int overlay_fd(const void *s) { return ad_overlay_fd(s); }
static int overlay_dispatch(void *s) { return ad_overlay_dispatch(s); }
static bool overlay_holds(const void *s) { return ad_overlay_holds(s); }
static int overlay_timeout(const void *s) { return ad_overlay_timeout_ms(s); }

static json_t *wl_request(void *s, const json_t *req, const unsigned char *p, size_t n, int fd)
{
    (void)p;
    (void)n;
    (void)fd;
    return ad_wl_session_request(s, req);
}
static int wl_fd(const void *s) { (void)s; return -1; } /* calls only; no signals read */
static int wl_dispatch(void *s) { return ad_wl_session_dispatch(s); }
static bool wl_holds(const void *s) { return ad_wl_session_holds(s); }
static int wl_timeout(const void *s) { return ad_wl_session_timeout_ms(s); }

static json_t *notify_request(void *s, const json_t *req, const unsigned char *p, size_t n,
                              int fd)
{
    (void)p;
    (void)n;
    (void)fd;
    return ad_notify_monitor_request(s, req);
}
static int notify_fd(const void *s) { return ad_notify_monitor_fd(s); }
static int notify_dispatch(void *s) { return ad_notify_monitor_dispatch(s); }
static bool notify_holds(const void *s) { return ad_notify_monitor_holds(s); }
static int notify_timeout(const void *s) { return ad_notify_monitor_timeout_ms(s); }

static helper_service services[] = {
    {"clipboard", NULL, clip_request, clip_fd, clip_dispatch, clip_holds, clip_timeout},
    {"overlay", NULL, overlay_request, overlay_fd, overlay_dispatch, overlay_holds,
     overlay_timeout},
    {"wlinput", NULL, wl_request, wl_fd, wl_dispatch, wl_holds, wl_timeout},
    {"notify", NULL, notify_request, notify_fd, notify_dispatch, notify_holds, notify_timeout},
};
#define N_SERVICES (sizeof(services) / sizeof(services[0]))

static bool anything_held(void)
{
    for (size_t i = 0; i < N_SERVICES; i++)
        if (services[i].holds(services[i].state))
            return true;
    return false;
}

static json_t *reply_error(const char *code, const char *message)
{
    return json_pack("{s:b, s:s, s:s}", "ok", 0, "code", code, "message", message);
}

/* Reads one request from a connected client, routes it, writes the reply and closes fd,
 * unless the service kept fd to reply later. */
static void serve_client(int fd)
{
    int64_t deadline = ad_helper_now_us() + AD_HELPER_IO_MS * 1000;
    json_t *req = NULL, *reply = NULL;
    unsigned char *payload = NULL;
    size_t len = 0;
    if ((long)getuid() != ad_helper_peer_uid(fd) || /* another user: no answer at all */
        ad_helper_frame_read(fd, deadline, &req, &payload, &len) < 0) {
        close(fd);
        return;
    }
    bool deferred = false;
    json_int_t v = json_integer_value(json_object_get(req, "v"));
    const char *name = json_string_value(json_object_get(req, "service"));
    if (v != AD_HELPER_VERSION) {
        reply = reply_error("PLATFORM_NOT_SUPPORTED", "the helper speaks another version");
    } else {
        for (size_t i = 0; i < N_SERVICES && !reply; i++)
            if (name && strcmp(services[i].name, name) == 0)
                if (!(reply = services[i].request(services[i].state, req, payload, len, fd)))
                    deferred = true;
        if (!reply && !deferred)
            reply = reply_error("INVALID_ARGS", "the helper has no such service");
    }
    if (!deferred)
        ad_helper_reply(fd, reply, deadline);
    json_decref(reply);
    json_decref(req);
    free(payload);
}

/* Takes the lock and binds the socket. Returns the listening fd, or -1 (another helper runs,
 * or the directory is unusable). *ret_lock keeps the lock for the process's life. */
static int listen_socket(const char *dir, int *ret_lock)
{
    char lock_path[4096], sock_path[4096], pid_path[4096];
    if (ad_helper_path(lock_path, sizeof(lock_path), dir, "helper.lock") < 0 ||
        ad_helper_path(sock_path, sizeof(sock_path), dir, "helper.sock") < 0 ||
        ad_helper_path(pid_path, sizeof(pid_path), dir, "helper.pid") < 0)
        return -1;
    struct stat st;
    if (mkdir(dir, 0700) < 0 && errno != EEXIST)
        return -1;
    /* Our own private directory, never one another user prepared. */
    if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
        (st.st_mode & 077))
        return -1;
    int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) < 0) {
        if (lock >= 0)
            close(lock);
        return -1;
    }
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(sock_path) >= sizeof(addr.sun_path)) {
        close(lock);
        return -1;
    }
    strcpy(addr.sun_path, sock_path);
    unlink(sock_path); /* a dead helper's socket: we hold the lock, so nobody serves it */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    mode_t old = umask(0177);
    int bound = fd >= 0 ? bind(fd, (struct sockaddr *)&addr, sizeof(addr)) : -1;
    umask(old);
    if (bound < 0 || chmod(sock_path, 0600) < 0 || listen(fd, 16) < 0) {
        if (fd >= 0)
            close(fd);
        close(lock);
        return -1;
    }
    int pf = open(pid_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (pf >= 0) {
        dprintf(pf, "%ld\n", (long)getpid());
        close(pf);
    }
    *ret_lock = lock;
    return fd;
}

static void remove_socket(const char *dir)
{
    char path[4096];
    if (ad_helper_path(path, sizeof(path), dir, "helper.sock") == 0)
        unlink(path);
    if (ad_helper_path(path, sizeof(path), dir, "helper.pid") == 0)
        unlink(path);
}

/* Accepts every pending connection and serves it. Returns how many were served. */
static int accept_all(int lfd)
{
    int served = 0;
    for (;;) {
        int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (cfd < 0)
            return served;
        serve_client(cfd);
        served++;
    }
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_stop_signal}; /* no SA_RESTART: poll returns */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    char dir[4096];
    int lock = -1;
    if (ad_helper_dir(dir, sizeof(dir)) < 0)
        return 1;
    int lfd = listen_socket(dir, &lock);
    if (lfd < 0)
        return 1;
    services[0].state = ad_clip_owner_new();
    services[1].state = ad_overlay_new();
    services[2].state = ad_wl_session_new();
    services[3].state = ad_notify_monitor_new();
    if (!services[0].state || !services[1].state || !services[2].state || !services[3].state)
        return 1;
    int64_t idle_since = ad_helper_now_us();
    bool was_held = false;
    while (!stop_requested) {
        struct pollfd p[1 + N_SERVICES];
        p[0] = (struct pollfd){.fd = lfd, .events = POLLIN};
        for (size_t i = 0; i < N_SERVICES; i++)
            p[1 + i] = (struct pollfd){.fd = services[i].fd(services[i].state), .events = POLLIN};
        int wait_ms = 1000;
        for (size_t i = 0; i < N_SERVICES; i++) {
            int t = services[i].timeout_ms(services[i].state);
            if (t >= 0 && t < wait_ms)
                wait_ms = t;
        }
        poll(p, 1 + N_SERVICES, wait_ms);
        for (size_t i = 0; i < N_SERVICES; i++)
            services[i].dispatch(services[i].state);
        if (accept_all(lfd) > 0)
            idle_since = ad_helper_now_us();
        for (size_t i = 0; i < N_SERVICES; i++)
            services[i].dispatch(services[i].state); /* what the request left queued */
        if (anything_held()) {
            was_held = true;
            continue;
        }
        /* Held once and let go: exit now; never held: after the idle grace. */
        if (!was_held && ad_helper_now_us() - idle_since < AD_HELPER_IDLE_MS * 1000)
            continue;
        /* A client that connected meanwhile is served before the socket goes. */
        if (accept_all(lfd) > 0 || anything_held())
            continue;
        break;
    }
    remove_socket(dir);
    close(lfd);
    ad_clip_owner_free(services[0].state);
    ad_overlay_free(services[1].state);
    ad_wl_session_free(services[2].state);
    ad_notify_monitor_free(services[3].state);
    close(lock);
    return 0;
}
