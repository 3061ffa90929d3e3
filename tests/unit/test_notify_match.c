/* test_notify_match.c: the app_name rule (src/linux/notify_match.c): a row is named only
 * from exactly one monitored entry with its title and body that is still open, and only
 * when no other row shows the same text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linux/notify_match.h"

/* A surface of rows given as title, body pairs (body NULL: none), NULL-terminated. */
static void rows(ad_notification_surface *s, const char *const *pairs)
{
    memset(s, 0, sizeof(*s));
    for (size_t i = 0; pairs[2 * i]; i++) {
        s->items = realloc(s->items, (s->count + 1) * sizeof(*s->items));
        ad_notification *n = &s->items[s->count++];
        memset(n, 0, sizeof(*n));
        n->title = strdup(pairs[2 * i]);
        n->body = pairs[2 * i + 1] ? strdup(pairs[2 * i + 1]) : NULL;
    }
}

/* One entry as the helper lists it. */
static json_t *entry(const char *app, const char *summary, const char *body, bool open)
{
    return json_pack("{s:I, s:s, s:s, s:s, s:s, s:I, s:I, s:b}", "id", (json_int_t)1,
                     "app_name", app, "summary", summary, "body", body, "sender", ":1.9",
                     "sender_pid", (json_int_t)0, "age_ms", (json_int_t)5, "open", open);
}

static void test_unique_open_entry_names_its_row(void **state)
{
    (void)state;
    ad_notification_surface s;
    rows(&s, (const char *const[]){"T", "B", "Other", NULL, NULL, NULL});
    json_t *table = json_pack("[o, o]", entry("MyApp", "T", "B", true),
                              entry("Mail", "Else", "", true));
    assert_int_equal(ad_notify_match_apps(&s, table), 0);
    assert_string_equal(s.items[0].app_name, "MyApp");
    assert_null(s.items[1].app_name); /* no entry has its text */
    json_decref(table);
    ad_notification_surface_clear(&s);
}

static void test_empty_body_equals_a_missing_one(void **state)
{
    (void)state;
    ad_notification_surface s;
    rows(&s, (const char *const[]){"Title only", NULL, NULL, NULL});
    json_t *table = json_pack("[o]", entry("Clock", "Title only", "", true));
    assert_int_equal(ad_notify_match_apps(&s, table), 0);
    assert_string_equal(s.items[0].app_name, "Clock");
    json_decref(table);
    ad_notification_surface_clear(&s);
}

static void test_twin_entries_name_nothing(void **state)
{
    (void)state;
    ad_notification_surface s;
    rows(&s, (const char *const[]){"Same", "Text", NULL, NULL});
    json_t *table = json_pack("[o, o]", entry("AppA", "Same", "Text", true),
                              entry("AppB", "Same", "Text", true));
    assert_int_equal(ad_notify_match_apps(&s, table), 0);
    assert_null(s.items[0].app_name);
    json_decref(table);
    ad_notification_surface_clear(&s);
}

static void test_twin_rows_name_nothing(void **state)
{
    (void)state;
    ad_notification_surface s;
    /* One twin was posted before the monitor ran: the entry cannot say which row is its. */
    rows(&s, (const char *const[]){"Same", "Text", "Same", "Text", NULL, NULL});
    json_t *table = json_pack("[o]", entry("AppA", "Same", "Text", true));
    assert_int_equal(ad_notify_match_apps(&s, table), 0);
    assert_null(s.items[0].app_name);
    assert_null(s.items[1].app_name);
    json_decref(table);
    ad_notification_surface_clear(&s);
}

static void test_closed_entry_names_nothing(void **state)
{
    (void)state;
    ad_notification_surface s;
    rows(&s, (const char *const[]){"T", "B", NULL, NULL});
    json_t *closed = json_pack("[o]", entry("MyApp", "T", "B", false));
    assert_int_equal(ad_notify_match_apps(&s, closed), 0);
    assert_null(s.items[0].app_name);
    /* A closed twin still counts: the open one alone does not prove the row is its. */
    json_t *both = json_pack("[o, o]", entry("Old", "T", "B", false),
                             entry("New", "T", "B", true));
    assert_int_equal(ad_notify_match_apps(&s, both), 0);
    assert_null(s.items[0].app_name);
    json_decref(closed);
    json_decref(both);
    ad_notification_surface_clear(&s);
}

static void test_absent_table_or_entry_names_nothing(void **state)
{
    (void)state;
    ad_notification_surface s;
    rows(&s, (const char *const[]){"T", "B", NULL, NULL});
    assert_int_equal(ad_notify_match_apps(&s, NULL), 0); /* no helper */
    assert_null(s.items[0].app_name);
    json_t *empty = json_array();
    assert_int_equal(ad_notify_match_apps(&s, empty), 0); /* posted before the monitor */
    assert_null(s.items[0].app_name);
    /* A body that differs is another notification, and a nameless sender proves nothing. */
    json_t *other = json_pack("[o, o]", entry("MyApp", "T", "B2", true),
                              entry("", "T", "B", true));
    assert_int_equal(ad_notify_match_apps(&s, other), 0);
    assert_null(s.items[0].app_name);
    json_decref(empty);
    json_decref(other);
    ad_notification_surface_clear(&s);
}

static void test_banner_copy_is_named_with_its_row(void **state)
{
    (void)state;
    ad_notification_surface s;
    rows(&s, (const char *const[]){"T", "B", NULL, NULL});
    s.has_banner = true;
    s.banner.title = strdup("T");
    s.banner.body = strdup("B");
    json_t *table = json_pack("[o]", entry("MyApp", "T", "B", true));
    assert_int_equal(ad_notify_match_apps(&s, table), 0);
    assert_string_equal(s.items[0].app_name, "MyApp");
    assert_string_equal(s.banner.app_name, "MyApp");
    json_decref(table);
    ad_notification_surface_clear(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unique_open_entry_names_its_row),
        cmocka_unit_test(test_empty_body_equals_a_missing_one),
        cmocka_unit_test(test_twin_entries_name_nothing),
        cmocka_unit_test(test_twin_rows_name_nothing),
        cmocka_unit_test(test_closed_entry_names_nothing),
        cmocka_unit_test(test_absent_table_or_entry_names_nothing),
        cmocka_unit_test(test_banner_copy_is_named_with_its_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
