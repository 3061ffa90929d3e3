/* tree_diff.c: pairing two reads of a window by identity (the rules in tree_diff.h). */
#include "core/tree_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/identity.h"
#include "core/present.h"

/* A growable list of entries. */
typedef struct {
    ad_delta_entry *v;
    size_t n, cap;
} entry_list;

typedef struct {
    const ad_tree_diff_opts *opts;
    entry_list added, removed, changed;
    size_t unchanged, unproven;
    bool oom;
} differ;

/* One child of a pair: its identity key (NULL when unknown, rule 4) and the weaker key of
 * rule 3 (role, native id, toolkit class), both owned. */
typedef struct {
    const ad_node *node;
    char *key, *weak;
    size_t index;
    long pair; /* index of its counterpart on the other side, or -1 */
} kid;

static void push(differ *df, entry_list *l, const ad_node *b, const ad_node *a, unsigned f)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        ad_delta_entry *v = realloc(l->v, cap * sizeof(*v));
        if (!v) {
            df->oom = true;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (ad_delta_entry){.before = b, .after = a, .fields = f};
}

/* ---- values ----------------------------------------------------------------------------- */

void ad_tree_value_mark(const char *value, char buf[AD_TREE_VALUE_MARK_SIZE])
{
    unsigned long long h = 1469598103934665603ULL;
    for (const char *p = value; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    snprintf(buf, AD_TREE_VALUE_MARK_SIZE, "\x01%016llx", h);
}

bool ad_tree_value_is_mark(const char *text)
{
    return text && text[0] == '\x01' && strlen(text) == AD_TREE_VALUE_MARK_SIZE - 1;
}

/* ---- own fields ------------------------------------------------------------------------- */

/* A text field differs only when both reads decided it (unknown proves nothing). */
static bool text_differs(const ad_text *b, const ad_text *a)
{
    if (b->state == AD_FIELD_UNKNOWN || a->state == AD_FIELD_UNKNOWN)
        return false;
    if (b->state != a->state)
        return true;
    return b->state == AD_FIELD_KNOWN && strcmp(b->text, a->text) != 0;
}

static bool value_differs(const ad_node *b, const ad_node *a)
{
    if (b->secure || a->secure)
        return false; /* a password field's value is never read */
    if (b->value.state == AD_FIELD_KNOWN && a->value.state == AD_FIELD_KNOWN &&
        ad_tree_value_is_mark(b->value.text)) {
        char mark[AD_TREE_VALUE_MARK_SIZE];
        ad_tree_value_mark(a->value.text, mark);
        return strcmp(mark, b->value.text) != 0;
    }
    return text_differs(&b->value, &a->value);
}

/* Known with none and absent are the same: no actions (a stored read keeps no empty list). */
static bool actions_differ(const ad_node *b, const ad_node *a)
{
    if (b->actions_state == AD_FIELD_UNKNOWN || a->actions_state == AD_FIELD_UNKNOWN)
        return false;
    size_t nb = b->actions_state == AD_FIELD_KNOWN ? b->n_actions : 0;
    size_t na = a->actions_state == AD_FIELD_KNOWN ? a->n_actions : 0;
    if (nb != na)
        return true;
    for (size_t i = 0; i < nb; i++)
        if (strcmp(b->actions[i], a->actions[i]) != 0)
            return true;
    return false;
}

static bool bounds_differ(const ad_node *b, const ad_node *a)
{
    if (b->bounds_state != AD_FIELD_KNOWN || a->bounds_state != AD_FIELD_KNOWN)
        return false;
    /* Half a pixel: a stored read keeps whole numbers (refmap_codec.h) */
    return fabs(b->bounds.x - a->bounds.x) > 0.5 || fabs(b->bounds.y - a->bounds.y) > 0.5 ||
           fabs(b->bounds.width - a->bounds.width) > 0.5 ||
           fabs(b->bounds.height - a->bounds.height) > 0.5;
}

static unsigned own_fields(const differ *df, const ad_node *b, const ad_node *a)
{
    unsigned f = 0;
    if (text_differs(&b->name, &a->name))
        f |= AD_DIFF_NAME;
    if (value_differs(b, a))
        f |= AD_DIFF_VALUE;
    if (text_differs(&b->description, &a->description))
        f |= AD_DIFF_DESCRIPTION;
    if (b->states_state == AD_FIELD_KNOWN && a->states_state == AD_FIELD_KNOWN &&
        b->states != a->states)
        f |= AD_DIFF_STATES;
    if (actions_differ(b, a))
        f |= AD_DIFF_ACTIONS;
    if (df->opts->compare_bounds && bounds_differ(b, a))
        f |= AD_DIFF_BOUNDS;
    return f;
}

/* ---- keys ------------------------------------------------------------------------------- */

/* Joins parts with 0x1f; a NULL part is 0x1e alone (absent differs from empty). */
static char *join(const char *const *parts, size_t n)
{
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += (parts[i] ? strlen(parts[i]) : 1) + 1;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const char *v = parts[i] ? parts[i] : "\x1e";
        size_t l = strlen(v);
        memcpy(p, v, l);
        p += l;
        *p++ = '\x1f';
    }
    *p = '\0';
    return s;
}

