/* dbus_pipe.c: a FIFO of deferred calls in front of sd_bus_call_method_async. */
#include "linux/dbus_pipe.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct call {
    struct call *next;                  /* the queue of calls not yet sent */
    struct call *prev_sent, *next_sent; /* the list of calls in flight */
    ad_pipe *pipe;
    /* Every string points into text[], the call's one allocation (a walk sends ~2.5 calls
     * per node: six copies each cost as many mallocs and frees). s0, s1 NULL when absent. */
    char *dest, *path, *iface, *member;
    ad_pipe_args args;
    char *s0, *s1;
    ad_pipe_fn fn;
    void *userdata;
    sd_bus_slot *slot;
    size_t dest_ix; /* into ad_pipe.dests, when the answer budget is on */
    char text[];
} call;

/* What the answer budget knows about one destination. */
typedef struct {
    char *name;
    unsigned in_flight;
    int64_t silent_since_us; /* the last reply, or the first send after an idle time */
    bool unanswering;        /* silent past the budget: every call to it fails at once */
} dest_state;

struct ad_pipe {
    sd_bus *bus;
    unsigned max_in_flight, in_flight, queued;
    call *head, *tail;        /* not yet sent */
    /* In flight, for cancellation: a doubly linked list, so a reply unlinks its call in O(1).
     * sd-bus finds the call of a reply itself (its slot's userdata, looked up by reply
     * serial); a scan of an array here cost 25 ms per 10k-node walk at 1024 in flight. */
    call *sent;
    bool failed;
    bool peer; /* a peer-to-peer connection: no destination header */
    int64_t answer_budget_us; /* 0: off */
    dest_state *dests;
    size_t n_dests;
    ad_pipe_refill_fn refill;
    void *refill_ud;
    bool refilling; /* inside refill: its own ad_pipe_call must not call it again */
    bool held;      /* ad_pipe_hold: nothing more is sent */
};

static const sd_bus_error unanswered_error =
    SD_BUS_ERROR_MAKE_CONST(AD_PIPE_ERROR_UNANSWERED, "no answer within the answer budget");

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void ad_pipe_set_answer_budget(ad_pipe *p, int64_t budget_us)
{
    p->answer_budget_us = budget_us > 0 ? budget_us : 0;
}

bool ad_pipe_unanswered(const sd_bus_error *e)
{
    return e && e->name && strcmp(e->name, AD_PIPE_ERROR_UNANSWERED) == 0;
}

bool ad_pipe_no_reply(const sd_bus_error *e)
{
    return ad_pipe_unanswered(e) ||
           (e && e->name && strcmp(e->name, AD_PIPE_ERROR_CANCELLED) == 0);
}

/* The index of dest's record, added on first use; (size_t)-1 when out of memory. */
static size_t dest_index(ad_pipe *p, const char *dest)
{
    for (size_t i = 0; i < p->n_dests; i++)
        if (strcmp(p->dests[i].name, dest) == 0)
            return i;
    dest_state *d = realloc(p->dests, (p->n_dests + 1) * sizeof(*d));
    if (!d)
        return (size_t)-1;
    p->dests = d;
    d[p->n_dests] = (dest_state){.name = strdup(dest)};
    if (!d[p->n_dests].name)
        return (size_t)-1;
    return p->n_dests++;
}

void ad_pipe_set_refill(ad_pipe *p, ad_pipe_refill_fn fn, void *ud)
{
    p->refill = fn;
    p->refill_ud = ud;
}

void ad_pipe_hold(ad_pipe *p)
{
    p->held = true;
}

void ad_pipe_set_peer(ad_pipe *p, bool peer)
{
    p->peer = peer;
}

ad_pipe *ad_pipe_new(sd_bus *bus, unsigned max_in_flight)
{
    ad_pipe *p = calloc(1, sizeof(*p));
    if (p) {
        p->bus = sd_bus_ref(bus);
        p->max_in_flight = max_in_flight ? max_in_flight : 8;
    }
    return p;
}

static void call_free(call *c)
{
    free(c);
}

/* Copies s (NULL stays NULL) to *at and moves *at past it. */
static char *put(char **at, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = memcpy(*at, s, n);
    *at += n;
    return d;
}

static void remember_sent(ad_pipe *p, call *c)
{
    c->prev_sent = NULL;
    c->next_sent = p->sent;
    if (p->sent)
        p->sent->prev_sent = c;
    p->sent = c;
}

static void forget_sent(ad_pipe *p, call *c)
{
    if (c->prev_sent)
        c->prev_sent->next_sent = c->next_sent;
    else
        p->sent = c->next_sent;
    if (c->next_sent)
        c->next_sent->prev_sent = c->prev_sent;
    c->prev_sent = c->next_sent = NULL;
}

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
    (void)ret_error;
    call *c = userdata;
    ad_pipe *p = c->pipe;
    p->in_flight--;
    forget_sent(p, c);
    if (c->dest_ix != (size_t)-1) {
        p->dests[c->dest_ix].in_flight--;
        p->dests[c->dest_ix].silent_since_us = now_us();
    }
    const sd_bus_error *e = sd_bus_message_get_error(m);
    c->fn(e ? NULL : m, e, c->userdata);
    sd_bus_slot_unref(c->slot);
    call_free(c);
    return 0;
}

