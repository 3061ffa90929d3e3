/* test_wait.c: what wait --element and wait --window report when the target never shows
 * (commands/wait.md "Errors"), through ad_dispatch and the fake adapter. Poll counts, not
 * clocks, prove that a wait ended at once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "fake_adapter.h"
#include "test_util.h"

typedef struct {
    tu_home home;
    fake_adapter *fake;
    fake_window *win;
    char ref[96];
} fx;

/* editor (pid 200) with window "Doc" holding an OK button; ref is a fresh ref to it. */
static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_home_begin(&f->home);
    f->fake = fake_new();
    fake_add_app(f->fake, "editor", 200);
    f->win = fake_add_window(f->fake, "editor", "Doc",
                             fk("window|n=Doc", fk("button|n=OK|a=Click", NULL), NULL));
    json_t *env = tu_run_exit(fake_base(f->fake), "snapshot",
                              tu_args("snapshot", "{s:s}", "app", "editor"), NULL, 0);
    snprintf(f->ref, sizeof(f->ref), "%s",
             tu_str(tu_node_named(tu_at(env, "data.tree"), "OK"), "ref_id"));
    json_decref(env);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    fake_free(f->fake);
    tu_home_end(&f->home);
    free(f);
    return 0;
}

static json_t *wait_element(fx *f, int timeout_ms)
{
    return tu_run_exit(fake_base(f->fake), "wait",
                       tu_args("wait", "{s:s, s:i}", "element", f->ref, "timeout", timeout_ms),
                       NULL, 1);
}

static void test_element_of_an_exited_process_ends_at_once(void **state)
{
    /* Regression (was a bug): the resolution said STALE_REF process_exited and the wait
     * polled on until its timeout; the process never comes back. */
    fx *f = *state;
    fake_kill(f->fake, 200);
    int before = f->fake->n_process_alive;
    json_t *env = wait_element(f, 10000);
    assert_string_equal(tu_str(env, "error.code"), "STALE_REF");
    assert_string_equal(tu_str(env, "error.details.kind"), "process_exited");
    assert_string_equal(tu_str(env, "error.details.process_state"), "exited");
    assert_string_equal(tu_str(env, "error.recovery.strategy"),
                        "inspect_state_then_retry_original");
    assert_int_equal(f->fake->n_process_alive - before, 1); /* one poll, no retry */
    json_decref(env);
}

static void test_element_that_never_resolves_reports_last_observed(void **state)
{
    /* Regression (was a bug): a wait whose ref never resolved timed out without
     * last_observed (wait.md: element waits carry ref and last_observed). */
    fx *f = *state;
    fk_rename(fk_find(f->win->root, "button", "OK"), "Cancel");
    json_t *env = wait_element(f, 150);
    assert_string_equal(tu_str(env, "error.code"), "TIMEOUT");
    assert_string_equal(tu_str(env, "error.details.kind"), "wait_timeout");
    assert_string_equal(tu_str(env, "error.details.ref"), f->ref);
    json_t *last = tu_at(env, "error.details.last_observed");
    assert_non_null(last);
    assert_true(json_is_false(json_object_get(last, "resolved")));
    assert_true(json_is_false(json_object_get(last, "exists")));
    assert_string_equal(tu_str(env, "error.details.last_error.code"), "STALE_REF");
    json_decref(env);

    /* Unproven reads (a cut tree) say nothing about existence. */
    fk_rename(fk_find(f->win->root, "button", "Cancel"), "OK");
    f->win->complete = false;
    env = wait_element(f, 150);
    last = tu_at(env, "error.details.last_observed");
    assert_true(json_is_false(json_object_get(last, "resolved")));
    assert_null(json_object_get(last, "exists"));
    assert_string_equal(tu_str(env, "error.details.last_error.code"), "TIMEOUT");
    json_decref(env);
}

static void test_window_wait_counts_and_lists_untitled_windows(void **state)
{
    /* Regression (was a bug): an untitled window was counted in last_observed.count but
     * left out of titles. */
    fx *f = *state;
    fake_add_window(f->fake, "editor", NULL, fk("window", NULL));
    json_t *env = tu_run_exit(fake_base(f->fake), "wait",
                              tu_args("wait", "{s:s, s:s, s:i}", "window", "Save As", "app",
                                      "editor", "timeout", 0), NULL, 1);
    json_t *last = tu_at(env, "error.details.last_observed");
    assert_int_equal(tu_int(last, "count"), 2);
    json_t *titles = json_object_get(last, "titles");
    assert_int_equal(json_array_size(titles), 2);
    assert_string_equal(tu_str(titles, "0"), "Doc");
    assert_true(json_is_null(json_array_get(titles, 1)));
    assert_true(json_is_false(json_object_get(last, "truncated")));
    json_decref(env);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_element_of_an_exited_process_ends_at_once),
        T(test_element_that_never_resolves_reports_last_observed),
        T(test_window_wait_counts_and_lists_untitled_windows),
    };
    return cmocka_run_group_tests_name("wait", tests, NULL, NULL);
}
