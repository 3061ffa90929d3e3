/* clip_owner.c: the helper's clipboard service (clip_owner.h). */
#include "helper/clip_owner.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

#include "helper/helper_proto.h"
#include "linux/x11_atom.h"

#define MAX_ITEMS 4
#define MAX_TARGETS 8
#define MAX_TRANSFERS 16
#define CHUNK_MAX (256 * 1024)
#define STALL_US (10 * 1000000)

typedef struct {
    xcb_atom_t targets[MAX_TARGETS];
    int n_targets;
    unsigned char *data;
    size_t len;
} clip_item;

/* What was set: shared by the selection and the INCR transfers still reading it. */
typedef struct {
    int refs;
    clip_item items[MAX_ITEMS];
    int n_items;
} clip_content;

typedef struct {
    clip_content *content; /* a reference; NULL: the slot is free */
    const clip_item *item;
    xcb_window_t requestor;
    xcb_atom_t property, type;
    size_t offset;
    bool sent_end;
    int64_t progress_us;
} incr_transfer;

struct ad_clip_owner {
    xcb_connection_t *c;
    char *display;
    xcb_window_t win;
    xcb_atom_t clipboard, targets, timestamp, incr, atom, integer, multiple;
    clip_content *content; /* a reference while we own the selection */
    xcb_timestamp_t owned_at;
    size_t chunk;
    incr_transfer transfers[MAX_TRANSFERS];
};

static void content_unref(clip_content *c)
{
    if (!c || --c->refs > 0)
        return;
    for (int i = 0; i < c->n_items; i++)
        free(c->items[i].data);
    free(c);
}

ad_clip_owner *ad_clip_owner_new(void)
{
    return calloc(1, sizeof(ad_clip_owner));
}

void ad_clip_owner_free(ad_clip_owner *o)
{
    if (!o)
        return;
    for (int i = 0; i < MAX_TRANSFERS; i++)
        content_unref(o->transfers[i].content);
    content_unref(o->content);
    if (o->c)
        xcb_disconnect(o->c);
    free(o->display);
    free(o);
}

int ad_clip_owner_fd(const ad_clip_owner *o)
{
    return o->c ? xcb_get_file_descriptor(o->c) : -1;
}

bool ad_clip_owner_holds(const ad_clip_owner *o)
{
    if (o->content)
        return true;
    for (int i = 0; i < MAX_TRANSFERS; i++)
        if (o->transfers[i].content)
            return true;
    return false;
}

/* Connects to `display` and creates the owner window. -1 when the server is unreachable. */
static int connect_display(ad_clip_owner *o, const char *display)
{
    xcb_connection_t *c = xcb_connect(display, NULL);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return -1;
    }
    const xcb_setup_t *setup = xcb_get_setup(c);
    xcb_screen_t *screen = xcb_setup_roots_iterator(setup).data;
    o->c = c;
    o->display = strdup(display);
    o->win = xcb_generate_id(c);
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_create_window(c, XCB_COPY_FROM_PARENT, o->win, screen->root, -1, -1, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, XCB_CW_EVENT_MASK,
                      &mask);
    o->clipboard = ad_x11_atom(c, "CLIPBOARD", false);
    o->targets = ad_x11_atom(c, "TARGETS", false);
    o->timestamp = ad_x11_atom(c, "TIMESTAMP", false);
    o->incr = ad_x11_atom(c, "INCR", false);
    o->multiple = ad_x11_atom(c, "MULTIPLE", false);
    o->atom = XCB_ATOM_ATOM;
    o->integer = XCB_ATOM_INTEGER;
    /* One property request must fit in the server's maximum request (in 4-byte units). */
    size_t max_req = (size_t)xcb_get_maximum_request_length(c) * 4;
    o->chunk = max_req > CHUNK_MAX + 1024 ? CHUNK_MAX : max_req - 1024;
    return 0;
}

