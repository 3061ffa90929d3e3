/* fake_adapter.c: the in-memory adapter and tree builder of fake_adapter.h. */
#include "fake_adapter.h"

#include "core/window_op.h"

#include "core/ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- trees ------------------------------------------------------------------------------ */

/* spec/facts/roles.md: node roles must be static strings, so specs are interned here. */
static const char *const ROLES[] = {
    "alert", "alertdialog", "application", "article", "banner", "browser", "button", "cell",
    "checkbox", "colorwell", "column", "combobox", "complementary", "contentinfo", "datefield",
    "definition", "dialog", "disclosure", "dockitem", "document", "drawer", "form", "grid",
    "group", "handle", "heading", "helptag", "image", "incrementor", "layoutitem",
    "levelindicator", "link", "list", "listbox", "log", "main", "marquee", "matte", "math",
    "menu", "menubutton", "menuitem", "navigation", "note", "option", "outline", "paragraph",
    "popover", "progressbar", "radiobutton", "radiogroup", "region", "relevanceindicator",
    "row", "ruler", "rulermarker", "scrollarea", "scrollbar", "search", "separator", "sheet",
    "slider", "splitter", "statictext", "status", "switch", "tab", "tablist", "tabpanel",
    "table", "textfield", "term", "timefield", "timer", "toolbar", "tooltip", "treeitem",
    "webarea", "window", "unknown", NULL,
};

static const char *intern_role(const char *role, size_t len)
{
    for (size_t i = 0; ROLES[i]; i++)
        if (strlen(ROLES[i]) == len && strncmp(ROLES[i], role, len) == 0)
            return ROLES[i];
    fprintf(stderr, "fake_adapter: unknown role '%.*s'\n", (int)len, role);
    abort();
}

static void die(const char *what, const char *attr)
{
    fprintf(stderr, "fake_adapter: bad attribute '%s' (%s)\n", attr, what);
    abort();
}

static void apply_cap(ad_node *n, const char *v)
{
    static const struct { const char *name; uint32_t bit; } caps[] = {
        {"focusable", AD_CAP_FOCUSABLE}, {"expandable", AD_CAP_EXPANDABLE},
        {"selectable", AD_CAP_SELECTABLE}, {"checkable", AD_CAP_CHECKABLE},
        {"editable", AD_CAP_EDITABLE},
    };
    for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
        if (strcmp(caps[i].name, v) == 0) {
            n->caps |= caps[i].bit;
            return;
        }
    die("capability", v);
}

static void apply_attr(ad_node *n, char *attr)
{
    char *eq = strchr(attr, '=');
    if (!eq) {
        if (strcmp(attr, "n?") == 0) ad_text_unknown(&n->name);
        else if (strcmp(attr, "d?") == 0) ad_text_unknown(&n->description);
        else if (strcmp(attr, "id?") == 0) ad_text_unknown(&n->native_id);
        else if (strcmp(attr, "v?") == 0) ad_text_unknown(&n->value);
        else if (strcmp(attr, "s?") == 0) { n->states_state = AD_FIELD_UNKNOWN; n->states = 0; }
        else if (strcmp(attr, "secure") == 0) n->secure = true;
        else if (strcmp(attr, "checked?") == 0) n->checked_unreported = true;
        else if (strcmp(attr, "b?") == 0) n->bounds_state = AD_FIELD_UNKNOWN;
        else if (strcmp(attr, "popup") == 0) { n->popup_state = AD_FIELD_KNOWN; n->popup = true; }
        else if (strcmp(attr, "popup?") == 0) n->popup_state = AD_FIELD_UNKNOWN;
        else die("flag", attr);
        return;
    }
    *eq = '\0';
    const char *k = attr, *v = eq + 1;
    if (strcmp(k, "n") == 0) ad_node_set_name(n, v);
    else if (strcmp(k, "d") == 0) ad_text_set(&n->description, v);
    else if (strcmp(k, "id") == 0) ad_text_set(&n->native_id, v);
    else if (strcmp(k, "v") == 0) ad_text_set(&n->value, v);
    else if (strcmp(k, "a") == 0) ad_node_add_action(n, v);
    else if (strcmp(k, "cap") == 0) apply_cap(n, v);
    else if (strcmp(k, "cut") == 0) { n->children_cut = true; n->live_child_count = atol(v); }
    else if (strcmp(k, "s") == 0) {
        int bit = ad_state_bit(v);
        if (bit < 0)
            die("state", v);
        n->states |= 1u << bit;
    } else if (strcmp(k, "b") == 0) {
        ad_rect r;
        if (sscanf(v, "%lf,%lf,%lf,%lf", &r.x, &r.y, &r.width, &r.height) != 4)
            die("bounds", v);
        n->bounds = r;
        n->bounds_state = AD_FIELD_KNOWN;
    } else {
        die("key", k);
    }
}

