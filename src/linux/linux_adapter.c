/* linux_adapter.c: the adapter vtable over AT-SPI (D-Bus via sd-bus). */
#include "linux/linux_adapter.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ctx.h"
#include "core/deadline.h"
#include "linux/app_close.h"
#include "linux/overlay_client.h"
#include "linux/atspi_act.h"
#include "linux/atspi_apps.h"
#include "linux/atspi_bus.h"
#include "linux/atspi_events.h"
#include "linux/bus_call.h"
#include "linux/cdp_http.h"
#include "linux/desktop_entry.h"
#include "linux/gtk4_place.h"
#include "linux/launch_spawn.h"
#include "linux/physical.h"
#include "linux/window_ops.h"
#include "linux/proc.h"
#include "linux/shell_surfaces.h"
#include "linux/walker.h"
#include "linux/x11_clipboard.h"
#include "linux/gnome_notifications.h"
#include "linux/x11_capture.h"
#include "linux/gnome_capture.h"
#include "linux/wayland_displays.h"
#include "linux/x11_input.h"
#include "linux/x11_origin.h"

/* The budget of an operation whose caller gives no deadline (hit tests, a bare act). */
#define DEFAULT_BUDGET_US (2 * 1000 * 1000)

typedef struct {
    ad_adapter base;
    sd_bus *bus;
    ad_atspi_watch *watch; /* armed by watch_changes, for waits */
    char *watch_bus;       /* the app bus it listens to (owned), NULL: every app */
    ad_x11 *held_keys;     /* X connection holding keys remapped for typed text */
    ad_error open_error; /* why the bus could not be opened, kept for every later call */
    /* The installed desktop entries, read on first use (owned; NULL when out of memory:
     * apps then have no bundle id). Per adapter, never process-global. */
    ad_desktop_entries *desktop;
    /* GNOME Shell's window list on Wayland: one session-bus connection and the remembered
     * "not in unsafe mode" for the adapter's life (shell_frames.h); read_window asks on
     * every poll of an action's actionability loop. */
    ad_shell_reader shell;
    bool tried;
} linux_adapter;

/* The least time a connect gets: --timeout-ms 0 still tries once (interaction.md), and a
 * connect is not a poll; a healthy local bus connects in a few ms. */
#define CONNECT_FLOOR_US (1000 * 1000)

/* Opens the bus once, within the deadline of the first operation that needs it (at least
 * CONNECT_FLOOR_US). A failure (a silent bus included) is kept and answers every later call at
 * once, so a command with several operations on a stalled bus pays for it only once. */
static int connect_bus(linux_adapter *la, int64_t deadline_us, ad_error *err)
{
    if (!la->tried) {
        la->tried = true;
        int64_t floor_us = ad_now_us() + CONNECT_FLOOR_US;
        ad_atspi_bus_open(deadline_us > floor_us ? deadline_us : floor_us, &la->bus,
                          &la->open_error);
    }
    if (la->bus)
        return 0;
    if (err) {
        ad_error_set(err, la->open_error.code, "%s", la->open_error.message);
        if (la->open_error.suggestion)
            ad_error_suggest(err, "%s", la->open_error.suggestion);
        ad_error_platform_detail(err, la->open_error.platform_detail);
        if (la->open_error.details)
            err->details = json_deep_copy(la->open_error.details);
    }
    return -1;
}

/* The bus is connected and the registry answers (platforms/linux.md: no registry, no apps). */
static void health(ad_adapter *a, int64_t deadline_us, ad_health *ret)
{
    linux_adapter *la = (linux_adapter *)a;
    ad_error registry = AD_ERROR_INIT;
    memset(ret, 0, sizeof(*ret));
    ret->available = connect_bus(la, deadline_us, NULL) == 0 &&
                     ad_atspi_registry_ping(la->bus, deadline_us, &registry) == 0;
    if (!ret->available) {
        const ad_error *why = la->bus ? &registry : &la->open_error;
        if (why->platform_detail)
            ret->detail = strdup(why->platform_detail);
        if (why->suggestion)
            ret->suggestion = strdup(why->suggestion);
        ret->timed_out = why->code == AD_TIMEOUT;
    }
    ad_error_clear(&registry);
}

static const char *const *supported_surfaces(ad_adapter *a)
{
    (void)a;
    /* GTK menus, sheets (modal dialogs) and alerts are window-owned on X11; no GNOME Shell
     * kinds are read. */
    static const char *const surfaces[] = {"window", "focused", "sheet", "alert", "menu", NULL};
    return surfaces;
}

