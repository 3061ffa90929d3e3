/* test_tree_diff.c: pairing two reads of a window by identity (the rules in tree_diff.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tree_diff.h"
#include "fake_adapter.h"

static ad_tree_delta *diff(const ad_node *b, const ad_node *a)
{
    ad_tree_diff_opts o = {.before_complete = true, .after_complete = true};
    ad_tree_delta *d = NULL;
    assert_int_equal(ad_tree_diff(b, a, &o, &d), 0);
    return d;
}

static ad_node *form(const char *label, const char *value)
{
    char l[64], v[64];
    snprintf(l, sizeof(l), "statictext|n=%s", label);
    snprintf(v, sizeof(v), "textfield|n=Name|v=%s", value);
    return fk("window|n=Form",
              fk("group", fk(l, NULL), fk(v, NULL), fk("button|n=OK|a=Click", NULL), NULL),
              fk("checkbox|n=Agree|a=Toggle", NULL), NULL);
}

static void test_same_tree_is_unchanged(void **state)
{
    (void)state;
    ad_node *b = form("Count: 0", "ann"), *a = form("Count: 0", "ann");
    ad_tree_delta *d = diff(b, a);
    assert_true(ad_tree_delta_unchanged(d));
    assert_true(d->complete);
    assert_int_equal(d->n_unchanged, ad_node_count(a));
    json_t *j = ad_tree_delta_json(d, NULL, NULL);
    assert_true(json_is_true(json_object_get(j, "unchanged")));
    assert_int_equal(json_object_size(j), 1); /* unchanged alone */
    json_decref(j);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

/* Rule 3: the only label among the unpaired children, renamed, is one node whose name changed. */
static void test_renamed_label_is_changed_name(void **state)
{
    (void)state;
    ad_node *b = form("Count: 0", "ann"), *a = form("Count: 1", "ann");
    ad_tree_delta *d = diff(b, a);
    assert_int_equal(d->n_added, 0);
    assert_int_equal(d->n_removed, 0);
    assert_int_equal(d->n_changed, 1);
    assert_int_equal(d->changed[0].fields, AD_DIFF_NAME);
    assert_string_equal(d->changed[0].after->name.text, "Count: 1");
    assert_string_equal(d->changed[0].before->name.text, "Count: 0");
    json_t *j = ad_tree_delta_json(d, NULL, NULL);
    json_t *c = json_array_get(json_object_get(j, "changed"), 0);
    assert_string_equal(json_string_value(json_object_get(c, "name")), "Count: 1");
    assert_string_equal(json_string_value(json_array_get(json_object_get(c, "changed"), 0)),
                        "name");
    json_t *path = json_object_get(c, "path");
    assert_int_equal(json_array_size(path), 2);
    assert_int_equal(json_integer_value(json_array_get(path, 1)), 0);
    assert_null(json_object_get(j, "added"));
    assert_null(json_object_get(j, "removed"));
    json_decref(j);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

static void test_value_and_states_change(void **state)
{
    (void)state;
    ad_node *b = form("L", "ann"), *a = form("L", "bob");
    fk_find(a, "checkbox", "Agree")->states |= 1u << AD_ST_CHECKED;
    ad_tree_delta *d = diff(b, a);
    assert_int_equal(d->n_changed, 2);
    assert_int_equal(d->changed[0].fields, AD_DIFF_VALUE);
    assert_string_equal(d->changed[0].after->role, "textfield");
    assert_int_equal(d->changed[1].fields, AD_DIFF_STATES);
    assert_string_equal(d->changed[1].after->role, "checkbox");
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

/* Keyed by identity, not position: swapped siblings are the same nodes. */
static void test_reordered_siblings_are_unchanged(void **state)
{
    (void)state;
    ad_node *b = fk("window|n=W", fk("button|n=A", NULL), fk("button|n=B", NULL), NULL);
    ad_node *a = fk("window|n=W", fk("button|n=B", NULL), fk("button|n=A", NULL), NULL);
    ad_tree_delta *d = diff(b, a);
    assert_true(ad_tree_delta_unchanged(d));
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

static void test_added_and_removed_subtrees(void **state)
{
    (void)state;
    ad_node *b = form("L", "ann"), *a = form("L", "ann");
    fk_remove(fk_find(a, "group", NULL)); /* a subtree of four goes */
    ad_node_add_child(a, fk("dialog|n=Saved", fk("button|n=Close|a=Click", NULL), NULL));
    ad_tree_delta *d = diff(b, a);
    assert_int_equal(d->n_removed, 1);
    assert_string_equal(d->removed[0].before->role, "group");
    assert_int_equal(d->n_added, 1); /* the dialog, not its button again */
    assert_string_equal(d->added[0].after->name.text, "Saved");
    assert_int_equal(d->n_changed, 1); /* the window: children */
    assert_int_equal(d->changed[0].fields, AD_DIFF_CHILDREN);
    json_t *j = ad_tree_delta_json(d, NULL, NULL);
    json_t *r = json_array_get(json_object_get(j, "removed"), 0);
    assert_int_equal(json_integer_value(json_object_get(r, "removed_nodes")), 4);
    assert_false(json_is_true(json_object_get(j, "unchanged")));
    json_decref(j);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

static ad_node *option_row(const char *name)
{
    char spec[64];
    snprintf(spec, sizeof(spec), name ? "option|n=%s" : "option", name);
    return fk(spec, fk("statictext|n=cell", NULL), fk("image", NULL), NULL);
}

/* Consecutive siblings alike but for their place print as one entry with "siblings": N
 * (removed_nodes summed); a different sibling ends the run. */
static void test_alike_siblings_print_as_runs(void **state)
{
    (void)state;
    const char *names[7] = {NULL, NULL, "Named", NULL, NULL, NULL, NULL};
    ad_node *list = fk("list|n=Rows", NULL);
    for (int i = 0; i < 7; i++)
        ad_node_add_child(list, option_row(names[i]));
    ad_node *b = fk("window|n=W", list, fk("button|n=Keep|a=Click", NULL), NULL);
    ad_node *a = fk("window|n=W", fk("list|n=Rows", NULL),
                    fk("button|n=Keep|a=Click", NULL), NULL);
    ad_tree_delta *d = diff(b, a);
    assert_int_equal(d->n_removed, 7); /* the delta itself keeps one entry per node */
    json_t *j = ad_tree_delta_json(d, NULL, NULL);
    json_t *r = json_object_get(j, "removed");
    assert_int_equal(json_array_size(r), 3);
    json_t *first = json_array_get(r, 0), *named = json_array_get(r, 1),
           *rest = json_array_get(r, 2);
    assert_int_equal(json_integer_value(json_object_get(first, "siblings")), 2);
    assert_int_equal(json_integer_value(json_object_get(first, "removed_nodes")), 6);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(first, "path"), 1)), 0);
    assert_null(json_object_get(named, "siblings"));
    assert_string_equal(json_string_value(json_object_get(named, "name")), "Named");
    assert_int_equal(json_integer_value(json_object_get(rest, "siblings")), 4);
    assert_int_equal(json_integer_value(json_object_get(rest, "removed_nodes")), 12);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(rest, "path"), 1)), 3);
    json_decref(j);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

