/* gtk4_place.c: GTK 4.8 window-relative extents to screen coordinates (gtk4_place.h). */
#include "linux/gtk4_place.h"

#include <string.h>

#include "linux/x11_origin.h"

static void unknown_bounds(ad_node *n)
{
    if (n->bounds_state == AD_FIELD_KNOWN)
        n->bounds_state = AD_FIELD_UNKNOWN;
    for (size_t i = 0; i < n->n_children; i++)
        unknown_bounds(n->children[i]);
}

static void offset_bounds(ad_node *n, double dx, double dy)
{
    if (n->bounds_state == AD_FIELD_KNOWN) {
        n->bounds.x += dx;
        n->bounds.y += dy;
    }
    for (size_t i = 0; i < n->n_children; i++)
        offset_bounds(n->children[i], dx, dy);
}

/* GtkPopoverMenu is `menu`, a plain GtkPopover `dialog` (GTK 4.8 roles). */
static bool popover_role(const ad_node *n)
{
    return n->role && (strcmp(n->role, "menu") == 0 || strcmp(n->role, "dialog") == 0);
}

/* Places the popovers below n on their own surfaces, then the rest of n's subtree through
 * the window origin (wx, wy). A popover is a node of a popover role whose reported size is
 * that of exactly one viewable popup surface of the process: its subtree moves by the
 * surface's origin minus the popover's reported place. */
static void place(ad_node *n, const ad_x11_clients *x11, int pid, int wx, int wy)
{
    const ad_x11_client *s = NULL;
    if (n->parent && n->bounds_state == AD_FIELD_KNOWN && popover_role(n))
        s = ad_x11_popup_pick(x11, pid, n->bounds.width, n->bounds.height);
    if (s) {
        offset_bounds(n, s->x - n->bounds.x, s->y - n->bounds.y);
        return;
    }
    if (n->bounds_state == AD_FIELD_KNOWN) {
        n->bounds.x += wx;
        n->bounds.y += wy;
    }
    for (size_t i = 0; i < n->n_children; i++)
        place(n->children[i], x11, pid, wx, wy);
}

void ad_gtk4_place_tree(ad_node *root, const ad_window_frame *frame, int pid)
{
    if (!root || !frame->window_relative)
        return;
    ad_x11_clients x11 = {0};
    const ad_x11_client *c = NULL;
    ad_rect size = {0, 0, frame->width, frame->height};
    if (frame->have_size && ad_x11_clients_read(&x11) == 0)
        c = ad_x11_client_of_window(&x11, pid, ad_text_get(&root->name), &size, true);
    if (c) {
        int x = 0, y = 0;
        ad_x11_client_relative_origin(c, frame->width, frame->height, &x, &y);
        place(root, &x11, pid, x, y);
    } else {
        unknown_bounds(root);
    }
    ad_x11_clients_free(&x11);
}