static void send_notify(ad_clip_owner *o, const xcb_selection_request_event_t *rq,
                        xcb_atom_t property)
{
    xcb_selection_notify_event_t ev = {0};
    ev.response_type = XCB_SELECTION_NOTIFY;
    ev.time = rq->time;
    ev.requestor = rq->requestor;
    ev.selection = rq->selection;
    ev.target = rq->target;
    ev.property = property;
    char buf[32] = {0};
    memcpy(buf, &ev, sizeof(ev));
    xcb_send_event(o->c, 0, rq->requestor, XCB_EVENT_MASK_NO_EVENT, buf);
}

static const clip_item *item_for(const clip_content *c, xcb_atom_t target, xcb_atom_t *type)
{
    for (int i = 0; c && i < c->n_items; i++)
        for (int t = 0; t < c->items[i].n_targets; t++)
            if (c->items[i].targets[t] == target) {
                *type = target;
                return &c->items[i];
            }
    return NULL;
}

/* Starts an INCR transfer (ICCCM 2.7.2): the INCR property with the size, then one chunk
 * each time the requestor deletes the property. Returns false when no slot is free. */
static bool start_incr(ad_clip_owner *o, const xcb_selection_request_event_t *rq,
                       xcb_atom_t property, const clip_item *item, xcb_atom_t type)
{
    incr_transfer *t = NULL;
    for (int i = 0; i < MAX_TRANSFERS && !t; i++)
        if (!o->transfers[i].content)
            t = &o->transfers[i];
    if (!t)
        return false;
    *t = (incr_transfer){.content = o->content, .item = item, .requestor = rq->requestor,
                         .property = property, .type = type,
                         .progress_us = ad_helper_now_us()};
    o->content->refs++;
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_change_window_attributes(o->c, rq->requestor, XCB_CW_EVENT_MASK, &mask);
    uint32_t size = item->len > UINT32_MAX ? UINT32_MAX : (uint32_t)item->len;
    xcb_change_property(o->c, XCB_PROP_MODE_REPLACE, rq->requestor, property, o->incr, 32, 1,
                        &size);
    return true;
}

static void answer_request(ad_clip_owner *o, const xcb_selection_request_event_t *rq)
{
    /* An obsolete client passes property None: use the target as the property. */
    xcb_atom_t property = rq->property ? rq->property : rq->target;
    if (rq->owner != o->win || rq->selection != o->clipboard || !o->content) {
        send_notify(o, rq, XCB_ATOM_NONE);
        return;
    }
    if (rq->target == o->targets) {
        xcb_atom_t list[2 + MAX_ITEMS * MAX_TARGETS];
        uint32_t n = 0;
        list[n++] = o->targets;
        list[n++] = o->timestamp;
        for (int i = 0; i < o->content->n_items; i++)
            for (int t = 0; t < o->content->items[i].n_targets; t++)
                list[n++] = o->content->items[i].targets[t];
        xcb_change_property(o->c, XCB_PROP_MODE_REPLACE, rq->requestor, property, o->atom, 32,
                            n, list);
        send_notify(o, rq, property);
        return;
    }
    if (rq->target == o->timestamp) {
        xcb_change_property(o->c, XCB_PROP_MODE_REPLACE, rq->requestor, property, o->integer,
                            32, 1, &o->owned_at);
        send_notify(o, rq, property);
        return;
    }
    xcb_atom_t type = XCB_ATOM_NONE;
    const clip_item *item = item_for(o->content, rq->target, &type);
    if (!item || rq->target == o->multiple) {
        send_notify(o, rq, XCB_ATOM_NONE);
        return;
    }
    if (item->len > o->chunk) {
        send_notify(o, rq, start_incr(o, rq, property, item, type) ? property : XCB_ATOM_NONE);
        return;
    }
    xcb_change_property(o->c, XCB_PROP_MODE_REPLACE, rq->requestor, property, type, 8,
                        (uint32_t)item->len, item->data);
    send_notify(o, rq, property);
}

static void end_transfer(incr_transfer *t)
{
    content_unref(t->content);
    t->content = NULL;
}

