/* resolve.h: strict ref resolution, shared by every command that takes a ref
 * (snapshots-and-refs.md, "How a ref resolves", steps 1-7).
 *
 * A ref resolves only when its process still runs (pid + process_instance), it was unique at
 * capture, and exactly one live element in a complete read of its window carries its
 * identity. Every other outcome is an error that says why; nothing is guessed. */
#ifndef AD_RESOLVE_H
#define AD_RESOLVE_H

#include <jansson.h>

#include "core/ctx.h"
#include "core/identity.h"
#include "core/refs.h"

typedef struct {
    ad_ref ref;
    char key[32];      /* "@eN" */
    json_t *refmap;    /* owned: the whole saved snapshot */
    json_t *entry;     /* borrowed from refmap */
    ad_window window;  /* owned: the live source window */
    ad_tree tree;      /* owned: the live read of that window */
    ad_identity_index *idx; /* owned: identity counts over tree */
    ad_node *node;     /* borrowed from tree: the element the ref names */
} ad_resolved;

/* Steps 1-3 only: parses the token, loads the refmap and finds the entry. */
int ad_resolve_load(ad_ctx *ctx, const char *token, ad_resolved *ret, ad_error *err);
/* Steps 4-6 on a loaded entry: live window read before deadline_us, then the count. The
 * read asks native ids only of the nodes that may carry the entry's identities (identity.c,
 * rule 8): r->tree is for acting on r->node, never for presenting or counting identities
 * (r->idx counts the unread ids as unknown). */
int ad_resolve_live(ad_ctx *ctx, ad_resolved *r, int64_t deadline_us, ad_error *err);
/* The same with every native id read, and the bounds of every node when all_bounds (drill
 * with --include-bounds): the tree can be presented. */
int ad_resolve_live_bounds(ad_ctx *ctx, ad_resolved *r, int64_t deadline_us, bool all_bounds,
                           ad_error *err);
/* What a live read covers beyond the target: the bounds of every node (get bounds, pointer
 * input on a ref), every native id (a tree that is presented; otherwise rule 8 of
 * identity.c). */
typedef struct {
    bool all_bounds, all_native_ids;
} ad_resolve_read;
int ad_resolve_live_read(ad_ctx *ctx, ad_resolved *r, int64_t deadline_us, ad_resolve_read how,
                         ad_error *err);
/* ad_resolve_load, then ad_resolve_live_bounds without all bounds (every native id read). */
int ad_resolve_ref(ad_ctx *ctx, const char *token, int64_t deadline_us, ad_resolved *ret,
                   ad_error *err);
void ad_resolved_clear(ad_resolved *r);

/* Lands on a ref entry's recorded index path ("path") in `tree` and proves the element there
 * still carries the entry's recorded identity (role, name, description, native id): the one
 * selected element, not any element with that identity, so duplicates a find picked with
 * first/last/nth land too. STALE_REF when the path is gone or leads to another element,
 * TIMEOUT when the identity there could not be read. *ret_node is borrowed from tree. */
int ad_resolve_by_path(const json_t *entry, const ad_tree *tree, const char *ref_text,
                       ad_node **ret_node, ad_error *err);

/* Step 6 on an already-read tree; exposed for unit tests. */
int ad_resolve_in_tree(const json_t *entry, const ad_tree *tree, const ad_identity_index *idx,
                       const char *ref_text, ad_node **ret_node, ad_error *err);

#endif
