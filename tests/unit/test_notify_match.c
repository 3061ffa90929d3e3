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

/* The app_name the rule gives row `row` of the surface `pairs` against table (stolen; NULL:
 * no helper), as a copy the caller frees; NULL when it gives none. */
static char *name_of(const char *const *pairs, json_t *table, size_t row)
{
    ad_notification_surface s;
    rows(&s, pairs);
    assert_int_equal(ad_notify_match_apps(&s, table), 0);
    char *name = s.items[row].app_name ? strdup(s.items[row].app_name) : NULL;
    json_decref(table);
    ad_notification_surface_clear(&s);
    return name;
}

static const char *const ONE_ROW[] = {"T", "B", NULL, NULL};

static void test_unique_open_entry_names_its_row(void **state)
{
    (void)state;
    const char *const two[] = {"T", "B", "Other", NULL, NULL, NULL};
    char *name = name_of(two, json_pack("[o, o]", entry("MyApp", "T", "B", true),
                                        entry("Mail", "Else", "", true)), 0);
    assert_string_equal(name, "MyApp");
    free(name);
    /* No entry has the second row's text. */
    assert_null(name_of(two, json_pack("[o]", entry("MyApp", "T", "B", true)), 1));
}

static void test_empty_body_equals_a_missing_one(void **state)
{
    (void)state;
    const char *const title_only[] = {"Title only", NULL, NULL, NULL};
    char *name = name_of(title_only, json_pack("[o]", entry("Clock", "Title only", "", true)), 0);
    assert_string_equal(name, "Clock");
    free(name);
}

static void test_twins_name_nothing(void **state)
{
    (void)state;
    /* Two entries with the row's text. */
    assert_null(name_of(ONE_ROW, json_pack("[o, o]", entry("AppA", "T", "B", true),
                                           entry("AppB", "T", "B", true)), 0));
    /* Two rows with one entry's text (the other posted before the monitor ran): the entry
     * cannot say which row is its. */
    const char *const twin_rows[] = {"T", "B", "T", "B", NULL, NULL};
    assert_null(name_of(twin_rows, json_pack("[o]", entry("AppA", "T", "B", true)), 0));
    assert_null(name_of(twin_rows, json_pack("[o]", entry("AppA", "T", "B", true)), 1));
}

static void test_closed_entry_names_nothing(void **state)
{
    (void)state;
    assert_null(name_of(ONE_ROW, json_pack("[o]", entry("MyApp", "T", "B", false)), 0));
    /* A closed twin still counts: the open one alone does not prove the row is its. */
    assert_null(name_of(ONE_ROW, json_pack("[o, o]", entry("Old", "T", "B", false),
                                           entry("New", "T", "B", true)), 0));
}

static void test_absent_table_or_entry_names_nothing(void **state)
{
    (void)state;
    assert_null(name_of(ONE_ROW, NULL, 0));         /* no helper */
    assert_null(name_of(ONE_ROW, json_array(), 0)); /* posted before the monitor */
    /* A body that differs is another notification; a nameless sender proves nothing. */
    assert_null(name_of(ONE_ROW, json_pack("[o]", entry("MyApp", "T", "B2", true)), 0));
    assert_null(name_of(ONE_ROW, json_pack("[o]", entry("", "T", "B", true)), 0));
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
        cmocka_unit_test(test_twins_name_nothing),
        cmocka_unit_test(test_closed_entry_names_nothing),
        cmocka_unit_test(test_absent_table_or_entry_names_nothing),
        cmocka_unit_test(test_banner_copy_is_named_with_its_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
