/* atspi_windows.c: top-level windows of AT-SPI applications (list-windows, window lookup).
 * A window is a child of an application root with a window role that has been shown
 * (VISIBLE or ICONIFIED); never-shown popups of GTK3 are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux/atspi_apps.h"
#include "linux/atspi_bus.h"
#include "linux/atspi_map.h"
#include "linux/atspi_read.h"
#include "linux/bus_call.h"
#include "linux/dbus_pipe.h"
#include "linux/physical.h" /* ad_linux_wayland_session */
#include "linux/proc.h"
#include "linux/shell_frames.h"
#include "linux/gnome_shell.h"
#include "linux/shell_surfaces.h"
#include "linux/x11_origin.h"

#define STATE_ACTIVE 1u
#define STATE_DEFUNCT 6u
#define STATE_MODAL 16u
#define STATE_ICONIFIED 15u
#define STATE_SHOWING 25u
#define STATE_VISIBLE 30u

typedef struct app_ctx app_ctx;

typedef struct win_probe {
    app_ctx *app;
    char *bus, *path;
    uint32_t role;
    ad_atspi_states states;
    char *name;
    ad_rect bounds;
    int answers; /* role, state, name, extents, attributes */
    bool have_role, have_states, have_bounds, failed;
    bool popup_menu; /* GTK3 "window-type" attribute "popup-menu" */
    struct win_probe *next;
} win_probe;

struct app_ctx {
    ad_pipe *pipe;
    const ad_app *app;
    int pid;
    char *instance, *name;
    bool answered;    /* the child count came back */
    int32_t children_asked, children_answered; /* GetChildAtIndex calls and their replies */
    bool unanswering; /* the app stayed silent past its answer budget */
    char *toolkit, *toolkit_version; /* Application properties, read with the child count */
    win_probe *wins;
};

static bool window_role(uint32_t role)
{
    /* alert 2, color chooser 9, dialog 16, file chooser 19, font chooser 22, frame 23,
     * window 69; filler 20 is how Qt 5 exposes a top-level plain QWidget (no QMainWindow or
     * QDialog), and only application roots' children are asked here. */
    return role == 2 || role == 9 || role == 16 || role == 19 || role == 20 || role == 22 ||
           role == 23 || role == 69;
}

/* The pipe cancels what is left at the deadline, and what an app left unanswered past its
 * answer budget: that is no answer, not a refusal. */
static bool cancelled(const sd_bus_error *e)
{
    return ad_pipe_no_reply(e);
}

static void on_role(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    win_probe *w = ud;
    if (cancelled(e))
        return;
    w->answers++;
    if (m && sd_bus_message_read(m, "u", &w->role) >= 0)
        w->have_role = true;
    else
        w->failed = e != NULL;
}

static void on_state(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    win_probe *w = ud;
    if (cancelled(e))
        return;
    w->answers++;
    if (m && ad_atspi_read_state_set(m, &w->states) >= 0) {
        w->have_states = true;
    } else {
        w->failed = e != NULL;
    }
}

static void on_name(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    win_probe *w = ud;
    const char *s;
    if (cancelled(e))
        return;
    w->answers++;
    if (m && sd_bus_message_read(m, "v", "s", &s) >= 0 && *s)
        w->name = strdup(s);
}

static void on_extents(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    win_probe *w = ud;
    int32_t x, y, wd, h;
    if (cancelled(e))
        return;
    w->answers++;
    if (m && sd_bus_message_read(m, "(iiii)", &x, &y, &wd, &h) >= 0 &&
        ad_atspi_extents_readable(x, y)) {
        w->bounds = (ad_rect){x, y, wd, h};
        w->have_bounds = true;
    }
}

/* GTK 3.24 exposes the GdkWindowTypeHint of a top level as the attribute "window-type". An
 * unattached GtkMenu (a context menu from gtk_menu_popup_at_pointer) is its own top level of
 * role `window` with "window-type" "popup-menu", holding the `menu`; attached menus stay inside
 * their window's tree instead. */