ad_node *fk(const char *spec, ...)
{
    ad_node *n = ad_node_new();
    if (!n)
        abort();
    n->states_state = AD_FIELD_KNOWN;
    size_t role_len = strcspn(spec, "|");
    n->role = intern_role(spec, role_len);
    if (spec[role_len]) {
        char *copy = strdup(spec + role_len + 1), *save = NULL;
        for (char *a = strtok_r(copy, "|", &save); a; a = strtok_r(NULL, "|", &save))
            apply_attr(n, a);
        free(copy);
    }
    va_list ap;
    va_start(ap, spec);
    for (ad_node *c = va_arg(ap, ad_node *); c; c = va_arg(ap, ad_node *))
        if (ad_node_add_child(n, c) < 0)
            abort();
    va_end(ap);
    return n;
}

static void copy_text(ad_text *dst, const ad_text *src)
{
    dst->state = src->state;
    dst->text = src->text ? strdup(src->text) : NULL;
}

ad_node *fk_copy(const ad_node *s)
{
    ad_node *n = ad_node_new();
    if (!n)
        abort();
    n->role = s->role;
    copy_text(&n->name, &s->name);
    copy_text(&n->value, &s->value);
    copy_text(&n->description, &s->description);
    copy_text(&n->native_id, &s->native_id);
    n->toolkit_class = s->toolkit_class ? strdup(s->toolkit_class) : NULL;
    n->states_state = s->states_state;
    n->states = s->states;
    n->caps = s->caps;
    n->checked_unreported = s->checked_unreported;
    for (size_t i = 0; i < s->n_actions; i++)
        ad_node_add_action(n, s->actions[i]);
    n->actions_state = s->actions_state;
    n->bounds_state = s->bounds_state;
    n->bounds = s->bounds;
    n->secure = s->secure;
    n->popup_state = s->popup_state;
    n->popup = s->popup;
    n->children_cut = s->children_cut;
    /* Like a real adapter: the element reports how many children it has. */
    n->live_child_count = s->live_child_count >= 0 ? s->live_child_count
                                                   : (long)s->n_children;
    n->address = s->address ? strdup(s->address) : NULL;
    for (size_t i = 0; i < s->n_children; i++)
        if (ad_node_add_child(n, fk_copy(s->children[i])) < 0)
            abort();
    return n;
}

static bool name_is(const ad_node *n, const char *name)
{
    const char *have = ad_text_get(&n->name);
    return name ? have && strcmp(have, name) == 0 : !have;
}

ad_node *fk_find(ad_node *root, const char *role, const char *name)
{
    if (strcmp(root->role, role) == 0 && name_is(root, name))
        return root;
    for (size_t i = 0; i < root->n_children; i++) {
        ad_node *hit = fk_find(root->children[i], role, name);
        if (hit)
            return hit;
    }
    return NULL;
}

ad_node *fk_find_id(ad_node *root, const char *id)
{
    const char *have = ad_text_get(&root->native_id);
    if (have && strcmp(have, id) == 0)
        return root;
    for (size_t i = 0; i < root->n_children; i++) {
        ad_node *hit = fk_find_id(root->children[i], id);
        if (hit)
            return hit;
    }
    return NULL;
}

ad_node *fk_detach(ad_node *n)
{
    ad_node *p = n->parent;
    if (!p)
        return n;
    for (size_t i = n->index_in_parent; i + 1 < p->n_children; i++) {
        p->children[i] = p->children[i + 1];
        p->children[i]->index_in_parent = i;
    }
    p->n_children--;
    n->parent = NULL;
    n->index_in_parent = 0;
    return n;
}

void fk_remove(ad_node *n)
{
    ad_node_free(fk_detach(n));
}

