/* test_commands_find.c: find, get and is through ad_dispatch and the fake adapter
 * (commands/observation.md, json-output.md "Find results"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_adapter.h"
#include "test_util.h"

static ad_node *calc_tree(void)
{
    return fk("window|n=Calculator",
              fk("toolbar|id=headerbar", fk("button|n=Menu|a=Click|b=1,2,3,4", NULL),
                 fk("button|n=Undo|a=Click|s=disabled|b?", NULL), NULL),
              fk("group|n=Modes|b=0,100,300,90", fk("checkbox|n=Scientific|a=Toggle|s=checked", NULL),
                 fk("checkbox|n=Programming|a=Toggle", NULL),
                 fk("radiobutton|n=Basic|a=Click", NULL), NULL),
              fk("textfield|n=Display|v=42|b=10,10,200,30", NULL),
              fk("textfield|n=Password|v=hunter2|secure", NULL),
              fk("textfield|n=Notes", NULL),
              fk("button|n=Clear All|d=Clear Display|a=Click", NULL),
              fk("statictext|n=Status line|b=5,500,100,20", NULL), NULL);
}

typedef struct {
    tu_home home;
    fake_adapter *fake;
    fake_window *win;
    json_t *snap; /* a full snapshot taken in setup, for refs */
} fx;

static json_t *run(fx *f, const char *cmd, json_t *args, int want_exit)
{
    json_t *env = tu_run_exit(fake_base(f->fake), cmd, args, NULL, want_exit);
    assert_int_equal(json_is_true(tu_at(env, "ok")), want_exit == 0);
    return env;
}

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_home_begin(&f->home);
    f->fake = fake_new();
    fake_add_app(f->fake, "calc", 100);
    f->win = fake_add_window(f->fake, "calc", "Calculator", calc_tree());
    f->win->w.is_focused = true;
    f->snap = run(f, "snapshot", tu_args("snapshot", "{}"), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    json_decref(f->snap);
    fake_free(f->fake);
    tu_home_end(&f->home);
    free(f);
    return 0;
}

static const char *ref(fx *f, const char *name)
{
    json_t *n = tu_node_named(tu_at(f->snap, "data.tree"), name);
    assert_non_null(n);
    return tu_str(n, "ref_id");
}

static ad_node *live(fx *f, const char *role, const char *name)
{
    ad_node *n = fk_find(f->win->root, role, name);
    assert_non_null(n);
    return n;
}

/* find with a json_pack spec of extra args; returns data (the envelope stays in *env). */
#define FIND(f, env, ...) ((env) = run((f), "find", tu_args("find", __VA_ARGS__), 0), \
                           tu_at((env), "data"))

static void expect_code(json_t *env, const char *code)
{
    assert_string_equal(tu_str(env, "error.code"), code);
    json_decref(env);
}

static void test_find_matches_shape(void **state)
{
    fx *f = *state;
    json_t *env, *d = FIND(f, env, "{s:s}", "role", "button");
    assert_int_equal(json_array_size(tu_at(d, "matches")), 3);
    assert_int_equal(tu_int(d, "total_matches"), 3);
    assert_true(json_is_false(tu_at(d, "truncated")));
    const char *sid = tu_str(d, "snapshot_id");
    assert_non_null(sid);
    assert_string_not_equal(sid, tu_str(f->snap, "data.snapshot_id"));
    json_t *m = tu_at(d, "matches.0");
    char want[64];
    snprintf(want, sizeof(want), "@%s:e1", sid);
    assert_string_equal(tu_str(m, "ref_id"), want);
    assert_string_equal(tu_str(m, "name"), "Menu");
    assert_string_equal(tu_str(m, "role"), "button");
    assert_true(json_is_true(tu_at(m, "interactive")));
    assert_true(json_is_null(tu_at(m, "value")));
    assert_int_equal(json_array_size(tu_at(m, "states")), 0);
    assert_string_equal(tu_str(m, "path.0"), "window:Calculator");
    assert_string_equal(tu_str(m, "path.1"), "toolbar");
    assert_null(tu_at(m, "bounds")); /* only context matches carry bounds */
    assert_string_equal(tu_str(d, "matches.1.states.0"), "disabled");
    assert_string_equal(tu_str(d, "matches.2.name"), "Clear All");
    assert_null(tu_at(d, "roles_present")); /* only when nothing matched */
    /* The refs are usable straight away. */
    json_t *g = run(f, "get", tu_args("get", "{s:s}", "ref_id", tu_str(d, "matches.2.ref_id")), 0);
    assert_string_equal(tu_str(g, "data.value"), "Clear All");
    json_decref(g);
    json_decref(env);

    d = FIND(f, env, "{s:s, s:i}", "role", "button", "limit", 2);
    assert_int_equal(json_array_size(tu_at(d, "matches")), 2);
    assert_int_equal(tu_int(d, "total_matches"), 3);
    assert_true(json_is_true(tu_at(d, "truncated")));
    json_decref(env);
    d = FIND(f, env, "{s:s, s:i}", "role", "button", "limit", 0);
    assert_int_equal(json_array_size(tu_at(d, "matches")), 3);
    json_decref(env);
}