static bool fill_kid(kid *k, const ad_node *n, size_t index)
{
    *k = (kid){.node = n, .index = index, .pair = -1};
    if (ad_identity_unknown(n))
        return true;
    ad_identity id = ad_identity_of(n);
    const char *full[] = {id.role, id.native_id, id.name, id.description, id.toolkit_class,
                          id.description_shows_value ? "v" : NULL};
    const char *weak[] = {id.role, id.native_id, id.toolkit_class};
    k->key = join(full, 6);
    k->weak = join(weak, 3);
    return k->key && k->weak;
}

static void free_kids(kid *k, size_t n)
{
    for (size_t i = 0; i < n && k; i++) {
        free(k[i].key);
        free(k[i].weak);
    }
    free(k);
}

static kid *kids_of(const ad_node *n, bool *ok)
{
    kid *k = calloc(n->n_children ? n->n_children : 1, sizeof(*k));
    *ok = k != NULL;
    for (size_t i = 0; k && i < n->n_children; i++)
        if (!fill_kid(&k[i], n->children[i], i))
            *ok = false;
    return k;
}

/* Sorting kids by one of their keys, then by position; kids without that key (or already
 * paired, for rule 3) are left out. Returns the count in *ret_n; the array is the caller's. */
typedef struct {
    const kid *k;
    const char *key;
} keyed;

static int by_key(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->k->index < b->k->index ? -1 : a->k->index > b->k->index);
}

static keyed *sorted(const kid *k, size_t n, bool weak, size_t *ret_n)
{
    keyed *v = malloc((n ? n : 1) * sizeof(*v));
    size_t m = 0;
    for (size_t i = 0; v && i < n; i++) {
        const char *key = weak ? k[i].weak : k[i].key;
        if (key && (!weak || k[i].pair < 0))
            v[m++] = (keyed){.k = &k[i], .key = key};
    }
    if (v)
        qsort(v, m, sizeof(*v), by_key);
    *ret_n = m;
    return v;
}

/* The end of the run of equal keys starting at i. */
static size_t run_end(const keyed *v, size_t n, size_t i)
{
    size_t j = i + 1;
    while (j < n && strcmp(v[j].key, v[i].key) == 0)
        j++;
    return j;
}

/* Rule 2 (weak false): every run of one key with the same length on both sides is paired in
 * order. Rule 3 (weak true): runs of one unpaired node on each side are paired. */
static int pair_runs(kid *kb, size_t nb, kid *ka, size_t na, bool weak)
{
    size_t mb, ma;
    keyed *vb = sorted(kb, nb, weak, &mb), *va = sorted(ka, na, weak, &ma);
    if (!vb || !va) {
        free(vb);
        free(va);
        return -1;
    }
    size_t i = 0, j = 0;
    while (i < mb && j < ma) {
        int c = strcmp(vb[i].key, va[j].key);
        size_t ei = c <= 0 ? run_end(vb, mb, i) : i, ej = c >= 0 ? run_end(va, ma, j) : j;
        if (c == 0 && ei - i == ej - j && (!weak || ei - i == 1))
            for (size_t m = 0; m < ei - i; m++) {
                kid *x = &kb[vb[i + m].k->index], *y = &ka[va[j + m].k->index];
                x->pair = (long)y->index;
                y->pair = (long)x->index;
            }
        i = ei;
        j = ej;
    }
    free(vb);
    free(va);
    return 0;
}

/* ---- the walk --------------------------------------------------------------------------- */

static bool all_children_read(const ad_node *n)
{
    return !n->children_cut &&
           (n->live_child_count < 0 || (size_t)n->live_child_count <= n->n_children);
}

/* The children of one pair, paired by rules 2 and 3 (both arrays owned). */
typedef struct {
    kid *kb, *ka;
    bool removals_proven, additions_proven;
} pairing;

/* Pairs the children of b and a. Returns AD_DIFF_CHILDREN when a child provably appeared
 * or went, else 0; -1 when out of memory. */
