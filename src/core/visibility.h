/* visibility.h: is an element visible? One answer for `is --property visible`,
 * `wait --predicate visible`, the `visible` actionability check and scroll-to's readback.
 *
 * Visible means all of: its states are read and say neither hidden nor offscreen; its bounds
 * are read (unreadable extents, such as GTK3's INT_MIN for a tree-view row scrolled out of
 * view, are "bounds unknown", never a rectangle) and have an area; and that area intersects
 * the screen the adapter reported with the read. Anything unproven is not visible.
 * Where the window's place on the screen is unknown (Wayland without a frame source), the
 * bounds are window-relative and the tree's screen is the window (ad_tree.screen_is_window):
 * visible then means inside its window, the most a read can prove there. */
#ifndef AD_VISIBILITY_H
#define AD_VISIBILITY_H

#include "platform/adapter.h"

typedef enum {
    AD_VISIBLE,       /* proven on screen */
    AD_NOT_VISIBLE,   /* proven not: hidden, offscreen, no area, outside the screen */
    AD_VISIBILITY_UNKNOWN, /* states, bounds or the screen could not be read */
} ad_visibility;

/* The visibility of n, a node of `tree` (whose screen rectangle is used). *ret_reason gets
 * a static sentence for anything but AD_VISIBLE, else NULL. */
ad_visibility ad_visibility_of(const ad_node *n, const ad_tree *tree, const char **ret_reason);

/* The reason the stable check gives when the bounds are not known (scroll.md). */
#define AD_NO_LIVE_BOUNDS "live bounds unavailable"

#endif
