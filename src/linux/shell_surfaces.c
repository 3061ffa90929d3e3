/* shell_surfaces.c: the GNOME Shell surface kinds (shell_surfaces.h). */
#include "linux/shell_surfaces.h"

#include <stdlib.h>
#include <string.h>

#include "linux/bus_call.h"
#include "linux/gnome_shell.h"

/* The top bar's buttons are 7 levels below the application, the menus 3. */
#define SHELL_READ_DEPTH 8
#define SNW_NAME "org.kde.StatusNotifierWatcher"

/* One read of the shell with what the kinds are found by. */
typedef struct {
    ad_app app;
    ad_tree tree;
    const ad_node *ui_group, *top_bar;
} shell_read;

static void shell_read_clear(shell_read *r)
{
    ad_tree_clear(&r->tree);
    ad_app_clear(&r->app);
}

/* 1 read, 0 no GNOME Shell on the bus, -1 err. */
static int shell_open(sd_bus *bus, const ad_app *known, int64_t deadline_us, shell_read *ret,
                      ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    int found = known ? (ad_app_copy(&ret->app, known) == 0 ? 1 : -1)
                      : ad_shell_find_app(bus, deadline_us, &ret->app, err);
    if (found <= 0) {
        if (found < 0 && known)
            ad_error_set(err, AD_INTERNAL, "out of memory");
        return found;
    }
    if (ad_shell_read(bus, &ret->app, SHELL_READ_DEPTH, deadline_us, &ret->tree, err) < 0) {
        shell_read_clear(ret);
        return -1;
    }
    ret->ui_group = ad_shell_ui_group(ad_shell_stage(&ret->tree));
    ret->top_bar = ad_shell_top_bar(ret->ui_group);
    return 1;
}

/* The clock: the first menu button in the bar's center box. */
static const ad_node *clock_button(const shell_read *r)
{
    return ad_shell_find_shown(ad_shell_top_bar_box(r->top_bar, AD_SHELL_BOX_CENTER), "menu",
                               NULL);
}

