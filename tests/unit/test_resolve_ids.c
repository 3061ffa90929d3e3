/* test_resolve_ids.c: a live resolution reads native ids only where they can decide the
 * result (identity.c, rule 8): the nodes that may carry one of the entry's identities. Every
 * outcome must stay what a read of every id gives: twins still fail closed, a ref captured
 * without an id still resolves, an id that cannot be read leaves the count unproven. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "resolve_bed.h"

/* 13 nodes; two unnamed toolbars (an anchor's container), one button with an id. */
static ad_node *window_tree(void)
{
    return fk("window|n=Calc",
              fk("toolbar", fk("button|n=Bold|a=Click", NULL), fk("button|n=Italic|a=Click", NULL),
                 NULL),
              fk("toolbar", fk("button|n=Undo|a=Click", NULL), NULL),
              fk("group|n=Keys", fk("button|n=7|id=calc_7|a=Click", NULL),
                 fk("button|n=OK|a=Click", NULL), fk("textfield|n=Display|v=0", NULL),
                 fk("button|n=Same|id=twin_a|a=Click", NULL),
                 fk("button|n=Same|id=twin_b|a=Click", NULL), NULL),
              fk("statictext|n=Status", NULL), NULL);
}

typedef tu_resolve_bed live;

static int setup(void **state)
{
    *state = tu_resolve_bed_new(window_tree());
    return 0;
}

static int teardown(void **state)
{
    tu_resolve_bed_free(*state);
    return 0;
}

/* A unique entry for (role, name), with native_id when given (stolen by the caller). */
static json_t *entry(const char *role, const char *name, const char *native_id)
{
    json_t *e = json_pack("{s:s, s:b}", "role", role, "unique_at_capture", 1);
    if (name)
        json_object_set_new(e, "name", json_string(name));
    if (native_id)
        json_object_set_new(e, "native_id", json_string(native_id));
    return e;
}

/* Loads e (stolen) as @s1abc:e1 of window w-fake-1 and resolves it; all_ids: the read that
 * presents the tree (ad_resolve_live_bounds), else the one that acts (ad_resolve_live). */
static int resolve(live *l, json_t *e, bool all_ids)
{
    tu_resolve_bed_load(l, e);
    int64_t deadline = ad_now_us() + 1000000;
    return all_ids ? ad_resolve_live_bounds(&l->ctx, &l->r, deadline, false, &l->err)
                   : ad_resolve_live(&l->ctx, &l->r, deadline, &l->err);
}

static const char *kind(const ad_error *err)
{
    return json_string_value(json_object_get(err->details, "kind"));
}

static void test_acting_reads_the_id_of_the_candidates_only(void **state)
{
    live *l = *state;
    assert_int_equal(resolve(l, entry("button", "OK", NULL), false), 0);
    assert_string_equal(ad_text_get(&l->r.node->name), "OK");
    /* Only the one button named OK could carry the identity. */
    assert_int_equal(l->fake->n_native_id_reads, 1);
    assert_false(l->r.node->native_id_unread);
    assert_int_equal(l->r.node->native_id.state, AD_FIELD_ABSENT);
}

static void test_presenting_reads_every_id(void **state)
{
    live *l = *state;
    assert_int_equal(resolve(l, entry("button", "OK", NULL), true), 0);
    assert_int_equal(l->fake->n_native_id_reads, 13);
}

static void test_twins_told_apart_by_their_ids(void **state)
{
    live *l = *state;
    assert_int_equal(resolve(l, entry("button", "Same", "twin_b"), false), 0);
    assert_string_equal(ad_text_get(&l->r.node->native_id), "twin_b");
    assert_int_equal(l->fake->n_native_id_reads, 2);
}

static void test_an_entry_without_id_does_not_land_on_a_twin_with_one(void **state)
{
    live *l = *state;
    /* Both live twins carry an id the entry does not: no match, as with every id read. */
    assert_int_equal(resolve(l, entry("button", "Same", NULL), false), -1);
    assert_int_equal(l->err.code, AD_STALE_REF);
    assert_string_equal(kind(&l->err), "saved_ref_absent");
}

