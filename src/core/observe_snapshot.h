/* observe_snapshot.h: --observe's after read saved as a snapshot of the acted window, so the
 * nodes an action added or changed carry refs the agent can act on next without another
 * read (issue 13: "new and changed nodes get new refs in the new snapshot").
 *
 * Saved only when the delta lists an added or changed node; an unchanged window keeps the
 * refs it had, and an action that changed nothing writes nothing. The snapshot is a plain one
 * (its refmap and its stored read, so `snapshot --since` and every ref command can name it),
 * with the refs a default snapshot of that read gives. The delta's entries keep tree_diff's
 * brief form (role, name, description, value, states) plus, for an added or changed node
 * that holds a ref there, its ref_id: a renamed node's old ref no longer matches, and an
 * added button can be clicked next. An added subtree still shows its top node only, so the
 * elements inside a dialog that opened are not listed: read them with snapshot.
 * Measured (bench-tokens.sh): showing added subtrees as `snapshot -i --compact` shows them
 * raised gtk4-demo's verify from 2.1 KB to 5.6 KB a step (33 KB unclipped: its source view),
 * below issue 13's 3x; the refs alone cost ~30 bytes an entry.
 * Refs of unchanged nodes from the earlier snapshot keep resolving: refs are identities.
 * Cost: the presentation and the snapshot's two atomic writes, only when something changed.
 */
#ifndef AD_OBSERVE_SNAPSHOT_H
#define AD_OBSERVE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/ctx.h"
#include "core/present.h"
#include "core/refs.h"
#include "core/tree_store.h"

typedef struct {
    char id[AD_SNAPSHOT_ID_MAX + 1]; /* "" when nothing was saved */
    ad_node_ref *refs;   /* the snapshot's refs, sorted by node (owned) */
    size_t n_refs;
} ad_observe_snapshot;

/* Saves `after` (the read of window `win`, borrowed; it must outlive *ret, whose entries
 * point into it) as a new snapshot. 0 with *ret filled, or -1 with err and *ret empty (no
 * file left behind). */
int ad_observe_snapshot_save(ad_ctx *ctx, const ad_window *win, const ad_tree *after,
                             ad_observe_snapshot *ret, ad_error *err);
void ad_observe_snapshot_clear(ad_observe_snapshot *s); /* NULL-safe */

/* ad_delta_node_fn (core/tree_diff.h) over an ad_observe_snapshot (ud), as above. */
json_t *ad_observe_snapshot_node(void *ud, const ad_node *n, bool after, bool with_children);

#endif
