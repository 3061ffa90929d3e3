/* gnome_notifications.c: GNOME Shell's notification surface from its accessibility tree
 * (gnome_notifications.h). The owner of org.freedesktop.Notifications is checked first, so
 * another daemon (dunst, mako, a test's fake) is named instead of being read as "no
 * notifications". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/deadline.h"
#include "linux/atspi_apps.h"
#include "linux/bus_call.h"
#include "linux/gnome_notifications.h"
#include "linux/notify_client.h"
#include "linux/proc.h"
#include "linux/session_bus.h"
#include "linux/walker.h"

#define NOTIFICATIONS_NAME "org.freedesktop.Notifications"
/* gnome-shell 43: the banner bin's notification sits 4 levels below the application, the
 * message list's rows 15 levels below it. Anything this shallow is a banner. */
#define BANNER_MAX_DEPTH 8
/* GNOME's wall clock writes U+2236 RATIO between hours and minutes ("Dec 1 19∶51"): the
 * top-bar menu that shows it is the date menu, which opens the message list. */
#define CLOCK_RATIO "\xe2\x88\xb6"

static int not_supported(ad_error *err, const char *daemon, const char *fmt, const char *arg)
{
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                 daemon ? "The notification service is not GNOME Shell"
                        : "No notification service is running in this session");
    json_t *detail = json_sprintf(fmt, arg);
    ad_error_detail(err, "daemon", json_string(daemon ? daemon : "absent"));
    ad_error_detail(err, "detail", detail);
    ad_error_detail(err, "retryable", json_false());
    return -1;
}

/* Proves that GNOME Shell serves org.freedesktop.Notifications and finds the shell's pid
 * (the owner of org.gnome.Shell). GNOME 43 serves the name from a gjs helper
 * (/usr/share/gnome-shell/org.gnome.Shell.Notifications, executable gjs-console) that also
 * owns org.gnome.Shell.Notifications and hands each notification to the shell; a shell
 * that owns the name itself counts too. PLATFORM_NOT_SUPPORTED with daemon and detail
 * otherwise. */
static int shell_serving_notifications(int64_t deadline_us, int *ret_shell_pid, ad_error *err)
{
    sd_bus *bus = NULL;
    int r = ad_bus_open(NULL, true, deadline_us, &bus);
    if (r < 0) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                     "No session bus to find the notification service on");
        ad_error_detail(err, "daemon", json_string("absent"));
        ad_error_detail(err, "detail", json_sprintf("cannot connect to the session bus: %s",
                                                    strerror(-r)));
        return -1;
    }
    sd_bus_error e = SD_BUS_ERROR_NULL;
    char *owner = NULL, *helper = NULL, *shell = NULL;
    int rc = -1, has = ad_bus_name_owner(bus, deadline_us, NOTIFICATIONS_NAME, &owner, &e);
    if (has == 0) {
        rc = not_supported(err, NULL, "no service owns %s", NOTIFICATIONS_NAME);
    } else if (has > 0 && ad_bus_name_owner(bus, deadline_us, "org.gnome.Shell.Notifications", &helper,
                                     &e) >= 0 &&
               ad_bus_name_owner(bus, deadline_us, "org.gnome.Shell", &shell, &e) >= 0) {
        bool by_shell = (helper && strcmp(helper, owner) == 0) ||
                        (shell && strcmp(shell, owner) == 0);
        int shell_pid = shell ? ad_atspi_bus_pid(bus, shell, deadline_us) : 0;
        if (by_shell && shell_pid > 0) {
            *ret_shell_pid = shell_pid;
            rc = 0;
        } else {
            int pid = ad_atspi_bus_pid(bus, owner, deadline_us);
            char *exe = pid > 0 ? ad_proc_exe_name(pid) : NULL;
            rc = not_supported(err, exe ? exe : owner,
                               "org.freedesktop.Notifications is owned by %s, not GNOME Shell",
                               exe ? exe : owner);
            free(exe);
        }
    }
    if (rc < 0 && !err->code) {
        ad_error_set(err, AD_TIMEOUT, "The session bus did not say who owns %s",
                     NOTIFICATIONS_NAME);
        ad_error_platform_detail(err, e.message ? e.message : "no answer");
    }
    sd_bus_error_free(&e);
    free(owner);
    free(helper);
    free(shell);
    ad_bus_close(bus);
    return rc;
}

/* ---- the tree --------------------------------------------------------------------------- */

static bool role_is(const ad_node *n, const char *role)
{
    return n->role && strcmp(n->role, role) == 0;
}

static bool on_screen(const ad_node *n)
{
    /* GNOME Shell 43 reports INT_MIN extents for an actor never mapped (the message list
     * before it first opened, a banner's collapsed action row): those read as unknown
     * bounds. A list closed again keeps its last extents without SHOWING (offscreen). */
    return n->bounds_state == AD_FIELD_KNOWN && n->bounds.width > 0 && n->bounds.height > 0 &&
           !(n->states & ((1u << AD_ST_HIDDEN) | (1u << AD_ST_OFFSCREEN)));
}

/* The first node under n (n included, document order) with this role and a name (named)
 * or none (!named); NULL when none. */
static const ad_node *first_of(const ad_node *n, const char *role, bool named)
{
    if (role_is(n, role) && (ad_text_get(&n->name) != NULL) == named)
        return n;
    for (size_t i = 0; i < n->n_children; i++) {
        const ad_node *hit = first_of(n->children[i], role, named);
        if (hit)
            return hit;
    }
    return NULL;
}

