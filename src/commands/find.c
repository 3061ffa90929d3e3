/* find.c: search a window (or one ref's subtree) by role, name, value, text, description,
 * native id and states (commands/observation.md, json-output.md "Find results"). A search
 * reads the whole window first; an incomplete read fails with TIMEOUT rather than returning
 * partial matches, so "no match" always means absent. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "commands/since.h"
#include "core/ctx.h"
#include "core/present.h"
#include "core/refs.h"
#include "core/refstore.h"
#include "core/resolve.h"
#include "core/surface.h"
#include "core/trace_event.h"
#include "core/tree_store.h"
#include "core/tree_diff.h"
#include "core/window_select.h"

typedef struct {
    const char *role, *name, *value, *text, *description, *native_id;
    bool exact;
    uint32_t state_on, state_off; /* bits that must be set / clear */
} query;

static const struct { const char *alias, *role; } role_aliases[] = {
    {"gridcell", "cell"}, {"img", "image"}, {"radio", "radiobutton"},
    {"searchbox", "textfield"}, {"searchfield", "textfield"}, {"textarea", "textfield"},
    {"textbox", "textfield"}, {"spinbutton", "incrementor"}, {"togglebutton", "button"},
    {"tree", "outline"},
};

/* Folds a --role query: trimmed, lowercase, aliases resolved. Writes into buf. */
/* Lower-cases and trims `in` into buf and applies the aliases; false when it does not fit
 * (a cut name could become another role). */
static bool fold_role(const char *in, char *buf, size_t size)
{
    while (isspace((unsigned char)*in))
        in++;
    size_t n = 0;
    for (; in[n]; n++) {
        if (n + 1 >= size)
            return false;
        buf[n] = (char)tolower((unsigned char)in[n]);
    }
    while (n > 0 && isspace((unsigned char)buf[n - 1]))
        n--;
    buf[n] = '\0';
    for (size_t i = 0; i < sizeof(role_aliases) / sizeof(role_aliases[0]); i++)
        if (strcmp(buf, role_aliases[i].alias) == 0)
            snprintf(buf, size, "%s", role_aliases[i].role);
    return true;
}

static bool text_match(const char *have, const char *want, bool exact)
{
    if (!want)
        return true;
    if (!have)
        return false;
    return exact ? strcasecmp(have, want) == 0 : ad_contains_ci(have, want);
}

static bool node_has_text(const ad_node *n, const query *q)
{
    return text_match(ad_text_get(&n->name), q->text, q->exact) ||
           (!n->secure && text_match(ad_text_get(&n->value), q->text, q->exact)) ||
           text_match(ad_text_get(&n->description), q->text, q->exact);
}

static bool subtree_has_text(const ad_node *n, const query *q)
{
    if (node_has_text(n, q))
        return true;
    for (size_t i = 0; i < n->n_children; i++)
        if (subtree_has_text(n->children[i], q))
            return true;
    return false;
}

static bool matches(const ad_node *n, const query *q)
{
    if (q->role && strcmp(n->role, q->role) != 0)
        return false;
    if (!text_match(ad_text_get(&n->name), q->name, q->exact) ||
        !text_match(n->secure ? NULL : ad_text_get(&n->value), q->value, q->exact) ||
        !text_match(ad_text_get(&n->description), q->description, q->exact) ||
        !text_match(ad_text_get(&n->native_id), q->native_id, q->exact))
        return false;
    if ((q->state_on || q->state_off) &&
        ((n->states & q->state_on) != q->state_on || (n->states & q->state_off)))
        return false;
    if (q->text && !subtree_has_text(n, q))
        return false;
    return true;
}

typedef struct {
    const ad_node **items;
    size_t count, cap;
} node_list;

static void collect(const ad_node *n, const query *q, node_list *out, json_t *roles)
{
    if (roles)
        json_object_set_new(roles, n->role, json_true());
    if (matches(n, q)) {
        if (out->count == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 32;
            const ad_node **m = realloc(out->items, out->cap * sizeof(*m));
            if (!m)
                return;
            out->items = m;
        }
        out->items[out->count++] = n;
    }
    for (size_t i = 0; i < n->n_children; i++)
        collect(n->children[i], q, out, roles);
}

