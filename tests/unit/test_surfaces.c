/* test_surfaces.c: the menu surface for GTK3 shapes beyond a `menu` in the window tree: a
 * popover (a shown element that is a popup for another) and a context menu in its own
 * popup-menu top level (ad_window.kind "menu"), through snapshot, find, list-surfaces and
 * wait, on the fake adapter. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "fake_adapter.h"
#include "test_util.h"

typedef struct {
    tu_home home;
    fake_adapter *fake;
    fake_window *doc;
} fx;

/* A GTK3 window as AT-SPI shows it: its own child, then its popovers (one open, one closed). */
static ad_node *doc_tree(const char *open_popover_spec)
{
    return fk("window|n=Doc",
              fk("group|n=Main", fk("button|n=Options|a=Click", NULL),
                 fk("button|n=Save|a=Click", NULL), NULL),
              fk(open_popover_spec,
                 fk("group", fk("button|n=Ping|a=Click", NULL),
                    fk("checkbox|n=Dark|a=Click", NULL),
                    fk("button|n=Gone|a=Click|s=offscreen", NULL), NULL), NULL),
              fk("group|n=Closed|popup|s=modal|s=hidden",
                 fk("button|n=Never|a=Click|s=offscreen", NULL), NULL),
              NULL);
}

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_home_begin(&f->home);
    f->fake = fake_new();
    fake_add_app(f->fake, "editor", 200);
    f->doc = fake_add_window(f->fake, "editor", "Doc", doc_tree("group|n=Options|popup|s=modal"));
    f->doc->w.is_focused = true;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    fake_free(f->fake);
    tu_home_end(&f->home);
    free(f);
    return 0;
}

static json_t *run(fx *f, const char *cmd, json_t *args, int want_exit)
{
    json_t *env = tu_run_exit(fake_base(f->fake), cmd, args, NULL, want_exit);
    return env;
}

static json_t *menu_snapshot(fx *f, int want_exit)
{
    return run(f, "snapshot", tu_args("snapshot", "{s:s, s:s}", "app", "editor", "surface",
                                      "menu"), want_exit);
}

static json_t *surfaces(fx *f)
{
    json_t *env = run(f, "list-surfaces", tu_args("list-surfaces", "{s:s}", "app", "editor"), 0);
    json_t *list = json_incref(tu_at(env, "data.surfaces"));
    json_decref(env);
    return list;
}

static void expect_absent(fx *f, bool complete)
{
    json_t *env = menu_snapshot(f, 1);
    assert_string_equal(tu_str(env, "error.code"), "ELEMENT_NOT_FOUND");
    assert_string_equal(tu_str(env, "error.details.kind"), "surface_absent");
    assert_int_equal(json_is_true(tu_at(env, "error.details.complete")), complete);
    json_decref(env);
}

static void test_open_popover_is_the_menu_surface(void **state)
{
    fx *f = *state;
    json_t *env = menu_snapshot(f, 0);
    assert_string_equal(tu_str(env, "data.tree.name"), "Options");
    assert_string_equal(tu_str(env, "data.window.id"), "w-fake-1");
    /* Ping and Dark; nothing of the window behind (its Options and Save buttons). */
    assert_int_equal(tu_int(env, "data.ref_count"), 3); /* Gone still earns a ref, offscreen */
    assert_non_null(tu_node_named(tu_at(env, "data.tree"), "Ping"));
    assert_null(tu_node_named(tu_at(env, "data.tree"), "Save"));
    json_decref(env);

    env = run(f, "find", tu_args("find", "{s:s, s:s, s:s, s:b}", "app", "editor", "surface",
                                 "menu", "name", "Dark", "first", 1), 0);
    assert_string_equal(tu_str(env, "data.match.role"), "checkbox");
    json_decref(env);

    json_t *list = surfaces(f);
    assert_int_equal(json_array_size(list), 2);
    assert_string_equal(tu_str(list, "0.type"), "window");
    assert_string_equal(tu_str(list, "1.type"), "menu");
    assert_string_equal(tu_str(list, "1.id"), "w-fake-1");
    assert_string_equal(tu_str(list, "1.title"), "Options");
    /* The shown items a popover offers, not its one layout child. */
    assert_int_equal(tu_int(list, "1.item_count"), 2);
    json_decref(list);
}

