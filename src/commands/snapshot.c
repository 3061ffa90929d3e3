/* snapshot.c: snapshot and its --root drill-down (commands/observation.md,
 * skeleton-and-drill-down.md). A full snapshot reads the whole window once, so every ref's
 * uniqueness is proven against the window, and presents the part the flags ask for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#include "core/window_select.h"

#define SKELETON_DEPTH 3
#define WINDOW_CHOICE_FLOOR_MS 2000
/* What a skipped delta adds to a budgeted snapshot besides the id:
 * ,"since":"" and ,"delta_skipped":"larger_than_snapshot" */
#define AD_SINCE_EXTRA_BYTES 52

static int read_options(const json_t *args, ad_present_opts *o, ad_error *err)
{
    (void)err; /* --max-depth is range-checked from the command table (0 to 50) */
    int64_t depth = ad_arg_int(args, "max_depth");
    *o = (ad_present_opts){
        .interactive_only = ad_arg_bool(args, "interactive_only"),
        .compact = ad_arg_bool(args, "compact"),
        .include_bounds = ad_arg_bool(args, "include_bounds"),
        .max_depth = (int)depth,
        .annotate_unique = ad_arg_bool(args, "annotate_unique"),
    };
    return 0;
}

/* What the data object of a snapshot or a drill shows beside its tree (borrowed). */
typedef struct {
    const ad_window *win;
    const ad_tree *tree; /* the read: complete or cut */
    const char *snapshot_id;
    size_t base_refs; /* a drill: the refs its snapshot keeps outside the region */
    bool drill;
} data_parts;

/* ad_budget_build_fn: the data object around one presentation (new reference). */
static json_t *build_data(void *ud, const ad_present_result *pr)
{
    const data_parts *dp = ud;
    bool complete = dp->drill || dp->tree->complete;
    json_t *d = json_object();
    json_object_set_new(d, "app", json_string(dp->win->app_name ? dp->win->app_name : ""));
    json_object_set_new(d, "complete", json_boolean(complete));
    if (!complete) {
        json_object_set_new(d, "truncated", json_true());
        json_object_set_new(d, "nodes_observed",
                            json_integer((json_int_t)dp->tree->nodes_observed));
        json_object_set_new(d, "identity_unproven", json_true());
    }
    json_object_set_new(d, "ref_count", json_integer((json_int_t)(dp->base_refs +
                                                                  pr->refs_added)));
    json_object_set_new(d, "snapshot_id", json_string(dp->snapshot_id));
    json_object_set_new(d, "window", ad_window_brief_json(dp->win));
    json_object_set_new(d, "tree", json_incref(pr->tree));
    return d;
}

/* Presents `root` into refs and builds the data object (*ret_data, new reference): under the
 * command's budget when it has one (core/budget.h), else as it is. */
static int present_data(ad_ctx *ctx, const ad_node *root, const ad_identity_index *idx,
                        const ad_present_opts *opts, const ad_present_source *src,
                        json_t *refs, uint64_t *next_ref, data_parts *dp, json_t **ret_data,
                        ad_present_result *pr, ad_error *err)
{
    if (ctx->budget.data_bytes > 0)
        return ad_present_budgeted(root, idx, opts, src, dp->snapshot_id, refs, next_ref,
                                   &ctx->budget, build_data, dp, ret_data, pr, err);
    if (ad_present(root, idx, opts, src, dp->snapshot_id, refs, next_ref, pr) < 0)
        return ad_error_set(err, AD_INTERNAL, "cannot present the snapshot");
    *ret_data = build_data(dp, pr);
    json_decref(pr->tree); /* the data object holds it */
    return 0;
}

/* Saves the refmap `map`; with `sink` its refs are already coded there and map's "refs" is
 * left out of the header (both borrowed). */
