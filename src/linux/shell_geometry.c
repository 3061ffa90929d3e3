/* shell_geometry.c: GNOME Shell's window list and AT-SPI window matching (shell_geometry.h). */
#include "linux/shell_geometry.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ad_shell_windows_free(ad_shell_windows *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i].title);
    free(l->items);
    memset(l, 0, sizeof(*l));
}

static bool read_rect(const json_t *a, ad_rect *ret)
{
    if (!json_is_array(a) || json_array_size(a) != 4)
        return false;
    double v[4];
    for (size_t i = 0; i < 4; i++) {
        const json_t *n = json_array_get(a, i);
        if (!json_is_number(n))
            return false;
        v[i] = json_number_value(n);
    }
    *ret = (ad_rect){v[0], v[1], v[2], v[3]};
    return v[2] >= 0 && v[3] >= 0;
}

static bool read_window(const json_t *o, ad_shell_window *ret)
{
    memset(ret, 0, sizeof(*ret));
    const json_t *pid = json_object_get(o, "pid"), *title = json_object_get(o, "title");
    if (!json_is_object(o) || !json_is_integer(pid) || !read_rect(json_object_get(o, "frame"),
                                                                  &ret->frame) ||
        !read_rect(json_object_get(o, "buffer"), &ret->buffer))
        return false;
    ret->pid = json_integer_value(pid) > 0 ? (int)json_integer_value(pid) : 0;
    ret->client_type = (int)json_integer_value(json_object_get(o, "client"));
    ret->popup = json_is_true(json_object_get(o, "popup"));
    ret->minimized = json_is_true(json_object_get(o, "minimized"));
    ret->focused = json_is_true(json_object_get(o, "focused"));
    if (json_is_string(title) && !(ret->title = strdup(json_string_value(title))))
        return false;
    return true;
}

int ad_shell_windows_parse(const char *text, ad_shell_windows *ret)
{
    memset(ret, 0, sizeof(*ret));
    json_t *root = json_loads(text, 0, NULL);
    const json_t *wins = json_object_get(root, "windows");
    const json_t *shell = json_object_get(root, "shell_pid");
    int rc = -1;
    if (!json_is_array(wins) || !json_is_integer(shell))
        goto done;
    ret->shell_pid = (int)json_integer_value(shell);
    const json_t *screen = json_object_get(root, "screen");
    if (json_is_array(screen) && json_array_size(screen) == 2 &&
        json_is_integer(json_array_get(screen, 0)) && json_is_integer(json_array_get(screen, 1)))
        ret->screen = (ad_rect){0, 0, (double)json_integer_value(json_array_get(screen, 0)),
                                (double)json_integer_value(json_array_get(screen, 1))};
    ret->items = calloc(json_array_size(wins) ? json_array_size(wins) : 1, sizeof(*ret->items));
    if (!ret->items)
        goto done;
    for (size_t i = 0; i < json_array_size(wins); i++) {
        if (!read_window(json_array_get(wins, i), &ret->items[ret->count])) {
            free(ret->items[ret->count].title);
            goto done;
        }
        ret->count++;
    }
    rc = 0;
done:
    json_decref(root);
    if (rc < 0)
        ad_shell_windows_free(ret);
    return rc;
}

static bool same_size(const ad_rect *r, double w, double h)
{
    return fabs(r->width - w) <= 1 && fabs(r->height - h) <= 1;
}

/* The rectangle of s whose size is w x h: the buffer first (GTK 3 counts its shadow), then
 * the frame (GTK 4 does not). NULL when neither. */
static const ad_rect *sized_rect(const ad_shell_window *s, double w, double h)
{
    if (same_size(&s->buffer, w, h))
        return &s->buffer;
    if (same_size(&s->frame, w, h))
        return &s->frame;
    return NULL;
}

static const ad_shell_window *pick(const ad_shell_windows *l, int pid, const char *title,
                                   bool popup, double w, double h, ad_rect *ret_origin)
{
    const ad_shell_window *found = NULL;
    const ad_rect *origin = NULL;
    bool any_title = !title || !*title;
    if (pid <= 0)
        return NULL;
    for (size_t i = 0; i < l->count; i++) {
        const ad_shell_window *s = &l->items[i];
        if (s->pid != pid || s->popup != popup)
            continue;
        if (!any_title && (!s->title || strcmp(s->title, title) != 0))
            continue;
        const ad_rect *r = sized_rect(s, w, h);
        if (!r)
            continue;
        if (found)
            return NULL; /* two candidates: ambiguous */
        found = s;
        origin = r;
    }
    if (found)
        *ret_origin = (ad_rect){origin->x, origin->y, w, h};
    return found;
}

const ad_shell_window *ad_shell_window_of(const ad_shell_windows *l, int pid, const char *title,
                                          double w, double h, ad_rect *ret_origin)
{
    return pick(l, pid, title, false, w, h, ret_origin);
}

const ad_shell_window *ad_shell_popup_of(const ad_shell_windows *l, int pid, double w, double h,
                                         ad_rect *ret_origin)
{
    return pick(l, pid, NULL, true, w, h, ret_origin);
}