static int list_apps(ad_adapter *a, int64_t deadline_us, ad_app_list *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    if (connect_bus(la, deadline_us, err) < 0)
        return -1;
    return ad_atspi_list_apps(la->bus, la->desktop, deadline_us, ret, err);
}

static int list_windows(ad_adapter *a, const ad_app_list *apps, int64_t deadline_us,
                        ad_window_list *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    if (connect_bus(la, deadline_us, err) < 0)
        return -1;
    if (apps)
        return ad_atspi_list_windows(la->bus, &la->shell, apps, deadline_us, ret, err);
    ad_app_list all = {0}; /* every app, with this adapter's desktop entries */
    if (ad_atspi_list_apps(la->bus, la->desktop, deadline_us, &all, err) < 0)
        return -1;
    int rc = ad_atspi_list_windows(la->bus, &la->shell, &all, deadline_us, ret, err);
    ad_app_list_clear(&all);
    return rc;
}

static int window_lookup(ad_adapter *a, const char *window_id, int64_t deadline_us,
                         ad_window *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    if (connect_bus(la, deadline_us, err) < 0)
        return -1;
    return ad_atspi_window_lookup(la->bus, &la->shell, window_id, deadline_us, ret, err);
}

static bool process_alive(ad_adapter *a, int pid, const char *instance)
{
    (void)a;
    return ad_proc_alive(pid, instance);
}

static int read_window(ad_adapter *a, const char *window_id, const ad_read_limits *lim,
                       ad_tree *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    char *bus = NULL, *path = NULL;
    if (connect_bus(la, lim->deadline_us, err) < 0)
        return -1;
    if (ad_atspi_window_id_parse(window_id, &bus, &path) < 0) {
        ad_error_set(err, AD_WINDOW_NOT_FOUND, "No window has id '%s'", window_id);
        return -1;
    }
    ad_window_frame frame;
    int rc = ad_atspi_read_tree(la->bus, bus, path, lim, ret, &frame, err);
    /* The pid places a window-relative (GTK 4) or Wayland tree only: a screen-space tree on
     * X11 costs the bus daemon no round trip for it. */
    if (rc == 0)
        ad_gtk4_place_tree(ret, &frame,
                           frame.window_relative || ad_linux_wayland_session()
                               ? ad_atspi_bus_pid(la->bus, bus, lim->deadline_us)
                               : 0,
                           &la->shell);
    int sw = 0, sh = 0;
    if (rc == 0 && ad_x11_screen_size(&sw, &sh) == 0) {
        ret->screen = (ad_rect){0, 0, sw, sh};
        ret->screen_state = AD_FIELD_KNOWN;
    }
    free(bus);
    free(path);
    return rc;
}

static int act(ad_adapter *a, const ad_node *target, const ad_act_req *req,
               ad_act_result *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    int64_t deadline_us = req->deadline_us > 0 ? req->deadline_us
                                               : ad_now_us() + DEFAULT_BUDGET_US;
    if (connect_bus(la, deadline_us, err) < 0)
        return -1;
    return ad_atspi_act(la->bus, target, req, ret, err);
}

static int physical(ad_adapter *a, const ad_phys_req *req, int64_t deadline_us,
                    ad_act_result *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    bool windows = req->focus_window_id || req->verify_window_id ||
                   req->require_active_window_id;
    if (windows && connect_bus(la, deadline_us, err) < 0)
        return -1;
    return ad_linux_physical(la->bus, &la->held_keys, req, deadline_us, ret, err);
}

static void settle_input(ad_adapter *a, bool seen)
{
    ad_linux_physical_settle(&((linux_adapter *)a)->held_keys, seen);
}

static int hit_test(ad_adapter *a, const char *window_id, int x, int y, bool popup_ok,
                    json_t **ret_occluder, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    if (connect_bus(la, ad_now_us() + DEFAULT_BUDGET_US, err) < 0)
        return -1;
    return ad_linux_hit_test(la->bus, window_id, x, y, popup_ok, ret_occluder, err);
}

static int active_window(ad_adapter *a, int *ret_pid, char **ret_title, ad_error *err)
{
    (void)a;
    return ad_linux_active_window(ret_pid, ret_title, err);
}

