/* dbus_pipe.h: bounded concurrency for D-Bus method calls on one sd-bus connection.
 *
 * A walk keeps several requests in flight so the application's main loop never idles while a
 * reply travels (facts/atspi-on-debian12.md: about 8 in flight keep an idle app busy; an
 * animating GTK 4 app answers one batch per frame and needs far more, see walker.c). Calls are
 * queued and sent as slots free up; ad_pipe_run processes replies until nothing is pending
 * or the deadline passes. Reply callbacks may submit more calls.
 */
#ifndef AD_DBUS_PIPE_H
#define AD_DBUS_PIPE_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

typedef struct ad_pipe ad_pipe;

/* The pipe's own errors: no answer came, which says nothing about what the peer holds. */
#define AD_PIPE_ERROR_CANCELLED "org.agentdesktop.Cancelled"
#define AD_PIPE_ERROR_UNANSWERED "org.agentdesktop.Unanswered"

/* Called once per call: with the reply, or with reply NULL and `error` set (a D-Bus error, a
 * transport failure, AD_PIPE_ERROR_CANCELLED when the pipe is freed before the reply came, or
 * AD_PIPE_ERROR_UNANSWERED when the destination stayed silent past the answer budget). */
typedef void (*ad_pipe_fn)(sd_bus_message *reply, const sd_bus_error *error, void *userdata);

/* Arguments a call may carry; the signature says which fields are used. */
typedef struct {
    const char *sig; /* "", "i", "ii", "u", "s", "ss" */
    int32_t i[2];
    uint32_t u;
    const char *s[2]; /* copied at submit time */
} ad_pipe_args;

ad_pipe *ad_pipe_new(sd_bus *bus, unsigned max_in_flight);
/* Cancels whatever is still pending (callbacks run with a "cancelled" error) and frees. */
void ad_pipe_free(ad_pipe *p);

/* Queues a call. Strings are copied. Returns -1 on allocation failure (fn is not called). */
int ad_pipe_call(ad_pipe *p, const char *dest, const char *path, const char *iface,
                 const char *member, const ad_pipe_args *args, ad_pipe_fn fn, void *userdata);

/* Work the caller holds back until the pipe can send it: whenever nothing is queued and a
 * slot is free, the pipe calls fn(ud), which may queue calls (ad_pipe_call) and returns false
 * once it has nothing more to give. A walk that queued every call up front held ~7 call
 * records per node (0.9 KB) at its peak; this keeps the queue about max_in_flight long.
 * ad_pipe_free never calls fn: what it still holds is the caller's to account for. */
typedef bool (*ad_pipe_refill_fn)(void *ud);
void ad_pipe_set_refill(ad_pipe *p, ad_pipe_refill_fn fn, void *ud);

/* Sends nothing from now on: calls stay queued until ad_pipe_free cancels them (a caller
 * turning its held-back work into cancelled calls once the deadline passed). */
void ad_pipe_hold(ad_pipe *p);

/* Runs until no call is queued or in flight and the refill has no more work (returns 0) or
 * until deadline_us passes (returns 1). Returns -1 when the connection failed. */
int ad_pipe_run(ad_pipe *p, int64_t deadline_us);

/* Runs several pipes (on different connections) together, with poll(2), until none has work
 * (0) or the deadline passes (1); -1 when a connection failed. */
int ad_pipe_run_all(ad_pipe **pipes, unsigned n, int64_t deadline_us);

/* Marks a pipe whose connection is peer-to-peer: calls carry no destination. */
void ad_pipe_set_peer(ad_pipe *p, bool peer);

/* Gives every destination its own answer budget: a destination that has calls in flight and
 * sends no reply for budget_us is unanswering; its pending calls, and any later call to it,
 * complete at once with AD_PIPE_ERROR_UNANSWERED, so one stopped process costs the others
 * neither in-flight slots nor time. A destination that keeps answering, however slowly, runs
 * until the deadline. 0 (the default) turns the budget off. */
void ad_pipe_set_answer_budget(ad_pipe *p, int64_t budget_us);

/* True when e is one of the pipe's own errors (cancelled or unanswered): no reply came. */
bool ad_pipe_no_reply(const sd_bus_error *e);
/* True when e says the destination stayed silent past its answer budget. */
bool ad_pipe_unanswered(const sd_bus_error *e);

/* Calls not yet answered (queued + in flight). */
unsigned ad_pipe_pending(const ad_pipe *p);

#endif
