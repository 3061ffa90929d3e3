/* test_app_inventory.c: an app that was not read costs only its own entry. Lookups by --app
 * conclude absence only from a complete inventory; list-apps reports the skipped apps;
 * list-windows and list-surfaces never call unread windows an empty list; a drill over a huge
 * refmap keeps its deadline. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_adapter.h"
#include "test_util.h"

typedef tu_bed fx;

/* The bed's app "form" shows its window "Form" with one button. */
static int setup(void **state)
{
    *state = tu_bed_new(fk("window|n=Notes", fk("button|n=Save|a=Click", NULL), NULL));
    return 0;
}

static int teardown(void **state)
{
    tu_bed_free(*state);
    return 0;
}

/* Another app (pid 200, executable "frozen") did not answer. */
static void skip_app(fx *f, const char *reason)
{
    f->fake->skipped[f->fake->n_skipped++] =
        (ad_app_skip){.handle = ":1.9", .pid = 200, .executable = "frozen", .reason = reason};
}

static json_t *run(fx *f, const char *cmd, json_t *args, int want_exit)
{
    return tu_run_exit(fake_base(f->fake), cmd, args, NULL, want_exit);
}

static void expect_error(json_t *env, const char *code, const char *kind)
{
    assert_string_equal(tu_str(env, "error.code"), code);
    if (kind)
        assert_string_equal(tu_str(env, "error.details.kind"), kind);
    json_decref(env);
}

static void test_a_skipped_app_never_blocks_another(void **state)
{
    fx *f = *state;
    skip_app(f, "unresponsive");
    json_t *env = run(f, "snapshot", tu_args("snapshot", "{s:s}", "app", "form"), 0);
    assert_string_equal(tu_str(env, "data.window.title"), "Form");
    json_decref(env);
    env = run(f, "list-windows", tu_args("list-windows", "{s:s}", "app", "form"), 0);
    assert_string_equal(tu_str(env, "data.0.title"), "Form");
    json_decref(env);
    env = run(f, "find", tu_args("find", "{s:s, s:s}", "app", "form", "role", "button"), 0);
    assert_string_equal(tu_str(env, "data.matches.0.name"), "Save");
    json_decref(env);
}

static void test_list_apps_reports_what_it_skipped(void **state)
{
    fx *f = *state;
    skip_app(f, "unresponsive");
    json_t *env = run(f, "list-apps", tu_args("list-apps", "{}"), 0);
    assert_int_equal(json_array_size(tu_at(env, "data.apps")), 1);
    assert_string_equal(tu_str(env, "data.apps.0.name"), "form");
    assert_true(json_is_false(tu_at(env, "data.complete")));
    assert_string_equal(tu_str(env, "data.skipped.0.handle"), ":1.9");
    assert_string_equal(tu_str(env, "data.skipped.0.reason"), "unresponsive");
    assert_string_equal(tu_str(env, "data.skipped.0.executable"), "frozen");
    assert_int_equal(tu_int(env, "data.skipped.0.pid"), 200);
    json_decref(env);
}

static void test_the_skipped_app_itself_is_unresponsive(void **state)
{
    fx *f = *state;
    skip_app(f, "unresponsive");
    expect_error(run(f, "list-windows", tu_args("list-windows", "{s:s}", "app", "frozen"), 1),
                 "APP_UNRESPONSIVE", "app_unresponsive");
    json_t *env = run(f, "snapshot", tu_args("snapshot", "{s:s}", "app", "FROZEN"), 1);
    assert_int_equal(tu_int(env, "error.details.pid"), 200);
    assert_string_equal(tu_str(env, "error.details.skipped.0.handle"), ":1.9");
    expect_error(env, "APP_UNRESPONSIVE", "app_unresponsive");
    expect_error(run(f, "list-surfaces", tu_args("list-surfaces", "{s:s}", "app", "frozen"), 1),
                 "APP_UNRESPONSIVE", "app_unresponsive");
}

static void test_an_incomplete_inventory_is_never_an_absence(void **state)
{
    fx *f = *state;
    skip_app(f, "deadline");
    /* "frozen" is the executable of an app cut by the deadline, "ghost" is nobody's: neither
     * is absent, since the app that was not read may be either. */
    const char *names[] = {"frozen", "ghost"};
    for (size_t i = 0; i < 2; i++) {
        expect_error(run(f, "snapshot", tu_args("snapshot", "{s:s}", "app", names[i]), 1),
                     "TIMEOUT", "inventory_incomplete");
        expect_error(run(f, "find", tu_args("find", "{s:s, s:s}", "app", names[i], "role",
                                            "button"), 1),
                     "TIMEOUT", "locator_incomplete");
        expect_error(run(f, "list-windows", tu_args("list-windows", "{s:s}", "app", names[i]),
                         1), "TIMEOUT", "inventory_incomplete");
    }
    /* A complete inventory: absent. */
    f->fake->n_skipped = 0;
    expect_error(run(f, "find", tu_args("find", "{s:s, s:s}", "app", "ghost", "role", "button"),
                     1), "APP_NOT_FOUND", NULL);
}