static void on_attributes(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    win_probe *w = ud;
    const char *k, *v;
    if (cancelled(e))
        return;
    w->answers++;
    if (!m || sd_bus_message_enter_container(m, 'a', "{ss}") < 0)
        return; /* no attributes: an ordinary window, as before this was read */
    while (sd_bus_message_read(m, "{ss}", &k, &v) > 0)
        if (strcmp(k, "window-type") == 0 && strcmp(v, "popup-menu") == 0)
            w->popup_menu = true;
}

static void probe_window(app_ctx *a, const char *bus, const char *path)
{
    win_probe *w = calloc(1, sizeof(*w));
    if (!w)
        return;
    w->app = a;
    w->bus = strdup(bus);
    w->path = strdup(path);
    w->next = a->wins;
    a->wins = w;
    ad_pipe_call(a->pipe, bus, path, ATSPI_IFACE_ACCESSIBLE, "GetRole", NULL, on_role, w);
    ad_pipe_call(a->pipe, bus, path, ATSPI_IFACE_ACCESSIBLE, "GetState", NULL, on_state, w);
    ad_pipe_args name = {.sig = "ss", .s = {ATSPI_IFACE_ACCESSIBLE, "Name"}};
    ad_pipe_call(a->pipe, bus, path, DBUS_IFACE_PROPERTIES, "Get", &name, on_name, w);
    ad_pipe_args ext = {.sig = "u", .u = 0};
    ad_pipe_call(a->pipe, bus, path, ATSPI_IFACE_COMPONENT, "GetExtents", &ext, on_extents, w);
    ad_pipe_call(a->pipe, bus, path, ATSPI_IFACE_ACCESSIBLE, "GetAttributes", NULL,
                 on_attributes, w);
}

static void on_child(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    app_ctx *a = ud;
    const char *bus, *path;
    /* A D-Bus error (the child went away) is an answer; the pipe's own errors are not. */
    if (ad_pipe_no_reply(e)) {
        a->unanswering |= ad_pipe_unanswered(e);
        return;
    }
    a->children_answered++;
    if (m && sd_bus_message_read(m, "(so)", &bus, &path) >= 0)
        probe_window(a, bus, path);
}

static void on_child_count(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    app_ctx *a = ud;
    int32_t n;
    a->unanswering |= ad_pipe_unanswered(e);
    if (!m || sd_bus_message_read(m, "v", "i", &n) < 0)
        return;
    a->answered = true;
    for (int32_t i = 0; i < n && i < 256; i++) {
        ad_pipe_args idx = {.sig = "i", .i = {i}};
        a->children_asked++;
        ad_pipe_call(a->pipe, a->app->handle, ATSPI_ROOT_PATH, ATSPI_IFACE_ACCESSIBLE,
                     "GetChildAtIndex", &idx, on_child, a);
    }
}

/* Turns a probe into a window row; false when it is not a shown top-level window. */
static bool to_window(const win_probe *w, const app_ctx *a, ad_window *out)
{
    if (!w->have_role || !w->have_states || !window_role(w->role) ||
        ad_atspi_state_has(w->states, STATE_DEFUNCT))
        return false;
    bool iconified = ad_atspi_state_has(w->states, STATE_ICONIFIED);
    bool visible = ad_atspi_state_has(w->states, STATE_VISIBLE) &&
                   ad_atspi_state_has(w->states, STATE_SHOWING);
    if (!visible && !iconified)
        return false;
    memset(out, 0, sizeof(*out));
    out->id = ad_atspi_window_id(w->bus, w->path);
    out->title = w->name ? strdup(w->name) : NULL;
    out->app_name = a->app->name ? strdup(a->app->name) : NULL;
    out->pid = a->app->pid;
    out->process_instance = a->app->process_instance ? strdup(a->app->process_instance) : NULL;
    out->bounds_known = w->have_bounds;
    out->bounds = w->bounds;
    out->is_focused = ad_atspi_state_has(w->states, STATE_ACTIVE);
    out->minimized = iconified;
    out->visible = visible && !iconified;
    out->accessible = true;
    /* alert 2; dialog 16, file/color/font choosers 19, 9, 22 are dialogs; a popup-menu
     * window 69 is a menu's own top level. */
    out->kind = w->role == 2 ? "alert"
              : (w->role == 16 || w->role == 19 || w->role == 9 || w->role == 22) ? "dialog"
              : (w->role == 69 && w->popup_menu)                                  ? "menu"
                                                                                    : "window";
    out->modal = ad_atspi_state_has(w->states, STATE_MODAL);
    return true;
}

