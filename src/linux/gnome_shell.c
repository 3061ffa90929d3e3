/* gnome_shell.c: GNOME Shell's accessibility tree (see gnome_shell.h for its shape). */
#include "linux/gnome_shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "linux/atspi_apps.h"
#include "linux/atspi_bus.h"
#include "linux/walker.h"

/* How far a menu's top edge may sit from the bar's bottom edge (BoxPointer margins). */
#define POPUP_EDGE_SLACK 8

bool ad_shell_is_shell_app(const ad_app *app)
{
    return app && app->name && strcmp(app->name, "gnome-shell") == 0;
}

int ad_shell_find_app(sd_bus *bus, int64_t deadline_us, ad_app *ret, ad_error *err)
{
    ad_app_list apps = {0};
    memset(ret, 0, sizeof(*ret));
    if (ad_atspi_list_apps(bus, NULL, deadline_us, &apps, err) < 0)
        return -1;
    int found = 0;
    for (size_t i = 0; i < apps.count && !found; i++)
        if (ad_shell_is_shell_app(&apps.items[i])) {
            *ret = apps.items[i];
            memset(&apps.items[i], 0, sizeof(apps.items[i]));
            found = 1;
        }
    /* A skipped app might be the shell: unknown, not absent. */
    if (!found && apps.n_skipped > 0) {
        ad_error_set(err, AD_TIMEOUT, "An application on the accessibility bus did not answer, "
                                      "so whether GNOME Shell runs is unknown");
        ad_error_detail(err, "kind", json_string("deadline"));
        found = -1;
    }
    ad_app_list_clear(&apps);
    return found;
}

int ad_shell_read(sd_bus *bus, const ad_app *shell, int max_depth, int64_t deadline_us,
                  ad_tree *ret, ad_error *err)
{
    ad_read_limits lim = ad_read_limits_default(deadline_us);
    lim.max_raw_depth = max_depth;
    lim.all_bounds = true;
    ad_window_frame frame;
    if (ad_atspi_read_tree(bus, shell->handle, ATSPI_ROOT_PATH, &lim, ret, &frame, err) < 0)
        return -1;
    /* A depth cut is asked for; a read that ran out of time may have missed the menu. */
    if (!ret->complete && ad_now_us() >= deadline_us) {
        ad_tree_clear(ret);
        ad_error_set(err, AD_TIMEOUT, "GNOME Shell's accessibility tree was not read before "
                                      "the deadline");
        ad_error_detail(err, "kind", json_string("deadline"));
        return -1;
    }
    return 0;
}

const ad_node *ad_shell_stage(const ad_tree *t)
{
    if (!t->root)
        return NULL;
    for (size_t i = 0; i < t->root->n_children; i++)
        if (strcmp(t->root->children[i]->role, "window") == 0)
            return t->root->children[i];
    return NULL;
}

const ad_node *ad_shell_ui_group(const ad_node *stage)
{
    return stage && stage->n_children > 0 ? stage->children[0] : NULL;
}

bool ad_shell_shown(const ad_node *n)
{
    uint32_t gone = (1u << AD_ST_HIDDEN) | (1u << AD_ST_OFFSCREEN);
    /* A hidden actor reports the extents G_MININT (measured): never on the screen. */
    return n->states_state == AD_FIELD_KNOWN && !(n->states & gone) &&
           n->bounds_state == AD_FIELD_KNOWN && n->bounds.width > 0 && n->bounds.height > 0 &&
           n->bounds.x > -100000 && n->bounds.y > -100000;
}

const ad_node *ad_shell_top_bar(const ad_node *ui_group)
{
    const ad_node *stage = ui_group ? ui_group->parent : NULL;
    if (!stage || !ad_shell_shown(stage))
        return NULL;
    for (size_t i = 0; i < ui_group->n_children; i++) {
        const ad_node *c = ui_group->children[i];
        if (ad_shell_shown(c) && c->bounds.y == stage->bounds.y &&
            c->bounds.width == stage->bounds.width &&
            c->bounds.height < stage->bounds.height / 4 && c->n_children > 0 &&
            c->children[0]->n_children == 3)
            return c;
    }
    return NULL;
}

const ad_node *ad_shell_top_bar_box(const ad_node *top_bar, ad_shell_box which)
{
    if (!top_bar || top_bar->n_children == 0 || top_bar->children[0]->n_children != 3)
        return NULL;
    return top_bar->children[0]->children[which];
}

const ad_node *ad_shell_find_shown(const ad_node *root, const char *role, const char *name)
{
    if (!root || !ad_shell_shown(root))
        return NULL;
    const char *n = ad_text_get(&root->name);
    if (strcmp(root->role, role) == 0 && (!name || (n && strcmp(n, name) == 0)))
        return root;
    for (size_t i = 0; i < root->n_children; i++) {
        const ad_node *hit = ad_shell_find_shown(root->children[i], role, name);
        if (hit)
            return hit;
    }
    return NULL;
}

const ad_node *ad_shell_bar_menu_of(const ad_node *ui_group, const ad_node *top_bar,
                                 const ad_node *button)
{
    if (!ui_group || !top_bar || !button || !ad_shell_shown(button))
        return NULL;
    const ad_node *stage = ui_group->parent;
    double bar_bottom = top_bar->bounds.y + top_bar->bounds.height;
    double center = button->bounds.x + button->bounds.width / 2;
    for (size_t i = 0; i < ui_group->n_children; i++) {
        const ad_node *c = ui_group->children[i];
        if (c == top_bar || !ad_shell_shown(c))
            continue;
        double top = c->bounds.y;
        if (top >= bar_bottom - POPUP_EDGE_SLACK && top <= bar_bottom + POPUP_EDGE_SLACK &&
            c->bounds.x <= center && center <= c->bounds.x + c->bounds.width &&
            c->bounds.width < stage->bounds.width)
            return c;
    }
    return NULL;
}

bool ad_shell_may_show_bar_menu(const ad_node *ui_group)
{
    const ad_node *stage = ui_group ? ui_group->parent : NULL;
    if (!stage || !ad_shell_shown(stage))
        return false;
    for (size_t i = 0; i < ui_group->n_children; i++) {
        const ad_node *c = ui_group->children[i];
        double top = c->bounds.y - stage->bounds.y;
        if (ad_shell_shown(c) && top > 0 && top <= stage->bounds.height / 4 &&
            c->bounds.width < stage->bounds.width)
            return true;
    }
    return false;
}

char *ad_shell_node_window_id(const ad_node *n)
{
    const char *bar = n && n->address ? strchr(n->address, '|') : NULL;
    if (!bar)
        return NULL;
    char *bus = strndup(n->address, (size_t)(bar - n->address));
    char *id = bus ? ad_atspi_window_id(bus, bar + 1) : NULL;
    free(bus);
    return id;
}
