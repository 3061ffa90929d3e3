/* server.c: the MCP server loop over stdio (server.h).
 *
 * One poll() loop: stdin, a self-pipe the SIGCHLD handler writes to, and each running call's
 * stdout pipe. Lines that arrive together are handled together, so a notifications/cancelled
 * in the same read as its tools/call means the call never starts.
 */
#include "mcp/server.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dispatch/argv_build.h"
#include "dispatch/validate.h"
#include "mcp/child.h"
#include "mcp/framing.h"
#include "mcp/protocol.h"
#include "mcp/result.h"
#include "mcp/server_args.h"
#include "mcp/tools.h"

typedef struct {
    bool used;
    json_t *id;               /* owned: the request id */
    ad_mcp_era era;
    const ad_mcp_tool *tool;
    ad_mcp_child child;
    bool cancelled;           /* no response: cancelled, or the server is ending */
    bool out_done;            /* its stdout reached end of file */
    long long kill_at_ms;     /* SIGKILL due at this time, 0 for none */
} call_slot;

typedef struct {
    char exe[PATH_MAX];
    ad_argv globals;          /* the server's global flags, passed to every call */
    bool initialized;         /* a legacy client sent initialize */
    bool closing;             /* stdin ended or stdout failed */
    call_slot calls[AD_MCP_CALLS_MAX];
} server;

static int sigchld_pipe[2] = {-1, -1};
static volatile sig_atomic_t stop_signal; /* SIGTERM, SIGINT or SIGHUP to the server */

