/* x11_clipboard.c: read, write and clear the X11 CLIPBOARD selection (x11_clipboard.h). */
#include "linux/x11_clipboard.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

#include "core/clip_formats.h"
#include "core/ctx.h"
#include "linux/x11_connect.h"
#include "linux/helper_client.h"
#include "linux/physical.h" /* ad_linux_wayland_session */
#include "linux/wayland_clipboard.h"
#include "linux/x11_atom.h"

#define MAX_FILE_URLS 4096

typedef struct {
    xcb_connection_t *c;
    xcb_window_t win;
    xcb_atom_t clipboard, prop, incr, targets;
    xcb_atom_t *offered; /* the owner's TARGETS (malloc'd), or NULL */
    long n_offered;      /* -1: the owner did not answer TARGETS */
} clip_conn;

static void clip_close(clip_conn *cc)
{
    if (cc->c)
        xcb_disconnect(cc->c);
    cc->c = NULL;
    free(cc->offered);
    cc->offered = NULL;
}

/* Connects to $DISPLAY and creates the window selections are converted to. */
static int clip_open(clip_conn *cc, ad_error *err)
{
    const char *display = getenv("DISPLAY");
    if (!display || !display[0])
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                            "The clipboard needs an X11 display, and DISPLAY is not set");
    cc->c = ad_x11_connect(display, NULL);
    if (xcb_connection_has_error(cc->c)) {
        clip_close(cc);
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                            "Cannot connect to the X display %s", display);
    }
    xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(cc->c)).data;
    cc->win = xcb_generate_id(cc->c);
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_create_window(cc->c, XCB_COPY_FROM_PARENT, cc->win, screen->root, -1, -1, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, XCB_CW_EVENT_MASK,
                      &mask);
    cc->clipboard = ad_x11_atom(cc->c, "CLIPBOARD", false);
    cc->prop = ad_x11_atom(cc->c, "_AGENT_DESKTOP_CLIP", false);
    cc->incr = ad_x11_atom(cc->c, "INCR", false);
    cc->targets = ad_x11_atom(cc->c, "TARGETS", false);
    return 0;
}

/* The next event until deadline_us (owned by the caller), or NULL. */
static xcb_generic_event_t *next_event(clip_conn *cc, int64_t deadline_us)
{
    for (;;) {
        xcb_generic_event_t *ev = xcb_poll_for_event(cc->c);
        if (ev || xcb_connection_has_error(cc->c))
            return ev;
        int64_t left = deadline_us - ad_now_us();
        if (left <= 0)
            return NULL;
        struct pollfd p = {.fd = xcb_get_file_descriptor(cc->c), .events = POLLIN};
        poll(&p, 1, (int)(left / 1000 + 1));
    }
}

static int timed_out(ad_error *err, const char *what)
{
    ad_error_set(err, AD_TIMEOUT, "The clipboard owner did not %s before the deadline", what);
    ad_error_detail(err, "kind", json_string("clipboard_owner_silent"));
    return -1;
}

/* Appends the property's value to *buf and deletes it. Returns its length, 0 for an empty
 * value, -2 when it does not exist, -1 with err. *ret_type is its type. */
static long take_property(clip_conn *cc, char **buf, size_t *len, xcb_atom_t *ret_type,
                          ad_error *err)
{
    xcb_get_property_reply_t *r = xcb_get_property_reply(
        cc->c, xcb_get_property(cc->c, 1, cc->win, cc->prop, XCB_GET_PROPERTY_TYPE_ANY, 0,
                                AD_X11_CLIP_READ_MAX / 4 + 1), NULL);
    if (!r)
        return ad_error_set(err, AD_ACTION_FAILED, "The clipboard's property could not be read");
    *ret_type = r->type;
    if (r->type == XCB_ATOM_NONE) {
        free(r);
        return -2;
    }
    size_t n = (size_t)xcb_get_property_value_length(r);
    if (r->bytes_after || *len + n > AD_X11_CLIP_READ_MAX) {
        free(r);
        return ad_error_set(err, AD_ACTION_FAILED, "The clipboard holds more than %u MiB",
                            AD_X11_CLIP_READ_MAX >> 20);
    }
    char *grown = realloc(*buf, *len + n + 1);
    if (!grown) {
        free(r);
        return ad_error_set(err, AD_INTERNAL, "Out of memory reading the clipboard");
    }
    memcpy(grown + *len, xcb_get_property_value(r), n);
    *len += n;
    grown[*len] = '\0';
    *buf = grown;
    free(r);
    return (long)n;
}

/* The INCR chunks (ICCCM 2.7.2): each new value of the property is one, deleting it asks for
 * the next, and an empty one ends the transfer. */
