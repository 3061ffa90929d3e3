/* ffi_find.c: ad_find_exact, ad_get and ad_is_exact. An AdFindQuery becomes the arguments of
 * the CLI's `find` (the same validator, session, trace and matching), run with --limit 0 so
 * every match comes back; has/has_not, which find has no flag for, are evaluated here as a
 * `find --root <candidate> --count`-like search under each candidate (the candidate's own
 * subtree, itself included, as find --root searches it). The selection is applied to the
 * filtered matches: strict needs exactly one. The selected match's ref entry records the
 * element's index path; the handle is published (and ad_is_exact evaluates) only when a fresh
 * read of the window lands on an element that still carries the entry's recorded identity
 * (core/resolve.h). A non-interactive match has no ref entry and fails closed.
 *
 * Known limit: has/has_not scope a search under a candidate's ref (find --root), which
 * resolves strictly, so a candidate that is not unique at capture (a twin) fails the query
 * with AMBIGUOUS_TARGET instead of being tested. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/deadline.h"
#include "core/element_is.h"
#include "core/present.h"
#include "core/resolve.h"
#include "dispatch/arg_check.h"
#include "dispatch/dispatch.h"
#include "ffi/ffi_exact.h"
#include "ffi/ffi_private.h"

/* has/has_not nest at most this deep, so a query that points at itself is refused. */
#define FIND_MAX_NESTING 8
/* At most this many state predicates per query. */
#define FIND_MAX_STATES 64

static AdResult check_query(const AdFindQuery *q, const char *what, int depth)
{
    AdResult rc = ffi_check_ptr(q, what);
    if (rc != AD_RESULT_OK)
        return rc;
    if (depth > FIND_MAX_NESTING)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "has/has_not nest more than 8 deep",
                        "A query must not contain itself");
    if (q->control.version != AD_FIND_CONTROL_VERSION)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "query.control.version is unknown",
                        "Set it to AD_FIND_CONTROL_VERSION");
    const AdFindFilter *f = &q->filter;
    struct { const char *s, *name; } strings[] = {
        {f->identity.role, "query.filter.identity.role"},
        {f->identity.name, "query.filter.identity.name"},
        {f->identity.description, "query.filter.identity.description"},
        {f->identity.native_id, "query.filter.identity.native_id"},
        {f->identity.value, "query.filter.identity.value"},
        {f->has_text, "query.filter.has_text"},
    };
    rc = ffi_check_enum(q->control.selection.kind, AD_FIND_SELECTION_KIND_STRICT,
                        AD_FIND_SELECTION_KIND_NTH, "query.control.selection.kind");
    for (size_t i = 0; rc == AD_RESULT_OK && i < sizeof(strings) / sizeof(strings[0]); i++)
        rc = ffi_check_string(strings[i].s, strings[i].name, false);
    if (rc == AD_RESULT_OK && f->states.count > FIND_MAX_STATES)
        rc = ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "query.filter.states has more than 64 items",
                      NULL);
    if (rc == AD_RESULT_OK && f->states.count)
        rc = ffi_check_ptr(f->states.items, "query.filter.states.items");
    for (size_t i = 0; rc == AD_RESULT_OK && i < f->states.count; i++) {
        rc = ffi_check_string(f->states.items[i].token, "query.filter.states token", true);
        if (rc == AD_RESULT_OK)
            rc = ffi_check_enum(f->states.items[i].expected, 0, 1,
                                "query.filter.states expected");
    }
    if (rc == AD_RESULT_OK && f->has)
        rc = check_query(f->has, "query.filter.has", depth + 1);
    if (rc == AD_RESULT_OK && f->has_not)
        rc = check_query(f->has_not, "query.filter.has_not", depth + 1);
    return rc;
}

/* find's given arguments for q's filter over `scope_key` (window_id or root) = scope. Every
 * match comes back (limit 0); the selection is applied by the caller. */
