/* test_dbus_pipe.c: the pipe's bookkeeping of calls in flight, against a peer-to-peer sd-bus
 * server on a thread (a socketpair; no bus daemon) that holds each call and answers the held
 * ones in reverse order, or only some of them. Each callback must run exactly once, with its
 * own reply, whatever the order the replies come in and wherever in the in-flight list the
 * call sits (a reply unlinks its call from the middle; a free cancels the rest). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "linux/dbus_pipe.h"

#define N_CALLS 3000
#define IN_FLIGHT 1024

typedef enum { ANSWER_ALL, ANSWER_ODD } answer_policy;

/* The server side: its own connection, used only by its thread. */
typedef struct {
    sd_bus *bus;
    answer_policy policy;
    atomic_bool stop;
    atomic_int received; /* calls that reached the server */
    sd_bus_message **held; /* calls not answered yet (owned references) */
    size_t n_held, cap_held;
    pthread_t thread;
} echo_server;

static int on_echo(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
    (void)ret_error;
    echo_server *s = userdata;
    if (s->n_held == s->cap_held) {
        s->cap_held = s->cap_held ? s->cap_held * 2 : 256;
        s->held = realloc(s->held, s->cap_held * sizeof(*s->held));
        if (!s->held)
            abort(); /* no cmocka assert off the test's thread */
    }
    s->held[s->n_held++] = sd_bus_message_ref(m);
    atomic_fetch_add(&s->received, 1);
    return 1; /* answered later, out of order */
}

static const sd_bus_vtable echo_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Echo", "i", "i", on_echo, 0),
    SD_BUS_VTABLE_END,
};

/* Answers the held calls newest first: the oldest call in flight is answered last. A call the
 * policy skips stays held (and unanswered) until the server stops. */
static void answer_held(echo_server *s)
{
    for (size_t i = s->n_held; i-- > 0;) {
        sd_bus_message *m = s->held[i];
        int32_t x = 0;
        sd_bus_message_rewind(m, true);
        if (sd_bus_message_read(m, "i", &x) >= 0 && s->policy == ANSWER_ODD && x % 2 == 0)
            continue;
        sd_bus_reply_method_return(m, "i", x);
        s->held[i] = sd_bus_message_unref(m);
    }
    size_t kept = 0;
    for (size_t i = 0; i < s->n_held; i++)
        if (s->held[i])
            s->held[kept++] = s->held[i];
    s->n_held = kept;
}

static void *serve(void *arg)
{
    echo_server *s = arg;
    while (!atomic_load(&s->stop)) {
        int r = sd_bus_process(s->bus, NULL);
        if (r > 0)
            continue;
        if (r < 0)
            break;
        answer_held(s);
        sd_bus_flush(s->bus);
        sd_bus_wait(s->bus, 10 * 1000);
    }
    for (size_t i = 0; i < s->n_held; i++)
        sd_bus_message_unref(s->held[i]);
    free(s->held);
    return NULL;
}

typedef struct {
    echo_server server;
    sd_bus *client;
} bed;

static bed *bed_new(answer_policy policy)
{
    int fds[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    bed *b = calloc(1, sizeof(*b));
    assert_non_null(b);
    b->server.policy = policy;
    sd_id128_t id;
    assert_true(sd_id128_randomize(&id) >= 0);
    assert_true(sd_bus_new(&b->server.bus) >= 0);
    assert_true(sd_bus_set_fd(b->server.bus, fds[0], fds[0]) >= 0);
    assert_true(sd_bus_set_server(b->server.bus, 1, id) >= 0);
    assert_true(sd_bus_add_object_vtable(b->server.bus, NULL, "/t", "t.Echo", echo_vtable,
                                         &b->server) >= 0);
    assert_true(sd_bus_start(b->server.bus) >= 0);
    assert_true(sd_bus_new(&b->client) >= 0);
    assert_true(sd_bus_set_fd(b->client, fds[1], fds[1]) >= 0);
    assert_true(sd_bus_start(b->client) >= 0);
    assert_int_equal(pthread_create(&b->server.thread, NULL, serve, &b->server), 0);
    return b;
}

static void bed_free(bed *b)
{
    atomic_store(&b->server.stop, true);
    pthread_join(b->server.thread, NULL);
    sd_bus_flush_close_unref(b->server.bus);
    sd_bus_flush_close_unref(b->client);
    free(b);
}

static int64_t in_us(int64_t us)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000 + us;
}