static int save_refmap(ad_ctx *ctx, json_t *map, ad_refmap_writer *sink, ad_error *err)
{
    if (!sink)
        return ad_refstore_save(ctx, map, err);
    json_object_del(map, "refs");
    size_t len = 0;
    unsigned char *bytes = ad_refmap_writer_finish(sink, map, &len);
    if (!bytes)
        return ad_error_set(err, AD_INTERNAL, "cannot encode refmap");
    return ad_refstore_save_encoded(ctx, json_string_value(json_object_get(map, "snapshot_id")),
                                    bytes, len, err);
}

static int full_snapshot(ad_ctx *ctx, const json_t *args, ad_present_opts *opts,
                         json_t **ret_data, ad_error *err)
{
    int64_t started = ad_now_us();
    int64_t deadline = ad_deadline_from(args, "timeout_ms");
    ad_surface sf = {0};
    ad_identity_index *idx = NULL;
    json_t *map = NULL;
    ad_refmap_writer *sink = NULL;
    ad_since since = {0};
    const char *window_id = NULL;
    int rc = -1;
    if (ad_since_load(ctx, args, &since, &window_id, err) < 0)
        goto done;
    if (ad_arg_bool(args, "skeleton") && opts->max_depth > SKELETON_DEPTH)
        opts->max_depth = SKELETON_DEPTH; /* --skeleton reads min(--max-depth, 3) levels */
    ad_read_limits lim = ad_read_limits_default(deadline);
    lim.all_bounds = opts->include_bounds;
    /* Choosing the window is not the observation: it gets its own floor, so a tiny
     * --timeout-ms still yields a partial tree (contract 2.2) rather than a lookup error. */
    lim.select_floor_us = ad_deadline_after_ms(WINDOW_CHOICE_FLOOR_MS);
    if (ad_surface_read(ctx, ad_arg_str(args, "surface"), ad_arg_str(args, "app"),
                        window_id, &lim, &sf, err) < 0)
        goto done;
    ad_window *win = &sf.window;
    if (ad_since_same_window(&since, win, err) < 0)
        goto done;
    ad_tree *tree = &sf.tree;
    ad_log(ctx, "read %s: %zu nodes, %s%s, %lld ms since start", win->id, tree->nodes_observed,
           tree->complete ? "complete" : "cut: ", tree->complete ? "" : tree->cut_reason,
           (long long)((ad_now_us() - started) / 1000));
    idx = ad_identity_index_build(tree->root);
    char id[AD_SNAPSHOT_ID_MAX + 1];
    if (!idx || ad_snapshot_id_new(id) < 0) {
        ad_error_set(err, AD_INTERNAL, "cannot allocate a snapshot");
        goto done;
    }
    uint64_t next_ref = 1;
    ad_present_source src = {.window = win, .app_name = win->app_name, .surface = sf.kind,
                             .identity_proven = tree->complete};
    map = ad_refmap_new(id, &src, next_ref);
    /* Without a budget the refs are presented once, so their entries are coded as they are
     * made (a 50,000-node window's refs as JSON cost ~1.5 KB each). A budget presents several
     * times and keeps the refs of the one it accepts, so it collects them as JSON. */
    if (ctx->budget.data_bytes == 0 && !(sink = ad_refmap_writer_new())) {
        ad_error_set(err, AD_INTERNAL, "cannot allocate a snapshot");
        goto done;
    }
    opts->ref_sink = sink;
    ad_present_result pr = {0};
    data_parts dp = {.win = win, .tree = tree, .snapshot_id = id};
    json_t *d = NULL;
    long long budget = ctx->budget.data_bytes;
    if (since.id) {
        opts->record_emitted = true; /* the delta shows nodes as the snapshot shows them */
        if (budget > 0) /* room for the fields a skipped delta adds to the snapshot */
            ctx->budget.data_bytes -= (long long)(strlen(since.id) + AD_SINCE_EXTRA_BYTES);
    }
    int presented = present_data(ctx, sf.root, idx, opts, &src, json_object_get(map, "refs"),
                                 &next_ref, &dp, &d, &pr, err);
    ctx->budget.data_bytes = budget;
    if (presented < 0)
        goto done;
    json_object_set_new(map, "next_ref", json_integer((json_int_t)next_ref));
    /* The read first, then the refmap that makes the snapshot: a saved snapshot always
     * has its read (unless it was too large to keep, tree_store.h). */
    if (ad_tree_store_save_presented(ctx, id, tree, win->id, &pr, err) < 0 ||
        save_refmap(ctx, map, sink, err) < 0) {
        ad_tree_store_remove(ctx, id);
        free(pr.ref_nodes);
        free(pr.emitted);
        json_decref(d);
        goto done;
    }
    if (since.id && !(d = ad_since_data(&since, tree, &pr, d, budget)))
        ad_error_set(err, AD_INTERNAL, "cannot build the delta");
    free(pr.ref_nodes);
    free(pr.emitted);
    if (!d)
        goto done;
    ad_trace_event(ctx, "snapshot.saved",
                   json_pack("{s:s, s:s, s:s, s:I, s:b}", "snapshot_id", id, "app",
                             win->app_name ? win->app_name : "", "window_id", win->id,
                             "ref_count", (json_int_t)pr.refs_added, "complete",
                             tree->complete));
    free(ctx->observed_window_id);
    ctx->observed_window_id = strdup(win->id);
    *ret_data = d;
    rc = 0;
done:
    json_decref(map);
    ad_refmap_writer_free(sink);
    ad_identity_index_free(idx);
    ad_surface_clear(&sf);
    ad_since_clear(&since);
    return rc;
}

