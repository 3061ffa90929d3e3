/* event_probe.c: measures how soon ad_atspi_watch_wait wakes after a change, against a
 * plain 100 ms poll. A driver for a live desktop, not a unit test (no test() registration):
 *
 *   event-probe --app NAME --button NAME --observe NAME-PREFIX [--runs N] [--poll-ms MS]
 *
 * Finds the application NAME under the registry root, walks its tree (ChildCount +
 * GetChildAtIndex, bounded to 5000 nodes) for the first node named exactly --button and the
 * first whose name starts with --observe, then for each run presses the button with
 * Action.DoAction and times, from the moment the call is sent:
 *   poll   a wait loop that reads the observed node's text (Text.GetText, else its Name) on
 *          a 100 ms tick, with no watch;
 *   wake   the first return of ad_atspi_watch_wait == 1;
 *   event  the same loop as poll, but sleeping in ad_atspi_watch_wait, so an event makes it
 *          read early (what `wait` does with a watch).
 * Each loop's first tick falls at a random phase in [0, poll) after the action, as for a wait
 * already running when the app changes. After a run it keeps waiting until 300 ms pass
 * without an event and reports events and wake-ups per action. Prints one line per run and
 * a summary with min / median / max in milliseconds. Exits 1 when something is not found or
 * a run times out (5 s).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "linux/atspi_bus.h"
#include "linux/atspi_events.h"

#define MAX_NODES 5000
#define MAX_RUNS 200
#define RUN_TIMEOUT_US 5000000
#define QUIET_US 300000

typedef struct {
    char *bus, *path;
} ref;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void sleep_until(int64_t t_us)
{
    struct timespec ts = {.tv_sec = t_us / 1000000, .tv_nsec = (t_us % 1000000) * 1000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
    }
}

/* The string property iface.prop of (bus, path), malloc'd, or NULL. */
static char *get_string(sd_bus *bus, const ref *r, const char *iface, const char *prop)
{
    char *s = NULL;
    if (sd_bus_get_property_string(bus, r->bus, r->path, iface, prop, NULL, &s) < 0)
        return NULL;
    return s;
}

static char *read_observed(sd_bus *bus, const ref *r)
{
    sd_bus_message *reply = NULL;
    const char *text = NULL;
    char *out = NULL;
    if (sd_bus_call_method(bus, r->bus, r->path, ATSPI_IFACE_TEXT, "GetText", NULL, &reply,
                           "ii", 0, -1) >= 0 &&
        sd_bus_message_read(reply, "s", &text) >= 0)
        out = strdup(text);
    sd_bus_message_unref(reply);
    return out ? out : get_string(bus, r, ATSPI_IFACE_ACCESSIBLE, "Name");
}

static int child_at(sd_bus *bus, const ref *r, int i, ref *ret)
{
    sd_bus_message *reply = NULL;
    const char *b, *p;
    int k = sd_bus_call_method(bus, r->bus, r->path, ATSPI_IFACE_ACCESSIBLE, "GetChildAtIndex",
                               NULL, &reply, "i", i);
    if (k >= 0)
        k = sd_bus_message_read(reply, "(so)", &b, &p);
    if (k >= 0) {
        ret->bus = strdup(b);
        ret->path = strdup(p);
    }
    sd_bus_message_unref(reply);
    return k < 0 ? -1 : 0;
}

static int child_count(sd_bus *bus, const ref *r)
{
    int32_t n = 0;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int k = sd_bus_get_property_trivial(bus, r->bus, r->path, ATSPI_IFACE_ACCESSIBLE,
                                        "ChildCount", &e, 'i', &n);
    sd_bus_error_free(&e);
    return k < 0 ? 0 : n;
}

/* Breadth-first over the app for the button and the observed node. */
static int find_nodes(sd_bus *bus, const ref *app, const char *button, const char *observe,
                      ref *ret_button, ref *ret_observe)
{
    ref *q = calloc(MAX_NODES, sizeof(*q));
    size_t head = 0, tail = 0;
    q[tail].bus = strdup(app->bus);
    q[tail++].path = strdup(app->path);
    bool have_b = false, have_o = false;
    while (head < tail && !(have_b && have_o)) {
        ref *r = &q[head++];
        char *name = get_string(bus, r, ATSPI_IFACE_ACCESSIBLE, "Name");
        if (name && !have_b && strcmp(name, button) == 0) {
            *ret_button = (ref){strdup(r->bus), strdup(r->path)};
            have_b = true;
        }
        if (name && !have_o && strncmp(name, observe, strlen(observe)) == 0) {
            *ret_observe = (ref){strdup(r->bus), strdup(r->path)};
            have_o = true;
        }
        free(name);
        int n = child_count(bus, r);
        for (int i = 0; i < n && tail < MAX_NODES; i++)
            if (child_at(bus, r, i, &q[tail]) == 0 && strcmp(q[tail].path,
                                                             "/org/a11y/atspi/null") != 0)
                tail++;
    }
    for (size_t i = 0; i < tail; i++) {
        free(q[i].bus);
        free(q[i].path);
    }
    free(q);
    return have_b && have_o ? 0 : -1;
}