static void test_find_single_match_shapes(void **state)
{
    fx *f = *state;
    json_t *env, *d = FIND(f, env, "{s:s, s:b}", "role", "button", "first", 1);
    assert_string_equal(tu_str(d, "match.name"), "Menu");
    assert_null(tu_at(d, "matches"));
    assert_null(tu_at(d, "total_matches"));
    json_decref(env);
    d = FIND(f, env, "{s:s, s:b}", "role", "button", "last", 1);
    assert_string_equal(tu_str(d, "match.name"), "Clear All");
    json_decref(env);
    d = FIND(f, env, "{s:s, s:i}", "role", "button", "nth", 1);
    assert_string_equal(tu_str(d, "match.name"), "Undo");
    json_decref(env);
    d = FIND(f, env, "{s:s, s:i}", "role", "button", "nth", 9);
    assert_true(json_is_null(tu_at(d, "match")));
    assert_null(tu_at(d, "snapshot_id")); /* nothing to save */
    json_decref(env);
    d = FIND(f, env, "{s:s, s:b}", "name", "no such thing", "first", 1);
    assert_true(json_is_null(tu_at(d, "match")));
    json_decref(env);
}

static void test_find_count_saves_nothing(void **state)
{
    fx *f = *state;
    char *latest = NULL;
    if (asprintf(&latest, "%s/latest_snapshot_id", f->home.state) < 0)
        abort();
    char *before = tu_read_file(latest, NULL);
    json_t *env, *d = FIND(f, env, "{s:s, s:b}", "role", "checkbox", "count", 1);
    assert_int_equal(tu_int(d, "count"), 2);
    assert_int_equal(json_object_size(d), 1);
    char *after = tu_read_file(latest, NULL);
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(latest);
    json_decref(env);
}

static void test_find_roles_present_when_a_role_matches_nothing(void **state)
{
    fx *f = *state;
    json_t *env, *d = FIND(f, env, "{s:s}", "role", "slider");
    assert_int_equal(tu_int(d, "total_matches"), 0);
    json_t *roles = tu_at(d, "roles_present");
    assert_int_equal(json_array_size(roles), 8);
    bool button = false, textfield = false;
    size_t i;
    json_t *r;
    json_array_foreach(roles, i, r) {
        button |= strcmp(json_string_value(r), "button") == 0;
        textfield |= strcmp(json_string_value(r), "textfield") == 0;
    }
    assert_true(button && textfield);
    json_decref(env);
    /* Only a --role query reports it. */
    d = FIND(f, env, "{s:s}", "name", "nothing here");
    assert_null(tu_at(d, "roles_present"));
    json_decref(env);
}

static void test_find_context_match(void **state)
{
    fx *f = *state;
    json_t *env, *d = FIND(f, env, "{s:s}", "name", "Status line");
    json_t *m = tu_at(d, "matches.0");
    assert_true(json_is_null(tu_at(m, "ref_id")));
    assert_false(json_is_true(tu_at(m, "interactive")));
    assert_int_equal((long long)json_real_value(tu_at(m, "bounds.y")), 500);
    assert_null(tu_at(d, "snapshot_id"));
    json_decref(env);
}

