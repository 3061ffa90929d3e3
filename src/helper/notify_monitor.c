/* notify_monitor.c: the helper's notification monitor (notify_monitor.h). */
#include "helper/notify_monitor.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "helper/helper_proto.h"

#define NOTIFY_NAME "org.freedesktop.Notifications"
#define NOTIFY_PATH "/org/freedesktop/Notifications"

typedef struct {
    char *app_name, *summary, *body, *sender; /* sender: the caller's unique name */
    uint64_t serial;                          /* the Notify call's, to pair its reply */
    uint32_t id;                              /* 0 until the reply */
    int64_t sender_pid;                       /* the "sender-pid" hint; 0 without */
    int64_t at_us;
    bool replied, open;
} notify_entry;

struct ad_notify_monitor {
    sd_bus *bus; /* the monitor connection; NULL when not monitoring */
    char *owner; /* the unique name owning NOTIFY_NAME; NULL when none or unknown */
    notify_entry ring[AD_NOTIFY_TABLE_SIZE];
    size_t total; /* entries ever added: the next goes to ring[total % SIZE] */
    int64_t since_us, last_us, idle_ms;
};

ad_notify_monitor *ad_notify_monitor_new(void)
{
    ad_notify_monitor *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    const char *idle = getenv("AGENT_DESKTOP_NOTIFY_IDLE_MS");
    m->idle_ms = idle && atoll(idle) > 0 ? atoll(idle) : AD_NOTIFY_IDLE_MS;
    return m;
}

static void entry_clear(notify_entry *e)
{
    free(e->app_name);
    free(e->summary);
    free(e->body);
    free(e->sender);
    memset(e, 0, sizeof(*e));
}

static size_t used(const ad_notify_monitor *m)
{
    return m->total < AD_NOTIFY_TABLE_SIZE ? m->total : AD_NOTIFY_TABLE_SIZE;
}

/* The i-th entry, oldest first. */
static notify_entry *entry_at(ad_notify_monitor *m, size_t i)
{
    size_t first = m->total - used(m);
    return &m->ring[(first + i) % AD_NOTIFY_TABLE_SIZE];
}

static void monitor_stop(ad_notify_monitor *m)
{
    for (size_t i = 0; i < AD_NOTIFY_TABLE_SIZE; i++)
        entry_clear(&m->ring[i]);
    m->total = 0;
    free(m->owner);
    m->owner = NULL;
    m->bus = sd_bus_flush_close_unref(m->bus);
}

void ad_notify_monitor_free(ad_notify_monitor *m)
{
    if (!m)
        return;
    monitor_stop(m);
    free(m);
}

int ad_notify_monitor_fd(const ad_notify_monitor *m)
{
    return m->bus ? sd_bus_get_fd(m->bus) : -1;
}

bool ad_notify_monitor_holds(const ad_notify_monitor *m)
{
    return m->bus != NULL;
}

int ad_notify_monitor_timeout_ms(const ad_notify_monitor *m)
{
    if (!m->bus)
        return -1;
    int64_t left = m->idle_ms - (ad_helper_now_us() - m->last_us) / 1000;
    return left < 0 ? 0 : (int)(left > 1000 ? 1000 : left);
}

/* Closes every open entry with this id (a NotificationClosed, a CloseNotification, or a
 * Notify that replaces it). */
static void close_id(ad_notify_monitor *m, uint32_t id)
{
    for (size_t i = 0; id && i < used(m); i++) {
        notify_entry *e = entry_at(m, i);
        if (e->replied && e->id == id)
            e->open = false;
    }
}

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