static int send_one(ad_pipe *p, call *c)
{
    c->dest_ix = p->answer_budget_us > 0 ? dest_index(p, c->dest) : (size_t)-1;
    if (c->dest_ix != (size_t)-1 && p->dests[c->dest_ix].unanswering) {
        c->fn(NULL, &unanswered_error, c->userdata);
        call_free(c);
        return 0;
    }
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_method_call(p->bus, &m, p->peer ? NULL : c->dest, c->path,
                                           c->iface, c->member);
    const char *sig = c->args.sig ? c->args.sig : "";
    if (r >= 0) {
        if (strcmp(sig, "i") == 0)
            r = sd_bus_message_append(m, "i", c->args.i[0]);
        else if (strcmp(sig, "ii") == 0)
            r = sd_bus_message_append(m, "ii", c->args.i[0], c->args.i[1]);
        else if (strcmp(sig, "u") == 0)
            r = sd_bus_message_append(m, "u", c->args.u);
        else if (strcmp(sig, "s") == 0)
            r = sd_bus_message_append(m, "s", c->s0);
        else if (strcmp(sig, "ss") == 0)
            r = sd_bus_message_append(m, "ss", c->s0, c->s1);
    }
    if (r >= 0)
        r = sd_bus_call_async(p->bus, &c->slot, m, on_reply, c, 0);
    sd_bus_message_unref(m);
    if (r < 0) {
        sd_bus_error e = SD_BUS_ERROR_NULL;
        sd_bus_error_set_errno(&e, r);
        c->fn(NULL, &e, c->userdata);
        sd_bus_error_free(&e);
        call_free(c);
        return r;
    }
    remember_sent(p, c);
    p->in_flight++;
    if (c->dest_ix != (size_t)-1) {
        dest_state *d = &p->dests[c->dest_ix];
        if (d->in_flight++ == 0)
            d->silent_since_us = now_us();
    }
    return 0;
}

/* Marks the destinations silent past the budget as unanswering and completes their calls,
 * in flight and queued, with AD_PIPE_ERROR_UNANSWERED. Callbacks may queue more calls: those
 * to an unanswering destination fail the same way when they are sent. Returns whether any
 * call completed. */
static bool expire_unanswering(ad_pipe *p)
{
    if (p->answer_budget_us <= 0)
        return false;
    int64_t now = now_us();
    bool any = false;
    for (size_t i = 0; i < p->n_dests; i++) {
        dest_state *d = &p->dests[i];
        if (!d->unanswering && d->in_flight > 0 &&
            now - d->silent_since_us >= p->answer_budget_us) {
            d->unanswering = true;
            any = true;
        }
    }
    if (!any)
        return false;
    /* Queued calls first, detached before any callback runs. */
    call *doomed = NULL, **link = &p->head;
    p->tail = NULL;
    while (*link) {
        call *c = *link;
        size_t ix = dest_index(p, c->dest);
        if (ix != (size_t)-1 && p->dests[ix].unanswering) {
            *link = c->next;
            c->next = doomed;
            doomed = c;
            p->queued--;
        } else {
            p->tail = c;
            link = &c->next;
        }
    }
    for (call *c = p->sent, *next; c; c = next) {
        next = c->next_sent;
        if (c->dest_ix == (size_t)-1 || !p->dests[c->dest_ix].unanswering)
            continue;
        forget_sent(p, c);
        p->in_flight--;
        p->dests[c->dest_ix].in_flight--;
        c->slot = sd_bus_slot_unref(c->slot);
        c->next = doomed;
        doomed = c;
    }
    while (doomed) {
        call *c = doomed;
        doomed = c->next;
        c->fn(NULL, &unanswered_error, c->userdata);
        call_free(c);
    }
    return true;
}

/* The earliest time a destination can go past its budget, or `deadline_us`. */
static int64_t next_wake(const ad_pipe *p, int64_t deadline_us)
{
    int64_t t = deadline_us;
    for (size_t i = 0; p->answer_budget_us > 0 && i < p->n_dests; i++) {
        const dest_state *d = &p->dests[i];
        if (!d->unanswering && d->in_flight > 0 && d->silent_since_us + p->answer_budget_us < t)
            t = d->silent_since_us + p->answer_budget_us;
    }
    return t;
}

