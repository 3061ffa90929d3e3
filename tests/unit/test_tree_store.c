/* test_tree_store.c: a snapshot's stored read round-trips into a tree that diffs as the
 * same read (tree_store.h), keeps no secret, and a damaged one is refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tree_diff.h"
#include "core/tree_store.h"
#include "fake_adapter.h"
#include "test_util.h"

static ad_node *sample(const char *long_value)
{
    ad_node *root = fk("window|n=Form|id=main",
                       fk("group", fk("statictext|n=Count: 0|d=counter", NULL),
                          fk("textfield|n=Log|s=readonly", NULL),
                          fk("textfield|n=Secret|secure|v=hunter2", NULL),
                          fk("button|n=OK|a=Click|a=SetFocus|b=10,20,30,40", NULL), NULL),
                       fk("list|n=Rows|cut=9", fk("row|n?", NULL), NULL), NULL);
    ad_text_set(&fk_find(root, "textfield", "Log")->value, long_value);
    /* A real read knows an element has no actions; the stored form keeps none. */
    fk_find(root, "group", NULL)->actions_state = AD_FIELD_KNOWN;
    return root;
}

static char *tree_path(const tu_home *h, const char *id)
{
    char *p = NULL;
    assert_true(asprintf(&p, "%s/snapshots/%s/%s", h->state, id, AD_TREE_STORE_FILE) > 0);
    return p;
}

static void test_round_trip_diffs_as_the_same_read(void **state)
{
    (void)state;
    tu_home home;
    tu_home_begin(&home);
    ad_ctx ctx = {.state_root = home.state};
    char longv[600];
    memset(longv, 'q', sizeof(longv) - 1);
    longv[sizeof(longv) - 1] = '\0';
    ad_node *root = sample(longv);
    ad_node_ref refs[] = {{fk_find(root, "button", "OK"), 4}, {fk_find(root, "list", "Rows"), 7}};
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_tree_store_save(&ctx, "s1tree", root, false, "w-fake-1", refs, 2,
                                        &err), 0);
    ad_stored_tree t = {0};
    assert_int_equal(ad_tree_store_load(&ctx, "s1tree", &t, &err), 0);
    assert_string_equal(t.window_id, "w-fake-1");
    assert_false(t.complete);
    assert_int_equal(ad_node_count(t.root), ad_node_count(root));
    ad_node *ok = fk_find(t.root, "button", "OK");
    assert_non_null(ok);
    assert_int_equal(ad_node_ref_find(t.refs, t.n_refs, ok), 4);
    assert_int_equal(ad_node_ref_find(t.refs, t.n_refs, fk_find(t.root, "list", "Rows")), 7);
    assert_int_equal(ad_node_ref_find(t.refs, t.n_refs, t.root), 0);
    assert_int_equal(ok->n_actions, 2);
    assert_int_equal(ok->bounds_state, AD_FIELD_KNOWN);
    assert_true(ok->bounds.width == 30);
    ad_node *list = fk_find(t.root, "list", "Rows");
    assert_true(list->children_cut);
    assert_int_equal(list->live_child_count, 9);
    assert_int_equal(list->children[0]->name.state, AD_FIELD_UNKNOWN);
    assert_true(fk_find(t.root, "textfield", "Log")->states & (1u << AD_ST_READONLY));
    /* Diffed against the live read it came from, nothing changed (the long value's mark
     * compares with the value). */
    ad_tree_diff_opts o = {.before_complete = true, .after_complete = true,
                           .compare_bounds = true};
    ad_tree_delta *d = NULL;
    assert_int_equal(ad_tree_diff(t.root, root, &o, &d), 0);
    assert_int_equal(d->n_changed + d->n_added + d->n_removed, 0);
    ad_tree_delta_free(d);
    ad_stored_tree_free(&t);
    /* No secret and no long value on disk. */
    char *path = tree_path(&home, "s1tree");
    char *text = tu_read_file(path, NULL);
    assert_non_null(text);
    assert_null(strstr(text, "hunter2"));
    assert_null(strstr(text, "qqqqqqqq"));
    free(text);
    free(path);
    ad_node_free(root);
    tu_home_end(&home);
}

static void expect_refused(ad_ctx *ctx, const char *id)
{
    ad_stored_tree t = {0};
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_tree_store_load(ctx, id, &t, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    assert_string_equal(json_string_value(json_object_get(err.details, "kind")),
                        "no_stored_read");
    assert_null(t.root);
    ad_error_clear(&err);
}

static void test_missing_and_damaged_are_refused(void **state)
{
    (void)state;
    tu_home home;
    tu_home_begin(&home);
    ad_ctx ctx = {.state_root = home.state};
    expect_refused(&ctx, "s1none");
    ad_node *root = sample("x");
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_tree_store_save(&ctx, "s1bad", root, true, "w1", NULL, 0, &err), 0);
    char *path = tree_path(&home, "s1bad");
    static const char *const bad[] = {
        "{\"v\":1,\"window_id\":\"w1\",\"complete\":true,\"roles\":[\"window\"],"
        "\"nodes\":[[2,0]]}", /* fewer nodes than child counts */
        "{\"v\":1,\"window_id\":\"w1\",\"complete\":true,\"roles\":[\"window\"],"
        "\"nodes\":[[0,3]]}", /* role index out of range */
        "{\"v\":1,\"window_id\":\"w1\",\"complete\":true,\"roles\":[\"window\"],"
        "\"nodes\":[[0,0],[0,0]]}", /* more nodes than child counts */
        "{\"v\":2,\"window_id\":\"w1\",\"complete\":true,\"roles\":[],\"nodes\":[]}",
        "not json",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        tu_write_file(path, bad[i]);
        expect_refused(&ctx, "s1bad");
    }
    free(path);
    ad_node_free(root);
    tu_home_end(&home);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_diffs_as_the_same_read),
        cmocka_unit_test(test_missing_and_damaged_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
