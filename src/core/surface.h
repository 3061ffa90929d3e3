/* surface.h: the UI layers read separately from a window (surfaces.md): the window itself,
 * the focused window, an open menu, a sheet (modal dialog) and an alert. On Linux all of them
 * are window-owned: a menu (or a GTK3 popover) is found inside one of the app's windows, which
 * for a GTK3 context menu is its own popup-menu top level (ad_window.kind "menu"). */
#ifndef AD_SURFACE_H
#define AD_SURFACE_H

#include <stdbool.h>
#include <jansson.h>

#include "core/ctx.h"

/* The kinds this build reads, NULL-terminated. */
extern const char *const ad_surface_kinds[];

/* What a surface read produced: the owning window, its whole read, and the node the
 * surface starts at (the window root, or the open menu inside it). Caller clears it. */
typedef struct {
    ad_window window;
    ad_tree tree;
    const ad_node *root;
    const char *kind; /* static */
} ad_surface;

/* Selects and reads one surface. INVALID_ARGS for a kind this platform does not have (with
 * details.supported_surfaces and requested_surface); ELEMENT_NOT_FOUND surface_absent (with
 * details.complete) for a closed menu, sheet or alert. A shell kind (action-center, ...) is
 * read by core/surface_shell.h: no --app, and WINDOW_NOT_FOUND while it is closed. */
int ad_surface_read(ad_ctx *ctx, const char *kind, const char *app, const char *window_id,
                    const ad_read_limits *lim, ad_surface *ret, ad_error *err);
void ad_surface_clear(ad_surface *s);

/* The outermost open menu in a read, depth first: a shown `menu` with a shown item, or an
 * open popover (ad_surface_is_popover). NULL when none (surface_menu.c). */
const ad_node *ad_surface_open_menu(const ad_node *root);
/* True when n sits inside a popup: under a menu, or under the list of a combo box. Such
 * items show in a popup window of their own on X11 (GTK3 menus, Qt combo lists), not in
 * the window AT-SPI files them under. */
bool ad_surface_in_popup(const ad_node *n);
/* True for the container of such items: a menu, or the list of a combo box. */
bool ad_surface_popup_container(const ad_node *n);
/* Where pointer input aims at n (bounds known): its center, or, inside a popup, the center
 * of the part of it that lies inside the popup. */
void ad_surface_target_point(const ad_node *n, int *ret_x, int *ret_y);
/* A shown element that declares itself a popup for another (a GTK3 popover). */
bool ad_surface_is_popover(const ad_node *n);
/* list-surfaces item_count: a menu's children, or the shown refable elements of a popover. */
size_t ad_surface_item_count(const ad_node *menu);

/* Surfaces a process presents now, as list-surfaces and action results report them: one
 * entry per window (type window, sheet or alert) and per open menu (with item_count). A
 * window whose read failed carries "unclassified": ["menu"]. New reference, or NULL when the
 * windows could not be listed (the caller then reports no surfaces rather than none open).
 * Shell surfaces never count: they belong to the OS. */
json_t *ad_surfaces_of_pid(ad_ctx *ctx, int pid, int64_t deadline_us);
/* The same for list-surfaces, which must not call an unread list empty: the windows of apps
 * (NULL: every app) are listed, and when the pid's windows could not be read it fails with
 * APP_UNRESPONSIVE or TIMEOUT (ad_windows_unanswered_error). *ret is the caller's. */
int ad_surfaces_of_app(ad_ctx *ctx, const ad_app_list *apps, int pid, int64_t deadline_us,
                       json_t **ret, ad_error *err);

#endif
