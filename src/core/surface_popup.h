/* surface_popup.h: popup toplevels that only host a menu read elsewhere.
 *
 * Chromium (measured on Chromium 156, X11) opens a <select> dropdown in an override-redirect
 * popup whose AT-SPI node is an extra `frame` child of the application: no name, no
 * children. The options are exposed inside the page instead (combo box > menu > menu items,
 * showing while the popup is open), so the open menu is found in the browser window and the
 * popup frame is only its host. list-surfaces and data.surfaces report that menu once, with
 * the window that holds its items, and leave the empty host out instead of reporting it as
 * one more `window`. */
#ifndef AD_SURFACE_POPUP_H
#define AD_SURFACE_POPUP_H

#include <jansson.h>

#include "core/ctx.h"

typedef struct {
    struct ad_popup_host *hosts;
    size_t n_hosts;
    ad_rect *items; /* shown items of the open menus seen so far */
    size_t n_items;
} ad_popup_hosts;

/* Notes one window of the pid as ad_surfaces_of_pid reads it: `entry` is its list entry
 * (borrowed), `t` its read and `menu` the open menu found in it (or NULL). */
void ad_popup_hosts_note(ad_popup_hosts *h, const ad_window *w, const ad_tree *t,
                         json_t *entry, const ad_node *menu);
/* Removes from `list` the entries of empty popup windows that host an open menu's items,
 * and frees `h`. */
void ad_popup_hosts_fold(ad_popup_hosts *h, json_t *list);

#endif
