/* walker_cache.h: the parsed reply of org.a11y.atspi.Cache.GetItems, indexed by object path
 * and by parent, with the consistency check that decides whether a parent's links can be
 * trusted (walker.h). Owned by the walker; freed with ad_item_cache_free. The items' strings
 * are borrowed from the reply, which the cache keeps referenced until it is freed (a 10k-node
 * reply is ~40,000 strings: copying each cost as many allocations and frees). */
#ifndef AD_WALKER_CACHE_H
#define AD_WALKER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#include "linux/atspi_map.h"

typedef struct ad_cache_item {
    const char *path;        /* object path on the app's bus name */
    const char *parent_path; /* NULL when the parent lives elsewhere */
    int32_t index;     /* index in parent, -1 unknown */
    int32_t child_count; /* -1: not cached (menus, MANAGES_DESCENDANTS) */
    uint32_t ifaces;
    const char *name, *description;
    uint32_t role;
    ad_atspi_states states;
    struct ad_cache_item *next_in_bucket;
} ad_cache_item;

typedef struct ad_item_cache ad_item_cache;

/* Parses a GetItems reply whose items live on bus_name; the cache takes a reference to the
 * reply. NULL when the reply has another shape (an older or newer bridge): the walker then
 * reads everything live. */
ad_item_cache *ad_item_cache_parse(sd_bus_message *reply, const char *bus_name);
void ad_item_cache_free(ad_item_cache *c);

/* An empty cache for the items an app announces while a read runs: GTK 4 builds an element's
 * accessible only when a client first asks for it and then sends it in a Cache.AddAccessible
 * signal, the same item GetItems would give (walker.c). NULL when out of memory. */
ad_item_cache *ad_item_cache_new_announced(void);
/* Adds the item of one AddAccessible signal (its body: one "((so)(so)(so)iiassusau)") when it
 * lives on bus_name; the cache takes a reference to the signal. A path announced again hides
 * the older item. Returns 1 when added, 0 when not (another shape, another bus, no memory). */
int ad_item_cache_add_announced(ad_item_cache *c, sd_bus_message *signal, const char *bus_name);
const ad_cache_item *ad_item_cache_get(const ad_item_cache *c, const char *path);

/* The children of `parent` ordered by index, when the cached links are exactly indices
 * 0..child_count-1 of a parent whose child count is cached. Writes up to cap pointers and
 * returns the count, or -1 when the links cannot be trusted. */
long ad_item_cache_children(const ad_item_cache *c, const ad_cache_item *parent,
                            const ad_cache_item **out, size_t cap);

#endif
