/* helper_client.c: a request to agent-desktop-linux-clipboard-owner, starting it on demand
 * (helper_client.h). */
#include "linux/helper_client.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helper/helper_proto.h"

/* `name` in the directory of `file` into buf: 0 when it is an executable there. */
static int beside(const char *file, const char *name, char *buf, size_t size)
{
    const char *slash = strrchr(file, '/');
    if (!slash)
        return -1;
    int w = snprintf(buf, size, "%.*s/%s", (int)(slash - file), file, name);
    return (w < 0 || (size_t)w >= size || access(buf, X_OK) != 0) ? -1 : 0;
}

/* The helper's path into buf; -1 with PLATFORM_NOT_SUPPORTED when it is not there. It is
 * installed beside the program (the CLI, via /proc/self/exe) and beside the shared library
 * (a C library host such as python3 lives elsewhere: dladdr names the object this code is
 * in, the library itself, when it was loaded by path). */
static int helper_path(char *buf, size_t size, ad_error *err)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        if (beside(exe, AD_HELPER_NAME, buf, size) == 0)
            return 0;
    } else {
        strcpy(exe, "?/agent-desktop");
    }
    Dl_info self;
    if (dladdr((void *)helper_path, &self) && self.dli_fname && self.dli_fname[0] == '/' &&
        beside(self.dli_fname, AD_HELPER_NAME, buf, size) == 0)
        return 0;
    *strrchr(exe, '/') = '\0';
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                 "The clipboard needs %s beside agent-desktop, and it is not installed",
                 AD_HELPER_NAME);
    ad_error_suggest(err, "Install %s in %s (it is built with agent-desktop)",
                     AD_HELPER_NAME, exe);
    snprintf(buf, size, "%s/%s", exe, AD_HELPER_NAME);
    ad_error_detail_text(err, "helper", buf);
    return -1;
}

/* A connected socket whose peer is this user, or -1. */
static int try_connect(const char *sock_path)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(sock_path) >= sizeof(addr.sun_path))
        return -1;
    strcpy(addr.sun_path, sock_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
        ad_helper_peer_uid(fd) != (long)getuid()) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Starts the helper detached: it must not be our child (the command exits before it) nor
 * share our session (a terminal's hangup must not end it). */
static void spawn_helper(const char *path)
{
    pid_t pid = fork();
    if (pid < 0)
        return;
    if (pid == 0) {
        setsid();
        if (fork() == 0) {
            int null = open("/dev/null", O_RDWR);
            if (null >= 0) {
                dup2(null, 0);
                dup2(null, 1);
                dup2(null, 2);
            }
            closefrom(3);
            if (chdir("/") < 0) /* never pin the caller's directory (or its mount) */
                _exit(1);
            execl(path, AD_HELPER_NAME, (char *)NULL);
        }
        _exit(0);
    }
    waitpid(pid, NULL, 0);
}

/* A connection to the running helper, starting one when none answers, until deadline_us. */
static int connect_helper(const char *exe, const char *sock_path, int64_t deadline_us)
{
    int fd = try_connect(sock_path);
    if (fd >= 0)
        return fd;
    spawn_helper(exe);
    while (ad_helper_now_us() < deadline_us) {
        /* Polls for the socket the new helper binds: about 5 ms on an idle machine. */
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if ((fd = try_connect(sock_path)) >= 0)
            return fd;
    }
    return -1;
}

static ad_error_code code_named(const char *name)
{
    if (name && strcmp(name, "PLATFORM_NOT_SUPPORTED") == 0)
        return AD_PLATFORM_NOT_SUPPORTED;
    if (name && strcmp(name, "INVALID_ARGS") == 0)
        return AD_INVALID_ARGS;
    return AD_ACTION_FAILED;
}

/* ad_helper_request, or with start false ad_helper_request_running; with once false a
 * connection closed without a reply is tried again (ad_helper_request_once). */
static int request(json_t *req, const void *payload, size_t len, int64_t deadline_us,
                   bool start, bool once, json_t **ret_reply, ad_error *err)
{
    char exe[PATH_MAX], dir[PATH_MAX], sock_path[PATH_MAX];
    if (helper_path(exe, sizeof(exe), err) < 0)
        return -1;
    if (ad_helper_dir(dir, sizeof(dir)) < 0 ||
        ad_helper_path(sock_path, sizeof(sock_path), dir, "helper.sock") < 0)
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                            "%s needs an absolute XDG_RUNTIME_DIR of a usable length",
                            AD_HELPER_NAME);
    json_object_set_new(req, "v", json_integer(AD_HELPER_VERSION));
    json_t *reply = NULL;
    /* Twice at most: a helper that was exiting as we connected closes without a reply, and
     * the second try starts a new one. */
    for (int attempt = 0; attempt < (once ? 1 : 2) && !reply; attempt++) {
        int fd = start ? connect_helper(exe, sock_path, deadline_us) : try_connect(sock_path);
        if (fd < 0 && !start)
            return 1;
        if (fd < 0)
            break;
        unsigned char *extra = NULL;
        size_t extra_len = 0;
        if (ad_helper_frame_write(fd, req, payload, len, deadline_us) < 0 ||
            ad_helper_frame_read(fd, deadline_us, &reply, &extra, &extra_len) < 0)
            reply = NULL;
        free(extra);
        close(fd);
    }
    if (!reply) {
        ad_error_set(err, AD_ACTION_FAILED, "%s did not answer before the deadline",
                     AD_HELPER_NAME);
        ad_error_detail_text(err, "socket", sock_path);
        return -1;
    }
    if (!json_is_true(json_object_get(reply, "ok"))) {
        const char *msg = json_string_value(json_object_get(reply, "message"));
        ad_error_set(err, code_named(json_string_value(json_object_get(reply, "code"))),
                     "%s refused: %s", AD_HELPER_NAME, msg ? msg : "no reason given");
        json_decref(reply);
        return -1;
    }
    *ret_reply = reply;
    return 0;
}

int ad_helper_request(json_t *req, const void *payload, size_t len, int64_t deadline_us,
                      json_t **ret_reply, ad_error *err)
{
    return request(req, payload, len, deadline_us, true, false, ret_reply, err);
}

int ad_helper_request_once(json_t *req, int64_t deadline_us, json_t **ret_reply, ad_error *err)
{
    return request(req, NULL, 0, deadline_us, false, true, ret_reply, err);
}

int ad_helper_request_running(json_t *req, int64_t deadline_us, json_t **ret_reply,
                              ad_error *err)
{
    return request(req, NULL, 0, deadline_us, false, false, ret_reply, err);
}
