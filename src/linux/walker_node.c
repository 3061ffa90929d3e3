/* walker_node.c: turning AT-SPI replies into ad_node evidence, and the walk limits. */
#include "linux/walker_node.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/node.h"
#include "core/surface.h"
#include "core/utf8.h"
#include "linux/walker.h"

#define STATE_ACTIVE 1u
#define STATE_EDITABLE 7u
#define STATE_EXPANDABLE 9u
#define STATE_FOCUSABLE 11u
#define STATE_SELECTABLE 22u
#define STATE_CHECKABLE 41u
#define ROLE_SCROLL_PANE 49u

void ad_walker_mark_cut(walker *w, const char *reason)
{
    w->incomplete = true;
    if (!w->cut_reason)
        w->cut_reason = reason;
}

void ad_walker_set_text(walker *w, ad_text *t, const char *s)
{
    size_t max = w->lim->max_field_bytes;
    if (s && strlen(s) > max) {
        char *copy = strndup(s, ad_utf8_boundary(s, strlen(s), max)); /* whole characters */
        ad_text_set(t, copy);
        free(copy);
        return;
    }
    ad_text_set(t, s);
}

void ad_walker_set_name(walker *w, ad_node *n, const char *s)
{
    if (ad_toolkit_class_name(s))
        ad_node_set_name(n, s);
    else
        ad_walker_set_text(w, &n->name, s);
}

void ad_walker_visit(walker *w, ad_node *node, const char *bus, const char *path, int depth)
{
    wnode *wn = calloc(1, sizeof(*wn));
    char *addr = NULL;
    if (!wn || asprintf(&addr, "%s|%s", bus, path) < 0) {
        free(wn);
        ad_walker_mark_cut(w, "allocation");
        return;
    }
    /* One copy of the address: the node's. The bus name is the app's (borrowed) on every node
     * but embedded ones; at 50,000 nodes each copy cost ~2 MB. */
    wn->w = w;
    wn->node = node;
    wn->own_bus = strcmp(bus, w->app_bus) != 0 ? strdup(bus) : NULL;
    wn->bus = wn->own_bus ? wn->own_bus : w->app_bus;
    wn->path = addr + strlen(bus) + 1;
    wn->depth = depth;
    wn->next_all = w->all;
    w->all = wn;
    node->address = addr;
    w->nodes++;
    ad_walker_read_node(wn);
}

long ad_walker_admit_children(wnode *wn, long count)
{
    walker *w = wn->w;
    const ad_read_limits *lim = w->lim;
    if (count <= 0)
        return 0;
    const char *reason = NULL;
    long n = count;
    if (wn->depth + 1 > lim->max_raw_depth) {
        n = 0;
        reason = "depth_limit";
    }
    if (n > (long)lim->max_children) {
        n = (long)lim->max_children;
        reason = "children_limit";
    }
    if (w->nodes + (size_t)n > lim->max_nodes) {
        n = w->nodes < lim->max_nodes ? (long)(lim->max_nodes - w->nodes) : 0;
        reason = "node_limit";
    }
    if (w->edges + (size_t)n > lim->max_edges) {
        n = w->edges < lim->max_edges ? (long)(lim->max_edges - w->edges) : 0;
        reason = "edge_limit";
    }
    w->edges += (size_t)n;
    if (n < count) {
        wn->node->children_cut = true;
        ad_walker_mark_cut(w, reason);
    }
    return n;
}

