/* identity.c: a small chained hash table of identity keys. */
#include "core/identity.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    char *key;
    size_t count;
    struct entry *next;
} entry;

struct ad_identity_index {
    entry **buckets;
    size_t n_buckets;
    char **unknown_roles; /* roles with an unknown identity field somewhere */
    size_t n_unknown;
};

static char *make_key(const char *role, const char *native_id, const char *name,
                      const char *description)
{
    /* \x1f separates fields; a leading \x1e marks "present" so "" and absent differ. */
    const char *parts[4] = {role, native_id, name, description};
    size_t len = 1;
    for (int i = 0; i < 4; i++)
        len += (parts[i] ? strlen(parts[i]) : 0) + 2;
    char *k = malloc(len);
    if (!k)
        return NULL;
    char *p = k;
    for (int i = 0; i < 4; i++) {
        if (parts[i]) {
            *p++ = '\x1e';
            size_t l = strlen(parts[i]);
            memcpy(p, parts[i], l);
            p += l;
        }
        *p++ = '\x1f';
    }
    *p = '\0';
    return k;
}

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static entry *lookup(const ad_identity_index *idx, const char *key)
{
    for (entry *e = idx->buckets[hash(key) % idx->n_buckets]; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

static int add_node(ad_identity_index *idx, const ad_node *n)
{
    if (ad_node_identity_unknown(n)) {
        for (size_t i = 0; i < idx->n_unknown; i++)
            if (strcmp(idx->unknown_roles[i], n->role) == 0)
                return 0;
        char **r = realloc(idx->unknown_roles, (idx->n_unknown + 1) * sizeof(*r));
        if (!r)
            return -1;
        idx->unknown_roles = r;
        r[idx->n_unknown++] = (char *)n->role; /* roles are static strings */
        return 0;
    }
    char *key = make_key(n->role, ad_text_get(&n->native_id), ad_text_get(&n->name),
                         ad_text_get(&n->description));
    if (!key)
        return -1;
    entry *e = lookup(idx, key);
    if (e) {
        e->count++;
        free(key);
        return 0;
    }
    e = malloc(sizeof(*e));
    if (!e) {
        free(key);
        return -1;
    }
    size_t b = hash(key) % idx->n_buckets;
    *e = (entry){.key = key, .count = 1, .next = idx->buckets[b]};
    idx->buckets[b] = e;
    return 0;
}

static int add_tree(ad_identity_index *idx, const ad_node *n)
{
    if (add_node(idx, n) < 0)
        return -1;
    for (size_t i = 0; i < n->n_children; i++)
        if (add_tree(idx, n->children[i]) < 0)
            return -1;
    return 0;
}

ad_identity_index *ad_identity_index_build(const ad_node *root)
{
    ad_identity_index *idx = calloc(1, sizeof(*idx));
    if (!idx)
        return NULL;
    size_t n = root ? ad_node_count(root) : 1;
    idx->n_buckets = n * 2 + 1;
    idx->buckets = calloc(idx->n_buckets, sizeof(*idx->buckets));
    if (!idx->buckets || (root && add_tree(idx, root) < 0)) {
        ad_identity_index_free(idx);
        return NULL;
    }
    return idx;
}

void ad_identity_index_free(ad_identity_index *idx)
{
    if (!idx)
        return;
    for (size_t i = 0; idx->buckets && i < idx->n_buckets; i++) {
        entry *e = idx->buckets[i];
        while (e) {
            entry *next = e->next;
            free(e->key);
            free(e);
            e = next;
        }
    }
    free(idx->buckets);
    free(idx->unknown_roles);
    free(idx);
}

size_t ad_identity_count(const ad_identity_index *idx, const char *role, const char *native_id,
                         const char *name, const char *description)
{
    char *key = make_key(role, native_id, name, description);
    if (!key)
        return 0;
    entry *e = lookup(idx, key);
    free(key);
    return e ? e->count : 0;
}

bool ad_identity_role_unknown(const ad_identity_index *idx, const char *role)
{
    for (size_t i = 0; i < idx->n_unknown; i++)
        if (strcmp(idx->unknown_roles[i], role) == 0)
            return true;
    return false;
}

bool ad_identity_unique(const ad_identity_index *idx, const ad_node *n)
{
    if (ad_node_identity_unknown(n) || ad_identity_role_unknown(idx, n->role))
        return false;
    return ad_identity_count(idx, n->role, ad_text_get(&n->native_id), ad_text_get(&n->name),
                             ad_text_get(&n->description)) == 1;
}

static bool text_eq(const ad_text *t, const char *want)
{
    const char *have = ad_text_get(t);
    if (!have || !want)
        return !have && !want;
    return strcmp(have, want) == 0;
}

bool ad_identity_matches(const ad_node *n, const char *role, const char *native_id,
                         const char *name, const char *description)
{
    return strcmp(n->role, role) == 0 && text_eq(&n->native_id, native_id) &&
           text_eq(&n->name, name) && text_eq(&n->description, description);
}
