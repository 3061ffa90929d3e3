/* x11_geometry.c: AT-SPI window to X11 client matching and window rectangles. */
#include "linux/x11_geometry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NEAR_PX 2.0

void ad_x11_clients_free(ad_x11_clients *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i].title);
    free(l->items);
    l->items = NULL;
    l->count = 0;
}

/* The X window without GTK's shadow. */
static ad_rect without_shadow(const ad_x11_client *c)
{
    int w = c->width - c->frame_left - c->frame_right;
    int h = c->height - c->frame_top - c->frame_bottom;
    if (w <= 0 || h <= 0) /* extents that do not fit: the X window is all there is */
        return (ad_rect){c->x, c->y, c->width, c->height};
    return (ad_rect){c->x + c->frame_left, c->y + c->frame_top, w, h};
}

ad_rect ad_x11_client_visible(const ad_x11_client *c)
{
    ad_rect r = without_shadow(c);
    return (ad_rect){r.x - c->wm_left, r.y - c->wm_top, r.width + c->wm_left + c->wm_right,
                     r.height + c->wm_top + c->wm_bottom};
}

static bool near_rect(ad_rect a, const ad_rect *b)
{
    return fabs(a.x - b->x) <= NEAR_PX && fabs(a.y - b->y) <= NEAR_PX &&
           fabs(a.width - b->width) <= NEAR_PX && fabs(a.height - b->height) <= NEAR_PX;
}

static bool geometry_fits(const ad_x11_client *c, const ad_rect *atspi, bool window_relative)
{
    if (!atspi)
        return true;
    ad_rect inner = without_shadow(c);
    if (window_relative)
        return inner.width + NEAR_PX >= atspi->width && inner.height + NEAR_PX >= atspi->height;
    ad_rect whole = {c->x, c->y, c->width, c->height};
    return near_rect(whole, atspi) || near_rect(inner, atspi) ||
           near_rect(ad_x11_client_visible(c), atspi);
}

const ad_x11_client *ad_x11_client_pick(const ad_x11_clients *l, int pid, const char *title,
                                        const ad_rect *atspi, bool window_relative)
{
    const ad_x11_client *found = NULL;
    int matches = 0;
    for (size_t i = 0; l && pid > 0 && i < l->count; i++) {
        const ad_x11_client *c = &l->items[i];
        if (c->popup || c->pid != pid || !geometry_fits(c, atspi, window_relative))
            continue;
        if (title && *title && (!c->title || strcmp(c->title, title) != 0))
            continue;
        found = c;
        matches++;
    }
    return matches == 1 ? found : NULL;
}

const ad_x11_client *ad_x11_client_of_window(const ad_x11_clients *l, int pid,
                                             const char *title, const ad_rect *atspi,
                                             bool window_relative)
{
    const ad_x11_client *c = ad_x11_client_pick(l, pid, title, atspi, window_relative);
    if (!c && atspi && !window_relative && title && *title)
        c = ad_x11_client_pick(l, pid, NULL, atspi, false);
    /* A minimized GTK 3 window's extents need not match its unmapped X window: the title
     * alone, when one window of the process has it. */
    if (!c && atspi && title && *title)
        c = ad_x11_client_pick(l, pid, title, NULL, false);
    return c;
}

const ad_x11_client *ad_x11_popup_pick(const ad_x11_clients *l, int pid, double w, double h)
{
    const ad_x11_client *found = NULL;
    int matches = 0;
    for (size_t i = 0; l && pid > 0 && i < l->count; i++) {
        const ad_x11_client *c = &l->items[i];
        if (c->popup && c->pid == pid && fabs(c->width - w) <= 1 && fabs(c->height - h) <= 1) {
            found = c;
            matches++;
        }
    }
    return matches == 1 ? found : NULL;
}

void ad_x11_client_relative_origin(const ad_x11_client *c, double frame_w, double frame_h,
                                   int *ret_x, int *ret_y)
{
    ad_rect inner = without_shadow(c);
    double inset_x = inner.width > frame_w ? (inner.width - frame_w) / 2 : 0;
    double inset_y = inner.height > frame_h ? (inner.height - frame_h) / 2 : 0;
    *ret_x = (int)inner.x + (int)inset_x;
    *ret_y = (int)inner.y + (int)inset_y;
}
