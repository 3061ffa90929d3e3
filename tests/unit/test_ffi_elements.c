/* test_ffi_elements.c: the element calls of the C ABI without a desktop: every out-parameter
 * zeroed before anything is checked, every argument refused with INVALID_ARGS before it
 * reaches the desktop (versions, enums, strings, nesting, handles this thread did not
 * resolve), the exact-entry calls failing closed, and every free NULL-tolerant. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agent_desktop.h"

static AdExactWindowInfo window(void)
{
    AdExactWindowInfo w = {.version = AD_EXACT_WINDOW_INFO_VERSION,
                           .size = (uint32_t)AD_EXACT_WINDOW_INFO_SIZE};
    w.window.id = "w-1";
    return w;
}

static AdFindQuery query(void)
{
    AdFindQuery q = {.control = {.version = AD_FIND_CONTROL_VERSION}};
    q.filter.identity.role = "button";
    return q;
}

/* ad_find_exact on a bad argument: INVALID_ARGS and the handle zeroed. */
static void refused(struct AdAdapter *a, const AdExactWindowInfo *w, const AdFindQuery *q)
{
    AdNativeHandle h = {.ptr = &h};
    assert_int_equal(ad_find_exact(a, w, q, &h), AD_RESULT_ERR_INVALID_ARGS);
    assert_null(h.ptr);
    assert_int_equal(ad_last_error_code(), AD_RESULT_ERR_INVALID_ARGS);
    assert_non_null(ad_last_error_message());
}

static void test_find_checks_every_argument(void **state)
{
    struct AdAdapter *a = *state;
    AdExactWindowInfo w = window();
    AdFindQuery q = query();
    assert_int_equal(ad_find_exact(a, &w, &q, NULL), AD_RESULT_ERR_INVALID_ARGS);
    refused(a, NULL, &q);
    refused(a, &w, NULL);
    w.version = 2;
    refused(a, &w, &q);
    w = window();
    w.size = 8;
    refused(a, &w, &q);
    w = window();
    w.window.id = NULL;
    refused(a, &w, &q);
    w = window();
    q.control.version = 0;
    refused(a, &w, &q);
    q = query();
    q.control.selection.kind = 4;
    refused(a, &w, &q);
    q = query();
    q.filter.identity.name = "\xff\xfe";
    refused(a, &w, &q);
    q = query();
    AdFindStatePredicate states[] = {{"checked", 2}};
    q.filter.states = (AdFindStateSlice){states, 1};
    refused(a, &w, &q);
    states[0] = (AdFindStatePredicate){NULL, 1};
    refused(a, &w, &q);
    q.filter.states = (AdFindStateSlice){NULL, 1};
    refused(a, &w, &q);
    q = query();
    q.filter.has = &q; /* a query that contains itself */
    refused(a, &w, &q);
    q = query();
    AdFindQuery bad_sub = query();
    bad_sub.control.version = 9;
    q.filter.has_not = &bad_sub;
    refused(a, &w, &q);
}

