/* gnome_shell.h: reading GNOME Shell's own accessibility tree (gnome-shell 43).
 *
 * gnome-shell registers on the AT-SPI bus as the application "gnome-shell". Its one window is
 * the stage; the stage's first child is the UI group, whose children are the shell's layers:
 * the Overview, the top bar, the message tray (banners), and one hidden panel per top-bar
 * menu that shows while that menu is open (a BoxPointer hanging below the bar, arrow at its
 * button). Its extents are screen coordinates on X11 and Wayland. Measured on Debian 12: no
 * element of the shell names an AT-SPI action (Action.NActions is 0 on every button), no
 * relation ties a menu to its button, and a top-bar button's states do not change while its
 * menu is open; so an open menu is found by place (ad_shell_bar_menu_of), and opening one takes
 * pointer input.
 *
 * These helpers read the tree only; surfaces (shell_surfaces.h) and notifications build on
 * them. Nodes returned are borrowed from the read they were found in. */
#ifndef AD_GNOME_SHELL_H
#define AD_GNOME_SHELL_H

#include <stdbool.h>
#include <systemd/sd-bus.h>

#include "platform/adapter.h"

/* True when app is GNOME Shell itself (its AT-SPI application name). */
bool ad_shell_is_shell_app(const ad_app *app);

/* Finds gnome-shell on the accessibility bus: 1 with *ret filled (the caller clears it with
 * ad_app_clear), 0 when no shell is registered, -1 with err when the registry did not answer
 * (unknown, never "no shell"). */
int ad_shell_find_app(sd_bus *bus, int64_t deadline_us, ad_app *ret, ad_error *err);

/* Reads the shell's application tree down to max_depth levels (the top bar's buttons sit at
 * depth 7, the menus at 3) with every node's bounds. A read cut by the deadline fails with
 * TIMEOUT: what was not read is unknown, and a caller must not take it for "closed". The tree
 * is the caller's (ad_tree_clear). */
int ad_shell_read(sd_bus *bus, const ad_app *shell, int max_depth, int64_t deadline_us,
                  ad_tree *ret, ad_error *err);

/* The stage (the application's first window) and its UI group, in a read; NULL when absent. */
const ad_node *ad_shell_stage(const ad_tree *t);
const ad_node *ad_shell_ui_group(const ad_node *stage);

/* True when n is shown on screen: visible, not off screen, with bounds known and not empty. */
bool ad_shell_shown(const ad_node *n);

/* The top bar: the UI group's shown child at the top edge of the stage, as wide as it and
 * less than a quarter of its height, holding the bar with its three boxes. NULL if none. */
const ad_node *ad_shell_top_bar(const ad_node *ui_group);

typedef enum { AD_SHELL_BOX_LEFT = 0, AD_SHELL_BOX_CENTER = 1, AD_SHELL_BOX_RIGHT = 2 } ad_shell_box;
/* One of the bar's three boxes (Activities on the left, the clock in the center, the status
 * indicators and the System menu on the right); NULL if the bar is not shaped so. */
const ad_node *ad_shell_top_bar_box(const ad_node *top_bar, ad_shell_box which);

/* The first shown node under root (depth first, root included) with this canonical role and,
 * when name is non-NULL, this name; NULL when none. */
const ad_node *ad_shell_find_shown(const ad_node *root, const char *role, const char *name);

/* The open menu of a top-bar button: a shown child of the UI group other than the bar that
 * hangs from the bar's bottom edge (within 8 px), spans the button's horizontal center and is
 * narrower than the stage (the message tray, which shows banners from the same edge, spans
 * the whole width). NULL when the button's menu is closed. */
const ad_node *ad_shell_bar_menu_of(const ad_node *ui_group, const ad_node *top_bar,
                                 const ad_node *button);

/* A cheap first look, from a read of depth 3 (the UI group's children without their
 * subtrees): true when some shown child narrower than the stage starts below the stage's top
 * edge within its top quarter, where an open top-bar menu hangs. False means no top-bar menu
 * is open; true means one may be (read deeper and ask ad_shell_bar_menu_of). */
bool ad_shell_may_show_bar_menu(const ad_node *ui_group);

/* Splits a node's adapter address ("bus|path") into a window id (ad_atspi_window_id): the
 * caller's string, or NULL without an address or memory. */
char *ad_shell_node_window_id(const ad_node *n);

#endif