static void test_twins_without_ids_still_fail_closed(void **state)
{
    live *l = *state;
    fk_insert(l->fake->wins[0].root, 0, fk("button|n=OK|a=Click", NULL));
    assert_int_equal(resolve(l, entry("button", "OK", NULL), false), -1);
    assert_int_equal(l->err.code, AD_AMBIGUOUS_TARGET);
    assert_string_equal(kind(&l->err), "saved_ref_ambiguous");
    assert_int_equal(l->fake->n_native_id_reads, 2);
}

static void test_a_changed_id_is_still_a_miss(void **state)
{
    live *l = *state;
    assert_int_equal(resolve(l, entry("button", "7", "calc_8"), false), -1);
    assert_int_equal(l->err.code, AD_STALE_REF);
    assert_string_equal(kind(&l->err), "saved_ref_absent");
}

static void test_an_unreadable_candidate_id_is_unproven(void **state)
{
    live *l = *state;
    fk_insert(l->fake->wins[0].root, 0, fk("button|n=OK|id?", NULL));
    assert_int_equal(resolve(l, entry("button", "OK", NULL), false), -1);
    assert_int_equal(l->err.code, AD_TIMEOUT);
    assert_string_equal(kind(&l->err), "resolution_identity_unknown");
}

static void test_an_anchor_reads_the_ids_on_its_way(void **state)
{
    live *l = *state;
    json_t *e = entry("toolbar", NULL, NULL);
    json_object_set_new(e, "anchor",
                        json_pack("{s:s, s:s, s:i, s:[]}", "role", "button", "name", "Bold",
                                  "hops", 1, "between"));
    assert_int_equal(resolve(l, e, false), 0);
    assert_string_equal(l->r.node->role, "toolbar");
    assert_string_equal(ad_text_get(&l->r.node->children[0]->name), "Bold");
    /* The anchor Bold and the two unnamed toolbars. */
    assert_int_equal(l->fake->n_native_id_reads, 3);
}

/* Rule 8 itself: an unread id never matches; it is a miss when another field differs and
 * unproven when only the id could tell; an identity index counts it as unknown. */
static void test_an_unread_id_never_matches(void **state)
{
    (void)state;
    ad_node *root = fk("window", fk("button|n=OK", NULL), fk("button|n=Cancel", NULL), NULL);
    for (size_t i = 0; i < 2; i++) {
        ad_text_unknown(&root->children[i]->native_id);
        root->children[i]->native_id_unread = true;
    }
    ad_identity want = {.role = "button", .name = "OK"};
    assert_false(ad_identity_matches(root->children[0], &want));
    assert_true(ad_identity_unproven(root->children[0], &want));
    assert_false(ad_identity_unproven(root->children[1], &want));
    assert_false(ad_identity_matches(root->children[1], &want));
    assert_true(ad_identity_could_match(root->children[0], &want));
    assert_false(ad_identity_could_match(root->children[1], &want));
    ad_identity_index *idx = ad_identity_index_build(root);
    assert_false(ad_identity_unique(idx, root->children[1]));
    ad_identity_index_free(idx);
    ad_node_free(root);
}

int main(void)
{
#define L(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        L(test_acting_reads_the_id_of_the_candidates_only),
        L(test_presenting_reads_every_id),
        L(test_twins_told_apart_by_their_ids),
        L(test_an_entry_without_id_does_not_land_on_a_twin_with_one),
        L(test_twins_without_ids_still_fail_closed),
        L(test_a_changed_id_is_still_a_miss),
        L(test_an_unreadable_candidate_id_is_unproven),
        L(test_an_anchor_reads_the_ids_on_its_way),
        cmocka_unit_test(test_an_unread_id_never_matches),
    };
    return cmocka_run_group_tests_name("resolve_ids", tests, NULL, NULL);
}
