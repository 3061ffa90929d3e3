/* identity.h: the identity of an element (role, native id, name, description) and counts of
 * each identity over one whole window read.
 *
 * Values and bounds are never identity. A node with an unknown identity field can neither
 * match nor be excluded, so it makes any count over its role unproven. */
#ifndef AD_IDENTITY_H
#define AD_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/node.h"

typedef struct ad_identity_index ad_identity_index;

/* Counts every identity in the tree. Returns NULL on allocation failure. */
ad_identity_index *ad_identity_index_build(const ad_node *root);
void ad_identity_index_free(ad_identity_index *idx);
/* How many nodes of the indexed tree share n's identity (n need not be in the tree). */
size_t ad_identity_count(const ad_identity_index *idx, const char *role, const char *native_id,
                         const char *name, const char *description);
/* True when some node of `role` had an unknown identity field. */
bool ad_identity_role_unknown(const ad_identity_index *idx, const char *role);
/* True when n's identity is known and no other node in the indexed tree shares it. */
bool ad_identity_unique(const ad_identity_index *idx, const ad_node *n);

/* Does the node carry exactly this identity? NULL stands for "absent". */
bool ad_identity_matches(const ad_node *n, const char *role, const char *native_id,
                         const char *name, const char *description);

#endif