void ad_walker_apply_role_states(wnode *wn)
{
    ad_node *n = wn->node;
    n->role = wn->have_role ? ad_atspi_role_canonical(wn->role) : "unknown";
    n->secure = wn->have_role && ad_atspi_role_is_secure(wn->role);
    if (!wn->have_role)
        ad_walker_mark_cut(wn->w, "read_failed");
    if (!wn->have_states) {
        n->states_state = AD_FIELD_UNKNOWN;
        ad_walker_mark_cut(wn->w, "read_failed");
        return;
    }
    const char *tokens[AD_STATE_TOKEN_COUNT];
    size_t k = ad_atspi_states_canonical(wn->states, wn->role, tokens, AD_STATE_TOKEN_COUNT);
    n->states = 0;
    for (size_t i = 0; i < k; i++) {
        int bit = ad_state_bit(tokens[i]);
        if (bit >= 0)
            n->states |= 1u << bit;
    }
    n->states_state = AD_FIELD_KNOWN;
    n->caps = 0;
    if (ad_atspi_state_has(wn->states, STATE_FOCUSABLE))
        n->caps |= AD_CAP_FOCUSABLE;
    if (ad_atspi_state_has(wn->states, STATE_EXPANDABLE))
        n->caps |= AD_CAP_EXPANDABLE;
    if (ad_atspi_state_has(wn->states, STATE_SELECTABLE))
        n->caps |= AD_CAP_SELECTABLE;
    if (ad_atspi_state_has(wn->states, STATE_CHECKABLE))
        n->caps |= AD_CAP_CHECKABLE;
    if (ad_atspi_state_has(wn->states, STATE_EDITABLE))
        n->caps |= AD_CAP_EDITABLE;
}

void ad_walker_finish_actions(wnode *wn)
{
    ad_node *n = wn->node;
    bool expandable = n->caps & AD_CAP_EXPANDABLE;
    for (int i = 0; i < wn->n_raw_actions && wn->actions_canon; i++) {
        const char *c = wn->actions_canon[i];
        if (!c)
            continue;
        /* GTK lists expander actions on rows that cannot expand; keep them only where the
         * element says it is expandable. A toggle-style expander offers both directions. */
        if (strcmp(c, "Expand") == 0 || strcmp(c, "Collapse") == 0) {
            if (!expandable)
                continue;
            ad_node_add_action(n, "Expand");
            ad_node_add_action(n, "Collapse");
            continue;
        }
        ad_node_add_action(n, c);
    }
    if ((wn->ifaces & AD_IF_EDITABLE_TEXT) && (n->caps & AD_CAP_EDITABLE)) {
        ad_node_add_action(n, "SetValue");
        ad_node_add_action(n, "TypeText");
    }
    if ((wn->ifaces & AD_IF_VALUE) &&
        (strcmp(n->role, "slider") == 0 || strcmp(n->role, "incrementor") == 0))
        ad_node_add_action(n, "SetValue");
    /* A container whose children can be picked by name through Selection (combo boxes,
     * lists, tab lists, tree views): `select` needs a ref to it. */
    if ((wn->ifaces & AD_IF_SELECTION) &&
        (strcmp(n->role, "combobox") == 0 || strcmp(n->role, "listbox") == 0 ||
         strcmp(n->role, "list") == 0 || strcmp(n->role, "tablist") == 0 ||
         strcmp(n->role, "outline") == 0 || strcmp(n->role, "table") == 0))
        ad_node_add_action(n, "Select");
    if (wn->have_role && wn->role == ROLE_SCROLL_PANE)
        ad_node_add_action(n, "Scroll");
    if (n->caps & AD_CAP_FOCUSABLE)
        ad_node_add_action(n, "SetFocus");
    n->actions_state = AD_FIELD_KNOWN;
    /* Without all_bounds, only elements that earn a ref carry their rectangle into the refmap
     * (geometry is evidence, never identity); this saves a call on most nodes. */
    /* A popup container's rectangle bounds where pointer input may aim at its items
     * (ad_surface_target_point). */
    if (ad_node_refable(n) || ad_surface_popup_container(n))
        ad_walker_request_bounds(wn);
}

