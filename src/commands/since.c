/* since.c: --since on snapshot and find (since.h). */
#include "commands/since.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "core/budget.h"
#include "core/refs.h"
#include "core/tree_diff.h"

/* INVALID_ARGS: the snapshot read another window than `window_id`, chosen by `flag`. */
static int other_window(const ad_since *s, const char *window_id, const char *flag,
                        ad_error *err)
{
    ad_error_set(err, AD_INVALID_ARGS, "Snapshot '%s' read window %s, not %s", s->id,
                 s->before.window_id, window_id);
    ad_error_suggest(err, "Pass the snapshot_id of a snapshot of the same window, or drop %s",
                     flag);
    ad_error_detail(err, "kind", json_string("since_other_window"));
    ad_error_detail(err, "since_window_id", json_string(s->before.window_id));
    return -1;
}

int ad_since_load(ad_ctx *ctx, const json_t *args, ad_since *ret, const char **ret_window_id,
                  ad_error *err)
{
    *ret = (ad_since){.id = ad_arg_str(args, "since")};
    *ret_window_id = ad_arg_str(args, "window_id");
    if (!ret->id)
        return 0;
    if (ad_tree_store_load(ctx, ret->id, &ret->before, err) < 0)
        return -1;
    if (*ret_window_id && strcmp(*ret_window_id, ret->before.window_id) != 0)
        return other_window(ret, *ret_window_id, "--window-id", err);
    if (!*ret_window_id && !ad_arg_str(args, "app"))
        *ret_window_id = ret->before.window_id;
    return 0;
}

int ad_since_same_window(const ad_since *s, const ad_window *win, ad_error *err)
{
    if (!s->id || strcmp(win->id, s->before.window_id) == 0)
        return 0;
    return other_window(s, win->id, "--app", err);
}

void ad_since_clear(ad_since *s)
{
    ad_stored_tree_free(&s->before);
    s->id = NULL;
}

/* ---- the delta's nodes ------------------------------------------------------------------ */

static int by_node(const void *x, const void *y)
{
    const ad_emitted *a = x, *b = y;
    return a->node < b->node ? -1 : a->node > b->node;
}

typedef struct {
    const ad_since *since;
    ad_emitted *shown; /* the presentation's nodes, sorted by node (a copy) */
    size_t n_shown;
    ad_node_ref *refs; /* the new snapshot's refs, sorted by node */
    size_t n_refs;
    const char *snapshot_id;
} renderer;

static json_t *ref_json(const char *snapshot_id, uint64_t ref)
{
    char text[128];
    snprintf(text, sizeof(text), "@%s:e%llu", snapshot_id, (unsigned long long)ref);
    return json_string(text);
}

/* A node the presentation did not show (below a depth cut, or left out by -i): its role,
 * name, value (clipped as a budget clips it) and states, and its ref when it has one. */
static json_t *brief(const renderer *r, const ad_node *n, bool after)
{
    json_t *o = json_object();
    const ad_node_ref *refs = after ? r->refs : r->since->before.refs;
    size_t n_refs = after ? r->n_refs : r->since->before.n_refs;
    uint64_t ref = ad_node_ref_find(refs, n_refs, n);
    if (ref)
        json_object_set_new(o, "ref_id", ref_json(after ? r->snapshot_id : r->since->id, ref));
    json_object_set_new(o, "role", json_string(n->role));
    if (ad_text_get(&n->name))
        ad_budget_set_text(o, "name", n->name.text, AD_BUDGET_CLIP_BYTES);
    if (after && !n->secure && ad_text_get(&n->value))
        ad_budget_set_text(o, "value", n->value.text, AD_BUDGET_CLIP_BYTES);
    if (after && n->states_state == AD_FIELD_KNOWN && n->states)
        json_object_set_new(o, "states", ad_states_json(n));
    return o;
}

/* ad_delta_node_fn: an after node as the snapshot shows it (its subtree only for an added
 * node), a before node by its role, name and old ref. */
static json_t *render(void *ud, const ad_node *n, bool after, bool with_children)
{
    const renderer *r = ud;
    ad_emitted key = {.node = n};
    const ad_emitted *s = after && r->n_shown
                         ? bsearch(&key, r->shown, r->n_shown, sizeof(*r->shown), by_node)
                         : NULL;
    if (!s)
        return brief(r, n, after);
    if (with_children)
        return json_deep_copy(s->json);
    json_t *o = json_copy(s->json);
    json_object_del(o, "children");
    return o;
}

