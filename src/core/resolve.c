/* resolve.c: strict resolution against one complete live read of the ref's window. */
#include "core/resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/refstore.h"

void ad_resolved_clear(ad_resolved *r)
{
    json_decref(r->refmap);
    ad_window_clear(&r->window);
    ad_tree_clear(&r->tree);
    ad_identity_index_free(r->idx);
    memset(r, 0, sizeof(*r));
}

static const char *entry_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

int ad_resolve_load(ad_ctx *ctx, const char *token, ad_resolved *r, ad_error *err)
{
    memset(r, 0, sizeof(*r));
    if (ad_ref_parse(token, &r->ref, err) < 0)
        return -1;
    if (ad_refstore_load(ctx, r->ref.snapshot_id, &r->refmap, err) < 0)
        return -1;
    ad_ref_key(r->ref.number, r->key, sizeof(r->key));
    r->entry = json_object_get(json_object_get(r->refmap, "refs"), r->key);
    if (!json_is_object(r->entry)) {
        ad_error_set(err, AD_STALE_REF, "%s not found in current RefMap", token);
        ad_error_detail(err, "kind", json_string("ref_not_in_refmap"));
        return -1;
    }
    return 0;
}

/* The identity a ref entry or anchor record saved (strings borrowed from it). */
static ad_identity saved_identity(const json_t *who)
{
    return (ad_identity){.role = entry_str(who, "role"),
                         .native_id = entry_str(who, "native_id"),
                         .name = entry_str(who, "name"),
                         .description = entry_str(who, "description"),
                         .toolkit_class = entry_str(who, "toolkit_class"),
                         .description_shows_value =
                             json_is_true(json_object_get(who, "description_shows_value"))};
}

static void count_matches(const ad_node *n, const ad_identity *want, size_t *matches,
                          size_t *unknown, ad_node **first)
{
    if (strcmp(n->role, want->role) == 0) {
        if (ad_identity_unproven(n, want))
            (*unknown)++;
        else if (ad_identity_matches(n, want)) {
            if (!*first)
                *first = (ad_node *)n;
            (*matches)++;
        }
    }
    for (size_t i = 0; i < n->n_children; i++)
        count_matches(n->children[i], want, matches, unknown, first);
}

static int ambiguous(ad_error *err, const char *ref_text, size_t matches)
{
    ad_error_set(err, AD_AMBIGUOUS_TARGET, "%s matches %zu live elements", ref_text, matches);
    ad_error_suggest(err, "Take a fresh snapshot; when the matches are different elements, "
                          "narrow the target with find or --root");
    ad_error_detail(err, "kind", json_string("saved_ref_ambiguous"));
    ad_error_detail(err, "match_count", json_integer((json_int_t)matches));
    return -1;
}

static int unproven(ad_error *err, const char *ref_text, const ad_tree *tree)
{
    ad_error_set(err, AD_TIMEOUT, "The identity of %s could not be proven: the live read of "
                                  "its window was incomplete", ref_text);
    /* get and is have no --timeout-ms; snapshot does. */
    ad_error_suggest(err, "Take a fresh snapshot (with a larger --timeout-ms if it is cut), "
                          "then retry with its ref");
    ad_error_detail(err, "kind", json_string("resolution_identity_unknown"));
    if (tree->cut_reason)
        ad_error_detail(err, "cut_reason", json_string(tree->cut_reason));
    return -1;
}

static bool same_identity(const ad_node *n, const json_t *who)
{
    ad_identity want = saved_identity(who);
    return ad_identity_matches(n, &want);
}

/* From the unique anchor, walks up its recorded hops; every node on the way and the container
 * must still carry their recorded identity. An unread identity leaves it unproven. */
static int walk_anchor(const json_t *entry, const json_t *anchor, ad_node **node,
                       const char *ref_text, const ad_tree *tree, ad_error *err)
{
    json_int_t hops = json_integer_value(json_object_get(anchor, "hops"));
    const json_t *between = json_object_get(anchor, "between");
    ad_node *n = *node;
    for (json_int_t i = 0; i < hops && n; i++) {
        n = n->parent;
        if (!n)
            break;
        const json_t *want = i + 1 < hops ? json_array_get(between, (size_t)i) : entry;
        ad_identity saved = saved_identity(want ? want : entry);
        if (ad_identity_unproven(n, &saved))
            return unproven(err, ref_text, tree);
        if (want && !same_identity(n, want)) {
            n = NULL;
            break;
        }
    }
    if (!n) {
        ad_error_set(err, AD_STALE_REF, "%s no longer matches a live element", ref_text);
        ad_error_suggest(err, "Take a fresh skeleton snapshot and drill the new ref");
        ad_error_detail(err, "kind", json_string("saved_ref_absent"));
        return -1;
    }
    *node = n;
    return 0;
}

