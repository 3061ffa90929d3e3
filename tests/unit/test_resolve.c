/* test_resolve.c: strict ref resolution (snapshots-and-refs.md, "How a ref resolves"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/present.h"
#include "core/refstore.h"
#include "core/resolve.h"
#include "resolve_bed.h"

/* The calculator-ish window every test starts from. Twin toolbars get anchors. */
static ad_node *calc_tree(void)
{
    return fk("window|n=Calc",
              fk("toolbar", fk("button|n=Bold|a=Click", NULL), fk("button|n=Italic|a=Click", NULL),
                 NULL),
              fk("toolbar", fk("row", fk("button|n=Undo|a=Click", NULL), NULL), NULL),
              fk("group|n=Keys", fk("button|n=7|id=calc_7|a=Click", NULL),
                 fk("button|n=OK|a=Click", NULL), fk("textfield|n=Display|v=0", NULL), NULL),
              fk("statictext|n=Status", NULL), NULL);
}

/* A saved entry for (role, name), unique at capture. */
static json_t *entry(const char *role, const char *name)
{
    return json_pack("{s:s, s:s*, s:b}", "role", role, "name", name, "unique_at_capture", 1);
}

static json_t *anchored(const char *role, const char *name, const char *anchor_name, int hops)
{
    json_t *e = entry(role, name);
    json_object_set_new(e, "anchor", json_pack("{s:s, s:s, s:i}", "role", "button", "name",
                                               anchor_name, "hops", hops));
    return e;
}

/* ---- step 6 on a given tree ------------------------------------------------------------- */

typedef struct {
    ad_tree tree;
    ad_identity_index *idx;
    ad_node *node;
    ad_error err;
    int rc;
} in_tree;

/* Resolves entry (stolen) against root (owned by the result). */
static in_tree resolve_in(ad_node *root, bool complete, json_t *e)
{
    in_tree r = {.tree = {.root = root, .complete = complete,
                          .cut_reason = complete ? NULL : "deadline"}};
    r.idx = ad_identity_index_build(root);
    r.rc = ad_resolve_in_tree(e, &r.tree, r.idx, "@s1abc:e1", &r.node, &r.err);
    json_decref(e);
    return r;
}

static void in_tree_clear(in_tree *r)
{
    ad_tree_clear(&r->tree);
    ad_identity_index_free(r->idx);
    ad_error_clear(&r->err);
}

static void expect_error(const ad_error *err, ad_error_code code, const char *kind)
{
    assert_int_equal(err->code, code);
    assert_string_equal(json_string_value(json_object_get(err->details, "kind")), kind);
}

static const char *recovery_strategy(const ad_error *err, json_t **hold)
{
    *hold = ad_error_to_json(err);
    return tu_str(*hold, "recovery.strategy");
}

/* ---- landing on a recorded path (the C library's native handles) ------------------------ */

/* Lands entry (stolen) with path `path` on root (owned by the result). */
static in_tree land(ad_node *root, bool complete, json_t *e, json_t *path)
{
    in_tree r = {.tree = {.root = root, .complete = complete,
                          .cut_reason = complete ? NULL : "deadline"}};
    json_object_set_new(e, "path", path);
    r.rc = ad_resolve_by_path(e, &r.tree, "@s1abc:e1", &r.node, &r.err);
    json_decref(e);
    return r;
}

static void test_by_path_lands_on_one_of_twins(void **state)
{
    (void)state;
    /* Two toolbars hold the same Bold button: identity alone is ambiguous, the path is not. */
    ad_node *root = fk("window|n=W", fk("toolbar", fk("button|n=Bold|a=Click", NULL), NULL),
                       fk("toolbar", fk("button|n=Bold|a=Click", NULL), NULL), NULL);
    ad_node *second = root->children[1]->children[0];
    in_tree r = land(root, true, entry("button", "Bold"), json_pack("[i, i]", 1, 0));
    assert_int_equal(r.rc, 0);
    assert_ptr_equal(r.node, second);
    in_tree_clear(&r);
}

