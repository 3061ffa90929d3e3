/* surface_menu.c: what counts as an open menu inside a window read (surface.h).
 *
 * Two shapes are a `menu` surface on Linux:
 * - an element of role `menu` that is shown and has a shown child (a GtkMenu: the File menu
 *   of a menu bar, a combo box's list, a context menu in its own popup window);
 * - an element that declares itself a popup for another element (ad_node.popup, AT-SPI
 *   POPUP_FOR) and is shown: a GTK3 GtkPopover or GtkPopoverMenu. GTK3 gives both the same
 *   `panel` role and relation, so a popover menu built from a GMenuModel cannot be told from
 *   a popover holding arbitrary widgets; platforms/linux.md treats GTK popovers as menus
 *   (`wait --menu` waits for them), so every open one is a `menu` surface. */
#include <string.h>

#include "core/surface.h"

static bool shown(const ad_node *n)
{
    return n->states_state == AD_FIELD_KNOWN &&
           !(n->states & ((1u << AD_ST_HIDDEN) | (1u << AD_ST_OFFSCREEN)));
}

bool ad_surface_is_popover(const ad_node *n)
{
    return n->popup_state == AD_FIELD_KNOWN && n->popup && shown(n);
}

static bool open_menu_here(const ad_node *n)
{
    if (ad_surface_is_popover(n))
        return true;
    if (strcmp(n->role, "menu") != 0 || !shown(n))
        return false;
    for (size_t i = 0; i < n->n_children; i++)
        if (shown(n->children[i]))
            return true;
    return false;
}

const ad_node *ad_surface_open_menu(const ad_node *n)
{
    if (open_menu_here(n))
        return n;
    for (size_t i = 0; i < n->n_children; i++) {
        const ad_node *m = ad_surface_open_menu(n->children[i]);
        if (m)
            return m;
    }
    return NULL;
}

static size_t shown_refables(const ad_node *n)
{
    size_t count = 0;
    for (size_t i = 0; i < n->n_children; i++) {
        const ad_node *c = n->children[i];
        if (!shown(c))
            continue;
        count += ad_node_refable(c) ? 1 : 0;
        count += shown_refables(c);
    }
    return count;
}

size_t ad_surface_item_count(const ad_node *menu)
{
    /* A popover's items sit inside layout boxes (GtkStack pages, sections): count what can be
     * acted on. A menu's items are its children. */
    return ad_surface_is_popover(menu) ? shown_refables(menu) : menu->n_children;
}