/* Whether a StatusNotifierWatcher runs: 1 yes, 0 no or unknown (never offered unproved). */
static int tray_watcher(ad_session_link *link, int64_t deadline_us)
{
    sd_bus *session = ad_session_link_get(link, deadline_us);
    sd_bus_message *reply = NULL;
    int has = 0, r;
    if (!session)
        return 0;
    if ((r = ad_bus_call_method(session, deadline_us, "org.freedesktop.DBus",
                                "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                                NULL, &reply, "s", SNW_NAME)) < 0 ||
        sd_bus_message_read(reply, "b", &has) < 0)
        has = 0;
    if (r < 0)
        ad_session_link_failed(link, r);
    sd_bus_message_unref(reply);
    return has;
}

/* The node a kind shows as while open, and, for a closed one, its opener; false when the
 * session cannot resolve the kind at all. */
static bool locate(const shell_read *r, const char *kind, bool tray_watched,
                   const ad_node **ret_open, const ad_node **ret_opener)
{
    *ret_open = *ret_opener = NULL;
    if (strcmp(kind, "action-center") == 0) {
        const ad_node *clock = clock_button(r);
        if (!clock)
            return false;
        *ret_open = ad_shell_bar_menu_of(r->ui_group, r->top_bar, clock);
        *ret_opener = clock;
        return true;
    }
    if (strcmp(kind, "system-tray") == 0 && tray_watched) {
        const ad_node *area = ad_shell_top_bar_box(r->top_bar, AD_SHELL_BOX_RIGHT);
        *ret_open = area && ad_shell_shown(area) ? area : NULL;
        return *ret_open != NULL;
    }
    return false;
}

static const char *const SHELL_KINDS[] = {"action-center", "system-tray"};
#define N_SHELL_KINDS (sizeof(SHELL_KINDS) / sizeof(SHELL_KINDS[0]))

size_t ad_shell_surface_kinds(sd_bus *bus, ad_session_link *session, int64_t deadline_us,
                              const char **ret, size_t cap)
{
    shell_read r;
    ad_error ignored = AD_ERROR_INIT;
    size_t n = 0;
    if (shell_open(bus, NULL, deadline_us, &r, &ignored) > 0) {
        bool watched = tray_watcher(session, deadline_us) == 1;
        for (size_t i = 0; i < N_SHELL_KINDS && n < cap; i++) {
            const ad_node *open, *opener;
            if (locate(&r, SHELL_KINDS[i], watched, &open, &opener))
                ret[n++] = SHELL_KINDS[i];
        }
        shell_read_clear(&r);
    }
    ad_error_clear(&ignored);
    return n;
}

/* The surface as a window of gnome-shell (ret is the caller's: ad_window_clear). */
static int surface_window(const ad_app *shell, const ad_node *n, ad_window *ret)
{
    memset(ret, 0, sizeof(*ret));
    ret->id = ad_shell_node_window_id(n);
    const char *name = ad_text_get(&n->name);
    ret->title = name ? strdup(name) : NULL;
    ret->app_name = shell->name ? strdup(shell->name) : NULL;
    ret->pid = shell->pid;
    ret->process_instance = shell->process_instance ? strdup(shell->process_instance) : NULL;
    ret->bounds_known = true;
    ret->bounds = n->bounds;
    ret->is_focused = (n->states & (1u << AD_ST_FOCUSED)) != 0;
    ret->visible = true;
    ret->accessible = true;
    ret->kind = "shell"; /* an OS surface: list-surfaces never shows it (surfaces.md) */
    return ret->id && ret->app_name ? 0 : -1;
}

int ad_shell_surface_find(sd_bus *bus, ad_session_link *session, const char *kind,
                          int64_t deadline_us,
                          ad_shell_surface *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    shell_read r;
    int found = shell_open(bus, NULL, deadline_us, &r, err);
    if (found < 0)
        return -1;
    const ad_node *open = NULL, *opener = NULL;
    bool watched = strcmp(kind, "system-tray") == 0 && tray_watcher(session, deadline_us) == 1;
    int rc = -1;
    if (!found || !locate(&r, kind, watched, &open, &opener)) {
        ad_error_set(err, AD_WINDOW_NOT_FOUND, "This session presents no %s surface", kind);
        ad_error_suggest(err, "Run agent-desktop status and use a kind in supported_surfaces");
    } else if (open) {
        ret->open = true;
        rc = surface_window(&r.app, open, &ret->window);
        if (rc < 0)
            ad_error_set(err, AD_INTERNAL, "out of memory");
    } else {
        ret->opener_known = true;
        ret->opener_x = (int)(opener->bounds.x + opener->bounds.width / 2);
        ret->opener_y = (int)(opener->bounds.y + opener->bounds.height / 2);
        rc = 0;
    }
    if (found)
        shell_read_clear(&r);
    if (rc < 0)
        ad_shell_surface_clear(ret);
    return rc;
}

void ad_shell_surface_windows(sd_bus *bus, ad_session_link *session, const ad_app *shell,
                              int64_t deadline_us,
                              ad_window_list *l, size_t from)
{
    for (size_t i = from; i < l->count; i++)
        ad_window_clear(&l->items[i]);
    l->count = from;
    shell_read r;
    ad_error ignored = AD_ERROR_INIT;
    /* Every list of all windows comes here, so a cheap look first: a read of 3 levels (~30
     * nodes, against ~10 ms per list) says whether a menu hangs from the bar at all; only then
     * is the bar read down to its buttons (~90 ms). The tray is always on screen, so a
     * StatusNotifierWatcher makes the deep read happen every time. */
    ad_tree peek = {0};
    bool watched = tray_watcher(session, deadline_us) == 1;
    bool deep = watched;
    if (!deep && ad_shell_read(bus, shell, 3, deadline_us, &peek, &ignored) == 0)
        deep = ad_shell_may_show_bar_menu(ad_shell_ui_group(ad_shell_stage(&peek)));
    ad_tree_clear(&peek);
    if (deep && shell_open(bus, shell, deadline_us, &r, &ignored) > 0) {
        for (size_t k = 0; k < N_SHELL_KINDS; k++) {
            const ad_node *open, *opener;
            if (!locate(&r, SHELL_KINDS[k], watched, &open, &opener) || !open)
                continue;
            ad_window *grown = realloc(l->items, (l->count + 1) * sizeof(*grown));
            if (!grown)
                break;
            l->items = grown;
            if (surface_window(&r.app, open, &l->items[l->count]) == 0)
                l->count++;
            else
                ad_window_clear(&l->items[l->count]);
        }
        shell_read_clear(&r);
    }
    ad_error_clear(&ignored);
}
