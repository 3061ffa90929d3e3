/* surface.c: selecting and reading surfaces (what an open menu is: surface_menu.c). */
#include "core/surface.h"

#include <stdlib.h>
#include <string.h>

#include "core/identity.h"
#include "core/surface_popup.h"
#include "core/surface_shell.h"
#include "core/window_select.h"

const char *const ad_surface_kinds[] = {"window", "focused", "sheet", "alert", "menu", NULL};

bool ad_surface_popup_container(const ad_node *n)
{
    if (strcmp(n->role, "menu") == 0)
        return true;
    bool list = strcmp(n->role, "list") == 0 || strcmp(n->role, "listbox") == 0;
    return list && n->parent && n->parent->role && strcmp(n->parent->role, "combobox") == 0;
}

/* The popup container n sits in; NULL when none. */
static const ad_node *popup_of(const ad_node *n)
{
    for (const ad_node *p = n->parent; p; p = p->parent)
        if (ad_surface_popup_container(p))
            return p;
    return NULL;
}

bool ad_surface_in_popup(const ad_node *n)
{
    return popup_of(n) != NULL;
}

void ad_surface_target_point(const ad_node *n, int *ret_x, int *ret_y)
{
    ad_rect r = n->bounds;
    const ad_node *p = popup_of(n);
    /* Qt 5 reports a combo list item as wide as the list's whole view (194 px in an 80 px
     * popup), so its center can fall outside the popup: the point is taken from the part
     * of the item that lies inside its popup when the popup's bounds are known. */
    if (p && p->bounds_state == AD_FIELD_KNOWN && p->bounds.width > 0 && p->bounds.height > 0) {
        double x0 = r.x > p->bounds.x ? r.x : p->bounds.x;
        double y0 = r.y > p->bounds.y ? r.y : p->bounds.y;
        double x1 = r.x + r.width < p->bounds.x + p->bounds.width ? r.x + r.width
                                                                  : p->bounds.x + p->bounds.width;
        double y1 = r.y + r.height < p->bounds.y + p->bounds.height
                        ? r.y + r.height
                        : p->bounds.y + p->bounds.height;
        if (x1 > x0 && y1 > y0)
            r = (ad_rect){x0, y0, x1 - x0, y1 - y0};
    }
    *ret_x = (int)(r.x + r.width / 2);
    *ret_y = (int)(r.y + r.height / 2);
}

static bool kind_supported(const char *kind)
{
    for (size_t i = 0; ad_surface_kinds[i]; i++)
        if (strcmp(ad_surface_kinds[i], kind) == 0)
            return true;
    return false;
}

static int absent(ad_error *err, const char *kind, bool complete)
{
    if (strcmp(kind, "menu") == 0) {
        ad_error_set(err, AD_ELEMENT_NOT_FOUND, "The window does not present an open menu");
        ad_error_suggest(err, "Open the menu first, then snapshot the menu surface");
    } else {
        ad_error_set(err, AD_ELEMENT_NOT_FOUND, "The app presents no %s surface", kind);
        ad_error_suggest(err, "Run list-surfaces to see what is open");
    }
    ad_error_detail(err, "kind", json_string("surface_absent"));
    ad_error_detail(err, "surface", json_string(kind));
    ad_error_detail(err, "complete", json_boolean(complete));
    return -1;
}

/* The candidate windows of the app (or of the focused app), focused first, then visible. */
static int candidate_windows(ad_ctx *ctx, const char *app, int64_t deadline,
                             ad_window_list *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    int rc = app ? ad_app_instance_windows(ctx, app, deadline, ret, err)
                 : ctx->adapter->ops->list_windows(ctx->adapter, NULL, deadline, ret, err);
    if (rc < 0)
        return -1;
    if (!app) { /* no --app: the process of the focused window */
        int pid = 0;
        for (size_t i = 0; i < ret->count; i++)
            if (ret->items[i].is_focused)
                pid = ret->items[i].pid;
        size_t kept = 0;
        for (size_t i = 0; i < ret->count; i++) {
            if (ret->items[i].pid == pid && pid)
                ret->items[kept++] = ret->items[i];
            else
                ad_window_clear(&ret->items[i]);
        }
        ret->count = kept;
    }
    /* Stable order: focused, then visible, then the rest. */
    for (int pass = 0, at = 0; pass < 2; pass++)
        for (size_t i = (size_t)at; i < ret->count; i++) {
            bool want = pass == 0 ? ret->items[i].is_focused : ret->items[i].visible;
            if (want) {
                ad_window t = ret->items[at];
                ret->items[at] = ret->items[i];
                ret->items[i] = t;
                at++;
            }
        }
    return 0;
}