static void test_by_path_refuses_another_element(void **state)
{
    (void)state;
    /* The path now leads to Italic: STALE_REF, never the element that took its place. */
    in_tree r = land(calc_tree(), true, entry("button", "Bold"), json_pack("[i, i]", 0, 1));
    assert_int_equal(r.rc, -1);
    assert_null(r.node);
    expect_error(&r.err, AD_STALE_REF, "saved_ref_absent");
    in_tree_clear(&r);
    r = land(calc_tree(), true, entry("button", "Bold"), json_pack("[i, i]", 0, 7));
    expect_error(&r.err, AD_STALE_REF, "saved_ref_absent");
    in_tree_clear(&r);
    /* A path cut off by an incomplete read proves no absence. */
    r = land(calc_tree(), false, entry("button", "Bold"), json_pack("[i, i]", 0, 7));
    expect_error(&r.err, AD_TIMEOUT, "resolution_identity_unknown");
    in_tree_clear(&r);
}

static void test_resolves_the_one_live_match(void **state)
{
    (void)state;
    in_tree r = resolve_in(calc_tree(), true, entry("button", "OK"));
    assert_int_equal(r.rc, 0);
    assert_ptr_equal(r.node, fk_find(r.tree.root, "button", "OK"));
    in_tree_clear(&r);

    json_t *e = entry("button", "7");
    json_object_set_new(e, "native_id", json_string("calc_7"));
    r = resolve_in(calc_tree(), true, e);
    assert_int_equal(r.rc, 0);
    assert_ptr_equal(r.node, fk_find_id(r.tree.root, "calc_7"));
    in_tree_clear(&r);
}

static void test_values_and_bounds_are_not_identity(void **state)
{
    (void)state;
    ad_node *root = calc_tree();
    ad_node *display = fk_find(root, "textfield", "Display");
    ad_text_set(&display->value, "12345");
    display->bounds_state = AD_FIELD_KNOWN;
    display->bounds = (ad_rect){5, 5, 5, 5};
    json_t *e = entry("textfield", "Display");
    json_object_set_new(e, "value", json_string("0"));
    json_object_set_new(e, "bounds", json_pack("{s:f,s:f,s:f,s:f}", "x", 100.0, "y", 100.0,
                                               "width", 50.0, "height", 20.0));
    in_tree r = resolve_in(root, true, e);
    assert_int_equal(r.rc, 0);
    assert_ptr_equal(r.node, display);
    in_tree_clear(&r);
}

static void test_saved_ref_absent(void **state)
{
    (void)state;
    ad_node *root = calc_tree();
    fk_remove(fk_find(root, "button", "OK"));
    in_tree r = resolve_in(root, true, entry("button", "OK"));
    assert_int_equal(r.rc, -1);
    expect_error(&r.err, AD_STALE_REF, "saved_ref_absent");
    json_t *j;
    assert_string_equal(recovery_strategy(&r.err, &j), "refresh_snapshot_then_retry_original");
    json_decref(j);
    in_tree_clear(&r);

    /* A rename is the same: the identity is gone. */
    root = calc_tree();
    fk_rename(fk_find(root, "button", "OK"), "Okay");
    r = resolve_in(root, true, entry("button", "OK"));
    expect_error(&r.err, AD_STALE_REF, "saved_ref_absent");
    in_tree_clear(&r);
}

static void test_saved_ref_ambiguous_when_a_twin_appears(void **state)
{
    (void)state;
    ad_node *root = calc_tree();
    fk_insert(fk_find(root, "group", "Keys"), 0, fk("button|n=OK", NULL));
    in_tree r = resolve_in(root, true, entry("button", "OK"));
    assert_int_equal(r.rc, -1);
    expect_error(&r.err, AD_AMBIGUOUS_TARGET, "saved_ref_ambiguous");
    assert_int_equal(json_integer_value(json_object_get(r.err.details, "match_count")), 2);
    json_t *j;
    assert_null(recovery_strategy(&r.err, &j));
    json_decref(j);
    in_tree_clear(&r);

    /* Two matches are proof enough even in a cut read. */
    root = calc_tree();
    fk_insert(root, 0, fk("button|n=OK", NULL));
    r = resolve_in(root, false, entry("button", "OK"));
    expect_error(&r.err, AD_AMBIGUOUS_TARGET, "saved_ref_ambiguous");
    in_tree_clear(&r);
}

