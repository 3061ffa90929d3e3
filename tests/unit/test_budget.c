/* test_budget.c: --max-bytes / --max-tokens budgets (core/budget.h) and --annotate-unique
 * (present.c), through dispatch and the fake adapter, as every door runs them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "fake_adapter.h"
#include "test_util.h"

typedef struct {
    tu_home home;
    fake_adapter *fake;
} fx;

/* A list of n rows, each a group holding a named button and a label. */
static ad_node *rows(const char *list, int n, int first)
{
    char spec[64];
    snprintf(spec, sizeof(spec), "list|n=%s", list);
    ad_node *l = fk(spec, NULL);
    for (int i = 0; i < n; i++) {
        char b[64], t[64];
        snprintf(b, sizeof(b), "button|n=Row %d|a=Click", first + i);
        snprintf(t, sizeof(t), "statictext|n=label of row %d", first + i);
        ad_node_add_child(l, fk("group", fk(b, NULL), fk(t, NULL), NULL));
    }
    return l;
}

static char long_text[2000];

static ad_node *form_tree(void)
{
    memset(long_text, 'x', sizeof(long_text) - 1);
    char v[2100];
    snprintf(v, sizeof(v), "textfield|id=log|v=%s", long_text);
    return fk("window|n=Form",
              fk("group|id=top", fk("button|n=OK|a=Click", NULL),
                 fk("button|n=OK|a=Click", NULL), fk("checkbox|n=Agree|a=Click", NULL), NULL),
              rows("Big", 40, 0), rows("Small", 8, 100), fk(v, NULL), NULL);
}

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_fake_begin(&f->home, &f->fake);
    fake_add_app(f->fake, "form", 100);
    fake_add_window(f->fake, "form", "Form", form_tree())->w.is_focused = true;
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

/* The envelope line as the CLI prints it: the JSON and its newline. */
static size_t line_bytes(const json_t *env)
{
    return ad_json_bytes(env) + 1;
}

static json_t *snap(fx *f, json_t *args, json_t *globals, int want_exit)
{
    return tu_run_exit(fake_base(f->fake), "snapshot", args, globals, want_exit);
}

static json_t *budget(long long n)
{
    return json_pack("{s:I}", "max_bytes", (json_int_t)n);
}

static void count_refs(const json_t *n, size_t *refs, size_t *cut_sum)
{
    if (json_object_get(n, "ref_id"))
        (*refs)++;
    *cut_sum += (size_t)json_integer_value(json_object_get(n, "refs_cut"));
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(n, "children"), i, c)
        count_refs(c, refs, cut_sum);
}

static void test_budget_is_never_exceeded_and_accounts_for_every_ref(void **state)
{
    fx *f = *state;
    json_t *full = snap(f, tu_args("snapshot", "{s:b}", "interactive_only", 1), NULL, 0);
    size_t full_refs = (size_t)tu_int(full, "data.ref_count");
    size_t full_bytes = line_bytes(full);
    assert_null(tu_at(full, "data.budget")); /* nothing new without a budget */
    json_decref(full);
    json_t *roomy = snap(f, tu_args("snapshot", "{s:b}", "interactive_only", 1),
                         budget(1000000000), 0);
    size_t fits = line_bytes(roomy);
    json_decref(roomy);
    for (long long n = 1024; n <= (long long)full_bytes + 200; n += 97) {
        json_t *env = snap(f, tu_args("snapshot", "{s:b}", "interactive_only", 1), budget(n), 0);
        assert_true(line_bytes(env) <= (size_t)n);
        json_t *blk = tu_at(env, "data.budget");
        assert_int_equal(tu_int(blk, "max_bytes"), n);
        size_t shown = 0, cut_sum = 0;
        count_refs(tu_at(env, "data.tree"), &shown, &cut_sum);
        assert_int_equal(shown, (size_t)tu_int(env, "data.ref_count"));
        /* Every ref of the full presentation is shown or inside a cut that says so. */
        size_t hidden = (size_t)tu_int(blk, "refs_cut");
        assert_int_equal(cut_sum, hidden);
        assert_int_equal(shown - (size_t)tu_int(blk, "drill_refs") + hidden, full_refs);
        assert_int_equal(json_is_true(tu_at(blk, "truncated")), (size_t)n < fits);
        json_decref(env);
    }
}