static int find_app(sd_bus *bus, const char *name, ref *ret)
{
    ref root = {(char *)ATSPI_REGISTRY, (char *)ATSPI_ROOT_PATH};
    int n = child_count(bus, &root);
    for (int i = 0; i < n; i++) {
        ref a;
        if (child_at(bus, &root, i, &a) < 0)
            continue;
        char *an = get_string(bus, &a, ATSPI_IFACE_ACCESSIBLE, "Name");
        bool hit = an && strcmp(an, name) == 0;
        free(an);
        if (hit) {
            *ret = a;
            return 0;
        }
        free(a.bus);
        free(a.path);
    }
    return -1;
}

static int on_action_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
    (void)ret_error;
    if (sd_bus_message_is_method_error(m, NULL))
        fprintf(stderr, "DoAction failed: %s\n", sd_bus_message_get_error(m)->message);
    *(int64_t *)userdata = now_us();
    return 0;
}

static int press(sd_bus *bus, const ref *button, int64_t *reply_at)
{
    *reply_at = 0;
    return sd_bus_call_method_async(bus, NULL, button->bus, button->path, ATSPI_IFACE_ACTION,
                                    "DoAction", on_action_reply, reply_at, "i", 0);
}

/* Dispatches whatever is pending (replies of earlier presses), without waiting. */
static void pump(sd_bus *bus)
{
    while (sd_bus_process(bus, NULL) > 0) {
    }
}

typedef struct {
    double poll[MAX_RUNS], wake[MAX_RUNS], event[MAX_RUNS];
    double events[MAX_RUNS], wakes[MAX_RUNS];
} results;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summary(const char *label, double *v, int n, const char *unit)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    printf("%-7s min %8.2f  median %8.2f  max %8.2f %s\n", label, v[0], med, v[n - 1], unit);
}

/* One poll-only run: the change is seen at the first tick whose read differs. */
static int run_poll(sd_bus *bus, const ref *button, const ref *obs, int64_t poll_us,
                    double *ret_ms)
{
    char *before = read_observed(bus, obs);
    int64_t reply_at, t0 = now_us(), tick = t0 + rand() % poll_us;
    if (press(bus, button, &reply_at) < 0)
        return -1;
    for (;;) {
        sleep_until(tick);
        char *v = read_observed(bus, obs);
        bool changed = v && before && strcmp(v, before) != 0;
        free(v);
        if (changed)
            break;
        if (now_us() - t0 > RUN_TIMEOUT_US) {
            free(before);
            return -1;
        }
        tick += poll_us;
    }
    *ret_ms = (double)(now_us() - t0) / 1000.0;
    free(before);
    pump(bus);
    return 0;
}

/* Waits until QUIET_US pass without an event; returns the wake-ups seen. */
static int settle(ad_atspi_watch *w)
{
    int wakes = 0;
    int64_t limit = now_us() + 10 * QUIET_US;
    while (now_us() < limit && ad_atspi_watch_wait(w, now_us() + QUIET_US) == 1)
        wakes++;
    return wakes;
}

static int run_event(sd_bus *bus, ad_atspi_watch *w, const ref *button, const ref *obs,
                     int64_t poll_us, results *res, int i)
{
    settle(w);
    char *before = read_observed(bus, obs);
    unsigned long c0 = ad_atspi_watch_count(w);
    int64_t reply_at, t0 = now_us(), tick = t0 + rand() % poll_us, wake = -1, seen = -1;
    int wakes = 0;
    if (press(bus, button, &reply_at) < 0)
        return -1;
    /* Until the change is seen and, when a tick saw it first, the wake-up came too. */
    while (seen < 0 || wake < 0) {
        int r = ad_atspi_watch_wait(w, seen < 0 ? tick : t0 + RUN_TIMEOUT_US);
        if (r < 0 || now_us() - t0 > RUN_TIMEOUT_US) {
            free(before);
            return -1;
        }
        if (r == 1 && wake < 0)
            wake = now_us() - t0;
        wakes += r;
        if (r == 0)
            tick += poll_us;
        if (seen >= 0)
            continue;
        char *v = read_observed(bus, obs);
        if (v && before && strcmp(v, before) != 0)
            seen = now_us() - t0;
        free(v);
    }
    res->event[i] = (double)seen / 1000.0;
    res->wake[i] = (double)wake / 1000.0;
    free(before);
    wakes += settle(w);
    res->wakes[i] = wakes;
    res->events[i] = (double)(ad_atspi_watch_count(w) - c0);
    printf("event run %2d: wake %7.2f ms  seen %7.2f ms  reply %7.2f ms  events %3.0f  "
           "wakes %d\n", i, res->wake[i], res->event[i],
           reply_at ? (double)(reply_at - t0) / 1000.0 : -1.0, res->events[i], wakes);
    return 0;
}

