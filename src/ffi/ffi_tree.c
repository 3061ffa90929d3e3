/* ffi_tree.c: ad_get_tree_exact and ad_free_tree. The tree is the snapshot command's walk of
 * the exact window (`snapshot --window-id`, the same validator, limits, depth, compaction and
 * interactive filter), flattened breadth first so each node's children are contiguous at
 * nodes[child_start..]. The raw tree carries no refs (content.ref_id and content.hint are
 * NULL), and the snapshot's refmap is not kept by the caller.
 *
 * Ownership: the nodes, their state arrays and every string live in one block whose start is
 * tree->nodes, so ad_free_tree releases all of it with one free. */
#include <stdlib.h>
#include <string.h>

#include "ffi/ffi_exact.h"
#include "ffi/ffi_private.h"

/* A bump allocator over the one block (two passes: measure, then fill). */
typedef struct {
    char *base; /* NULL while measuring */
    size_t used;
} arena;

static void *arena_take(arena *a, size_t n, size_t align)
{
    a->used = (a->used + align - 1) / align * align;
    void *p = a->base ? a->base + a->used : NULL;
    a->used += n;
    return p;
}

static const char *arena_str(arena *a, const json_t *s)
{
    const char *text = json_string_value(s);
    if (!text)
        return NULL;
    size_t n = strlen(text) + 1;
    char *p = arena_take(a, n, 1);
    if (p)
        memcpy(p, text, n);
    return p;
}

/* The nodes of `root` in breadth-first order (borrowed), *ret_count of them. */
static const json_t **breadth_first(const json_t *root, size_t *ret_count)
{
    size_t cap = 64, count = 1;
    const json_t **q = malloc(cap * sizeof(*q));
    if (!q)
        return NULL;
    q[0] = root;
    for (size_t i = 0; i < count; i++) {
        const json_t *kids = json_object_get(q[i], "children");
        for (size_t k = 0; k < json_array_size(kids); k++) {
            if (count == cap) {
                const json_t **grown = realloc(q, 2 * cap * sizeof(*q));
                if (!grown) {
                    free(q);
                    return NULL;
                }
                q = grown;
                cap *= 2;
            }
            q[count++] = json_array_get(kids, k);
        }
    }
    *ret_count = count;
    return q;
}

/* Lays the nodes out in a (measuring when a->base is NULL). */
static void lay_out(arena *a, const json_t **q, size_t count, bool include_bounds)
{
    AdNode *nodes = arena_take(a, count * sizeof(AdNode), _Alignof(AdNode));
    size_t next_child = 1;
    for (size_t i = 0; i < count; i++) {
        const json_t *j = q[i], *states = json_object_get(j, "states");
        size_t n_kids = json_array_size(json_object_get(j, "children"));
        size_t n_states = json_array_size(states);
        char **st = n_states ? arena_take(a, n_states * sizeof(char *), _Alignof(char *))
                             : NULL;
        AdNode node = {
            .content = {.role = arena_str(a, json_object_get(j, "role")),
                        .name = arena_str(a, json_object_get(j, "name")),
                        .value = arena_str(a, json_object_get(j, "value")),
                        .description = arena_str(a, json_object_get(j, "description"))},
            .presentation = {.states = st, .state_count = (uint32_t)n_states},
            .relation = {.parent_index = -1, .child_start = (uint32_t)next_child,
                         .child_count = (uint32_t)n_kids},
        };
        for (size_t s = 0; s < n_states; s++) {
            const char *tok = arena_str(a, json_array_get(states, s));
            if (st)
                st[s] = (char *)tok;
        }
        const json_t *b = json_object_get(j, "bounds");
        if (include_bounds && json_is_object(b)) {
            node.presentation.has_bounds = true;
            node.presentation.bounds = (AdRect){
                json_number_value(json_object_get(b, "x")),
                json_number_value(json_object_get(b, "y")),
                json_number_value(json_object_get(b, "width")),
                json_number_value(json_object_get(b, "height"))};
        }
        if (!n_kids)
            node.relation.child_start = 0;
        if (nodes) {
            /* Node i's parent wrote its parent_index when the parent was laid out. */
            int32_t parent = i ? nodes[i].relation.parent_index : -1;
            nodes[i] = node;
            nodes[i].relation.parent_index = parent;
            for (size_t k = 0; k < n_kids; k++)
                nodes[next_child + k].relation.parent_index = (int32_t)i;
        }
        next_child += n_kids;
    }
}

AdResult ad_get_tree_exact(const struct AdAdapter *adapter, const struct AdExactWindowInfo *win,
                           const struct AdTreeOptions *opts, struct AdNodeTree *out)
{
    AdResult rc = ffi_check_ptr(out, "out");
    if (rc != AD_RESULT_OK)
        return rc;
    *out = (AdNodeTree){0};
    if ((rc = ffi_check_exact_window(win, "win")) != AD_RESULT_OK ||
        (rc = ffi_check_ptr(opts, "opts")) != AD_RESULT_OK ||
        (rc = ffi_check_enum(opts->surface, 0, AD_SNAPSHOT_SURFACE_ACTION_CENTER,
                             "opts.surface")) != AD_RESULT_OK)
        return rc;
    /* The validator checks the depth (0 to 50) and refuses a surface this platform lacks. */
    json_t *args = json_pack("{s:s, s:s, s:i, s:b, s:b, s:b}", "window_id", win->window.id,
                             "surface", ffi_surface_names[opts->surface], "max_depth",
                             (int)opts->max_depth, "interactive_only", opts->interactive_only,
                             "compact", opts->compact, "include_bounds", opts->include_bounds);
    json_t *data = NULL;
    if ((rc = ffi_run(adapter, "snapshot", args, &data, NULL)) != AD_RESULT_OK)
        return rc;
    const json_t *root = json_object_get(data, "tree");
    size_t count = 0;
    const json_t **q = json_is_object(root) ? breadth_first(root, &count) : NULL;
    arena a = {0};
    if (q) {
        lay_out(&a, q, count, opts->include_bounds);
        a.base = malloc(a.used ? a.used : 1);
        a.used = 0;
    }
    if (!q || !a.base || count > UINT32_MAX) {
        free(q);
        free(a.base);
        json_decref(data);
        return ffi_fail(AD_RESULT_ERR_INTERNAL, root ? "out of memory" : "snapshot had no tree",
                        NULL);
    }
    lay_out(&a, q, count, opts->include_bounds);
    out->nodes = (AdNode *)a.base;
    out->count = (uint32_t)count;
    free(q);
    json_decref(data);
    return AD_RESULT_OK;
}

void ad_free_tree(struct AdNodeTree *tree)
{
    if (!tree)
        return;
    free(tree->nodes);
    *tree = (AdNodeTree){0};
}