static json_t *path_json(const ad_node *n)
{
    json_t *a = json_array();
    const ad_node *chain[64];
    size_t depth = 0;
    for (const ad_node *p = n->parent; p && depth < 64; p = p->parent)
        chain[depth++] = p;
    for (size_t i = depth; i-- > 0;) {
        const char *name = ad_text_get(&chain[i]->name);
        json_t *s = name ? json_sprintf("%s:%s", chain[i]->role, name)
                         : json_string(chain[i]->role);
        json_array_append_new(a, s);
    }
    return a;
}

static int parse_states(const json_t *list, query *q, ad_error *err)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        char tok[64];
        snprintf(tok, sizeof(tok), "%s", json_string_value(v));
        for (char *c = tok; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        bool want = true;
        char *eq = strchr(tok, '=');
        if (eq) {
            *eq = '\0';
            if (strcmp(eq + 1, "true") == 0)
                want = true;
            else if (strcmp(eq + 1, "false") == 0)
                want = false;
            else
                goto bad;
        }
        int bit = ad_state_bit(tok);
        if (bit < 0)
            goto bad;
        if (want)
            q->state_on |= 1u << bit;
        else
            q->state_off |= 1u << bit;
        continue;
    bad:
        ad_error_set(err, AD_INVALID_ARGS, "Unknown --state token '%s'", json_string_value(v));
        ad_error_suggest(err, "Use TOKEN or TOKEN=true|false with one of: focused, disabled, "
                              "secure, expanded, checked, selected, hidden, busy, modal, "
                              "required, indeterminate, pressed, readonly, offscreen, invalid, "
                              "multiselectable, haspopup");
        return -1;
    }
    return 0;
}

typedef struct {
    ad_surface surface;
    ad_identity_index *idx;
    ad_resolved resolved;
    const ad_node *scope;
} search_scope;

static void scope_clear(search_scope *s)
{
    ad_surface_clear(&s->surface);
    ad_identity_index_free(s->idx);
    ad_resolved_clear(&s->resolved);
}

static int incomplete(ad_error *err, const ad_tree *t)
{
    ad_error_set(err, AD_TIMEOUT, "The search could not read the whole window before the "
                                  "deadline");
    ad_error_suggest(err, "Raise --timeout-ms or narrow the search with --root");
    ad_error_detail(err, "kind", json_string("locator_incomplete"));
    ad_error_detail(err, "nodes_observed", json_integer((json_int_t)t->nodes_observed));
    return -1;
}

static int open_scope(ad_ctx *ctx, const json_t *args, const char *window_id,
                      search_scope *s, ad_error *err)
{
    int64_t deadline = ad_deadline_from(args, "timeout_ms");
    const char *root = ad_arg_str(args, "root");
    if (root) {
        if (ad_resolve_ref(ctx, root, deadline, &s->resolved, err) < 0)
            return -1;
        s->scope = s->resolved.node;
        return 0;
    }
    ad_read_limits lim = ad_read_limits_default(deadline);
    lim.all_bounds = true; /* context matches carry bounds */
    if (ad_surface_read(ctx, ad_arg_str(args, "surface"), ad_arg_str(args, "app"),
                        window_id, &lim, &s->surface, err) < 0) {
        /* A lookup that ran out of time (the inventory, the window list) is find's own
         * budget running out (observation.md), never an absence; a silent bus keeps its
         * own kind. */
        const char *kind =
            err->details ? json_string_value(json_object_get(err->details, "kind")) : NULL;
        if (err->code == AD_TIMEOUT && kind &&
            (strcmp(kind, "inventory_incomplete") == 0 || strcmp(kind, "deadline") == 0))
            ad_error_detail(err, "kind", json_string("locator_incomplete"));
        return -1;
    }
    if (!s->surface.tree.complete)
        return incomplete(err, &s->surface.tree);
    s->idx = ad_identity_index_build(s->surface.tree.root);
    if (!s->idx)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    s->scope = s->surface.root;
    return 0;
}

