/* since.h: `snapshot --since SNAPSHOT_ID` and `find --since`: what changed in the same window
 * since that snapshot (core/tree_diff.h), against the read the snapshot stored
 * (core/tree_store.h). Every snapshot stores its read (ad_tree_store_save_presented), so any
 * of them can be named later. The command still saves a new snapshot and refmap, as a plain
 * one does.
 */
#ifndef AD_COMMANDS_SINCE_H
#define AD_COMMANDS_SINCE_H

#include <stdbool.h>
#include <jansson.h>

#include "core/ctx.h"
#include "core/error.h"
#include "core/present.h"
#include "core/tree_store.h"
#include "platform/adapter.h"

/* The earlier read --since names (owned; ad_since_clear). id is NULL without --since. */
typedef struct {
    const char *id; /* borrowed from args */
    ad_stored_tree before;
} ad_since;

/* Loads the read of args.since, when given, before anything reaches the desktop:
 * SNAPSHOT_NOT_FOUND for an unknown, pruned or readless snapshot, INVALID_ARGS when
 * --window-id names another window. *ret_window_id is the window to read (borrowed):
 * --window-id, else the snapshot's own window unless --app chooses one. 0 or -1. */
int ad_since_load(ad_ctx *ctx, const json_t *args, ad_since *ret, const char **ret_window_id,
                  ad_error *err);
/* INVALID_ARGS (details.kind "since_other_window") when the window read is not the one the
 * snapshot read. */
int ad_since_same_window(const ad_since *s, const ad_window *win, ad_error *err);
void ad_since_clear(ad_since *s);

/* The data object --since prints (a new reference), built from the plain one (`plain`,
 * stolen) and the presentation that made it (its emitted nodes and refs):
 *   since: the earlier id; and either the delta members (tree_diff.h ad_tree_delta_json:
 *   unchanged, added, removed, changed, unproven_count) in place of `tree`, or, when the
 *   delta would print more bytes than `plain` (or more than max_data_bytes, when > 0),
 *   `plain` as it is with delta_skipped: "larger_than_snapshot" / "over_budget".
 * NULL when out of memory. */
json_t *ad_since_data(const ad_since *s, const ad_tree *after, const ad_present_result *pr,
                      json_t *plain, long long max_data_bytes);

/* find --since: the delta's nodes that satisfy `keep`, in document order. An added or
 * removed subtree counts every node of it that satisfies keep. Arrays are the caller's
 * (ad_since_matches_clear); nodes are borrowed from the two reads. */
typedef struct {
    const ad_node **added, **removed, **changed;
    unsigned *changed_fields; /* AD_DIFF_* of changed[i] */
    size_t n_added, n_removed, n_changed;
    bool complete; /* both reads complete and nothing unproven (tree_diff.h) */
    size_t unproven;
} ad_since_matches;

int ad_since_match(const ad_since *s, const ad_tree *after,
                   bool (*keep)(const ad_node *n, void *ud), void *ud, ad_since_matches *ret);
void ad_since_matches_clear(ad_since_matches *m);

#endif
