/* wayland_input.c: physical input on GNOME Wayland through the helper (wayland_input.h). */
#include "linux/wayland_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux/atspi_apps.h"
#include "linux/helper_client.h"
#include "linux/physical.h" /* ad_linux_frame_not_active */
#include "linux/wayland_plan.h"

static json_t *wl_req(const char *op)
{
    return json_pack("{s:s, s:s}", "service", "wlinput", "op", op);
}

int ad_wayland_input_ensure(int64_t deadline_us, ad_error *err)
{
    json_t *req = wl_req("ensure"), *reply = NULL;
    int rc = req ? ad_helper_request(req, NULL, 0, deadline_us, &reply, err)
                 : ad_error_set(err, AD_INTERNAL, "Out of memory");
    json_decref(req);
    json_decref(reply);
    if (rc < 0)
        ad_error_detail(err, "cause", json_string("wayland_input_session"));
    return rc < 0 ? -1 : 0;
}

/* Whether the AT-SPI window window_id is active (state `active`: on Wayland the only
 * readable sign of keyboard focus, and only while an input session exists). */
static int window_active(sd_bus *bus, const ad_window *known, const char *window_id,
                         int64_t deadline_us, bool *ret, ad_error *err)
{
    ad_window w = {0};
    if (ad_atspi_window_lookup(bus, NULL, window_id, deadline_us, &w, err) < 0)
        return -1;
    *ret = w.is_focused;
    ad_window_clear(&w);
    (void)known; /* the caller's copy may be older than the session's focus change */
    return 0;
}

static int not_active(ad_error *err, bool focus_asked)
{
    if (focus_asked) {
        ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "Focusing a window needs X11; on Wayland "
                                                   "the target window must already be active");
        ad_error_suggest(err, "Bring the window forward by hand or with its own UI, then act "
                              "again");
        ad_error_detail(err, "cause", json_string("wayland_session"));
        return -1;
    }
    return ad_linux_frame_not_active(err);
}

/* The window checks, before anything is sent. */
static int check_windows(sd_bus *bus, const ad_phys_req *req, int64_t deadline_us,
                         ad_error *err)
{
    /* verify_window_id: nothing on Wayland tells which window shows a screen point, so the
     * point is sent unverified. It is a screen point: the shared resolution refuses
     * window-relative bounds before the op (core/action.c, AD_FIELD_WINDOW_RELATIVE). */
    const char *id = req->require_active_window_id ? req->require_active_window_id
                                                   : req->focus_window_id;
    if (!id)
        return 0;
    bool active = false;
    if (window_active(bus, req->window, id, deadline_us, &active, err) < 0)
        return -1;
    return active ? 0 : not_active(err, !req->require_active_window_id);
}

static const char *label_of(ad_phys_kind k)
{
    switch (k) {
    case AD_PHYS_CLICK: return "pointer_click";
    case AD_PHYS_MOVE: return "pointer_move";
    case AD_PHYS_WHEEL: return "pointer_wheel";
    case AD_PHYS_DRAG: return "pointer_drag";
    case AD_PHYS_KEYS: return "RemoteDesktop.press_key";
    case AD_PHYS_TEXT: return "RemoteDesktop.type_text";
    case AD_PHYS_FOCUS: break;
    }
    return "RemoteDesktop";
}

/* Sends the plan once; fills *ret_sent with the events the helper counted. */
static int send_plan(const ad_wl_plan *plan, int64_t deadline_us, ad_error *err)
{
    json_t *req = wl_req("send"), *events = ad_wl_plan_json(plan), *reply = NULL;
    if (!req || !events) {
        json_decref(req);
        json_decref(events);
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    }
    json_object_set_new(req, "events", events);
    int rc = ad_helper_request_once(req, deadline_us, &reply, err);
    json_decref(req);
    if (rc == 1) /* the helper exited after ensure: nothing was sent */
        return ad_error_set(err, AD_ACTION_FAILED, "The input helper stopped before the input "
                                                   "was sent");
    if (rc < 0) {
        err->delivery = AD_DELIVERY_UNCERTAIN; /* it may have sent part of the plan */
        ad_error_detail(err, "cause", json_string("wayland_input_session"));
        return -1;
    }
    json_int_t sent = json_integer_value(json_object_get(reply, "sent"));
    const char *why = json_string_value(json_object_get(reply, "error"));
    if (why || sent != plan->sends) {
        ad_error_set(err, AD_ACTION_FAILED, "Mutter took %lld of %d input events: %s",
                     (long long)sent, plan->sends, why ? why : "no reason given");
        ad_error_detail(err, "cause", json_string("wayland_input_session"));
        ad_error_detail(err, "events_sent", json_integer(sent));
        if (sent > 0)
            err->delivery = AD_DELIVERY_UNCERTAIN;
        json_decref(reply);
        return -1;
    }
    json_decref(reply);
    return 0;
}

int ad_wayland_physical(sd_bus *bus, const ad_phys_req *req, int64_t deadline_us,
                        ad_act_result *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (req->kind == AD_PHYS_FOCUS) {
        /* launch --activate and the like: only an already active window passes. */
        if (!req->focus_window_id)
            return 0;
        return ad_wayland_input_ensure(deadline_us, err) < 0 ||
               check_windows(bus, req, deadline_us, err) < 0 ? -1 : 0;
    }
    ad_wl_plan plan;
    if (ad_wl_plan_build(req, &plan, err) < 0)
        return -1;
    /* The session first: windows report `active` only while it exists. */
    int rc = -1;
    if (ad_wayland_input_ensure(deadline_us, err) < 0 ||
        check_windows(bus, req, deadline_us, err) < 0 || send_plan(&plan, deadline_us, err) < 0)
        goto done;
    ad_act_step *s = &ret->steps[ret->n_steps++];
    snprintf(s->label, sizeof(s->label), "%s", label_of(req->kind));
    s->mechanism = "physical_synthetic";
    s->outcome = "succeeded";
    if (req->kind != AD_PHYS_KEYS && req->kind != AD_PHYS_TEXT) {
        ret->has_point = true;
        ret->x = req->x;
        ret->y = req->y;
    }
    ret->events = plan.sends;
    ret->delivery = AD_DELIVERED_UNVERIFIED;
    rc = 0;
done:
    ad_wl_plan_clear(&plan);
    return rc;
}
