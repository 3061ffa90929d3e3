/* walker_cache.c: parsing and indexing Cache.GetItems. */
#include "linux/walker_cache.h"

#include <stdlib.h>
#include <string.h>

#include "linux/atspi_read.h"
#include "linux/walker.h"

typedef struct kids {
    const char *parent; /* borrowed from the reply, like every string of the items */
    const ad_cache_item **items;
    size_t count, cap;
    struct kids *next_in_bucket;
} kids;

/* One announced item and the signal its strings point into. */
typedef struct announced {
    ad_cache_item item;
    sd_bus_message *signal;
    struct announced *next;
} announced;

struct ad_item_cache {
    sd_bus_message *reply; /* referenced: the items' strings point into it */
    announced *added;      /* ad_item_cache_add_announced, newest first */
    ad_cache_item **by_path;
    kids **by_parent;
    size_t n_buckets;
    ad_cache_item *all;
    size_t count;
};

static size_t hash(const char *s, size_t n)
{
    size_t h = 5381;
    for (; *s; s++)
        h = h * 33 + (unsigned char)*s;
    return h % n;
}

/* Reads one "(so)" and returns its two strings (borrowed from the message). */
static int read_ref(sd_bus_message *m, const char **bus, const char **path)
{
    return sd_bus_message_read(m, "(so)", bus, path);
}

static int read_item(sd_bus_message *m, const char *bus_name, ad_cache_item *it, bool *ours)
{
    const char *obus, *opath, *abus, *apath, *pbus, *ppath, *name, *desc, *iface;
    int r = sd_bus_message_enter_container(m, 'r', "(so)(so)(so)iiassusau");
    if (r <= 0)
        return r;
    if ((r = read_ref(m, &obus, &opath)) < 0 || (r = read_ref(m, &abus, &apath)) < 0 ||
        (r = read_ref(m, &pbus, &ppath)) < 0 ||
        (r = sd_bus_message_read(m, "ii", &it->index, &it->child_count)) < 0)
        return r;
    if ((r = sd_bus_message_enter_container(m, 'a', "s")) < 0)
        return r;
    while ((r = sd_bus_message_read(m, "s", &iface)) > 0)
        it->ifaces |= ad_atspi_interface_bit(iface);
    if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0)
        return r;
    if ((r = sd_bus_message_read(m, "sus", &name, &it->role, &desc)) < 0)
        return r;
    if ((r = ad_atspi_read_state_set(m, &it->states)) < 0)
        return r;
    *ours = strcmp(obus, bus_name) == 0;
    if (*ours) {
        it->path = opath;
        it->parent_path = strcmp(pbus, bus_name) == 0 ? ppath : NULL;
        it->name = name;
        it->description = desc;
    }
    r = sd_bus_message_exit_container(m);
    return r < 0 ? r : 1;
}

static kids *kids_for(ad_item_cache *c, const char *parent, bool create)
{
    size_t b = hash(parent, c->n_buckets);
    for (kids *k = c->by_parent[b]; k; k = k->next_in_bucket)
        if (strcmp(k->parent, parent) == 0)
            return k;
    if (!create)
        return NULL;
    kids *k = calloc(1, sizeof(*k));
    if (!k)
        return NULL;
    k->parent = parent;
    k->next_in_bucket = c->by_parent[b];
    c->by_parent[b] = k;
    return k;
}

static void index_item(ad_item_cache *c, ad_cache_item *it)
{
    size_t b = hash(it->path, c->n_buckets);
    it->next_in_bucket = c->by_path[b];
    c->by_path[b] = it;
    if (!it->parent_path)
        return;
    kids *k = kids_for(c, it->parent_path, true);
    if (!k)
        return;
    if (k->count == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 4;
        const ad_cache_item **n = realloc(k->items, k->cap * sizeof(*n));
        if (!n)
            return;
        k->items = n;
    }
    k->items[k->count++] = it;
}

static void index_items(ad_item_cache *c)
{
    for (size_t i = 0; i < c->count; i++)
        index_item(c, &c->all[i]);
}

/* Buckets of an announced cache: a cold GTK 4 window announces a few hundred to a few
 * thousand elements; longer chains only cost a lookup a little more. */