static int read_incr(clip_conn *cc, int64_t deadline_us, char **buf, size_t *len, ad_error *err)
{
    for (;;) {
        xcb_generic_event_t *ev = next_event(cc, deadline_us);
        if (!ev)
            return timed_out(err, "finish sending its content");
        bool chunk = (ev->response_type & 0x7f) == XCB_PROPERTY_NOTIFY &&
                     ((xcb_property_notify_event_t *)ev)->atom == cc->prop &&
                     ((xcb_property_notify_event_t *)ev)->state == XCB_PROPERTY_NEW_VALUE;
        free(ev);
        if (!chunk)
            continue;
        xcb_atom_t type;
        long n = take_property(cc, buf, len, &type, err);
        if (n == -1)
            return -1;
        if (n == 0)
            return 0; /* the empty end marker; -2 is the INCR property's own NewValue */
    }
}

/* Converts the selection to `target`. 1 with *ret (malloc'd, NUL-terminated; the caller
 * frees), *ret_len and *ret_type; 0 when there is no owner or it refuses the target; -1. */
static int convert(clip_conn *cc, xcb_atom_t target, int64_t deadline_us, char **ret,
                   size_t *ret_len, xcb_atom_t *ret_type, ad_error *err)
{
    xcb_convert_selection(cc->c, cc->win, cc->clipboard, target, cc->prop, XCB_CURRENT_TIME);
    xcb_flush(cc->c);
    for (;;) {
        xcb_generic_event_t *ev = next_event(cc, deadline_us);
        if (!ev)
            return timed_out(err, "answer");
        if ((ev->response_type & 0x7f) != XCB_SELECTION_NOTIFY) {
            free(ev);
            continue;
        }
        xcb_selection_notify_event_t *sn = (xcb_selection_notify_event_t *)ev;
        bool refused = sn->property == XCB_ATOM_NONE;
        bool ours = sn->requestor == cc->win && sn->target == target;
        free(ev);
        if (!ours)
            continue;
        if (refused)
            return 0;
        break;
    }
    char *buf = NULL;
    size_t len = 0;
    xcb_atom_t type;
    long n = take_property(cc, &buf, &len, &type, err);
    if (n >= 0 && type == cc->incr) {
        len = 0; /* the INCR property holds the size only */
        n = read_incr(cc, deadline_us, &buf, &len, err);
    }
    if (n == -1 || n == -2) {
        free(buf);
        return n == -2 ? 0 : -1;
    }
    if (!buf && !(buf = calloc(1, 1)))
        return ad_error_set(err, AD_INTERNAL, "Out of memory reading the clipboard");
    *ret = buf;
    *ret_len = len;
    *ret_type = type;
    return 1;
}

/* Latin-1 (STRING) to UTF-8, replacing src (malloc'd). */
static char *latin1_to_utf8(char *src, size_t len, size_t *ret_len)
{
    char *out = malloc(len * 2 + 1);
    size_t o = 0;
    for (size_t i = 0; out && i < len; i++) {
        unsigned char ch = (unsigned char)src[i];
        if (ch < 0x80) {
            out[o++] = (char)ch;
        } else {
            out[o++] = (char)(0xc0 | ch >> 6);
            out[o++] = (char)(0x80 | (ch & 0x3f));
        }
    }
    if (out)
        out[o] = '\0';
    free(src);
    *ret_len = o;
    return out;
}

/* The owner's TARGETS (malloc'd into cc->offered), read once per connection. An owner that
 * does not answer TARGETS leaves n_offered at -1: every target is then tried. */
static int read_targets(clip_conn *cc, int64_t deadline_us, ad_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    xcb_atom_t type;
    int r = convert(cc, cc->targets, deadline_us, &buf, &len, &type, err);
    if (r < 0)
        return -1;
    cc->offered = (xcb_atom_t *)buf;
    cc->n_offered = r == 1 && type == XCB_ATOM_ATOM ? (long)(len / sizeof(xcb_atom_t)) : -1;
    return 0;
}

/* Converts the selection to the target named `name` when the owner offers it (some owners,
 * xclip among them, answer any target with the same bytes, so the list decides). */
static int convert_offered(clip_conn *cc, const char *name, int64_t deadline_us, char **ret,
                           size_t *ret_len, ad_error *err)
{
    xcb_atom_t target = ad_x11_atom(cc->c, name, false), type;
    bool offered = cc->n_offered < 0;
    for (long i = 0; i < cc->n_offered && !offered; i++)
        offered = cc->offered[i] == target;
    return offered ? convert(cc, target, deadline_us, ret, ret_len, &type, err) : 0;
}