static void test_unknown_identity_of_the_same_role_is_unproven(void **state)
{
    (void)state;
    ad_node *root = calc_tree();
    fk_insert(root, 0, fk("button|n?", NULL));
    in_tree r = resolve_in(root, true, entry("button", "OK"));
    assert_int_equal(r.rc, -1);
    expect_error(&r.err, AD_TIMEOUT, "resolution_identity_unknown");
    json_t *j;
    assert_string_equal(recovery_strategy(&r.err, &j), "inspect_state_then_retry_original");
    assert_int_equal(tu_int(j, "recovery.retry_after_ms"), 250);
    json_decref(j);
    in_tree_clear(&r);

    /* An unknown field on another role cannot hide a button. */
    root = calc_tree();
    fk_insert(root, 0, fk("statictext|n?|d?", NULL));
    r = resolve_in(root, true, entry("button", "OK"));
    assert_int_equal(r.rc, 0);
    in_tree_clear(&r);
}

static void test_incomplete_read_is_unproven(void **state)
{
    (void)state;
    in_tree r = resolve_in(calc_tree(), false, entry("button", "OK"));
    assert_int_equal(r.rc, -1);
    expect_error(&r.err, AD_TIMEOUT, "resolution_identity_unknown");
    assert_string_equal(json_string_value(json_object_get(r.err.details, "cut_reason")),
                        "deadline");
    in_tree_clear(&r);
}

static void test_anchor_walks_up_to_the_container(void **state)
{
    (void)state;
    in_tree r = resolve_in(calc_tree(), true, anchored("toolbar", NULL, "Bold", 1));
    assert_int_equal(r.rc, 0);
    assert_ptr_equal(r.node, r.tree.root->children[0]);
    in_tree_clear(&r);

    r = resolve_in(calc_tree(), true, anchored("toolbar", NULL, "Undo", 2));
    assert_int_equal(r.rc, 0);
    assert_ptr_equal(r.node, r.tree.root->children[1]);
    in_tree_clear(&r);
}

static void test_anchor_detects_a_changed_container(void **state)
{
    (void)state;
    /* Bold moved from its toolbar into the Keys group: one hop up is no longer a toolbar. */
    ad_node *root = calc_tree();
    ad_node *bold = fk_detach(fk_find(root, "button", "Bold"));
    fk_insert(fk_find(root, "group", "Keys"), 0, bold);
    in_tree r = resolve_in(root, true, anchored("toolbar", NULL, "Bold", 1));
    assert_int_equal(r.rc, -1);
    expect_error(&r.err, AD_STALE_REF, "saved_ref_absent");
    in_tree_clear(&r);

    /* More hops than the live tree has: nothing there. */
    r = resolve_in(calc_tree(), true, anchored("toolbar", NULL, "Bold", 5));
    expect_error(&r.err, AD_STALE_REF, "saved_ref_absent");
    in_tree_clear(&r);

    /* The anchor itself gone, or doubled. */
    root = calc_tree();
    fk_remove(fk_find(root, "button", "Bold"));
    r = resolve_in(root, true, anchored("toolbar", NULL, "Bold", 1));
    expect_error(&r.err, AD_STALE_REF, "saved_ref_absent");
    in_tree_clear(&r);
    root = calc_tree();
    fk_insert(root, 0, fk("button|n=Bold", NULL));
    r = resolve_in(root, true, anchored("toolbar", NULL, "Bold", 1));
    expect_error(&r.err, AD_AMBIGUOUS_TARGET, "saved_ref_ambiguous");
    in_tree_clear(&r);
}

static void test_anchor_container_with_unknown_identity_is_unproven(void **state)
{
    (void)state;
    /* Regression (was a bug): ad_resolve_in_tree checks the anchor's container with ad_identity_matches, which
     * reads an unknown name as absent. Here the container was captured as group "Row" (twins,
     * so it got an anchor) and its live name could not be read: the match can be neither
     * proven nor refuted, so step 6 says TIMEOUT resolution_identity_unknown. resolve.c
     * returns STALE_REF saved_ref_absent instead (and, for a container captured without a
     * name, resolves to it as if the unknown name were absent). */
    ad_node *root = fk("window|n=W",
                       fk("group|n?", fk("button|n=Bold", NULL), NULL),
                       fk("group|n=Row", fk("button|n=Italic", NULL), NULL), NULL);
    in_tree r = resolve_in(root, true, anchored("group", "Row", "Bold", 1));
    assert_int_equal(r.rc, -1);
    expect_error(&r.err, AD_TIMEOUT, "resolution_identity_unknown");
    in_tree_clear(&r);
}

/* ---- steps 4-6 through the adapter ------------------------------------------------------- */

typedef tu_resolve_bed live;

