/* tree_diff.h: what changed between two reads of one window (snapshot --since, --observe).
 *
 * Nodes are matched by identity (core/identity.h), level by level from the two roots, never
 * by position alone:
 *   1. the roots are a pair;
 *   2. a pair's children with the same identity key are paired in order when both reads hold
 *      the same number of them (position among same-identity siblings); when the numbers
 *      differ none of them is paired: they are removed and added, never guessed as changed;
 *   3. of what is left, a child whose role, native id and toolkit class occur exactly once
 *      among the unpaired children on both sides is paired with its counterpart: a renamed
 *      label is one node whose name changed;
 *   4. a node whose identity is unknown (a field could not be read) pairs with nothing. An
 *      unpaired child of the before read is removed only when the after read holds all of
 *      its parent's children (no children_cut) and no child of unknown identity; otherwise
 *      it is unproven: a failed read is never an absence. Likewise an unpaired after child
 *      is added only when the before read held all of the parent's children; it and an after
 *      child of unknown identity are otherwise unproven.
 * Added and removed list the top of each subtree that appeared or went (its descendants are
 * not listed again). A pair whose own fields differ is changed; children changes when
 * children were added to or removed from it. Values are compared as text; a before value
 * that is a mark (ad_tree_value_mark: a stored read keeps long values so) is compared with
 * the mark of the after value.
 *
 * Ownership: an ad_tree_delta is the caller's (ad_tree_delta_free). Its entries borrow the
 * nodes of both trees, which must outlive it.
 */
#ifndef AD_TREE_DIFF_H
#define AD_TREE_DIFF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/node.h"

/* Fields of a changed pair, as bits. */
enum {
    AD_DIFF_NAME = 1u << 0,
    AD_DIFF_VALUE = 1u << 1,
    AD_DIFF_DESCRIPTION = 1u << 2,
    AD_DIFF_STATES = 1u << 3,
    AD_DIFF_ACTIONS = 1u << 4,
    AD_DIFF_BOUNDS = 1u << 5,
    AD_DIFF_CHILDREN = 1u << 6,
    AD_DIFF_FIELD_COUNT = 7
};

/* One entry: before is NULL for an added node, after NULL for a removed one (borrowed). */
typedef struct {
    const ad_node *before, *after;
    unsigned fields; /* AD_DIFF_* of a changed pair; 0 for added and removed */
} ad_delta_entry;

typedef struct {
    /* added and changed in the after tree's document order; removed in the order of the
     * pairs they were found under (their parents', in the after tree's order) */
    ad_delta_entry *added, *removed, *changed;
    size_t n_added, n_removed, n_changed;
    size_t n_unchanged; /* pairs with no field changed */
    size_t n_unproven;  /* unpaired nodes neither proved added nor removed (rule 4) */
    /* Both reads were complete and nothing is unproven. */
    bool complete;
} ad_tree_delta;

typedef struct {
    bool before_complete, after_complete; /* the reads' own completeness (ad_tree.complete) */
    /* Compare bounds where both reads know them (else bounds never count as a change). */
    bool compare_bounds;
} ad_tree_diff_opts;

/* Diffs before against after. 0 with *ret (the caller's), or -1 when out of memory. */
int ad_tree_diff(const ad_node *before, const ad_node *after, const ad_tree_diff_opts *opts,
                 ad_tree_delta **ret);
void ad_tree_delta_free(ad_tree_delta *d); /* NULL-safe */
/* Nothing added, removed, changed or unproven. */
bool ad_tree_delta_unchanged(const ad_tree_delta *d);

/* A stored read keeps a value longer than AD_TREE_VALUE_KEEP bytes as its mark: 0x01, then
 * 16 hex digits of its FNV-1a 64 hash, then a NUL. */
#define AD_TREE_VALUE_KEEP 256
#define AD_TREE_VALUE_MARK_SIZE 18
void ad_tree_value_mark(const char *value, char buf[AD_TREE_VALUE_MARK_SIZE]);
bool ad_tree_value_is_mark(const char *text);
/* "name", "value", "description", "states", "actions", "bounds", "children", or NULL. */
const char *ad_diff_field_name(unsigned bit);
/* The names of the AD_DIFF_* bits set in fields, in bit order (a new JSON array). */
json_t *ad_diff_fields_json(unsigned fields);
/* n's child indexes from its read's root, as the delta's "path" (a new array). */
json_t *ad_node_path_json(const ad_node *n);

/* Shows one node of a delta (a new reference): `after` tells which tree n belongs to;
 * with_children asks for its subtree too (an added node). */
typedef json_t *(*ad_delta_node_fn)(void *ud, const ad_node *n, bool after,
                                     bool with_children);
/* node_json NULL's form of one node (below; a new reference). */
json_t *ad_tree_delta_node_brief(const ad_node *n, bool after);

/* The delta's members to put in a command's data object (a new reference):
 *   unchanged: true alone when nothing changed; else unchanged: false and
 *   added: [node + path], removed: [node + path + removed_nodes], changed: [node + path +
 *   changed: [field names]], each left out when empty, and unproven_count when non-zero.
 * path is the node's child indexes from its root in its own tree. node_json NULL shows role,
 * name, description, value (never a before read's, never a secure field's) and states. */
json_t *ad_tree_delta_json(const ad_tree_delta *d, ad_delta_node_fn node_json, void *ud);

#endif
