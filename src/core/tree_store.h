/* tree_store.h: the stored form of a snapshot's whole window read, so that a later
 * `snapshot --since` can rebuild the "before" tree (core/tree_diff.h).
 *
 * One private file, snapshots/<id>/tree, beside the snapshot's refmap.json: written before
 * the refmap (atomic, mode 0600, not flushed: a file lost in a crash reads as "none", and
 * --since then says the snapshot has no stored read), pruned and collected with its
 * snapshot directory. Compact JSON:
 *   {"v":1, "window_id", "complete", "roles": [...], "nodes": [NODE, ...]}
 * nodes in document order, each an array whose trailing zeros are left out:
 *   [n_children, role index, name, ref, states, actions, value, description, native_id,
 *    toolkit_class, bounds, live_child_count + 1, flags]
 * A text is 0 when absent, null when unknown, else its string; a value longer than
 * AD_TREE_VALUE_KEEP bytes is kept as its mark (tree_diff.h) and a secure field's value is
 * never kept. states: null unknown, else the AD_ST_* bits; actions: null unknown, 0 none,
 * else the names joined by ','; bounds: 0 unread, else [x, y, w, h] in whole pixels; ref: 0
 * or N of @eN; flags: 1 children_cut, 2 secure, 4 checked_unreported, 8 native_id_unread.
 */
#ifndef AD_TREE_STORE_H
#define AD_TREE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "core/error.h"
#include "core/node.h"
#include "core/present.h"

#define AD_TREE_STORE_FILE "tree"
#define AD_TREE_STORE_MAX_BYTES (16u << 20)

/* A node of a read and the number N of its ref @eN (borrowed node). */
typedef struct {
    const ad_node *node;
    uint64_t ref;
} ad_node_ref;

/* A rebuilt read: the tree and the refs its nodes had. Owned by the caller
 * (ad_stored_tree_free frees the tree, its roles and the refs). */
typedef struct {
    ad_node *root;
    char *window_id;
    bool complete;
    char **roles; /* the nodes' role strings point here */
    size_t n_roles;
    ad_node_ref *refs; /* sorted by node address */
    size_t n_refs;
} ad_stored_tree;

/* Writes snapshots/<snapshot_id>/tree for the read at `root`, whose refs are `refs` (any
 * order, borrowed). A read whose stored form passes AD_TREE_STORE_MAX_BYTES is not written
 * (returns 1): --since that snapshot refuses. 0 written, -1 with err. */
int ad_tree_store_save(ad_ctx *ctx, const char *snapshot_id, const ad_node *root,
                       bool complete, const char *window_id, const ad_node_ref *refs,
                       size_t n_refs, ad_error *err);

/* The node -> ref pairs a presentation gave (pr->ref_nodes, numbered from pr->first_ref), in
 * allocation order: a new array (the caller frees it) of *ret_n entries, NULL when out of
 * memory. */
ad_node_ref *ad_node_refs_presented(const ad_present_result *pr, size_t *ret_n);

/* ad_tree_store_save for a new snapshot's read with the refs its presentation gave
 * (pr->ref_nodes, numbered from pr->first_ref). 0 (also when too large to keep), or -1. */
int ad_tree_store_save_presented(ad_ctx *ctx, const char *snapshot_id, const ad_tree *tree,
                                 const char *window_id, const ad_present_result *pr,
                                 ad_error *err);

/* Removes snapshots/<snapshot_id>/tree (a snapshot whose refmap could not be saved). */
void ad_tree_store_remove(ad_ctx *ctx, const char *snapshot_id);

/* Reads and rebuilds it. SNAPSHOT_NOT_FOUND (details.kind "no_stored_read") when the file is
 * missing or not a valid stored form; INTERNAL when a directory on the way is not private. */
int ad_tree_store_load(ad_ctx *ctx, const char *snapshot_id, ad_stored_tree *ret,
                       ad_error *err);
void ad_stored_tree_free(ad_stored_tree *t);

/* Sorts refs by node address, so ad_node_ref_find can search them. */
void ad_node_refs_sort(ad_node_ref *refs, size_t n);
/* The ref number of n in sorted refs, or 0. */
uint64_t ad_node_ref_find(const ad_node_ref *refs, size_t n, const ad_node *node);

#endif