/* The "sender-pid" hint (libnotify sends an int64) from the a{sv} hints; 0 without. */
static int64_t hint_sender_pid(sd_bus_message *msg)
{
    int64_t pid = 0;
    if (sd_bus_message_enter_container(msg, 'a', "{sv}") < 0)
        return 0;
    while (sd_bus_message_enter_container(msg, 'e', "sv") > 0) {
        const char *key = NULL, *contents = NULL;
        char type = 0;
        if (sd_bus_message_read(msg, "s", &key) < 0 ||
            sd_bus_message_peek_type(msg, &type, &contents) < 0)
            break;
        int64_t x = 0;
        int32_t i = 0;
        uint32_t u = 0;
        if (strcmp(key, "sender-pid") == 0 && contents && strcmp(contents, "x") == 0 &&
            sd_bus_message_read(msg, "v", "x", &x) >= 0)
            pid = x;
        else if (strcmp(key, "sender-pid") == 0 && contents && strcmp(contents, "i") == 0 &&
                 sd_bus_message_read(msg, "v", "i", &i) >= 0)
            pid = i;
        else if (strcmp(key, "sender-pid") == 0 && contents && strcmp(contents, "u") == 0 &&
                 sd_bus_message_read(msg, "v", "u", &u) >= 0)
            pid = u;
        else if (sd_bus_message_skip(msg, "v") < 0)
            break;
        sd_bus_message_exit_container(msg);
    }
    return pid;
}

/* A Notify call (app_name, replaces_id, icon, summary, body, actions, hints, timeout). */
static void on_notify(ad_notify_monitor *m, sd_bus_message *msg)
{
    const char *app = NULL, *icon = NULL, *summary = NULL, *body = NULL;
    uint32_t replaces = 0;
    uint64_t serial = 0;
    if (sd_bus_message_read(msg, "susss", &app, &replaces, &icon, &summary, &body) < 0 ||
        sd_bus_message_get_cookie(msg, &serial) < 0 || !sd_bus_message_get_sender(msg))
        return;
    notify_entry e = {.app_name = dup_or_empty(app), .summary = dup_or_empty(summary),
                      .body = dup_or_empty(body),
                      .sender = strdup(sd_bus_message_get_sender(msg)), .serial = serial,
                      .at_us = ad_helper_now_us(), .open = true};
    if (sd_bus_message_skip(msg, "as") >= 0)
        e.sender_pid = hint_sender_pid(msg);
    if (!e.app_name || !e.summary || !e.body || !e.sender) {
        entry_clear(&e);
        return;
    }
    close_id(m, replaces);
    notify_entry *slot = &m->ring[m->total % AD_NOTIFY_TABLE_SIZE];
    entry_clear(slot);
    *slot = e;
    m->total++;
}

/* The pending Notify that this reply or error answers; NULL when it is not one. */
static notify_entry *pending_for(ad_notify_monitor *m, sd_bus_message *msg)
{
    uint64_t serial = 0;
    const char *dest = sd_bus_message_get_destination(msg);
    if (!dest || sd_bus_message_get_reply_cookie(msg, &serial) < 0)
        return NULL;
    for (size_t i = used(m); i-- > 0;) {
        notify_entry *e = entry_at(m, i);
        if (!e->replied && e->serial == serial && strcmp(e->sender, dest) == 0)
            return e;
    }
    return NULL;
}

