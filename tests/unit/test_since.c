/* test_since.c: snapshot --since and find --since through dispatch, on the fake adapter
 * (commands/since.h): the delta replaces the tree, the id is checked before any read, and a
 * delta larger than the snapshot falls back to it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "fake_adapter.h"
#include "test_util.h"

static ad_node *form(void)
{
    return fk("window|n=Form",
              fk("group|n=Counter", fk("button|n=Increment|id=inc|a=Click", NULL),
                 fk("statictext|n=count: 0", NULL), NULL),
              fk("textfield|n=Name|id=name|a=SetValue", NULL), NULL);
}

static int setup(void **state)
{
    *state = tu_bed_new(form());
    return 0;
}

static json_t *run(tu_bed *b, const char *cmd, json_t *args, int want_exit)
{
    return tu_run_exit(fake_base(b->fake), cmd, args, NULL, want_exit);
}

static char *snapshot_id(tu_bed *b)
{
    json_t *env = run(b, "snapshot", tu_args("snapshot", "{s:b}", "interactive_only", 1), 0);
    char *id = strdup(tu_str(env, "data.snapshot_id"));
    json_decref(env);
    return id;
}

static void test_a_renamed_label_is_the_whole_delta(void **state)
{
    tu_bed *b = *state;
    char *id = snapshot_id(b);
    fk_rename(fk_find(fake_window_get(b->fake, "w-fake-1")->root, "statictext", "count: 0"),
              "count: 1");
    json_t *env = run(b, "snapshot", tu_args("snapshot", "{s:s}", "since", id), 0);
    assert_null(tu_at(env, "data.tree"));
    assert_false(json_is_true(tu_at(env, "data.unchanged")));
    assert_string_equal(tu_str(env, "data.since"), id);
    json_t *changed = tu_at(env, "data.changed");
    assert_int_equal(json_array_size(changed), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(changed, 0), "name")),
                        "count: 1");
    /* The new snapshot was saved: a second --since on it finds nothing changed. */
    char *next = strdup(tu_str(env, "data.snapshot_id"));
    json_decref(env);
    env = run(b, "snapshot", tu_args("snapshot", "{s:s}", "since", next), 0);
    assert_true(json_is_true(tu_at(env, "data.unchanged")));
    json_decref(env);
    free(next);
    free(id);
}

static void test_ids_are_checked_before_any_read(void **state)
{
    tu_bed *b = *state;
    int reads = b->fake->n_read_window;
    json_t *env = run(b, "snapshot", tu_args("snapshot", "{s:s}", "since", "Not-An-Id"), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_string_equal(tu_str(env, "error.details.kind"), "since_invalid");
    json_decref(env);
    env = run(b, "find", tu_args("find", "{s:s, s:s}", "role", "button", "since", "s1gone"), 1);
    assert_string_equal(tu_str(env, "error.code"), "SNAPSHOT_NOT_FOUND");
    assert_string_equal(tu_str(env, "error.details.kind"), "no_stored_read");
    json_decref(env);
    assert_int_equal(b->fake->n_read_window, reads);
}

static void test_a_large_delta_returns_the_snapshot(void **state)
{
    tu_bed *b = *state;
    char *id = snapshot_id(b);
    /* Every node renamed: the delta would list each one; the snapshot is smaller. */
    ad_node *root = fake_window_get(b->fake, "w-fake-1")->root;
    fk_remove(root->children[0]);
    fk_remove(root->children[0]);
    for (int i = 0; i < 8; i++)
        ad_node_add_child(root, fk("button|n=B|a=Click", NULL));
    json_t *env = run(b, "snapshot", tu_args("snapshot", "{s:s, s:b}", "since", id,
                                             "interactive_only", 1), 0);
    assert_non_null(tu_at(env, "data.tree"));
    assert_string_equal(tu_str(env, "data.delta_skipped"), "larger_than_snapshot");
    assert_null(tu_at(env, "data.added"));
    json_decref(env);
    free(id);
}

static void test_find_since_keeps_the_query(void **state)
{
    tu_bed *b = *state;
    char *id = snapshot_id(b);
    ad_node *root = fake_window_get(b->fake, "w-fake-1")->root;
    ad_text_set(&fk_find(root, "textfield", "Name")->value, "Ada");
    json_t *env = run(b, "find", tu_args("find", "{s:s, s:s}", "role", "textfield", "since", id),
                      0);
    json_t *c = json_array_get(tu_at(env, "data.changed"), 0);
    assert_string_equal(json_string_value(json_object_get(c, "value")), "Ada");
    assert_string_equal(json_string_value(json_array_get(json_object_get(c, "changed"), 0)),
                        "value");
    assert_non_null(json_object_get(c, "ref_id"));
    json_decref(env);
    env = run(b, "find", tu_args("find", "{s:s, s:s}", "role", "button", "since", id), 0);
    assert_true(json_is_true(tu_at(env, "data.unchanged")));
    json_decref(env);
    free(id);
}

/* Issue 13: the id of a find --since is the base of the next --since (it stores the read it
 * compared); before, any find's id was no_stored_read. A plain find stores no read: its id
 * fails closed with SNAPSHOT_NOT_FOUND and a suggestion that works. */
static void test_find_since_chains_from_its_own_id(void **state)
{
    tu_bed *b = *state;
    char *first = snapshot_id(b);
    ad_node *root = fake_window_get(b->fake, "w-fake-1")->root;
    ad_text_set(&fk_find(root, "textfield", "Name")->value, "Ada");
    json_t *env = run(b, "find", tu_args("find", "{s:s, s:s}", "role", "textfield", "since",
                                         first), 0);
    char *second = strdup(tu_str(env, "data.snapshot_id"));
    json_decref(env);
    /* Nothing changed since the second read, although the first differs. */
    env = run(b, "find", tu_args("find", "{s:s, s:s}", "role", "textfield", "since", second),
              0);
    assert_true(json_is_true(tu_at(env, "data.unchanged")));
    json_decref(env);
    ad_text_set(&fk_find(root, "textfield", "Name")->value, "Bob");
    env = run(b, "find", tu_args("find", "{s:s, s:s}", "role", "textfield", "since", second),
              0);
    assert_string_equal(tu_str(env, "data.changed.0.value"), "Bob");
    assert_string_equal(tu_str(env, "data.since"), second);
    json_decref(env);
    /* A plain find's id has no read. */
    env = run(b, "find", tu_args("find", "{s:s}", "role", "textfield"), 0);
    char *plain = strdup(tu_str(env, "data.snapshot_id"));
    json_decref(env);
    env = run(b, "find", tu_args("find", "{s:s, s:s}", "role", "textfield", "since", plain), 1);
    assert_string_equal(tu_str(env, "error.code"), "SNAPSHOT_NOT_FOUND");
    assert_string_equal(tu_str(env, "error.details.kind"), "no_stored_read");
    assert_non_null(tu_at(env, "error.suggestion"));
    json_decref(env);
    free(plain);
    free(second);
    free(first);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_renamed_label_is_the_whole_delta, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_ids_are_checked_before_any_read, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_a_large_delta_returns_the_snapshot, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_find_since_keeps_the_query, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_find_since_chains_from_its_own_id, setup,
                                        tu_bed_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