static int live_setup(void **state)
{
    *state = tu_resolve_bed_new(calc_tree());
    return 0;
}

static int live_teardown(void **state)
{
    tu_resolve_bed_free(*state);
    return 0;
}

/* Loads e (stolen) as @s1abc:e1 and runs the live steps. */
static int resolve_live(live *l, json_t *e)
{
    tu_resolve_bed_load(l, e);
    return ad_resolve_live(&l->ctx, &l->r, ad_now_us() + 1000000, &l->err);
}

static void test_live_resolved(void **state)
{
    live *l = *state;
    assert_int_equal(resolve_live(l, entry("button", "OK")), 0);
    assert_string_equal(l->r.node->role, "button");
    assert_string_equal(ad_text_get(&l->r.node->name), "OK");
    assert_string_equal(l->r.window.id, "w-fake-1");
    assert_int_equal(l->fake->n_process_alive, 1);
    assert_int_equal(l->fake->n_read_window, 1);
}

static void test_live_not_unique_fails_before_any_read(void **state)
{
    live *l = *state;
    json_t *e = entry("button", "OK");
    json_object_set_new(e, "unique_at_capture", json_false());
    assert_int_equal(resolve_live(l, e), -1);
    expect_error(&l->err, AD_AMBIGUOUS_TARGET, "identity_not_unique");
    assert_non_null(strstr(l->err.suggestion, "mouse-click --xy"));
    assert_int_equal(l->fake->n_process_alive, 0);
    assert_int_equal(l->fake->n_window_lookup, 0);
    assert_int_equal(l->fake->n_read_window, 0);
}

static void test_live_process_exited(void **state)
{
    live *l = *state;
    fake_kill(l->fake, 42);
    assert_int_equal(resolve_live(l, entry("button", "OK")), -1);
    expect_error(&l->err, AD_STALE_REF, "process_exited");
    assert_string_equal(json_string_value(json_object_get(l->err.details, "process_state")),
                        "exited");
    json_t *j;
    assert_string_equal(recovery_strategy(&l->err, &j), "inspect_state_then_retry_original");
    json_decref(j);
    assert_int_equal(l->fake->n_read_window, 0);
}

static void test_live_reused_pid_is_an_exited_process(void **state)
{
    live *l = *state;
    free(l->fake->apps[0].app.process_instance);
    l->fake->apps[0].app.process_instance = strdup("boot:2"); /* same pid, new process */
    assert_int_equal(resolve_live(l, entry("button", "OK")), -1);
    expect_error(&l->err, AD_STALE_REF, "process_exited");
    assert_int_equal(l->fake->n_read_window, 0);
}

static void test_live_window_closed(void **state)
{
    live *l = *state;
    /* Regression (was a bug): the window the ref was captured in closed while its process
     * runs on (a dialog's OK after the dialog went). The lookup's WINDOW_NOT_FOUND was passed
     * on as is; snapshots-and-refs.md lists "the window closed" under STALE_REF, whose
     * recovery is a fresh snapshot. */
    l->fake->wins[0].closed = true;
    assert_int_equal(resolve_live(l, entry("button", "OK")), -1);
    expect_error(&l->err, AD_STALE_REF, "window_closed");
    assert_null(json_object_get(l->err.details, "process_state"));
    json_t *j;
    assert_string_equal(recovery_strategy(&l->err, &j), "refresh_snapshot_then_retry_original");
    assert_string_equal(tu_str(j, "disposition.delivery"), "not_delivered");
    json_decref(j);
    assert_int_equal(l->fake->n_read_window, 0);
}

static void test_live_window_owned_by_another_process(void **state)
{
    live *l = *state;
    l->fake->wins[0].w.pid = 43;
    assert_int_equal(resolve_live(l, entry("button", "OK")), -1);
    expect_error(&l->err, AD_STALE_REF, "process_exited");
}

static void test_live_incomplete_read(void **state)
{
    live *l = *state;
    l->fake->wins[0].complete = false;
    assert_int_equal(resolve_live(l, entry("button", "OK")), -1);
    expect_error(&l->err, AD_TIMEOUT, "resolution_identity_unknown");
    assert_int_equal(l->fake->n_read_window, 1);
}

static void test_live_twin_appears_later(void **state)
{
    live *l = *state;
    fk_insert(l->fake->wins[0].root, 0, fk("button|n=OK", NULL));
    assert_int_equal(resolve_live(l, entry("button", "OK")), -1);
    expect_error(&l->err, AD_AMBIGUOUS_TARGET, "saved_ref_ambiguous");
}