/* Wakes the loop: a child changed state, or the server was asked to stop. */
static void on_signal(int sig)
{
    if (sig != SIGCHLD)
        stop_signal = sig;
    int saved = errno;
    ssize_t n = write(sigchld_pipe[1], "c", 1);
    (void)n; /* a full pipe already holds a wake-up */
    errno = saved;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void send_message(server *s, json_t *msg)
{
    if (ad_mcp_write_message(STDOUT_FILENO, msg) < 0 && !s->closing) {
        fprintf(stderr, "agent-desktop mcp: cannot write to stdout (%s); stopping\n",
                strerror(errno));
        s->closing = true;
    }
    json_decref(msg);
}

static void send_result(server *s, const json_t *id, ad_mcp_era era, json_t *result)
{
    ad_mcp_finish_result(result, era);
    send_message(s, ad_mcp_result_response(id, result));
}

static void send_error(server *s, const json_t *id, int code, const char *message)
{
    send_message(s, ad_mcp_error_response(id, ad_mcp_rpc_error(code, message, NULL)));
}

static size_t live_calls(const server *s)
{
    size_t n = 0;
    for (size_t i = 0; i < AD_MCP_CALLS_MAX; i++)
        n += s->calls[i].used;
    return n;
}

/* SIGTERM now (the call releases what it holds), SIGKILL after the grace period. */
static void stop_call(call_slot *c)
{
    c->cancelled = true;
    if (c->kill_at_ms)
        return;
    ad_mcp_child_signal(&c->child, SIGTERM);
    c->kill_at_ms = now_ms() + AD_MCP_KILL_GRACE_MS;
}

static void cancel_request(server *s, const json_t *request_id)
{
    for (size_t i = 0; request_id && i < AD_MCP_CALLS_MAX; i++) {
        call_slot *c = &s->calls[i];
        if (c->used && !c->cancelled && json_equal(c->id, (json_t *)request_id)) {
            fprintf(stderr, "agent-desktop mcp: cancelling %s (pid %d)\n", c->tool->name,
                    (int)c->child.pid);
            stop_call(c);
        }
    }
}

/* Answers a tools/call with a tool error (isError) that names what went wrong. */
static void send_tool_error(server *s, const json_t *id, ad_mcp_era era, const ad_command *cmd,
                            ad_error *err)
{
    send_result(s, id, era, ad_mcp_error_result(cmd, err));
    ad_error_clear(err);
}

static void start_call(server *s, const json_t *id, const json_t *params, ad_mcp_era era)
{
    const char *name = json_string_value(json_object_get(params, "name"));
    const ad_mcp_tool *tool = ad_mcp_tool_find(name);
    const json_t *arguments = json_object_get(params, "arguments");
    if (!name)
        {
            send_error(s, id, AD_RPC_INVALID_PARAMS, "tools/call needs params.name");
            return;
        }
    if (!tool) {
        char msg[256];
        snprintf(msg, sizeof(msg), "Unknown tool '%.128s'; tools/list names them", name);
        {
            send_error(s, id, AD_RPC_INVALID_PARAMS, msg);
            return;
        }
    }
    if (arguments && !json_is_null(arguments) && !json_is_object(arguments))
        {
            send_error(s, id, AD_RPC_INVALID_PARAMS, "params.arguments must be an object");
            return;
        }
    for (size_t i = 0; i < AD_MCP_CALLS_MAX; i++)
        if (s->calls[i].used && json_equal(s->calls[i].id, (json_t *)id))
            {
                send_error(s, id, AD_RPC_INVALID_REQUEST, "A call with this id is running");
                return;
            }
    ad_error err = AD_ERROR_INIT;
    /* The validator every door uses, before any child: an unknown argument or a wrong type
     * is a tool error naming it. The child validates the same given JSON again. */
    json_t *given = ad_mcp_tool_given(tool, json_is_object(arguments) ? arguments : NULL, &err);
    json_t *checked = NULL;
    if (!given || ad_args_validate(tool->cmd, given, &checked, &err) < 0) {
        json_decref(given);
        {
            send_tool_error(s, id, era, tool->cmd, &err);
            return;
        }
    }
    json_decref(checked);
    call_slot *slot = NULL;
    for (size_t i = 0; i < AD_MCP_CALLS_MAX && !slot; i++)
        if (!s->calls[i].used)
            slot = &s->calls[i];
    if (!slot) {
        json_decref(given);
        ad_error_set(&err, AD_INTERNAL, "The MCP server already runs %d tool calls, its limit",
                     AD_MCP_CALLS_MAX);
        ad_error_suggest(&err, "Call %s again when a running call has returned", tool->name);
        {
            send_tool_error(s, id, era, tool->cmd, &err);
            return;
        }
    }
    ad_argv argv;
    ad_argv_init(&argv);
    int rc = ad_argv_push(&argv, s->exe);
    for (size_t i = 0; rc == 0 && i < s->globals.count; i++)
        rc = ad_argv_push(&argv, s->globals.items[i]);
    if (rc < 0)
        ad_error_set(&err, AD_INTERNAL, "Out of memory while building the command line");
    /* Built from the GIVEN arguments, not the validated ones: defaults must not look given. */
    if (rc < 0 || ad_argv_add_command(&argv, tool->cmd, given, &err) < 0 ||
        ad_mcp_child_spawn(&slot->child, s->exe, argv.items, &err) < 0) {
        ad_argv_clear(&argv);
        json_decref(given);
        {
            send_tool_error(s, id, era, tool->cmd, &err);
            return;
        }
    }
    ad_argv_clear(&argv);
    json_decref(given);
    slot->used = true;
    slot->id = json_deep_copy(id);
    slot->era = era;
    slot->tool = tool;
    slot->cancelled = false;
    slot->out_done = false;
    slot->kill_at_ms = 0;
}

/* True when a later line of the same batch cancels this request id. */
static bool cancelled_in_batch(json_t *const *msgs, size_t from, size_t count, const json_t *id)
{
    for (size_t i = from; i < count; i++) {
        const json_t *m = msgs[i];
        const char *method = json_string_value(json_object_get(m, "method"));
        if (method && strcmp(method, "notifications/cancelled") == 0 &&
            !json_object_get(m, "id") &&
            json_equal(json_object_get(json_object_get(m, "params"), "requestId"),
                       (json_t *)id))
            return true;
    }
    return false;
}

static void handle_request(server *s, const json_t *id, const char *method,
                           const json_t *params, bool cancelled_later)
{
    ad_mcp_era era;
    json_t *error = NULL;
    if (ad_mcp_request_era(method, params, s->initialized, &era, &error) < 0) {
        send_message(s, ad_mcp_error_response(id, error));
        return;
    }
    if (strcmp(method, "initialize") == 0) {
        s->initialized = true;
        send_result(s, id, era, ad_mcp_initialize_result(params));
    } else if (strcmp(method, "ping") == 0) {
        send_result(s, id, era, json_object());
    } else if (strcmp(method, "server/discover") == 0) {
        send_result(s, id, era, ad_mcp_discover_result());
    } else if (strcmp(method, "tools/list") == 0) {
        json_t *result = ad_mcp_tools_list_result(params, era, &error);
        if (result)
            send_result(s, id, era, result);
        else
            send_message(s, ad_mcp_error_response(id, error));
    } else if (strcmp(method, "tools/call") == 0) {
        if (cancelled_later)
            fprintf(stderr, "agent-desktop mcp: a call cancelled before it started\n");
        else
            start_call(s, id, params, era);
    } else {
        send_error(s, id, AD_RPC_METHOD_NOT_FOUND, "Method not found");
    }
}

/* One parsed message of a batch (msgs[index]). */
static void handle_message(server *s, json_t *const *msgs, size_t index, size_t count)
{
    const json_t *m = msgs[index];
    const json_t *id = json_object_get(m, "id");
    const json_t *method_v = json_object_get(m, "method");
    const json_t *params = json_object_get(m, "params");
    if (!json_is_object(m)) {
        {
            send_error(s, NULL, AD_RPC_INVALID_REQUEST,
                       json_is_array(m) ? "JSON-RPC batches are not supported"
                                        : "A message must be a JSON-RPC object");
            return;
        }
    }
    if (!method_v) {
        if (json_object_get(m, "result") || json_object_get(m, "error"))
            return; /* a response from the client: this server sends no requests */
        {
            send_error(s, id, AD_RPC_INVALID_REQUEST, "A request needs a method");
            return;
        }
    }
    bool id_ok = !id || json_is_string(id) || json_is_integer(id);
    const char *jsonrpc = json_string_value(json_object_get(m, "jsonrpc"));
    if (!json_is_string(method_v) || !jsonrpc || strcmp(jsonrpc, "2.0") != 0 || !id_ok ||
        (params && !json_is_object(params)))
        {
            send_error(s, id_ok ? id : NULL, AD_RPC_INVALID_REQUEST,
                       "Not a JSON-RPC 2.0 request (jsonrpc, method, id, params)");
            return;
        }
    const char *method = json_string_value(method_v);
    if (!id) {
        if (strcmp(method, "notifications/cancelled") == 0)
            cancel_request(s, json_object_get(params, "requestId"));
        return; /* notifications/initialized and any other notification need nothing */
    }
    handle_request(s, id, method, params, cancelled_in_batch(msgs, index + 1, count, id));
}

/* A line of a batch: a message, or why there is none. */
typedef enum { LINE_MESSAGE, LINE_NOT_JSON, LINE_TOO_LONG } line_kind;

#define BATCH_MAX 256

/* Takes up to BATCH_MAX complete lines and handles them as one batch. False when none. */
static bool handle_batch(server *s, ad_line_reader *in)
{
    json_t *msgs[BATCH_MAX];
    line_kind kinds[BATCH_MAX];
    size_t count = 0;
    while (count < BATCH_MAX) {
        char *line = NULL;
        size_t len = 0;
        ad_line_kind kind = ad_line_reader_next(in, &line, &len);
        if (kind == AD_LINE_NONE)
            break;
        if (kind == AD_LINE_TOO_LONG) {
            msgs[count] = NULL;
            kinds[count++] = LINE_TOO_LONG;
            continue;
        }
        json_error_t jerr;
        json_t *m = len ? json_loadb(line, len, 0, &jerr) : NULL;
        free(line);
        if (len == 0)
            continue; /* a blank line carries no message */
        msgs[count] = m;
        kinds[count++] = m ? LINE_MESSAGE : LINE_NOT_JSON;
    }
    for (size_t i = 0; i < count && !s->closing; i++) {
        if (kinds[i] == LINE_TOO_LONG)
            send_error(s, NULL, AD_RPC_INVALID_REQUEST, "Message over 4 MiB refused");
        else if (kinds[i] == LINE_NOT_JSON)
            send_error(s, NULL, AD_RPC_PARSE_ERROR, "Parse error: a message must be JSON");
        else
            handle_message(s, msgs, i, count);
    }
    for (size_t i = 0; i < count; i++)
        json_decref(msgs[i]);
    return count > 0;
}

/* Finishes a call whose child exited: its response (unless cancelled), then its slot. */
static void finish_call(server *s, call_slot *c)
{
    /* The child is gone; what it wrote is in the pipe. A grandchild (an app it launched)
     * may still hold the pipe open, so stop at what is there rather than wait for EOF. */
    ad_mcp_child_read(&c->child);
    if (!c->cancelled && !s->closing)
        send_result(s, c->id, c->era, ad_mcp_child_result(c->tool->cmd, &c->child));
    ad_mcp_child_clear(&c->child);
    json_decref(c->id);
    memset(c, 0, sizeof(*c));
}

/* Reaps exited children, kills the overdue, stops the ones that print too much. */
static void tend_calls(server *s)
{
    long long now = now_ms();
    for (size_t i = 0; i < AD_MCP_CALLS_MAX; i++) {
        call_slot *c = &s->calls[i];
        if (!c->used)
            continue;
        if (ad_mcp_child_reap(&c->child)) {
            finish_call(s, c);
            continue;
        }
        if (c->child.overflow && !c->kill_at_ms) {
            ad_mcp_child_signal(&c->child, SIGTERM);
            c->kill_at_ms = now + AD_MCP_KILL_GRACE_MS;
        }
        if (c->kill_at_ms && now >= c->kill_at_ms) {
            ad_mcp_child_signal(&c->child, SIGKILL);
            c->kill_at_ms = now + AD_MCP_KILL_GRACE_MS; /* and again, should it linger */
        }
    }
}

/* The poll timeout: until the next SIGKILL is due, else none. */
static int poll_timeout(const server *s)
{
    long long next = 0;
    for (size_t i = 0; i < AD_MCP_CALLS_MAX; i++)
        if (s->calls[i].used && s->calls[i].kill_at_ms &&
            (!next || s->calls[i].kill_at_ms < next))
            next = s->calls[i].kill_at_ms;
    if (!next)
        return -1;
    long long wait = next - now_ms();
    return wait < 0 ? 0 : wait > 60000 ? 60000 : (int)wait;
}

static void run(server *s)
{
    ad_line_reader in;
    ad_line_reader_init(&in);
    for (;;) {
        if (s->closing) {
            for (size_t i = 0; i < AD_MCP_CALLS_MAX; i++)
                if (s->calls[i].used)
                    stop_call(&s->calls[i]);
            if (live_calls(s) == 0)
                break;
        }
        struct pollfd fds[2 + AD_MCP_CALLS_MAX];
        call_slot *owner[2 + AD_MCP_CALLS_MAX];
        nfds_t n = 0;
        fds[n] = (struct pollfd){.fd = sigchld_pipe[0], .events = POLLIN};
        owner[n++] = NULL;
        if (!s->closing) {
            fds[n] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
            owner[n++] = NULL;
        }
        for (size_t i = 0; i < AD_MCP_CALLS_MAX; i++) {
            call_slot *c = &s->calls[i];
            if (c->used && !c->out_done && c->child.out_fd >= 0) {
                fds[n] = (struct pollfd){.fd = c->child.out_fd, .events = POLLIN};
                owner[n++] = c;
            }
        }
        int ready = poll(fds, n, poll_timeout(s));
        if (ready < 0 && errno != EINTR) {
            fprintf(stderr, "agent-desktop mcp: poll failed: %s\n", strerror(errno));
            s->closing = true;
            continue;
        }
        for (nfds_t i = 0; ready > 0 && i < n; i++) {
            if (!fds[i].revents)
                continue;
            if (fds[i].fd == sigchld_pipe[0]) {
                char drain[64];
                while (read(sigchld_pipe[0], drain, sizeof(drain)) > 0) {
                }
            } else if (owner[i]) {
                owner[i]->out_done = ad_mcp_child_read(&owner[i]->child);
            } else {
                ad_line_reader_fill(&in, STDIN_FILENO) < 0 ? (void)(in.eof = true) : (void)0;
                while (!s->closing && handle_batch(s, &in)) {
                }
                if (in.eof && !s->closing) {
                    fprintf(stderr, "agent-desktop mcp: end of input; stopping\n");
                    s->closing = true;
                }
            }
        }
        if (stop_signal && !s->closing) {
            /* Like end of input: the children end first, so none outlives the server. */
            fprintf(stderr, "agent-desktop mcp: signal %d; stopping\n", (int)stop_signal);
            s->closing = true;
        }
        tend_calls(s);
    }
    ad_line_reader_clear(&in);
}

int ad_mcp_main(int argc, char **argv)
{
    server s;
    memset(&s, 0, sizeof(s));
    ad_argv_init(&s.globals);
    json_t *globals = NULL;
    bool help = false;
    ad_error err = AD_ERROR_INIT;
    if (ad_mcp_parse_args(argc, argv, &globals, &help, &err) < 0 ||
        (!help && ad_argv_add_globals(&s.globals, globals, &err) < 0)) {
        fprintf(stderr, "agent-desktop mcp: %s\n", err.message ? err.message : "bad arguments");
        ad_error_clear(&err);
        json_decref(globals);
        ad_argv_clear(&s.globals);
        return 2;
    }
    json_decref(globals);
    if (help) {
        printf("Usage: agent-desktop mcp [--session ID] [--headed] [--agent-id ID] ...\n"
               "Serves every command as an MCP tool over stdio (newline-delimited "
               "JSON-RPC).\nGlobal flags given here apply to every call.\n");
        ad_argv_clear(&s.globals);
        return 0;
    }
    ssize_t len = readlink("/proc/self/exe", s.exe, sizeof(s.exe) - 1);
    if (len <= 0 || pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
        fprintf(stderr, "agent-desktop mcp: cannot start: %s\n", strerror(errno));
        ad_argv_clear(&s.globals);
        return 1;
    }
    s.exe[len] = '\0';
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* A client that goes away makes writes fail with EPIPE instead of killing the server. */
    signal(SIGPIPE, SIG_IGN);
    run(&s);
    ad_argv_clear(&s.globals);
    close(sigchld_pipe[0]);
    close(sigchld_pipe[1]);
    return 0;
}