static json_t *match_json(const ad_node *n, json_t *ref_id)
{
    json_t *m = json_object();
    if (json_is_null(ref_id) && n->bounds_state == AD_FIELD_KNOWN)
        json_object_set_new(m, "bounds", ad_rect_json(&n->bounds));
    json_object_set_new(m, "interactive", json_boolean(ad_node_refable(n)));
    if (n->name.state == AD_FIELD_KNOWN)
        json_object_set_new(m, "name", json_string(n->name.text));
    json_object_set_new(m, "path", path_json(n));
    json_object_set_new(m, "ref_id", ref_id);
    json_object_set_new(m, "role", json_string(n->role));
    json_object_set_new(m, "states", ad_states_json(n));
    const char *v = n->secure ? NULL : ad_text_get(&n->value);
    json_object_set_new(m, "value", v ? json_string(v) : json_null());
    return m;
}

/* Builds matches [from, to) and allocates refs into a new refmap. */
/* The refs a find --since gave, for the read it stores (its id is the next --since's base). */
typedef struct {
    ad_node_ref *v;
    size_t n, cap;
    bool oom;
} ref_list;

static void ref_list_push(ref_list *r, const ad_node *n, uint64_t ref)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        ad_node_ref *v = realloc(r->v, cap * sizeof(*v));
        if (!v) {
            r->oom = true;
            return;
        }
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = (ad_node_ref){.node = n, .ref = ref};
}

/* The matches l[from, to) as JSON, each refable one given the next ref of map (and, when
 * `given` is not NULL, recorded there). */
static json_t *emit_matches(const node_list *l, size_t from, size_t to, search_scope *s,
                            json_t *map, const char *snap_id, bool annotate_unique,
                            ref_list *given)
{
    ad_identity_index *idx = s->idx ? s->idx : s->resolved.idx;
    ad_window *w = s->idx ? &s->surface.window : &s->resolved.window;
    ad_present_source src = {.window = w, .app_name = w->app_name,
                             .surface = s->idx ? s->surface.kind : "window",
                             .identity_proven = true};
    json_t *arr = json_array();
    uint64_t next = (uint64_t)json_integer_value(json_object_get(map, "next_ref"));
    for (size_t i = from; i < to; i++) {
        const ad_node *n = l->items[i];
        json_t *ref = json_null(), *entry = NULL;
        if (ad_node_refable(n)) {
            char key[32];
            ad_ref_key(next, key, sizeof(key));
            ref = json_sprintf("@%s:e%llu", snap_id, (unsigned long long)next);
            entry = ad_ref_entry_new(n, idx, &src, false);
            json_object_set_new(json_object_get(map, "refs"), key, entry);
            if (given)
                ref_list_push(given, n, next);
            next++;
        }
        json_t *m = match_json(n, ref);
        if (entry && annotate_unique)
            ad_present_annotate_unique(m, n, entry);
        json_array_append_new(arr, m);
    }
    json_object_set_new(map, "next_ref", json_integer((json_int_t)next));
    return arr;
}

/* The matches of a plain find into d: one `match`, or `matches` (arr stolen). */
static void present_matches(json_t *d, json_t *arr, bool single, size_t total, size_t to)
{
    if (single) {
        json_object_set_new(d, "match", json_array_size(arr) ? json_incref(json_array_get(arr, 0))
                                                              : json_null());
        json_decref(arr);
    } else {
        json_object_set_new(d, "matches", arr);
        json_object_set_new(d, "total_matches", json_integer((json_int_t)total));
        json_object_set_new(d, "truncated", json_boolean(to < total));
    }
}

static bool keep_match(const ad_node *n, void *ud)
{
    return matches(n, ud);
}

/* find --since: the delta's matches in place of `matches` (since.h): added and changed as
 * matches with new refs (changed naming its fields), removed with their old refs. */
