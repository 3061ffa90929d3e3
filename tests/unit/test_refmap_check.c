/* test_refmap_check.c: a refmap read from disk is untrusted; every malformed field is
 * SNAPSHOT_NOT_FOUND (refmap_invalid), never a weaker check (snapshots-and-refs.md,
 * "What a ref stores"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/refmap_check.h"
#include "fake_adapter.h"
#include "test_util.h"

static json_t *good_map(void)
{
    json_t *m = json_loads(
        "{\"snapshot_id\": \"s1abc\", \"created_at\": 1, \"next_ref\": 3, \"app\": \"form\","
        " \"window\": {\"id\": \"w-fake-1\", \"title\": null}, \"surface\": \"window\","
        " \"source\": {\"pid\": 300, \"process_instance\": \"boot:1\", \"source_app\": \"form\","
        "   \"source_window_id\": \"w-fake-1\", \"source_window_title\": \"Form\","
        "   \"source_window_bounds_hash\": \"ab\", \"source_surface\": \"window\","
        "   \"bounds_space\": \"screen\", \"path_is_absolute\": true},"
        " \"refs\": {"
        "   \"@e1\": {\"role\": \"button\", \"name\": \"Save\", \"unique_at_capture\": true,"
        "     \"bounds\": {\"x\": 1, \"y\": 2.5, \"width\": 3, \"height\": 4},"
        "     \"bounds_hash\": \"cd\", \"states\": [\"enabled\"],"
        "     \"available_actions\": [\"Click\"], \"path\": [0, 1]},"
        "   \"@e2\": {\"role\": \"cell\", \"unique_at_capture\": true, \"drill_target\": true,"
        "     \"root_ref\": \"@e1\", \"path\": [0],"
        "     \"anchor\": {\"role\": \"label\", \"name\": \"A\", \"hops\": 2,"
        "       \"between\": [{\"role\": \"row\"}]}}}}",
        0, NULL);
    assert_non_null(m);
    return m;
}

/* Sets dotted path (objects only) to value (stolen); a NULL value deletes the key. */
static void set_at(json_t *m, const char *path, json_t *value)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", path);
    json_t *o = m;
    char *key = buf, *dot;
    while ((dot = strchr(key, '.'))) {
        *dot = '\0';
        o = json_object_get(o, key);
        assert_non_null(o);
        key = dot + 1;
    }
    if (value)
        json_object_set_new(o, key, value);
    else
        json_object_del(o, key);
}

static void expect_invalid(json_t *m, const char *what)
{
    ad_error err = AD_ERROR_INIT;
    if (ad_refmap_check(m, "s1abc", &err) != -1)
        fail_msg("accepted a refmap with %s", what);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    assert_string_equal(json_string_value(json_object_get(err.details, "kind")),
                        "refmap_invalid");
    assert_non_null(err.suggestion);
    ad_error_clear(&err);
    json_decref(m);
}

static void mutate(const char *path, json_t *value, const char *what)
{
    json_t *m = good_map();
    set_at(m, path, value);
    expect_invalid(m, what);
}

static void test_the_good_map_passes(void **state)
{
    (void)state;
    json_t *m = good_map();
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refmap_check(m, "s1abc", &err), 0);
    assert_null(err.message);
    /* Optional fields may be absent, and the window may be null. */
    set_at(m, "next_ref", NULL);
    set_at(m, "window", json_null());
    set_at(m, "refs.@e1.bounds", NULL);
    assert_int_equal(ad_refmap_check(m, "s1abc", &err), 0);
    json_decref(m);
}

/* Each of these used to switch the process check off: pid <= 0 skipped process_alive and
 * the window's pid comparison, and a cast of 2^63-1 to int did too. */
static void test_every_bad_pid_is_invalid(void **state)
{
    (void)state;
    mutate("source.pid", json_integer(0), "pid 0");
    mutate("source.pid", json_integer(-1), "pid -1");
    mutate("source.pid", json_string("300"), "a string pid");
    mutate("source.pid", json_integer(INT64_MAX), "pid 2^63-1");
    mutate("source.pid", json_integer(4294967296LL + 300), "a pid that wraps to 300 in int");
    mutate("source.pid", json_integer((1 << 22) + 1), "a pid past PID_MAX_LIMIT");
    mutate("source.pid", json_real(300.0), "a real pid");
    mutate("source.pid", json_null(), "a null pid");
    mutate("source.pid", json_true(), "a boolean pid");
    mutate("source.pid", NULL, "no pid");
}

static void test_every_bad_process_instance_is_invalid(void **state)
{
    (void)state;
    char long_text[300];
    memset(long_text, 'a', sizeof(long_text) - 1);
    long_text[sizeof(long_text) - 1] = '\0';
    mutate("source.process_instance", json_null(), "a null instance (skips the check)");
    mutate("source.process_instance", NULL, "no instance");
    mutate("source.process_instance", json_string(""), "an empty instance");
    mutate("source.process_instance", json_integer(1), "a numeric instance");
    mutate("source.process_instance", json_string(long_text), "a 299-byte instance");
    mutate("source.process_instance", json_string("boot\n1"), "a control character");
}