static int pair_children(const ad_node *b, const ad_node *a, pairing *p)
{
    bool okb, oka;
    p->kb = kids_of(b, &okb);
    p->ka = kids_of(a, &oka);
    if (!okb || !oka)
        return -1;
    if (pair_runs(p->kb, b->n_children, p->ka, a->n_children, false) < 0 ||
        pair_runs(p->kb, b->n_children, p->ka, a->n_children, true) < 0)
        return -1;
    bool after_unknown = false;
    for (size_t i = 0; i < a->n_children; i++)
        after_unknown |= p->ka[i].key == NULL;
    p->removals_proven = all_children_read(a) && !after_unknown;
    p->additions_proven = all_children_read(b);
    int f = 0;
    for (size_t i = 0; i < a->n_children; i++)
        if (p->ka[i].pair < 0 && p->ka[i].key && p->additions_proven)
            f = AD_DIFF_CHILDREN;
    for (size_t i = 0; i < b->n_children; i++)
        if (p->kb[i].pair < 0 && p->removals_proven)
            f = AD_DIFF_CHILDREN;
    return f;
}

/* Records the pair (b, a), then its children in the after tree's order: a pair's entry goes
 * before its descendants' (document order), its removed children after them. */
static void diff_pair(differ *df, const ad_node *b, const ad_node *a)
{
    pairing p = {0};
    int children = pair_children(b, a, &p);
    if (children < 0) {
        df->oom = true;
        goto done;
    }
    unsigned f = own_fields(df, b, a) | (unsigned)children;
    if (f)
        push(df, &df->changed, b, a, f);
    else
        df->unchanged++;
    for (size_t i = 0; !df->oom && i < a->n_children; i++) {
        const kid *k = &p.ka[i];
        if (k->pair >= 0)
            diff_pair(df, b->children[k->pair], k->node);
        else if (k->key && p.additions_proven)
            push(df, &df->added, NULL, k->node, 0);
        else
            df->unproven++;
    }
    for (size_t i = 0; !df->oom && i < b->n_children; i++) {
        if (p.kb[i].pair >= 0)
            continue;
        if (p.removals_proven)
            push(df, &df->removed, p.kb[i].node, NULL, 0);
        else
            df->unproven++;
    }
done:
    free_kids(p.ka, a->n_children);
    free_kids(p.kb, b->n_children);
}

int ad_tree_diff(const ad_node *before, const ad_node *after, const ad_tree_diff_opts *opts,
                 ad_tree_delta **ret)
{
    differ df = {.opts = opts};
    diff_pair(&df, before, after);
    ad_tree_delta *d = calloc(1, sizeof(*d));
    if (df.oom || !d) {
        free(df.added.v);
        free(df.removed.v);
        free(df.changed.v);
        free(d);
        return -1;
    }
    *d = (ad_tree_delta){.added = df.added.v, .n_added = df.added.n,
                         .removed = df.removed.v, .n_removed = df.removed.n,
                         .changed = df.changed.v, .n_changed = df.changed.n,
                         .n_unchanged = df.unchanged, .n_unproven = df.unproven,
                         .complete = opts->before_complete && opts->after_complete &&
                                     df.unproven == 0};
    *ret = d;
    return 0;
}

void ad_tree_delta_free(ad_tree_delta *d)
{
    if (!d)
        return;
    free(d->added);
    free(d->removed);
    free(d->changed);
    free(d);
}

bool ad_tree_delta_unchanged(const ad_tree_delta *d)
{
    return d->n_added == 0 && d->n_removed == 0 && d->n_changed == 0 && d->n_unproven == 0;
}

/* ---- JSON ------------------------------------------------------------------------------- */

const char *ad_diff_field_name(unsigned bit)
{
    static const char *const names[AD_DIFF_FIELD_COUNT] = {
        "name", "value", "description", "states", "actions", "bounds", "children"};
    for (unsigned i = 0; i < AD_DIFF_FIELD_COUNT; i++)
        if (bit == 1u << i)
            return names[i];
    return NULL;
}

static json_t *default_node(void *ud, const ad_node *n, bool after, bool with_children)
{
    (void)ud;
    (void)with_children;
    return ad_tree_delta_node_brief(n, after);
}

json_t *ad_tree_delta_node_brief(const ad_node *n, bool after)
{
    json_t *o = json_object();
    json_object_set_new(o, "role", json_string(n->role));
    if (ad_text_get(&n->name))
        json_object_set_new(o, "name", json_string(n->name.text));
    if (ad_text_get(&n->description))
        json_object_set_new(o, "description", json_string(n->description.text));
    if (after && !n->secure && ad_text_get(&n->value))
        json_object_set_new(o, "value", json_string(n->value.text));
    if (n->states_state == AD_FIELD_KNOWN && n->states)
        json_object_set_new(o, "states", ad_states_json(n));
    return o;
}

