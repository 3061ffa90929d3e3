/* surface_popup.c: popup toplevels that only host a menu read elsewhere (surface_popup.h). */
#include "core/surface_popup.h"

#include <stdlib.h>
#include <string.h>

struct ad_popup_host {
    json_t *entry; /* borrowed from the list */
    ad_rect bounds;
};

/* An empty, nameless window: what Chromium's <select> popup frame looks like. A read that
 * was cut cannot prove the window empty. */
static bool empty_popup(const ad_window *w, const ad_tree *t)
{
    return (!w->title || !*w->title) && w->bounds_known && w->bounds.width > 0 &&
           w->bounds.height > 0 && t->root && t->complete && t->root->address &&
           t->root->live_child_count == 0 && t->root->n_children == 0;
}

void ad_popup_hosts_note(ad_popup_hosts *h, const ad_window *w, const ad_tree *t,
                         json_t *entry, const ad_node *menu)
{
    if (entry && empty_popup(w, t)) {
        struct ad_popup_host *n = realloc(h->hosts, (h->n_hosts + 1) * sizeof(*n));
        if (n) {
            h->hosts = n;
            h->hosts[h->n_hosts++] = (struct ad_popup_host){entry, w->bounds};
        }
    }
    for (size_t i = 0; menu && i < menu->n_children; i++) {
        const ad_node *c = menu->children[i];
        if (c->bounds_state != AD_FIELD_KNOWN || c->states_state != AD_FIELD_KNOWN ||
            (c->states & ((1u << AD_ST_HIDDEN) | (1u << AD_ST_OFFSCREEN))))
            continue;
        ad_rect *n = realloc(h->items, (h->n_items + 1) * sizeof(*n));
        if (!n)
            break;
        h->items = n;
        h->items[h->n_items++] = c->bounds;
    }
}

static bool inside(const ad_rect *outer, double x, double y)
{
    return x >= outer->x && y >= outer->y && x < outer->x + outer->width &&
           y < outer->y + outer->height;
}

void ad_popup_hosts_fold(ad_popup_hosts *h, json_t *list)
{
    for (size_t i = 0; i < h->n_hosts; i++) {
        bool hosts_menu = false;
        for (size_t j = 0; j < h->n_items && !hosts_menu; j++) {
            const ad_rect *r = &h->items[j];
            hosts_menu = inside(&h->hosts[i].bounds, r->x + r->width / 2, r->y + r->height / 2);
        }
        if (!hosts_menu)
            continue;
        for (size_t k = 0; k < json_array_size(list); k++)
            if (json_array_get(list, k) == h->hosts[i].entry) {
                json_array_remove(list, k);
                break;
            }
    }
    free(h->hosts);
    free(h->items);
    memset(h, 0, sizeof(*h));
}