static json_t *find_args(const AdFindQuery *q, const char *scope_key, const char *scope)
{
    const AdFindFilter *f = &q->filter;
    json_t *a = json_pack("{s:s, s:I}", scope_key, scope, "limit", (json_int_t)0);
    struct { const char *key, *value; } strings[] = {
        {"role", f->identity.role}, {"name", f->identity.name},
        {"description", f->identity.description}, {"native_id", f->identity.native_id},
        {"value", f->identity.value}, {"text", f->has_text},
    };
    for (size_t i = 0; a && i < sizeof(strings) / sizeof(strings[0]); i++)
        if (strings[i].value)
            json_object_set_new(a, strings[i].key, json_string(strings[i].value));
    if (a && f->exact)
        json_object_set_new(a, "exact", json_true());
    if (a && q->control.timeout_ms) /* 0, a zeroed struct: find's own default */
        json_object_set_new(a, "timeout_ms", json_integer(q->control.timeout_ms > INT64_MAX
                                                              ? INT64_MAX
                                                              : (json_int_t)q->control.timeout_ms));
    if (a && f->states.count) {
        json_t *states = json_array();
        for (size_t i = 0; i < f->states.count; i++)
            json_array_append_new(states, json_sprintf("%s=%s", f->states.items[i].token,
                                                       f->states.items[i].expected ? "true"
                                                                                   : "false"));
        json_object_set_new(a, "state", states);
    }
    return a;
}

/* The matches of q in a scope, filtered by has/has_not (*ret owned: a JSON array). */
static AdResult filtered_matches(const struct AdAdapter *adapter, const AdFindQuery *q,
                                 const char *scope_key, const char *scope, json_t **ret);

/* Whether sub matches anything under (and at) the match's element. */
static AdResult holds(const struct AdAdapter *adapter, const json_t *match,
                      const AdFindQuery *sub, bool *ret)
{
    const char *ref = json_string_value(json_object_get(match, "ref_id"));
    if (!ref)
        return ffi_fail(AD_RESULT_ERR_ACTION_NOT_SUPPORTED,
                        "has/has_not cannot be checked under a match that has no ref (it is "
                        "not interactive)",
                        "Narrow the query with a role that earns refs, such as button");
    json_t *inner = NULL;
    AdResult rc = filtered_matches(adapter, sub, "root", ref, &inner);
    *ret = rc == AD_RESULT_OK && json_array_size(inner) > 0;
    json_decref(inner);
    return rc;
}

static AdResult filtered_matches(const struct AdAdapter *adapter, const AdFindQuery *q,
                                 const char *scope_key, const char *scope, json_t **ret)
{
    *ret = NULL;
    json_t *data = NULL;
    AdResult rc = ffi_run(adapter, "find", find_args(q, scope_key, scope), &data, NULL);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *all = json_object_get(data, "matches"), *kept = json_array();
    size_t i;
    json_t *m;
    json_array_foreach(all, i, m)
    {
        bool keep = true;
        if (q->filter.has)
            rc = holds(adapter, m, q->filter.has, &keep);
        if (rc == AD_RESULT_OK && keep && q->filter.has_not) {
            bool present = false;
            rc = holds(adapter, m, q->filter.has_not, &present);
            keep = !present;
        }
        if (rc != AD_RESULT_OK)
            break;
        if (keep)
            json_array_append(kept, m);
    }
    json_decref(data);
    if (rc != AD_RESULT_OK)
        json_decref(kept);
    else
        *ret = kept;
    return rc;
}

/* The match the selection picks (borrowed from matches), or a recorded failure. */
static AdResult select_match(const json_t *matches, const AdFindSelection *sel,
                             const json_t **ret)
{
    size_t n = json_array_size(matches), pick = 0;
    char msg[160];
    if (n == 0)
        return ffi_fail(AD_RESULT_ERR_ELEMENT_NOT_FOUND, "No element matches the query",
                        "Check the query against a snapshot of the window");
    switch (sel->kind) {
    case AD_FIND_SELECTION_KIND_STRICT:
        if (n > 1) {
            snprintf(msg, sizeof(msg), "The query matches %zu elements", n);
            return ffi_fail(AD_RESULT_ERR_AMBIGUOUS_TARGET, msg,
                            "Narrow the query, or select one with first, last or nth");
        }
        break;
    case AD_FIND_SELECTION_KIND_FIRST: break;
    case AD_FIND_SELECTION_KIND_LAST: pick = n - 1; break;
    default: /* NTH */
        if (sel->nth >= n) {
            snprintf(msg, sizeof(msg), "nth %u is past the %zu matches", (unsigned)sel->nth, n);
            return ffi_fail(AD_RESULT_ERR_ELEMENT_NOT_FOUND, msg,
                            "nth is zero-based; pass a smaller index");
        }
        pick = sel->nth;
    }
    *ret = json_array_get(matches, pick);
    return AD_RESULT_OK;
}