static bool window_is(const ad_window *w, const char *kind)
{
    if (strcmp(kind, "sheet") == 0)
        return w->kind && strcmp(w->kind, "dialog") == 0 && w->modal;
    if (strcmp(kind, "alert") == 0)
        return w->kind && strcmp(w->kind, "alert") == 0;
    return false;
}

static int read_into(ad_ctx *ctx, ad_window *w, const ad_read_limits *lim, ad_surface *ret,
                     ad_error *err)
{
    ret->window = *w;
    memset(w, 0, sizeof(*w));
    return ctx->adapter->ops->read_window(ctx->adapter, ret->window.id, lim, &ret->tree, err);
}

int ad_surface_read(ad_ctx *ctx, const char *kind, const char *app, const char *window_id,
                    const ad_read_limits *lim, ad_surface *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    kind = kind ? kind : "window";
    ad_read_limits select = *lim;
    if (select.select_floor_us > select.deadline_us)
        select.deadline_us = select.select_floor_us;
    const char *canonical = ad_surface_kind_canonical(kind);
    if (canonical && ad_surface_is_shell_kind(canonical))
        return ad_surface_read_shell(ctx, canonical, lim, ret, err);
    if (!canonical || !kind_supported(canonical))
        return ad_surface_unsupported(ctx, kind, select.deadline_us, err);
    kind = canonical;
    ret->kind = kind;
    if (strcmp(kind, "window") == 0 || (strcmp(kind, "focused") == 0 && window_id)) {
        if (ad_window_select(ctx, app, window_id, select.deadline_us, &ret->window, err) < 0 ||
            ctx->adapter->ops->read_window(ctx->adapter, ret->window.id, lim, &ret->tree,
                                           err) < 0)
            return -1;
        ret->root = ret->tree.root;
        return 0;
    }
    ad_window_list wins = {0};
    int rc = -1;
    bool complete = true;
    if (window_id) {
        wins.items = calloc(1, sizeof(ad_window));
        if (!wins.items || ad_window_by_id(ctx, app, window_id, select.deadline_us,
                                           &wins.items[0], err) < 0)
            goto done;
        wins.count = 1;
    } else if (candidate_windows(ctx, app, select.deadline_us, &wins, err) < 0) {
        goto done;
    }
    for (size_t i = 0; i < wins.count; i++) {
        ad_window *w = &wins.items[i];
        if (strcmp(kind, "focused") == 0 ? w->is_focused
            : strcmp(kind, "menu") == 0  ? true
                                         : window_is(w, kind)) {
            if (read_into(ctx, w, lim, ret, err) < 0)
                goto done;
            if (strcmp(kind, "menu") != 0) {
                ret->root = ret->tree.root;
                rc = 0;
                goto done;
            }
            ret->root = ad_surface_open_menu(ret->tree.root);
            if (ret->root) {
                rc = 0;
                goto done;
            }
            complete &= ret->tree.complete;
            ad_tree_clear(&ret->tree);
            ad_window_clear(&ret->window);
        }
    }
    absent(err, kind, complete && wins.unanswered == 0);
done:
    ad_window_list_clear(&wins);
    if (rc < 0)
        ad_surface_clear(ret);
    return rc;
}

void ad_surface_clear(ad_surface *s)
{
    ad_tree_clear(&s->tree);
    ad_window_clear(&s->window);
    s->root = NULL;
}

