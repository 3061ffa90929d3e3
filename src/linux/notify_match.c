/* notify_match.c: the app_name rule of notify_match.h. */
#include "linux/notify_match.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* NULL and "" are the same text: the tree leaves an empty body out, Notify sends "". */
static bool same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static bool row_same(const ad_notification *a, const ad_notification *b)
{
    return same_text(a->title, b->title) && same_text(a->body, b->body);
}

/* The one entry with the row's text, when it is exactly one; NULL for none or twins. */
static const json_t *only_entry(const ad_notification *row, const json_t *entries)
{
    const json_t *found = NULL, *e;
    size_t i;
    json_array_foreach(entries, i, e) {
        if (!same_text(row->title, json_string_value(json_object_get(e, "summary"))) ||
            !same_text(row->body, json_string_value(json_object_get(e, "body"))))
            continue;
        if (found)
            return NULL;
        found = e;
    }
    return found;
}

static int name_row(ad_notification *row, const char *app)
{
    if (row->app_name)
        return 0;
    return (row->app_name = strdup(app)) ? 0 : -1;
}

int ad_notify_match_apps(ad_notification_surface *s, const json_t *entries)
{
    if (!json_is_array(entries))
        return 0;
    for (size_t i = 0; i < s->count; i++) {
        ad_notification *row = &s->items[i];
        size_t rows_alike = 0;
        for (size_t k = 0; k < s->count; k++)
            rows_alike += row_same(row, &s->items[k]);
        const json_t *e = rows_alike == 1 ? only_entry(row, entries) : NULL;
        const char *app = e ? json_string_value(json_object_get(e, "app_name")) : NULL;
        if (!e || !json_is_true(json_object_get(e, "open")) || !app || !app[0])
            continue;
        if (name_row(row, app) < 0)
            return -1;
        if (s->has_banner && row_same(&s->banner, row) && name_row(&s->banner, app) < 0)
            return -1;
    }
    return 0;
}
