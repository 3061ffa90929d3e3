/* test_post_wait.c: the post-action wait flags through ad_dispatch and the fake adapter
 * (configuration.md, "Post-action wait flags"): a malformed selector is refused before any
 * input is sent, every error raised after the action keeps the action's delivery, and
 * --wait-timeout 0 checks once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fake_adapter.h"
#include "test_util.h"

typedef tu_bed fx;

static int setup(void **state)
{
    *state = tu_bed_new(fk("window|n=Form", fk("button|n=Save|a=Click", NULL),
                           fk("statictext|n=Status", NULL), NULL));
    return 0;
}

static int teardown(void **state)
{
    tu_bed_free(*state);
    return 0;
}

/* The Save button's ref from a fresh snapshot (caller frees). */
static char *save_ref(fx *f)
{
    json_t *env = tu_run_exit(fake_base(f->fake), "snapshot", tu_args("snapshot", "{}"), NULL,
                              0);
    char *ref = strdup(tu_str(tu_node_named(tu_at(env, "data.tree"), "Save"), "ref_id"));
    json_decref(env);
    return ref;
}

static json_t *click_save(fx *f, json_t *globals, int want_exit)
{
    char *ref = save_ref(f);
    json_t *env = tu_run_exit(fake_base(f->fake), "click",
                              tu_args("click", "{s:s}", "ref_id", ref), globals, want_exit);
    free(ref);
    return env;
}

/* ---- the selector is checked before anything is sent ---------------------------------- */

static void expect_refused_before_click(fx *f, json_t *globals)
{
    json_t *env = click_save(f, globals, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    assert_int_equal(f->fake->n_act, 0); /* refused before the click, not after it */
    json_decref(env);
}

static void test_lone_colon_refused_before_click(void **state)
{
    expect_refused_before_click(*state, json_pack("{s:s}", "wait_for", ":"));
}

static void test_lone_colon_gone_refused_before_click(void **state)
{
    expect_refused_before_click(*state, json_pack("{s:s}", "wait_for_gone", ":"));
}

static void test_overlong_role_refused_before_click(void **state)
{
    char sel[210];
    memset(sel, 'b', 200);
    strcpy(sel + 200, ":Save");
    expect_refused_before_click(*state, json_pack("{s:s}", "wait_for", sel));
}

static void test_overlong_role_gone_refused_before_click(void **state)
{
    char sel[210];
    memset(sel, 'b', 200);
    sel[200] = '\0';
    expect_refused_before_click(*state, json_pack("{s:s}", "wait_for_gone", sel));
}

static void test_longest_role_is_accepted(void **state)
{
    fx *f = *state;
    char sel[70];
    memset(sel, 'b', 63); /* the role buffer's limit: still a selector, it matches nothing */
    strcpy(sel + 63, ":Save");
    json_t *env = click_save(f, json_pack("{s:s, s:i}", "wait_for_gone", sel, "wait_timeout",
                                          0), 0);
    assert_true(json_is_true(tu_at(env, "data.gone")));
    assert_int_equal(f->fake->n_act, 1);
    json_decref(env);
}

/* ---- errors after the action keep its delivery ---------------------------------------- */

static void test_timeout_after_click_keeps_delivery(void **state)
{
    fx *f = *state;
    json_t *env = click_save(f, json_pack("{s:s, s:i}", "wait_for", "statictext:never",
                                          "wait_timeout", 0), 1);
    assert_string_equal(tu_str(env, "error.code"), "TIMEOUT");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "delivered_unverified");
    assert_string_equal(tu_str(env, "error.disposition.retry"), "unsafe");
    assert_null(tu_at(env, "error.recovery"));
    assert_string_equal(tu_str(env, "error.details.after_action.action"), "click");
    assert_int_equal(f->fake->n_act, 1);
    json_decref(env);
}

/* The selector holds, but the fresh snapshot it returns cannot be saved: the refstore write
 * fails after the click landed (latest_snapshot_id is a non-empty directory, which rename
 * cannot replace, even for root). */
static void test_state_write_failure_after_click_keeps_delivery(void **state)
{
    fx *f = *state;
    char *ref = save_ref(f);
    char path[4096];
    snprintf(path, sizeof(path), "%s/latest_snapshot_id", f->home.state);
    assert_int_equal(remove(path), 0);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/latest_snapshot_id/keep", f->home.state);
    tu_write_file(path, "x");
    json_t *env = tu_run_exit(fake_base(f->fake), "click",
                              tu_args("click", "{s:s}", "ref_id", ref),
                              json_pack("{s:s}", "wait_for", "button:Save"), 1);
    assert_int_equal(f->fake->n_act, 1);
    assert_string_equal(tu_str(env, "error.code"), "INTERNAL");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "delivered_unverified");
    assert_string_equal(tu_str(env, "error.disposition.retry"), "unsafe");
    assert_string_equal(tu_str(env, "error.details.after_action.action"), "click");
    json_decref(env);
    free(ref);
}

/* ---- --wait-timeout 0 checks once ------------------------------------------------------ */

/* A wait at --wait-timeout 0 on a selector that already holds: one check, and success. The
 * fake fails any read whose deadline passed, as the AT-SPI walker does. */