/* The requestor deleted the property: the next chunk, or the empty end marker. */
static void incr_step(ad_clip_owner *o, const xcb_property_notify_event_t *ev)
{
    if (ev->state != XCB_PROPERTY_DELETE)
        return;
    for (int i = 0; i < MAX_TRANSFERS; i++) {
        incr_transfer *t = &o->transfers[i];
        if (!t->content || t->requestor != ev->window || t->property != ev->atom)
            continue;
        if (t->sent_end) {
            end_transfer(t);
            return;
        }
        size_t n = t->item->len - t->offset;
        if (n > o->chunk)
            n = o->chunk;
        xcb_change_property(o->c, XCB_PROP_MODE_REPLACE, t->requestor, t->property, t->type,
                            8, (uint32_t)n, t->item->data + t->offset);
        t->offset += n;
        t->sent_end = n == 0;
        t->progress_us = ad_helper_now_us();
        if (t->sent_end)
            end_transfer(t); /* nothing more to write after the empty marker */
        return;
    }
}

int ad_clip_owner_dispatch(ad_clip_owner *o)
{
    if (!o->c)
        return 0;
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(o->c))) {
        uint8_t type = ev->response_type & 0x7f;
        if (type == XCB_SELECTION_REQUEST) {
            answer_request(o, (xcb_selection_request_event_t *)ev);
        } else if (type == XCB_SELECTION_CLEAR) {
            xcb_selection_clear_event_t *sc = (xcb_selection_clear_event_t *)ev;
            /* A clear older than our current ownership was meant for an earlier one. */
            if (sc->selection == o->clipboard && sc->owner == o->win && sc->time >= o->owned_at) {
                content_unref(o->content);
                o->content = NULL;
            }
        } else if (type == XCB_PROPERTY_NOTIFY) {
            incr_step(o, (xcb_property_notify_event_t *)ev);
        }
        free(ev);
    }
    int64_t now = ad_helper_now_us();
    for (int i = 0; i < MAX_TRANSFERS; i++)
        if (o->transfers[i].content && now - o->transfers[i].progress_us > STALL_US)
            end_transfer(&o->transfers[i]);
    xcb_flush(o->c);
    if (xcb_connection_has_error(o->c)) {
        for (int i = 0; i < MAX_TRANSFERS; i++)
            end_transfer(&o->transfers[i]);
        content_unref(o->content);
        o->content = NULL;
        return -1;
    }
    return 0;
}

static json_t *refuse(const char *code, const char *message)
{
    return json_pack("{s:b, s:s, s:s}", "ok", 0, "code", code, "message", message);
}

/* A server timestamp: a zero-length append to our own window's property, whose
 * PropertyNotify carries the time (ICCCM 2.1: never take a selection with CurrentTime).
 * Other events that arrive meanwhile are served as usual. 0 when none came by deadline_us. */
static xcb_timestamp_t server_time(ad_clip_owner *o, int64_t deadline_us)
{
    xcb_atom_t prop = ad_x11_atom(o->c, "_AGENT_DESKTOP_TIME", false);
    xcb_change_property(o->c, XCB_PROP_MODE_APPEND, o->win, prop, XCB_ATOM_STRING, 8, 0, "");
    xcb_flush(o->c);
    while (ad_helper_now_us() < deadline_us && !xcb_connection_has_error(o->c)) {
        xcb_generic_event_t *ev = xcb_poll_for_event(o->c);
        if (!ev) {
            struct pollfd p = {.fd = xcb_get_file_descriptor(o->c), .events = POLLIN};
            poll(&p, 1, 50);
            continue;
        }
        uint8_t type = ev->response_type & 0x7f;
        if (type == XCB_PROPERTY_NOTIFY) {
            xcb_property_notify_event_t *pn = (xcb_property_notify_event_t *)ev;
            if (pn->window == o->win && pn->atom == prop) {
                xcb_timestamp_t t = pn->time;
                free(ev);
                return t;
            }
            incr_step(o, pn);
        } else if (type == XCB_SELECTION_REQUEST) {
            answer_request(o, (xcb_selection_request_event_t *)ev);
        }
        free(ev);
    }
    return 0;
}

