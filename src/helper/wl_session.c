/* wl_session.c: the helper's Mutter RemoteDesktop + ScreenCast session (wl_session.h). */
#include "helper/wl_session.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#include "helper/helper_proto.h"

#define RD_NAME "org.gnome.Mutter.RemoteDesktop"
#define RD_PATH "/org/gnome/Mutter/RemoteDesktop"
#define RD_SESSION RD_NAME ".Session"
#define SC_NAME "org.gnome.Mutter.ScreenCast"
#define SC_PATH "/org/gnome/Mutter/ScreenCast"
#define SC_SESSION SC_NAME ".Session"
#define SC_STREAM SC_NAME ".Stream"
/* Settling after the priming Shift (wl_session.h): measured on mutter 43.8. */
#define PRIME_SETTLE_MS 250

struct ad_wl_session {
    sd_bus *bus;
    char *rd_path, *sc_path, *stream_path;
    int origin_x, origin_y; /* the recorded monitor's top-left on screen */
    int64_t last_us;        /* the last request, for the idle stop */
    int64_t idle_ms;
    json_int_t started;     /* sessions started by this helper */
};

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) < 0)
        ;
}

ad_wl_session *ad_wl_session_new(void)
{
    ad_wl_session *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    const char *idle = getenv("AGENT_DESKTOP_WAYLAND_IDLE_MS");
    s->idle_ms = idle && atoll(idle) > 0 ? atoll(idle) : AD_WL_IDLE_MS;
    return s;
}

/* Stops the session (when Mutter still has it) and forgets it; the bus connection goes too,
 * so nothing of the old session can outlive it. */
static void session_stop(ad_wl_session *s)
{
    if (s->bus && s->rd_path)
        sd_bus_call_method(s->bus, RD_NAME, s->rd_path, RD_SESSION, "Stop", NULL, NULL, "");
    free(s->rd_path);
    free(s->sc_path);
    free(s->stream_path);
    s->rd_path = s->sc_path = s->stream_path = NULL;
    s->bus = sd_bus_flush_close_unref(s->bus);
}

void ad_wl_session_free(ad_wl_session *s)
{
    if (!s)
        return;
    session_stop(s);
    free(s);
}

bool ad_wl_session_holds(const ad_wl_session *s)
{
    return s->rd_path != NULL;
}

int ad_wl_session_timeout_ms(const ad_wl_session *s)
{
    if (!s->rd_path)
        return -1;
    int64_t left = s->idle_ms - (ad_helper_now_us() - s->last_us) / 1000;
    return left < 0 ? 0 : (int)(left > 1000 ? 1000 : left);
}

int ad_wl_session_dispatch(ad_wl_session *s)
{
    if (s->rd_path && (ad_helper_now_us() - s->last_us) / 1000 >= s->idle_ms)
        session_stop(s);
    return 0;
}

/* A method call answering one object path, copied into *ret (malloc'd). */
static int call_path(ad_wl_session *s, sd_bus_message *m, char **ret, char *why, size_t n)
{
    sd_bus_error e = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    const char *path = NULL;
    int r = sd_bus_call(s->bus, m, 5 * 1000 * 1000, &e, &reply);
    if (r >= 0)
        r = sd_bus_message_read(reply, "o", &path);
    if (r >= 0 && !(*ret = strdup(path)))
        r = -1;
    if (r < 0)
        snprintf(why, n, "%s", e.message ? e.message : strerror(-r));
    sd_bus_error_free(&e);
    sd_bus_message_unref(reply);
    return r < 0 ? -1 : 0;
}

/* The RemoteDesktop session's SessionId, to bind the ScreenCast session to it. */
static int session_id(ad_wl_session *s, char **ret, char *why, size_t n)
{
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = sd_bus_get_property_string(s->bus, RD_NAME, s->rd_path, RD_SESSION, "SessionId", &e,
                                       ret);
    if (r < 0)
        snprintf(why, n, "SessionId: %s", e.message ? e.message : strerror(-r));
    sd_bus_error_free(&e);
    return r < 0 ? -1 : 0;
}