static json_t *delta_data(const ad_since *s, const ad_tree *after, const ad_present_result *pr,
                          const json_t *plain)
{
    ad_tree_diff_opts o = {.before_complete = s->before.complete,
                           .after_complete = after->complete,
                           .compare_bounds = true};
    ad_tree_delta *d = NULL;
    renderer r = {.since = s,
                  .snapshot_id = json_string_value(json_object_get(plain, "snapshot_id"))};
    json_t *data = NULL;
    r.shown = calloc(pr->n_emitted ? pr->n_emitted : 1, sizeof(*r.shown));
    r.refs = calloc(pr->refs_added ? pr->refs_added : 1, sizeof(*r.refs));
    if (!r.shown || !r.refs || ad_tree_diff(s->before.root, after->root, &o, &d) < 0)
        goto done;
    if (pr->n_emitted)
        memcpy(r.shown, pr->emitted, pr->n_emitted * sizeof(*r.shown));
    r.n_shown = pr->n_emitted;
    qsort(r.shown, r.n_shown, sizeof(*r.shown), by_node);
    for (size_t i = 0; pr->ref_nodes && i < pr->refs_added; i++)
        r.refs[r.n_refs++] = (ad_node_ref){pr->ref_nodes[i], pr->first_ref + i};
    ad_node_refs_sort(r.refs, r.n_refs);
    json_t *members = ad_tree_delta_json(d, render, &r);
    data = json_copy((json_t *)plain);
    json_object_del(data, "tree");
    json_object_update(data, members);
    json_decref(members);
    if (!d->complete)
        json_object_set_new(data, "complete", json_false());
done:
    ad_tree_delta_free(d);
    free(r.shown);
    free(r.refs);
    return data;
}

json_t *ad_since_data(const ad_since *s, const ad_tree *after, const ad_present_result *pr,
                      json_t *plain, long long max_data_bytes)
{
    json_object_set_new(plain, "since", json_string(s->id));
    json_t *delta = delta_data(s, after, pr, plain);
    if (!delta) {
        json_decref(plain);
        return NULL;
    }
    size_t bytes = ad_json_bytes(delta);
    const char *skipped = NULL;
    if (bytes > ad_json_bytes(plain))
        skipped = "larger_than_snapshot";
    else if (max_data_bytes > 0 && bytes > (size_t)max_data_bytes)
        skipped = "over_budget";
    if (!skipped) {
        json_decref(plain);
        return delta;
    }
    json_decref(delta);
    json_object_set_new(plain, "delta_skipped", json_string(skipped));
    return plain;
}

int ad_since_args_check(const json_t *given, const json_t *args, ad_error *err)
{
    (void)given;
    const char *id = ad_arg_str(args, "since");
    if (!id || ad_snapshot_id_valid(id))
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "--since takes a snapshot id such as s1a2b3c, not '%s'",
                 id);
    ad_error_suggest(err, "Pass the snapshot_id a snapshot printed (data.snapshot_id)");
    ad_error_detail(err, "kind", json_string("since_invalid"));
    return -1;
}

/* ---- find --since ----------------------------------------------------------------------- */

typedef struct {
    const ad_node **v;
    unsigned *fields;
    size_t n, cap;
    bool oom;
} node_vec;

static void vec_push(node_vec *v, const ad_node *n, unsigned fields, bool with_fields)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        const ad_node **a = realloc(v->v, cap * sizeof(*a));
        unsigned *f = with_fields ? realloc(v->fields, cap * sizeof(*f)) : NULL;
        if (a)
            v->v = a;
        if (f)
            v->fields = f;
        if (!a || (with_fields && !f)) {
            v->oom = true;
            return;
        }
        v->cap = cap;
    }
    if (with_fields)
        v->fields[v->n] = fields;
    v->v[v->n++] = n;
}

static void keep_subtree(node_vec *v, const ad_node *n, bool (*keep)(const ad_node *, void *),
                         void *ud)
{
    if (keep(n, ud))
        vec_push(v, n, 0, false);
    for (size_t i = 0; i < n->n_children; i++)
        keep_subtree(v, n->children[i], keep, ud);
}

int ad_since_match(const ad_since *s, const ad_tree *after,
                   bool (*keep)(const ad_node *n, void *ud), void *ud, ad_since_matches *ret)
{
    ad_tree_diff_opts o = {.before_complete = s->before.complete,
                           .after_complete = after->complete, .compare_bounds = true};
    ad_tree_delta *d = NULL;
    *ret = (ad_since_matches){0};
    if (ad_tree_diff(s->before.root, after->root, &o, &d) < 0)
        return -1;
    node_vec added = {0}, removed = {0}, changed = {0};
    for (size_t i = 0; i < d->n_added; i++)
        keep_subtree(&added, d->added[i].after, keep, ud);
    for (size_t i = 0; i < d->n_removed; i++)
        keep_subtree(&removed, d->removed[i].before, keep, ud);
    for (size_t i = 0; i < d->n_changed; i++)
        if (keep(d->changed[i].after, ud))
            vec_push(&changed, d->changed[i].after, d->changed[i].fields, true);
    *ret = (ad_since_matches){.added = added.v, .n_added = added.n, .removed = removed.v,
                              .n_removed = removed.n, .changed = changed.v,
                              .changed_fields = changed.fields, .n_changed = changed.n,
                              .complete = d->complete, .unproven = d->n_unproven};
    ad_tree_delta_free(d);
    if (added.oom || removed.oom || changed.oom) {
        ad_since_matches_clear(ret);
        return -1;
    }
    return 0;
}

void ad_since_matches_clear(ad_since_matches *m)
{
    free(m->added);
    free(m->removed);
    free(m->changed);
    free(m->changed_fields);
    *m = (ad_since_matches){0};
}
