/* wayland_clipboard.c: the Wayland clipboard through wl-clipboard (wayland_clipboard.h). */
#include "linux/wayland_clipboard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helper/helper_proto.h"
#include "linux/wayland_input.h"
#include "linux/x11_clipboard.h" /* ad_clip_file_list_content */

#define MAX_READ (128u * 1024 * 1024)

/* What one wl-clipboard run gave: stdout (malloc'd, NUL-terminated), stderr's first line. */
typedef struct {
    char *out;
    size_t len;
    char why[256];
    int status; /* the exit status, or -1 when it was killed at the deadline */
} wl_run;

/* 0 when `name` is an executable in a PATH directory. */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];
    for (const char *p = path ? path : ""; *p;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n && snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name) < (int)sizeof(buf) &&
            access(buf, X_OK) == 0)
            return 0;
        p += n + (end ? 1 : 0);
    }
    return -1;
}

static int need_tools(ad_error *err)
{
    if (on_path("wl-copy") == 0 && on_path("wl-paste") == 0)
        return 0;
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "The Wayland clipboard needs wl-clipboard "
                                                 "(wl-copy and wl-paste on PATH)");
    ad_error_suggest(err, "Install wl-clipboard (apt install wl-clipboard)");
    ad_error_detail(err, "cause", json_string("wl_clipboard_missing"));
    return -1;
}

static int append(wl_run *r, const char *buf, size_t n, ad_error *err)
{
    if (r->len + n > MAX_READ)
        return ad_error_set(err, AD_ACTION_FAILED, "The clipboard holds more than %u bytes",
                            MAX_READ);
    char *grown = realloc(r->out, r->len + n + 1);
    if (!grown)
        return ad_error_set(err, AD_INTERNAL, "Out of memory reading the clipboard");
    memcpy(grown + r->len, buf, n);
    r->out = grown;
    r->len += n;
    r->out[r->len] = '\0';
    return 0;
}

/* Runs argv (argv[0] looked up on PATH) with in[0..in_len) on stdin, collecting stdout and
 * stderr until it exits or deadline_us, when it is killed by its pid. wl-copy forks a
 * background server that keeps the pipes open, so the run ends at the exit of the process we
 * started, not at EOF. -1 only when it could not start or ran out of memory. */