static json_t *surface_entry(const ad_window *w, const char *type)
{
    return json_pack("{s:s, s:s?, s:s}", "id", w->id, "title", w->title, "type", type);
}

/* A top level that only carries a popup menu (a GTK3 context menu): its menu is the surface,
 * the window itself is not one. */
static bool menu_window(const ad_window *w)
{
    return w->kind && strcmp(w->kind, "menu") == 0;
}

static json_t *menu_entry(const ad_window *w, const ad_node *menu)
{
    json_t *m = surface_entry(w, "menu");
    json_object_set_new(m, "item_count", json_integer((json_int_t)ad_surface_item_count(menu)));
    const char *name = ad_text_get(&menu->name);
    json_object_del(m, "title");
    if (name)
        json_object_set_new(m, "title", json_string(name));
    return m;
}

/* The surfaces of pid among windows already listed (new reference). */
static json_t *surfaces_in(ad_ctx *ctx, const ad_window_list *wins, int pid, int64_t deadline_us)
{
    ad_error ignored = AD_ERROR_INIT;
    json_t *list = json_array();
    ad_popup_hosts hosts = {0};
    for (size_t i = 0; i < wins->count; i++) {
        const ad_window *w = &wins->items[i];
        /* Shell surfaces belong to the OS and never appear here (surfaces.md). */
        if (w->pid != pid || (w->kind && strcmp(w->kind, "shell") == 0))
            continue;
        const char *type = window_is(w, "sheet") ? "sheet"
                         : window_is(w, "alert") ? "alert"
                                                 : "window";
        ad_read_limits lim = ad_read_limits_default(deadline_us);
        lim.native_id_needed = ad_identity_no_id_needed; /* menus and popups only */
        ad_tree t = {0};
        bool read = ctx->adapter->ops->read_window(ctx->adapter, w->id, &lim, &t, &ignored) == 0;
        const ad_node *menu = t.root ? ad_surface_open_menu(t.root) : NULL;
        json_t *entry = NULL;
        if (!menu || !menu_window(w)) {
            entry = surface_entry(w, type);
            if (!read || !t.complete)
                json_object_set_new(entry, "unclassified", json_pack("[s]", "menu"));
            json_array_append_new(list, entry);
        }
        ad_popup_hosts_note(&hosts, w, &t, entry, menu); /* Chromium popups: surface_popup.h */
        if (menu)
            json_array_append_new(list, menu_entry(w, menu));
        ad_tree_clear(&t);
        ad_error_clear(&ignored);
    }
    ad_popup_hosts_fold(&hosts, list);
    return list;
}

int ad_surfaces_of_app(ad_ctx *ctx, const ad_app_list *apps, int pid, int64_t deadline_us,
                       json_t **ret, ad_error *err)
{
    ad_window_list wins = {0};
    if (ctx->adapter->ops->list_windows(ctx->adapter, apps, deadline_us, &wins, err) < 0)
        return -1;
    bool of_pid = false;
    for (size_t i = 0; i < wins.count; i++)
        of_pid |= wins.items[i].pid == pid;
    /* Windows that were not read are unknown, never an empty list: with the app's own list,
     * any of them; with every app's, when none of the pid's came back. */
    if (wins.unanswered > 0 && (apps || !of_pid)) {
        ad_windows_unanswered_error(&wins, NULL, err);
        ad_window_list_clear(&wins);
        return -1;
    }
    *ret = surfaces_in(ctx, &wins, pid, deadline_us);
    ad_window_list_clear(&wins);
    return 0;
}

json_t *ad_surfaces_of_pid(ad_ctx *ctx, int pid, int64_t deadline_us)
{
    /* One rule with list-surfaces: windows that were not read are unknown, never []. */
    json_t *list = NULL;
    ad_error ignored = AD_ERROR_INIT;
    if (ad_surfaces_of_app(ctx, NULL, pid, deadline_us, &list, &ignored) < 0)
        list = NULL;
    ad_error_clear(&ignored);
    return list;
}