static void test_closed_popover_is_absent(void **state)
{
    fx *f = *state;
    ad_node *open = fk_find(f->doc->root, "group", "Options");
    open->states |= 1u << AD_ST_HIDDEN;
    expect_absent(f, true);
    json_t *list = surfaces(f);
    assert_int_equal(json_array_size(list), 1);
    assert_string_equal(tu_str(list, "0.type"), "window");
    json_decref(list);
}

/* A shown panel is a popover only on its popup evidence: none, or an unread one, is no menu. */
static void test_shown_group_without_popup_evidence_is_no_menu(void **state)
{
    fx *f = *state;
    static const char *const specs[] = {"group|n=Options|s=modal", "group|n=Options|popup?"};
    for (size_t i = 0; i < 2; i++) {
        ad_node_free(f->doc->root);
        f->doc->root = doc_tree(specs[i]);
        expect_absent(f, true);
    }
    /* An unread relation makes the adapter's read incomplete: absence is then unknown. */
    f->doc->complete = false;
    f->doc->cut_reason = "read_failed";
    expect_absent(f, false);
}

static void test_wait_menu_counts_a_popover(void **state)
{
    fx *f = *state;
    json_t *env = run(f, "wait", tu_args("wait", "{s:s, s:b, s:i}", "app", "editor", "menu", 1,
                                         "timeout", 500), 0);
    assert_true(json_is_true(tu_at(env, "data.found")));
    json_decref(env);
    env = run(f, "wait", tu_args("wait", "{s:s, s:b, s:i}", "app", "editor", "menu_closed", 1,
                                 "timeout", 300), 1);
    assert_string_equal(tu_str(env, "error.code"), "TIMEOUT");
    json_decref(env);
    fk_find(f->doc->root, "group", "Options")->states |= 1u << AD_ST_HIDDEN;
    env = run(f, "wait", tu_args("wait", "{s:s, s:b, s:i}", "app", "editor", "menu_closed", 1,
                                 "timeout", 500), 0);
    assert_true(json_is_true(tu_at(env, "data.found")));
    json_decref(env);
}

/* A GTK3 context menu: its own focused top level of kind "menu" holding the menu. */
static fake_window *add_context_menu(fx *f)
{
    fake_window *popup = fake_add_window(
        f->fake, "editor", NULL,
        fk("window", fk("menu|n=Context", fk("menuitem|n=Mark|a=Click", NULL),
                        fk("menuitem|n=Clear|a=Click", NULL), NULL), NULL));
    popup->w.kind = "menu";
    popup->w.is_focused = true;
    f->doc->w.is_focused = false;
    fk_find(f->doc->root, "group", "Options")->states |= 1u << AD_ST_HIDDEN;
    return popup;
}

static void test_popup_menu_window_reports_its_menu(void **state)
{
    fx *f = *state;
    add_context_menu(f);
    json_t *list = surfaces(f);
    assert_int_equal(json_array_size(list), 2);
    assert_string_equal(tu_str(list, "0.id"), "w-fake-1");
    assert_string_equal(tu_str(list, "0.type"), "window");
    assert_string_equal(tu_str(list, "1.id"), "w-fake-2");
    assert_string_equal(tu_str(list, "1.type"), "menu");
    assert_string_equal(tu_str(list, "1.title"), "Context");
    assert_int_equal(tu_int(list, "1.item_count"), 2);
    json_decref(list);

    json_t *env = menu_snapshot(f, 0);
    assert_string_equal(tu_str(env, "data.window.id"), "w-fake-2");
    assert_string_equal(tu_str(env, "data.tree.name"), "Context");
    assert_int_equal(tu_int(env, "data.ref_count"), 2);
    json_decref(env);
}

/* The popup takes the focus, yet the app's window is the one behind it. */
static void test_window_selection_sets_a_popup_menu_aside(void **state)
{
    fx *f = *state;
    add_context_menu(f);
    json_t *env = run(f, "snapshot", tu_args("snapshot", "{s:s}", "app", "editor"), 0);
    assert_string_equal(tu_str(env, "data.window.id"), "w-fake-1");
    assert_string_equal(tu_str(env, "data.tree.name"), "Doc");
    json_decref(env);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_open_popover_is_the_menu_surface),
        T(test_closed_popover_is_absent),
        T(test_shown_group_without_popup_evidence_is_no_menu),
        T(test_wait_menu_counts_a_popover),
        T(test_popup_menu_window_reports_its_menu),
        T(test_window_selection_sets_a_popup_menu_aside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