static void test_is_and_tree_zero_and_check(void **state)
{
    struct AdAdapter *a = *state;
    AdExactWindowInfo w = window();
    AdFindQuery q = query();
    bool out = true;
    assert_int_equal(ad_is_exact(a, &w, &q, NULL, &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_false(out);
    assert_int_equal(ad_is_exact(a, &w, &q, "checked", NULL), AD_RESULT_ERR_INVALID_ARGS);
    out = true;
    assert_int_equal(ad_is_exact(a, &w, &q, "bogus", &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_false(out);
    assert_int_equal(ad_is_exact(a, &w, &q, "", &out), AD_RESULT_ERR_INVALID_ARGS);
    AdNodeTree tree = {.nodes = (AdNode *)&tree, .count = 3};
    AdTreeOptions opts = {.surface = AD_SNAPSHOT_SURFACE_ACTION_CENTER + 1};
    assert_int_equal(ad_get_tree_exact(a, &w, &opts, &tree), AD_RESULT_ERR_INVALID_ARGS);
    assert_null(tree.nodes);
    assert_int_equal(tree.count, 0);
    assert_int_equal(ad_get_tree_exact(a, &w, NULL, &tree), AD_RESULT_ERR_INVALID_ARGS);
    assert_int_equal(ad_get_tree_exact(a, NULL, &opts, &tree), AD_RESULT_ERR_INVALID_ARGS);
    ad_free_tree(&tree);
    ad_free_tree(NULL);
}

static void test_handles_not_resolved_here_are_refused(void **state)
{
    struct AdAdapter *a = *state;
    int not_a_handle = 0;
    AdNativeHandle forged = {.ptr = &not_a_handle};
    AdNativeHandle empty = {0};
    char *text = (char *)&forged;
    assert_int_equal(ad_get(a, &forged, "value", &text), AD_RESULT_ERR_INVALID_ARGS);
    assert_null(text);
    assert_int_equal(ad_get(a, &empty, "value", &text), AD_RESULT_ERR_INVALID_ARGS);
    assert_int_equal(ad_get(a, NULL, "value", &text), AD_RESULT_ERR_INVALID_ARGS);
    assert_int_equal(ad_get(a, &forged, "value", NULL), AD_RESULT_ERR_INVALID_ARGS);
    AdAction click = {.kind = AD_ACTION_KIND_CLICK};
    AdActionResult res = {.action = "not zeroed", .step_count = 4};
    assert_int_equal(ad_execute_action(a, &forged, &click, &res), AD_RESULT_ERR_INVALID_ARGS);
    assert_null(res.action);
    assert_int_equal(res.step_count, 0);
    assert_int_equal(ad_execute_action_with_policy(a, &forged, &click, 3, &res),
                     AD_RESULT_ERR_INVALID_ARGS);
    assert_int_equal(ad_execute_action(a, &forged, &click, NULL), AD_RESULT_ERR_INVALID_ARGS);
    /* A forged handle is never freed; an empty one (and NULL) is a no-op. */
    assert_int_equal(ad_free_handle(a, &forged), AD_RESULT_ERR_INVALID_ARGS);
    assert_ptr_equal(forged.ptr, &not_a_handle);
    assert_int_equal(ad_free_handle(a, &empty), AD_RESULT_OK);
    assert_int_equal(ad_free_handle(a, NULL), AD_RESULT_OK);
}

static void test_exact_entry_calls_fail_closed(void **state)
{
    struct AdAdapter *a = *state;
    AdExactRefEntry entry = {.version = AD_EXACT_REF_ENTRY_VERSION,
                             .size = (uint32_t)AD_EXACT_REF_ENTRY_SIZE};
    AdNativeHandle h = {.ptr = &h};
    assert_int_equal(ad_resolve_element_exact(a, &entry, &h), AD_RESULT_ERR_ACTION_NOT_SUPPORTED);
    assert_null(h.ptr);
    assert_int_equal(ad_last_error_code(), AD_RESULT_ERR_ACTION_NOT_SUPPORTED);
    AdAction click = {.kind = AD_ACTION_KIND_CLICK};
    AdActionResult res = {.action = "not zeroed"};
    assert_int_equal(ad_execute_ref_action_exact_with_policy(a, &entry, &click, 0, &res),
                     AD_RESULT_ERR_ACTION_NOT_SUPPORTED);
    assert_null(res.action);
    assert_int_equal(ad_execute_ref_action_exact_with_policy(NULL, NULL, NULL, 0, NULL),
                     AD_RESULT_ERR_ACTION_NOT_SUPPORTED);
    assert_int_equal(ad_resolve_element_exact(NULL, NULL, NULL),
                     AD_RESULT_ERR_ACTION_NOT_SUPPORTED);
}

static void test_action_result_free_releases_everything(void **state)
{
    (void)state;
    ad_free_action_result(NULL);
    AdActionResult empty = {0};
    ad_free_action_result(&empty);
    /* A result shaped like the library's: every string and array its own allocation. */
    AdActionResult r = {0};
    r.action = strdup("click");
    r.details_json = strdup("{}");
    r.steps = calloc(1, sizeof(*r.steps));
    r.steps[0].label = strdup("Action.DoAction");
    r.steps[0].outcome = strdup("succeeded");
    r.step_count = 1;
    r.post_state = calloc(1, sizeof(*r.post_state));
    r.post_state->role = strdup("button");
    r.post_state->value = strdup("v");
    r.post_state->states = calloc(1, sizeof(char *));
    r.post_state->states[0] = strdup("focused");
    r.post_state->state_count = 1;
    ad_free_action_result(&r); /* ASan reports any leak */
    assert_null(r.action);
    assert_null(r.steps);
    assert_null(r.post_state);
    ad_free_action_result(&r);
}

static int setup(void **state)
{
    /* No bus: nothing here may reach the desktop. */
    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/ad-test-bus", 1);
    *state = ad_adapter_create();
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    ad_adapter_destroy(*state);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_checks_every_argument),
        cmocka_unit_test(test_is_and_tree_zero_and_check),
        cmocka_unit_test(test_handles_not_resolved_here_are_refused),
        cmocka_unit_test(test_exact_entry_calls_fail_closed),
        cmocka_unit_test(test_action_result_free_releases_everything),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
