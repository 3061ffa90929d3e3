/* atspi_events.c: RegisterEvent + match rules -> a counter that ad_atspi_watch_wait sleeps on.
 *
 * Facts this relies on (at-spi2-core 2.46.0 source and probes on Debian 12):
 * - RegisterEvent's signature depends on the version, and a wrong one fails silently: the
 *   registry logs "invalid signature", replies with an empty success and registers nothing.
 *   2.46 accepts "s", "sas" and "sass" (event, properties to attach, app bus name) and
 *   introspects as "sass", which is what libatspi 2.46 sends; 2.26-2.44 (Ubuntu 22.04 has
 *   2.44) accept only "s" and "sas"; 2.10 and older read the first string only. So we send
 *   "sas", which every version registers; the app name it leaves out narrows nothing on
 *   2.46 anyway (see subscribe_one).
 * - Event names are normalised by the registry ("object:state-changed" ->
 *   "Object:StateChanged") and match by prefix: registering "object:property-change" covers
 *   every property, DeregisterEvent("object:") would drop every object event of the caller.
 * - DeregisterEvent removes all of the caller's registrations that the name covers, so two
 *   watches on one connection cannot be closed independently (documented in the header).
 * - The registry drops a client's registrations when its connection goes away.
 */
#include "linux/atspi_events.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linux/atspi_bus.h"
#include "linux/bus_call.h"

#define REGISTRY_PATH "/org/a11y/atspi/registry"
#define REGISTRY_IFACE "org.a11y.atspi.Registry"
#define EVENT_OBJECT "org.a11y.atspi.Event.Object"
#define EVENT_WINDOW "org.a11y.atspi.Event.Window"

#define OPEN_TIMEOUT_US 2000000 /* the registry and the daemon are local */
#define DRAIN_MAX 1024          /* messages one wait dispatches after an event */
#ifndef BURST_GAP_US
#define BURST_GAP_US 1000 /* a wake-up waits for this much quiet after the last message, */
#endif
#define BURST_MAX_US 10000 /* but returns this long after the first event at the latest */
#define BUS_NAME_MAX 255   /* the D-Bus limit */
#define RECORD_MAX 256     /* events kept between two takes; later ones are only counted */

/* What a wait may observe changing, as the registry names it (NULL: nothing to register)
 * and as the signal arrives. */
typedef struct {
    const char *event;
    const char *iface;
    const char *member;
    const char *kind; /* as ad_change_event names it */
} event_kind;

static const event_kind EVENTS[] = {
    {"object:state-changed", EVENT_OBJECT, "StateChanged", "state-changed"},
    {"object:children-changed", EVENT_OBJECT, "ChildrenChanged", "children-changed"},
    /* The whole family: name and description are emitted anyway (see below), value,
     * role, parent and table changes only when registered. */
    {"object:property-change", EVENT_OBJECT, "PropertyChange", "property-change"},
    {"object:text-changed", EVENT_OBJECT, "TextChanged", "text-changed"},
    {"object:active-descendant-changed", EVENT_OBJECT, "ActiveDescendantChanged",
     "active-descendant-changed"},
    {"window:create", EVENT_WINDOW, "Create", "window-create"},
    {"window:destroy", EVENT_WINDOW, "Destroy", "window-destroy"},
    {"window:activate", EVENT_WINDOW, "Activate", "window-activate"},
    {"window:deactivate", EVENT_WINDOW, "Deactivate", "window-deactivate"},
    {"window:minimize", EVENT_WINDOW, "Minimize", "window-minimize"},
    {"window:restore", EVENT_WINDOW, "Restore", "window-restore"},
    /* GTK 4.8 names these two signals in lower case ("activate", "deactivate"; probed with
     * busctl monitor on gnome-calculator), which a member='Activate' rule does not match. It
     * emits no other window:* signal and never reads the registry, so match rules only. */
    {NULL, EVENT_WINDOW, "activate", "window-activate"},
    {NULL, EVENT_WINDOW, "deactivate", "window-deactivate"},
};
#define N_EVENTS (sizeof(EVENTS) / sizeof(EVENTS[0]))