/* The recorded monitor's position (the stream's "position" parameter); absent: (0, 0). */
static void stream_origin(ad_wl_session *s)
{
    sd_bus_message *reply = NULL;
    s->origin_x = s->origin_y = 0;
    if (sd_bus_get_property(s->bus, SC_NAME, s->stream_path, SC_STREAM, "Parameters", NULL,
                            &reply, "a{sv}") < 0)
        return;
    if (sd_bus_message_enter_container(reply, 'a', "{sv}") >= 0) {
        while (sd_bus_message_enter_container(reply, 'e', "sv") > 0) {
            const char *key = NULL;
            int x = 0, y = 0;
            if (sd_bus_message_read(reply, "s", &key) < 0)
                break;
            if (strcmp(key, "position") == 0 &&
                sd_bus_message_read(reply, "v", "(ii)", &x, &y) >= 0) {
                s->origin_x = x;
                s->origin_y = y;
            } else if (sd_bus_message_skip(reply, "v") < 0) {
                break;
            }
            sd_bus_message_exit_container(reply);
        }
    }
    sd_bus_message_unref(reply);
}

static int key(ad_wl_session *s, uint32_t keysym, bool down)
{
    return sd_bus_call_method(s->bus, RD_NAME, s->rd_path, RD_SESSION, "NotifyKeyboardKeysym",
                              NULL, NULL, "ub", keysym, (int)down);
}

/* Creates, binds, starts and primes a session; on failure nothing is kept. */
static int session_start(ad_wl_session *s, char *why, size_t n)
{
    sd_bus_message *m = NULL;
    char *id = NULL;
    int r = sd_bus_open_user(&s->bus);
    if (r < 0) {
        snprintf(why, n, "no session bus: %s", strerror(-r));
        goto fail;
    }
    if (sd_bus_message_new_method_call(s->bus, &m, RD_NAME, RD_PATH, RD_NAME, "CreateSession") < 0 ||
        call_path(s, m, &s->rd_path, why, n) < 0)
        goto fail;
    m = sd_bus_message_unref(m);
    if (session_id(s, &id, why, n) < 0)
        goto fail;
    /* Pointer motion in screen points needs a stream: RecordMonitor of the primary monitor
     * (connector ""), in a ScreenCast session bound to this one. */
    if (sd_bus_message_new_method_call(s->bus, &m, SC_NAME, SC_PATH, SC_NAME, "CreateSession") < 0 ||
        sd_bus_message_append(m, "a{sv}", 1, "remote-desktop-session-id", "s", id) < 0 ||
        call_path(s, m, &s->sc_path, why, n) < 0)
        goto fail;
    m = sd_bus_message_unref(m);
    if (sd_bus_message_new_method_call(s->bus, &m, SC_NAME, s->sc_path, SC_SESSION, "RecordMonitor") < 0 ||
        sd_bus_message_append(m, "sa{sv}", "", 0) < 0 ||
        call_path(s, m, &s->stream_path, why, n) < 0)
        goto fail;
    m = sd_bus_message_unref(m);
    sd_bus_error e = SD_BUS_ERROR_NULL;
    r = sd_bus_call_method(s->bus, RD_NAME, s->rd_path, RD_SESSION, "Start", &e, NULL, "");
    if (r < 0) {
        snprintf(why, n, "Start: %s", e.message ? e.message : strerror(-r));
        sd_bus_error_free(&e);
        goto fail;
    }
    stream_origin(s);
    if (key(s, 0xffe1 /* Shift_L */, true) < 0 || key(s, 0xffe1, false) < 0) {
        snprintf(why, n, "the priming key was refused");
        goto fail;
    }
    sleep_ms(PRIME_SETTLE_MS);
    s->started++;
    free(id);
    return 0;
fail:
    sd_bus_message_unref(m);
    free(id);
    session_stop(s);
    return -1;
}

static json_t *error_reply(const char *code, const char *fmt, const char *what)
{
    char msg[512];
    snprintf(msg, sizeof(msg), fmt, what);
    return json_pack("{s:b, s:s, s:s}", "ok", 0, "code", code, "message", msg);
}

static json_t *status_reply(const ad_wl_session *s)
{
    return json_pack("{s:b, s:o, s:I, s:I}", "ok", 1, "session",
                     s->rd_path ? json_string(s->rd_path) : json_null(), "started", s->started,
                     "idle_ms", (json_int_t)s->idle_ms);
}