static void free_probes(win_probe *w)
{
    while (w) {
        win_probe *next = w->next;
        free(w->bus);
        free(w->path);
        free(w->name);
        free(w);
        w = next;
    }
}

/* What the X server knows and AT-SPI does not, for the windows of one app (from `from` on):
 * - every window with one matching X client gets that client's visible rectangle
 *   (ad_x11_client_visible: what a screenshot of it shows, the rectangle the window
 *   commands write and read back): GTK 4 reports a window at 0,0 with the size of its
 *   content box, GTK 3 its X window with the shadow, Qt its client window without the
 *   window manager's frame;
 * - a GTK 4 window without a matching X window has unknown bounds, never wrong ones;
 * - a window AT-SPI leaves nameless (gtk3-widget-factory's) takes its X title, _NET_WM_NAME
 *   then WM_NAME.
 * The X clients are read once per list (*clients, read on first need: *read_state
 * 0 not yet, 1 read, -1 no X). */
static void apply_x11_facts(const app_ctx *a, ad_window_list *l, size_t from,
                            ad_x11_clients *clients, int *read_state)
{
    bool gtk4 = ad_atspi_toolkit_is_gtk4(a->toolkit, a->toolkit_version);
    for (size_t i = from; i < l->count; i++) {
        ad_window *w = &l->items[i];
        bool nameless = !w->title || !*w->title;
        if (*read_state == 0)
            *read_state = ad_x11_clients_read(clients) == 0 ? 1 : -1;
        const ad_x11_client *c =
            *read_state > 0 ? ad_x11_client_of_window(clients, w->pid, w->title,
                                                      w->bounds_known ? &w->bounds : NULL,
                                                      gtk4)
                            : NULL;
        if (gtk4 && !c)
            w->bounds_known = false;
        if (c) {
            w->bounds = ad_x11_client_visible(c);
            w->bounds_known = true;
        }
        if (c && nameless && c->title && *c->title) {
            free(w->title);
            w->title = strdup(c->title);
        }
    }
}

/* The Wayland counterpart of apply_x11_facts: AT-SPI's window extents are 0,0 and the
 * window's size there (gnome-shell's own are on the screen). A window matched in GNOME Shell's
 * list (ad_shell_window_of: pid, title, size, one candidate) takes Mutter's frame rectangle,
 * the compositor's focus and its minimized state; any other keeps unknown bounds, never the
 * window-relative ones. The shell's list is read once per list (*shell, *read_state as
 * there: 0 not yet, 1 read, -1 unavailable). */
static void apply_shell_facts(ad_window_list *l, size_t from, ad_shell_reader *reader,
                              int64_t deadline_us, ad_shell_windows *shell, int *read_state)
{
    for (size_t i = from; i < l->count; i++) {
        ad_window *w = &l->items[i];
        if (*read_state == 0)
            *read_state =
                ad_shell_frames_read(reader, deadline_us, shell) == AD_SHELL_FRAMES_OK ? 1 : -1;
        if (*read_state > 0 && w->pid > 0 && w->pid == shell->shell_pid)
            continue;
        ad_rect origin;
        const ad_shell_window *s =
            *read_state > 0 && w->bounds_known
                ? ad_shell_window_of(shell, w->pid, w->title, w->bounds.width,
                                     w->bounds.height, &origin)
                : NULL;
        w->bounds_known = s != NULL;
        if (!s)
            continue;
        w->bounds = s->frame;
        w->is_focused = s->focused;
        w->minimized = s->minimized;
        w->visible = !s->minimized;
    }
}

/* Chromium (156) keeps two nameless frames for the address bar's suggestion popup that claim
 * VISIBLE and SHOWING while their X windows are unmapped. A window without a title can only
 * be checked by its place: it counts as shown when the X server shows a viewable window of
 * its process at its bounds (as Chromium's open <select> popup is). Without X the claim
 * stands. */