static void pump(ad_pipe *p)
{
    if (p->held)
        return;
    for (;;) {
        while (p->head && p->in_flight < p->max_in_flight) {
            call *c = p->head;
            p->head = c->next;
            if (!p->head)
                p->tail = NULL;
            p->queued--;
            send_one(p, c);
        }
        if (p->head || p->in_flight >= p->max_in_flight || !p->refill || p->refilling)
            return;
        p->refilling = true;
        bool more = p->refill(p->refill_ud);
        p->refilling = false;
        if (!more)
            return;
    }
}

/* Sends what it can, then says whether anything is still queued or in flight. */
static bool busy(ad_pipe *p)
{
    pump(p);
    return p->in_flight > 0 || p->head;
}

int ad_pipe_call(ad_pipe *p, const char *dest, const char *path, const char *iface,
                 const char *member, const ad_pipe_args *args, ad_pipe_fn fn, void *userdata)
{
    const char *s0 = args ? args->s[0] : NULL, *s1 = args ? args->s[1] : NULL;
    size_t len = strlen(dest) + strlen(path) + strlen(iface) + strlen(member) + 4 +
                 (s0 ? strlen(s0) + 1 : 0) + (s1 ? strlen(s1) + 1 : 0);
    call *c = calloc(1, sizeof(*c) + len);
    if (!c)
        return -1;
    char *at = c->text;
    c->pipe = p;
    c->dest = put(&at, dest);
    c->path = put(&at, path);
    c->iface = put(&at, iface);
    c->member = put(&at, member);
    if (args)
        c->args = *args;
    c->s0 = put(&at, s0);
    c->s1 = put(&at, s1);
    c->fn = fn;
    c->userdata = userdata;
    if (p->tail)
        p->tail->next = c;
    else
        p->head = c;
    p->tail = c;
    p->queued++;
    pump(p);
    return 0;
}

int ad_pipe_run(ad_pipe *p, int64_t deadline_us)
{
    while (busy(p)) {
        int r = sd_bus_process(p->bus, NULL);
        if (r < 0) {
            p->failed = true;
            return -1;
        }
        if (r > 0 || expire_unanswering(p))
            continue;
        int64_t now = now_us();
        if (deadline_us - now <= 0)
            return 1;
        int64_t left = next_wake(p, deadline_us) - now;
        r = sd_bus_wait(p->bus, (uint64_t)(left > 0 ? left : 0));
        if (r < 0 && r != -EINTR) {
            p->failed = true;
            return -1;
        }
    }
    return 0;
}

int ad_pipe_run_all(ad_pipe **pipes, unsigned n, int64_t deadline_us)
{
    for (;;) {
        bool any_busy = false, progressed = false;
        for (unsigned i = 0; i < n; i++) {
            ad_pipe *p = pipes[i];
            if (!p || !busy(p))
                continue;
            any_busy = true;
            int r = sd_bus_process(p->bus, NULL);
            if (r < 0) {
                p->failed = true;
                return -1;
            }
            progressed |= r > 0;
            progressed |= expire_unanswering(p);
        }
        if (!any_busy)
            return 0;
        if (progressed)
            continue;
        int64_t now = now_us(), wake = deadline_us;
        if (deadline_us - now <= 0)
            return 1;
        for (unsigned i = 0; i < n; i++)
            if (pipes[i])
                wake = next_wake(pipes[i], wake);
        int64_t left = wake - now;
        struct pollfd fds[8];
        unsigned k = 0;
        for (unsigned i = 0; i < n && k < 8; i++) {
            if (!pipes[i])
                continue;
            int fd = sd_bus_get_fd(pipes[i]->bus);
            int ev = sd_bus_get_events(pipes[i]->bus);
            if (fd >= 0 && ev >= 0)
                fds[k++] = (struct pollfd){.fd = fd, .events = (short)ev};
        }
        /* A saturated deadline (INT64_MAX, "never") must not wrap the poll timeout. */
        int ms = left <= 0                         ? 0
               : left >= (int64_t)INT_MAX * 1000 ? INT_MAX
                                                 : (int)((left + 999) / 1000);
        if (poll(fds, k, ms) < 0 && errno != EINTR)
            return -1;
    }
}

unsigned ad_pipe_pending(const ad_pipe *p)
{
    return p->in_flight + p->queued;
}

void ad_pipe_free(ad_pipe *p)
{
    if (!p)
        return;
    sd_bus_error cancelled = SD_BUS_ERROR_MAKE_CONST(AD_PIPE_ERROR_CANCELLED, "cancelled");
    while (p->head) {
        call *c = p->head;
        p->head = c->next;
        c->fn(NULL, &cancelled, c->userdata);
        call_free(c);
    }
    while (p->sent) {
        call *c = p->sent;
        forget_sent(p, c);
        sd_bus_slot_unref(c->slot);
        c->fn(NULL, &cancelled, c->userdata);
        call_free(c);
    }
    for (size_t i = 0; i < p->n_dests; i++)
        free(p->dests[i].name);
    free(p->dests);
    sd_bus_unref(p->bus);
    free(p);
}
