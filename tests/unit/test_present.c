/* test_present.c: snapshot presentation, ref allocation, drill targets and ref entries
 * (snapshots-and-refs.md, skeleton-and-drill-down.md, the rules at the top of present.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/present.h"
#include "core/refmap_codec.h"
#include "fake_adapter.h"
#include "test_util.h"

static ad_window WIN = {.id = "w-fake-1", .title = "Calc", .app_name = "calc", .pid = 42,
                        .process_instance = "boot:1", .bounds_known = true,
                        .bounds = {0, 0, 800, 600}};

typedef struct {
    ad_node *root;
    ad_identity_index *idx;
    json_t *refs; /* "@eN" -> entry */
    json_t *tree;
    uint64_t next;
    size_t added;
} pres;

/* The same presentation with its refs coded as they are made (opts.ref_sink, what a plain
 * snapshot does): the tree must be byte for byte the one `tree` is, and the refmap bytes
 * those ad_refmap_encode writes from the collected `refs`. Every tree of this file passes
 * through here. */
static void assert_streamed_refs_match(const ad_node *at, const ad_identity_index *idx,
                                       ad_present_opts o, const ad_present_source *src,
                                       uint64_t first, const json_t *tree, const json_t *refs)
{
    ad_refmap_writer *w = ad_refmap_writer_new();
    assert_non_null(w);
    o.ref_sink = w;
    uint64_t next = first;
    ad_present_result r = {0};
    assert_int_equal(ad_present(at, idx, &o, src, "s1test", NULL, &next, &r), 0);
    char *a = json_dumps(tree, AD_JSON_OUTPUT_FLAGS), *b = json_dumps(r.tree, AD_JSON_OUTPUT_FLAGS);
    assert_string_equal(a, b);
    free(a);
    free(b);
    json_t *header = json_pack("{s:s, s:I}", "snapshot_id", "s1test", "next_ref", (json_int_t)next);
    json_t *map = json_copy(header);
    json_object_set_new(map, "refs", json_deep_copy(refs));
    size_t len_streamed = 0, len_collected = 0;
    unsigned char *streamed = ad_refmap_writer_finish(w, header, &len_streamed);
    unsigned char *collected = ad_refmap_encode(map, &len_collected);
    assert_non_null(streamed);
    assert_non_null(collected);
    assert_int_equal(len_streamed, len_collected);
    assert_memory_equal(streamed, collected, len_collected);
    free(streamed);
    free(collected);
    json_decref(map);
    json_decref(header);
    json_decref(r.tree);
    free(r.ref_nodes);
    ad_refmap_writer_free(w);
}

/* Presents `at` (a node of root, or root itself) and keeps everything for assertions. */
static pres present_at(ad_node *root, const ad_node *at, ad_present_opts o, bool proven,
                       const char *root_key, uint64_t first)
{
    pres p = {.root = root, .refs = json_object(), .next = first};
    p.idx = ad_identity_index_build(root);
    ad_present_source src = {.window = &WIN, .app_name = "calc", .surface = "window",
                             .identity_proven = proven, .root_ref_key = root_key};
    ad_present_result r = {0};
    assert_int_equal(ad_present(at, p.idx, &o, &src, "s1test", p.refs, &p.next, &r), 0);
    p.tree = r.tree;
    p.added = r.refs_added;
    free(r.ref_nodes);
    assert_streamed_refs_match(at, p.idx, o, &src, first, p.tree, p.refs);
    return p;
}

static pres present(ad_node *root, int max_depth)
{
    return present_at(root, root, (ad_present_opts){.max_depth = max_depth}, true, NULL, 1);
}

static void pres_free(pres *p)
{
    json_decref(p->tree);
    json_decref(p->refs);
    ad_identity_index_free(p->idx);
    ad_node_free(p->root);
}

static json_t *node(const pres *p, const char *name)
{
    json_t *n = tu_node_named(p->tree, name);
    if (!n)
        fail_msg("no node named '%s' in the presented tree", name);
    return n;
}

static const char *ref_of(const pres *p, const char *name)
{
    return tu_str(node(p, name), "ref_id");
}