typedef struct {
    ad_atspi_watch *w;
    size_t i;           /* its EVENTS entry */
    sd_bus_slot *match; /* the match rule (RemoveMatch when unreferenced) */
    sd_bus_slot *call;  /* RegisterEvent while in flight */
    bool registered;    /* the registry accepted it: DeregisterEvent on close */
} watch_event;

struct ad_atspi_watch {
    sd_bus *bus; /* a reference */
    watch_event ev[N_EVENTS];
    unsigned pending;   /* AddMatch and RegisterEvent replies still due (open only) */
    char failure[256];  /* the first failed reply, for platform_detail */
    unsigned long count;
    unsigned long reported; /* count when a wait last returned */
    ad_change_events record; /* since the last ad_atspi_watch_take, at most RECORD_MAX */
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static void note_failure(ad_atspi_watch *w, const char *what, const char *name, const char *msg)
{
    if (!w->failure[0])
        snprintf(w->failure, sizeof(w->failure), "%s: %s: %s", what, name ? name : "error",
                 msg ? msg : "no message");
}

/* Keeps what the event names: its kind, the first word of its detail ("add/system" ->
 * "add"), detail1 of a state change, and the source object. The body of every AT-SPI event
 * starts "sii" (detail, detail1, detail2); its payload (any_data) is left unread. */
static void record(ad_atspi_watch *w, const event_kind *k, sd_bus_message *m)
{
    ad_change_events *rec = &w->record;
    if (rec->count >= RECORD_MAX) {
        rec->dropped++;
        return;
    }
    if (!rec->items && !(rec->items = calloc(RECORD_MAX, sizeof(*rec->items)))) {
        rec->dropped++;
        return;
    }
    ad_change_event *ev = &rec->items[rec->count];
    memset(ev, 0, sizeof(*ev));
    ev->kind = k->kind;
    const char *detail = NULL;
    int32_t d1 = 0, d2 = 0;
    if (sd_bus_message_read(m, "sii", &detail, &d1, &d2) >= 0 && detail) {
        size_t n = strcspn(detail, "/");
        snprintf(ev->detail, sizeof(ev->detail), "%.*s", (int)n, detail);
    }
    (void)sd_bus_message_rewind(m, true); /* other slots read the same message */
    if (strcmp(k->kind, "state-changed") == 0)
        ev->value = d1 != 0;
    const char *sender = sd_bus_message_get_sender(m), *path = sd_bus_message_get_path(m);
    if (sender && path && asprintf(&ev->address, "%s|%s", sender, path) < 0)
        ev->address = NULL; /* as the walker spells ad_node.address */
    rec->count++;
}

static int on_signal(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
    (void)ret_error;
    watch_event *e = userdata;
    e->w->count++;
    record(e->w, &EVENTS[e->i], m);
    return 0; /* let other slots on the connection see it too */
}

static int on_match_installed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
    (void)ret_error;
    watch_event *e = userdata;
    const sd_bus_error *err = sd_bus_message_get_error(m);
    e->w->pending--;
    if (err)
        note_failure(e->w, "AddMatch", err->name, err->message);
    return 0;
}

static int on_registered(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
    (void)ret_error;
    watch_event *e = userdata;
    const sd_bus_error *err = sd_bus_message_get_error(m);
    e->w->pending--;
    e->call = sd_bus_slot_unref(e->call); /* sd-bus holds its own reference during the call */
    if (err)
        note_failure(e->w, "RegisterEvent", err->name, err->message);
    else
        e->registered = true;
    return 0;
}

static bool valid_bus_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > BUS_NAME_MAX)
        return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-' || *p == '.' || *p == ':'))
            return false;
    return true;
}

