/* gtk4_place.c: window-relative extents to screen coordinates (gtk4_place.h): GTK 4.8's on
 * X11, every toolkit's on Wayland. */
#include "linux/gtk4_place.h"

#include <string.h>

#include "core/deadline.h"
#include "linux/physical.h" /* ad_linux_wayland_session */
#include "linux/shell_frames.h"
#include "linux/x11_origin.h"

static void unknown_bounds(ad_node *n)
{
    if (n->bounds_state == AD_FIELD_KNOWN)
        n->bounds_state = AD_FIELD_UNKNOWN;
    for (size_t i = 0; i < n->n_children; i++)
        unknown_bounds(n->children[i]);
}

static bool popover_role(const ad_node *n);

/* Marks n's subtree window-relative. What wayland_place below cannot place on a known window
 * is not in the window's space either (a menu's items, a GTK 4 popover: their own popup
 * surfaces): unknown. */
static void window_relative_bounds(ad_node *n, bool gtk4)
{
    if (gtk4 && n->parent && popover_role(n)) {
        unknown_bounds(n);
        return;
    }
    if (n->bounds_state == AD_FIELD_KNOWN)
        n->bounds_state = AD_FIELD_WINDOW_RELATIVE;
    bool menu = n->role && strcmp(n->role, "menu") == 0;
    for (size_t i = 0; i < n->n_children; i++) {
        if (menu)
            unknown_bounds(n->children[i]);
        else
            window_relative_bounds(n->children[i], gtk4);
    }
}

/* The window's place on the screen is unproven (Wayland without GNOME Shell's window list, or
 * no single match): the extents stay as the toolkit gave them, relative to the window, marked
 * so that nothing prints them or points at them, and the window itself becomes the "screen"
 * visibility tests against. Without this a ref action could never pass its visible and stable
 * checks on Wayland (bounds unknown there), although its semantic call needs no screen point.
 * The window's rectangle in its own space: the root's extents (GTK 3: the buffer, shadows
 * included; GTK 4: the frame), else the frame size the read saw. */
static void keep_window_relative(ad_tree *tree, const ad_window_frame *frame)
{
    ad_node *root = tree->root;
    ad_rect own = {0, 0, 0, 0};
    if (root->bounds_state == AD_FIELD_KNOWN && root->bounds.width > 0 &&
        root->bounds.height > 0)
        own = root->bounds;
    else if (frame->have_size)
        own = (ad_rect){0, 0, frame->width, frame->height};
    window_relative_bounds(root, frame->window_relative);
    if (own.width > 0 && own.height > 0) {
        tree->screen = own;
        tree->screen_state = AD_FIELD_KNOWN;
        tree->screen_is_window = true;
    } else {
        tree->screen_state = AD_FIELD_UNKNOWN;
    }
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

/* A menu's items are drawn on the menu's own popup surface (GTK 3 and GTK 4), and a GTK 4
 * popover is its own surface: on Wayland their extents are relative to a surface whose place
 * AT-SPI does not give. A GTK 4 popover whose size is that of exactly one popup surface of the
 * process moves to that surface's origin (as on X11); everything else on a popup surface
 * becomes unknown. */
static void wayland_place(ad_node *n, const ad_shell_windows *l, int pid, bool gtk4,
                          double wx, double wy)
{
    ad_rect origin;
    bool popover = gtk4 && n->parent && popover_role(n);
    if (popover && n->bounds_state == AD_FIELD_KNOWN &&
        ad_shell_popup_of(l, pid, n->bounds.width, n->bounds.height, &origin)) {
        offset_bounds(n, origin.x - n->bounds.x, origin.y - n->bounds.y);
        return;
    }
    if (popover) {
        unknown_bounds(n);
        return;
    }
    if (n->bounds_state == AD_FIELD_KNOWN) {
        n->bounds.x += wx;
        n->bounds.y += wy;
    }
    bool menu = n->role && strcmp(n->role, "menu") == 0;
    for (size_t i = 0; i < n->n_children; i++) {
        if (menu)
            unknown_bounds(n->children[i]);
        else
            wayland_place(n->children[i], l, pid, gtk4, wx, wy);
    }
}

/* Wayland: every toolkit's extents are relative to its window (gnome-shell's own are on the
 * screen). The window is placed by GNOME Shell's list (shell_geometry.h has the rule and the
 * measurements); an X11 client under Xwayland already reports screen coordinates unless it is
 * GTK 4. Without a proved window every bound is unknown. */
static void place_on_wayland(ad_tree *tree, const ad_window_frame *frame, int pid,
                             ad_shell_reader *shell)
{
    ad_node *root = tree->root;
    ad_shell_windows l;
    ad_rect origin;
    ad_shell_frames_state st = ad_shell_frames_read(shell, ad_deadline_after_ms(1000), &l);
    if (st != AD_SHELL_FRAMES_OK) {
        /* gnome-shell's own extents are screen coordinates with or without its list. */
        if (!(pid > 0 && pid == l.shell_pid)) {
            keep_window_relative(tree, frame);
        } else if (l.screen.width > 0 && l.screen.height > 0) {
            tree->screen = l.screen;
            tree->screen_state = AD_FIELD_KNOWN;
        }
        ad_shell_windows_free(&l);
        return;
    }
    const ad_shell_window *w = NULL;
    if (l.screen.width > 0 && l.screen.height > 0) { /* visibility needs it: X11 has none */
        tree->screen = l.screen;
        tree->screen_state = AD_FIELD_KNOWN;
    }
    if (pid > 0 && pid == l.shell_pid)
        goto done;
    if (frame->have_size)
        w = ad_shell_window_of(&l, pid, ad_text_get(&root->name), frame->width, frame->height,
                               &origin);
    /* An X11 client under Xwayland other than GTK 4 reports screen coordinates; without a
     * match its client type is unknown, and keeping its extents as they are is right either
     * way: its root is in the same space as its elements. */
    if (!w || (w->client_type == AD_SHELL_CLIENT_X11 && frame->window_relative))
        keep_window_relative(tree, frame);
    else if (w->client_type != AD_SHELL_CLIENT_X11)
        wayland_place(root, &l, pid, frame->window_relative, origin.x, origin.y);
done:
    ad_shell_windows_free(&l);
}

void ad_gtk4_place_tree(ad_tree *tree, const ad_window_frame *frame, int pid,
                        ad_shell_reader *shell)
{
    ad_node *root = tree->root;
    if (root && ad_linux_wayland_session()) {
        place_on_wayland(tree, frame, pid, shell);
        return;
    }
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