/* The refmap entry behind a node's ref_id. */
static json_t *entry_of(const pres *p, const char *name)
{
    const char *ref = ref_of(p, name);
    if (!ref)
        fail_msg("'%s' has no ref", name);
    char key[32];
    snprintf(key, sizeof(key), "@%s", strchr(ref, ':') + 1);
    return json_object_get(p->refs, key);
}

static void test_refs_are_depth_first_in_document_order(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("button|n=A", NULL),
                        fk("group|n=G",
                           fk("treeitem|n=Parent", fk("treeitem|n=Child", NULL), NULL),
                           fk("button|n=B", NULL), NULL),
                        fk("button|n=C", NULL), NULL), 10);
    assert_string_equal(ref_of(&p, "A"), "@s1test:e1");
    assert_string_equal(ref_of(&p, "Parent"), "@s1test:e2");
    assert_string_equal(ref_of(&p, "Child"), "@s1test:e3");
    assert_string_equal(ref_of(&p, "B"), "@s1test:e4");
    assert_string_equal(ref_of(&p, "C"), "@s1test:e5");
    assert_null(tu_at(node(&p, "W"), "ref_id"));
    assert_null(tu_at(node(&p, "G"), "ref_id"));
    assert_int_equal(p.added, 5);
    assert_int_equal(p.next, 6);
    assert_int_equal(json_object_size(p.refs), 5);
    assert_string_equal(tu_str(p.refs, "@e3.name"), "Child");
    json_t *path = tu_at(p.refs, "@e3.path");
    assert_int_equal(json_array_size(path), 3);
    assert_int_equal(tu_int(path, "0"), 1);
    assert_int_equal(tu_int(path, "1"), 0);
    assert_int_equal(tu_int(path, "2"), 0);
    pres_free(&p);
}

static void test_interactive_roles_earn_refs(void **state)
{
    (void)state;
    static const char *const roles[] = {
        "button", "cell", "checkbox", "colorwell", "combobox", "dockitem", "incrementor",
        "link", "listbox", "menubutton", "menuitem", "option", "radiobutton", "slider",
        "switch", "tab", "textfield", "treeitem"};
    ad_node *root = fk("window|n=W", NULL);
    char spec[64];
    for (size_t i = 0; i < 18; i++) {
        snprintf(spec, sizeof(spec), "%s|n=%s", roles[i], roles[i]);
        fk_insert(root, 99, fk(spec, NULL));
        assert_true(ad_role_interactive(roles[i]));
    }
    fk_insert(root, 99, fk("statictext|n=Label", NULL));
    fk_insert(root, 99, fk("heading|n=Title", NULL));
    fk_insert(root, 99, fk("image|n=Logo", NULL));
    pres p = present(root, 10);
    for (size_t i = 0; i < 18; i++)
        assert_non_null(ref_of(&p, roles[i]));
    assert_null(ref_of(&p, "Label"));
    assert_null(ref_of(&p, "Title"));
    assert_null(ref_of(&p, "Logo"));
    assert_int_equal(p.added, 18);
    pres_free(&p);
}

static void test_primary_actions_earn_refs_but_focus_menu_scroll_do_not(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("group|n=Clickable|a=Click", NULL),
                        fk("group|n=Inert|a=SetFocus|a=RightClick|a=ScrollTo", NULL),
                        fk("scrollarea|n=History|a=Scroll", NULL),
                        fk("disclosure|n=More|a=Expand|a=Collapse", NULL),
                        fk("statictext|n=Text|a=ScrollTo", NULL), NULL), 10);
    assert_non_null(ref_of(&p, "Clickable"));
    assert_non_null(ref_of(&p, "History"));
    assert_non_null(ref_of(&p, "More"));
    assert_null(ref_of(&p, "Inert"));
    assert_null(ref_of(&p, "Text"));
    /* The inert node still shows what it advertises. */
    assert_int_equal(json_array_size(tu_at(node(&p, "Inert"), "available_actions")), 3);
    pres_free(&p);
}