/* ---- steps 1-3: the token and the saved snapshot ----------------------------------------- */

static void test_load_steps(void **state)
{
    live *l = *state;
    json_t *map = tu_resolve_refmap(entry("button", "OK"));
    assert_int_equal(ad_refstore_save(&l->ctx, map, &l->err), 0);
    json_decref(map);

    assert_int_equal(ad_resolve_ref(&l->ctx, "@s1abc:e1", ad_now_us() + 1000000, &l->r,
                                    &l->err), 0);
    assert_string_equal(ad_text_get(&l->r.node->name), "OK");
    assert_string_equal(l->r.key, "@e1");
    ad_resolved_clear(&l->r);

    assert_int_equal(ad_resolve_load(&l->ctx, "@s1abc:e9", &l->r, &l->err), -1);
    expect_error(&l->err, AD_STALE_REF, "ref_not_in_refmap");
    assert_string_equal(l->err.message, "@s1abc:e9 not found in current RefMap");
    ad_resolved_clear(&l->r);
    assert_int_equal(ad_resolve_load(&l->ctx, "@s404:e1", &l->r, &l->err), -1);
    assert_int_equal(l->err.code, AD_SNAPSHOT_NOT_FOUND);
    ad_resolved_clear(&l->r);
    assert_int_equal(ad_resolve_load(&l->ctx, "@e1", &l->r, &l->err), -1);
    assert_int_equal(l->err.code, AD_INVALID_ARGS);
    assert_int_equal(l->fake->n_read_window, 1); /* only the one successful resolution */
}


/* ---- identity rules (identity.c) -------------------------------------------------------- */

/* The entry a snapshot of `root` saves for `n`, which must be unique over the whole read. */
static json_t *captured_entry(ad_node *root, const ad_node *n)
{
    static ad_window win = {.id = "w-fake-1", .title = "Calc", .app_name = "calc", .pid = 42,
                            .process_instance = "boot:1"};
    ad_present_source src = {.window = &win, .app_name = "calc", .surface = "window",
                             .identity_proven = true};
    ad_identity_index *idx = ad_identity_index_build(root);
    json_t *e = ad_ref_entry_new(n, idx, &src, false);
    ad_identity_index_free(idx);
    assert_true(json_is_true(json_object_get(e, "unique_at_capture")));
    return e;
}

/* Two gtk3-widget-factory scales: the one that draws its value describes itself with that
 * text ("50.0"), its insensitive twin with " ". */
static ad_node *scales_tree(const char *drawn, const char *value)
{
    char spec[128];
    snprintf(spec, sizeof(spec), "slider|d=%s|v=%s|a=SetValue", drawn, value);
    return fk("window|n=Factory", fk(spec, NULL), fk("slider|d= |v=50|a=SetValue|s=disabled",
                                                      NULL),
              fk("slider|d=Volume|v=3|a=SetValue", NULL), NULL);
}

/* Regression (issue 7 item 11): set-value 42 on the scale turned its description into
 * "42.0" and the ref went stale (saved_ref_absent). Rule 5: that description is state. */
static void test_a_description_that_shows_the_value_is_state(void **state)
{
    (void)state;
    ad_node *before = scales_tree("50.0", "50");
    json_t *e = captured_entry(before, before->children[0]);
    assert_null(json_object_get(e, "description"));
    assert_true(json_is_true(json_object_get(e, "description_shows_value")));
    ad_node_free(before);
    in_tree r = resolve_in(scales_tree("42.0", "42"), true, e);
    assert_int_equal(r.rc, 0);
    assert_ptr_equal(r.node, r.tree.root->children[0]);
    in_tree_clear(&r);
    /* Rounded to the description's precision, and a comma locale. */
    ad_node *t = scales_tree("42,4", "42.37");
    ad_identity id = ad_identity_of(t->children[0]);
    assert_null(id.description);
    assert_true(id.description_shows_value);
    ad_node_free(t);
    /* A description that is not the value stays identity, the blank one too. */
    t = scales_tree("51.0", "50");
    id = ad_identity_of(t->children[0]);
    assert_string_equal(id.description, "51.0");
    assert_false(id.description_shows_value);
    id = ad_identity_of(t->children[2]);
    assert_string_equal(id.description, "Volume");
    id = ad_identity_of(t->children[1]);
    assert_string_equal(id.description, " ");
    ad_node_free(t);
}