static void on_message(ad_notify_monitor *m, sd_bus_message *msg)
{
    uint32_t id = 0, reason = 0;
    if (sd_bus_message_is_method_call(msg, NOTIFY_NAME, "Notify") > 0) {
        /* Only calls to the service, by name or by its owner's unique name (libnotify's
         * proxy sends to the unique name), never the service's own: GNOME 43's gjs daemon
         * forwards each Notify with the same arguments to the shell, which would be a twin. */
        const char *dest = sd_bus_message_get_destination(msg);
        const char *sender = sd_bus_message_get_sender(msg);
        bool to_service = dest && (strcmp(dest, NOTIFY_NAME) == 0 ||
                                   (m->owner && strcmp(dest, m->owner) == 0));
        if (to_service && !(m->owner && sender && strcmp(sender, m->owner) == 0))
            on_notify(m, msg);
    } else if (sd_bus_message_is_signal(msg, "org.freedesktop.DBus", "NameOwnerChanged") > 0) {
        const char *name = NULL, *old = NULL, *now = NULL;
        if (sd_bus_message_read(msg, "sss", &name, &old, &now) >= 0 &&
            strcmp(name, NOTIFY_NAME) == 0) {
            free(m->owner);
            m->owner = now && now[0] ? strdup(now) : NULL;
        }
    } else if (sd_bus_message_is_method_call(msg, NOTIFY_NAME, "CloseNotification") > 0) {
        if (sd_bus_message_read(msg, "u", &id) >= 0)
            close_id(m, id);
    } else if (sd_bus_message_is_signal(msg, NOTIFY_NAME, "NotificationClosed") > 0) {
        if (sd_bus_message_read(msg, "uu", &id, &reason) >= 0)
            close_id(m, id);
    } else { /* a method return or error of the service */
        notify_entry *e = pending_for(m, msg);
        if (!e)
            return;
        e->replied = true;
        /* An error reply (or a reply without an id) posted nothing. */
        if (sd_bus_message_is_method_error(msg, NULL) || sd_bus_message_read(msg, "u", &id) < 0 ||
            id == 0)
            e->open = false;
        else
            e->id = id;
    }
}

int ad_notify_monitor_dispatch(ad_notify_monitor *m)
{
    if (!m->bus)
        return 0;
    for (;;) {
        sd_bus_message *msg = NULL;
        int r = sd_bus_process(m->bus, &msg);
        if (msg) {
            if (sd_bus_message_is_signal(msg, "org.freedesktop.DBus.Local", "Disconnected") > 0)
                r = -1;
            else
                on_message(m, msg);
            sd_bus_message_unref(msg);
        }
        if (r < 0) { /* the bus went away: the next request starts again */
            monitor_stop(m);
            return -1;
        }
        if (r == 0)
            break;
    }
    if ((ad_helper_now_us() - m->last_us) / 1000 >= m->idle_ms)
        monitor_stop(m);
    return 0;
}

/* The unique name owning NOTIFY_NAME now (malloc'd), or NULL; asked on an ordinary
 * connection, since a monitor may send nothing. Later changes come as NameOwnerChanged. */
static char *current_owner(const char *addr)
{
    sd_bus *bus = NULL;
    sd_bus_message *reply = NULL;
    const char *owner = NULL;
    char *ret = NULL;
    if (sd_bus_new(&bus) >= 0 && sd_bus_set_address(bus, addr) >= 0 &&
        sd_bus_set_bus_client(bus, true) >= 0 && sd_bus_start(bus) >= 0 &&
        sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                           "org.freedesktop.DBus", "GetNameOwner", NULL, &reply, "s",
                           NOTIFY_NAME) >= 0 &&
        sd_bus_message_read(reply, "s", &owner) >= 0 && owner)
        ret = strdup(owner);
    sd_bus_message_unref(reply);
    sd_bus_flush_close_unref(bus);
    return ret;
}