void fk_insert(ad_node *parent, size_t index, ad_node *child)
{
    if (ad_node_add_child(parent, child) < 0)
        abort();
    if (index >= parent->n_children)
        return;
    for (size_t i = parent->n_children - 1; i > index; i--) {
        parent->children[i] = parent->children[i - 1];
        parent->children[i]->index_in_parent = i;
    }
    parent->children[index] = child;
    child->index_in_parent = index;
}

void fk_rename(ad_node *n, const char *name)
{
    ad_text_set(&n->name, name);
}

/* ---- the adapter ------------------------------------------------------------------------ */

static fake_adapter *F(ad_adapter *a)
{
    return (fake_adapter *)a;
}

static int bus_down(ad_error *err)
{
    ad_error_set(err, AD_PERM_DENIED, "The accessibility bus is not available");
    ad_error_platform_detail(err, "fake: bus down");
    return -1;
}

static void health(ad_adapter *a, int64_t deadline_us, ad_health *ret)
{
    memset(ret, 0, sizeof(*ret));
    F(a)->health_deadline_us = deadline_us;
    ret->available = F(a)->bus_available;
    ret->timed_out = !ret->available && F(a)->bus_silent;
    if (!ret->available) {
        ret->detail = strdup("fake: org.a11y.Bus not reachable");
        ret->suggestion = strdup("Start the AT-SPI bus");
    }
}

static const char *const *supported_surfaces(ad_adapter *a)
{
    (void)a;
    static const char *const surfaces[] = {"window", NULL};
    return surfaces;
}

static int list_apps(ad_adapter *a, int64_t deadline_us, ad_app_list *ret, ad_error *err)
{
    (void)deadline_us;
    fake_adapter *f = F(a);
    f->n_list_apps++;
    if (!f->bus_available)
        return bus_down(err);
    memset(ret, 0, sizeof(*ret));
    ret->items = calloc(f->n_apps ? f->n_apps : 1, sizeof(ad_app));
    for (size_t i = 0; i < f->n_apps; i++)
        if (f->apps[i].alive || f->apps[i].listed_after_exit)
            ad_app_copy(&ret->items[ret->count++], &f->apps[i].app);
    ret->complete = f->apps_complete && f->n_skipped == 0;
    ret->skipped = calloc(f->n_skipped ? f->n_skipped : 1, sizeof(ad_app_skip));
    for (size_t i = 0; i < f->n_skipped; i++) {
        ret->skipped[i] = f->skipped[i];
        ret->skipped[i].handle = f->skipped[i].handle ? strdup(f->skipped[i].handle) : NULL;
        ret->skipped[i].executable =
            f->skipped[i].executable ? strdup(f->skipped[i].executable) : NULL;
    }
    ret->n_skipped = f->n_skipped;
    return 0;
}

static bool window_of(const fake_window *w, const ad_app_list *apps)
{
    if (!apps)
        return true;
    for (size_t i = 0; i < apps->count; i++)
        if (apps->items[i].pid == w->w.pid && strcmp(apps->items[i].name, w->w.app_name) == 0)
            return true;
    return false;
}

static int list_windows(ad_adapter *a, const ad_app_list *apps, int64_t deadline_us,
                        ad_window_list *ret, ad_error *err)
{
    (void)deadline_us;
    fake_adapter *f = F(a);
    f->n_list_windows++;
    if (!f->bus_available)
        return bus_down(err);
    memset(ret, 0, sizeof(*ret));
    ret->items = calloc(f->n_wins ? f->n_wins : 1, sizeof(ad_window));
    for (size_t i = 0; i < f->n_wins; i++)
        if (!f->wins[i].closed && window_of(&f->wins[i], apps))
            ad_window_copy(&ret->items[ret->count++], &f->wins[i].w);
    ret->unanswered = f->unanswered;
    ret->unresponsive = f->unresponsive;
    return 0;
}

fake_window *fake_window_get(fake_adapter *f, const char *id)
{
    for (size_t i = 0; i < f->n_wins; i++)
        if (strcmp(f->wins[i].w.id, id) == 0)
            return &f->wins[i];
    return NULL;
}

static fake_window *open_window(fake_adapter *f, const char *id, ad_error *err)
{
    fake_window *w = fake_window_get(f, id);
    if (!w || w->closed) {
        ad_error_set(err, AD_WINDOW_NOT_FOUND, "No window has id '%s'", id);
        return NULL;
    }
    return w;
}