static int run(char *const argv[], const char *in, size_t in_len, int64_t deadline_us,
               wl_run *r, ad_error *err)
{
    int out[2], errp[2], inp[2];
    memset(r, 0, sizeof(*r));
    if (pipe2(out, O_CLOEXEC) < 0)
        return ad_error_set(err, AD_INTERNAL, "pipe: %s", strerror(errno));
    if (pipe2(errp, O_CLOEXEC) < 0 || pipe2(inp, O_CLOEXEC) < 0) {
        close(out[0]);
        close(out[1]);
        return ad_error_set(err, AD_INTERNAL, "pipe: %s", strerror(errno));
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(inp[0], 0);
        dup2(out[1], 1);
        dup2(errp[1], 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(inp[0]);
    close(out[1]);
    close(errp[1]);
    if (pid < 0) {
        close(inp[1]);
        close(out[0]);
        close(errp[0]);
        return ad_error_set(err, AD_INTERNAL, "fork: %s", strerror(errno));
    }
    /* Small inputs fit the pipe; larger ones are written as the child reads. */
    fcntl(inp[1], F_SETFL, O_NONBLOCK);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(errp[0], F_SETFL, O_NONBLOCK);
    size_t in_off = 0;
    int in_fd = inp[1], status = 0, rc = 0;
    char ebuf[4096];
    size_t elen = 0;
    bool exited = false;
    if (in_len == 0) {
        close(in_fd);
        in_fd = -1;
    }
    while (!exited) {
        int64_t left = (deadline_us - ad_helper_now_us()) / 1000;
        if (left <= 0) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            status = -1;
            break;
        }
        struct pollfd p[3] = {{out[0], POLLIN, 0}, {errp[0], POLLIN, 0},
                              {in_fd, POLLOUT, 0}};
        poll(p, in_fd >= 0 ? 3 : 2, left > 20 ? 20 : (int)left);
        char buf[65536];
        ssize_t n;
        while ((n = read(out[0], buf, sizeof(buf))) > 0)
            if (append(r, buf, (size_t)n, err) < 0) {
                rc = -1;
                break;
            }
        while ((n = read(errp[0], ebuf + elen, sizeof(ebuf) - 1 - elen)) > 0)
            elen += (size_t)n;
        if (in_fd >= 0 && (p[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
            n = write(in_fd, in + in_off, in_len - in_off);
            if (n > 0)
                in_off += (size_t)n;
            if (in_off == in_len || (n < 0 && errno != EAGAIN)) {
                close(in_fd);
                in_fd = -1;
            }
        }
        if (rc < 0) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            break;
        }
        exited = waitpid(pid, &status, WNOHANG) == pid;
    }
    if (exited) { /* what it wrote just before exiting */
        char buf[65536];
        ssize_t n;
        while (rc == 0 && (n = read(out[0], buf, sizeof(buf))) > 0)
            rc = append(r, buf, (size_t)n, err);
        while ((n = read(errp[0], ebuf + elen, sizeof(ebuf) - 1 - elen)) > 0)
            elen += (size_t)n;
    }
    if (in_fd >= 0)
        close(in_fd);
    close(out[0]);
    close(errp[0]);
    ebuf[elen] = '\0';
    ebuf[strcspn(ebuf, "\n")] = '\0';
    snprintf(r->why, sizeof(r->why), "%.255s", ebuf);
    r->status = status < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    if (rc < 0) {
        free(r->out);
        r->out = NULL;
    }
    return rc;
}

static int run_failed(const char *what, const wl_run *r, ad_error *err)
{
    if (r->status == -1) {
        ad_error_set(err, AD_ACTION_FAILED, "%s did not finish before the deadline", what);
        ad_error_suggest(err, "Close the Overview or any shell menu (wl-clipboard needs the "
                              "keyboard focus for a moment), then try again");
        ad_error_detail(err, "cause", json_string("clipboard_timeout"));
        return -1;
    }
    ad_error_set(err, AD_ACTION_FAILED, "%s failed (exit %d): %s", what, r->status,
                 r->why[0] ? r->why : "no message");
    ad_error_detail(err, "cause", json_string("wl_clipboard_failed"));
    return -1;
}

/* A session with a keyboard, wl-clipboard present. */
static int ready(int64_t deadline_us, ad_error *err)
{
    return need_tools(err) < 0 || ad_wayland_input_ensure(deadline_us, err) < 0 ? -1 : 0;
}

/* The offered MIME types, newline-separated, into *ret (malloc'd); 0 when nothing is
 * offered. */
static int list_types(int64_t deadline_us, char **ret, ad_error *err)
{
    char *argv[] = {"wl-paste", "--list-types", NULL};
    wl_run r;
    *ret = NULL;
    if (run(argv, NULL, 0, deadline_us, &r, err) < 0)
        return -1;
    if (r.status == 0 && r.out && r.len) {
        *ret = r.out;
        return 1;
    }
    free(r.out);
    /* Exit 1 with "Nothing is copied" (content gone) or "No selection" (none set, or
     * cleared): an empty clipboard. */
    if (r.status == 1 && (strstr(r.why, "Nothing is copied") || strstr(r.why, "No selection")))
        return 0;
    return run_failed("wl-paste --list-types", &r, err);
}

static bool offers(const char *types, const char *type)
{
    size_t n = strlen(type);
    for (const char *p = types; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == n && memcmp(p, type, n) == 0)
            return true;
        p += len + (nl ? 1 : 0);
    }
    return false;
}

static int paste(const char *type, int64_t deadline_us, char **ret, size_t *ret_len,
                 ad_error *err)
{
    char *argv[] = {"wl-paste", "--no-newline", "--type", (char *)type, NULL};
    wl_run r;
    if (run(argv, NULL, 0, deadline_us, &r, err) < 0)
        return -1;
    if (r.status != 0) {
        free(r.out);
        return run_failed("wl-paste", &r, err);
    }
    *ret = r.out ? r.out : strdup("");
    *ret_len = r.len;
    return *ret ? 0 : ad_error_set(err, AD_INTERNAL, "Out of memory");
}

/* The first of types[] offered, pasted: 1 with buf, 0 when none is offered. */
static int paste_first(const char *offered, const char *const *types, int64_t deadline_us,
                       char **buf, size_t *len, const char **ret_type, ad_error *err)
{
    for (size_t i = 0; types[i]; i++)
        if (offers(offered, types[i])) {
            *ret_type = types[i];
            return paste(types[i], deadline_us, buf, len, err) < 0 ? -1 : 1;
        }
    return 0;
}

static const char *const TEXT_TYPES[] = {"text/plain;charset=utf-8", "UTF8_STRING",
                                         "text/plain", "STRING", "TEXT", NULL};
static const char *const IMAGE_TYPES[] = {"image/png", NULL};
static const char *const FILE_TYPES[] = {"text/uri-list", "x-special/gnome-copied-files", NULL};

static int read_kind(const char *offered, ad_clip_want want, int64_t deadline_us,
                     ad_clip_content *ret, ad_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    const char *type = NULL;
    const char *const *types = want == AD_CLIP_WANT_TEXT    ? TEXT_TYPES
                             : want == AD_CLIP_WANT_IMAGE ? IMAGE_TYPES
                                                          : FILE_TYPES;
    int r = paste_first(offered, types, deadline_us, &buf, &len, &type, err);
    if (r != 1)
        return r;
    if (want == AD_CLIP_WANT_TEXT || want == AD_CLIP_WANT_IMAGE) {
        *ret = (ad_clip_content){.kind = want == AD_CLIP_WANT_TEXT ? AD_CLIP_TEXT
                                                                   : AD_CLIP_IMAGE,
                                 .data = buf, .len = len};
        return 1;
    }
    return ad_clip_file_list_content(type, buf, len, ret, err);
}

int ad_wl_clipboard_read(ad_clip_want want, int64_t deadline_us, ad_clip_content *ret,
                         ad_error *err)
{
    char *offered = NULL;
    if (ready(deadline_us, err) < 0)
        return -1;
    int r = list_types(deadline_us, &offered, err);
    if (r == 1 && want == AD_CLIP_WANT_AUTO) {
        r = read_kind(offered, AD_CLIP_WANT_FILE_URLS, deadline_us, ret, err);
        if (r == 0)
            r = read_kind(offered, AD_CLIP_WANT_IMAGE, deadline_us, ret, err);
        if (r == 0)
            r = read_kind(offered, AD_CLIP_WANT_TEXT, deadline_us, ret, err);
    } else if (r == 1) {
        r = read_kind(offered, want, deadline_us, ret, err);
    }
    free(offered);
    return r;
}

/* The content as one wl-copy type and its bytes (*ret_buf malloc'd when file URLs). */
static const char *content_bytes(const ad_clip_content *c, char **ret_buf, const char **ret,
                                 size_t *ret_len)
{
    *ret_buf = NULL;
    if (c->kind != AD_CLIP_FILE_URLS) {
        *ret = c->data;
        *ret_len = c->len;
        return c->kind == AD_CLIP_TEXT ? "text/plain;charset=utf-8" : "image/png";
    }
    size_t total = 1; /* text/uri-list lines end in CRLF (RFC 2483) */
    for (size_t i = 0; i < c->n_file_urls; i++)
        total += strlen(c->file_urls[i]) + 2;
    char *buf = malloc(total);
    size_t len = 0;
    for (size_t i = 0; buf && i < c->n_file_urls; i++)
        len += (size_t)sprintf(buf + len, "%s\r\n", c->file_urls[i]);
    *ret_buf = buf;
    *ret = buf;
    *ret_len = len;
    return buf ? "text/uri-list" : NULL;
}

int ad_wl_clipboard_write(const ad_clip_content *content, int64_t deadline_us, ad_error *err)
{
    if (ready(deadline_us, err) < 0)
        return -1;
    char *owned = NULL;
    const char *bytes = NULL;
    size_t len = 0;
    const char *type = content_bytes(content, &owned, &bytes, &len);
    if (!type)
        return ad_error_set(err, AD_INTERNAL, "Out of memory preparing the clipboard");
    char *argv[] = {"wl-copy", "--type", (char *)type, NULL};
    /* An empty text is a clear of the clipboard's content by wl-copy: give it an empty
     * stdin, which it copies as empty. */
    wl_run r;
    int rc = run(argv, bytes ? bytes : "", len, deadline_us, &r, err);
    free(r.out);
    if (rc == 0 && r.status != 0)
        rc = run_failed("wl-copy", &r, err);
    char *got = NULL;
    size_t got_len = 0;
    if (rc == 0 && paste(type, deadline_us, &got, &got_len, err) < 0) {
        err->delivery = AD_DELIVERY_UNCERTAIN; /* wl-copy did take the selection */
        rc = -1;
    } else if (rc == 0 && (got_len != len || memcmp(got, bytes, len) != 0)) {
        rc = ad_error_set(err, AD_ACTION_FAILED, "The clipboard did not read back as written "
                                                 "(another program may have taken it at once)");
        err->delivery = AD_DELIVERY_UNCERTAIN;
    }
    free(got);
    free(owned);
    return rc;
}

int ad_wl_clipboard_clear(int64_t deadline_us, ad_error *err)
{
    if (ready(deadline_us, err) < 0)
        return -1;
    char *argv[] = {"wl-copy", "--clear", NULL};
    wl_run r;
    int rc = run(argv, NULL, 0, deadline_us, &r, err);
    free(r.out);
    if (rc == 0 && r.status != 0)
        return run_failed("wl-copy --clear", &r, err);
    char *offered = NULL;
    if (rc == 0 && (rc = list_types(deadline_us, &offered, err)) == 1) {
        free(offered);
        return ad_error_set(err, AD_ACTION_FAILED, "The clipboard still has content after "
                            "clearing it (another program took it at once)");
    }
    return rc < 0 ? -1 : 0;
}
