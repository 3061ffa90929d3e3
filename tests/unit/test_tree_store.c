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

/* Diffing the rebuilt read against the read it came from finds no change. */
static void assert_same_read(const ad_node *rebuilt, const ad_node *read)
{
    ad_tree_diff_opts o = {.before_complete = true, .after_complete = true,
                           .compare_bounds = true};
    ad_tree_delta *d = NULL;
    assert_int_equal(ad_tree_diff(rebuilt, read, &o, &d), 0);
    assert_int_equal(d->n_changed + d->n_added + d->n_removed, 0);
    ad_tree_delta_free(d);
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
    assert_same_read(t.root, root);
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

/* The stored bytes of the read at root in snapshot `id` (the caller's); *ret_len their count. */
static char *save_bytes(ad_ctx *ctx, const tu_home *h, const char *id, const ad_node *root,
                        bool complete, const ad_node_ref *refs, size_t n_refs, size_t *ret_len)
{
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_tree_store_save(ctx, id, root, complete, "w-fake-1", refs, n_refs,
                                        &err), 0);
    char *path = tree_path(h, id);
    char *text = tu_read_file(path, ret_len);
    assert_non_null(text);
    free(path);
    return text;
}

/* Every kind of field, byte for byte: texts absent (0, trailing ones left out), unknown
 * (null) and known, escaped as json_dumps escapes (quote, backslash, \n \t, \u00XX for other
 * control characters, '/' and DEL and valid UTF-8 as they are, invalid UTF-8 as null), a
 * long value as its mark, a secure value dropped, bounds rounded, actions, flags, refs. */
static void test_stored_bytes_are_exact(void **state)
{
    (void)state;
    tu_home home;
    tu_home_begin(&home);
    ad_ctx ctx = {.state_root = home.state};
    ad_node *root = fk("window|n=Say \"hi\" \\ a/b|id=main|s=focused",
                       fk("statictext|n=one\ntwo\tthree\x01\x1f\x7f|"
                          "d=caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9d\x84\x9e", NULL),
                       fk("textfield|n=Secret|secure|v=hunter2|d=say \"x\"", NULL),
                       fk("textfield|n=Log|v=short", NULL),
                       fk("button|n=OK|a=Click|a=SetFocus|b=10,20,30,40", NULL),
                       fk("group|n?|d?|id?|v?|s?", NULL),
                       fk("list|n=Rows|cut=9|checked?", fk("row", NULL), NULL),
                       fk("statictext|n=bad \xff utf-8|v=\xc3", NULL), NULL);
    char longv[AD_TREE_VALUE_KEEP + 2];
    memset(longv, 'q', sizeof(longv) - 1);
    longv[sizeof(longv) - 1] = '\0';
    ad_text_set(&fk_find(root, "textfield", "Log")->value, longv);
    ad_node *ok = fk_find(root, "button", "OK");
    ok->bounds = (ad_rect){10.6, -2.5, 30.4, 40};
    ad_node *group = fk_find(root, "group", NULL);
    group->actions_state = AD_FIELD_UNKNOWN;
    group->native_id_unread = true;
    group->toolkit_class = strdup("GtkBox");
    ad_node_ref refs[] = {{fk_find(root, "list", "Rows"), 7}, {ok, 4}};
    char *text = save_bytes(&ctx, &home, "s1bytes", root, true, refs, 2, NULL);
    assert_string_equal(text,
        "{\"v\":1,\"window_id\":\"w-fake-1\",\"complete\":true,\"roles\":[\"window\","
        "\"statictext\",\"textfield\",\"button\",\"group\",\"list\",\"row\"],\"nodes\":["
        "[7,0,\"Say \\\"hi\\\" \\\\ a/b\",0,1,0,0,0,\"main\"],"
        "[0,1,\"one\\ntwo\\tthree\\u0001\\u001F\x7f\",0,0,0,0,"
        "\"caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9d\x84\x9e\"],"
        "[0,2,\"Secret\",0,0,0,0,\"say \\\"x\\\"\",0,0,0,0,2],"
        "[0,2,\"Log\",0,0,0,\"\\u0001aac5008a472c6b36\"],"
        "[0,3,\"OK\",4,0,\"Click,SetFocus\",0,0,0,0,[11,-3,30,40]],"
        "[0,4,null,0,null,null,null,null,null,\"GtkBox\",0,0,8],"
        "[1,5,\"Rows\",7,0,0,0,0,0,0,0,10,5],"
        "[0,6],"
        "[0,1,null,0,0,0,null]]}");
    free(text);
    /* A one-node read, not complete, without refs. */
    ad_node *one = fk("window|n=A", NULL);
    text = save_bytes(&ctx, &home, "s1one", one, false, NULL, 0, NULL);
    assert_string_equal(text, "{\"v\":1,\"window_id\":\"w-fake-1\",\"complete\":false,"
                              "\"roles\":[\"window\"],\"nodes\":[[0,0,\"A\"]]}");
    free(text);
    ad_node_free(one);
    ad_node_free(root);
    tu_home_end(&home);
}

