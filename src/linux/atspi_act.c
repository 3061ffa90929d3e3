/* atspi_act.c: one semantic call per action, with the delivery it establishes.
 *
 * Delivery rules: an error reply the app sent back (no such method, bad arguments, an
 * object that is gone) or a FALSE answer means the app did not act: not_delivered. A call
 * that got no answer before its timeout may have landed: delivery_uncertain. A TRUE answer is
 * delivered_unverified; core reads the element back to verify. */
#include "linux/atspi_act.h"
#include "linux/atspi_apps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linux/atspi_bus.h"
#include "linux/atspi_map.h"
#include "linux/bus_call.h"

#define CALL_TIMEOUT_US (5 * 1000 * 1000) /* when the request carries no deadline */
#define MAX_ACTIONS 32
#define SCROLL_ANYWHERE 6u /* ATSPI_SCROLL_ANYWHERE */

typedef struct {
    char bus[128];
    char path[512];
    int64_t deadline_us; /* every call to the element ends by then (the request's deadline) */
} address;

static int split_address(const ad_node *n, address *a)
{
    const char *bar = n->address ? strchr(n->address, '|') : NULL;
    if (!bar || (size_t)(bar - n->address) >= sizeof(a->bus) ||
        strlen(bar + 1) >= sizeof(a->path))
        return -1;
    memcpy(a->bus, n->address, (size_t)(bar - n->address));
    a->bus[bar - n->address] = '\0';
    strcpy(a->path, bar + 1);
    return 0;
}

static void add_step(ad_act_result *r, const char *label, const char *outcome)
{
    if (r->n_steps >= sizeof(r->steps) / sizeof(r->steps[0]))
        return;
    ad_act_step *s = &r->steps[r->n_steps++];
    snprintf(s->label, sizeof(s->label), "%s", label);
    s->mechanism = "semantic_api";
    s->outcome = outcome;
}

/* Turns a failed call into an error with the right delivery. */
static int call_failed(ad_error *err, const char *label, int r, const sd_bus_error *e)
{
    /* A stalled bus or app, or a connection that broke after the call went out: the call
     * may have landed. Only an error reply proves it did not. */
    bool no_answer = ad_bus_no_answer(r, e);
    if (no_answer) {
        ad_error_set(err, AD_ACTION_FAILED, "%s got no answer; the action may have landed",
                     label);
        err->delivery = AD_DELIVERY_UNCERTAIN;
        ad_error_detail(err, "kind", json_string("no_reply"));
    } else {
        ad_error_set(err, AD_ACTION_FAILED, "%s was refused by the application", label);
        err->delivery = AD_NOT_DELIVERED;
    }
    ad_error_platform_detail(err, e && e->message ? e->message : strerror(-r));
    return -1;
}

/* Sends one call and reads a boolean answer. Returns 1 (TRUE), 0 (FALSE) or -1 (err set). */
static int call_bool(sd_bus *bus, const address *a, const char *iface, const char *member,
                     const char *label, ad_error *err, const char *types, ...)
{
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int ok = 0;
    va_list ap;
    va_start(ap, types);
    int r = ad_bus_call_methodv(bus, a->deadline_us, a->bus, a->path, iface, member, &e, &reply,
                                types, ap);
    va_end(ap);
    if (r >= 0)
        r = sd_bus_message_read(reply, "b", &ok);
    int rc = r < 0 ? call_failed(err, label, r, &e) : (ok ? 1 : 0);
    sd_bus_error_free(&e);
    sd_bus_message_unref(reply);
    return rc;
}

/* The index of the raw action that maps to `want` (or to `alt` when `want` is absent). */
#define ACTIONS_UNREAD (-2) /* find_action: a read got no answer (stalled bus or app) */