static void test_interactive_only_drops_leaves_without_refs(void **state)
{
    (void)state;
    ad_node *root = fk("window|n=W",
                       fk("statictext|n=Label", NULL),
                       fk("group|n=Box", fk("statictext|n=Inner", NULL),
                          fk("button|n=OK", NULL), NULL),
                       fk("group|n=Empty", fk("statictext|n=Gone", NULL), NULL),
                       fk("group|n=Partial|cut=4", NULL),
                       fk("statictext|n?", NULL),
                       /* twin containers cut by depth: no identity, no anchor, no ref */
                       fk("list", fk("list", fk("statictext|n=Same", NULL), NULL), NULL),
                       fk("list", fk("list", fk("statictext|n=Same", NULL), NULL), NULL), NULL);
    pres p = present_at(root, root, (ad_present_opts){.max_depth = 2, .interactive_only = true},
                        true, NULL, 1);
    assert_null(tu_node_named(p.tree, "Label"));
    assert_null(tu_node_named(p.tree, "Inner"));
    assert_null(tu_node_named(p.tree, "Empty"));
    assert_non_null(ref_of(&p, "OK"));
    assert_non_null(tu_node_named(p.tree, "Box"));
    /* Kept: a node cut by the read, a node whose name could not be read, cut containers. */
    assert_true(json_is_true(tu_at(node(&p, "Partial"), "subtree_truncated")));
    json_t *kids = tu_at(p.tree, "children");
    assert_int_equal(json_array_size(kids), 5);
    assert_true(json_is_true(tu_at(kids, "2.read_failed")));
    assert_string_equal(tu_str(kids, "3.role"), "list");
    assert_int_equal(tu_int(kids, "3.children.0.children_count"), 1);
    assert_null(tu_at(kids, "3.children.0.ref_id"));
    assert_int_equal(tu_int(kids, "4.children.0.children_count"), 1);
    assert_int_equal(p.added, 1);
    pres_free(&p);
}

static void test_compact_collapses_single_child_plain_wrappers(void **state)
{
    (void)state;
    ad_node *root = fk("window|n=W",
                       fk("group", fk("group", fk("button|n=OK", NULL), NULL), NULL),
                       fk("group|n=Named", fk("button|n=In", NULL), NULL),
                       fk("group", fk("button|n=L", NULL), fk("button|n=R", NULL), NULL),
                       fk("group|s=selected", fk("button|n=S", NULL), NULL), NULL);
    pres p = present_at(root, root, (ad_present_opts){.max_depth = 10, .compact = true}, true,
                        NULL, 1);
    json_t *kids = tu_at(p.tree, "children");
    assert_int_equal(json_array_size(kids), 4);
    assert_string_equal(tu_str(kids, "0.name"), "OK");       /* two wrappers collapsed */
    assert_string_equal(tu_str(kids, "1.name"), "Named");    /* named: kept */
    assert_int_equal(json_array_size(tu_at(kids, "2.children")), 2); /* two children: kept */
    assert_string_equal(tu_str(kids, "3.states.0"), "selected");    /* has a state: kept */
    assert_int_equal(p.added, 5);
    pres_free(&p);

    /* Without --compact the wrappers are there. */
    p = present(fk("window|n=W",
                   fk("group", fk("group", fk("button|n=OK", NULL), NULL), NULL), NULL), 10);
    assert_string_equal(tu_str(p.tree, "children.0.role"), "group");
    assert_string_equal(tu_str(p.tree, "children.0.children.0.children.0.name"), "OK");
    pres_free(&p);
}

static void test_compact_keeps_nodes_whose_fields_could_not_be_read(void **state)
{
    (void)state;
    /* Regression (was a bug): present.c node_plain() treats an unknown name as "no name", so --compact collapses
     * a group whose name could not be read and its read_failed marker disappears. -i keeps
     * such nodes on purpose (kept_marker), ad_node_is_wrapper() refuses them (it needs the
     * fields absent), and node.h says core never turns unknown into absent. */
    ad_node *root = fk("window|n=W", fk("group|n?", fk("button|n=OK", NULL), NULL), NULL);
    pres p = present_at(root, root, (ad_present_opts){.max_depth = 10, .compact = true}, true,
                        NULL, 1);
    assert_string_equal(tu_str(p.tree, "children.0.role"), "group");
    assert_true(json_is_true(tu_at(p.tree, "children.0.read_failed")));
    pres_free(&p);
}