/* Starts AddMatch and RegisterEvent for event i; the replies arrive through the callbacks. */
static int subscribe_one(ad_atspi_watch *w, size_t i, const char *app_bus)
{
    watch_event *e = &w->ev[i];
    char rule[512];
    e->w = w;
    e->i = i;
    if (app_bus)
        snprintf(rule, sizeof(rule), "type='signal',sender='%s',interface='%s',member='%s'",
                 app_bus, EVENTS[i].iface, EVENTS[i].member);
    else
        snprintf(rule, sizeof(rule), "type='signal',interface='%s',member='%s'",
                 EVENTS[i].iface, EVENTS[i].member);
    int r = sd_bus_add_match_async(w->bus, &e->match, rule, on_signal, on_match_installed, e);
    if (r < 0)
        return r;
    w->pending++;
    if (!EVENTS[i].event)
        return 0;
    /* Why register at all: atk-bridge (GTK3) switches its ATK listeners off while no client
     * is registered (tally_event_reply: no clients -> spi_atk_deregister_event_listeners) and
     * turns them on for the first EventListenerRegistered signal, so without this call a
     * GTK3 app emits nothing, not even children-changed (probed: Action.DoAction on the
     * fixture's Increment button, zero signals). Once any client is registered it always
     * emits children-changed, state-changed and property-change of name, description,
     * parent and role (its cache "hack" in signal_is_needed), and the rest (text-changed,
     * accessible-value, active-descendant-changed, window:*) only when registered. GTK 4.8
     * never asks the registry and emits regardless.
     * We leave out the third argument, app_bus_name ("sass", 2.45.1 and later): on 2.46 it
     * does not narrow what apps emit. registryd broadcasts EventListenerRegistered to every
     * app (it sets the destination on the incoming call instead of on the signal) and
     * atk-bridge ignores the field, so every GTK3 app on the bus starts emitting either way;
     * it only hides the registration from apps that start later. Registries before 2.45.1
     * drop a "sass" call silently (top of file). The sender= match rule does the filtering.
     * "as" (properties to attach to each signal) stays empty: we only count signals. */
    r = sd_bus_call_method_async(w->bus, &e->call, ATSPI_REGISTRY, REGISTRY_PATH,
                                 REGISTRY_IFACE, "RegisterEvent", on_registered, e, "sas",
                                 EVENTS[i].event, 0);
    if (r < 0)
        return r;
    w->pending++;
    return 0;
}

/* Every AddMatch and RegisterEvent reply is in. */
static int replies_in(void *userdata)
{
    return ((ad_atspi_watch *)userdata)->pending == 0;
}

static int unavailable(ad_error *err, const char *what, const char *detail)
{
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "AT-SPI events are unavailable: %s", what);
    ad_error_suggest(err, "Waits still work by polling; restart at-spi-dbus-bus.service if "
                          "the registry is stuck");
    if (detail && *detail)
        ad_error_platform_detail(err, detail);
    ad_error_detail(err, "kind", json_string("atspi_events_unavailable"));
    ad_error_detail(err, "retryable", json_false());
    return -1;
}

int ad_atspi_watch_open(sd_bus *bus, const char *app_bus, int64_t deadline_us,
                        ad_atspi_watch **ret, ad_error *err)
{
    if (!bus || !ret)
        return ad_error_set(err, AD_INTERNAL, "ad_atspi_watch_open: bus and ret are required");
    if (app_bus && !valid_bus_name(app_bus))
        return ad_error_set(err, AD_INVALID_ARGS, "Not a D-Bus bus name (%zu chars)",
                            strlen(app_bus));
    ad_atspi_watch *w = calloc(1, sizeof(*w));
    if (!w)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    w->bus = sd_bus_ref(bus);
    int r = 0;
    for (size_t i = 0; i < N_EVENTS && r >= 0; i++)
        r = subscribe_one(w, i, app_bus);
    if (r < 0) {
        char detail[128];
        snprintf(detail, sizeof(detail), "subscribe: %s", strerror(-r));
        ad_atspi_watch_close(w);
        return unavailable(err, "could not send the subscription", detail);
    }
    r = ad_bus_run_until(w->bus, replies_in, w, min64(now_us() + OPEN_TIMEOUT_US, deadline_us));
    if (r < 0 || w->failure[0]) {
        char detail[320];
        if (w->failure[0])
            snprintf(detail, sizeof(detail), "%s", w->failure);
        else
            snprintf(detail, sizeof(detail), "waiting for RegisterEvent/AddMatch: %s",
                     strerror(-r));
        ad_atspi_watch_close(w);
        return unavailable(err, "the registry or the bus refused the subscription", detail);
    }
    w->reported = w->count; /* what arrived during open predates the caller's first read */
    *ret = w;
    return 0;
}

