/* element_is.c: the boolean properties of `is`, read from one live element. */
#include "core/element_is.h"

#include <string.h>

#include "core/visibility.h"

bool ad_element_is(const ad_node *n, const ad_tree *tree, const char *prop, bool *applicable)
{
    if (strcmp(prop, "visible") == 0) {
        const char *why = NULL;
        ad_visibility v = ad_visibility_of(n, tree, &why);
        *applicable = v != AD_VISIBILITY_UNKNOWN;
        return v == AD_VISIBLE;
    }
    *applicable = n->states_state == AD_FIELD_KNOWN;
    if (!*applicable)
        return false;
    uint32_t s = n->states;
    if (strcmp(prop, "enabled") == 0)
        return !(s & (1u << AD_ST_DISABLED));
    if (strcmp(prop, "focused") == 0)
        return s & (1u << AD_ST_FOCUSED);
    if (strcmp(prop, "checked") == 0) {
        /* A state the toolkit never reports is unknown, not false. */
        *applicable = ad_node_checkable(n) && ad_node_checked(n) >= 0;
        return *applicable && ad_node_checked(n) == 1;
    }
    if (strcmp(prop, "expanded") == 0) {
        *applicable = (n->caps & AD_CAP_EXPANDABLE) || (s & (1u << AD_ST_EXPANDED));
        return *applicable && (s & (1u << AD_ST_EXPANDED));
    }
    /* selected */
    *applicable = (n->caps & AD_CAP_SELECTABLE) || (s & (1u << AD_ST_SELECTED));
    return *applicable && (s & (1u << AD_ST_SELECTED));
}