static void test_every_bad_source_is_invalid(void **state)
{
    (void)state;
    mutate("source", json_null(), "a null source");
    mutate("source", json_string("x"), "a string source");
    mutate("source", NULL, "no source");
    mutate("source.source_window_id", NULL, "no window id");
    mutate("source.source_window_id", json_integer(5), "a numeric window id");
    mutate("source.source_window_id", json_string(""), "an empty window id");
    mutate("source.source_app", json_integer(5), "a numeric source_app");
    mutate("source.source_window_title", json_integer(5), "a numeric title");
    mutate("source.path_is_absolute", json_string("yes"), "a string path_is_absolute");
}

static void test_every_bad_top_level_field_is_invalid(void **state)
{
    (void)state;
    mutate("snapshot_id", json_string("s2other"), "another snapshot's id");
    mutate("snapshot_id", NULL, "no snapshot id");
    mutate("next_ref", json_integer(0), "next_ref 0");
    mutate("next_ref", json_string("3"), "a string next_ref");
    mutate("next_ref", json_integer(INT64_MAX), "a huge next_ref");
    mutate("created_at", json_integer(-5), "a negative created_at");
    mutate("app", json_integer(1), "a numeric app");
    mutate("window", json_integer(1), "a numeric window");
    mutate("window.id", json_integer(1), "a numeric window.id");
    mutate("refs", json_array(), "refs as an array");
    mutate("refs", NULL, "no refs");
    mutate("refs.@x1", json_object(), "a key that is not @eN");
    mutate("refs.@e0", json_object(), "ref key @e0");
    mutate("refs.@e12345678901", json_object(), "an 11-digit ref key");
    expect_invalid(json_array(), "an array refmap");
    expect_invalid(json_string("s1abc"), "a string refmap");
}

static void test_every_bad_entry_field_is_invalid(void **state)
{
    (void)state;
    mutate("refs.@e1", json_string("x"), "a string entry");
    mutate("refs.@e1", json_null(), "a null entry");
    mutate("refs.@e1.role", NULL, "no role");
    mutate("refs.@e1.role", json_integer(1), "a numeric role");
    mutate("refs.@e1.role", json_string(""), "an empty role");
    mutate("refs.@e1.name", json_integer(7), "a numeric name");
    mutate("refs.@e1.name", json_null(), "a null name");
    mutate("refs.@e1.description", json_array(), "an array description");
    mutate("refs.@e1.native_id", json_true(), "a boolean native id");
    mutate("refs.@e1.value", json_integer(1), "a numeric value");
    mutate("refs.@e1.unique_at_capture", NULL, "no unique_at_capture");
    mutate("refs.@e1.unique_at_capture", json_string("true"), "a string unique_at_capture");
    mutate("refs.@e1.unique_at_capture", json_integer(1), "a numeric unique_at_capture");
    mutate("refs.@e1.bounds", json_string("1,2,3,4"), "string bounds");
    mutate("refs.@e1.bounds.x", NULL, "bounds without x");
    mutate("refs.@e1.bounds.width", json_string("3"), "a string width");
    mutate("refs.@e1.states", json_string("enabled"), "string states");
    mutate("refs.@e1.states", json_pack("[i]", 1), "numeric states");
    mutate("refs.@e1.available_actions", json_pack("[n]"), "null actions");
    mutate("refs.@e1.bounds_hash", json_integer(1), "a numeric bounds hash");
    mutate("refs.@e1.path", json_pack("[i]", -1), "a negative path index");
    mutate("refs.@e1.path", json_pack("[s]", "0"), "a string path index");
    mutate("refs.@e1.path", json_string("0/1"), "a string path");
    json_t *deep = json_array();
    for (int i = 0; i < 65; i++)
        json_array_append_new(deep, json_integer(0));
    mutate("refs.@e1.path", deep, "a path deeper than 64");
    mutate("refs.@e2.root_ref", json_string("e1"), "a root_ref that is no key");
    mutate("refs.@e2.root_ref", json_integer(1), "a numeric root_ref");
    mutate("refs.@e2.drill_target", json_string("yes"), "a string drill_target");
}

/* A short `between` chain made resolve.c skip the identity checks of the missing hops. */
static void test_every_bad_anchor_is_invalid(void **state)
{
    (void)state;
    mutate("refs.@e2.anchor", json_string("x"), "a string anchor");
    mutate("refs.@e2.anchor.role", NULL, "an anchor without role");
    mutate("refs.@e2.anchor.name", json_integer(1), "a numeric anchor name");
    mutate("refs.@e2.anchor.hops", json_integer(0), "hops 0");
    mutate("refs.@e2.anchor.hops", json_integer(-1), "hops -1");
    mutate("refs.@e2.anchor.hops", json_integer(65), "hops 65");
    mutate("refs.@e2.anchor.hops", json_string("2"), "string hops");
    mutate("refs.@e2.anchor.hops", json_integer(3), "hops longer than between");
    mutate("refs.@e2.anchor.between", json_array(), "a between shorter than hops - 1");
    mutate("refs.@e2.anchor.between", NULL, "no between");
    mutate("refs.@e2.anchor.between", json_pack("[{s:i}]", "role", 1), "a numeric role");
    mutate("refs.@e2.anchor.between", json_pack("[s]", "row"), "a string hop");
}