/* Twins with the same count pair by their order among themselves. */
static void test_twins_pair_in_order(void **state)
{
    (void)state;
    ad_node *b = fk("window|n=W", fk("textfield|v=1", NULL), fk("textfield|v=2", NULL), NULL);
    ad_node *a = fk("window|n=W", fk("textfield|v=1", NULL), fk("textfield|v=9", NULL), NULL);
    ad_tree_delta *d = diff(b, a);
    assert_int_equal(d->n_changed, 1);
    assert_int_equal(d->changed[0].fields, AD_DIFF_VALUE);
    assert_ptr_equal(d->changed[0].after, a->children[1]);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

/* Twins whose count changed are removed and added, never guessed as changed. */
static void test_twins_with_another_count_are_never_changed(void **state)
{
    (void)state;
    ad_node *b = fk("window|n=W", fk("button|n=x|a=Click", NULL),
                    fk("button|n=x|a=Click", NULL), NULL);
    ad_node *a = fk("window|n=W", fk("button|n=x|a=Click|s=focused", NULL), NULL);
    ad_tree_delta *d = diff(b, a);
    assert_int_equal(d->n_removed, 2);
    assert_int_equal(d->n_added, 1);
    assert_int_equal(d->n_changed, 1);
    assert_ptr_equal(d->changed[0].after, a); /* only the window's children */
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

/* A cut after read proves no removal: the child that was not read is unproven. */
static void test_cut_read_never_removes(void **state)
{
    (void)state;
    ad_node *b = form("L", "ann"), *a = form("L", "ann");
    ad_node *g = fk_find(a, "group", NULL);
    fk_remove(fk_find(a, "button", "OK"));
    g->children_cut = true;
    g->live_child_count = 3;
    ad_tree_diff_opts o = {.before_complete = true, .after_complete = false};
    ad_tree_delta *d = NULL;
    assert_int_equal(ad_tree_diff(b, a, &o, &d), 0);
    assert_int_equal(d->n_removed, 0);
    assert_int_equal(d->n_unproven, 1);
    assert_false(d->complete);
    assert_false(ad_tree_delta_unchanged(d));
    json_t *j = ad_tree_delta_json(d, NULL, NULL);
    assert_int_equal(json_integer_value(json_object_get(j, "unproven_count")), 1);
    assert_null(json_object_get(j, "removed"));
    json_decref(j);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

/* A cut before read proves no addition either. */
static void test_cut_before_read_never_adds(void **state)
{
    (void)state;
    ad_node *b = fk("window|n=W|cut=3", fk("button|n=A", NULL), NULL);
    ad_node *a = fk("window|n=W", fk("button|n=A", NULL), fk("button|n=B", NULL), NULL);
    ad_tree_delta *d = diff(b, a);
    assert_int_equal(d->n_added, 0);
    assert_int_equal(d->n_unproven, 1);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

/* An after child whose identity could not be read may be the one that seems gone. */
static void test_unknown_identity_is_unproven(void **state)
{
    (void)state;
    ad_node *b = fk("window|n=W", fk("button|n=A", NULL), fk("button|n=B", NULL), NULL);
    ad_node *a = fk("window|n=W", fk("button|n=A", NULL), fk("button|n?", NULL), NULL);
    ad_tree_delta *d = diff(b, a);
    assert_int_equal(d->n_removed, 0);
    assert_int_equal(d->n_added, 0);
    assert_int_equal(d->n_unproven, 2);
    assert_false(d->complete);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

/* A stored read keeps a long value as its mark; the mark compares with the live value. */
static void test_marked_values(void **state)
{
    (void)state;
    char longv[400], mark[AD_TREE_VALUE_MARK_SIZE];
    memset(longv, 'x', sizeof(longv) - 1);
    longv[sizeof(longv) - 1] = '\0';
    ad_tree_value_mark(longv, mark);
    assert_true(ad_tree_value_is_mark(mark));
    assert_false(ad_tree_value_is_mark(longv));
    ad_node *b = fk("window|n=W", fk("textfield|n=Log", NULL), NULL);
    ad_text_set(&b->children[0]->value, mark);
    ad_node *a = fk("window|n=W", fk("textfield|n=Log", NULL), NULL);
    ad_text_set(&a->children[0]->value, longv);
    ad_tree_delta *d = diff(b, a);
    assert_true(ad_tree_delta_unchanged(d));
    ad_tree_delta_free(d);
    longv[3] = 'y';
    ad_text_set(&a->children[0]->value, longv);
    d = diff(b, a);
    assert_int_equal(d->n_changed, 1);
    assert_int_equal(d->changed[0].fields, AD_DIFF_VALUE);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

static void test_bounds_only_when_asked(void **state)
{
    (void)state;
    ad_node *b = fk("window|n=W", fk("button|n=A|b=0,0,10,10", NULL), NULL);
    ad_node *a = fk("window|n=W", fk("button|n=A|b=5,0,10,10", NULL), NULL);
    ad_tree_delta *d = diff(b, a);
    assert_true(ad_tree_delta_unchanged(d));
    ad_tree_delta_free(d);
    ad_tree_diff_opts o = {.before_complete = true, .after_complete = true,
                           .compare_bounds = true};
    assert_int_equal(ad_tree_diff(b, a, &o, &d), 0);
    assert_int_equal(d->n_changed, 1);
    assert_int_equal(d->changed[0].fields, AD_DIFF_BOUNDS);
    ad_tree_delta_free(d);
    ad_node_free(b);
    ad_node_free(a);
}

static void test_field_names(void **state)
{
    (void)state;
    assert_string_equal(ad_diff_field_name(AD_DIFF_NAME), "name");
    assert_string_equal(ad_diff_field_name(AD_DIFF_CHILDREN), "children");
    assert_null(ad_diff_field_name(3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_tree_is_unchanged),
        cmocka_unit_test(test_renamed_label_is_changed_name),
        cmocka_unit_test(test_value_and_states_change),
        cmocka_unit_test(test_reordered_siblings_are_unchanged),
        cmocka_unit_test(test_added_and_removed_subtrees),
        cmocka_unit_test(test_alike_siblings_print_as_runs),
        cmocka_unit_test(test_twins_pair_in_order),
        cmocka_unit_test(test_twins_with_another_count_are_never_changed),
        cmocka_unit_test(test_cut_read_never_removes),
        cmocka_unit_test(test_cut_before_read_never_adds),
        cmocka_unit_test(test_unknown_identity_is_unproven),
        cmocka_unit_test(test_marked_values),
        cmocka_unit_test(test_bounds_only_when_asked),
        cmocka_unit_test(test_field_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
