/* test_window_op.c: focus-window, move-window, resize-window, minimize, maximize and restore
 * through dispatch over the fake adapter (app-window.md: targets, OperationReport shapes,
 * tolerance, ACTION_FAILED on a clamped request, STALE_REF, restore unverified). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/window_op.h"
#include "fake_adapter.h"
#include "test_util.h"

/* The state is the test bed (test_util.h): app "form" (pid 300) and its focused window
 * "Form" (w-fake-1), here at 10,20 400x300. */
static int setup(void **state)
{
    tu_bed *b = tu_bed_new(fk("window|n=Form", NULL));
    fake_window *w = fake_window_get(b->fake, "w-fake-1");
    w->w.bounds_known = true;
    w->w.bounds = (ad_rect){10, 20, 400, 300};
    *state = b;
    return 0;
}

static fake_window *form(tu_bed *b)
{
    return fake_window_get(b->fake, "w-fake-1");
}

static json_t *run(tu_bed *f, const char *cmd, json_t *args, int want_exit)
{
    json_t *env = tu_run_exit(fake_base(f->fake), cmd, args, NULL, want_exit);
    assert_int_equal(json_is_true(tu_at(env, "ok")), want_exit == 0);
    return env;
}

/* Runs a command that must fail with `code` (and details.kind `kind`, NULL: any) carrying
 * `delivery`; returns the envelope. */
static json_t *run_error(tu_bed *f, const char *cmd, json_t *args, const char *code,
                         const char *kind, const char *delivery)
{
    json_t *env = run(f, cmd, args, 1);
    assert_string_equal(tu_str(env, "error.code"), code);
    if (kind)
        assert_string_equal(tu_str(env, "error.details.kind"), kind);
    assert_string_equal(tu_str(env, "error.disposition.delivery"), delivery);
    return env;
}

static void assert_target(const json_t *env)
{
    assert_string_equal(tu_str(env, "data.target.kind"), "window");
    assert_string_equal(tu_str(env, "data.target.id"), "w-fake-1");
    assert_string_equal(tu_str(env, "data.target.title"), "Form");
    assert_int_equal(tu_int(env, "data.target.process.pid"), 300);
    assert_string_equal(tu_str(env, "data.target.process.instance"), "boot:1");
}

static void test_move_report(void **state)
{
    tu_bed *f = *state;
    json_t *env = run(f, "move-window", tu_args("move-window", "{s:i, s:i, s:s}", "x", -100,
                                                "y", 40, "app", "form"), 0);
    assert_int_equal(f->fake->last_win_req.op, AD_WIN_MOVE);
    assert_int_equal(f->fake->last_win_req.x, -100);
    assert_string_equal(tu_str(env, "data.action"), "move-window");
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_verified");
    assert_string_equal(tu_str(env, "data.disposition.retry"), "unsafe");
    assert_string_equal(tu_str(env, "data.steps.0.label"), "window_move");
    assert_string_equal(tu_str(env, "data.steps.0.mechanism"), "semantic_api");
    assert_true(json_is_true(tu_at(env, "data.steps.0.verified")));
    assert_string_equal(tu_str(env, "data.details.verification_scope"), "window_position");
    assert_string_equal(tu_str(env, "data.details.units"), "pixels");
    assert_true(json_real_value(tu_at(env, "data.details.tolerance")) == AD_WIN_TOLERANCE_PX);
    assert_int_equal(tu_int(env, "data.details.observed.x"), -100);
    assert_int_equal(tu_int(env, "data.details.observed.y"), 40);
    assert_int_equal(tu_int(env, "data.details.observed.width"), 400);
    assert_false(json_is_true(tu_at(env, "data.details.observed.hidden")));
    assert_true(json_real_value(tu_at(env, "data.x")) == -100.0);
    assert_true(json_real_value(tu_at(env, "data.y")) == 40.0);
    assert_target(env);
    json_decref(env);
}

static void test_resize_report_by_window_id(void **state)
{
    tu_bed *f = *state;
    form(f)->w.is_focused = false; /* --window-id needs no focus */
    json_t *env = run(f, "resize-window", tu_args("resize-window", "{s:i, s:i, s:s}", "width",
                                                  800, "height", 600, "window_id", "w-fake-1"),
                      0);
    assert_string_equal(tu_str(env, "data.steps.0.label"), "window_resize");
    assert_string_equal(tu_str(env, "data.details.verification_scope"), "window_size");
    assert_int_equal(tu_int(env, "data.details.observed.width"), 800);
    assert_int_equal(tu_int(env, "data.details.observed.height"), 600);
    assert_true(json_real_value(tu_at(env, "data.width")) == 800.0);
    assert_true(json_real_value(tu_at(env, "data.height")) == 600.0);
    assert_null(tu_at(env, "data.x"));
    json_decref(env);
}