/* Text: UTF8_STRING, else STRING (Latin-1). 1 with ret filled, 0 when there is none. */
static int read_text(clip_conn *cc, int64_t deadline_us, ad_clip_content *ret, ad_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    int r = convert_offered(cc, "UTF8_STRING", deadline_us, &buf, &len, err);
    if (r == 0) {
        r = convert_offered(cc, "STRING", deadline_us, &buf, &len, err);
        if (r == 1 && !(buf = latin1_to_utf8(buf, len, &len)))
            return ad_error_set(err, AD_INTERNAL, "Out of memory reading the clipboard");
    }
    if (r != 1)
        return r;
    *ret = (ad_clip_content){.kind = AD_CLIP_TEXT, .data = buf, .len = len};
    return 1;
}

static int read_image(clip_conn *cc, int64_t deadline_us, ad_clip_content *ret, ad_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    int r = convert_offered(cc, "image/png", deadline_us, &buf, &len, err);
    if (r != 1)
        return r;
    *ret = (ad_clip_content){.kind = AD_CLIP_IMAGE, .data = buf, .len = len};
    return 1;
}

int ad_clip_file_list_content(const char *type, char *buf, size_t len, ad_clip_content *ret,
                              ad_error *err)
{
    char **urls = NULL;
    long n = ad_file_list_parse(type, buf, len, MAX_FILE_URLS, &urls);
    free(buf);
    if (n < 0)
        return ad_error_set(err, AD_INTERNAL, "Out of memory reading the clipboard");
    if (n == 0)
        return 0;
    *ret = (ad_clip_content){.kind = AD_CLIP_FILE_URLS, .file_urls = urls,
                             .n_file_urls = (size_t)n};
    return 1;
}

/* text/uri-list, else x-special/gnome-copied-files (a "copy" or "cut" line, then URLs). */
static int read_file_urls(clip_conn *cc, int64_t deadline_us, ad_clip_content *ret,
                          ad_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    const char *type = "text/uri-list";
    int r = convert_offered(cc, type, deadline_us, &buf, &len, err);
    if (r == 0) {
        type = "x-special/gnome-copied-files";
        r = convert_offered(cc, type, deadline_us, &buf, &len, err);
    }
    return r != 1 ? r : ad_clip_file_list_content(type, buf, len, ret, err);
}

/* File references, then an image, then text: the first form the owner offers. */
static int read_auto(clip_conn *cc, int64_t deadline_us, ad_clip_content *ret, ad_error *err)
{
    int r = read_file_urls(cc, deadline_us, ret, err);
    if (r == 0)
        r = read_image(cc, deadline_us, ret, err);
    return r == 0 ? read_text(cc, deadline_us, ret, err) : r;
}

int ad_x11_clipboard_read(ad_adapter *a, ad_clip_want want, int64_t deadline_us,
                          ad_clip_content *ret, ad_error *err)
{
    (void)a;
    if (ad_linux_wayland_session())
        return ad_wl_clipboard_read(want, deadline_us, ret, err);
    clip_conn cc = {0};
    if (clip_open(&cc, err) < 0)
        return -1;
    ad_clip_content got = {0};
    if (read_targets(&cc, deadline_us, err) < 0) {
        clip_close(&cc);
        return -1;
    }
    int r = want == AD_CLIP_WANT_TEXT    ? read_text(&cc, deadline_us, &got, err)
            : want == AD_CLIP_WANT_IMAGE ? read_image(&cc, deadline_us, &got, err)
            : want == AD_CLIP_WANT_FILE_URLS ? read_file_urls(&cc, deadline_us, &got, err)
                                             : read_auto(&cc, deadline_us, &got, err);
    clip_close(&cc);
    if (r == 1)
        *ret = got;
    return r;
}

/* The representations of content as helper items: targets and payload bytes. The payload
 * is malloc'd into *ret_payload (the caller frees); the first item's first target is the
 * one read back. */