/* What happened to each call. */
typedef struct {
    int replies[N_CALLS];   /* a reply carrying the call's own number */
    int cancelled[N_CALLS]; /* AD_PIPE_ERROR_CANCELLED */
    int other[N_CALLS];     /* anything else (a wrong number, another error) */
    ad_pipe *pipe;
    int resubmit_below; /* a reply to a call numbered below this submits call + N_CALLS/2 */
} outcome;

typedef struct {
    outcome *o;
    int32_t n;
} ticket;

static ticket tickets[N_CALLS];

static void submit(outcome *o, int32_t n);

static void on_result(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    ticket *t = ud;
    int32_t x = -1;
    if (m && sd_bus_message_read(m, "i", &x) >= 0 && x == t->n)
        t->o->replies[t->n]++;
    else if (e && strcmp(e->name, AD_PIPE_ERROR_CANCELLED) == 0)
        t->o->cancelled[t->n]++;
    else
        t->o->other[t->n]++;
    if (m && t->n < t->o->resubmit_below)
        submit(t->o, t->n + N_CALLS / 2);
}

static void submit(outcome *o, int32_t n)
{
    tickets[n] = (ticket){.o = o, .n = n};
    ad_pipe_args a = {.sig = "i", .i = {n}};
    assert_int_equal(ad_pipe_call(o->pipe, "t.peer", "/t", "t.Echo", "Echo", &a, on_result,
                                  &tickets[n]),
                     0);
}

/* A pipe on the bed's client connection with `first` calls (0 .. first-1) submitted. */
static outcome *outcome_new(bed *b, unsigned in_flight, int32_t first)
{
    outcome *o = calloc(1, sizeof(*o));
    assert_non_null(o);
    o->pipe = ad_pipe_new(b->client, in_flight);
    ad_pipe_set_peer(o->pipe, true);
    for (int32_t n = 0; n < first; n++)
        submit(o, n);
    return o;
}

/* Thousands of calls, a thousand in flight, each batch answered newest first. */
static void test_every_reply_reaches_its_own_call(void **state)
{
    (void)state;
    bed *b = bed_new(ANSWER_ALL);
    outcome *o = outcome_new(b, IN_FLIGHT, N_CALLS);
    assert_int_equal(ad_pipe_run(o->pipe, in_us(60 * 1000 * 1000)), 0);
    assert_int_equal(ad_pipe_pending(o->pipe), 0);
    for (int n = 0; n < N_CALLS; n++) {
        assert_int_equal(o->replies[n], 1);
        assert_int_equal(o->cancelled[n] + o->other[n], 0);
    }
    ad_pipe_free(o->pipe);
    free(o);
    bed_free(b);
}

/* Callbacks that submit more calls while replies are being matched (what a walk does). */
static void test_replies_may_submit_calls(void **state)
{
    (void)state;
    bed *b = bed_new(ANSWER_ALL);
    /* Set before the first reply can come: replies are read only inside ad_pipe_run. */
    outcome *o = outcome_new(b, 64, 0);
    o->resubmit_below = N_CALLS / 2;
    for (int32_t n = 0; n < N_CALLS / 2; n++)
        submit(o, n);
    assert_int_equal(ad_pipe_run(o->pipe, in_us(60 * 1000 * 1000)), 0);
    for (int n = 0; n < N_CALLS; n++)
        assert_int_equal(o->replies[n], 1);
    ad_pipe_free(o->pipe);
    free(o);
    bed_free(b);
}

/* Only odd calls are answered: their replies unlink calls from everywhere in the in-flight
 * list; freeing the pipe then cancels each even call exactly once. */