static void test_unnamed_wrappers_do_not_consume_depth(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("group", fk("group", fk("button|n=Deep", NULL), NULL), NULL),
                        fk("group|n=Named", fk("button|n=Hidden", NULL), NULL), NULL), 1);
    assert_non_null(ref_of(&p, "Deep"));
    assert_string_equal(tu_str(p.tree, "children.0.children.0.children.0.name"), "Deep");
    json_t *named = node(&p, "Named");
    assert_int_equal(tu_int(named, "children_count"), 1);
    assert_null(tu_at(named, "children"));
    assert_null(tu_node_named(p.tree, "Hidden"));
    assert_int_equal(p.added, 2); /* Deep, and Named as the drill target of its cut */
    pres_free(&p);

    ad_node *n = fk("group", NULL);
    assert_true(ad_node_is_wrapper(n));
    ad_node_free(n);
    static const char *const not_wrappers[] = {"group|d=Tools", "group|n?", "group|a=Click",
                                               "group|id=box", "toolbar"};
    for (size_t i = 0; i < 5; i++) {
        n = fk(not_wrappers[i], NULL);
        assert_false(ad_node_is_wrapper(n));
        ad_node_free(n);
    }
}

static void test_children_count_and_subtree_truncated(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("list|n=Reported|cut=7", fk("option|n=a", NULL), NULL),
                        fk("list|n=Counted", fk("option|n=b", NULL), fk("option|n=c", NULL),
                           NULL), NULL), 1);
    /* children_count is what the element reported, or what was read. */
    assert_int_equal(tu_int(node(&p, "Reported"), "children_count"), 7);
    assert_true(json_is_true(tu_at(node(&p, "Reported"), "subtree_truncated")));
    assert_int_equal(tu_int(node(&p, "Counted"), "children_count"), 2);
    assert_null(tu_at(node(&p, "Counted"), "subtree_truncated"));
    assert_null(tu_at(node(&p, "W"), "children_count"));
    pres_free(&p);
}

static void test_rule1_refable_container_keeps_its_ref(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("listbox|n=Fruits", fk("option|n=Apple", NULL),
                           fk("option|n=Pear", NULL), NULL), NULL), 1);
    json_t *fruits = node(&p, "Fruits");
    assert_non_null(tu_at(fruits, "ref_id"));
    assert_int_equal(tu_int(fruits, "children_count"), 2);
    assert_true(json_is_true(tu_at(entry_of(&p, "Fruits"), "unique_at_capture")));
    assert_int_equal(p.added, 1);
    pres_free(&p);
    /* Its own ref covers the cut: the named ancestor does not become a target too. */
    p = present(fk("window|n=W",
                   fk("group|n=Pane", fk("listbox|n=Fruits", fk("option|n=Apple", NULL), NULL),
                      NULL), NULL), 2);
    assert_null(ref_of(&p, "Pane"));
    assert_int_equal(p.added, 1);
    pres_free(&p);
}

static void test_rule2_container_with_unique_identity(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("group|id=sidebar", fk("button|n=Home|a=Click", NULL), NULL),
                        fk("group|d=Tools", fk("button|n=Cut|a=Click", NULL), NULL), NULL), 1);
    json_t *sidebar = tu_at(p.tree, "children.0");
    assert_string_equal(tu_str(sidebar, "native_id.value"), "sidebar");
    assert_string_equal(tu_str(sidebar, "ref_id"), "@s1test:e1");
    assert_int_equal(tu_int(sidebar, "children_count"), 1);
    json_t *e = json_object_get(p.refs, "@e1");
    assert_true(json_is_true(tu_at(e, "drill_target")));
    assert_true(json_is_true(tu_at(e, "unique_at_capture")));
    assert_null(tu_at(e, "anchor"));
    assert_null(tu_at(e, "available_actions")); /* a drill ref is not an action target */
    assert_string_equal(tu_str(p.tree, "children.1.ref_id"), "@s1test:e2");
    assert_true(json_is_true(tu_at(p.refs, "@e2.drill_target")));
    pres_free(&p);
}

