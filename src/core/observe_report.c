/* observe_report.c: data.changes and details.events of --observe from two reads and the
 * events between them (observe.h). No I/O: the delta is core/tree_diff.h's. */
#include "core/observe.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/tree_diff.h"
#include "core/utf8.h"

#define EVENTS_KEPT 256 /* as the adapter's record: a bound on what one action collects */

/* Removes every "value" member inside j (the delta's nodes and their subtrees). */
static void drop_values(json_t *j)
{
    if (json_is_object(j)) {
        json_object_del(j, "value");
        const char *k;
        json_t *v;
        json_object_foreach(j, k, v)
            drop_values(v);
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v)
            drop_values(v);
    }
}

static json_t *read_error_json(const char *which, const ad_error *e)
{
    return json_pack("{s:s, s:s, s:o}", "read", which, "code", ad_error_code_name(e->code),
                     "message", ad_json_text(e->message ? e->message : ""));
}

ad_tree_delta *ad_observe_diff(const ad_tree *before, const ad_tree *after)
{
    if (!before || !before->root || !after || !after->root)
        return NULL;
    ad_tree_diff_opts opts = {.before_complete = before->complete,
                              .after_complete = after->complete};
    ad_tree_delta *d = NULL;
    return ad_tree_diff(before->root, after->root, &opts, &d) < 0 ? NULL : d;
}

json_t *ad_observe_changes_json(const ad_tree *before, const ad_tree *after,
                                const ad_tree_delta *d, const ad_error *before_error,
                                const ad_error *after_error, const char *settled,
                                int64_t settle_ms, bool hide_values,
                                const ad_observe_snapshot *snap)
{
    bool with_refs = snap && snap->id[0];
    json_t *out = NULL;
    if (!before || !before->root || !after || !after->root) {
        /* A window that was not read is neither changed nor unchanged. */
        out = json_object();
        json_object_set_new(out, "complete", json_false());
        bool b = !before || !before->root;
        ad_error none = AD_ERROR_INIT;
        const ad_error *e = b ? before_error : after_error;
        json_object_set_new(out, "error", read_error_json(b ? "before" : "after",
                                                          e ? e : &none));
    } else {
        if (!d) { /* ad_observe_diff of two reads fails only for memory */
            out = json_pack("{s:b, s:{s:s, s:s}}", "complete", 0, "error", "code", "INTERNAL",
                            "message", "out of memory");
        } else {
            out = with_refs ? ad_tree_delta_json(d, ad_observe_snapshot_node, (void *)snap)
                            : ad_tree_delta_json(d, NULL, NULL);
            if (with_refs)
                json_object_set_new(out, "snapshot_id", json_string(snap->id));
            if (hide_values)
                drop_values(out);
            bool complete = d->complete && before->complete && after->complete;
            /* "unchanged" is a claim about the whole window: only a complete pair of reads
             * makes it. */
            if (!complete && json_is_true(json_object_get(out, "unchanged")))
                json_object_del(out, "unchanged");
            json_object_set_new(out, "complete", json_boolean(complete));
        }
    }
    json_object_set_new(out, "settled", json_string(settled));
    json_object_set_new(out, "settle_ms", json_integer((json_int_t)settle_ms));
    return out;
}

/* ---- events ----------------------------------------------------------------------------- */

typedef struct {
    const char *address;
    const ad_node *node;
} addr_node;

typedef struct {
    addr_node *items;
    size_t n, cap;
} addr_index;

static void index_add(addr_index *ix, const ad_node *n)
{
    if (n->address) {
        if (ix->n == ix->cap) {
            size_t cap = ix->cap ? ix->cap * 2 : 64;
            addr_node *p = realloc(ix->items, cap * sizeof(*p));
            if (!p)
                return; /* the event is then listed without its source's name */
            ix->items = p;
            ix->cap = cap;
        }
        ix->items[ix->n++] = (addr_node){n->address, n};
    }
    for (size_t i = 0; i < n->n_children; i++)
        index_add(ix, n->children[i]);
}

static int by_address(const void *a, const void *b)
{
    return strcmp(((const addr_node *)a)->address, ((const addr_node *)b)->address);
}

static addr_index index_build(const ad_tree *t)
{
    addr_index ix = {0};
    if (t && t->root)
        index_add(&ix, t->root);
    if (ix.n)
        qsort(ix.items, ix.n, sizeof(*ix.items), by_address);
    return ix;
}

static const ad_node *index_find(const addr_index *ix, const char *address)
{
    if (!address || !ix->n)
        return NULL;
    addr_node key = {address, NULL};
    const addr_node *hit = bsearch(&key, ix->items, ix->n, sizeof(*ix->items), by_address);
    return hit ? hit->node : NULL;
}

static bool same_source(const ad_change_event *a, const ad_change_event *b)
{
    return a->address && b->address ? strcmp(a->address, b->address) == 0
                                    : a->address == b->address;
}

/* "kind", "kind:detail", or for a state change "state-changed:checked=true". */
static void event_word(const ad_change_event *ev, char *out, size_t size)
{
    bool state = strcmp(ev->kind, "state-changed") == 0;
    snprintf(out, size, "%s%s%s%s", ev->kind, ev->detail[0] ? ":" : "", ev->detail,
             !state ? "" : ev->value ? "=true" : "=false");
}

static bool listed(const json_t *words, const char *w)
{
    size_t i;
    const json_t *v;
    json_array_foreach(words, i, v)
        if (strcmp(json_string_value(v), w) == 0)
            return true;
    return false;
}