static void drop_unshown_nameless(ad_window_list *l, size_t from)
{
    for (size_t i = from; i < l->count;) {
        ad_window *w = &l->items[i];
        bool nameless = !w->title || !*w->title;
        if (nameless && w->visible && w->bounds_known && w->bounds.width > 0 &&
            ad_x11_pid_shows_rect(w->pid, (int)w->bounds.x, (int)w->bounds.y,
                                  (int)w->bounds.width, (int)w->bounds.height) == 0) {
            ad_window_clear(w);
            memmove(w, w + 1, (l->count - i - 1) * sizeof(*w));
            l->count--;
            continue;
        }
        i++;
    }
}

int ad_atspi_list_windows(sd_bus *bus, ad_shell_reader *reader, const ad_app_list *apps,
                          int64_t deadline_us, ad_window_list *ret, ad_error *err)
{
    ad_app_list all = {0};
    ad_shell_reader own = {0}; /* without the caller's: this call's alone */
    memset(ret, 0, sizeof(*ret));
    if (!apps) {
        if (ad_atspi_list_apps(bus, NULL, deadline_us, &all, err) < 0)
            return -1;
        apps = &all;
    }
    /* The apps the inventory could not read: their windows are unknown, never absent. */
    ret->unanswered = apps->n_skipped;
    for (size_t i = 0; i < apps->n_skipped; i++)
        ret->unresponsive += strcmp(apps->skipped[i].reason, "unresponsive") == 0;
    ad_pipe *pipe = ad_pipe_new(bus, 16);
    app_ctx *ctxs = calloc(apps->count ? apps->count : 1, sizeof(*ctxs));
    if (!pipe || !ctxs) {
        ad_pipe_free(pipe);
        free(ctxs);
        ad_app_list_clear(&all);
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    }
    ad_pipe_set_answer_budget(pipe, AD_ATSPI_APP_ANSWER_BUDGET_US);
    for (size_t i = 0; i < apps->count; i++) {
        ctxs[i] = (app_ctx){.pipe = pipe, .app = &apps->items[i]};
        ad_pipe_args cc = {.sig = "ss", .s = {ATSPI_IFACE_ACCESSIBLE, "ChildCount"}};
        ad_pipe_call(pipe, apps->items[i].handle, ATSPI_ROOT_PATH, DBUS_IFACE_PROPERTIES, "Get",
                     &cc, on_child_count, &ctxs[i]);
        /* In the same batch: whether GTK 4 extents need the X origin (apply_x11_facts). */
        ad_atspi_request_toolkit(pipe, apps->items[i].handle, &ctxs[i].toolkit,
                                 &ctxs[i].toolkit_version);
    }
    ad_pipe_run(pipe, deadline_us);
    ad_pipe_free(pipe);
    size_t cap = 0;
    ad_x11_clients clients = {0};
    int clients_read = 0; /* 0 not yet, 1 read, -1 no X */
    ad_shell_windows shell = {0};
    int shell_read = 0; /* the same for GNOME Shell's list on Wayland */
    bool wayland = ad_linux_wayland_session();
    for (size_t i = 0; i < apps->count; i++) {
        /* The child count, or a child it promised, did not come back: unknown windows. */
        if (!ctxs[i].answered || ctxs[i].children_answered < ctxs[i].children_asked) {
            ret->unanswered++;
            ret->unresponsive += ctxs[i].unanswering;
        }
        /* Probes were pushed in reverse; emit windows in child order. */
        win_probe *rev = NULL;
        for (win_probe *w = ctxs[i].wins; w;) {
            win_probe *next = w->next;
            w->next = rev;
            rev = w;
            w = next;
        }
        ctxs[i].wins = rev;
        size_t first_of_app = ret->count;
        for (win_probe *w = rev; w; w = w->next) {
            if (ret->count == cap) {
                cap = cap ? cap * 2 : 8;
                ad_window *l = realloc(ret->items, cap * sizeof(*l));
                if (!l)
                    break;
                ret->items = l;
            }
            if (to_window(w, &ctxs[i], &ret->items[ret->count]))
                ret->count++;
            else if (w->answers < 5 && !w->failed)
                ret->unanswered++; /* not answered in time: unknown, never absent */
        }
        free_probes(ctxs[i].wins);
        if (wayland)
            apply_shell_facts(ret, first_of_app, reader ? reader : &own, deadline_us, &shell,
                              &shell_read);
        else
            apply_x11_facts(&ctxs[i], ret, first_of_app, &clients, &clients_read);
        /* After: a window that took its title from a managed X client is shown. */
        drop_unshown_nameless(ret, first_of_app);
        /* gnome-shell's stage is no app window; its open surfaces are (shell_surfaces.h). */
        if (ad_shell_is_shell_app(ctxs[i].app)) {
            ad_shell_surface_windows(bus, &(reader ? reader : &own)->session, ctxs[i].app,
                                     deadline_us, ret, first_of_app);
            cap = ret->count; /* the list was reallocated to its count */
        }
        free(ctxs[i].toolkit);
        free(ctxs[i].toolkit_version);
    }
    ad_x11_clients_free(&clients);
    ad_shell_windows_free(&shell);
    ad_shell_reader_close(&own);
    free(ctxs);
    ad_app_list_clear(&all);
    return 0;
}