static void test_budget_is_deterministic(void **state)
{
    fx *f = *state;
    char *a = NULL;
    for (int i = 0; i < 2; i++) {
        json_t *env = snap(f, tu_args("snapshot", "{}"), budget(2500), 0);
        json_object_del(json_object_get(env, "data"), "snapshot_id");
        char *s = json_dumps(env, AD_JSON_OUTPUT_FLAGS);
        /* Refs name their snapshot: compare with the ids taken out. */
        for (char *p = strstr(s, "\"@s"); p; p = strstr(p + 1, "\"@s"))
            for (char *q = p + 2; *q && *q != ':'; q++)
                *q = 'x';
        if (a)
            assert_string_equal(a, s);
        free(a);
        a = s;
        json_decref(env);
    }
    free(a);
}

static void test_largest_container_is_cut_first(void **state)
{
    fx *f = *state;
    /* Over by more than the text clip saves, less than the 40-row list: that list is the
     * smallest container whose cut covers the rest. */
    json_t *full = snap(f, tu_args("snapshot", "{s:b}", "interactive_only", 1), NULL, 0);
    size_t bytes = line_bytes(full);
    json_decref(full);
    json_t *env = snap(f, tu_args("snapshot", "{s:b}", "interactive_only", 1),
                       budget((long long)bytes - 1744 - 900), 0);
    json_t *big = tu_node_named(tu_at(env, "data.tree"), "Big");
    json_t *small = tu_node_named(tu_at(env, "data.tree"), "Small");
    assert_non_null(big);
    assert_non_null(small);
    assert_int_equal(tu_int(big, "children_count"), 40);
    assert_int_equal(tu_int(big, "refs_cut"), 40);
    assert_non_null(tu_at(big, "ref_id")); /* a named, unique list: its own drill ref */
    assert_null(tu_at(small, "children_count"));
    assert_int_equal(json_array_size(tu_at(small, "children")), 8);
    json_decref(env);
}

static void test_long_text_is_clipped_with_its_length(void **state)
{
    fx *f = *state;
    json_t *full = snap(f, tu_args("snapshot", "{}"), NULL, 0);
    size_t bytes = line_bytes(full);
    json_decref(full);
    json_t *env = snap(f, tu_args("snapshot", "{}"), budget((long long)bytes - 100), 0);
    json_t *tree = tu_at(env, "data.tree");
    json_t *field = NULL;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(tree, "children"), i, c)
        if (strcmp(tu_str(c, "role"), "textfield") == 0)
            field = c;
    assert_non_null(field);
    assert_int_equal(strlen(tu_str(field, "value")), AD_BUDGET_CLIP_BYTES);
    assert_int_equal(tu_int(field, "value_length"), (json_int_t)strlen(long_text));
    assert_int_equal(tu_int(env, "data.budget.texts_clipped"), 1);
    assert_int_equal(tu_int(env, "data.budget.clip_bytes"), AD_BUDGET_CLIP_BYTES);
    json_decref(env);
    /* A budget the whole snapshot fits clips nothing. */
    env = snap(f, tu_args("snapshot", "{}"), budget(100000), 0);
    assert_null(tu_at(env, "data.budget.clip_bytes"));
    assert_false(json_is_true(tu_at(env, "data.budget.truncated")));
    json_decref(env);
}