int ad_walker_read_accessible_props(wnode *wn, sd_bus_message *m, long *ret_child_count)
{
    ad_node *n = wn->node;
    bool have_id = false;
    int r = sd_bus_message_enter_container(m, 'a', "{sv}");
    if (r < 0)
        return r;
    while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
        const char *key, *s;
        int32_t i;
        if ((r = sd_bus_message_read(m, "s", &key)) < 0)
            return r;
        if (strcmp(key, "Name") == 0 || strcmp(key, "Description") == 0 ||
            strcmp(key, "AccessibleId") == 0) {
            if ((r = sd_bus_message_read(m, "v", "s", &s)) < 0)
                return r;
            ad_text *t = key[0] == 'N' ? &n->name
                       : key[0] == 'D' ? &n->description
                                       : &n->native_id;
            if (key[0] == 'N')
                ad_walker_set_name(wn->w, n, s);
            else
                ad_walker_set_text(wn->w, t, s);
            have_id |= key[0] == 'A';
        } else if (strcmp(key, "ChildCount") == 0) {
            if ((r = sd_bus_message_read(m, "v", "i", &i)) < 0)
                return r;
            *ret_child_count = i;
        } else if ((r = sd_bus_message_skip(m, "v")) < 0) {
            return r;
        }
        if ((r = sd_bus_message_exit_container(m)) < 0)
            return r;
    }
    if (!have_id)
        n->native_id.state = AD_FIELD_ABSENT; /* a bridge without AccessibleId */
    return r < 0 ? r : 0;
}

/* Removes children that were never reached (their GetChildAtIndex failed or was cancelled).
 * Survivors keep their live index in index_in_parent, so stored paths stay live paths. */
static void prune(ad_node *n, walker *w)
{
    size_t kept = 0;
    for (size_t i = 0; i < n->n_children; i++) {
        ad_node *c = n->children[i];
        if (!c->address) {
            ad_node_free(c);
            n->children_cut = true;
            ad_walker_mark_cut(w, "read_failed");
            continue;
        }
        n->children[kept++] = c;
        prune(c, w);
    }
    n->n_children = kept;
}

/* Chromium's <select> (measured on Chromium 156): the combo box has no Selection interface
 * and no value; its options are the `menu item` children of one `menu` child, whatever the
 * popup's state, each with a "select" action that picks it (Selection.SelectChild on that
 * menu answers FALSE). The combo box gets the Select action that `select` needs (atspi_act.c
 * picks the option through its own action) and, as its value, the name of the selected
 * option, so that `select` can be verified by reading the combo box back. Runs on the
 * finished tree: the options' states and actions are known by then. */
static void chromium_select_combo(wnode *wn)
{
    ad_node *n = wn->node;
    if (strcmp(n->role, "combobox") != 0 || (wn->ifaces & AD_IF_SELECTION) ||
        n->value.state == AD_FIELD_KNOWN || n->n_children != 1 ||
        strcmp(n->children[0]->role, "menu") != 0)
        return;
    const ad_node *menu = n->children[0];
    const ad_node *picked = NULL;
    bool options = menu->n_children > 0, states_known = !menu->children_cut;
    for (size_t i = 0; i < menu->n_children; i++) {
        const ad_node *o = menu->children[i];
        if (strcmp(o->role, "menuitem") != 0 || !ad_node_has_action(o, "Select"))
            options = false;
        if (o->states_state != AD_FIELD_KNOWN)
            states_known = false;
        else if ((o->states & (1u << AD_ST_SELECTED)) && !picked)
            picked = o;
    }
    if (!options)
        return;
    ad_node_add_action(n, "Select");
    if (!states_known)
        ad_text_unknown(&n->value);
    else if (picked && picked->name.state != AD_FIELD_KNOWN)
        ad_text_unknown(&n->value);
    else if (picked)
        ad_walker_set_text(wn->w, &n->value, ad_text_get(&picked->name));
}

void ad_walker_finish(walker *w, ad_node *root)
{
    prune(root, w);
    for (wnode *c = w->all; c; c = c->next_all)
        chromium_select_combo(c);
    wnode *wn = w->all;
    while (wn) {
        wnode *next = wn->next_all;
        /* A node whose calls were cut by the deadline keeps unknown fields. */
        if (!wn->have_role && wn->base_pending > 0)
            ad_walker_apply_role_states(wn);
        free(wn->actions_canon);
        free(wn->own_bus);
        free(wn);
        wn = next;
    }
    w->all = NULL;
}