static void test_rule2_anonymous_container_through_an_anchor(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("toolbar", fk("button|n=Bold|a=Click", NULL),
                           fk("button|n=Italic|a=Click", NULL), NULL),
                        fk("toolbar", fk("row", fk("button|n=Undo|a=Click", NULL), NULL), NULL),
                        NULL), 1);
    json_t *kids = tu_at(p.tree, "children");
    assert_string_equal(tu_str(kids, "0.ref_id"), "@s1test:e1");
    assert_string_equal(tu_str(kids, "1.ref_id"), "@s1test:e2");
    json_t *e1 = json_object_get(p.refs, "@e1");
    assert_true(json_is_true(tu_at(e1, "unique_at_capture"))); /* through its anchor */
    assert_true(json_is_true(tu_at(e1, "drill_target")));
    assert_string_equal(tu_str(e1, "role"), "toolbar");
    assert_null(tu_at(e1, "name"));
    assert_string_equal(tu_str(e1, "anchor.role"), "button");
    assert_string_equal(tu_str(e1, "anchor.name"), "Bold"); /* the first unique named child */
    assert_int_equal(tu_int(e1, "anchor.hops"), 1);
    /* An unnamed intermediate node is skipped: the anchor is two hops down. */
    assert_string_equal(tu_str(p.refs, "@e2.anchor.name"), "Undo");
    assert_int_equal(tu_int(p.refs, "@e2.anchor.hops"), 2);
    pres_free(&p);
}

/* Twin containers: no identity and no unique named descendant (the anchor must be unique). */
#define TWIN_LIST() fk("list", fk("statictext|n=Same", NULL), NULL)

static void test_rule3_target_moves_to_nearest_qualifying_ancestor(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("group|n=Panel", TWIN_LIST(), TWIN_LIST(), NULL), NULL), 2);
    json_t *panel = node(&p, "Panel");
    assert_string_equal(tu_str(panel, "ref_id"), "@s1test:e1");
    assert_null(tu_at(panel, "children_count")); /* Panel itself was not cut */
    assert_true(json_is_true(tu_at(p.refs, "@e1.drill_target")));
    json_t *lists = tu_at(panel, "children");
    assert_int_equal(tu_int(lists, "0.children_count"), 1);
    assert_null(tu_at(lists, "0.ref_id"));
    assert_null(tu_at(lists, "1.ref_id"));
    assert_int_equal(p.added, 1);
    pres_free(&p);
}

static void test_rule3_window_root_is_never_a_target(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W|id=main", TWIN_LIST(), TWIN_LIST(), NULL), 1);
    assert_int_equal(p.added, 0);
    assert_int_equal(json_object_size(p.refs), 0);
    assert_null(tu_at(p.tree, "ref_id"));
    assert_int_equal(tu_int(p.tree, "children.0.children_count"), 1);
    pres_free(&p);
}

static void test_rule4_deepest_candidate_wins(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("group|n=Outer", fk("group|n=Inner", TWIN_LIST(), TWIN_LIST(), NULL),
                           NULL), NULL), 3);
    assert_null(ref_of(&p, "Outer"));
    assert_string_equal(ref_of(&p, "Inner"), "@s1test:e1");
    assert_int_equal(p.added, 1);
    pres_free(&p);
}

static void test_cut_refable_twins_are_covered_by_an_ancestor(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("group|n=Tree",
                           fk("treeitem|n=Item", fk("treeitem|n=Leaf1", NULL), NULL),
                           fk("treeitem|n=Item", fk("treeitem|n=Leaf2", NULL), NULL), NULL),
                        NULL), 2);
    /* Tree comes first in document order, then both Items with their ordinary refs. */
    assert_string_equal(ref_of(&p, "Tree"), "@s1test:e1");
    assert_true(json_is_true(tu_at(p.refs, "@e1.drill_target")));
    assert_false(json_is_true(tu_at(p.refs, "@e2.unique_at_capture")));
    assert_false(json_is_true(tu_at(p.refs, "@e3.unique_at_capture")));
    assert_int_equal(p.added, 3);
    pres_free(&p);
}