static int find_action(sd_bus *bus, const address *a, const char *want, const char *alt)
{
    int32_t n = 0;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = ad_bus_get_int_property(bus, a->deadline_us, a->bus, a->path, ATSPI_IFACE_ACTION,
                                    "NActions", &e, &n);
    if (r < 0) {
        bool unread = ad_bus_no_answer(r, &e);
        sd_bus_error_free(&e);
        return unread ? ACTIONS_UNREAD : -1;
    }
    int alt_index = -1;
    bool unread = false;
    for (int32_t i = 0; i < n && i < MAX_ACTIONS; i++) {
        sd_bus_message *reply = NULL;
        const char *name = NULL;
        /* GTK4 can list indexes GetName refuses: such an index is not an action. One that
         * got no answer may be the one wanted. */
        r = ad_bus_call_method(bus, a->deadline_us, a->bus, a->path, ATSPI_IFACE_ACTION,
                               "GetName", &e, &reply, "i", i);
        unread |= r < 0 && ad_bus_no_answer(r, &e);
        sd_bus_error_free(&e);
        if (r >= 0 && sd_bus_message_read(reply, "s", &name) >= 0 && name) {
            const char *c = ad_atspi_action_canonical(name);
            if (c && strcmp(c, want) == 0) {
                sd_bus_message_unref(reply);
                return i;
            }
            if (c && alt && alt_index < 0 && strcmp(c, alt) == 0)
                alt_index = i;
        }
        sd_bus_message_unref(reply);
    }
    return unread && alt_index < 0 ? ACTIONS_UNREAD : alt_index;
}

static int do_action(sd_bus *bus, const address *a, const char *want, const char *alt,
                     ad_act_result *ret, ad_error *err)
{
    int index = find_action(bus, a, want, alt);
    if (index == ACTIONS_UNREAD) { /* unread is not absent; nothing was sent */
        ad_error_set(err, AD_TIMEOUT, "The element's actions could not be read before the "
                                      "deadline");
        ad_error_suggest(err, "The application or the accessibility bus is not answering; "
                              "check it, then retry");
        ad_error_detail(err, "kind", json_string("actions_unreadable"));
        return -1;
    }
    if (index < 0) {
        ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "The element exposes no %s action", want);
        ad_error_detail(err, "kind", json_string("action_missing"));
        return -1;
    }
    int r = call_bool(bus, a, ATSPI_IFACE_ACTION, "DoAction", "Action.DoAction", err, "i",
                      index);
    if (r == 0) {
        ad_error_set(err, AD_ACTION_FAILED, "The application declined the %s action", want);
        ad_error_detail(err, "kind", json_string("action_declined"));
    }
    if (r <= 0)
        return -1;
    add_step(ret, "Action.DoAction", "succeeded");
    return 0;
}

static int insert_text(sd_bus *bus, const address *a, const char *text, ad_act_result *ret,
                       ad_error *err)
{
    int32_t caret = 0;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    /* No caret (-1 or unreadable) means the end is unknown: insert at the start, which is
     * where GTK keeps the caret of an unfocused entry. */
    if (ad_bus_get_int_property(bus, a->deadline_us, a->bus, a->path, ATSPI_IFACE_TEXT,
                                "CaretOffset", &e, &caret) < 0 || caret < 0)
        caret = 0;
    sd_bus_error_free(&e);
    /* The length is in bytes: atk-bridge hands it to gtk_editable_insert_text unchanged. */
    int r = call_bool(bus, a, "org.a11y.atspi.EditableText", "InsertText",
                      "EditableText.InsertText", err, "isi", caret, text, (int32_t)strlen(text));
    if (r == 0)
        ad_error_set(err, AD_ACTION_FAILED, "The application declined the text insertion");
    if (r <= 0)
        return -1;
    add_step(ret, "EditableText.InsertText", "succeeded");
    return 0;
}

static int set_number(sd_bus *bus, const address *a, double v, ad_act_result *ret,
                      ad_error *err)
{
    sd_bus_error e = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = ad_bus_call_method(bus, a->deadline_us, a->bus, a->path, DBUS_IFACE_PROPERTIES,
                               "Set", &e, &reply, "ssv", ATSPI_IFACE_VALUE, "CurrentValue", "d",
                               v);
    sd_bus_message_unref(reply);
    if (r < 0) {
        call_failed(err, "Value.CurrentValue", r, &e);
        sd_bus_error_free(&e);
        return -1;
    }
    add_step(ret, "Value.CurrentValue", "succeeded");
    return 0;
}