/* Within AD_WIN_TOLERANCE_PX is verified; one pixel more is the window manager's clamp. */
static void test_tolerance(void **state)
{
    (void)state;
    ad_win_req r = {.op = AD_WIN_RESIZE, .width = 800, .height = 600};
    ad_win_state s = {.known = true, .bounds = {0, 0, 802, 598}};
    assert_true(ad_win_state_reached(&r, &s));
    s.bounds.width = 803;
    assert_false(ad_win_state_reached(&r, &s));
    s = (ad_win_state){.bounds = {0, 0, 800, 600}}; /* not read: never verified */
    assert_false(ad_win_state_reached(&r, &s));
    ad_win_req m = {.op = AD_WIN_MOVE, .x = -100, .y = 0};
    s = (ad_win_state){.known = true, .bounds = {-98, 2, 10, 10}};
    assert_true(ad_win_state_reached(&m, &s));
    s.hidden = true; /* a minimized window has not moved where anyone sees it */
    assert_false(ad_win_state_reached(&m, &s));
    ad_win_req x = {.op = AD_WIN_MAXIMIZE};
    s = (ad_win_state){.known = true, .maximized_vertical = true};
    assert_false(ad_win_state_reached(&x, &s));
    s.maximized_horizontal = true;
    assert_true(ad_win_state_reached(&x, &s));
}

static void test_clamped_resize_is_action_failed(void **state)
{
    tu_bed *f = *state;
    f->fake->win_clamp = true;
    f->fake->win_observed = (ad_win_state){.known = true, .bounds = {10, 20, 362, 300}};
    /* The request went out: delivered_unverified, not safe to retry blindly. */
    json_t *env = run_error(f, "resize-window", tu_args("resize-window", "{s:i, s:i}", "width",
                                                        5, "height", 300),
                            "ACTION_FAILED", "window_manager_refused", "delivered_unverified");
    assert_int_equal(tu_int(env, "error.details.observed.width"), 362);
    assert_string_equal(tu_str(env, "error.details.verification_scope"), "window_size");
    assert_string_equal(tu_str(env, "error.disposition.retry"), "unsafe");
    assert_int_equal(f->fake->n_window_op, 1);
    json_decref(env);
}

static void test_minimize_maximize_shapes(void **state)
{
    tu_bed *f = *state;
    json_t *env = run(f, "maximize", tu_args("maximize", "{s:s}", "app", "form"), 0);
    assert_string_equal(tu_str(env, "data.steps.0.label"), "window_maximize");
    assert_string_equal(tu_str(env, "data.details.verification_scope"),
                        "window_maximized_state");
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_verified");
    assert_target(env);
    json_decref(env);
    env = run(f, "minimize", tu_args("minimize", "{s:s}", "app", "form"), 0);
    assert_string_equal(tu_str(env, "data.action"), "minimize");
    assert_string_equal(tu_str(env, "data.steps.0.label"), "window_minimize");
    assert_string_equal(tu_str(env, "data.details.verification_scope"),
                        "window_minimized_state");
    assert_null(tu_at(env, "data.details.observed")); /* app-window.md shows the scope only */
    json_decref(env);
    /* A minimize the window manager ignored is not a success. */
    f->fake->win_clamp = true;
    f->fake->win_observed = (ad_win_state){.known = true, .bounds = {10, 20, 400, 300}};
    env = run_error(f, "minimize", tu_args("minimize", "{s:s}", "window_id", "w-fake-1"),
                    "ACTION_FAILED", "window_manager_refused", "delivered_unverified");
    assert_string_equal(tu_str(env, "error.details.verification_scope"),
                        "window_minimized_state");
    json_decref(env);
}

static void test_restore_is_unverified(void **state)
{
    tu_bed *f = *state;
    f->fake->win_clamp = true; /* even a read that does not settle: restore is not judged */
    json_t *env = run(f, "restore", tu_args("restore", "{s:s}", "app", "form"), 0);
    assert_string_equal(tu_str(env, "data.action"), "restore");
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_unverified");
    assert_string_equal(tu_str(env, "data.steps.0.label"), "window_restore");
    assert_null(tu_at(env, "data.steps.0.verified"));
    assert_null(tu_at(env, "data.details"));
    assert_target(env);
    json_decref(env);
}

/* The window's process is gone (its pid now another process): nothing is sent. */
static void test_stale_window_is_stale_ref(void **state)
{
    tu_bed *f = *state;
    fake_kill(f->fake, 300);
    json_decref(run_error(f, "move-window", tu_args("move-window", "{s:i, s:i, s:s}", "x", 1,
                                                    "y", 2, "window_id", "w-fake-1"),
                          "STALE_REF", "window_identity_changed", "not_delivered"));
    assert_int_equal(f->fake->n_window_op, 0);
}