static int parse_combo(ad_adapter *a, const char *combo, ad_error *err)
{
    (void)a;
    uint32_t keysyms[AD_X11_COMBO_MAX];
    int n = 0;
    return ad_x11_parse_combo(combo, keysyms, &n, err);
}

/* AGENT_DESKTOP_POLL_ONLY=1 disables event wake-ups; the benchmark uses it to measure what
 * the events save. */
static void watch_changes(ad_adapter *a, const char *window_id, int64_t deadline_us)
{
    linux_adapter *la = (linux_adapter *)a;
    if (getenv("AGENT_DESKTOP_POLL_ONLY") || connect_bus(la, deadline_us, NULL) < 0)
        return;
    char *bus = NULL, *path = NULL;
    if (window_id && ad_atspi_window_id_parse(window_id, &bus, &path) < 0)
        bus = NULL;
    free(path);
    /* A watch on another app (an earlier entry of a batch) would report that app's events
     * as this one's evidence (--observe) and miss this one's: it is replaced. */
    bool same = la->watch && (la->watch_bus && bus ? strcmp(la->watch_bus, bus) == 0
                                                   : la->watch_bus == bus);
    if (same) {
        free(bus);
        return;
    }
    ad_atspi_watch_close(la->watch);
    la->watch = NULL;
    free(la->watch_bus);
    la->watch_bus = bus;
    ad_error ignored = AD_ERROR_INIT;
    if (ad_atspi_watch_open(la->bus, bus, deadline_us, &la->watch, &ignored) < 0)
        la->watch = NULL; /* waits fall back to polling */
    ad_error_clear(&ignored);
}

static int take_changes(ad_adapter *a, ad_change_events *ret)
{
    linux_adapter *la = (linux_adapter *)a;
    memset(ret, 0, sizeof(*ret));
    if (!la->watch)
        return 0;
    if (ad_atspi_watch_take(la->watch, ret) < 0) {
        ad_atspi_watch_close(la->watch); /* the bus failed: poll from now on */
        la->watch = NULL;
    }
    return 1;
}

