/* get_is.c: get (one property of a ref) and is (one boolean state). Both resolve the ref
 * strictly and read the live element; `bounds` falls back to the snapshot's saved rectangle
 * when the live read has none, and says so with `live: false`. */
#include <string.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "core/ctx.h"
#include "core/present.h"
#include "core/resolve.h"
#include "core/element_is.h"

/* get and is take no --timeout-ms; they share the default deadline of find. */
#define REF_READ_TIMEOUT_MS 5000

static bool text_role(const char *role)
{
    static const char *const roles[] = {"textfield", "combobox", "listbox", "datefield",
                                        "timefield", NULL};
    for (size_t i = 0; roles[i]; i++)
        if (strcmp(role, roles[i]) == 0)
            return true;
    return false;
}

/* A live text field, falling back to the snapshot's saved value when the live read could
 * not answer (unknown); a field known to be absent stays null. */
static json_t *live_or_saved(const ad_text *t, const json_t *entry, const char *key)
{
    if (t->state == AD_FIELD_KNOWN)
        return json_string(t->text);
    if (t->state == AD_FIELD_UNKNOWN) {
        json_t *saved = json_object_get(entry, key);
        return saved ? json_copy(saved) : json_null();
    }
    return json_null();
}

static json_t *read_property(const ad_node *n, const json_t *entry, const char *prop,
                             json_t *data)
{
    if (strcmp(prop, "text") == 0) {
        /* The value for text roles and the name for every other role, each falling back to
         * the other. A secure field's value is never read, so it is never a fallback. */
        json_t *value = n->secure ? json_null() : live_or_saved(&n->value, entry, "value");
        json_t *name = live_or_saved(&n->name, entry, "name");
        json_t *first = text_role(n->role) ? value : name;
        json_t *second = text_role(n->role) ? name : value;
        json_t *pick = json_is_null(first) ? second : first;
        json_incref(pick);
        json_decref(value);
        json_decref(name);
        return pick;
    }
    if (strcmp(prop, "value") == 0)
        return n->secure ? json_null() : live_or_saved(&n->value, entry, "value");
    if (strcmp(prop, "title") == 0)
        return live_or_saved(&n->name, entry, "name");
    if (strcmp(prop, "role") == 0)
        return json_string(n->role);
    if (strcmp(prop, "states") == 0) {
        if (n->states_state == AD_FIELD_KNOWN)
            return ad_states_json(n);
        json_t *saved = json_object_get(entry, "states");
        return saved ? json_copy(saved) : json_array();
    }
    /* bounds */
    if (n->bounds_state == AD_FIELD_KNOWN) {
        json_object_set_new(data, "live", json_true());
        return ad_rect_json(&n->bounds);
    }
    json_object_set_new(data, "live", json_false());
    json_t *saved = json_object_get(entry, "bounds");
    return saved ? json_copy(saved) : json_null();
}

int ad_cmd_get(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *ref = ad_arg_str(args, "ref_id");
    const char *prop = ad_arg_str(args, "property");
    ad_resolved r = {0};
    int64_t deadline = ad_deadline_after_ms(REF_READ_TIMEOUT_MS);
    if (ad_resolve_load(ctx, ref, &r, err) < 0 ||
        ad_resolve_live_read(ctx, &r, deadline,
                             (ad_resolve_read){.all_bounds = strcmp(prop, "bounds") == 0},
                             err) < 0) {
        ad_resolved_clear(&r);
        return -1;
    }
    json_t *d = json_object();
    json_object_set_new(d, "property", json_string(prop));
    json_object_set_new(d, "ref", json_string(ref));
    json_t *v = read_property(r.node, r.entry, prop, d);
    json_object_set_new(d, "value", v ? v : json_null());
    ad_resolved_clear(&r);
    *ret_data = d;
    return 0;
}

int ad_cmd_is(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *ref = ad_arg_str(args, "ref_id");
    const char *prop = ad_arg_str(args, "property");
    ad_resolved r = {0};
    if (ad_resolve_load(ctx, ref, &r, err) < 0 ||
        ad_resolve_live(ctx, &r, ad_deadline_after_ms(REF_READ_TIMEOUT_MS), err) < 0) {
        ad_resolved_clear(&r);
        return -1;
    }
    bool applicable = false;
    bool result = ad_element_is(r.node, &r.tree, prop, &applicable);
    *ret_data = json_pack("{s:b, s:s, s:s, s:b}", "applicable", applicable, "property", prop,
                          "ref", ref, "result", result);
    ad_resolved_clear(&r);
    return 0;
}