static int window_lookup(ad_adapter *a, const char *window_id, int64_t deadline_us,
                         ad_window *ret, ad_error *err)
{
    (void)deadline_us;
    fake_adapter *f = F(a);
    f->n_window_lookup++;
    if (!f->bus_available)
        return bus_down(err);
    fake_window *w = open_window(f, window_id, err);
    if (!w)
        return -1;
    return ad_window_copy(ret, &w->w);
}

static bool process_alive(ad_adapter *a, int pid, const char *instance)
{
    fake_adapter *f = F(a);
    f->n_process_alive++;
    for (size_t i = 0; i < f->n_apps; i++) {
        const ad_app *app = &f->apps[i].app;
        if (app->pid == pid)
            return f->apps[i].alive &&
                   (!instance || strcmp(instance, app->process_instance) == 0);
    }
    return false;
}

/* Like a real adapter without lim->all_bounds: bounds only for nodes that earn a ref. */
static void drop_unasked_bounds(ad_node *n)
{
    if (!ad_node_refable(n)) {
        n->bounds_state = AD_FIELD_ABSENT;
        n->bounds = (ad_rect){0, 0, 0, 0};
    }
    for (size_t i = 0; i < n->n_children; i++)
        drop_unasked_bounds(n->children[i]);
}

/* Like the AT-SPI walker: every other field is read first, then the native ids the limits
 * ask for (all of them without lim->native_id_needed); each id read is counted. */
static void read_native_ids(fake_adapter *f, ad_node *n, const ad_read_limits *lim)
{
    if (!lim->native_id_needed || lim->native_id_needed(n, lim->native_id_ud)) {
        f->n_native_id_reads++;
    } else {
        ad_text_unknown(&n->native_id);
        n->native_id_unread = true;
    }
    for (size_t i = 0; i < n->n_children; i++)
        read_native_ids(f, n->children[i], lim);
}

/* A real adapter reads the extents of every node that earns a ref: one built without b=
 * (and without b?) reads as a small rectangle on the screen. */
static void default_ref_bounds(ad_node *n)
{
    if (ad_node_refable(n) && n->bounds_state == AD_FIELD_ABSENT) {
        n->bounds = (ad_rect){10, 10, 20, 20};
        n->bounds_state = AD_FIELD_KNOWN;
    }
    for (size_t i = 0; i < n->n_children; i++)
        default_ref_bounds(n->children[i]);
}

static void window_relative(ad_node *n)
{
    if (n->bounds_state == AD_FIELD_KNOWN)
        n->bounds_state = AD_FIELD_WINDOW_RELATIVE;
    for (size_t i = 0; i < n->n_children; i++)
        window_relative(n->children[i]);
}

static int read_window(ad_adapter *a, const char *window_id, const ad_read_limits *lim,
                       ad_tree *ret, ad_error *err)
{
    fake_adapter *f = F(a);
    f->n_read_window++;
    if (!f->bus_available)
        return bus_down(err);
    fake_window *w = open_window(f, window_id, err);
    if (!w)
        return -1;
    if (f->reads_honor_deadline && lim->deadline_us <= ad_now_us())
        return ad_error_set(err, AD_TIMEOUT, "the read's deadline passed before it started");
    memset(ret, 0, sizeof(*ret));
    ret->root = fk_copy(w->root);
    default_ref_bounds(ret->root);
    if (!lim->all_bounds)
        drop_unasked_bounds(ret->root);
    read_native_ids(f, ret->root, lim);
    ret->screen = f->screen;
    ret->screen_state = f->screen_known ? AD_FIELD_KNOWN : AD_FIELD_UNKNOWN;
    if (f->window_space) {
        window_relative(ret->root);
        ret->screen_is_window = true;
    }
    ret->nodes_observed = ad_node_count(ret->root);
    ret->complete = w->complete;
    ret->cut_reason = w->complete ? NULL : w->cut_reason;
    return 0;
}

static void destroy(ad_adapter *a)
{
    fake_adapter *f = F(a);
    for (size_t i = 0; i < f->n_apps; i++)
        ad_app_clear(&f->apps[i].app);
    for (size_t i = 0; i < f->n_wins; i++) {
        ad_window_clear(&f->wins[i].w);
        ad_node_free(f->wins[i].root);
    }
    ad_clip_content_clear(&f->clip);
    json_decref(f->overlay_requests);
    ad_notification_surface_clear(&f->notes);
    ad_change_events_clear(&f->changes);
    free(f);
}