static void test_find_fuzzy_and_exact(void **state)
{
    fx *f = *state;
    json_t *env, *d = FIND(f, env, "{s:s}", "name", "clear");
    assert_int_equal(tu_int(d, "total_matches"), 1);
    json_decref(env);
    d = FIND(f, env, "{s:s, s:b}", "name", "clear", "exact", 1);
    assert_int_equal(tu_int(d, "total_matches"), 0);
    json_decref(env);
    d = FIND(f, env, "{s:s, s:b}", "name", "CLEAR ALL", "exact", 1);
    assert_int_equal(tu_int(d, "total_matches"), 1);
    json_decref(env);
    d = FIND(f, env, "{s:s}", "description", "display");
    assert_string_equal(tu_str(d, "matches.0.name"), "Clear All");
    json_decref(env);
    /* --text also matches ancestors whose subtree holds the text. */
    d = FIND(f, env, "{s:s}", "text", "42");
    assert_int_equal(tu_int(d, "total_matches"), 2);
    assert_string_equal(tu_str(d, "matches.0.role"), "window");
    assert_string_equal(tu_str(d, "matches.1.name"), "Display");
    json_decref(env);
    /* A secure field's value is never searched or shown. */
    d = FIND(f, env, "{s:s}", "value", "hunter2");
    assert_int_equal(tu_int(d, "total_matches"), 0);
    json_decref(env);
    d = FIND(f, env, "{s:s}", "name", "Password");
    assert_true(json_is_null(tu_at(d, "matches.0.value")));
    json_decref(env);
}

static void test_find_states(void **state)
{
    fx *f = *state;
    json_t *env, *d = FIND(f, env, "{s:[s]}", "state", "checked");
    assert_int_equal(tu_int(d, "total_matches"), 1);
    assert_string_equal(tu_str(d, "matches.0.name"), "Scientific");
    json_decref(env);
    d = FIND(f, env, "{s:s, s:[s]}", "role", "checkbox", "state", "CHECKED=false");
    assert_int_equal(tu_int(d, "total_matches"), 1);
    assert_string_equal(tu_str(d, "matches.0.name"), "Programming");
    json_decref(env);
    d = FIND(f, env, "{s:s, s:[s]}", "role", "button", "state", "disabled=false");
    assert_int_equal(tu_int(d, "total_matches"), 2);
    json_decref(env);
    d = FIND(f, env, "{s:[s, s]}", "state", "disabled", "checked");
    assert_int_equal(tu_int(d, "total_matches"), 0);
    json_decref(env);
}

static void test_find_argument_errors(void **state)
{
    fx *f = *state;
    int reads = f->fake->n_read_window;
    json_t *env = run(f, "find", tu_args("find", "{s:[s]}", "state", "sparkly"), 1);
    assert_non_null(strstr(tu_str(env, "error.message"), "sparkly"));
    expect_code(env, "INVALID_ARGS");
    expect_code(run(f, "find", tu_args("find", "{s:[s]}", "state", "checked=maybe"), 1),
                "INVALID_ARGS");
    expect_code(run(f, "find", tu_args("find", "{s:b, s:b}", "first", 1, "last", 1), 1),
                "INVALID_ARGS");
    expect_code(run(f, "find", tu_args("find", "{s:b, s:i}", "count", 1, "nth", 0), 1),
                "INVALID_ARGS");
    expect_code(run(f, "find", tu_args("find", "{s:s}", "role", "unknown"), 1), "INVALID_ARGS");
    expect_code(run(f, "find", tu_args("find", "{s:s, s:s}", "root", ref(f, "Menu"), "surface",
                                       "menu"), 1), "INVALID_ARGS");
    assert_int_equal(f->fake->n_read_window, reads); /* refused before reading anything */
}

static void test_find_limit_conflicts_with_single_match_shapes(void **state)
{
    /* Regression (was a bug): commands/observation.md: "--count, --first, --last, --nth, and --limit are mutually
     * exclusive", and find fails with INVALID_ARGS for conflicting shaping flags. The table
     * gives --limit a default of 50, so shaping_check() cannot see an explicit --limit and
     * `find --first --limit 5` succeeds (the limit is silently ignored). */
    fx *f = *state;
    expect_code(run(f, "find", tu_args("find", "{s:b, s:i}", "first", 1, "limit", 5), 1),
                "INVALID_ARGS");
}