/* ---- drill ------------------------------------------------------------------------------ */

static bool path_under(const json_t *path, const json_t *root_path)
{
    size_t n = json_array_size(root_path);
    if (!json_is_array(path) || json_array_size(path) <= n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (json_integer_value(json_array_get(path, i)) !=
            json_integer_value(json_array_get(root_path, i)))
            return false;
    return true;
}

/* Whether the ref `key` lies in the region a re-drill of root_key replaces: under the root's
 * path, or inside a drill (root_ref) of the root or of a ref in the region. Walks up the
 * root_ref chain once and records the verdict of every ref on it in `decided`, so the whole
 * refmap costs one visit per ref, whatever order it lists them in. */
static bool in_region(const json_t *refs, json_t *decided, const char *key,
                      const char *root_key, const json_t *root_path)
{
    json_t *chain = json_array();
    const char *cur = key;
    bool verdict = false;
    for (;;) {
        json_t *known = json_object_get(decided, cur);
        if (known) {
            verdict = json_is_true(known);
            break;
        }
        const json_t *e = json_object_get(refs, cur);
        if (!e || strcmp(cur, root_key) == 0)
            break; /* the root survives; a missing parent ties nothing */
        json_array_append_new(chain, json_string(cur));
        const char *parent = json_string_value(json_object_get(e, "root_ref"));
        if (path_under(json_object_get(e, "path"), root_path) ||
            (parent && strcmp(parent, root_key) == 0)) {
            verdict = true;
            break;
        }
        if (!parent || json_array_size(chain) > json_object_size(refs))
            break; /* no parent, or a root_ref cycle */
        cur = parent;
    }
    size_t i;
    json_t *k;
    json_array_foreach(chain, i, k)
        json_object_set_new(decided, json_string_value(k), json_boolean(verdict));
    json_decref(chain);
    return verdict;
}

/* Removes the refs a re-drill of root_key replaces: earlier drills of that root, refs under
 * the root's path (a snapshot holds one window), and refs of drills nested inside those. */
static void remove_region(json_t *refs, const char *root_key, const json_t *root_entry)
{
    const json_t *root_path = json_object_get(root_entry, "path");
    json_t *decided = json_object();
    const char *key;
    json_t *e;
    void *tmp;
    json_object_foreach(refs, key, e)
        in_region(refs, decided, key, root_key, root_path);
    json_object_foreach_safe(refs, tmp, key, e)
        if (json_is_true(json_object_get(decided, key)))
            json_object_del(refs, key);
    json_decref(decided);
}

static int deadline_error(ad_error *err, int64_t started, int64_t timeout_ms)
{
    ad_error_set(err, AD_TIMEOUT, "Operation exceeded its deadline");
    ad_error_suggest(err, "The target application may be busy or unresponsive");
    ad_error_detail(err, "elapsed_ms", json_integer((ad_now_us() - started) / 1000));
    ad_error_detail(err, "kind", json_string("deadline"));
    ad_error_detail(err, "timeout_ms", json_integer(timeout_ms));
    return -1;
}

static int drill(ad_ctx *ctx, const json_t *args, const ad_present_opts *opts,
                 json_t **ret_data, ad_error *err)
{
    int64_t started = ad_now_us();
    int64_t timeout_ms = ad_arg_int(args, "timeout_ms");
    ad_resolved r = {0};
    int rc = -1;
    if (ad_resolve_load(ctx, ad_arg_str(args, "root"), &r, err) < 0)
        goto done;
    if (ad_resolve_live_bounds(ctx, &r, ad_deadline_add_ms(started, timeout_ms),
                               opts->include_bounds, err) < 0) {
        /* All or nothing: an incomplete read of the region is a deadline, nothing saved. */
        if (err->code == AD_TIMEOUT)
            deadline_error(err, started, timeout_ms);
        goto done;
    }
    json_t *refs = json_object_get(r.refmap, "refs");
    remove_region(refs, r.key, r.entry);
    uint64_t next_ref = (uint64_t)json_integer_value(json_object_get(r.refmap, "next_ref"));
    if (next_ref < 1)
        next_ref = 1;
    ad_present_source src = {.window = &r.window, .app_name = r.window.app_name,
                             .surface = "window", .identity_proven = r.tree.complete,
                             .root_ref_key = r.key};
    ad_present_result pr = {0};
    data_parts dp = {.win = &r.window, .tree = &r.tree, .snapshot_id = r.ref.snapshot_id,
                     .base_refs = json_object_size(refs), .drill = true};
    json_t *d = NULL;
    if (present_data(ctx, r.node, r.idx, opts, &src, refs, &next_ref, &dp, &d, &pr, err) < 0)
        goto done;
    free(pr.ref_nodes);
    if (ad_now_us() > started + timeout_ms * 1000) {
        /* The deadline passed while the refmap was reworked: nothing saved. */
        json_decref(d);
        deadline_error(err, started, timeout_ms);
        goto done;
    }
    json_object_set_new(r.refmap, "next_ref", json_integer((json_int_t)next_ref));
    if (ad_refstore_save(ctx, r.refmap, err) < 0) {
        json_decref(d);
        goto done;
    }
    ad_trace_event(ctx, "snapshot.root.saved",
                   json_pack("{s:s, s:s, s:I}", "snapshot_id", r.ref.snapshot_id, "root",
                             ad_arg_str(args, "root"), "ref_count", (json_int_t)json_object_size(refs)));
    *ret_data = d;
    rc = 0;
done:
    ad_resolved_clear(&r);
    return rc;
}

int ad_cmd_snapshot(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    ad_present_opts opts;
    if (read_options(args, &opts, err) < 0)
        return -1;
    const char *root = ad_arg_str(args, "root");
    if (ad_arg_str(args, "since") && (json_object_get(ctx->globals, "wait_for") ||
                                      json_object_get(ctx->globals, "wait_for_gone"))) {
        ad_error_set(err, AD_INVALID_ARGS,
                     "--since cannot be combined with --wait-for or --wait-for-gone");
        ad_error_suggest(err, "Run wait first, then snapshot --since");
        return -1;
    }
    if (root) {
        if (json_object_get(ctx->globals, "wait_for") ||
            json_object_get(ctx->globals, "wait_for_gone")) {
            ad_error_set(err, AD_INVALID_ARGS,
                         "--root cannot be combined with --wait-for or --wait-for-gone");
            ad_error_suggest(err, "Run snapshot without --root, or omit the wait flags");
            return -1;
        }
        return drill(ctx, args, &opts, ret_data, err);
    }
    return full_snapshot(ctx, args, &opts, ret_data, err);
}