static int take_changes(ad_adapter *a, ad_change_events *ret)
{
    fake_adapter *f = F(a);
    memset(ret, 0, sizeof(*ret));
    if (!f->watching)
        return 0;
    f->n_take_changes++;
    *ret = f->changes;
    memset(&f->changes, 0, sizeof(f->changes));
    return 1;
}

void fake_emit(fake_adapter *f, const char *kind, const char *detail, int value,
               const char *address)
{
    ad_change_events *c = &f->changes;
    ad_change_event *grown = realloc(c->items, (c->count + 1) * sizeof(*grown));
    if (!grown)
        abort();
    c->items = grown;
    ad_change_event *e = &c->items[c->count++];
    memset(e, 0, sizeof(*e));
    e->kind = kind;
    snprintf(e->detail, sizeof(e->detail), "%s", detail ? detail : "");
    e->value = value;
    e->address = address ? strdup(address) : NULL;
}

static int clip_missing(ad_error *err)
{
    return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "the fake clipboard helper is missing");
}

/* A deep copy of src into dst. */
static void clip_copy(ad_clip_content *dst, const ad_clip_content *src)
{
    *dst = (ad_clip_content){.kind = src->kind, .len = src->len,
                             .n_file_urls = src->n_file_urls};
    if (src->data) {
        dst->data = malloc(src->len + 1);
        memcpy(dst->data, src->data, src->len + 1);
    }
    if (src->n_file_urls) {
        dst->file_urls = calloc(src->n_file_urls, sizeof(char *));
        for (size_t i = 0; i < src->n_file_urls; i++)
            dst->file_urls[i] = strdup(src->file_urls[i]);
    }
}

static int clipboard_read(ad_adapter *a, ad_clip_want want, int64_t deadline_us,
                          ad_clip_content *ret, ad_error *err)
{
    (void)deadline_us;
    fake_adapter *f = F(a);
    if (f->clip_missing)
        return clip_missing(err);
    static const ad_clip_kind kind_of[] = {AD_CLIP_TEXT, AD_CLIP_IMAGE, AD_CLIP_FILE_URLS};
    if (!f->clip_held || (want != AD_CLIP_WANT_AUTO && kind_of[want] != f->clip.kind))
        return 0;
    clip_copy(ret, &f->clip);
    return 1;
}

static int clipboard_write(ad_adapter *a, const ad_clip_content *content, int64_t deadline_us,
                           ad_error *err)
{
    (void)deadline_us;
    fake_adapter *f = F(a);
    if (f->clip_missing)
        return clip_missing(err);
    ad_clip_content_clear(&f->clip);
    clip_copy(&f->clip, content);
    f->clip_held = true;
    f->n_clip_writes++;
    return 0;
}

static int clipboard_clear(ad_adapter *a, int64_t deadline_us, ad_error *err)
{
    (void)deadline_us;
    fake_adapter *f = F(a);
    if (f->clip_missing)
        return clip_missing(err);
    ad_clip_content_clear(&f->clip);
    f->clip_held = false;
    return 0;
}

static int act(ad_adapter *a, const ad_node *target, const ad_act_req *req,
               ad_act_result *ret, ad_error *err)
{
    fake_adapter *f = (fake_adapter *)a;
    (void)req;
    memset(ret, 0, sizeof(*ret));
    f->n_act++;
    if (f->act_fails) {
        ad_error_set(err, AD_ACTION_FAILED, "fake action failed");
        err->delivery = f->act_delivery;
        return -1;
    }
    if (f->act_effect)
        f->act_effect(f, target);
    ret->n_steps = 1;
    snprintf(ret->steps[0].label, sizeof(ret->steps[0].label), "Fake.Act");
    ret->steps[0].mechanism = "semantic_api";
    ret->steps[0].outcome = "succeeded";
    ret->delivery = f->act_delivery ? f->act_delivery : AD_DELIVERED_UNVERIFIED;
    return 0;
}