/* Every named button under n: the action buttons (the close button has no name). */
static int collect_actions(const ad_node *n, ad_notification *out)
{
    if (role_is(n, "button") && ad_text_get(&n->name)) {
        char **names = realloc(out->actions, (out->n_actions + 1) * sizeof(*names));
        if (names)
            out->actions = names;
        ad_rect *at = realloc(out->action_at, (out->n_actions + 1) * sizeof(*at));
        if (at)
            out->action_at = at;
        char *copy = strdup(ad_text_get(&n->name));
        if (!names || !at || !copy) {
            free(copy);
            return -1;
        }
        out->actions[out->n_actions] = copy;
        out->action_at[out->n_actions++] = on_screen(n) ? n->bounds : (ad_rect){0};
        return 0;
    }
    for (size_t i = 0; i < n->n_children; i++)
        if (collect_actions(n->children[i], out) < 0)
            return -1;
    return 0;
}

/* One notification object: the header row holds the title label, a time label ("Just now",
 * empty while the list is closed) and the close button; the body label is in the row after
 * it (a banner the pointer expanded has the body twice, once hidden). */
static int parse_one(const ad_node *n, ad_notification *out)
{
    memset(out, 0, sizeof(*out));
    out->on_screen = on_screen(n);
    if (out->on_screen)
        out->bounds = n->bounds;
    const ad_node *title = first_of(n, "statictext", true);
    const ad_node *header = title ? title->parent : NULL;
    if (title && !(out->title = strdup(ad_text_get(&title->name))))
        return -1;
    const ad_node *close = header ? first_of(header, "button", false) : NULL;
    if (close && on_screen(close)) {
        out->close_known = true;
        out->close = close->bounds;
    }
    const ad_node *content = header ? header->parent : NULL;
    for (size_t i = header ? header->index_in_parent + 1 : 0; content && i < content->n_children;
         i++) {
        const ad_node *body = first_of(content->children[i], "statictext", true);
        if (body) {
            if (!(out->body = strdup(ad_text_get(&body->name))))
                return -1;
            break;
        }
    }
    return collect_actions(n, out);
}

static bool is_clock_menu(const ad_node *n)
{
    if (!role_is(n, "menu") || !on_screen(n))
        return false;
    const ad_node *label = first_of(n, "statictext", true);
    return label && strstr(ad_text_get(&label->name), CLOCK_RATIO);
}

/* Appends one to the list (moved in). -1 when out of memory (one is cleared). */
static int append_row(ad_notification_surface *s, ad_notification *one)
{
    ad_notification *items = realloc(s->items, (s->count + 1) * sizeof(*items));
    if (!items) {
        ad_notification_clear(one);
        return -1;
    }
    s->items = items;
    s->items[s->count++] = *one;
    return 0;
}

static int walk(const ad_node *n, int depth, ad_notification_surface *s)
{
    if (role_is(n, "alert")) {
        ad_notification one;
        if (parse_one(n, &one) < 0) {
            ad_notification_clear(&one);
            return -1;
        }
        if (depth > BANNER_MAX_DEPTH)
            return append_row(s, &one);
        /* A banner is a copy of a list row; only the one showing can be pressed. */
        if (!s->has_banner && one.on_screen) {
            s->banner = one;
            s->has_banner = true;
        } else {
            ad_notification_clear(&one);
        }
        return 0;
    }
    if (!s->toggle_known && is_clock_menu(n)) {
        s->toggle_known = true;
        s->toggle = n->bounds;
    }
    for (size_t i = 0; i < n->n_children; i++)
        if (walk(n->children[i], depth + 1, s) < 0)
            return -1;
    return 0;
}

int ad_gnome_notifications_parse(const ad_node *root, ad_notification_surface *ret)
{
    memset(ret, 0, sizeof(*ret));
    if (root && walk(root, 0, ret) < 0) {
        ad_notification_surface_clear(ret);
        return -1;
    }
    return 0;
}

int ad_gnome_read_notifications(sd_bus *a11y, int64_t deadline_us, ad_notification_surface *ret,
                                ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    int pid = 0;
    if (shell_serving_notifications(deadline_us, &pid, err) < 0)
        return -1;
    ad_app_list apps = {0};
    if (ad_atspi_list_apps(a11y, NULL, deadline_us, &apps, err) < 0)
        return -1;
    const ad_app *shell = NULL;
    for (size_t i = 0; i < apps.count && !shell; i++)
        if (apps.items[i].pid == pid && apps.items[i].handle)
            shell = &apps.items[i];
    if (!shell) {
        ad_app_list_clear(&apps);
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                     "GNOME Shell (pid %d) is not on the accessibility bus", pid);
        ad_error_suggest(err, "Turn on accessibility in GNOME (toolkit-accessibility)");
        ad_error_detail(err, "daemon", json_string("gnome-shell"));
        return -1;
    }
    ad_read_limits lim = ad_read_limits_default(deadline_us);
    lim.all_bounds = true;
    ad_tree tree = {0};
    ad_window_frame frame;
    int rc = ad_atspi_read_tree(a11y, shell->handle, "/org/a11y/atspi/accessible/root", &lim,
                                &tree, &frame, err);
    ad_app_list_clear(&apps);
    if (rc == 0 && ad_gnome_notifications_parse(tree.root, ret) < 0)
        rc = ad_error_set(err, AD_INTERNAL, "out of memory reading notifications");
    /* A cut read may have missed rows: absence is never proven from it. */
    if (rc == 0 && !tree.complete) {
        ad_notification_surface_clear(ret);
        rc = ad_error_set(err, AD_TIMEOUT, "GNOME Shell's tree could not be read in time (%s)",
                          tree.cut_reason ? tree.cut_reason : "cut");
    }
    ad_tree_clear(&tree);
    /* The tree never names the sender: the helper's monitor may prove it (notify_match.h). */
    if (rc == 0)
        ad_notify_name_apps(ret, deadline_us);
    return rc;
}