/* Connects to the session bus as a monitor; on failure nothing is kept. */
static int monitor_start(ad_notify_monitor *m, char *why, size_t n)
{
    static const char *const rules[] = {
        "type='method_call',interface='" NOTIFY_NAME "',member='Notify'",
        "type='method_call',interface='" NOTIFY_NAME "',member='CloseNotification'",
        "type='signal',interface='" NOTIFY_NAME "',member='NotificationClosed'",
        "type='method_return',sender='" NOTIFY_NAME "'",
        "type='error',sender='" NOTIFY_NAME "'",
        "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',"
        "arg0='" NOTIFY_NAME "'",
    };
    sd_bus_message *call = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    const char *addr = getenv("DBUS_SESSION_BUS_ADDRESS");
    const char *run = getenv("XDG_RUNTIME_DIR");
    char buf[4200];
    if (!addr && run) { /* sd_bus_open_user's fallback, which a monitor cannot use */
        snprintf(buf, sizeof(buf), "unix:path=%s/bus", run);
        addr = buf;
    }
    int r = addr ? sd_bus_new(&m->bus) : -ENOENT;
    /* Monitor mode: sd-bus hands every message to sd_bus_process's caller instead of
     * dispatching (or answering) it; as busctl monitor does. */
    if (r >= 0)
        r = sd_bus_set_monitor(m->bus, true);
    if (r >= 0)
        r = sd_bus_set_address(m->bus, addr);
    if (r >= 0)
        r = sd_bus_set_bus_client(m->bus, true);
    if (r >= 0)
        r = sd_bus_start(m->bus);
    if (r >= 0)
        r = sd_bus_message_new_method_call(m->bus, &call, "org.freedesktop.DBus",
                                           "/org/freedesktop/DBus",
                                           "org.freedesktop.DBus.Monitoring", "BecomeMonitor");
    if (r >= 0)
        r = sd_bus_message_open_container(call, 'a', "s");
    for (size_t i = 0; r >= 0 && i < sizeof(rules) / sizeof(rules[0]); i++)
        r = sd_bus_message_append(call, "s", rules[i]);
    if (r >= 0)
        r = sd_bus_message_close_container(call);
    if (r >= 0)
        r = sd_bus_message_append(call, "u", (uint32_t)0);
    if (r >= 0)
        r = sd_bus_call(m->bus, call, 2 * 1000 * 1000, &e, NULL);
    if (r < 0)
        snprintf(why, n, "%s", e.message ? e.message : strerror(-r));
    sd_bus_error_free(&e);
    sd_bus_message_unref(call);
    if (r < 0) {
        monitor_stop(m);
        return -1;
    }
    /* After BecomeMonitor, so an owner change in between is seen by one or the other. */
    m->owner = current_owner(addr);
    m->since_us = ad_helper_now_us();
    return 0;
}

static json_t *entries_json(ad_notify_monitor *m)
{
    json_t *list = json_array();
    int64_t now = ad_helper_now_us();
    for (size_t i = 0; i < used(m); i++) {
        const notify_entry *e = entry_at(m, i);
        json_array_append_new(
            list, json_pack("{s:I, s:s, s:s, s:s, s:s, s:I, s:I, s:b}", "id", (json_int_t)e->id,
                            "app_name", e->app_name, "summary", e->summary, "body", e->body,
                            "sender", e->sender, "sender_pid", (json_int_t)e->sender_pid,
                            "age_ms", (json_int_t)((now - e->at_us) / 1000), "open",
                            e->open));
    }
    return list;
}

json_t *ad_notify_monitor_request(ad_notify_monitor *m, const json_t *req)
{
    const char *op = json_string_value(json_object_get(req, "op"));
    m->last_us = ad_helper_now_us();
    if (op && strcmp(op, "stop") == 0) {
        monitor_stop(m);
        return json_pack("{s:b, s:b}", "ok", 1, "monitoring", 0);
    }
    bool list = op && strcmp(op, "list") == 0;
    if (!list && !(op && strcmp(op, "ensure") == 0))
        return json_pack("{s:b, s:s, s:s}", "ok", 0, "code", "INVALID_ARGS", "message",
                         "a notify request needs the op ensure, list or stop");
    char why[512] = "";
    if (!m->bus && monitor_start(m, why, sizeof(why)) < 0) {
        char msg[640];
        snprintf(msg, sizeof(msg), "the session bus refused a monitor: %s", why);
        return json_pack("{s:b, s:s, s:s}", "ok", 0, "code", "PLATFORM_NOT_SUPPORTED",
                         "message", msg);
    }
    ad_notify_monitor_dispatch(m); /* what arrived since the last poll */
    if (!m->bus)
        return json_pack("{s:b, s:s, s:s}", "ok", 0, "code", "ACTION_FAILED", "message",
                         "the monitor connection closed");
    json_t *reply = json_pack("{s:b, s:b, s:I}", "ok", 1, "monitoring", 1, "since_ms",
                              (json_int_t)((ad_helper_now_us() - m->since_us) / 1000));
    if (list)
        json_object_set_new(reply, "entries", entries_json(m));
    return reply;
}
