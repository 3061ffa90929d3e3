/* walker_extras.c: the fields a node's role and interfaces call for, beyond what the cache
 * or GetAll carry: accessible id, extents, the value (text, number or a combo's selected
 * item) and the action names. Each request is one more pipelined call (walker_node.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux/atspi_bus.h"
#include "linux/atspi_map.h"
#include "linux/dbus_pipe.h"
#include "linux/walker.h"
#include "linux/walker_node.h"

#define ROLE_ENTRY 79u /* ATSPI_ROLE_ENTRY */

static void on_accessible_id(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    wnode *wn = ud;
    const char *id = NULL;
    if (m && sd_bus_message_read(m, "v", "s", &id) >= 0)
        ad_walker_set_text(wn->w, &wn->node->native_id, id);
    else if (ad_walker_no_such_property(e))
        wn->node->native_id.state = AD_FIELD_ABSENT;
    else
        ad_text_unknown(&wn->node->native_id);
    ad_walker_done(wn);
}

static void on_extents(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    int32_t x, y, wdt, h;
    if (m && sd_bus_message_read(m, "(iiii)", &x, &y, &wdt, &h) >= 0) {
        /* Unknown bounds, never a rectangle: such an element is never visible. */
        if (!ad_atspi_extents_readable(x, y)) {
            wn->node->bounds_state = AD_FIELD_UNKNOWN;
        } else {
            wn->node->bounds = (ad_rect){x, y, wdt, h};
            wn->node->bounds_state = AD_FIELD_KNOWN;
        }
    } else {
        wn->node->bounds_state = AD_FIELD_UNKNOWN;
    }
    ad_walker_done(wn);
}

/* Chromium (measured on 156) gives containers and combo boxes a Text whose every character
 * is U+FFFC, the hypertext placeholder of an embedded child (a <select>'s text is one per
 * menu, a menu's one per option): that is the children, not a value. */
static bool only_embedded_objects(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s += 3)
        if (strncmp(s, "\xef\xbf\xbc", 3) != 0)
            return false;
    return true;
}

static void on_text_value(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    const char *s = NULL;
    if (m && sd_bus_message_read(m, "s", &s) >= 0)
        ad_walker_set_text(wn->w, &wn->node->value, only_embedded_objects(s) ? "" : s);
    else
        ad_text_unknown(&wn->node->value);
    ad_walker_done(wn);
}

static void on_current_value(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    double d;
    if (m && sd_bus_message_read(m, "v", "d", &d) >= 0) {
        char buf[64];
        snprintf(buf, sizeof(buf), "%g", d);
        ad_text_set(&wn->node->value, buf);
    } else {
        ad_text_unknown(&wn->node->value);
    }
    ad_walker_done(wn);
}

typedef struct {
    wnode *wn;
    int index;
} action_req;

/* No answer at all (the deadline, a silent app, a call that could not be sent), as opposed
 * to the app's own error reply: the action list is then unknown, never shorter. */
static bool action_unanswered(const sd_bus_error *e)
{
    return ad_pipe_no_reply(e) || !e || !e->name || strncmp(e->name, "System.Error.", 13) == 0;
}

/* All GetName replies are in: the names become the node's actions, or, when one of them got
 * no answer, the actions are unknown (a cut read showed buttons without Click before). */
static void actions_complete(wnode *wn)
{
    if (wn->actions_cut)
        wn->node->actions_state = AD_FIELD_UNKNOWN;
    else
        ad_walker_finish_actions(wn);
}

static void on_action_name(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    action_req *ar = ud;
    wnode *wn = ar->wn;
    const char *name = NULL;
    /* GTK4 4.8 can report more actions than GetName accepts (a label with 8 actions whose
     * names all fail): a failed index is not an action, not an unread node. */
    if (m && sd_bus_message_read(m, "s", &name) >= 0 && name && ar->index < wn->n_raw_actions)
        wn->actions_canon[ar->index] = ad_atspi_action_canonical(name);
    else if (!m && action_unanswered(e))
        wn->actions_cut = true;
    free(ar);
    if (--wn->actions_pending == 0)
        actions_complete(wn);
    ad_walker_done(wn);
}

static void on_n_actions(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    int32_t n = 0;
    if (!m || sd_bus_message_read(m, "v", "i", &n) < 0) {
        wn->node->actions_state = AD_FIELD_UNKNOWN;
        ad_walker_done(wn);
        return;
    }
    if (n > AD_MAX_RAW_ACTIONS)
        n = AD_MAX_RAW_ACTIONS;
    if (wn->w->stopping && n > 0) { /* the names will not be asked: unknown, not none */
        wn->node->actions_state = AD_FIELD_UNKNOWN;
        ad_walker_done(wn);
        return;
    }
    if (n > 0 && !(wn->actions_canon = calloc((size_t)n, sizeof(*wn->actions_canon)))) {
        wn->node->actions_state = AD_FIELD_UNKNOWN;
        ad_walker_mark_cut(wn->w, "allocation");
        ad_walker_done(wn);
        return;
    }
    wn->n_raw_actions = n;
    wn->actions_pending = n;
    if (n <= 0)
        ad_walker_finish_actions(wn);
    for (int32_t i = 0; i < n; i++) {
        action_req *ar = malloc(sizeof(*ar));
        if (!ar) {
            wn->actions_cut = true;
            if (--wn->actions_pending == 0)
                actions_complete(wn);
            continue;
        }
        *ar = (action_req){wn, i};
        ad_pipe_args a = {.sig = "i", .i = {i}};
        wn->outstanding++;
        if (ad_pipe_call(ad_walker_pipe(wn), wn->bus, wn->path, ATSPI_IFACE_ACTION, "GetName", &a,
                         on_action_name, ar) < 0) {
            free(ar);
            wn->outstanding--;
            wn->actions_cut = true;
            if (--wn->actions_pending == 0)
                actions_complete(wn);
        }
    }
    ad_walker_done(wn);
}

