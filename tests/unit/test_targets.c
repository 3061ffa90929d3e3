/* test_targets.c: which target a command reaches and what it says when there is none, through
 * ad_dispatch and the fake adapter. The one window-choice rule every command shares
 * (core/window_select.c): --app narrows a --window-id, and an --app with several running
 * instances is ambiguous (snapshots-and-refs.md "Choose the window", keyboard.md,
 * app-window.md). And what wait --element and wait --window report when their target never
 * shows (commands/wait.md "Errors"); poll counts, not clocks, prove a wait ended at once. */
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
    fake_window *calc, *editor;
    char ref[96]; /* a ref to the editor's OK button */
} fx;

static ad_node *tree(const char *title)
{
    char spec[64];
    snprintf(spec, sizeof(spec), "window|n=%s", title);
    return fk(spec, fk("button|n=OK|a=Click", NULL), NULL);
}

/* calc (pid 100, window w-fake-1, focused) and editor (pid 200, window w-fake-2 "Doc"), each
 * window holding an OK button; ref is a fresh ref to the editor's. */
static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_fake_begin(&f->home, &f->fake);
    fake_add_app(f->fake, "calc", 100);
    fake_add_app(f->fake, "editor", 200);
    f->calc = fake_add_window(f->fake, "calc", "Calculator", tree("Calculator"));
    f->calc->w.is_focused = true;
    f->editor = fake_add_window(f->fake, "editor", "Doc", tree("Doc"));
    json_t *env = tu_run_exit(fake_base(f->fake), "snapshot",
                              tu_args("snapshot", "{s:s}", "app", "editor"), NULL, 0);
    snprintf(f->ref, sizeof(f->ref), "%s",
             tu_str(tu_node_named(tu_at(env, "data.tree"), "OK"), "ref_id"));
    json_decref(env);
    f->fake->n_read_window = 0; /* the tests count their own reads */
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    tu_fake_end(&f->home, f->fake);
    free(f);
    return 0;
}

/* A second editor process (pid 201) with one window, "Doc 2" (w-fake-3). */
static fake_window *second_editor(fx *f)
{
    fake_app *a = fake_add_app(f->fake, "editor", 201);
    fake_window *w = fake_add_window(f->fake, "editor", "Doc 2", tree("Doc 2"));
    w->w.pid = a->app.pid; /* fake_add_window takes the first app of that name */
    return w;
}

static json_t *run(fx *f, const char *cmd, json_t *args, int want_exit)
{
    return tu_run_exit(fake_base(f->fake), cmd, args, NULL, want_exit);
}

/* ---- the window choice ------------------------------------------------------------------ */

static void expect_not_of_app(json_t *env)
{
    assert_string_equal(tu_str(env, "error.code"), "WINDOW_NOT_FOUND");
    assert_string_equal(tu_str(env, "error.details.kind"), "window_not_of_app");
    assert_string_equal(tu_str(env, "error.details.window_app"), "calc");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    assert_non_null(strstr(tu_str(env, "error.suggestion"), "list-windows --app editor"));
    json_decref(env);
}

/* snapshot --app app --window-id wid, expecting exit status want_exit. */
static json_t *snapshot_of(fx *f, const char *app, const char *wid, int want_exit)
{
    return run(f, "snapshot", app ? tu_args("snapshot", "{s:s, s:s}", "app", app, "window_id",
                                            wid)
                                  : tu_args("snapshot", "{s:s}", "window_id", wid),
               want_exit);
}

static void expect_code(json_t *env, const char *code, const char *kind)
{
    assert_string_equal(tu_str(env, "error.code"), code);
    if (kind)
        assert_string_equal(tu_str(env, "error.details.kind"), kind);
    json_decref(env);
}

static void test_app_narrows_a_window_id(void **state)
{
    /* Regression (was a bug): --app editor --window-id <calc's window> read calc's window;
     * --app narrows, so a window of another app is WINDOW_NOT_FOUND. */
    fx *f = *state;
    expect_not_of_app(snapshot_of(f, "editor", "w-fake-1", 1));
    expect_not_of_app(run(f, "find", tu_args("find", "{s:s, s:s, s:s}", "app", "editor",
                                             "window_id", "w-fake-1", "name", "OK"), 1));
    /* The other surfaces take the same path. */
    expect_not_of_app(run(f, "snapshot", tu_args("snapshot", "{s:s, s:s, s:s}", "app",
                                                 "editor", "window_id", "w-fake-1", "surface",
                                                 "menu"), 1));
    /* An event wait on a window of another app could never fire. */
    expect_not_of_app(run(f, "wait", tu_args("wait", "{s:s, s:s, s:s, s:i}", "app", "editor",
                                             "event", "window-closed", "window_id", "w-fake-1",
                                             "timeout", 5000), 1));
    assert_int_equal(f->fake->n_read_window, 0);
    /* Its own window, matched by pid or by the desktop name --app also accepts. */
    json_t *env = snapshot_of(f, "EDITOR", "w-fake-2", 0);
    assert_string_equal(tu_str(env, "data.window.title"), "Doc");
    json_decref(env);
    free(f->fake->apps[1].app.desktop_name);
    f->fake->apps[1].app.desktop_name = strdup("Text Editor");
    env = snapshot_of(f, "text editor", "w-fake-2", 0);
    assert_string_equal(tu_str(env, "data.window.id"), "w-fake-2");
    json_decref(env);
    /* Without --app the id alone selects, whoever owns it. */
    env = snapshot_of(f, NULL, "w-fake-1", 0);
    assert_string_equal(tu_str(env, "data.window.title"), "Calculator");
    json_decref(env);
    /* With an unfinished inventory the owner may be an instance that did not answer. */
    f->fake->apps_complete = false;
    expect_code(snapshot_of(f, "editor", "w-fake-1", 1), "TIMEOUT", "inventory_incomplete");
    f->fake->apps_complete = true;
    /* An --app that is not running at all says so. */
    expect_code(snapshot_of(f, "nope", "w-fake-2", 1), "APP_NOT_FOUND", NULL);
}