static void test_unique_at_capture(void **state)
{
    (void)state;
    ad_node *root = fk("window|n=W", fk("button|n=OK", NULL), fk("button|n=OK", NULL),
                       fk("button|n=Cancel", NULL),
                       fk("button|n=OK|id=ok2", NULL), /* a native id tells it apart */
                       fk("statictext|n?", NULL), NULL);
    pres p = present(root, 10);
    assert_false(json_is_true(tu_at(p.refs, "@e1.unique_at_capture")));
    assert_false(json_is_true(tu_at(p.refs, "@e2.unique_at_capture")));
    assert_true(json_is_true(tu_at(p.refs, "@e3.unique_at_capture")));
    assert_true(json_is_true(tu_at(p.refs, "@e4.unique_at_capture")));
    pres_free(&p);

    /* A button whose name could not be read leaves every button unproven. */
    p = present(fk("window|n=W", fk("button|n=Cancel", NULL), fk("button|n?", NULL), NULL), 10);
    assert_false(json_is_true(tu_at(p.refs, "@e1.unique_at_capture")));
    pres_free(&p);
}

static void test_unproven_identity_marks_every_entry_not_unique(void **state)
{
    (void)state;
    ad_node *root = fk("window|n=W", fk("button|n=Only", NULL),
                       fk("group|n=Panel", TWIN_LIST(), TWIN_LIST(), NULL),
                       fk("toolbar", fk("button|n=Bold", NULL), NULL),
                       fk("toolbar", fk("button|n=Undo", NULL), NULL), NULL);
    pres p = present_at(root, root, (ad_present_opts){.max_depth = 1}, false, NULL, 1);
    assert_true(json_object_size(p.refs) >= 3);
    const char *key;
    json_t *e;
    json_object_foreach(p.refs, key, e) {
        assert_true(json_is_false(json_object_get(e, "unique_at_capture")));
        assert_null(json_object_get(e, "anchor"));
    }
    pres_free(&p);
}

static void test_secure_value_never_leaves(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W", fk("textfield|n=Password|v=hunter2|secure", NULL),
                        fk("textfield|n=User|v=alice", NULL), NULL), 10);
    assert_null(tu_at(node(&p, "Password"), "value"));
    assert_null(tu_at(entry_of(&p, "Password"), "value"));
    assert_string_equal(tu_str(node(&p, "User"), "value"), "alice");
    assert_string_equal(tu_str(entry_of(&p, "User"), "value"), "alice");
    char *a = json_dumps(p.tree, 0), *b = json_dumps(p.refs, 0);
    assert_null(strstr(a, "hunter2"));
    assert_null(strstr(b, "hunter2"));
    free(a);
    free(b);
    pres_free(&p);
}

static void test_ref_entry_fields(void **state)
{
    (void)state;
    pres p = present(fk("window|n=W",
                        fk("button|n=Go|d=Start|id=go|a=Click|s=focused|b=10,20,30,40", NULL),
                        fk("button|n=Plain", NULL), NULL), 10);
    json_t *e = entry_of(&p, "Go");
    assert_string_equal(tu_str(e, "role"), "button");
    assert_string_equal(tu_str(e, "name"), "Go");
    assert_string_equal(tu_str(e, "description"), "Start");
    assert_string_equal(tu_str(e, "native_id"), "go");
    assert_int_equal((long long)json_real_value(tu_at(e, "bounds.width")), 30);
    assert_int_equal(strlen(tu_str(e, "bounds_hash")), 16);
    assert_string_equal(tu_str(e, "states.0"), "focused");
    assert_string_equal(tu_str(e, "available_actions.0"), "Click");
    assert_int_equal(json_array_size(tu_at(e, "path")), 1);
    /* Process and source live once in the refmap's "source", not in every entry; empty
     * fields, the full snapshot's root_ref and a false drill_target are omitted. */
    assert_null(tu_at(e, "pid"));
    assert_null(tu_at(e, "source_window_id"));
    assert_null(tu_at(e, "drill_target"));
    assert_null(tu_at(e, "root_ref"));
    json_t *plain = entry_of(&p, "Plain");
    assert_null(tu_at(plain, "states"));
    assert_null(tu_at(plain, "available_actions"));
    assert_null(tu_at(plain, "bounds"));
    /* Bounds reach the tree only with --include-bounds. */
    assert_null(tu_at(node(&p, "Go"), "bounds"));
    pres_free(&p);
    ad_node *root = fk("window|n=W", fk("button|n=Go|b=10,20,30,40", NULL), NULL);
    p = present_at(root, root, (ad_present_opts){.max_depth = 10, .include_bounds = true}, true,
                   NULL, 1);
    assert_int_equal((long long)json_real_value(tu_at(node(&p, "Go"), "bounds.x")), 10);
    pres_free(&p);
}

