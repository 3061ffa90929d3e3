/* identity.h: the identity of an element and counts of each identity over one whole window
 * read. The rules (which fields are identity, which are state) are numbered at the top of
 * identity.c.
 *
 * Values and bounds are never identity. A node with an unknown identity field can neither
 * match nor be excluded, so it makes any count over its role unproven. */
#ifndef AD_IDENTITY_H
#define AD_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/node.h"

/* One identity; NULL stands for "absent". Strings are borrowed from a node or a ref entry.
 * description_shows_value: the description shows the element's value, so only that fact is
 * identity and description is NULL (identity.c, rule 5). */
typedef struct {
    const char *role, *native_id, *name, *description, *toolkit_class;
    bool description_shows_value;
} ad_identity;

typedef struct ad_identity_index ad_identity_index;

/* The identity a node carries, by the rules of identity.c (borrowed from n). */
ad_identity ad_identity_of(const ad_node *n);
/* True when the node's identity cannot be decided: a field of it is unknown (rule 6). Such
 * a node cannot prove or disprove a match. */
bool ad_identity_unknown(const ad_node *n);
/* True when n can neither match nor miss `want`: its identity is unknown, or `want` relied on
 * rule 5 and n's value could not be read (rule 6). */
bool ad_identity_unproven(const ad_node *n, const ad_identity *want);

/* True when n may carry `want` once its native id is read: the role and toolkit class are
 * equal and the name is equal or unknown. Settled before the id is asked, so a reader can
 * ask the id of these nodes only (identity.c, rule 8). Description is left out: it may wait
 * on a value still being read (rule 5). */
bool ad_identity_could_match(const ad_node *n, const ad_identity *want);

/* ad_read_limits.native_id_needed for a read that neither compares identities nor shows an
 * id (a --wait-for selector count, the list of an app's surfaces): asks none. */
bool ad_identity_no_id_needed(const ad_node *n, void *ud);

/* Counts every identity in the tree. Returns NULL on allocation failure. */
ad_identity_index *ad_identity_index_build(const ad_node *root);
void ad_identity_index_free(ad_identity_index *idx);
/* How many nodes of the indexed tree carry this identity. */
size_t ad_identity_count(const ad_identity_index *idx, const ad_identity *id);
/* True when some node of `role` had an unknown identity field. */
bool ad_identity_role_unknown(const ad_identity_index *idx, const char *role);
/* True when n's identity is known and no other node in the indexed tree shares it. */
bool ad_identity_unique(const ad_identity_index *idx, const ad_node *n);

/* Does the node carry exactly this identity? */
bool ad_identity_matches(const ad_node *n, const ad_identity *want);

#endif