static void expect_instances(json_t *env)
{
    assert_string_equal(tu_str(env, "error.code"), "AMBIGUOUS_TARGET");
    assert_int_equal(tu_int(env, "error.details.instance_count"), 2);
    json_t *c = tu_at(env, "error.details.candidates");
    assert_int_equal(json_array_size(c), 2);
    assert_string_equal(tu_str(c, "0.id"), "w-fake-2");
    assert_int_equal(tu_int(c, "0.pid"), 200);
    assert_string_equal(tu_str(c, "1.id"), "w-fake-3");
    assert_int_equal(tu_int(c, "1.pid"), 201);
    assert_null(tu_at(env, "error.recovery"));
    assert_non_null(strstr(tu_str(env, "error.suggestion"), "--window-id"));
    json_decref(env);
}

static void test_several_instances_are_ambiguous(void **state)
{
    /* Regression (was a bug): with two editor processes, the narrowing steps ran over both
     * processes' windows and picked the focused (or only visible) one, so a command for "the
     * app" went to whichever instance had the focus. */
    fx *f = *state;
    fake_window *w3 = second_editor(f);
    w3->w.is_focused = true;
    f->calc->w.is_focused = false;
    expect_instances(run(f, "snapshot", tu_args("snapshot", "{s:s}", "app", "editor"), 1));
    expect_instances(run(f, "find", tu_args("find", "{s:s, s:s}", "app", "editor", "name",
                                            "OK"), 1));
    expect_instances(run(f, "snapshot", tu_args("snapshot", "{s:s, s:s}", "app", "editor",
                                                "surface", "menu"), 1));
    expect_instances(run(f, "wait", tu_args("wait", "{s:s, s:s, s:i}", "app", "editor",
                                            "text", "OK", "timeout", 5000), 1));
    /* list-surfaces has no --window-id: its way out is a snapshot of one candidate. */
    json_t *listed = run(f, "list-surfaces", tu_args("list-surfaces", "{s:s}", "app", "editor"),
                         1);
    assert_non_null(strstr(tu_str(listed, "error.suggestion"), "snapshot --window-id"));
    expect_instances(listed);
    /* An event wait resolves --app to one process at its start: it refuses too... */
    expect_instances(run(f, "wait", tu_args("wait", "{s:s, s:s, s:i}", "app", "editor",
                                            "event", "window-opened", "timeout", 5000), 1));
    /* ...except app-launched, for which the running instances are only the baseline. */
    json_t *launched = run(f, "wait", tu_args("wait", "{s:s, s:s, s:i}", "app", "editor",
                                              "event", "app-launched", "timeout", 0), 1);
    assert_string_equal(tu_str(launched, "error.code"), "TIMEOUT");
    json_decref(launched);
    assert_int_equal(f->fake->n_read_window, 0);
    /* The candidates' ids are the way out. */
    json_t *env = run(f, "snapshot", tu_args("snapshot", "{s:s, s:s}", "app", "editor",
                                             "window_id", "w-fake-3"), 0);
    assert_string_equal(tu_str(env, "data.window.title"), "Doc 2");
    json_decref(env);
    /* One instance again: its windows are narrowed as before. */
    fake_kill(f->fake, 201);
    env = run(f, "snapshot", tu_args("snapshot", "{s:s}", "app", "editor"), 0);
    assert_string_equal(tu_str(env, "data.window.title"), "Doc");
    json_decref(env);
}

static void test_one_process_registered_twice_is_one_instance(void **state)
{
    fx *f = *state;
    fake_add_app(f->fake, "editor", 200);
    json_t *env = run(f, "snapshot", tu_args("snapshot", "{s:s}", "app", "editor"), 0);
    assert_string_equal(tu_str(env, "data.window.title"), "Doc");
    json_decref(env);
    env = run(f, "list-surfaces", tu_args("list-surfaces", "{s:s}", "app", "editor"), 0);
    assert_int_equal(tu_int(env, "data.pid"), 200);
    json_decref(env);
}

/* ---- what a wait reports ---------------------------------------------------------------- */

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
    fk_rename(fk_find(f->editor->root, "button", "OK"), "Cancel");
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
    fk_rename(fk_find(f->editor->root, "button", "Cancel"), "OK");
    f->editor->complete = false;
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
        T(test_app_narrows_a_window_id),
        T(test_several_instances_are_ambiguous),
        T(test_one_process_registered_twice_is_one_instance),
        T(test_element_of_an_exited_process_ends_at_once),
        T(test_element_that_never_resolves_reports_last_observed),
        T(test_window_wait_counts_and_lists_untitled_windows),
    };
    return cmocka_run_group_tests_name("targets", tests, NULL, NULL);
}