static int window_op(ad_adapter *a, const ad_window *target, const ad_win_req *req,
                     ad_win_result *ret, ad_error *err)
{
    fake_adapter *f = F(a);
    memset(ret, 0, sizeof(*ret));
    f->n_window_op++;
    f->last_win_req = *req;
    fake_window *w = open_window(f, target->id, err);
    if (!w)
        return -1;
    snprintf(ret->label, sizeof(ret->label), "Fake.WindowOp");
    if (req->op == AD_WIN_FOCUS) {
        const char *id = f->win_focused_id ? f->win_focused_id : target->id;
        fake_window *got = f->win_focus_lost ? NULL : fake_window_get(f, id);
        if (got && ad_window_copy(&ret->focused, &got->w) == 0) {
            ret->focused.is_focused = true;
            ret->reached = true;
        }
        return 0;
    }
    ad_window *fw = &w->w;
    if (req->op == AD_WIN_MOVE) {
        fw->bounds.x = req->x;
        fw->bounds.y = req->y;
    } else if (req->op == AD_WIN_RESIZE) {
        fw->bounds.width = req->width;
        fw->bounds.height = req->height;
    }
    fw->minimized = req->op == AD_WIN_MINIMIZE || (fw->minimized && req->op != AD_WIN_RESTORE);
    ret->observed = (ad_win_state){.known = true, .bounds = fw->bounds,
                                   .hidden = fw->minimized,
                                   .maximized_horizontal = req->op == AD_WIN_MAXIMIZE,
                                   .maximized_vertical = req->op == AD_WIN_MAXIMIZE};
    if (f->win_clamp)
        ret->observed = f->win_observed;
    ret->reached = ad_win_state_reached(req, &ret->observed);
    return 0;
}

static const char *protected_process(ad_adapter *a, int pid)
{
    return F(a)->protected_pid == pid ? "a protected fake process" : NULL;
}

static fake_app *app_of_pid(fake_adapter *f, int pid)
{
    for (size_t i = 0; i < f->n_apps; i++)
        if (f->apps[i].app.pid == pid)
            return &f->apps[i];
    return NULL;
}

static int close_windows(ad_adapter *a, int pid, int *ret_count, ad_error *err)
{
    (void)err;
    fake_adapter *f = F(a);
    f->n_close_windows++;
    *ret_count = f->no_windows ? 0 : 1;
    fake_app *app = app_of_pid(f, pid);
    if (f->no_windows || !app)
        return 0;
    if (f->close_prompts) {
        fake_window *w = fake_add_window(f, app->app.name, "Unsaved changes",
                                         fk("dialog|n=Unsaved changes",
                                            fk("button|n=Close without saving|a=Click", NULL),
                                            NULL));
        w->w.modal = true;
        w->w.kind = "dialog";
    } else {
        fake_kill(f, pid);
    }
    return 0;
}

static int signal_process(ad_adapter *a, int pid, const char *instance, bool kill,
                          ad_error *err)
{
    fake_adapter *f = F(a);
    if (!process_alive(a, pid, instance))
        return ad_error_set(err, AD_ACTION_FAILED, "fake process %d is gone", pid);
    if (kill)
        f->n_kill++;
    else
        f->n_term++;
    if (kill || !f->ignores_term)
        fake_kill(f, pid);
    return 0;
}

static int list_displays(ad_adapter *a, ad_display_list *ret, ad_error *err)
{
    fake_adapter *f = (fake_adapter *)a;
    (void)err;
    ret->items = calloc(f->n_displays ? f->n_displays : 1, sizeof(*ret->items));
    if (!ret->items)
        abort();
    for (size_t i = 0; i < f->n_displays; i++) {
        ret->items[i] = f->displays[i];
        ret->items[i].id = strdup(f->displays[i].id);
    }
    ret->count = f->n_displays;
    return 0;
}

/* A picture of the asked rectangle (the window's bounds, else rect): every pixel (x % 256,
 * y % 256, 7) in screen coordinates, so a test can tell where it came from. */
static int capture(ad_adapter *a, const ad_window *window, const ad_rect *rect, ad_image *ret,
                   ad_error *err)
{
    fake_adapter *f = (fake_adapter *)a;
    f->n_capture++;
    if (f->capture_fails) {
        ad_error_set(err, AD_ACTION_FAILED, "fake capture refused");
        ad_error_detail(err, "reason", json_string(f->capture_fails));
        return -1;
    }
    const ad_rect *r = window ? &window->bounds : rect;
    *ret = (ad_image){.x = (int)r->x, .y = (int)r->y, .width = (int)r->width,
                      .height = (int)r->height};
    ret->rgb = malloc((size_t)ret->width * (size_t)ret->height * 3 + 1);
    if (!ret->rgb)
        abort();
    for (int y = 0; y < ret->height; y++)
        for (int x = 0; x < ret->width; x++) {
            unsigned char *p = ret->rgb + ((size_t)y * (size_t)ret->width + (size_t)x) * 3;
            p[0] = (unsigned char)((ret->x + x) % 256);
            p[1] = (unsigned char)((ret->y + y) % 256);
            p[2] = 7;
        }
    return 0;
}

