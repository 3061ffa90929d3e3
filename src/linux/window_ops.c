/* window_ops.c: the Linux adapter's window_op (window_ops.h).
 *
 * The target is an AT-SPI window; what the window manager acts on is its X client, found
 * with the same mapping list-windows uses for its bounds (ad_x11_client_of_window), so the
 * rectangle a command writes and reads back is the one list-windows reports. */
#include "linux/window_ops.h"

#include <stdlib.h>
#include <string.h>

#include "linux/atspi_apps.h"
#include "linux/physical.h"
#include "linux/x11_origin.h"
#include "linux/x11_window_ops.h"

uint32_t ad_linux_x_client_of(const ad_window *target, ad_error *err)
{
    ad_x11_clients clients = {0};
    if (ad_x11_clients_read(&clients) < 0) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "Window control needs an X display");
        ad_error_platform_detail(err, "DISPLAY is unset or the X server did not answer");
        return 0;
    }
    const ad_x11_client *c = ad_x11_client_of_window(
        &clients, target->pid, target->title, target->bounds_known ? &target->bounds : NULL,
        false);
    uint32_t w = c ? c->window : 0;
    ad_x11_clients_free(&clients);
    if (!w) {
        ad_error_set(err, AD_WINDOW_NOT_FOUND, "No single X11 window matches window '%s'",
                     target->id);
        ad_error_suggest(err, "Run list-windows and use an id it reports; a window without "
                              "an X11 client (Wayland-native) cannot be managed");
        ad_error_detail(err, "kind", json_string("no_x11_window"));
    }
    return w;
}

/* The AT-SPI window of target's app whose X client is `active` (a modal dialog that took
 * the focus), copied into *ret with is_focused set: the X server has just said so twice,
 * AT-SPI's ACTIVE state can lag. -1 when none matches. */
static int window_of_x(sd_bus *bus, const ad_window *target, uint32_t active,
                       int64_t deadline_us, ad_window *ret)
{
    char *wbus = NULL, *wpath = NULL;
    ad_app_list apps = {0};
    ad_window_list wins = {0};
    ad_x11_clients clients = {0};
    ad_error ignored = AD_ERROR_INIT;
    int rc = -1;
    if (ad_atspi_window_id_parse(target->id, &wbus, &wpath) < 0 ||
        ad_atspi_probe_app(bus, wbus, deadline_us, &apps, &ignored) < 0 ||
        ad_atspi_list_windows(bus, NULL, &apps, deadline_us, &wins, &ignored) < 0 ||
        ad_x11_clients_read(&clients) < 0)
        goto done;
    for (size_t i = 0; i < wins.count && rc < 0; i++) {
        const ad_window *w = &wins.items[i];
        const ad_x11_client *c = ad_x11_client_of_window(
            &clients, w->pid, w->title, w->bounds_known ? &w->bounds : NULL, false);
        if (c && c->window == active && ad_window_copy(ret, w) == 0) {
            ret->is_focused = true;
            rc = 0;
        }
    }
done:
    ad_error_clear(&ignored);
    ad_x11_clients_free(&clients);
    ad_window_list_clear(&wins);
    ad_app_list_clear(&apps);
    free(wbus);
    free(wpath);
    return rc;
}

static int focus(sd_bus *bus, ad_x11 *x, const ad_window *target, uint32_t xid,
                 const ad_win_req *req, ad_win_result *ret, ad_error *err)
{
    uint32_t active = 0;
    snprintf(ret->label, sizeof(ret->label), "EWMH._NET_ACTIVE_WINDOW");
    if (ad_x11_activate_window(x, xid, req->deadline_us, &active, err) < 0) {
        if (err->code != AD_TIMEOUT)
            return -1;
        ad_error_clear(err); /* never focused: core's ACTION_FAILED, reached false */
        return 0;
    }
    /* Name the window that holds the focus as list-windows does, read now (a focus can
     * bring a minimized window back, and a modal dialog may hold it instead). */
    ret->reached = window_of_x(bus, target, active, req->deadline_us, &ret->focused) == 0;
    if (!ret->reached && active == xid) { /* AT-SPI did not answer in time: what was read */
        if (ad_window_copy(&ret->focused, target) < 0)
            return ad_error_set(err, AD_INTERNAL, "out of memory");
        ret->focused.is_focused = true;
        ret->reached = true;
    }
    return 0;
}

int ad_linux_window_op(sd_bus *bus, const ad_window *target, const ad_win_req *req,
                       ad_win_result *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (ad_linux_require_x11("Window control", err) < 0)
        return -1;
    uint32_t xid = ad_linux_x_client_of(target, err);
    ad_x11 *x = NULL;
    if (!xid || ad_x11_open(&x, err) < 0)
        return -1;
    int rc = req->op == AD_WIN_FOCUS ? focus(bus, x, target, xid, req, ret, err)
                                     : ad_x11_window_apply(x, xid, target->pid, req, ret, err);
    ad_x11_close(x);
    return rc;
}