/* A toolkit emits one change as a burst: atk-bridge sends text-changed delete + insert and
 * the accessible-name change of a GTK3 label 20-550 us apart (probed). Draining only what
 * is already queued split such a burst into two wake-ups in 2 of 3 presses, each costing the
 * caller a re-read; waiting for a short quiet gap absorbs the tail. */
int ad_atspi_watch_wait(ad_atspi_watch *w, int64_t deadline_us)
{
    unsigned drained = 0;
    int64_t burst_end = 0, quiet_end = 0; /* set once an event has been seen */
    for (;;) {
        int r = sd_bus_process(w->bus, NULL);
        if (r < 0)
            return -1;
        int64_t now = now_us();
        bool seen = w->count != w->reported;
        if (seen && burst_end == 0)
            burst_end = min64(now + BURST_MAX_US, deadline_us);
        if (seen && (r > 0 || quiet_end == 0))
            quiet_end = min64(now + BURST_GAP_US, burst_end);
        if (r > 0 && now < deadline_us && (!seen || drained++ < DRAIN_MAX))
            continue;
        if (seen && (r > 0 || now >= quiet_end)) {
            w->reported = w->count;
            return 1;
        }
        int64_t left = (seen ? quiet_end : deadline_us) - now;
        if (left <= 0)
            return 0;
        r = sd_bus_wait(w->bus, (uint64_t)left);
        if (r < 0 && r != -EINTR)
            return -1;
    }
}

unsigned long ad_atspi_watch_count(const ad_atspi_watch *w)
{
    return w ? w->count : 0;
}

int ad_atspi_watch_take(ad_atspi_watch *w, ad_change_events *ret)
{
    unsigned drained = 0;
    int r;
    while ((r = sd_bus_process(w->bus, NULL)) > 0 && drained++ < DRAIN_MAX)
        ;
    *ret = w->record;
    memset(&w->record, 0, sizeof(w->record));
    return r < 0 ? -1 : 0;
}

/* DeregisterEvent without waiting: the reply is not needed, and the registry also drops the
 * registration when the connection closes. */
static void deregister(sd_bus *bus, const char *event)
{
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_method_call(bus, &m, ATSPI_REGISTRY, REGISTRY_PATH,
                                           REGISTRY_IFACE, "DeregisterEvent");
    if (r >= 0)
        r = sd_bus_message_append(m, "s", event);
    if (r >= 0)
        r = sd_bus_message_set_expect_reply(m, 0);
    if (r >= 0)
        (void)sd_bus_send(bus, m, NULL);
    sd_bus_message_unref(m);
}

void ad_atspi_watch_close(ad_atspi_watch *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < N_EVENTS; i++) {
        watch_event *e = &w->ev[i];
        /* A RegisterEvent still in flight (open timed out) may yet be applied: deregister
         * it as well. */
        if (e->registered || e->call)
            deregister(w->bus, EVENTS[i].event);
        e->call = sd_bus_slot_unref(e->call);
        e->match = sd_bus_slot_unref(e->match); /* sd-bus sends RemoveMatch, async */
    }
    /* Not flushed: on a stalled bus a flush never returns, and neither message is needed (the
     * daemon and the registry drop a client's matches and registrations when it
     * disconnects); they leave with the next exchange on the connection, if any. */
    sd_bus_unref(w->bus);
    ad_change_events_clear(&w->record);
    free(w);
}