static void test_lookup_failures_not_delivered(void **state)
{
    tu_bed *f = *state;
    json_decref(run_error(f, "maximize", tu_args("maximize", "{s:s}", "window_id", "w-fake-9"),
                          "WINDOW_NOT_FOUND", NULL, "not_delivered"));
    json_decref(run_error(f, "minimize", tu_args("minimize", "{s:s}", "app", "nope"),
                          "APP_NOT_FOUND", NULL, "not_delivered"));
    json_t *env;
    /* Two windows, neither focused nor otherwise singled out: AMBIGUOUS_TARGET. */
    fake_add_window(f->fake, "form", "Second", fk("window|n=Second", NULL));
    form(f)->w.is_focused = false;
    env = run_error(f, "maximize", tu_args("maximize", "{s:s}", "app", "form"),
                    "AMBIGUOUS_TARGET", NULL, "not_delivered");
    json_decref(env);
    assert_int_equal(f->fake->n_window_op, 0);
}

/* An impossible size never reaches the window manager. */
static void test_size_out_of_range(void **state)
{
    tu_bed *f = *state;
    int bad[][2] = {{0, 300}, {400, -1}, {40000, 300}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        json_t *env = run(f, "resize-window", tu_args("resize-window", "{s:i, s:i}", "width",
                                                      bad[i][0], "height", bad[i][1]), 2);
        assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
        json_decref(env);
    }
    assert_int_equal(f->fake->n_window_op, 0);
}

static void test_adapter_without_window_ops(void **state)
{
    tu_bed *f = *state;
    ad_adapter_ops ops = *f->fake->base.ops;
    const ad_adapter_ops *saved = f->fake->base.ops;
    ops.window_op = NULL;
    f->fake->base.ops = &ops;
    json_decref(run_error(f, "restore", tu_args("restore", "{s:s}", "app", "form"),
                          "PLATFORM_NOT_SUPPORTED", "not_in_this_build", "not_delivered"));
    f->fake->base.ops = saved;
}

static void test_focus_names_the_focused_window(void **state)
{
    tu_bed *f = *state;
    form(f)->w.is_focused = false;
    json_t *env = run(f, "focus-window", tu_args("focus-window", "{s:s}", "title", "for"), 0);
    assert_int_equal(f->fake->last_win_req.op, AD_WIN_FOCUS);
    assert_string_equal(tu_str(env, "data.focused.id"), "w-fake-1");
    assert_string_equal(tu_str(env, "data.focused.title"), "Form");
    assert_true(json_is_true(tu_at(env, "data.focused.is_focused")));
    json_decref(env);
    /* A modal dialog took the focus: `focused` is the dialog. */
    fake_window *dlg = fake_add_window(f->fake, "form", "Confirm", fk("dialog|n=Confirm", NULL));
    dlg->w.kind = "dialog";
    dlg->w.modal = true;
    f->fake->win_focused_id = dlg->w.id;
    env = run(f, "focus-window", tu_args("focus-window", "{s:s}", "window_id", "w-fake-1"), 0);
    assert_string_equal(tu_str(env, "data.focused.id"), dlg->w.id);
    assert_string_equal(tu_str(env, "data.focused.title"), "Confirm");
    json_decref(env);
}

static void test_focus_failures(void **state)
{
    tu_bed *f = *state;
    json_decref(run_error(f, "focus-window", tu_args("focus-window", "{}"), "INVALID_ARGS",
                          NULL, "not_delivered"));
    json_decref(run_error(f, "focus-window", tu_args("focus-window", "{s:s}", "title",
                                                     "Nothing"),
                          "WINDOW_NOT_FOUND", NULL, "not_delivered"));
    json_decref(run_error(f, "focus-window", tu_args("focus-window", "{s:s, s:s}", "window_id",
                                                     "w-fake-1", "title", "Other"),
                          "WINDOW_NOT_FOUND", "title_mismatch", "not_delivered"));
    fake_add_window(f->fake, "form", "Form 2", fk("window|n=Form 2", NULL));
    form(f)->w.is_focused = false;
    json_decref(run_error(f, "focus-window", tu_args("focus-window", "{s:s}", "title",
                                                     "form"),
                          "AMBIGUOUS_TARGET", NULL, "not_delivered"));
    assert_int_equal(f->fake->n_window_op, 0);
    /* The window manager never reports it focused. */
    f->fake->win_focus_lost = true;
    json_decref(run_error(f, "focus-window", tu_args("focus-window", "{s:s}", "window_id",
                                                     "w-fake-1"),
                          "ACTION_FAILED", "focus_not_verified", "delivered_unverified"));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, tu_bed_teardown)
    const struct CMUnitTest tests[] = {
        T(test_move_report),
        T(test_resize_report_by_window_id),
        T(test_tolerance),
        T(test_clamped_resize_is_action_failed),
        T(test_minimize_maximize_shapes),
        T(test_restore_is_unverified),
        T(test_stale_window_is_stale_ref),
        T(test_lookup_failures_not_delivered),
        T(test_size_out_of_range),
        T(test_adapter_without_window_ops),
        T(test_focus_names_the_focused_window),
        T(test_focus_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