/* Rule 5 applies to value-bearing roles only; rule 6: unknown value, undecidable identity. */
static void test_description_rules_by_role_and_unknown_value(void **state)
{
    (void)state;
    ad_node *t = fk("window", fk("button|n=Go|d=50|v=50|a=Click", NULL),
                    fk("slider|d=50.0|v?|a=SetValue", NULL),
                    fk("incrementor|d=7|v=7|a=SetValue", NULL),
                    fk("textfield|d=hello|v=hello", NULL), NULL);
    assert_string_equal(ad_identity_of(t->children[0]).description, "50");
    assert_false(ad_identity_unknown(t->children[0]));
    /* Its value unread, the slider keeps its description, and a saved identity that relied
     * on rule 5 can neither match nor miss it. */
    assert_false(ad_identity_unknown(t->children[1]));
    assert_string_equal(ad_identity_of(t->children[1]).description, "50.0");
    ad_identity saved = {.role = "slider", .description_shows_value = true};
    assert_true(ad_identity_unproven(t->children[1], &saved));
    saved = (ad_identity){.role = "slider", .description = "50.0"};
    assert_false(ad_identity_unproven(t->children[1], &saved));
    assert_true(ad_identity_of(t->children[2]).description_shows_value);
    assert_true(ad_identity_of(t->children[3]).description_shows_value);
    ad_node_free(t);
}

/* Rules 3 to 5 on names. A toolkit class tells two unnamed fields apart (gnome-calculator
 * 43: display GtkSourceView, history GtkTextView) and never shows as a name. A name stays
 * identity even when it shows the value: an unnamed GTK3 GtkComboBox is named after its
 * active item, and gtk3-widget-factory has three of them; as state they would all be twins. */
static void test_names_in_identity(void **state)
{
    (void)state;
    ad_node *t = fk("window|n=Calculator", fk("textfield|n=GtkSourceView|a=SetValue", NULL),
                    fk("textfield|n=GtkTextView|s=readonly", NULL),
                    fk("combobox|n=Left|v=Left|a=Select", NULL),
                    fk("combobox|n=Middle|v=Middle|a=Select", NULL), NULL);
    json_t *combo = captured_entry(t, t->children[2]);
    assert_string_equal(json_string_value(json_object_get(combo, "name")), "Left");
    json_decref(combo);
    json_t *e = captured_entry(t, t->children[0]);
    assert_null(json_object_get(e, "name"));
    assert_string_equal(json_string_value(json_object_get(e, "toolkit_class")), "GtkSourceView");
    in_tree r = resolve_in(t, true, e);
    assert_int_equal(r.rc, 0);
    assert_ptr_equal(r.node, r.tree.root->children[0]);
    in_tree_clear(&r);
}

int main(void)
{
#define L(fn) cmocka_unit_test_setup_teardown(fn, live_setup, live_teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolves_the_one_live_match),
        cmocka_unit_test(test_by_path_lands_on_one_of_twins),
        cmocka_unit_test(test_by_path_refuses_another_element),
        cmocka_unit_test(test_values_and_bounds_are_not_identity),
        cmocka_unit_test(test_a_description_that_shows_the_value_is_state),
        cmocka_unit_test(test_description_rules_by_role_and_unknown_value),
        cmocka_unit_test(test_names_in_identity),
        cmocka_unit_test(test_saved_ref_absent),
        cmocka_unit_test(test_saved_ref_ambiguous_when_a_twin_appears),
        cmocka_unit_test(test_unknown_identity_of_the_same_role_is_unproven),
        cmocka_unit_test(test_incomplete_read_is_unproven),
        cmocka_unit_test(test_anchor_walks_up_to_the_container),
        cmocka_unit_test(test_anchor_detects_a_changed_container),
        cmocka_unit_test(test_anchor_container_with_unknown_identity_is_unproven),
        L(test_live_resolved),
        L(test_live_not_unique_fails_before_any_read),
        L(test_live_process_exited),
        L(test_live_reused_pid_is_an_exited_process),
        L(test_live_window_closed),
        L(test_live_window_owned_by_another_process),
        L(test_live_incomplete_read),
        L(test_live_twin_appears_later),
        L(test_load_steps),
    };
    return cmocka_run_group_tests_name("resolve", tests, NULL, NULL);
}