/* A stored form of exactly AD_TREE_STORE_MAX_BYTES is written; one byte more is not
 * (returns 1, no file). */
static void test_size_limit_is_exact(void **state)
{
    (void)state;
    tu_home home;
    tu_home_begin(&home);
    ad_ctx ctx = {.state_root = home.state};
    ad_node *root = fk("window", fk("statictext|n=x", NULL), NULL);
    size_t len = 0;
    free(save_bytes(&ctx, &home, "s1small", root, true, NULL, 0, &len));
    size_t name_len = 1 + AD_TREE_STORE_MAX_BYTES - len;
    char *name = malloc(name_len + 2);
    assert_non_null(name);
    memset(name, 'x', name_len + 1);
    name[name_len] = '\0';
    ad_text_set(&root->children[0]->name, name);
    free(save_bytes(&ctx, &home, "s1max", root, true, NULL, 0, &len));
    assert_int_equal(len, AD_TREE_STORE_MAX_BYTES);
    name[name_len] = 'x';
    name[name_len + 1] = '\0';
    ad_text_set(&root->children[0]->name, name);
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_tree_store_save(&ctx, "s1over", root, true, "w-fake-1", NULL, 0, &err),
                     1);
    char *path = tree_path(&home, "s1over");
    assert_null(fopen(path, "r"));
    free(path);
    free(name);
    ad_node_free(root);
    tu_home_end(&home);
}

/* A pseudo-random read of n nodes with every field kind; ret_refs gets a ref on every third
 * node (the caller frees them and the tree). */