static json_t *wait_zero(fx *f, const char *cmd, const char *flag, const char *selector)
{
    f->fake->reads_honor_deadline = true;
    json_t *globals = json_pack("{s:s, s:i}", flag, selector, "wait_timeout", 0);
    if (strcmp(cmd, "click") == 0)
        return click_save(f, globals, 0);
    return tu_run_exit(fake_base(f->fake), cmd, tu_args(cmd, "{}"), globals, 0);
}

static void test_wait_timeout_zero_checks_once(void **state)
{
    json_t *env = wait_zero(*state, "click", "wait_for", "button:Save");
    assert_string_equal(tu_str(env, "data.matched_selector"), "button:Save");
    assert_string_equal(tu_str(env, "data.after_action.action"), "click");
    json_decref(env);
}

static void test_wait_timeout_zero_gone_checks_once(void **state)
{
    json_t *env = wait_zero(*state, "click", "wait_for_gone", "statictext:never");
    assert_true(json_is_true(tu_at(env, "data.target_absent")));
    json_decref(env);
}

static void test_snapshot_wait_timeout_zero_checks_once(void **state)
{
    json_t *env = wait_zero(*state, "snapshot", "wait_for", "button:Save");
    assert_string_equal(tu_str(env, "data.matched_selector"), "button:Save");
    json_decref(env);
}

/* ---- an action's -i / --compact shape its --wait-for snapshot ------------------------- */

/* The form with an unnamed single-child wrapper (--compact collapses it) around the button
 * and a leaf without a ref (-i drops it). */
static int setup_view(void **state)
{
    *state = tu_bed_new(fk("window|n=Form", fk("group", fk("button|n=Save|a=Click", NULL), NULL),
                           fk("statictext|n=Status", NULL), NULL));
    return 0;
}

static size_t count_role(const json_t *n, const char *role)
{
    size_t c = n && strcmp(tu_str(n, "role"), role) == 0;
    const json_t *kids = json_object_get(n, "children");
    for (size_t i = 0; i < json_array_size(kids); i++)
        c += count_role(json_array_get(kids, i), role);
    return c;
}

static json_t *click_viewed(fx *f, const char *view_flags, const char *wait_for, int want_exit)
{
    char *ref = save_ref(f);
    json_t *args = tu_args("click", "{s:s}", "ref_id", ref);
    if (strstr(view_flags, "i"))
        json_object_set_new(args, "interactive_only", json_true());
    if (strstr(view_flags, "c"))
        json_object_set_new(args, "compact", json_true());
    json_t *globals = wait_for ? json_pack("{s:s}", "wait_for", wait_for) : NULL;
    json_t *env = tu_run_exit(fake_base(f->fake), "click", args, globals, want_exit);
    free(ref);
    return env;
}

static void test_wait_for_snapshot_keeps_defaults_without_view_flags(void **state)
{
    json_t *env = click_viewed(*state, "", "button:Save", 0);
    const json_t *tree = tu_at(env, "data.tree");
    assert_non_null(tu_node_named(tree, "Status"));
    assert_int_equal(count_role(tree, "group"), 1);
    json_decref(env);
}

static void test_wait_for_snapshot_honours_interactive_only(void **state)
{
    json_t *env = click_viewed(*state, "i", "button:Save", 0);
    const json_t *tree = tu_at(env, "data.tree");
    assert_null(tu_node_named(tree, "Status")); /* a leaf without a ref */
    assert_non_null(tu_node_named(tree, "Save"));
    assert_string_equal(tu_str(env, "data.after_action.action"), "click");
    json_decref(env);
}

static void test_wait_for_snapshot_honours_compact(void **state)
{
    json_t *env = click_viewed(*state, "c", "button:Save", 0);
    const json_t *tree = tu_at(env, "data.tree");
    assert_int_equal(count_role(tree, "group"), 0); /* the unnamed wrapper collapsed */
    assert_non_null(tu_node_named(tree, "Save"));
    assert_non_null(tu_node_named(tree, "Status"));
    json_decref(env);
}

static void test_view_flags_without_wait_for_are_refused_before_click(void **state)
{
    fx *f = *state;
    json_t *env = click_viewed(f, "i", NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_int_equal(f->fake->n_act, 0);
    json_decref(env);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
#define V(fn) cmocka_unit_test_setup_teardown(fn, setup_view, teardown)
    const struct CMUnitTest tests[] = {
        T(test_lone_colon_refused_before_click),
        T(test_lone_colon_gone_refused_before_click),
        T(test_overlong_role_refused_before_click),
        T(test_overlong_role_gone_refused_before_click),
        T(test_longest_role_is_accepted),
        T(test_timeout_after_click_keeps_delivery),
        T(test_state_write_failure_after_click_keeps_delivery),
        T(test_wait_timeout_zero_checks_once),
        T(test_wait_timeout_zero_gone_checks_once),
        T(test_snapshot_wait_timeout_zero_checks_once),
        V(test_wait_for_snapshot_keeps_defaults_without_view_flags),
        V(test_wait_for_snapshot_honours_interactive_only),
        V(test_wait_for_snapshot_honours_compact),
        V(test_view_flags_without_wait_for_are_refused_before_click),
    };
    return cmocka_run_group_tests_name("post_wait", tests, NULL, NULL);
}