static int since_matches(const ad_since *since, search_scope *s, const query *q, json_t *map,
                         const char *id, bool annotate_unique, json_t *d, ref_list *given)
{
    ad_since_matches m;
    if (ad_since_match(since, &s->surface.tree, keep_match, (void *)q, &m) < 0)
        return -1;
    node_list added = {.items = m.added, .count = m.n_added};
    node_list changed = {.items = m.changed, .count = m.n_changed};
    json_t *a = emit_matches(&added, 0, added.count, s, map, id, annotate_unique, given);
    json_t *c = emit_matches(&changed, 0, changed.count, s, map, id, annotate_unique, given);
    for (size_t i = 0; i < m.n_changed; i++)
        json_object_set_new(json_array_get(c, i), "changed",
                            ad_diff_fields_json(m.changed_fields[i]));
    json_t *r = json_array();
    for (size_t i = 0; i < m.n_removed; i++) {
        const ad_node *n = m.removed[i];
        json_t *o = json_pack("{s:s, s:o}", "role", n->role, "path", path_json(n));
        if (ad_text_get(&n->name))
            json_object_set_new(o, "name", json_string(n->name.text));
        uint64_t ref = ad_node_ref_find(since->before.refs, since->before.n_refs, n);
        if (ref)
            json_object_set_new(o, "ref_id", json_sprintf("@%s:e%llu", since->id,
                                                          (unsigned long long)ref));
        json_array_append_new(r, o);
    }
    bool unchanged = m.complete && !m.n_added && !m.n_removed && !m.n_changed;
    json_object_set_new(d, "since", json_string(since->id));
    json_object_set_new(d, "unchanged", json_boolean(unchanged));
    json_t *lists[3] = {a, r, c};
    static const char *const keys[3] = {"added", "removed", "changed"};
    for (int i = 0; i < 3; i++) {
        if (json_array_size(lists[i]))
            json_object_set_new(d, keys[i], lists[i]);
        else
            json_decref(lists[i]);
    }
    if (!m.complete) {
        json_object_set_new(d, "complete", json_false());
        json_object_set_new(d, "unproven_count", json_integer((json_int_t)m.unproven));
    }
    ad_since_matches_clear(&m);
    return 0;
}

/* Stores the read of a find --since with the refs it gave that the budget kept in map. */
static int store_read(ad_ctx *ctx, const char *id, const ad_tree *tree, const char *window_id,
                      const json_t *map, ref_list *given, ad_error *err)
{
    const json_t *refs = json_object_get(map, "refs");
    size_t kept = 0;
    for (size_t i = 0; i < given->n; i++) {
        char key[32];
        ad_ref_key(given->v[i].ref, key, sizeof(key));
        if (json_object_get(refs, key))
            given->v[kept++] = given->v[i];
    }
    return ad_tree_store_save(ctx, id, tree->root, tree->complete, window_id, given->v, kept,
                              err) < 0 ? -1 : 0;
}

static int build_query(const json_t *args, query *q, char *role_buf, size_t size,
                       ad_error *err)
{
    memset(q, 0, sizeof(*q));
    const char *role = ad_arg_str(args, "role");
    if (role) {
        if (!fold_role(role, role_buf, size) || !*role_buf ||
            strcmp(role_buf, "unknown") == 0) {
            ad_error_set(err, AD_INVALID_ARGS, "'%s' is not a role you can query", role);
            ad_error_suggest(err, "Use a canonical role such as button, textfield or group");
            return -1;
        }
        q->role = role_buf;
    }
    q->name = ad_arg_str(args, "name");
    q->value = ad_arg_str(args, "value");
    q->text = ad_arg_str(args, "text");
    q->description = ad_arg_str(args, "description");
    q->native_id = ad_arg_str(args, "native_id");
    q->exact = ad_arg_bool(args, "exact");
    return parse_states(json_object_get(args, "state"), q, err);
}