static void test_tokens_use_the_stated_ratio(void **state)
{
    fx *f = *state;
    json_t *env = snap(f, tu_args("snapshot", "{}"),
                       json_pack("{s:i}", "max_tokens", 700), 0);
    assert_true(line_bytes(env) <= 700 * AD_BYTES_PER_TOKEN);
    assert_int_equal(tu_int(env, "data.budget.max_tokens"), 700);
    assert_int_equal(tu_int(env, "data.budget.bytes_per_token"), AD_BYTES_PER_TOKEN);
    json_decref(env);
}

static void test_budget_arguments_are_validated(void **state)
{
    fx *f = *state;
    json_t *env = snap(f, tu_args("snapshot", "{}"), budget(1000), 2);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = snap(f, tu_args("snapshot", "{}"),
               json_pack("{s:i, s:i}", "max_bytes", 5000, "max_tokens", 2000), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    /* get prints no tree; click takes a budget only with --wait-for. */
    char *ref = tu_snapshot_ref(fake_base(f->fake), NULL, "Agree");
    env = tu_run_exit(fake_base(f->fake), "get", tu_args("get", "{s:s}", "ref_id", ref),
                      budget(5000), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = tu_run_exit(fake_base(f->fake), "click", tu_args("click", "{s:s}", "ref_id", ref),
                      budget(5000), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    json_decref(env);
    free(ref);
}

static void test_too_small_for_the_window_names_the_minimum(void **state)
{
    fx *f = *state;
    /* A title longer than the budget: nothing can be cut to fit it. */
    fake_window *w = fake_window_get(f->fake, "w-fake-1");
    free(w->w.title);
    char title[1400];
    memset(title, 't', sizeof(title) - 1);
    title[sizeof(title) - 1] = '\0';
    w->w.title = strdup(title);
    json_t *env = snap(f, tu_args("snapshot", "{}"), budget(1200), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_string_equal(tu_str(env, "error.details.kind"), "budget_too_small");
    long long min = tu_int(env, "error.details.min_bytes");
    json_decref(env);
    env = snap(f, tu_args("snapshot", "{}"), budget(min), 0);
    assert_true(line_bytes(env) <= (size_t)min);
    json_decref(env);
}

static void test_a_cut_drills_to_its_subtree(void **state)
{
    fx *f = *state;
    json_t *env = snap(f, tu_args("snapshot", "{s:b}", "interactive_only", 1), budget(1500), 0);
    json_t *big = tu_node_named(tu_at(env, "data.tree"), "Big");
    const char *ref = big ? tu_str(big, "ref_id") : NULL;
    if (!big || !ref) {
        /* The list sits inside a cut itself: its ancestor's drill ref covers it. */
        json_t *tree = tu_at(env, "data.tree");
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(tree, "children"), i, c)
            if (tu_int(c, "refs_cut") >= 40 && tu_str(c, "ref_id"))
                ref = tu_str(c, "ref_id");
    }
    assert_non_null(ref);
    json_t *drill = snap(f, tu_args("snapshot", "{s:s, s:b}", "root", ref, "interactive_only", 1),
                         NULL, 0);
    json_t *row = tu_node_named(tu_at(drill, "data.tree"), "Row 39");
    assert_non_null(row);
    assert_non_null(tu_at(row, "ref_id"));
    json_decref(drill);
    json_decref(env);
}

static void test_post_action_wait_snapshot_fits(void **state)
{
    fx *f = *state;
    char *ref = tu_snapshot_ref(fake_base(f->fake), NULL, "Agree");
    json_t *g = json_pack("{s:s, s:i}", "wait_for", "checkbox:Agree", "max_bytes", 1500);
    json_t *env = tu_run_exit(fake_base(f->fake), "click",
                              tu_args("click", "{s:s}", "ref_id", ref), g, 0);
    assert_true(line_bytes(env) <= 1500);
    assert_non_null(tu_at(env, "data.after_action"));
    assert_true(json_is_true(tu_at(env, "data.budget.truncated")));
    json_decref(env);
    free(ref);
}

static void test_annotate_unique_marks_exactly_the_refs_that_fail(void **state)
{
    fx *f = *state;
    json_t *plain = snap(f, tu_args("snapshot", "{}"), NULL, 0);
    json_t *env = snap(f, tu_args("snapshot", "{s:b}", "annotate_unique", 1), NULL, 0);
    /* Without the flag nothing is marked. */
    char *p = json_dumps(plain, 0);
    assert_null(strstr(p, "\"unique\""));
    free(p);
    json_decref(plain);
    json_t *ok0 = tu_at(env, "data.tree.children.0.children.0");
    json_t *ok1 = tu_at(env, "data.tree.children.0.children.1");
    json_t *agree = tu_node_named(tu_at(env, "data.tree"), "Agree");
    assert_string_equal(tu_str(ok0, "name"), "OK");
    assert_true(json_is_false(tu_at(ok0, "unique")));
    assert_true(json_is_false(tu_at(ok1, "unique")));
    /* The OK buttons' context: the group has no name; the first OK the window, the second
     * the first OK before it. */
    assert_string_equal(tu_str(ok0, "context"), "window:Form");
    assert_string_equal(tu_str(ok1, "context"), "button:OK");
    assert_null(tu_at(agree, "unique"));
    const json_t *marked[] = {ok0, ok1};
    for (int i = 0; i < 2; i++) {
        json_t *r = tu_run_exit(fake_base(f->fake), "get",
                                tu_args("get", "{s:s}", "ref_id", tu_str(marked[i], "ref_id")),
                                NULL, 1);
        assert_string_equal(tu_str(r, "error.details.kind"), "identity_not_unique");
        json_decref(r);
    }
    json_t *r = tu_run_exit(fake_base(f->fake), "get",
                            tu_args("get", "{s:s, s:s}", "ref_id", tu_str(agree, "ref_id"),
                                    "property", "role"), NULL, 0);
    assert_string_equal(tu_str(r, "data.value"), "checkbox");
    json_decref(r);
    json_decref(env);
}

static void test_find_drops_matches_from_the_end(void **state)
{
    fx *f = *state;
    json_t *all = tu_run_exit(fake_base(f->fake), "find",
                              tu_args("find", "{s:s, s:i}", "role", "button", "limit", 0), NULL, 0);
    size_t total = json_array_size(tu_at(all, "data.matches"));
    assert_true(line_bytes(all) > 3000);
    json_decref(all);
    json_t *env = tu_run_exit(fake_base(f->fake), "find",
                              tu_args("find", "{s:s, s:i}", "role", "button", "limit", 0),
                              budget(3000), 0);
    assert_true(line_bytes(env) <= 3000);
    size_t kept = json_array_size(tu_at(env, "data.matches"));
    assert_true(kept > 0 && kept < total);
    assert_int_equal(tu_int(env, "data.budget.matches_cut"), total - kept);
    assert_true(json_is_true(tu_at(env, "data.truncated")));
    /* The kept matches' refs resolve; the last kept is the last shown. */
    const char *ref = tu_str(tu_at(env, "data.matches"), "0.ref_id");
    json_t *r = tu_run_exit(fake_base(f->fake), "get",
                            tu_args("get", "{s:s, s:s}", "ref_id", ref, "property", "role"),
                            NULL, ref && strstr(tu_str(tu_at(env, "data.matches"), "0.name"),
                                                "OK") ? 1 : 0);
    json_decref(r);
    json_decref(env);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_budget_is_never_exceeded_and_accounts_for_every_ref),
        T(test_budget_is_deterministic),
        T(test_largest_container_is_cut_first),
        T(test_long_text_is_clipped_with_its_length),
        T(test_tokens_use_the_stated_ratio),
        T(test_budget_arguments_are_validated),
        T(test_too_small_for_the_window_names_the_minimum),
        T(test_a_cut_drills_to_its_subtree),
        T(test_post_action_wait_snapshot_fits),
        T(test_annotate_unique_marks_exactly_the_refs_that_fail),
        T(test_find_drops_matches_from_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