static void test_free_cancels_what_stays_in_flight(void **state)
{
    (void)state;
    enum { N = 400 };
    bed *b = bed_new(ANSWER_ODD);
    outcome *o = outcome_new(b, IN_FLIGHT, N);
    /* The odd replies are the canary: once all of them are in, the even calls are the
     * ones left, whatever the machine's load. */
    int64_t give_up = in_us(60 * 1000 * 1000);
    while (ad_pipe_pending(o->pipe) > N / 2 && in_us(0) < give_up)
        ad_pipe_run(o->pipe, in_us(50 * 1000));
    assert_int_equal(ad_pipe_pending(o->pipe), N / 2);
    ad_pipe_free(o->pipe);
    for (int n = 0; n < N; n++) {
        assert_int_equal(o->replies[n], n % 2);
        assert_int_equal(o->cancelled[n], 1 - n % 2);
        assert_int_equal(o->other[n], 0);
    }
    free(o);
    bed_free(b);
}

/* A refill that gives one call per invocation, N_CALLS in all, and notes the longest the
 * pipe's queue got while it was asked. */
typedef struct {
    outcome *o;
    int32_t next;
    unsigned refills, max_pending, in_flight;
} feeder;

static bool feed_one(void *ud)
{
    feeder *f = ud;
    f->refills++;
    if (ad_pipe_pending(f->o->pipe) > f->max_pending)
        f->max_pending = ad_pipe_pending(f->o->pipe);
    if (f->next >= N_CALLS)
        return false;
    submit(f->o, f->next++);
    return true;
}

/* Work held back by the caller goes out as slots free: every call is answered, ad_pipe_run
 * returns only once the refill has nothing more, and the pipe never holds more than its
 * in-flight calls (a walk that queued everything held ~7 records per node). */
static void test_refill_keeps_the_queue_short(void **state)
{
    (void)state;
    bed *b = bed_new(ANSWER_ALL);
    outcome *o = outcome_new(b, 16, 0);
    feeder f = {.o = o};
    ad_pipe_set_refill(o->pipe, feed_one, &f);
    assert_int_equal(ad_pipe_run(o->pipe, in_us(60 * 1000 * 1000)), 0);
    assert_int_equal(f.next, N_CALLS);
    assert_int_equal(ad_pipe_pending(o->pipe), 0);
    for (int n = 0; n < N_CALLS; n++)
        assert_int_equal(o->replies[n], 1);
    /* Asked only with a free slot: at most 15 in flight, nothing queued. */
    assert_true(f.max_pending < 16);
    ad_pipe_free(o->pipe);
    free(o);
    bed_free(b);
}

/* A held pipe sends nothing: calls queued after ad_pipe_hold reach neither the server nor
 * the refill, and ad_pipe_free cancels each once. The canary is a call on a second pipe over
 * the same connection after them: once it is answered, anything the held pipe had sent would
 * have reached the server before it. */
static void test_a_held_pipe_sends_nothing_and_free_cancels(void **state)
{
    (void)state;
    enum { N = 10 };
    bed *b = bed_new(ANSWER_ALL);
    outcome *o = outcome_new(b, IN_FLIGHT, 0);
    feeder f = {.o = o, .next = N_CALLS};
    ad_pipe_set_refill(o->pipe, feed_one, &f);
    ad_pipe_hold(o->pipe);
    for (int32_t n = 0; n < N; n++)
        submit(o, n);
    assert_int_equal(ad_pipe_pending(o->pipe), N);
    outcome *canary = outcome_new(b, 4, 0);
    submit(canary, N);
    assert_int_equal(ad_pipe_run(canary->pipe, in_us(60 * 1000 * 1000)), 0);
    assert_int_equal(canary->replies[N], 1);
    assert_int_equal(atomic_load(&b->server.received), 1);
    assert_int_equal(f.refills, 0);
    ad_pipe_free(o->pipe);
    for (int n = 0; n < N; n++) {
        assert_int_equal(o->replies[n], 0);
        assert_int_equal(o->cancelled[n], 1);
    }
    ad_pipe_free(canary->pipe);
    free(canary);
    free(o);
    bed_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_reply_reaches_its_own_call),
        cmocka_unit_test(test_replies_may_submit_calls),
        cmocka_unit_test(test_free_cancels_what_stays_in_flight),
        cmocka_unit_test(test_refill_keeps_the_queue_short),
        cmocka_unit_test(test_a_held_pipe_sends_nothing_and_free_cancels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