int ad_cmd_find(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    query q;
    char role_buf[64];
    if (build_query(args, &q, role_buf, sizeof(role_buf), err) < 0)
        return -1;
    int64_t limit = ad_arg_int(args, "limit");
    search_scope s = {0};
    node_list l = {0};
    json_t *roles = q.role ? json_object() : NULL, *map = NULL, *d = json_object();
    int rc = -1;
    ad_since since = {0};
    ref_list given = {0};
    const char *window_id = NULL;
    if (ad_since_load(ctx, args, &since, &window_id, err) < 0 ||
        open_scope(ctx, args, window_id, &s, err) < 0 ||
        (since.id && ad_since_same_window(&since, &s.surface.window, err) < 0))
        goto done;
    collect(s.scope, &q, &l, roles);
    if (ad_arg_bool(args, "count")) {
        json_object_set_new(d, "count", json_integer((json_int_t)l.count));
        rc = 0;
        goto done;
    }
    size_t from = 0, to = l.count;
    bool single = true;
    if (ad_arg_bool(args, "first"))
        to = l.count ? 1 : 0;
    else if (ad_arg_bool(args, "last"))
        from = l.count ? l.count - 1 : 0;
    else if (json_object_get(args, "nth")) {
        int64_t nth = ad_arg_int(args, "nth");
        from = (size_t)nth;
        to = (size_t)nth < l.count ? from + 1 : from;
    } else {
        single = false;
        if (limit > 0 && (size_t)limit < l.count)
            to = (size_t)limit;
    }
    char id[AD_SNAPSHOT_ID_MAX + 1];
    if (ad_snapshot_id_new(id) < 0) {
        ad_error_set(err, AD_INTERNAL, "no randomness for a snapshot id");
        goto done;
    }
    ad_window *w = s.idx ? &s.surface.window : &s.resolved.window;
    map = json_pack("{s:s, s:I, s:I, s:s, s:{s:s, s:s?}, s:s, s:{}}", "snapshot_id", id,
                    "created_at", (json_int_t)ad_wall_ms(), "next_ref", (json_int_t)1, "app",
                    w->app_name ? w->app_name : "", "window", "id", w->id, "title", w->title,
                    "surface", "window", "refs");
    ad_present_source src = {.window = w, .app_name = w->app_name,
                             .surface = s.idx ? s.surface.kind : "window",
                             .identity_proven = true};
    json_object_set_new(map, "source", ad_refmap_source_new(&src));
    if (since.id) {
        if (since_matches(&since, &s, &q, map, id, ad_arg_bool(args, "annotate_unique"), d,
                          &given) < 0 || given.oom) {
            ad_error_set(err, AD_INTERNAL, "cannot build the delta");
            goto done;
        }
        json_object_set_new(d, "total_matches", json_integer((json_int_t)l.count));
    } else {
        json_t *arr = emit_matches(&l, from, to > from ? to : from, &s, map, id,
                                   ad_arg_bool(args, "annotate_unique"), NULL);
        present_matches(d, arr, single, l.count, to);
    }
    if (l.count == 0 && roles) {
        json_t *present = json_array();
        const char *k;
        json_t *v;
        json_object_foreach(roles, k, v) json_array_append_new(present, json_string(k));
        json_object_set_new(d, "roles_present", present);
    }
    bool saved = json_object_size(json_object_get(map, "refs")) > 0;
    if (saved)
        json_object_set_new(d, "snapshot_id", json_string(id));
    /* Under a budget the matches that do not fit leave the output and the saved refs. */
    if (ctx->budget.data_bytes > 0 &&
        ad_budget_fit_matches(d, json_object_get(map, "refs"), &ctx->budget, err) < 0)
        goto done;
    /* find --since stores its read like a snapshot (the read first, then the refmap), so
     * its snapshot_id is the base of the next --since. */
    if (saved && since.id && store_read(ctx, id, &s.surface.tree, w->id, map, &given, err) < 0)
        goto done;
    if (saved && ad_refstore_save(ctx, map, err) < 0) {
        if (since.id)
            ad_tree_store_remove(ctx, id);
        goto done;
    }
    rc = 0;
done:
    if (rc == 0) /* the search finished (a --count too); the matches' names stay out */
        ad_trace_event(ctx, "locator.resolve",
                       json_pack("{s:I, s:s?}", "total_matches", (json_int_t)l.count,
                                 "snapshot_id",
                                 json_string_value(json_object_get(d, "snapshot_id"))));
    if (rc == 0)
        *ret_data = d;
    else
        json_decref(d);
    json_decref(map);
    json_decref(roles);
    free(l.items);
    scope_clear(&s);
    ad_since_clear(&since);
    free(given.v);
    return rc;
}