static void test_the_message_never_echoes_a_malformed_key(void **state)
{
    (void)state;
    json_t *m = good_map();
    set_at(m, "refs.@hunter2", json_object());
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refmap_check(m, "s1abc", &err), -1);
    assert_null(strstr(err.message, "hunter2"));
    ad_error_clear(&err);
    json_decref(m);
}

/* ---- through a real command ------------------------------------------------------------- */

typedef struct {
    tu_home home;
    char *runtime_dir;
    fake_adapter *fake;
    fake_window *mine, *theirs;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_home_begin(&f->home);
    f->runtime_dir = tu_tmpdir();
    setenv("XDG_RUNTIME_DIR", f->runtime_dir, 1); /* a private interaction lease */
    f->fake = fake_new();
    fake_add_app(f->fake, "form", 300);
    fake_add_app(f->fake, "other", 400);
    /* Both windows hold an identical Save button: only the process identity tells them
     * apart. */
    f->mine = fake_add_window(f->fake, "form", "Form",
                              fk("window|n=Form", fk("button|n=Save|a=Click", NULL), NULL));
    f->theirs = fake_add_window(f->fake, "other", "Other",
                                fk("window|n=Form", fk("button|n=Save|a=Click", NULL), NULL));
    f->mine->w.is_focused = true;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    fake_free(f->fake);
    tu_home_end(&f->home);
    tu_rmrf(f->runtime_dir);
    free(f->runtime_dir);
    unsetenv("XDG_RUNTIME_DIR");
    free(f);
    return 0;
}

/* Snapshots "form", points the saved Save ref at the other app's window with the given
 * pid, and clicks it. Returns the click's envelope. */
static json_t *click_redirected(fx *f, json_t *pid)
{
    json_t *env =
        tu_run_exit(fake_base(f->fake), "snapshot", tu_args("snapshot", "{}"), NULL, 0);
    const char *sid = tu_str(env, "data.snapshot_id");
    char *ref = strdup(tu_str(tu_node_named(tu_at(env, "data.tree"), "Save"), "ref_id"));
    char *path = NULL;
    assert_true(asprintf(&path, "%s/snapshots/%s/refmap.json", f->home.state, sid) > 0);
    json_decref(env);
    json_t *map = tu_refmap_load(path);
    assert_non_null(map);
    json_t *source = json_object_get(map, "source");
    json_object_set_new(source, "source_window_id", json_string(f->theirs->w.id));
    if (pid)
        json_object_set_new(source, "pid", pid);
    assert_int_equal(json_dump_file(map, path, 0), 0);
    json_decref(map);
    f->fake->n_read_window = 0;
    env = tu_run_exit(fake_base(f->fake), "click",
                      tu_args("click", "{s:s, s:i}", "ref_id", ref, "timeout_ms", 0), NULL, 1);
    free(ref);
    free(path);
    return env;
}

static void test_a_malformed_pid_never_clicks_another_app(void **state)
{
    fx *f = *state;
    json_t *pids[] = {json_integer(0), json_integer(-1), json_string("300"),
                      json_integer(INT64_MAX)};
    for (size_t i = 0; i < 4; i++) {
        json_t *env = click_redirected(f, pids[i]);
        assert_string_equal(tu_str(env, "error.code"), "SNAPSHOT_NOT_FOUND");
        assert_string_equal(tu_str(env, "error.details.kind"), "refmap_invalid");
        assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
        assert_int_equal(f->fake->n_act, 0);
        assert_int_equal(f->fake->n_read_window, 0); /* the other window was never read */
        json_decref(env);
    }
}

/* With its real pid the redirected ref is refused by the process check, also when the
 * window's own pid cannot be read now (0). */
static void test_a_window_of_another_process_is_refused(void **state)
{
    fx *f = *state;
    json_t *env = click_redirected(f, NULL);
    assert_string_equal(tu_str(env, "error.code"), "STALE_REF");
    assert_int_equal(f->fake->n_act, 0);
    json_decref(env);
    f->theirs->w.pid = 0;
    env = click_redirected(f, NULL);
    assert_string_equal(tu_str(env, "error.code"), "STALE_REF");
    assert_int_equal(f->fake->n_act, 0);
    json_decref(env);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_good_map_passes),
        cmocka_unit_test(test_every_bad_pid_is_invalid),
        cmocka_unit_test(test_every_bad_process_instance_is_invalid),
        cmocka_unit_test(test_every_bad_source_is_invalid),
        cmocka_unit_test(test_every_bad_top_level_field_is_invalid),
        cmocka_unit_test(test_every_bad_entry_field_is_invalid),
        cmocka_unit_test(test_every_bad_anchor_is_invalid),
        cmocka_unit_test(test_the_message_never_echoes_a_malformed_key),
        T(test_a_malformed_pid_never_clicks_another_app),
        T(test_a_window_of_another_process_is_refused),
    };
    return cmocka_run_group_tests_name("refmap_check", tests, NULL, NULL);
}