static ad_node *random_read(size_t n, ad_node_ref **ret_refs, size_t *ret_n_refs)
{
    static const char *const roles[] = {"window", "group", "button", "statictext", "list",
                                        "row", "textfield", "menuitem"};
    static const char *const texts[] = {"", "OK", "a \"quoted\" \\ word", "line\nbreak\t\x02",
                                        "caf\xc3\xa9 \xe2\x9c\x93", "\xf0\x9d\x84\x9e", "a/b"};
    char long_value[AD_TREE_VALUE_KEEP + 40];
    memset(long_value, 'v', sizeof(long_value) - 1);
    long_value[sizeof(long_value) - 1] = '\0';
    ad_node **all = calloc(n, sizeof(*all));
    ad_node_ref *refs = calloc(n, sizeof(*refs));
    assert_true(all && refs);
    uint64_t x = 12;
    size_t n_refs = 0;
    for (size_t i = 0; i < n; i++) {
        ad_node *node = ad_node_new();
        assert_non_null(node);
        x = x * 6364136223846793005u + 1442695040888963407u;
        unsigned r = (unsigned)(x >> 33);
        node->role = roles[i ? 1 + r % 7 : 0];
        ad_text *texts_of[] = {&node->name, &node->value, &node->description, &node->native_id};
        for (size_t t = 0; t < 4; t++) {
            unsigned k = (r >> (3 * t)) % 9;
            if (k == 8)
                ad_text_unknown(texts_of[t]);
            else if (k < 7)
                ad_text_set(texts_of[t], texts[k]);
        }
        node->states_state = r % 5 ? AD_FIELD_KNOWN : AD_FIELD_UNKNOWN;
        node->states = node->states_state == AD_FIELD_KNOWN ? r % 4096 : 0;
        node->actions_state = (ad_field_state)(r >> 12) % 3;
        if (node->actions_state == AD_FIELD_KNOWN && r % 2)
            assert_int_equal(ad_node_add_action(node, r % 4 ? "Click" : "SetFocus"), 0);
        if ((r >> 14) % 2) {
            node->bounds_state = AD_FIELD_KNOWN;
            node->bounds = (ad_rect){r % 1000, (r >> 4) % 800, r % 90, (r >> 8) % 40};
        }
        if (r % 19 == 0) /* kept as its mark */
            ad_text_set(&node->value, long_value);
        node->secure = r % 17 == 0;
        node->children_cut = r % 11 == 0;
        node->checked_unreported = r % 13 == 0;
        node->live_child_count = (long)(r % 7) - 1;
        if (i && i % 3 == 0)
            refs[n_refs++] = (ad_node_ref){node, i};
        all[i] = node;
        if (i)
            assert_int_equal(ad_node_add_child(all[(r >> 16) % i], node), 0);
    }
    ad_node *root = all[0];
    free(all);
    *ret_refs = refs;
    *ret_n_refs = n_refs;
    return root;
}

/* A larger read round-trips into the same read, and storing the rebuilt read gives the same
 * bytes again. */
static void test_large_read_round_trips(void **state)
{
    (void)state;
    tu_home home;
    tu_home_begin(&home);
    ad_ctx ctx = {.state_root = home.state};
    ad_node_ref *refs = NULL;
    size_t n_refs = 0, len = 0, len2 = 0;
    ad_node *root = random_read(3000, &refs, &n_refs);
    char *text = save_bytes(&ctx, &home, "s1large", root, true, refs, n_refs, &len);
    ad_stored_tree t = {0};
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_tree_store_load(&ctx, "s1large", &t, &err), 0);
    assert_int_equal(ad_node_count(t.root), 3000);
    assert_int_equal(t.n_refs, n_refs);
    assert_same_read(t.root, root);
    char *again = save_bytes(&ctx, &home, "s1again", t.root, true, t.refs, t.n_refs, &len2);
    assert_int_equal(len2, len);
    assert_memory_equal(again, text, len);
    free(again);
    free(text);
    ad_stored_tree_free(&t);
    free(refs);
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

/* A node of the root's role whose every other field is zero is stored as its child count
 * alone ([0]); the loader reads it back instead of refusing the whole read. */
static void test_a_node_of_zeros_loads(void **state)
{
    (void)state;
    tu_home home;
    tu_home_begin(&home);
    ad_ctx ctx = {.state_root = home.state};
    ad_node *root = fk("window|n=Main", fk("window", NULL), NULL);
    ad_node *inner = root->children[0];
    inner->states_state = AD_FIELD_KNOWN;
    inner->states = 0;
    inner->actions_state = AD_FIELD_ABSENT;
    inner->live_child_count = -1;
    size_t len = 0;
    char *text = save_bytes(&ctx, &home, "s1zero", root, true, NULL, 0, &len);
    assert_non_null(strstr(text, ",[0]]"));
    free(text);
    ad_stored_tree t = {0};
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_tree_store_load(&ctx, "s1zero", &t, &err), 0);
    assert_int_equal(ad_node_count(t.root), 2);
    assert_same_read(t.root, root);
    ad_stored_tree_free(&t);
    ad_node_free(root);
    tu_home_end(&home);
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
        cmocka_unit_test(test_stored_bytes_are_exact),
        cmocka_unit_test(test_size_limit_is_exact),
        cmocka_unit_test(test_large_read_round_trips),
        cmocka_unit_test(test_a_node_of_zeros_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
