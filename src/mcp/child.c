/* child.c: spawning, reading and stopping a tool call's child (child.h). */
#include "mcp/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int ad_mcp_child_spawn(ad_mcp_child *c, const char *exe, char *const argv[], ad_error *err)
{
    memset(c, 0, sizeof(*c));
    c->out_fd = -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return ad_error_set(err, AD_INTERNAL, "Cannot create a pipe for the command: %s",
                            strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    /* dup2 clears close-on-exec on the child's stdout; the read end closes on exec. */
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGCHLD);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    /* Its own process group (pgid = its pid), so a signal to the group reaches only it. */
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);
    int rc = posix_spawn(&c->pid, exe, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return ad_error_set(err, AD_INTERNAL, "Cannot start the command: %s", strerror(rc));
    }
    c->out_fd = fds[0];
    fcntl(c->out_fd, F_SETFL, fcntl(c->out_fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

/* Keeps n more bytes of output, up to the limit; past it, marks the overflow. */
static void keep(ad_mcp_child *c, const char *data, size_t n)
{
    if (c->overflow)
        return;
    if (c->out_len + n > AD_MCP_CHILD_OUTPUT_MAX) {
        c->overflow = true;
        return;
    }
    if (c->out_len + n + 1 > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 8192;
        while (cap < c->out_len + n + 1)
            cap *= 2;
        char *out = realloc(c->out, cap);
        if (!out) {
            c->overflow = true;
            return;
        }
        c->out = out;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, data, n);
    c->out_len += n;
    c->out[c->out_len] = '\0';
}

bool ad_mcp_child_read(ad_mcp_child *c)
{
    if (c->out_fd < 0)
        return true;
    for (;;) {
        char chunk[65536];
        ssize_t n = read(c->out_fd, chunk, sizeof(chunk));
        if (n > 0) {
            keep(c, chunk, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return false;
        close(c->out_fd);
        c->out_fd = -1;
        return true;
    }
}

bool ad_mcp_child_reap(ad_mcp_child *c)
{
    if (c->exited)
        return true;
    int status;
    pid_t r = waitpid(c->pid, &status, WNOHANG);
    if (r == c->pid || (r < 0 && errno == ECHILD)) {
        c->exited = true;
        c->status = r == c->pid ? status : 0;
    }
    return c->exited;
}

void ad_mcp_child_signal(ad_mcp_child *c, int sig)
{
    if (!c->exited && c->pid > 0)
        kill(-c->pid, sig);
}

void ad_mcp_child_clear(ad_mcp_child *c)
{
    if (c->out_fd >= 0)
        close(c->out_fd);
    free(c->out);
    memset(c, 0, sizeof(*c));
    c->out_fd = -1;
}