static void test_refmap_source(void **state)
{
    (void)state;
    ad_present_source src = {.window = &WIN, .app_name = "calc", .surface = "window",
                             .identity_proven = true};
    json_t *s = ad_refmap_source_new(&src);
    assert_int_equal(tu_int(s, "pid"), 42);
    assert_string_equal(tu_str(s, "process_instance"), "boot:1");
    assert_string_equal(tu_str(s, "source_app"), "calc");
    assert_string_equal(tu_str(s, "source_window_id"), "w-fake-1");
    assert_string_equal(tu_str(s, "source_window_title"), "Calc");
    assert_int_equal(strlen(tu_str(s, "source_window_bounds_hash")), 16);
    assert_string_equal(tu_str(s, "source_surface"), "window");
    assert_string_equal(tu_str(s, "bounds_space"), "screen");
    assert_true(json_is_true(tu_at(s, "path_is_absolute")));
    json_decref(s);
    ad_window untitled = {.id = "w-fake-2", .pid = 7};
    src.window = &untitled;
    s = ad_refmap_source_new(&src);
    assert_true(json_is_null(tu_at(s, "process_instance")));
    assert_true(json_is_null(tu_at(s, "source_window_title")));
    assert_null(tu_at(s, "source_window_bounds_hash"));
    json_decref(s);
}

static void test_drill_presentation_continues_the_counter(void **state)
{
    (void)state;
    ad_node *root = fk("window|n=W", fk("button|n=Before", NULL),
                       fk("group|n=Region", fk("button|n=X", NULL),
                          fk("group|n=Sub", fk("button|n=Y", NULL), NULL), NULL), NULL);
    ad_node *region = fk_find(root, "group", "Region");
    pres p = present_at(root, region, (ad_present_opts){.max_depth = 10}, true, "@e1", 7);
    assert_string_equal(tu_str(p.tree, "name"), "Region");
    assert_null(tu_at(p.tree, "ref_id")); /* the drilled root already has its ref */
    assert_string_equal(ref_of(&p, "X"), "@s1test:e7");
    assert_string_equal(ref_of(&p, "Y"), "@s1test:e8");
    assert_null(tu_node_named(p.tree, "Before"));
    assert_int_equal(p.next, 9);
    json_t *y = entry_of(&p, "Y");
    assert_string_equal(tu_str(y, "root_ref"), "@e1");
    assert_int_equal(json_array_size(tu_at(y, "path")), 3); /* absolute: from the window */
    assert_int_equal(tu_int(y, "path.0"), 1);
    pres_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refs_are_depth_first_in_document_order),
        cmocka_unit_test(test_interactive_roles_earn_refs),
        cmocka_unit_test(test_primary_actions_earn_refs_but_focus_menu_scroll_do_not),
        cmocka_unit_test(test_interactive_only_drops_leaves_without_refs),
        cmocka_unit_test(test_compact_collapses_single_child_plain_wrappers),
        cmocka_unit_test(test_compact_keeps_nodes_whose_fields_could_not_be_read),
        cmocka_unit_test(test_unnamed_wrappers_do_not_consume_depth),
        cmocka_unit_test(test_children_count_and_subtree_truncated),
        cmocka_unit_test(test_rule1_refable_container_keeps_its_ref),
        cmocka_unit_test(test_rule2_container_with_unique_identity),
        cmocka_unit_test(test_rule2_anonymous_container_through_an_anchor),
        cmocka_unit_test(test_rule3_target_moves_to_nearest_qualifying_ancestor),
        cmocka_unit_test(test_rule3_window_root_is_never_a_target),
        cmocka_unit_test(test_rule4_deepest_candidate_wins),
        cmocka_unit_test(test_cut_refable_twins_are_covered_by_an_ancestor),
        cmocka_unit_test(test_unique_at_capture),
        cmocka_unit_test(test_unproven_identity_marks_every_entry_not_unique),
        cmocka_unit_test(test_secure_value_never_leaves),
        cmocka_unit_test(test_ref_entry_fields),
        cmocka_unit_test(test_refmap_source),
        cmocka_unit_test(test_drill_presentation_continues_the_counter),
    };
    return cmocka_run_group_tests_name("present", tests, NULL, NULL);
}
