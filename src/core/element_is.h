/* element_is.h: the boolean properties `is` answers for one element (observation.md, is):
 * visible, enabled, checked, focused, expanded, selected. Shared by the `is` command and the
 * C library's ad_is_exact, so both give one answer. */
#ifndef AD_ELEMENT_IS_H
#define AD_ELEMENT_IS_H

#include <stdbool.h>

#include "platform/adapter.h"

/* Evaluates property `prop` (one of the six; anything else is "selected") of n, a node of
 * `tree`. *applicable is false when it does not apply to this element or could not be read
 * (states, or for visible the bounds or the screen); the result is then false and means
 * unknown. */
bool ad_element_is(const ad_node *n, const ad_tree *tree, const char *prop, bool *applicable);

#endif