static int wait_change(ad_adapter *a, int64_t until_us)
{
    linux_adapter *la = (linux_adapter *)a;
    if (la->watch) {
        int r = ad_atspi_watch_wait(la->watch, until_us);
        if (r >= 0)
            return r;
        ad_atspi_watch_close(la->watch); /* the bus failed: poll from now on */
        la->watch = NULL;
    }
    int64_t left = until_us - ad_now_us();
    if (left > 0) {
        struct timespec ts = {(time_t)(left / 1000000), (long)(left % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static int window_op(ad_adapter *a, const ad_window *target, const ad_win_req *req,
                     ad_win_result *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    if (connect_bus(la, req->deadline_us, err) < 0)
        return -1;
    return ad_linux_window_op(la->bus, target, req, ret, err);
}

/* ---- apps: launch and close-app (launch_spawn.h, app_close.h, cdp_http.h) ---- */

static int launch_resolve(ad_adapter *a, const char *app, ad_launch_target *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    return ad_launch_resolve(app, la->desktop, ret, err);
}

static int launch_spawn(ad_adapter *a, const ad_launch_target *t, const ad_launch_req *req,
                        int *ret_pid, char **ret_instance, ad_error *err)
{
    (void)a;
    if (ad_launch_spawn(t, req, ret_pid, err) < 0)
        return -1;
    *ret_instance = ad_proc_instance(*ret_pid);
    return 0;
}

static int process_parent(ad_adapter *a, int pid)
{
    (void)a;
    return ad_proc_parent(pid);
}

static bool is_chromium(ad_adapter *a, int pid)
{
    (void)a;
    return ad_launch_is_chromium(pid);
}

static const char *protected_process(ad_adapter *a, int pid)
{
    (void)a;
    /* The window manager by what it publishes (EWMH), its executable name only as the
     * fallback inside ad_proc_protected. */
    const char *wm = ad_x11_protected_window_manager(pid);
    return wm ? wm : ad_proc_protected(pid);
}

static int close_windows(ad_adapter *a, int pid, int *ret_count, ad_error *err)
{
    (void)a;
    return ad_x11_close_pid_windows(pid, ret_count, err);
}

static int signal_process(ad_adapter *a, int pid, const char *instance, bool kill,
                          ad_error *err)
{
    (void)a;
    return ad_proc_signal(pid, instance, kill, err);
}

static int loopback_port(ad_adapter *a, int port, int *ret_port, ad_error *err)
{
    (void)a;
    return ad_loopback_port(port, ret_port, err);
}

static int cdp_version(ad_adapter *a, int port, int64_t deadline_us, json_t **ret,
                       ad_error *err)
{
    (void)a;
    return ad_cdp_version(port, deadline_us, ret, err);
}

static int list_displays(ad_adapter *a, ad_display_list *ret, ad_error *err)
{
    (void)a;
    if (ad_linux_wayland_session()) /* X (Xwayland) sees only its own clients there */
        return ad_wayland_displays(ad_deadline_after_ms(5000), ret, err);
    return ad_x11_displays(ret, err);
}

static int capture(ad_adapter *a, const ad_window *window, const ad_rect *rect, ad_image *ret,
                   ad_error *err)
{
    (void)a;
    if (ad_linux_wayland_session())
        return ad_gnome_capture(window, rect, ret, err);
    return ad_x11_capture(window, rect, ret, err);
}

static size_t shell_surface_kinds(ad_adapter *a, int64_t deadline_us, const char **ret,
                                  size_t cap)
{
    linux_adapter *la = (linux_adapter *)a;
    ad_error ignored = AD_ERROR_INIT;
    size_t n = connect_bus(la, deadline_us, &ignored) == 0
                   ? ad_shell_surface_kinds(la->bus, &la->shell.session, deadline_us, ret, cap)
                   : 0;
    ad_error_clear(&ignored);
    return n;
}

static int shell_surface(ad_adapter *a, const char *kind, int64_t deadline_us,
                         ad_shell_surface *ret, ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    if (connect_bus(la, deadline_us, err) < 0)
        return -1;
    return ad_shell_surface_find(la->bus, &la->shell.session, kind, deadline_us, ret, err);
}

static void destroy(ad_adapter *a)
{
    linux_adapter *la = (linux_adapter *)a;
    ad_atspi_watch_close(la->watch);
    free(la->watch_bus);
    ad_linux_physical_settle(&la->held_keys, false);
    ad_desktop_entries_free(la->desktop);
    ad_shell_reader_close(&la->shell);
    /* No flush: a stalled bus would hold the exit forever, and nothing queued needs
     * delivering (bus_call.h, ad_bus_close). */
    ad_bus_close(la->bus);
    ad_error_clear(&la->open_error);
    free(la);
}

static int read_notifications(ad_adapter *a, int64_t deadline_us, ad_notification_surface *ret,
                              ad_error *err)
{
    linux_adapter *la = (linux_adapter *)a;
    if (connect_bus(la, deadline_us, err) < 0)
        return -1;
    return ad_gnome_read_notifications(la->bus, deadline_us, ret, err);
}

static const ad_adapter_ops linux_ops = {
    .platform = "linux",
    .health = health,
    .supported_surfaces = supported_surfaces,
    .list_apps = list_apps,
    .list_windows = list_windows,
    .window_lookup = window_lookup,
    .process_alive = process_alive,
    .read_window = read_window,
    .act = act,
    .physical = physical,
    .settle_input = settle_input,
    .active_window = active_window,
    .window_op = window_op,
    .hit_test = hit_test,
    .parse_combo = parse_combo,
    .watch_changes = watch_changes,
    .wait_change = wait_change,
    .take_changes = take_changes,
    .launch_resolve = launch_resolve,
    .launch_spawn = launch_spawn,
    .process_parent = process_parent,
    .is_chromium = is_chromium,
    .protected_process = protected_process,
    .close_windows = close_windows,
    .signal_process = signal_process,
    .loopback_port = loopback_port,
    .cdp_version = cdp_version,
    .clipboard_read = ad_x11_clipboard_read,
    .clipboard_write = ad_x11_clipboard_write,
    .clipboard_clear = ad_x11_clipboard_clear,
    .list_displays = list_displays,
    .capture = capture,
    .overlay = ad_linux_overlay,
    .read_notifications = read_notifications,
    .shell_surface_kinds = shell_surface_kinds,
    .shell_surface = shell_surface,
    .destroy = destroy,
};

ad_adapter *ad_linux_adapter_new(void)
{
    linux_adapter *la = calloc(1, sizeof(*la));
    if (!la)
        return NULL;
    la->base.ops = &linux_ops;
    la->desktop = ad_desktop_entries_new();
    return &la->base;
}