/* Runs q in win and returns the selected match's ref (owned). */
static AdResult find_selected_ref(const struct AdAdapter *adapter, const AdExactWindowInfo *win,
                                  const AdFindQuery *q, char **ret_ref)
{
    *ret_ref = NULL;
    json_t *matches = NULL;
    AdResult rc = filtered_matches(adapter, q, "window_id", win->window.id, &matches);
    const json_t *m = NULL;
    if (rc == AD_RESULT_OK)
        rc = select_match(matches, &q->control.selection, &m);
    const char *ref = m ? json_string_value(json_object_get(m, "ref_id")) : NULL;
    if (rc == AD_RESULT_OK && !ref)
        rc = ffi_fail(AD_RESULT_ERR_ACTION_NOT_SUPPORTED,
                      "The selected element is not interactive, so it cannot be resolved",
                      "Query an element that earns a ref (snapshots-and-refs), such as a "
                      "button or a text field");
    if (rc == AD_RESULT_OK && !(*ret_ref = strdup(ref)))
        rc = ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
    json_decref(matches);
    return rc;
}

/* The window the ref was captured from must still be the process generation win names. */
static int same_generation(const json_t *refmap, const AdExactWindowInfo *win, ad_error *err)
{
    const json_t *src = json_object_get(refmap, "source");
    const char *instance = json_string_value(json_object_get(src, "process_instance"));
    json_int_t pid = json_integer_value(json_object_get(src, "pid"));
    if ((win->window.pid && pid != (json_int_t)win->window.pid) ||
        (win->process_instance && (!instance || strcmp(instance, win->process_instance) != 0))) {
        ad_error_set(err, AD_STALE_REF, "Window %s now belongs to another process than the "
                                        "one win names", win->window.id);
        ad_error_suggest(err, "List the windows again with ad_list_windows_exact");
        ad_error_detail(err, "kind", json_string("process_exited"));
        return -1;
    }
    return 0;
}

/* Loads ref's entry, reads the window live into *tree (the caller clears it) and lands *node
 * on the recorded element. Runs on the adapter (ffi_call_begin). The preflight of `get` gives
 * the state root and session the entry is saved in, as it does for every ref command. */
static AdResult land_selected(const struct AdAdapter *adapter, ad_adapter *platform,
                              const AdExactWindowInfo *win, const char *ref, ad_tree *tree,
                              ad_node **node)
{
    *node = NULL;
    memset(tree, 0, sizeof(*tree));
    ad_error err = AD_ERROR_INIT;
    ad_preflight p;
    json_t *given = json_pack("{s:s}", "ref_id", ref), *globals = json_object();
    const char *session = ffi_adapter_session(adapter);
    if (session)
        json_object_set_new(globals, "session", json_string(session));
    ad_resolved r = {0};
    int ok = ad_dispatch_preflight(platform, ad_command_find("get"), given, globals, &p, &err);
    if (ok == 0)
        ok = ad_resolve_load(&p.ctx, ref, &r, &err);
    if (ok == 0)
        ok = same_generation(r.refmap, win, &err);
    if (ok == 0) {
        ad_read_limits lim = ad_read_limits_default(ad_deadline_after_ms(FFI_HANDLE_READ_MS));
        ok = platform->ops->read_window(platform, win->window.id, &lim, tree, &err);
    }
    if (ok == 0)
        ok = ad_resolve_by_path(r.entry, tree, ref, node, &err);
    AdResult rc = ok == 0 ? AD_RESULT_OK : ffi_fail_record(&err);
    if (rc != AD_RESULT_OK)
        ad_tree_clear(tree);
    ad_resolved_clear(&r);
    ad_preflight_clear(&p);
    json_decref(given);
    json_decref(globals);
    ad_error_clear(&err);
    return rc;
}

/* Runs q in win and lands on the selected element (see land_selected). */
static AdResult resolve_query(const struct AdAdapter *adapter, const AdExactWindowInfo *win,
                              const AdFindQuery *q, ad_adapter **platform, ad_tree *tree,
                              ad_node **node)
{
    char *ref = NULL;
    AdResult rc = find_selected_ref(adapter, win, q, &ref);
    if (rc == AD_RESULT_OK && (rc = ffi_call_begin(adapter, platform)) == AD_RESULT_OK) {
        rc = land_selected(adapter, *platform, win, ref, tree, node);
        if (rc != AD_RESULT_OK)
            ffi_call_end(adapter);
    }
    free(ref);
    return rc;
}