json_t *ad_node_path_json(const ad_node *n)
{
    size_t path[64];
    size_t depth = ad_node_path(n, path, 64);
    json_t *a = json_array();
    for (size_t i = 0; i < depth && i < 64; i++)
        json_array_append_new(a, json_integer((json_int_t)path[i]));
    return a;
}

json_t *ad_diff_fields_json(unsigned f)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < AD_DIFF_FIELD_COUNT; i++)
        if (f & (1u << i))
            json_array_append_new(a, json_string(ad_diff_field_name(1u << i)));
    return a;
}

/* One list of entries, or NULL when it is empty. */
static json_t *list_json(const ad_delta_entry *v, size_t n, ad_delta_node_fn fn, void *ud,
                         int kind)
{
    if (n == 0)
        return NULL;
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        bool after = kind != 1;
        const ad_node *node = after ? v[i].after : v[i].before;
        json_t *o = fn(ud, node, after, kind == 0);
        if (!json_is_object(o)) {
            json_decref(o);
            o = json_object();
        }
        json_object_set_new(o, "path", ad_node_path_json(node));
        if (kind == 1 && ad_node_count(node) > 1)
            json_object_set_new(o, "removed_nodes", json_integer((json_int_t)ad_node_count(node)));
        if (kind == 2)
            json_object_set_new(o, "changed", ad_diff_fields_json(v[i].fields));
        json_array_append_new(a, o);
    }
    return a;
}

/* True when b is the sibling right after the last one a's run covers: the same parent path,
 * the next index. */
static bool next_sibling(const json_t *a, json_int_t run, const json_t *b)
{
    const json_t *pa = json_object_get(a, "path"), *pb = json_object_get(b, "path");
    size_t n = json_array_size(pa);
    if (n == 0 || json_array_size(pb) != n)
        return false;
    for (size_t i = 0; i + 1 < n; i++)
        if (json_integer_value(json_array_get(pa, i)) !=
            json_integer_value(json_array_get(pb, i)))
            return false;
    return json_integer_value(json_array_get(pa, n - 1)) + run ==
           json_integer_value(json_array_get(pb, n - 1));
}

/* True when a and b print the same but for their path and removed_nodes. */
static bool alike(const json_t *a, const json_t *b)
{
    json_t *x = json_copy((json_t *)a), *y = json_copy((json_t *)b);
    static const char *const place[3] = {"path", "removed_nodes", "siblings"};
    for (int i = 0; i < 3; i++) {
        json_object_del(x, place[i]);
        json_object_del(y, place[i]);
    }
    bool same = json_equal(x, y);
    json_decref(x);
    json_decref(y);
    return same;
}

/* Consecutive siblings that print alike but for their place (a filtered list's nameless
 * rows: gtk4-demo's search removed ~100 options, 7 KB of one line repeated) become their
 * first entry with "siblings": N, removed_nodes summed. An entry with a ref is never alike
 * another (refs differ). */
static json_int_t nodes_of(const json_t *e)
{
    const json_t *rn = json_object_get(e, "removed_nodes");
    return rn ? json_integer_value(rn) : 1;
}

static json_t *runs_json(json_t *a)
{
    json_t *out = json_array();
    json_t *head = NULL;
    json_int_t run = 0, nodes = 0; /* siblings the head stands for, and their nodes */
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        if (head && next_sibling(head, run, e) && alike(head, e)) {
            run++;
            nodes += nodes_of(e);
            json_object_set_new(head, "siblings", json_integer(run));
            if (nodes > run) /* some subtree: removed_nodes counts every node of the run */
                json_object_set_new(head, "removed_nodes", json_integer(nodes));
            continue;
        }
        head = e;
        run = 1;
        nodes = nodes_of(e);
        json_array_append(out, e);
    }
    json_decref(a);
    return out;
}

json_t *ad_tree_delta_json(const ad_tree_delta *d, ad_delta_node_fn node_json, void *ud)
{
    ad_delta_node_fn fn = node_json ? node_json : default_node;
    json_t *o = json_object();
    bool unchanged = ad_tree_delta_unchanged(d);
    json_object_set_new(o, "unchanged", json_boolean(unchanged));
    if (unchanged)
        return o;
    json_t *lists[3] = {list_json(d->added, d->n_added, fn, ud, 0),
                        list_json(d->removed, d->n_removed, fn, ud, 1),
                        list_json(d->changed, d->n_changed, fn, ud, 2)};
    for (int i = 0; i < 2; i++)
        if (lists[i])
            lists[i] = runs_json(lists[i]);
    static const char *const keys[3] = {"added", "removed", "changed"};
    for (int i = 0; i < 3; i++)
        if (lists[i])
            json_object_set_new(o, keys[i], lists[i]);
    if (d->n_unproven)
        json_object_set_new(o, "unproven_count", json_integer((json_int_t)d->n_unproven));
    return o;
}