/* The items of a set request: header items[i] = {"targets":[names], "bytes":n}, payloads
 * concatenated in order. NULL with *ret_why on a malformed request. */
static clip_content *parse_items(ad_clip_owner *o, const json_t *req,
                                 const unsigned char *payload, size_t len, const char **ret_why)
{
    const json_t *items = json_object_get(req, "items");
    size_t n = json_array_size(items);
    if (!json_is_array(items) || n == 0 || n > MAX_ITEMS) {
        *ret_why = "a set request needs 1 to 4 items";
        return NULL;
    }
    clip_content *c = calloc(1, sizeof(*c));
    if (!c) {
        *ret_why = "out of memory";
        return NULL;
    }
    c->refs = 1;
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *it = json_array_get(items, i);
        const json_t *targets = json_object_get(it, "targets");
        json_int_t bytes = json_integer_value(json_object_get(it, "bytes"));
        size_t nt = json_array_size(targets);
        if (nt == 0 || nt > MAX_TARGETS || bytes < 0 || (size_t)bytes > len - off) {
            *ret_why = "an item needs 1 to 8 targets and its bytes within the payload";
            content_unref(c);
            return NULL;
        }
        clip_item *item = &c->items[c->n_items++];
        for (size_t t = 0; t < nt; t++) {
            const char *name = json_string_value(json_array_get(targets, t));
            item->targets[item->n_targets++] =
                name ? ad_x11_atom(o->c, name, false) : XCB_ATOM_NONE;
        }
        item->len = (size_t)bytes;
        item->data = malloc(item->len ? item->len : 1);
        if (!item->data) {
            *ret_why = "out of memory";
            content_unref(c);
            return NULL;
        }
        if (item->len) /* an empty payload may be NULL */
            memcpy(item->data, payload + off, item->len);
        off += item->len;
    }
    return c;
}

static json_t *set_request(ad_clip_owner *o, const json_t *req, const unsigned char *payload,
                           size_t len)
{
    const char *why = NULL;
    clip_content *c = parse_items(o, req, payload, len, &why);
    if (!c)
        return refuse("INVALID_ARGS", why);
    xcb_timestamp_t t = server_time(o, ad_helper_now_us() + AD_HELPER_IO_MS * 1000);
    if (!t) {
        content_unref(c);
        return refuse("ACTION_FAILED", "the X server gave no timestamp");
    }
    xcb_set_selection_owner(o->c, o->win, o->clipboard, t);
    xcb_get_selection_owner_reply_t *r =
        xcb_get_selection_owner_reply(o->c, xcb_get_selection_owner(o->c, o->clipboard), NULL);
    bool owned = r && r->owner == o->win;
    free(r);
    if (!owned) {
        content_unref(c);
        return refuse("ACTION_FAILED", "the X server did not give the helper the selection");
    }
    content_unref(o->content);
    o->content = c;
    o->owned_at = t;
    return json_pack("{s:b}", "ok", 1);
}

json_t *ad_clip_owner_request(ad_clip_owner *o, const json_t *req, const unsigned char *payload,
                              size_t len)
{
    const char *op = json_string_value(json_object_get(req, "op"));
    const char *display = json_string_value(json_object_get(req, "display"));
    if (!op || strcmp(op, "set") != 0)
        return refuse("INVALID_ARGS", "the clipboard service knows only the op \"set\"");
    if (!display || !display[0])
        return refuse("INVALID_ARGS", "a set request names its X display");
    if (o->c && xcb_connection_has_error(o->c)) {
        xcb_disconnect(o->c); /* the server went away: start over on the next display */
        o->c = NULL;
        free(o->display);
        o->display = NULL;
    }
    if (o->c && strcmp(o->display, display) != 0)
        return refuse("ACTION_FAILED", "the running helper serves another X display");
    if (!o->c && connect_display(o, display) < 0)
        return refuse("PLATFORM_NOT_SUPPORTED", "the helper cannot connect to the X display");
    json_t *reply = set_request(o, req, payload, len);
    xcb_flush(o->c);
    return reply;
}