/* True when changes (data.changes) lists an added or changed node at `path`. */
static bool listed_in_changes(const json_t *changes, const json_t *path)
{
    static const char *const keys[2] = {"added", "changed"};
    for (int k = 0; k < 2; k++) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(changes, keys[k]), i, e)
            if (json_equal(json_object_get(e, "path"), path))
                return true;
    }
    return false;
}

/* True when src, a node of the after read, is an added or changed node of changes
 * (data.changes; paths there are after-read paths): the read already shows what its events
 * said. */
static bool explained_by_changes(const ad_node *src, const json_t *changes)
{
    json_t *path = ad_node_path_json(src);
    bool hit = path && listed_in_changes(changes, path);
    json_decref(path);
    return hit;
}

/* One source element and what it signalled: its role and name when it is in a read. */
static json_t *source_json(const ad_node *src)
{
    json_t *o = json_object();
    if (src) {
        json_object_set_new(o, "role", json_string(src->role));
        const char *name = ad_text_get(&src->name);
        if (name)
            json_object_set_new(o, "name", ad_json_text(name));
    }
    json_object_set_new(o, "events", json_array());
    return o;
}

json_t *ad_observe_events_json(const ad_change_events *ev, const ad_tree *before,
                               const ad_tree *after, const json_t *changes,
                               size_t *ret_explained)
{
    size_t explained = 0;
    json_t *list = json_array();
    addr_index in_after = index_build(after), in_before = index_build(before);
    /* Grouped by source in first-seen order; each group's distinct events in order. */
    const ad_change_event **firsts = ev->count ? calloc(ev->count, sizeof(*firsts)) : NULL;
    size_t n_groups = 0, unread = SIZE_MAX; /* the one group of sources in neither read */
    for (size_t i = 0; firsts && i < ev->count; i++) {
        const ad_change_event *e = &ev->items[i];
        const ad_node *src = index_find(&in_after, e->address);
        if (src && changes && explained_by_changes(src, changes)) {
            explained++; /* counted, not listed: its change entry is the proof */
            continue;
        }
        if (!src)
            src = index_find(&in_before, e->address);
        /* Sources in neither read (gone, nameless: gtk4-demo's search sent ~28 alike
         * state-changed:defunct groups, ~1,300 bytes a step) share one group. */
        size_t g = 0;
        if (!src)
            g = unread != SIZE_MAX ? unread : n_groups;
        else
            while (g < n_groups && (g == unread || !same_source(firsts[g], e)))
                g++;
        if (g == n_groups) {
            if (n_groups == AD_OBSERVE_EVENTS_LISTED)
                continue; /* counted in events_count only */
            if (!src)
                unread = n_groups;
            firsts[n_groups++] = e;
            json_array_append_new(list, source_json(src));
        }
        json_t *group = json_array_get(list, g);
        json_t *words = json_object_get(group, "events");
        char w[96];
        event_word(e, w, sizeof(w));
        if (!listed(words, w))
            json_array_append_new(words, ad_json_text(w));
        json_t *count = json_object_get(group, "count");
        json_object_set_new(group, "count", json_integer(count ? json_integer_value(count) + 1
                                                               : 1));
    }
    /* A count that only repeats the number of words says nothing. */
    size_t g;
    json_t *group;
    json_array_foreach(list, g, group)
        if ((size_t)json_integer_value(json_object_get(group, "count")) ==
            json_array_size(json_object_get(group, "events")))
            json_object_del(group, "count");
    free(in_after.items);
    free(in_before.items);
    free(firsts);
    if (ret_explained)
        *ret_explained = explained;
    return list;
}

void ad_observe_events_append(ad_change_events *dst, ad_change_events *src)
{
    size_t room = dst->count < EVENTS_KEPT ? EVENTS_KEPT - dst->count : 0;
    size_t take = src->count < room ? src->count : room;
    ad_change_event *grown = take ? realloc(dst->items, (dst->count + take) * sizeof(*grown))
                                  : dst->items;
    if (!grown)
        take = 0;
    else
        dst->items = grown;
    for (size_t i = 0; i < take; i++) {
        dst->items[dst->count++] = src->items[i];
        src->items[i].address = NULL; /* moved */
    }
    dst->dropped += src->dropped + (src->count - take);
    ad_change_events_clear(src);
}

/* ---- under a budget ---------------------------------------------------------------------- */

/* Removes the last entry of changes' lists, taken in the order changed, removed, added (the
 * delta lists them added, removed, changed: this cuts from its end). False when none is left. */
static bool drop_last_change(json_t *changes)
{
    static const char *const keys[3] = {"changed", "removed", "added"};
    for (int i = 0; i < 3; i++) {
        json_t *a = json_object_get(changes, keys[i]);
        size_t n = json_array_size(a);
        if (n == 0)
            continue;
        json_array_remove(a, n - 1);
        if (n == 1)
            json_object_del(changes, keys[i]);
        return true;
    }
    return false;
}

int ad_observe_fit_report(json_t *report, long long max_bytes)
{
    if ((long long)ad_json_bytes(report) <= max_bytes)
        return 0;
    json_t *details = json_object_get(report, "details");
    if (json_object_get(details, "events")) {
        json_object_del(details, "events"); /* events_count stays */
        json_object_set_new(details, "events_cut", json_true());
    }
    json_t *changes = json_object_get(report, "changes");
    json_int_t cut = 0;
    while ((long long)ad_json_bytes(report) > max_bytes && json_is_object(changes)) {
        if (!drop_last_change(changes))
            break;
        cut++;
        /* The first cut adds these three fields: they count toward the size. */
        json_object_set_new(changes, "truncated", json_true());
        json_object_set_new(changes, "entries_cut", json_integer(cut));
        json_object_set_new(changes, "complete", json_false());
    }
    return (long long)ad_json_bytes(report) <= max_bytes ? 0 : -1;
}
