/* gtk4_place.h: puts a tree read with window-relative extents on the screen: a GTK 4 tree on
 * X11, every tree in a Wayland session. */
#ifndef AD_GTK4_PLACE_H
#define AD_GTK4_PLACE_H

#include "core/node.h"
#include "linux/shell_frames.h"
#include "linux/walker.h"
#include "platform/adapter.h" /* ad_tree */

/* Moves every known rectangle of tree->root (the window of process `pid`) to
 * screen coordinates: the window's content-box origin on X, and for a popover the origin
 * of its own surface (x11_geometry.h has the measurements). Bounds that cannot be placed
 * (no X display, Wayland, no single matching X window) become unknown, never wrong. Does
 * nothing for a tree whose extents are already screen coordinates.
 * In a Wayland session every toolkit's extents are window-relative: the window is found in
 * GNOME Shell's window list (shell_frames.h, shell_geometry.h) by pid, title and size, and
 * the tree moves by its origin; without that list or a single match every bound is unknown.
 * There the list also gives tree->screen (the stage), which X11 gives elsewhere; it is read
 * through `shell` (the adapter's, borrowed). */
void ad_gtk4_place_tree(ad_tree *tree, const ad_window_frame *frame, int pid,
                        ad_shell_reader *shell);

#endif