static void test_unread_windows_are_not_an_empty_list(void **state)
{
    fx *f = *state;
    fake_add_app(f->fake, "viewer", 301); /* answered the inventory, then its windows did not */
    f->fake->unanswered = 1;
    f->fake->unresponsive = 1;
    expect_error(run(f, "list-windows", tu_args("list-windows", "{s:s}", "app", "viewer"), 1),
                 "APP_UNRESPONSIVE", "app_unresponsive");
    expect_error(run(f, "list-surfaces", tu_args("list-surfaces", "{s:s}", "app", "viewer"), 1),
                 "APP_UNRESPONSIVE", "app_unresponsive");
    f->fake->unresponsive = 0; /* cut by the deadline instead */
    expect_error(run(f, "list-windows", tu_args("list-windows", "{s:s}", "app", "viewer"), 1),
                 "TIMEOUT", "deadline");
    expect_error(run(f, "list-surfaces", tu_args("list-surfaces", "{s:s}", "app", "viewer"), 1),
                 "TIMEOUT", "deadline");
    /* The other apps' windows are still listed. */
    json_t *env = run(f, "list-windows", tu_args("list-windows", "{}"), 0);
    assert_int_equal(json_array_size(tu_at(env, "data")), 1);
    assert_string_equal(tu_str(env, "data.0.title"), "Form");
    json_decref(env);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Adds n refs to the saved refmap of sid, each one inside a drill of the one after it (a
 * root_ref chain hanging from `under`, listed deepest first), at paths outside the region of
 * `under`: a re-drill of `under` replaces them all, whatever order the refmap lists them in. */
static void inflate_refmap(fx *f, const char *sid, const char *under, size_t n)
{
    char *path = NULL;
    if (asprintf(&path, "%s/snapshots/%s/refmap.json", f->home.state, sid) < 0)
        abort();
    json_t *map = tu_refmap_load(path);
    assert_non_null(map);
    json_t *refs = json_object_get(map, "refs");
    json_t *root = json_object_get(refs, under);
    assert_non_null(root);
    json_int_t next = json_integer_value(json_object_get(map, "next_ref"));
    for (size_t i = 0; i < n; i++, next++) {
        json_t *e = json_deep_copy(root);
        char key[32], parent[32];
        snprintf(key, sizeof(key), "@e%lld", (long long)next);
        snprintf(parent, sizeof(parent), "@e%lld", (long long)next + 1);
        json_object_set_new(e, "path", json_pack("[i, I]", 99, (json_int_t)i));
        json_object_set_new(e, "root_ref", json_string(i == n - 1 ? under : parent));
        json_object_set_new(refs, key, e);
    }
    json_object_set_new(map, "next_ref", json_integer(next));
    assert_int_equal(json_dump_file(map, path, JSON_COMPACT), 0);
    json_decref(map);
    free(path);
}

/* A drill of Save after n refs were added inside earlier drills of it: the envelope, and how
 * long it took in *took_ms. */
static json_t *drill_after_chain(fx *f, size_t n, int64_t *took_ms)
{
    json_t *snap = run(f, "snapshot", tu_args("snapshot", "{s:s}", "app", "form"), 0);
    const char *ref = tu_str(tu_node_named(tu_at(snap, "data.tree"), "Save"), "ref_id");
    char key[32];
    snprintf(key, sizeof(key), "@%s", strrchr(ref, ':') + 1);
    inflate_refmap(f, tu_str(snap, "data.snapshot_id"), key, n);
    int64_t t0 = now_ms();
    int code;
    json_t *env = tu_run(fake_base(f->fake), "snapshot",
                         tu_args("snapshot", "{s:s, s:s}", "root", ref, "app", "form"), NULL,
                         &code);
    *took_ms = now_ms() - t0;
    json_decref(snap);
    return env;
}

static void test_a_redrill_replaces_a_long_chain_of_drills_in_one_pass(void **state)
{
    fx *f = *state;
    int64_t took;
    /* 4000 refs keep the refmap under its 1 MiB limit; replacing them pass after pass took
     * seconds (one pass per link when the refmap lists the chain in the wrong order). */
    json_t *env = drill_after_chain(f, 4000, &took);
    assert_true(json_is_true(tu_at(env, "ok")));
    assert_int_equal(tu_int(env, "data.ref_count"), 1); /* the whole chain replaced */
    assert_true(took < 3000); /* the drill's default deadline */
    json_decref(env);
}

static void test_a_refmap_over_its_limit_is_refused_before_it_is_read(void **state)
{
    fx *f = *state;
    int64_t took;
    /* 60,000 refs are far over the 1 MiB save never exceeds: the refmap is refused unread
     * (replacing them pass after pass never finished within 10 minutes). */
    json_t *env = drill_after_chain(f, 60000, &took);
    assert_string_equal(tu_str(env, "error.code"), "SNAPSHOT_NOT_FOUND");
    assert_true(took < 3000);
    json_decref(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_skipped_app_never_blocks_another, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_list_apps_reports_what_it_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_skipped_app_itself_is_unresponsive, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_an_incomplete_inventory_is_never_an_absence, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unread_windows_are_not_an_empty_list, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_a_redrill_replaces_a_long_chain_of_drills_in_one_pass, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_a_refmap_over_its_limit_is_refused_before_it_is_read, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
