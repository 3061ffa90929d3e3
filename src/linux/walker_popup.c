/* walker_popup.c: the popup evidence of GTK3 popovers (ad_node.popup).
 *
 * GTK 3.24 gives a GtkPopover (and a GtkPopoverMenu) no role of its own: it is a `panel`,
 * listed among the children of its top-level window after the window's own child, and while
 * it is closed it only lacks SHOWING and VISIBLE. What tells it from an ordinary panel is its
 * relation set: POPUP_FOR its relative-to widget (the GtkMenuButton that opens it). Its
 * Parent property points at that widget too, which does not list it as a child (index -1),
 * so only the window's enumeration reaches it. Relations are not in the AT-SPI cache and cost
 * one call per node, so they are asked only of panels directly under the window root.
 *
 * The check boxes and radio buttons inside a GTK3 popover are GtkModelButtons (a popover
 * built from a GMenuModel, such as gtk3-widget-factory's gear menu with "Dark Theme"). GTK
 * 3.24 gives them the role check box or radio button (atk_object_set_role) on a plain
 * GtkButtonAccessible, which never adds CHECKED, and GTK3 never sets CHECKABLE on anything
 * (pyatspi on Debian 12: "Dark Theme" reads enabled, focusable, sensitive, showing, visible
 * both before and after a click that toggled it; an ordinary GtkCheckButton reads the same
 * while unchecked, and adds checked when checked). Nothing on AT-SPI tells the two apart, so
 * inside a popover a check box or radio button that does not read checked has an unreported
 * state; one that reads checked is a real GtkCheckButton or GtkRadioButton. */
#include <string.h>

#include "linux/atspi_bus.h"
#include "linux/walker_node.h"

#define RELATION_POPUP_FOR 15u /* ATSPI_RELATION_POPUP_FOR */

/* a(ua(so)): true when one relation is POPUP_FOR with at least one target. */
static int read_popup_for(sd_bus_message *m, bool *ret)
{
    *ret = false;
    int r = sd_bus_message_enter_container(m, 'a', "(ua(so))");
    if (r < 0)
        return r;
    while ((r = sd_bus_message_enter_container(m, 'r', "ua(so)")) > 0) {
        uint32_t type;
        if ((r = sd_bus_message_read(m, "u", &type)) < 0)
            return r;
        if ((r = sd_bus_message_enter_container(m, 'a', "(so)")) < 0)
            return r;
        const char *bus, *path;
        while ((r = sd_bus_message_read(m, "(so)", &bus, &path)) > 0)
            if (type == RELATION_POPUP_FOR)
                *ret = true;
        if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0 ||
            (r = sd_bus_message_exit_container(m)) < 0)
            return r;
    }
    return r < 0 ? r : sd_bus_message_exit_container(m);
}

static void on_relations(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    wnode *wn = ud;
    bool popup;
    if (m && read_popup_for(m, &popup) >= 0) {
        wn->node->popup = popup;
        wn->node->popup_state = AD_FIELD_KNOWN;
    } else if (e && e->name && strcmp(e->name, "org.freedesktop.DBus.Error.UnknownMethod") == 0) {
        /* A bridge without relations declares no popups: known, not a popover. */
        wn->node->popup = false;
        wn->node->popup_state = AD_FIELD_KNOWN;
    } else {
        /* Unread: a surface lookup cannot say this panel is no open popover. */
        wn->node->popup_state = AD_FIELD_UNKNOWN;
        ad_walker_mark_cut(wn->w, "read_failed");
    }
    ad_walker_done(wn);
}

void ad_walker_request_popup(wnode *wn)
{
    if (wn->depth != 1 || !wn->have_role || wn->role != AD_ATSPI_ROLE_PANEL)
        return;
    /* Unknown until the answer comes; a call that is never sent leaves it so. */
    wn->node->popup_state = AD_FIELD_UNKNOWN;
    ad_walker_call(wn, ATSPI_IFACE_ACCESSIBLE, "GetRelationSet", NULL, on_relations);
}

static void mark_unreported(ad_node *n)
{
    bool check_role = strcmp(n->role, "checkbox") == 0 || strcmp(n->role, "radiobutton") == 0;
    if (check_role && n->states_state == AD_FIELD_KNOWN && !(n->states & (1u << AD_ST_CHECKED)))
        n->checked_unreported = true;
    for (size_t i = 0; i < n->n_children; i++)
        mark_unreported(n->children[i]);
}

void ad_walker_mark_model_buttons(ad_node *root)
{
    for (size_t i = 0; root && i < root->n_children; i++) {
        ad_node *c = root->children[i];
        if (c->popup_state == AD_FIELD_KNOWN && c->popup)
            mark_unreported(c);
    }
}