int main(int argc, char **argv)
{
    const char *app_name = NULL, *button_name = NULL, *observe = NULL;
    int runs = 20, poll_ms = 100;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--app"))
            app_name = argv[i + 1];
        else if (!strcmp(argv[i], "--button"))
            button_name = argv[i + 1];
        else if (!strcmp(argv[i], "--observe"))
            observe = argv[i + 1];
        else if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--poll-ms"))
            poll_ms = atoi(argv[i + 1]);
    }
    if (!app_name || !button_name || !observe || runs < 1 || runs > MAX_RUNS || poll_ms < 1) {
        fprintf(stderr, "usage: event-probe --app NAME --button NAME --observe PREFIX "
                        "[--runs N<=%d] [--poll-ms MS]\n", MAX_RUNS);
        return 2;
    }
    srand(42);
    ad_error err = AD_ERROR_INIT;
    sd_bus *bus = NULL;
    if (ad_atspi_bus_open(now_us() + 5000000, &bus, &err) < 0) {
        fprintf(stderr, "bus: %s\n", err.message);
        return 1;
    }
    ref app = {0}, button = {0}, obs = {0};
    if (find_app(bus, app_name, &app) < 0 ||
        find_nodes(bus, &app, button_name, observe, &button, &obs) < 0) {
        fprintf(stderr, "app %s, button %s or node %s* not found\n", app_name, button_name,
                observe);
        return 1;
    }
    printf("app %s %s; button %s; observe %s\n", app.bus, app.path, button.path, obs.path);
    int64_t poll_us = (int64_t)poll_ms * 1000;
    static results res;

    /* Poll first: nothing has registered on this connection yet. */
    for (int i = 0; i < runs; i++) {
        sleep_until(now_us() + QUIET_US);
        if (run_poll(bus, &button, &obs, poll_us, &res.poll[i]) < 0) {
            fprintf(stderr, "poll run %d timed out\n", i);
            return 1;
        }
        printf("poll  run %2d: seen %7.2f ms\n", i, res.poll[i]);
    }

    double open_ms[MAX_RUNS], close_ms[MAX_RUNS];
    ad_atspi_watch *w = NULL;
    for (int i = 0; i < runs; i++) {
        int64_t t = now_us();
        if (ad_atspi_watch_open(bus, app.bus, now_us() + 2000000, &w, &err) < 0) {
            fprintf(stderr, "watch: %s (%s)\n", err.message,
                    err.platform_detail ? err.platform_detail : "");
            return 1;
        }
        open_ms[i] = (double)(now_us() - t) / 1000.0;
        if (i == runs - 1)
            break;
        t = now_us();
        ad_atspi_watch_close(w);
        close_ms[i] = (double)(now_us() - t) / 1000.0;
    }
    for (int i = 0; i < runs; i++)
        if (run_event(bus, w, &button, &obs, poll_us, &res, i) < 0) {
            fprintf(stderr, "event run %d failed or timed out\n", i);
            return 1;
        }
    ad_atspi_watch_close(w);

    printf("-- %s, %d runs, %d ms poll\n", app_name, runs, poll_ms);
    summary("poll", res.poll, runs, "ms (DoAction -> change seen, 100 ms poll)");
    summary("wake", res.wake, runs, "ms (DoAction -> ad_atspi_watch_wait returns 1)");
    summary("event", res.event, runs, "ms (DoAction -> change seen, poll + watch)");
    summary("events", res.events, runs, "signals per action");
    summary("wakes", res.wakes, runs, "wake-ups per action");
    summary("open", open_ms, runs, "ms ad_atspi_watch_open");
    if (runs > 1)
        summary("close", close_ms, runs - 1, "ms ad_atspi_watch_close");
    ref *refs[] = {&app, &button, &obs};
    for (size_t i = 0; i < 3; i++) {
        free(refs[i]->bus);
        free(refs[i]->path);
    }
    sd_bus_flush_close_unref(bus);
    return 0;
}