/* Whether a bus name has an owner: 1 yes, 0 no, -1 unknown (the call did not come back, for
 * instance because the deadline had already passed). */
static int name_has_owner(sd_bus *bus, const char *name, int64_t deadline_us)
{
    sd_bus_message *reply = NULL;
    int has = -1;
    if (ad_bus_call_method(bus, deadline_us, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                           "org.freedesktop.DBus", "NameHasOwner", NULL, &reply, "s",
                           name) >= 0 &&
        sd_bus_message_read(reply, "b", &has) < 0)
        has = -1;
    sd_bus_message_unref(reply);
    return has;
}

int ad_atspi_window_lookup(sd_bus *bus, ad_shell_reader *shell, const char *window_id,
                           int64_t deadline_us, ad_window *ret, ad_error *err)
{
    char *wbus = NULL, *wpath = NULL;
    if (ad_atspi_window_id_parse(window_id, &wbus, &wpath) < 0) {
        ad_error_set(err, AD_WINDOW_NOT_FOUND, "No window has id '%s'", window_id);
        ad_error_suggest(err, "Run list-windows and use an id it reports");
        return -1;
    }
    ad_app_list apps = {0};
    ad_window_list wins = {0};
    int rc = -1;
    if (ad_atspi_probe_app(bus, wbus, deadline_us, &apps, err) < 0)
        goto done;
    if (apps.count == 0 && name_has_owner(bus, wbus, deadline_us) != 0) {
        /* The process is on the bus (or that could not be asked in time) but did not answer:
         * unknown, not absent. */
        ad_error_set(err, AD_TIMEOUT, "The application owning window '%s' did not answer "
                                      "before the deadline", window_id);
        /* No flag named: several commands without --timeout-ms look windows up. */
        ad_error_suggest(err, "The application may be busy; retry when it answers again");
        ad_error_detail(err, "kind", json_string("deadline"));
        goto done;
    }
    if (apps.count == 1 && ad_atspi_list_windows(bus, shell, &apps, deadline_us, &wins, err) < 0)
        goto done;
    for (size_t i = 0; i < wins.count; i++)
        if (strcmp(wins.items[i].id, window_id) == 0) {
            *ret = wins.items[i];
            memset(&wins.items[i], 0, sizeof(wins.items[i]));
            rc = 0;
            goto done;
        }
    if (wins.unanswered > 0) {
        ad_error_set(err, AD_TIMEOUT, "The application owning window '%s' did not list its "
                                      "windows before the deadline", window_id);
        ad_error_detail(err, "kind", json_string("deadline"));
        goto done;
    }
    ad_error_set(err, AD_WINDOW_NOT_FOUND, "No window has id '%s'", window_id);
    ad_error_suggest(err, "The window may have closed. Run list-windows and use an id it "
                          "reports");
done:
    ad_window_list_clear(&wins);
    ad_app_list_clear(&apps);
    free(wbus);
    free(wpath);
    return rc;
}