static int overlay(ad_adapter *a, json_t *req, bool start_service, int64_t deadline_us,
                   json_t **ret_reply, ad_error *err)
{
    (void)deadline_us;
    fake_adapter *f = F(a);
    if (!f->overlay_requests)
        f->overlay_requests = json_array();
    json_array_append_new(f->overlay_requests, json_deep_copy(req));
    if (f->overlay_down && !start_service)
        return 1;
    if (f->overlay_fails || f->overlay_down)
        return ad_error_set(err, AD_ACTION_FAILED, "the fake overlay service did not answer");
    *ret_reply = json_pack("{s:b, s:b}", "ok", 1, "mapped", !f->overlay_unmapped);
    return 0;
}

static const ad_adapter_ops fake_ops = {
    .platform = "linux",
    .health = health,
    .supported_surfaces = supported_surfaces,
    .list_apps = list_apps,
    .list_windows = list_windows,
    .window_lookup = window_lookup,
    .process_alive = process_alive,
    .read_window = read_window,
    .act = act,
    .window_op = window_op,
    .protected_process = protected_process,
    .close_windows = close_windows,
    .signal_process = signal_process,
    .clipboard_read = clipboard_read,
    .clipboard_write = clipboard_write,
    .clipboard_clear = clipboard_clear,
    .list_displays = list_displays,
    .capture = capture,
    .overlay = overlay,
    .read_notifications = fake_read_notifications,
    .take_changes = take_changes,
    .destroy = destroy,
};

fake_adapter *fake_new(void)
{
    fake_adapter *f = calloc(1, sizeof(*f));
    if (!f)
        abort();
    f->base.ops = &fake_ops;
    f->bus_available = true;
    f->apps_complete = true;
    f->screen = (ad_rect){0, 0, 1280, 1024}; /* the headless desktop of the e2e tests */
    f->screen_known = true;
    f->displays[0] = (ad_display){.id = "screen", .bounds = {0, 0, 1280, 1024}, .scale = 1.0,
                                  .is_primary = true};
    f->n_displays = 1;
    return f;
}

void fake_free(fake_adapter *f)
{
    if (f)
        f->base.ops->destroy(&f->base);
}

fake_app *fake_add_app(fake_adapter *f, const char *name, int pid)
{
    if (f->n_apps == FAKE_MAX)
        abort();
    fake_app *a = &f->apps[f->n_apps++];
    a->app.name = strdup(name);
    a->app.pid = pid;
    a->app.process_instance = strdup("boot:1");
    a->app.handle = strdup(name);
    a->alive = true;
    return a;
}

static fake_app *app_named(fake_adapter *f, const char *name)
{
    for (size_t i = 0; i < f->n_apps; i++)
        if (strcmp(f->apps[i].app.name, name) == 0)
            return &f->apps[i];
    fprintf(stderr, "fake_adapter: no app '%s'\n", name);
    abort();
}

fake_window *fake_add_window(fake_adapter *f, const char *app_name, const char *title,
                             ad_node *root)
{
    if (f->n_wins == FAKE_MAX)
        abort();
    fake_app *app = app_named(f, app_name);
    fake_window *w = &f->wins[f->n_wins++];
    char id[32];
    snprintf(id, sizeof(id), "w-fake-%zu", f->n_wins);
    w->w.id = strdup(id);
    w->w.title = title ? strdup(title) : NULL;
    w->w.app_name = strdup(app_name);
    w->w.pid = app->app.pid;
    w->w.process_instance = strdup(app->app.process_instance);
    w->w.bounds_known = true;
    w->w.bounds = (ad_rect){0, 0, 800, 600};
    w->w.visible = true;
    w->w.accessible = true;
    w->root = root;
    w->complete = true;
    w->cut_reason = "deadline";
    return w;
}

void fake_kill(fake_adapter *f, int pid)
{
    for (size_t i = 0; i < f->n_apps; i++)
        if (f->apps[i].app.pid == pid)
            f->apps[i].alive = false;
}