AdResult ad_find_exact(const struct AdAdapter *adapter, const struct AdExactWindowInfo *win,
                       const struct AdFindQuery *query, struct AdNativeHandle *out_handle)
{
    AdResult rc = ffi_check_ptr(out_handle, "out_handle");
    if (rc != AD_RESULT_OK)
        return rc;
    out_handle->ptr = NULL;
    if ((rc = ffi_check_exact_window(win, "win")) != AD_RESULT_OK ||
        (rc = check_query(query, "query", 0)) != AD_RESULT_OK)
        return rc;
    ad_adapter *platform = NULL;
    ad_tree tree;
    ad_node *node = NULL;
    if ((rc = resolve_query(adapter, win, query, &platform, &tree, &node)) != AD_RESULT_OK)
        return rc;
    rc = node->address ? ffi_handle_publish(adapter, win->window.id, node->address, out_handle)
                       : ffi_fail(AD_RESULT_ERR_ACTION_NOT_SUPPORTED,
                                  "The element has no native address", NULL);
    ffi_call_end(adapter);
    ad_tree_clear(&tree);
    return rc;
}

/* True when prop is one of the properties `is` takes (its argument table's choices). */
static bool is_property(const char *prop)
{
    const ad_arg_spec *spec = ad_arg_spec_find(ad_command_find("is")->args, "property");
    return *prop && ad_arg_list_has(spec->choices, prop, strlen(prop));
}

AdResult ad_is_exact(const struct AdAdapter *adapter, const struct AdExactWindowInfo *win,
                     const struct AdFindQuery *query, const char *property, bool *out)
{
    AdResult rc = ffi_check_ptr(out, "out");
    if (rc != AD_RESULT_OK)
        return rc;
    *out = false;
    if ((rc = ffi_check_exact_window(win, "win")) != AD_RESULT_OK ||
        (rc = check_query(query, "query", 0)) != AD_RESULT_OK ||
        (rc = ffi_check_string(property, "property", true)) != AD_RESULT_OK)
        return rc;
    if (!is_property(property))
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "property is not one `is` checks",
                        "Pass visible, enabled, checked, focused, expanded or selected");
    /* The element the query selects, landed as ad_find_exact lands it (so first/last/nth
     * pick among twins too), then the `is` command's own evaluation. */
    ad_adapter *platform = NULL;
    ad_tree tree;
    ad_node *node = NULL;
    if ((rc = resolve_query(adapter, win, query, &platform, &tree, &node)) != AD_RESULT_OK)
        return rc;
    bool applicable = false;
    bool result = ad_element_is(node, &tree, property, &applicable);
    ffi_call_end(adapter);
    ad_tree_clear(&tree);
    if (!applicable)
        return ffi_fail(AD_RESULT_ERR_ACTION_NOT_SUPPORTED,
                        "The property does not apply to the element or could not be read",
                        "Check the element's role and states in a snapshot");
    *out = result;
    return AD_RESULT_OK;
}

AdResult ad_get(const struct AdAdapter *adapter, const struct AdNativeHandle *handle,
                const char *property, char **out)
{
    AdResult rc = ffi_check_ptr(out, "out");
    if (rc != AD_RESULT_OK)
        return rc;
    *out = NULL;
    const ffi_element *e = NULL;
    if ((rc = ffi_handle_check(adapter, handle, &e)) != AD_RESULT_OK ||
        (rc = ffi_check_string(property, "property", true)) != AD_RESULT_OK)
        return rc;
    bool bounds = strcmp(property, "bounds") == 0;
    if (!bounds && strcmp(property, "value") != 0)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "property must be \"value\" or \"bounds\"",
                        NULL);
    ad_adapter *platform = NULL;
    if ((rc = ffi_call_begin(adapter, &platform)) != AD_RESULT_OK)
        return rc;
    ad_tree tree;
    ad_node *n = NULL;
    rc = ffi_handle_land(platform, e, bounds, &tree, &n);
    ffi_call_end(adapter);
    if (rc != AD_RESULT_OK)
        return rc;
    /* An absent value (or bounds) is NULL, never an empty string; a secure field's value is
     * never read; a field whose read failed is an error, never NULL. Bounds are the JSON
     * rectangle `get --property bounds` reports. */
    ad_field_state state = bounds ? n->bounds_state : n->secure ? AD_FIELD_ABSENT : n->value.state;
    if (state == AD_FIELD_KNOWN) {
        json_t *r = bounds ? ad_rect_json(&n->bounds) : NULL;
        *out = bounds ? json_dumps(r, JSON_COMPACT) : strdup(ad_text_get(&n->value));
        json_decref(r);
        if (!*out)
            rc = ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
    } else if (state == AD_FIELD_UNKNOWN) {
        rc = ffi_fail(AD_RESULT_ERR_TIMEOUT, "The property could not be read from the element",
                      "Retry; the app may be busy");
    }
    ad_tree_clear(&tree);
    return rc;
}
