/* observe_snapshot.c: --observe's after read as a snapshot (observe_snapshot.h). */
#include "core/observe_snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/identity.h"
#include "core/refstore.h"
#include "core/trace_event.h"
#include "core/tree_diff.h"

#define DEFAULT_DEPTH 10 /* snapshot's --max-depth default (dispatch/command_args.c) */

void ad_observe_snapshot_clear(ad_observe_snapshot *s)
{
    if (!s)
        return;
    free(s->refs);
    memset(s, 0, sizeof(*s));
}

int ad_observe_snapshot_save(ad_ctx *ctx, const ad_window *win, const ad_tree *after,
                             ad_observe_snapshot *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    ad_identity_index *idx = ad_identity_index_build(after->root);
    ad_present_result pr = {0};
    json_t *map = NULL;
    char id[AD_SNAPSHOT_ID_MAX + 1];
    int rc = -1;
    if (!idx || ad_snapshot_id_new(id) < 0) {
        ad_error_set(err, AD_INTERNAL, "cannot allocate a snapshot");
        goto done;
    }
    ad_present_source src = {.window = win, .app_name = win->app_name, .surface = "window",
                             .identity_proven = after->complete};
    uint64_t next_ref = 1;
    map = ad_refmap_new(id, &src, next_ref);
    /* The refs a default snapshot gives; its presentation itself is not shown. */
    ad_present_opts opts = {.max_depth = DEFAULT_DEPTH};
    if (ad_present(after->root, idx, &opts, &src, id, json_object_get(map, "refs"), &next_ref,
                   &pr) < 0) {
        ad_error_set(err, AD_INTERNAL, "cannot present the window read after the action");
        goto done;
    }
    json_object_set_new(map, "next_ref", json_integer((json_int_t)next_ref));
    /* The node -> ref pairs, made once: the stored read keeps them and the delta shows them. */
    if (!(ret->refs = ad_node_refs_presented(&pr, &ret->n_refs))) {
        ad_error_set(err, AD_INTERNAL, "out of memory");
        goto done;
    }
    /* The read first, then the refmap that makes the snapshot, as snapshot does. */
    if (ad_tree_store_save(ctx, id, after->root, after->complete, win->id, ret->refs,
                           ret->n_refs, err) < 0)
        goto done;
    if (ad_refstore_save(ctx, map, err) < 0) {
        ad_tree_store_remove(ctx, id);
        goto done;
    }
    ad_node_refs_sort(ret->refs, ret->n_refs);
    memcpy(ret->id, id, sizeof(id));
    ad_trace_event(ctx, "snapshot.saved",
                   json_pack("{s:s, s:s, s:s, s:I, s:b, s:b}", "snapshot_id", id, "app",
                             win->app_name ? win->app_name : "", "window_id", win->id,
                             "ref_count", (json_int_t)pr.refs_added, "complete",
                             after->complete, "observe", 1));
    rc = 0;
done:
    if (rc < 0)
        ad_observe_snapshot_clear(ret);
    json_decref(pr.tree);
    free(pr.emitted);
    free(pr.ref_nodes);
    json_decref(map);
    ad_identity_index_free(idx);
    return rc;
}

static void set_ref(const ad_observe_snapshot *s, const ad_node *n, json_t *o)
{
    uint64_t ref = ad_node_ref_find(s->refs, s->n_refs, n);
    if (!ref)
        return;
    char text[AD_SNAPSHOT_ID_MAX + 32];
    snprintf(text, sizeof(text), "@%s:e%llu", s->id, (unsigned long long)ref);
    json_object_set_new(o, "ref_id", json_string(text));
}

json_t *ad_observe_snapshot_node(void *ud, const ad_node *n, bool after, bool with_children)
{
    (void)with_children; /* an added node is shown alone, as without a snapshot */
    json_t *o = ad_tree_delta_node_brief(n, after);
    if (after)
        set_ref(ud, n, o);
    return o;
}