int ad_resolve_in_tree(const json_t *entry, const ad_tree *tree, const ad_identity_index *idx,
                       const char *ref_text, ad_node **ret_node, ad_error *err)
{
    (void)idx;
    const json_t *anchor = json_object_get(entry, "anchor");
    const json_t *who = json_is_object(anchor) ? anchor : entry;
    ad_identity want = saved_identity(who);
    if (!want.role)
        return ad_error_set(err, AD_INTERNAL, "ref entry without a role");
    size_t matches = 0, unknown = 0;
    ad_node *node = NULL;
    count_matches(tree->root, &want, &matches, &unknown, &node);
    if (matches >= 2)
        return ambiguous(err, ref_text, matches);
    if (unknown > 0 || !tree->complete)
        return unproven(err, ref_text, tree);
    if (matches == 0) {
        ad_error_set(err, AD_STALE_REF, "%s no longer matches a live element", ref_text);
        ad_error_suggest(err, "Take a fresh snapshot, or re-drill the region, and use the new "
                              "ref. Nothing was sent to the app.");
        ad_error_detail(err, "kind", json_string("saved_ref_absent"));
        return -1;
    }
    if (json_is_object(anchor) && walk_anchor(entry, anchor, &node, ref_text, tree, err) < 0)
        return -1;
    *ret_node = node;
    return 0;
}

static ad_node *child_at(const ad_node *n, json_int_t index)
{
    for (size_t i = 0; i < n->n_children; i++)
        if ((json_int_t)n->children[i]->index_in_parent == index)
            return n->children[i];
    return NULL;
}

int ad_resolve_by_path(const json_t *entry, const ad_tree *tree, const char *ref_text,
                       ad_node **ret_node, ad_error *err)
{
    *ret_node = NULL;
    ad_identity want = saved_identity(entry);
    const json_t *path = json_object_get(entry, "path");
    if (!want.role || !json_is_array(path))
        return ad_error_set(err, AD_INTERNAL, "ref entry without a role or a path");
    ad_node *n = tree->root;
    size_t i;
    json_t *step;
    json_array_foreach(path, i, step)
    {
        if (!n)
            break;
        n = child_at(n, json_integer_value(step));
    }
    if (n && strcmp(n->role, want.role) == 0 && ad_identity_unproven(n, &want))
        return unproven(err, ref_text, tree);
    if (!n || strcmp(n->role, want.role) != 0 || !ad_identity_matches(n, &want)) {
        if (!n && !tree->complete) /* a cut read proves no absence */
            return unproven(err, ref_text, tree);
        ad_error_set(err, AD_STALE_REF, "%s no longer matches the element it was found as",
                     ref_text);
        ad_error_suggest(err, "Search again; the window changed since the search");
        ad_error_detail(err, "kind", json_string("saved_ref_absent"));
        return -1;
    }
    *ret_node = n;
    return 0;
}

/* Step 4 off macOS: the process the ref was captured from is gone (or its pid now names
 * another process), so no element of it can answer again. */
static int process_exited(ad_error *err, const char *ref_text, int pid)
{
    ad_error_set(err, AD_STALE_REF, "The process of %s (pid %d) has exited", ref_text, pid);
    ad_error_suggest(err, "Launch the app again and take a new snapshot");
    ad_error_detail(err, "kind", json_string("process_exited"));
    ad_error_detail(err, "process_state", json_string("exited"));
    return -1;
}

/* A failed lookup or read of the ref's own window. WINDOW_NOT_FOUND there means the window
 * the ref was captured in closed: the ref is stale (snapshots-and-refs.md lists "the window
 * closed" under STALE_REF), and the process is asked again because it may have exited in
 * between. Any other failure (TIMEOUT, APP_UNRESPONSIVE, ...) is passed on unchanged. */
static int window_gone(ad_adapter *a, const char *ref_text, int pid, const char *instance,
                       ad_error *err)
{
    if (err->code != AD_WINDOW_NOT_FOUND)
        return -1;
    if (pid > 0 && !a->ops->process_alive(a, pid, instance))
        return process_exited(err, ref_text, pid);
    ad_error_set(err, AD_STALE_REF, "The window of %s has closed", ref_text);
    ad_error_suggest(err, "Take a fresh snapshot of the window now open and use the new ref. "
                          "Nothing was sent to the app.");
    ad_error_detail(err, "kind", json_string("window_closed"));
    return -1;
}

