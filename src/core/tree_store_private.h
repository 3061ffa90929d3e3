/* tree_store_private.h: what the stored read's writer (tree_store.c) and its loader
 * (tree_store_load.c) share: the node array's slots and flags (the form in tree_store.h),
 * the loader's limits, and the snapshot directory both open. */
#ifndef AD_TREE_STORE_PRIVATE_H
#define AD_TREE_STORE_PRIVATE_H

#include <stdbool.h>

#include "core/ctx.h"
#include "core/error.h"
#include "core/state_files.h"

enum { F_CUT = 1, F_SECURE = 2, F_CHECKED_UNREPORTED = 4, F_ID_UNREAD = 8 };
enum { I_KIDS, I_ROLE, I_NAME, I_REF, I_STATES, I_ACTIONS, I_VALUE, I_DESC, I_NID, I_CLASS,
       I_BOUNDS, I_LIVE, I_FLAGS, I_COUNT };
/* Deeper than any read (raw depth 50): a stored form deeper than this is not ours. */
#define STORE_DEPTH_MAX 256
#define STORE_NODES_MAX 200000

/* snapshots/<snapshot_id> of the context's namespace into *ret (the caller closes it);
 * created when `create`. 0 opened, 1 missing (not created), -1 with err. */
int ad_tree_store_dir_open(ad_ctx *ctx, const char *snapshot_id, bool create,
                           ad_state_dir *ret, ad_error *err);

#endif