#define ANNOUNCED_BUCKETS 4099

ad_item_cache *ad_item_cache_new_announced(void)
{
    ad_item_cache *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->n_buckets = ANNOUNCED_BUCKETS;
    c->by_path = calloc(c->n_buckets, sizeof(*c->by_path));
    c->by_parent = calloc(c->n_buckets, sizeof(*c->by_parent));
    if (!c->by_path || !c->by_parent) {
        ad_item_cache_free(c);
        return NULL;
    }
    return c;
}

int ad_item_cache_add_announced(ad_item_cache *c, sd_bus_message *signal, const char *bus_name)
{
    announced *a = calloc(1, sizeof(*a));
    if (!c || !a) {
        free(a);
        return 0;
    }
    bool ours = false;
    if (read_item(signal, bus_name, &a->item, &ours) <= 0 || !ours || !a->item.path) {
        free(a);
        return 0;
    }
    a->signal = sd_bus_message_ref(signal);
    a->next = c->added;
    c->added = a;
    c->count++;
    index_item(c, &a->item);
    return 1;
}

ad_item_cache *ad_item_cache_parse(sd_bus_message *reply, const char *bus_name)
{
    if (sd_bus_message_enter_container(reply, 'a', "((so)(so)(so)iiassusau)") <= 0)
        return NULL;
    ad_item_cache *c = calloc(1, sizeof(*c));
    if (c)
        c->reply = sd_bus_message_ref(reply);
    size_t cap = 0;
    int r = 0;
    while (c) {
        if (c->count == cap) {
            cap = cap ? cap * 2 : 256;
            ad_cache_item *a = realloc(c->all, cap * sizeof(*a));
            if (!a) {
                r = -1;
                break;
            }
            c->all = a;
        }
        ad_cache_item *it = &c->all[c->count];
        memset(it, 0, sizeof(*it));
        bool ours = false;
        r = read_item(reply, bus_name, it, &ours);
        if (r <= 0)
            break;
        if (ours && it->path)
            c->count++;
    }
    if (!c || r < 0) {
        ad_item_cache_free(c);
        return NULL;
    }
    c->n_buckets = c->count * 2 + 1;
    c->by_path = calloc(c->n_buckets, sizeof(*c->by_path));
    c->by_parent = calloc(c->n_buckets, sizeof(*c->by_parent));
    if (!c->by_path || !c->by_parent) {
        ad_item_cache_free(c);
        return NULL;
    }
    index_items(c);
    return c;
}

void ad_item_cache_free(ad_item_cache *c)
{
    if (!c)
        return;
    free(c->all);
    for (size_t b = 0; c->by_parent && b < c->n_buckets; b++) {
        kids *k = c->by_parent[b];
        while (k) {
            kids *next = k->next_in_bucket;
            free(k->items);
            free(k);
            k = next;
        }
    }
    free(c->by_parent);
    free(c->by_path);
    sd_bus_message_unref(c->reply);
    while (c->added) {
        announced *a = c->added;
        c->added = a->next;
        sd_bus_message_unref(a->signal);
        free(a);
    }
    free(c);
}

const ad_cache_item *ad_item_cache_get(const ad_item_cache *c, const char *path)
{
    if (!c || c->count == 0)
        return NULL;
    for (ad_cache_item *it = c->by_path[hash(path, c->n_buckets)]; it; it = it->next_in_bucket)
        if (strcmp(it->path, path) == 0)
            return it;
    return NULL;
}

long ad_item_cache_children(const ad_item_cache *c, const ad_cache_item *parent,
                            const ad_cache_item **out, size_t cap)
{
    if (parent->child_count < 0)
        return -1;
    size_t n = (size_t)parent->child_count;
    kids *k = kids_for((ad_item_cache *)c, parent->path, false);
    size_t have = k ? k->count : 0;
    if (have != n || n > cap)
        return n == 0 && have == 0 ? 0 : -1;
    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    for (size_t i = 0; i < have; i++) {
        int32_t idx = k->items[i]->index;
        if (idx < 0 || (size_t)idx >= n || out[idx])
            return -1;
        out[idx] = k->items[i];
    }
    return (long)n;
}