/* The items a select picks from: a combo box's popup menu children, else its children. */
static const ad_node *select_items(const ad_node *target)
{
    if (target->n_children == 1 && strcmp(target->children[0]->role, "menu") == 0)
        return target->children[0];
    return target;
}

/* GTK 4.8 maps Selection.SelectChild(i) to position i of the widget's *model*
 * (gtkatspiselection.c: GtkListView, GtkListBox row index, GtkComboBox active index), while
 * the accessible children are only the row widgets that exist (recycled, filtered, or, for a
 * combo, not realized at all until its popover opens; its rows also carry no name). Nothing
 * proves that child i is model item i, so a select there could pick another option: refused
 * before anything is sent (interaction.md, "select": selection_index_unproven). */
static int refuse_unproven_index(ad_error *err)
{
    ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "GTK 4 cannot prove which option a selection "
                                               "index picks");
    ad_error_suggest(err, "Click the option's own ref (open the list or combo first), then "
                          "read the control back");
    ad_error_detail(err, "kind", json_string("selection_index_unproven"));
    return -1;
}

/* Does the element implement `iface` (Accessible.GetInterfaces)? An unreadable answer counts
 * as yes, so the caller keeps its usual route and reports that call's own failure. */
static bool has_interface(sd_bus *bus, const address *a, const char *iface)
{
    sd_bus_message *reply = NULL;
    const char *name;
    bool found = false;
    if (ad_bus_call_method(bus, a->deadline_us, a->bus, a->path, ATSPI_IFACE_ACCESSIBLE,
                           "GetInterfaces", NULL, &reply, "") < 0 ||
        sd_bus_message_enter_container(reply, 'a', "s") < 0) {
        sd_bus_message_unref(reply);
        return true;
    }
    while (sd_bus_message_read(reply, "s", &name) > 0)
        if (strcmp(name, iface) == 0)
            found = true;
    sd_bus_message_unref(reply);
    return found;
}

static int select_child(sd_bus *bus, const ad_node *target, const address *a,
                        const char *text, ad_act_result *ret, ad_error *err)
{
    if (ad_atspi_app_is_gtk4(bus, a->bus, a->deadline_us))
        return refuse_unproven_index(err);
    const ad_node *holder = select_items(target);
    int index = -1, matches = 0, unread = 0;
    for (size_t i = 0; i < holder->n_children; i++) {
        const ad_node *c = holder->children[i];
        const char *name = ad_node_display_text(c);
        if (c->name.state == AD_FIELD_UNKNOWN)
            unread++;
        if (name && strcmp(name, text) == 0 && matches++ == 0)
            index = (int)i;
    }
    if (matches == 0 && unread > 0) { /* a name that could not be read is not an absence */
        ad_error_set(err, AD_ACTION_FAILED, "%d option names could not be read", unread);
        ad_error_suggest(err, "Take a fresh snapshot of the control and try again");
        ad_error_detail(err, "kind", json_string("option_names_unreadable"));
        return -1;
    }
    if (matches == 0) {
        ad_error_set(err, AD_ELEMENT_NOT_FOUND, "No option is named '%s'", text);
        ad_error_detail(err, "kind", json_string("option_absent"));
        return -1;
    }
    if (matches > 1) {
        ad_error_set(err, AD_AMBIGUOUS_TARGET, "%d options are named '%s'", matches, text);
        ad_error_detail(err, "kind", json_string("option_ambiguous"));
        return -1;
    }
    if (!has_interface(bus, a, "org.a11y.atspi.Selection")) {
        /* Chromium's <select> (walker_node.c chromium_select_combo): no Selection on the
         * combo box; the option's own "select" action picks it, with the popup open or
         * closed, and fires the page's change event. */
        address oa;
        if (split_address(holder->children[index], &oa) < 0)
            return ad_error_set(err, AD_INTERNAL, "option without an address");
        oa.deadline_us = a->deadline_us;
        return do_action(bus, &oa, "Select", NULL, ret, err);
    }
    int r = call_bool(bus, a, "org.a11y.atspi.Selection", "SelectChild",
                      "Selection.SelectChild", err, "i", index);
    if (r == 0)
        ad_error_set(err, AD_ACTION_FAILED, "The application declined the selection");
    if (r <= 0)
        return -1;
    add_step(ret, "Selection.SelectChild", "succeeded");
    return 0;
}