/* One event of a "send" request. 1 for a wait, 0 for an event Mutter took, -1 otherwise. */
static int send_one(ad_wl_session *s, const json_t *ev, sd_bus_error *e)
{
    const char *t = json_string_value(json_object_get(ev, "t"));
    bool down = json_is_true(json_object_get(ev, "down"));
    if (!t)
        return -1;
    if (strcmp(t, "wait") == 0) {
        json_int_t ms = json_integer_value(json_object_get(ev, "ms"));
        sleep_ms(ms < 0 ? 0 : ms > 5000 ? 5000 : ms);
        return 1;
    }
    int r = -1;
    if (strcmp(t, "key") == 0)
        r = sd_bus_call_method(s->bus, RD_NAME, s->rd_path, RD_SESSION, "NotifyKeyboardKeysym",
                               e, NULL, "ub",
                               (uint32_t)json_integer_value(json_object_get(ev, "keysym")),
                               (int)down);
    else if (strcmp(t, "motion") == 0)
        r = sd_bus_call_method(s->bus, RD_NAME, s->rd_path, RD_SESSION,
                               "NotifyPointerMotionAbsolute", e, NULL, "sdd", s->stream_path,
                               json_number_value(json_object_get(ev, "x")) - s->origin_x,
                               json_number_value(json_object_get(ev, "y")) - s->origin_y);
    else if (strcmp(t, "button") == 0)
        r = sd_bus_call_method(s->bus, RD_NAME, s->rd_path, RD_SESSION, "NotifyPointerButton",
                               e, NULL, "ib",
                               (int)json_integer_value(json_object_get(ev, "button")), (int)down);
    else if (strcmp(t, "axis") == 0)
        r = sd_bus_call_method(s->bus, RD_NAME, s->rd_path, RD_SESSION,
                               "NotifyPointerAxisDiscrete", e, NULL, "ui",
                               (uint32_t)json_integer_value(json_object_get(ev, "axis")),
                               (int)json_integer_value(json_object_get(ev, "steps")));
    return r < 0 ? -1 : 0;
}

static json_t *send_events(ad_wl_session *s, const json_t *events)
{
    json_int_t sent = 0;
    size_t i;
    json_t *ev;
    char why[512] = "";
    json_array_foreach(events, i, ev) {
        sd_bus_error e = SD_BUS_ERROR_NULL;
        int r = send_one(s, ev, &e);
        if (r < 0 && sent == 0 && i == 0 && e.name &&
            strcmp(e.name, SD_BUS_ERROR_UNKNOWN_OBJECT) == 0) {
            /* Mutter dropped the session (a shell restart): nothing was sent, start again. */
            sd_bus_error_free(&e);
            session_stop(s);
            if (session_start(s, why, sizeof(why)) < 0)
                break;
            r = send_one(s, ev, &e);
        }
        if (r < 0) {
            snprintf(why, sizeof(why), "event %zu: %s", i,
                     e.message ? e.message : "malformed or refused");
            sd_bus_error_free(&e);
            break;
        }
        sd_bus_error_free(&e);
        sent += r == 0;
    }
    json_t *reply = status_reply(s);
    json_object_set_new(reply, "sent", json_integer(sent));
    if (why[0])
        json_object_set_new(reply, "error", json_string(why));
    return reply;
}

json_t *ad_wl_session_request(ad_wl_session *s, const json_t *req)
{
    const char *op = json_string_value(json_object_get(req, "op"));
    s->last_us = ad_helper_now_us();
    if (!op)
        return error_reply("INVALID_ARGS", "%s", "a wlinput request needs an op");
    if (strcmp(op, "status") == 0)
        return status_reply(s);
    if (strcmp(op, "stop") == 0) {
        session_stop(s);
        return status_reply(s);
    }
    bool is_send = strcmp(op, "send") == 0;
    if (!is_send && strcmp(op, "ensure") != 0)
        return error_reply("INVALID_ARGS", "unknown wlinput op %s", op);
    const json_t *events = json_object_get(req, "events");
    if (is_send && !json_is_array(events))
        return error_reply("INVALID_ARGS", "%s", "send needs an events array");
    char why[512] = "";
    if (!s->rd_path && session_start(s, why, sizeof(why)) < 0)
        return error_reply("PLATFORM_NOT_SUPPORTED",
                           "Mutter's RemoteDesktop session could not start: %s", why);
    json_t *reply = is_send ? send_events(s, events) : status_reply(s);
    s->last_us = ad_helper_now_us(); /* idle counts from the end of the request */
    return reply;
}