static void test_find_role_folding(void **state)
{
    fx *f = *state;
    json_t *env, *d = FIND(f, env, "{s:s}", "role", "textbox");
    assert_int_equal(tu_int(d, "total_matches"), 3);
    json_decref(env);
    d = FIND(f, env, "{s:s}", "role", "  Button ");
    assert_int_equal(tu_int(d, "total_matches"), 3);
    json_decref(env);
}

static void test_find_incomplete_read_times_out(void **state)
{
    fx *f = *state;
    f->win->complete = false;
    json_t *env = run(f, "find", tu_args("find", "{s:s}", "role", "button"), 1);
    assert_string_equal(tu_str(env, "error.details.kind"), "locator_incomplete");
    assert_int_equal(tu_int(env, "error.details.nodes_observed"), 13);
    expect_code(env, "TIMEOUT");
}

static void test_find_under_a_root(void **state)
{
    fx *f = *state;
    json_t *skel = run(f, "snapshot", tu_args("snapshot", "{s:i}", "max_depth", 1), 0);
    json_t *modes = tu_node_named(tu_at(skel, "data.tree"), "Modes");
    json_t *env, *d = FIND(f, env, "{s:s, s:s}", "root", tu_str(modes, "ref_id"), "name", "i");
    /* Scientific, Programming and Basic; Menu, Undo and Display are outside. */
    assert_int_equal(tu_int(d, "total_matches"), 3);
    json_decref(env);
    json_decref(skel);
}

static json_t *get(fx *f, const char *name, const char *prop)
{
    json_t *env = run(f, "get", tu_args("get", "{s:s, s:s}", "ref_id", ref(f, name), "property",
                                        prop), 0);
    assert_string_equal(tu_str(env, "data.property"), prop);
    assert_string_equal(tu_str(env, "data.ref"), ref(f, name));
    return env;
}

static void expect_get(fx *f, const char *name, const char *prop, const char *want)
{
    json_t *env = get(f, name, prop);
    const char *have = tu_str(env, "data.value");
    if (want && !have)
        fail_msg("get --property %s of %s: value is not a string", prop, name);
    if (want)
        assert_string_equal(have, want);
    else
        assert_true(json_is_null(tu_at(env, "data.value")));
    json_decref(env);
}

static void test_get_text_value_title_role(void **state)
{
    fx *f = *state;
    expect_get(f, "Display", "text", "42");    /* text roles: the value first */
    expect_get(f, "Menu", "text", "Menu");     /* other roles: the name */
    expect_get(f, "Notes", "text", "Notes");   /* no value: falls back to the name */
    expect_get(f, "Password", "text", "Password");
    expect_get(f, "Display", "value", "42");
    expect_get(f, "Menu", "value", NULL);
    expect_get(f, "Password", "value", NULL);
    expect_get(f, "Display", "title", "Display");
    expect_get(f, "Display", "role", "textfield");
    json_t *env = get(f, "Undo", "states");
    assert_string_equal(tu_str(env, "data.value.0"), "disabled");
    json_decref(env);
    /* Live, not saved: a changed value is read again. */
    ad_text_set(&live(f, "textfield", "Display")->value, "7");
    expect_get(f, "Display", "text", "7");
}

static void test_get_bounds_live_or_saved(void **state)
{
    fx *f = *state;
    json_t *env = get(f, "Display", "bounds");
    assert_true(json_is_true(tu_at(env, "data.live")));
    assert_int_equal((long long)json_real_value(tu_at(env, "data.value.width")), 200);
    json_decref(env);
    ad_node *display = live(f, "textfield", "Display");
    display->bounds_state = AD_FIELD_UNKNOWN;
    env = get(f, "Display", "bounds");
    assert_true(json_is_false(tu_at(env, "data.live")));
    assert_int_equal((long long)json_real_value(tu_at(env, "data.value.x")), 10);
    json_decref(env);
    env = get(f, "Undo", "bounds"); /* never readable (b?) */
    assert_true(json_is_false(tu_at(env, "data.live")));
    assert_true(json_is_null(tu_at(env, "data.value")));
    json_decref(env);
    /* A drill target earns no ordinary ref, so get must ask the adapter for its bounds. */
    json_t *skel = run(f, "snapshot", tu_args("snapshot", "{s:i}", "max_depth", 1), 0);
    const char *modes = tu_str(tu_node_named(tu_at(skel, "data.tree"), "Modes"), "ref_id");
    env = run(f, "get", tu_args("get", "{s:s, s:s}", "ref_id", modes, "property", "bounds"), 0);
    assert_true(json_is_true(tu_at(env, "data.live")));
    assert_int_equal((long long)json_real_value(tu_at(env, "data.value.height")), 90);
    json_decref(env);
    json_decref(skel);
    env = get(f, "Display", "title"); /* only bounds says where it came from */
    assert_null(tu_at(env, "data.live"));
    json_decref(env);
}