int ad_atspi_act(sd_bus *bus, const ad_node *target, const ad_act_req *req, ad_act_result *ret,
                 ad_error *err)
{
    address a;
    memset(ret, 0, sizeof(*ret));
    if (split_address(target, &a) < 0)
        return ad_error_set(err, AD_INTERNAL, "element without an address");
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    a.deadline_us = req->deadline_us > 0 ? req->deadline_us
                                         : (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000 +
                                               CALL_TIMEOUT_US;
    int rc = -1;
    switch (req->kind) {
    /* An option whose only verb is "select" (Chromium's <select> options): that is its
     * click (actionability.c admits it). */
    case AD_ACT_CLICK:
        rc = do_action(bus, &a, "Click", ad_option_role(target) ? "Select" : NULL, ret, err);
        break;
    case AD_ACT_RIGHT_CLICK: rc = do_action(bus, &a, "RightClick", NULL, ret, err); break;
    /* GTK3 check boxes expose only "click", which toggles them. */
    case AD_ACT_TOGGLE: rc = do_action(bus, &a, "Toggle", "Click", ret, err); break;
    case AD_ACT_EXPAND: rc = do_action(bus, &a, "Expand", NULL, ret, err); break;
    /* A toggle-style expander ("expand or contract") maps to Expand and serves both ways. */
    case AD_ACT_COLLAPSE: rc = do_action(bus, &a, "Collapse", "Expand", ret, err); break;
    case AD_ACT_SET_TEXT: {
        int r = call_bool(bus, &a, "org.a11y.atspi.EditableText", "SetTextContents",
                          "EditableText.SetTextContents", err, "s", req->text);
        if (r == 0)
            ad_error_set(err, AD_ACTION_FAILED, "The application declined the new text");
        if (r > 0) {
            add_step(ret, "EditableText.SetTextContents", "succeeded");
            rc = 0;
        }
        break;
    }
    case AD_ACT_INSERT_TEXT: rc = insert_text(bus, &a, req->text, ret, err); break;
    case AD_ACT_SET_NUMBER: rc = set_number(bus, &a, req->number, ret, err); break;
    case AD_ACT_SELECT: rc = select_child(bus, target, &a, req->text, ret, err); break;
    case AD_ACT_GRAB_FOCUS: {
        int r = call_bool(bus, &a, ATSPI_IFACE_COMPONENT, "GrabFocus", "Component.GrabFocus",
                          err, "");
        if (r <= 0 && err->delivery == AD_NOT_DELIVERED) {
            /* GTK 4.8 refuses Component.GrabFocus (an error reply or FALSE): it does not let
             * a client move focus inside its window. */
            ad_error_set(err, AD_ACTION_FAILED, "The application rejected the focus request");
            ad_error_suggest(err, "Click the element with --headed instead; its window is "
                                  "already active");
            ad_error_detail(err, "cause", json_string("grab_focus_rejected"));
        }
        if (r > 0) {
            add_step(ret, "Component.GrabFocus", "succeeded");
            rc = 0;
        }
        break;
    }
    case AD_ACT_SCROLL_TO: {
        int r = call_bool(bus, &a, ATSPI_IFACE_COMPONENT, "ScrollTo", "Component.ScrollTo", err,
                          "u", SCROLL_ANYWHERE);
        if (r == 0)
            ad_error_set(err, AD_ACTION_FAILED, "The application could not scroll the element "
                                                "into view");
        if (r > 0) {
            add_step(ret, "Component.ScrollTo", "succeeded");
            rc = 0;
        }
        break;
    }
    }
    if (rc == 0)
        ret->delivery = AD_DELIVERED_UNVERIFIED;
    return rc;
}
