/* visibility.c: the one visibility rule (visibility.h). */
#include "core/visibility.h"

static bool has(const ad_node *n, unsigned bit)
{
    return n->states & (1u << bit);
}

static bool intersects(const ad_rect *a, const ad_rect *b)
{
    return a->x < b->x + b->width && b->x < a->x + a->width && a->y < b->y + b->height &&
           b->y < a->y + a->height;
}

/* Bounds in the space of the tree's screen: screen coordinates, or window-relative ones in a
 * tree whose "screen" is the window itself. */
static bool bounds_in_screen_space(const ad_node *n, const ad_tree *tree)
{
    return n->bounds_state == AD_FIELD_KNOWN ||
           (n->bounds_state == AD_FIELD_WINDOW_RELATIVE && tree && tree->screen_is_window);
}

ad_visibility ad_visibility_of(const ad_node *n, const ad_tree *tree, const char **ret_reason)
{
    const char *why = NULL;
    ad_visibility v = AD_NOT_VISIBLE;
    if (n->states_state != AD_FIELD_KNOWN) {
        v = AD_VISIBILITY_UNKNOWN;
        why = "states could not be read";
    } else if (has(n, AD_ST_HIDDEN)) {
        why = "hidden";
    } else if (has(n, AD_ST_OFFSCREEN)) {
        why = "offscreen";
    } else if (!bounds_in_screen_space(n, tree)) {
        v = AD_VISIBILITY_UNKNOWN;
        why = AD_NO_LIVE_BOUNDS;
    } else if (n->bounds.width <= 0 || n->bounds.height <= 0) {
        why = "the element has no area";
    } else if (!tree || tree->screen_state != AD_FIELD_KNOWN) {
        v = AD_VISIBILITY_UNKNOWN;
        why = "the screen's bounds are unavailable";
    } else if (!intersects(&n->bounds, &tree->screen)) {
        why = tree->screen_is_window ? "outside its window" : "outside the screen";
    } else {
        v = AD_VISIBLE;
    }
    *ret_reason = why;
    return v;
}
