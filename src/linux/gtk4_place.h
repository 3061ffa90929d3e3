/* gtk4_place.h: puts a GTK 4 tree, read with window-relative extents, on the X screen. */
#ifndef AD_GTK4_PLACE_H
#define AD_GTK4_PLACE_H

#include "core/node.h"
#include "linux/walker.h"

/* Moves every known rectangle of the tree under `root` (the window of process `pid`) to
 * screen coordinates: the window's content-box origin on X, and for a popover the origin
 * of its own surface (x11_geometry.h has the measurements). Bounds that cannot be placed
 * (no X display, Wayland, no single matching X window) become unknown, never wrong. Does
 * nothing for a tree whose extents are already screen coordinates. */
void ad_gtk4_place_tree(ad_node *root, const ad_window_frame *frame, int pid);

#endif
