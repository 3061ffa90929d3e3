/* test_node.c: the node model's own rules (core/node.h): which strings are names. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/node.h"

/* Regression (issue 7 item 19): gnome-calculator 43 (GTK 4.8) names its empty display
 * "GtkSourceView", and get --property text returned that class name. */
static void test_toolkit_class_names_are_no_names(void **state)
{
    (void)state;
    const char *classes[] = {"GtkSourceView", "GtkTextView", "GtkMenuButton", "AdwGizmo",
                             "AdwLeaflet", "GdkSurface", "GskRenderNode", "HdyHeaderBar",
                             "QLineEdit", "QPushButton", "GtkRange"};
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
        assert_true(ad_toolkit_class_name(classes[i]));
    /* Words a person reads, even when they start like a prefix. */
    const char *words[] = {"7 7", "OpenGL", "Gtk", "Gtk button", "Adwaita", "QWERTY", "Quit",
                           "GtkSourceView 4", "Qt", "Q", "", "HistoryView", "Gdk-Pixbuf"};
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        assert_false(ad_toolkit_class_name(words[i]));
    assert_false(ad_toolkit_class_name(NULL));
}

static void test_a_class_name_is_kept_apart_from_the_name(void **state)
{
    (void)state;
    ad_node *n = ad_node_new();
    ad_node_set_name(n, "GtkSourceView");
    assert_int_equal(n->name.state, AD_FIELD_ABSENT);
    assert_null(ad_text_get(&n->name));
    assert_string_equal(n->toolkit_class, "GtkSourceView");
    assert_false(ad_node_has_text(n, "GtkSource"));
    ad_node_set_name(n, "Result");
    assert_int_equal(n->name.state, AD_FIELD_KNOWN);
    assert_string_equal(ad_text_get(&n->name), "Result");
    assert_null(n->toolkit_class);
    ad_node_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toolkit_class_names_are_no_names),
        cmocka_unit_test(test_a_class_name_is_kept_apart_from_the_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