void ad_walker_request_bounds(wnode *wn)
{
    if (!(wn->ifaces & AD_IF_COMPONENT) || wn->bounds_requested)
        return;
    wn->bounds_requested = true;
    ad_pipe_args a = {.sig = "u", .u = 0 /* ATSPI_COORD_TYPE_SCREEN */};
    ad_walker_call(wn, ATSPI_IFACE_COMPONENT, "GetExtents", &a, on_extents);
}

static void on_selected_name(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    const char *name = NULL;
    if (m && sd_bus_message_read(m, "v", "s", &name) >= 0)
        ad_walker_set_text(wn->w, &wn->node->value, ad_toolkit_class_name(name) ? "" : name);
    else
        ad_text_unknown(&wn->node->value);
    ad_walker_done(wn);
}

/* A combo box's value is the name of its selected item (get --property text reads it). */
static void on_selected_child(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    const char *bus = NULL, *path = NULL;
    if (!m || sd_bus_message_read(m, "(so)", &bus, &path) < 0) {
        ad_text_unknown(&wn->node->value);
    } else if (!bus || !*bus || strcmp(path, "/org/a11y/atspi/null") == 0) {
        wn->node->value.state = AD_FIELD_ABSENT; /* nothing selected */
    } else if (!wn->w->stopping) {
        ad_pipe_args a = {.sig = "ss", .s = {ATSPI_IFACE_ACCESSIBLE, "Name"}};
        wn->outstanding++;
        if (ad_pipe_call(ad_walker_pipe(wn), bus, path, DBUS_IFACE_PROPERTIES, "Get", &a,
                         on_selected_name, wn) < 0) {
            wn->outstanding--;
            ad_text_unknown(&wn->node->value);
        }
    }
    ad_walker_done(wn);
}

size_t ad_walker_request_needed_ids(walker *w)
{
    size_t asked = 0;
    for (wnode *wn = w->all; wn; wn = wn->next_all) {
        ad_node *n = wn->node;
        if (!n->native_id_unread || !w->lim->native_id_needed(n, w->lim->native_id_ud))
            continue;
        n->native_id_unread = false; /* unknown until the answer: on_accessible_id */
        ad_walker_get_prop(wn, ATSPI_IFACE_ACCESSIBLE, "AccessibleId", on_accessible_id);
        asked++;
    }
    return asked;
}

void ad_walker_request_extras(wnode *wn, bool need_id)
{
    ad_node *n = wn->node;
    if (need_id)
        ad_walker_get_prop(wn, ATSPI_IFACE_ACCESSIBLE, "AccessibleId", on_accessible_id);
    if (wn->w->lim->all_bounds)
        ad_walker_request_bounds(wn);
    ad_walker_request_popup(wn);
    if (wn->ifaces & AD_IF_ACTION)
        ad_walker_get_prop(wn, ATSPI_IFACE_ACTION, "NActions", on_n_actions);
    else
        ad_walker_finish_actions(wn);
    if (n->secure)
        return; /* a password field's value is never read */
    if ((wn->ifaces & AD_IF_SELECTION) && strcmp(n->role, "combobox") == 0) {
        ad_pipe_args a = {.sig = "i", .i = {0}};
        ad_walker_call(wn, "org.a11y.atspi.Selection", "GetSelectedChild", &a, on_selected_child);
        return;
    }
    bool has_name = n->name.state == AD_FIELD_KNOWN;
    /* An entry's text is its value even without EditableText: Chromium (156) gives its
     * <input> fields Text only, and a name from their label. */
    bool entry = (wn->ifaces & AD_IF_TEXT) && wn->have_role && wn->role == ROLE_ENTRY;
    if (wn->ifaces & AD_IF_EDITABLE_TEXT || entry ||
        ((wn->ifaces & AD_IF_TEXT) && !has_name && !(wn->ifaces & AD_IF_VALUE))) {
        int32_t chars = (int32_t)wn->w->lim->max_field_bytes;
        ad_pipe_args a = {.sig = "ii", .i = {0, chars}};
        ad_walker_call(wn, ATSPI_IFACE_TEXT, "GetText", &a, on_text_value);
    } else if (wn->ifaces & AD_IF_VALUE) {
        ad_walker_get_prop(wn, ATSPI_IFACE_VALUE, "CurrentValue", on_current_value);
    }
}