static json_t *items_of(const ad_clip_content *content, char **ret_payload, size_t *ret_len)
{
    json_t *items = json_array();
    char *payload = NULL;
    size_t len = 0;
    if (content->kind == AD_CLIP_TEXT) {
        json_array_append_new(items, json_pack("{s:[s,s], s:I}", "targets", "UTF8_STRING",
                                               "text/plain;charset=utf-8", "bytes",
                                               (json_int_t)content->len));
        payload = malloc(content->len + 1);
        if (payload)
            memcpy(payload, content->data, content->len);
        len = content->len;
    } else if (content->kind == AD_CLIP_IMAGE) {
        json_array_append_new(items, json_pack("{s:[s], s:I}", "targets", "image/png", "bytes",
                                               (json_int_t)content->len));
        payload = malloc(content->len + 1);
        if (payload)
            memcpy(payload, content->data, content->len);
        len = content->len;
    } else {
        /* text/uri-list lines end in CRLF (RFC 2483); GNOME's list is "copy" then LF lines. */
        size_t total = 0;
        for (size_t i = 0; i < content->n_file_urls; i++)
            total += strlen(content->file_urls[i]) + 2;
        payload = malloc(total * 2 + 8);
        if (payload) {
            for (size_t i = 0; i < content->n_file_urls; i++)
                len += (size_t)sprintf(payload + len, "%s\r\n", content->file_urls[i]);
            size_t first = len;
            len += (size_t)sprintf(payload + len, "copy");
            for (size_t i = 0; i < content->n_file_urls; i++)
                len += (size_t)sprintf(payload + len, "\n%s", content->file_urls[i]);
            json_array_append_new(items, json_pack("{s:[s], s:I}", "targets", "text/uri-list",
                                                   "bytes", (json_int_t)first));
            json_array_append_new(items, json_pack("{s:[s], s:I}", "targets",
                                                   "x-special/gnome-copied-files", "bytes",
                                                   (json_int_t)(len - first)));
        }
    }
    if (!payload) {
        json_decref(items);
        return NULL;
    }
    *ret_payload = payload;
    *ret_len = len;
    return items;
}

/* Reads target back through the server and compares it with want[0..len). */
static int read_back(clip_conn *cc, const char *target, const char *want, size_t len,
                     int64_t deadline_us, ad_error *err)
{
    char *got = NULL;
    size_t got_len = 0;
    xcb_atom_t type;
    int r = convert(cc, ad_x11_atom(cc->c, target, false), deadline_us, &got, &got_len, &type,
                    err);
    bool same = r == 1 && got_len == len && memcmp(got, want, len) == 0;
    free(got);
    if (r < 0)
        return -1;
    if (!same)
        return ad_error_set(err, AD_ACTION_FAILED, "The clipboard did not read back as written "
                            "(another program may have taken it at once)");
    return 0;
}

int ad_x11_clipboard_write(ad_adapter *a, const ad_clip_content *content, int64_t deadline_us,
                           ad_error *err)
{
    (void)a;
    if (ad_linux_wayland_session())
        return ad_wl_clipboard_write(content, deadline_us, err);
    clip_conn cc = {0};
    if (clip_open(&cc, err) < 0)
        return -1;
    char *payload = NULL;
    size_t len = 0;
    json_t *items = items_of(content, &payload, &len);
    if (!items) {
        clip_close(&cc);
        return ad_error_set(err, AD_INTERNAL, "Out of memory preparing the clipboard");
    }
    const char *target = json_string_value(
        json_array_get(json_object_get(json_array_get(items, 0), "targets"), 0));
    size_t first_len = (size_t)json_integer_value(
        json_object_get(json_array_get(items, 0), "bytes"));
    json_t *req = json_pack("{s:s, s:s, s:s, s:O}", "service", "clipboard", "op", "set",
                            "display", getenv("DISPLAY"), "items", items);
    json_t *reply = NULL;
    int rc = ad_helper_request(req, payload, len, deadline_us, &reply, err);
    if (rc == 0) {
        rc = read_back(&cc, target, payload, first_len, deadline_us, err);
        if (rc < 0)
            err->delivery = AD_DELIVERY_UNCERTAIN; /* the helper did take the selection */
    }
    json_decref(reply);
    json_decref(req);
    json_decref(items);
    free(payload);
    clip_close(&cc);
    return rc;
}

int ad_x11_clipboard_clear(ad_adapter *a, int64_t deadline_us, ad_error *err)
{
    (void)a;
    if (ad_linux_wayland_session())
        return ad_wl_clipboard_clear(deadline_us, err);
    /* two requests on our own connection: no owner to wait for */
    clip_conn cc = {0};
    if (clip_open(&cc, err) < 0)
        return -1;
    xcb_set_selection_owner(cc.c, XCB_NONE, cc.clipboard, XCB_CURRENT_TIME);
    xcb_get_selection_owner_reply_t *r =
        xcb_get_selection_owner_reply(cc.c, xcb_get_selection_owner(cc.c, cc.clipboard), NULL);
    bool cleared = r && r->owner == XCB_NONE;
    free(r);
    clip_close(&cc);
    if (!cleared)
        return ad_error_set(err, AD_ACTION_FAILED, "The clipboard still has an owner after "
                            "clearing it (another program took it at once)");
    return 0;
}