/* Every identity resolution compares a live node with: the entry, its anchor and the
 * records between them (strings borrowed from the entry). */
#define MAX_WANTS 64
typedef struct {
    ad_identity want[MAX_WANTS];
    size_t n;
} wanted_ids;

static void collect_wants(const json_t *entry, wanted_ids *w)
{
    const json_t *anchor = json_object_get(entry, "anchor");
    w->n = 0;
    w->want[w->n++] = saved_identity(entry);
    if (!json_is_object(anchor))
        return;
    w->want[w->n++] = saved_identity(anchor);
    size_t i;
    const json_t *b;
    json_array_foreach(json_object_get(anchor, "between"), i, b)
    {
        if (w->n < MAX_WANTS)
            w->want[w->n++] = saved_identity(b);
    }
}

/* ad_read_limits.native_id_needed: only a node that may carry one of the wanted identities
 * needs its id; every other one is a miss whatever its id (identity.c, rule 8). More wants
 * than fit (a refmap check bounds anchors far below) ask every id. */
static bool id_needed(const ad_node *n, void *ud)
{
    const wanted_ids *w = ud;
    if (w->n >= MAX_WANTS)
        return true;
    for (size_t i = 0; i < w->n; i++)
        if (ad_identity_could_match(n, &w->want[i]))
            return true;
    return false;
}

int ad_resolve_live(ad_ctx *ctx, ad_resolved *r, int64_t deadline_us, ad_error *err)
{
    return ad_resolve_live_read(ctx, r, deadline_us, (ad_resolve_read){0}, err);
}

int ad_resolve_live_bounds(ad_ctx *ctx, ad_resolved *r, int64_t deadline_us, bool all_bounds,
                           ad_error *err)
{
    ad_resolve_read how = {.all_bounds = all_bounds, .all_native_ids = true};
    return ad_resolve_live_read(ctx, r, deadline_us, how, err);
}

int ad_resolve_live_read(ad_ctx *ctx, ad_resolved *r, int64_t deadline_us, ad_resolve_read how,
                         ad_error *err)
{
    char ref_text[128];
    ad_ref_format(&r->ref, ref_text, sizeof(ref_text));
    if (!json_is_true(json_object_get(r->entry, "unique_at_capture"))) {
        ad_error_set(err, AD_AMBIGUOUS_TARGET, "%s was not proven unique when it was captured",
                     ref_text);
        ad_error_suggest(err, "Identical elements have no ref path off macOS. Take a fresh "
                              "snapshot with a larger --timeout-ms if the capture was cut; for "
                              "true twins use agent-desktop --headed mouse-click --xy X,Y");
        ad_error_detail(err, "kind", json_string("identity_not_unique"));
        return -1;
    }
    ad_adapter *a = ctx->adapter;
    const json_t *source = json_object_get(r->refmap, "source");
    int pid = (int)json_integer_value(json_object_get(source, "pid"));
    const char *instance = entry_str(source, "process_instance");
    if (pid > 0 && !a->ops->process_alive(a, pid, instance))
        return process_exited(err, ref_text, pid);
    const char *wid = entry_str(source, "source_window_id");
    if (!wid)
        return ad_error_set(err, AD_INTERNAL, "ref entry without a source window");
    if (a->ops->window_lookup(a, wid, deadline_us, &r->window, err) < 0)
        return window_gone(a, ref_text, pid, instance, err);
    /* The loaded pid is valid (refmap_check.c); a window whose pid is unknown now is not
     * proven to be that process's, so it fails closed too. */
    if (r->window.pid != pid)
        return process_exited(err, ref_text, pid);
    ad_read_limits lim = ad_read_limits_default(deadline_us);
    lim.all_bounds = how.all_bounds;
    wanted_ids wants;
    if (!how.all_native_ids) {
        collect_wants(r->entry, &wants);
        lim.native_id_needed = id_needed;
        lim.native_id_ud = &wants;
    }
    if (a->ops->read_window(a, wid, &lim, &r->tree, err) < 0)
        return window_gone(a, ref_text, pid, instance, err);
    r->idx = ad_identity_index_build(r->tree.root);
    if (!r->idx)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    return ad_resolve_in_tree(r->entry, &r->tree, r->idx, ref_text, &r->node, err);
}

int ad_resolve_ref(ad_ctx *ctx, const char *token, int64_t deadline_us, ad_resolved *ret,
                   ad_error *err)
{
    if (ad_resolve_load(ctx, token, ret, err) < 0)
        return -1;
    return ad_resolve_live_bounds(ctx, ret, deadline_us, false, err); /* find --root presents */
}