static void test_get_value_falls_back_to_the_snapshot(void **state)
{
    /* Regression (was a bug): commands/observation.md, get: "text, value, bounds, and states read live state
     * when the adapter can and fall back to the snapshot's saved values otherwise". get_is.c
     * falls back only for bounds and states: a value the live read could not answer comes
     * back null although the ref entry saved "42". */
    fx *f = *state;
    ad_text_unknown(&live(f, "textfield", "Display")->value);
    expect_get(f, "Display", "value", "42");
}

static void test_get_errors(void **state)
{
    fx *f = *state;
    expect_code(run(f, "get", tu_args("get", "{s:s}", "ref_id", "@e3"), 1), "INVALID_ARGS");
    fk_remove(live(f, "button", "Menu"));
    json_t *env = run(f, "get", tu_args("get", "{s:s}", "ref_id", ref(f, "Menu")), 1);
    assert_string_equal(tu_str(env, "error.details.kind"), "saved_ref_absent");
    assert_string_equal(tu_str(env, "error.recovery.strategy"),
                        "refresh_snapshot_then_retry_original");
    expect_code(env, "STALE_REF");
}

static void expect_is(fx *f, const char *name, const char *prop, bool applicable, bool result)
{
    json_t *env = run(f, "is", tu_args("is", "{s:s, s:s}", "ref_id", ref(f, name), "property",
                                       prop), 0);
    json_t *d = tu_at(env, "data");
    assert_int_equal(json_is_true(tu_at(d, "applicable")), applicable);
    assert_int_equal(json_is_true(tu_at(d, "result")), result);
    assert_string_equal(tu_str(d, "property"), prop);
    assert_string_equal(tu_str(d, "ref"), ref(f, name));
    json_decref(env);
}

static void test_is(void **state)
{
    fx *f = *state;
    expect_is(f, "Undo", "enabled", true, false);
    expect_is(f, "Menu", "enabled", true, true);
    expect_is(f, "Menu", "visible", true, true);
    expect_is(f, "Scientific", "checked", true, true);
    expect_is(f, "Programming", "checked", true, false);
    expect_is(f, "Menu", "checked", false, false);  /* a button is not checkable */
    live(f, "button", "Undo")->states |= 1u << AD_ST_CHECKED;
    expect_is(f, "Undo", "checked", false, false);  /* whatever state bits it reports */
    expect_is(f, "Menu", "expanded", false, false);
    live(f, "button", "Menu")->states_state = AD_FIELD_UNKNOWN;
    expect_is(f, "Menu", "enabled", false, false);  /* unread states: unknown */
    live(f, "button", "Undo")->states = 1u << AD_ST_OFFSCREEN;
    expect_is(f, "Undo", "visible", true, false);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_find_matches_shape),
        T(test_find_single_match_shapes),
        T(test_find_count_saves_nothing),
        T(test_find_roles_present_when_a_role_matches_nothing),
        T(test_find_context_match),
        T(test_find_fuzzy_and_exact),
        T(test_find_states),
        T(test_find_argument_errors),
        T(test_find_limit_conflicts_with_single_match_shapes),
        T(test_find_role_folding),
        T(test_find_incomplete_read_times_out),
        T(test_find_under_a_root),
        T(test_get_text_value_title_role),
        T(test_get_bounds_live_or_saved),
        T(test_get_value_falls_back_to_the_snapshot),
        T(test_get_errors),
        T(test_is),
    };
    return cmocka_run_group_tests_name("commands_find", tests, NULL, NULL);
}
