/* budget.c: fitting a presentation into a byte budget (budget.h has the rules). */
#include "core/budget.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t ad_json_bytes(const json_t *j)
{
    return json_dumpb(j, NULL, 0, AD_JSON_OUTPUT_FLAGS);
}

bool ad_budget_set_text(json_t *o, const char *key, const char *s, size_t clip)
{
    size_t len = strlen(s);
    if (!clip || len <= clip) {
        json_object_set_new(o, key, json_string(s));
        return false;
    }
    size_t cut = clip;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--; /* never split a UTF-8 sequence */
    json_object_set_new(o, key, json_stringn(s, cut));
    char lkey[32];
    snprintf(lkey, sizeof(lkey), "%s_length", key);
    json_object_set_new(o, lkey, json_integer((json_int_t)len));
    return true;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;
    return x < y ? -1 : x > y;
}

static int cmp_emitted(const void *a, const void *b)
{
    return cmp_ptr(&((const ad_emitted *)a)->node, &((const ad_emitted *)b)->node);
}

typedef struct {
    const ad_node **a;
    size_t n, cap;
} node_set;

/* Appends n; the set is searchable again after set_sort. */
static int set_push(node_set *s, const ad_node *n)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        const ad_node **a = realloc(s->a, cap * sizeof(*a));
        if (!a)
            return -1;
        s->a = a;
        s->cap = cap;
    }
    s->a[s->n++] = n;
    return 0;
}

static void set_sort(node_set *s)
{
    if (s->n)
        qsort(s->a, s->n, sizeof(*s->a), cmp_ptr);
}

static bool set_has(const node_set *s, const ad_node *n)
{
    return s->n && bsearch(&n, s->a, s->n, sizeof(*s->a), cmp_ptr);
}

/* One presentation: its result, its refs (scratch until accepted) and next ref number. */
typedef struct {
    ad_present_result pr;
    json_t *refs, *data;
    uint64_t next_ref;
} attempt;

static void attempt_clear(attempt *t)
{
    free(t->pr.ref_nodes);
    free(t->pr.emitted);
    json_decref(t->refs);
    json_decref(t->data);
    memset(t, 0, sizeof(*t));
}

typedef struct {
    const ad_node *root;
    const ad_identity_index *idx;
    const ad_present_source *src;
    const char *snapshot_id;
    uint64_t first_ref;
    const ad_budget *b;
    ad_budget_build_fn build;
    void *ud;
    node_set full_refs; /* the nodes the unbudgeted presentation gave refs */
    bool have_full;     /* full_refs is filled (by the first presentation) */
} job;

/* The emitted object of n, or NULL (emitted sorted by node). */
static json_t *shown(const attempt *t, const ad_node *n)
{
    ad_emitted key = {.node = n};
    const ad_emitted *e = t->pr.n_emitted ? bsearch(&key, t->pr.emitted, t->pr.n_emitted,
                                                    sizeof(key), cmp_emitted)
                                          : NULL;
    return e ? e->json : NULL;
}

/* Writes refs_cut on every cut node shown and returns the budget block (new reference). */
static json_t *account(const job *jb, attempt *t, const node_set *cuts, bool truncated)
{
    const ad_budget *b = jb->b;
    node_set mine = {0};
    size_t drill = 0, hidden = 0, cut_shown = 0;
    for (size_t i = 0; i < t->pr.refs_added; i++)
        if (!set_has(&jb->full_refs, t->pr.ref_nodes[i]))
            drill++;
    /* Sorted once, so looking a node up costs a search, not a scan. */
    for (size_t i = 0; i < t->pr.refs_added; i++)
        if (set_push(&mine, t->pr.ref_nodes[i]) < 0)
            break;
    set_sort(&mine);
    qsort(t->pr.emitted, t->pr.n_emitted, sizeof(*t->pr.emitted), cmp_emitted);
    for (size_t i = 0; i < jb->full_refs.n; i++) {
        const ad_node *n = jb->full_refs.a[i];
        if (set_has(&mine, n))
            continue;
        hidden++;
        /* The cut shown above it: a hidden ref always lies under one (present.c drops or
         * collapses only nodes without refs). */
        for (const ad_node *a = n->parent; a; a = a->parent) {
            json_t *o = set_has(cuts, a) ? shown(t, a) : NULL;
            if (o) {
                json_t *c = json_object_get(o, "refs_cut");
                json_object_set_new(o, "refs_cut", json_integer(json_integer_value(c) + 1));
                break;
            }
        }
    }
    for (size_t i = 0; i < cuts->n; i++) {
        json_t *o = shown(t, cuts->a[i]);
        if (o) {
            cut_shown++;
            if (!json_object_get(o, "refs_cut"))
                json_object_set_new(o, "refs_cut", json_integer(0));
        }
    }
    free(mine.a);
    json_t *blk = json_object();
    json_object_set_new(blk, "max_bytes", json_integer(b->max_bytes));
    if (b->max_tokens) {
        json_object_set_new(blk, "max_tokens", json_integer(b->max_tokens));
        json_object_set_new(blk, "bytes_per_token", json_integer(AD_BYTES_PER_TOKEN));
    }
    json_object_set_new(blk, "truncated", json_boolean(truncated));
    json_object_set_new(blk, "cut", json_integer((json_int_t)cut_shown));
    json_object_set_new(blk, "refs_cut", json_integer((json_int_t)hidden));
    json_object_set_new(blk, "drill_refs", json_integer((json_int_t)drill));
    json_object_set_new(blk, "texts_clipped", json_integer((json_int_t)t->pr.texts_clipped));
    if (t->pr.texts_clipped)
        json_object_set_new(blk, "clip_bytes", json_integer(AD_BUDGET_CLIP_BYTES));
    return blk;
}

/* Presents with `o` and measures; returns the data bytes, or 0 on failure. */
static size_t try_present(job *jb, const ad_present_opts *o, const node_set *cuts,
                          bool truncated, attempt *t)
{
    memset(t, 0, sizeof(*t));
    t->refs = json_object();
    t->next_ref = jb->first_ref;
    if (!t->refs || ad_present(jb->root, jb->idx, o, jb->src, jb->snapshot_id, t->refs,
                               &t->next_ref, &t->pr) < 0)
        return 0;
    for (size_t i = 0; !jb->have_full && i < t->pr.refs_added; i++)
        if (set_push(&jb->full_refs, t->pr.ref_nodes[i]) < 0)
            return 0;
    set_sort(&jb->full_refs);
    jb->have_full = true;
    json_t *blk = account(jb, t, cuts, truncated);
    t->data = jb->build(jb->ud, &t->pr);
    json_decref(t->pr.tree); /* the data object holds it now */
    if (!t->data) {
        json_decref(blk);
        return 0;
    }
    json_object_set_new(t->data, "budget", blk);
    return ad_json_bytes(t->data);
}

typedef struct {
    const ad_node *node;
    size_t saving, order;
} candidate;

static bool related(const ad_node *a, const ad_node *b)
{
    for (const ad_node *p = a; p; p = p->parent)
        if (p == b)
            return true;
    for (const ad_node *p = b; p; p = p->parent)
        if (p == a)
            return true;
    return false;
}

/* Adds the next cuts. Each is the smallest container whose cut covers what is still over
 * (its children's bytes, less what a cut node adds); when none does, the largest goes and
 * the rest repeats, never inside or around a container already chosen. Equal sizes go in
 * document order. The root only when nothing else can be cut. Returns how many. */
static size_t choose_cuts(const job *jb, const attempt *t, node_set *cuts, size_t over)
{
    candidate *c = calloc(t->pr.n_emitted + 1, sizeof(*c));
    const ad_node **chosen = calloc(t->pr.n_emitted + 1, sizeof(*chosen));
    size_t n = 0, added = 0;
    bool root_candidate = false;
    if (!c || !chosen) {
        free(c);
        free(chosen);
        return 0;
    }
    for (size_t i = 0; i < t->pr.n_emitted; i++) {
        const ad_emitted *e = &t->pr.emitted[i];
        const json_t *kids = json_object_get(e->json, "children");
        if (json_array_size(kids) == 0 || set_has(cuts, e->node))
            continue;
        if (e->node == jb->root) {
            root_candidate = true;
            continue;
        }
        size_t bytes = ad_json_bytes(kids);
        size_t path[64];
        size_t depth = ad_node_path(e->node, path, 64), order = 0;
        for (size_t d = 0; d < depth && d < 64; d++)
            order = order * 131 + path[d] + 1; /* document order, enough to break ties */
        c[n++] = (candidate){e->node, bytes > 40 ? bytes - 40 : 1, order};
    }
    size_t left = over;
    while (left > 0) {
        long fit = -1, largest = -1;
        for (size_t i = 0; i < n; i++) {
            bool clash = false;
            for (size_t k = 0; k < added && !clash; k++)
                clash = related(c[i].node, chosen[k]);
            if (clash)
                continue;
            const candidate *x = &c[i];
            if (x->saving >= left &&
                (fit < 0 || x->saving < c[fit].saving ||
                 (x->saving == c[fit].saving && x->order < c[fit].order)))
                fit = (long)i;
            if (largest < 0 || x->saving > c[largest].saving ||
                (x->saving == c[largest].saving && x->order < c[largest].order))
                largest = (long)i;
        }
        long pick = fit >= 0 ? fit : largest;
        if (pick < 0 || set_push(cuts, c[pick].node) < 0)
            break;
        chosen[added++] = c[pick].node;
        left = c[pick].saving >= left ? 0 : left - c[pick].saving;
    }
    if (added == 0 && root_candidate && set_push(cuts, jb->root) == 0)
        added = 1;
    set_sort(cuts);
    free(c);
    free(chosen);
    return added;
}

static int too_small(ad_error *err, const ad_budget *b, size_t need)
{
    long long overhead = b->max_bytes - b->data_bytes;
    long long min = (long long)need + overhead;
    if (b->max_tokens)
        ad_error_set(err, AD_INVALID_ARGS, "--max-tokens %lld is too small: the "
                     "smallest output, everything cut, is %lld bytes (about %lld tokens)", b->max_tokens, min,
                     (min + AD_BYTES_PER_TOKEN - 1) / AD_BYTES_PER_TOKEN);
    else
        ad_error_set(err, AD_INVALID_ARGS, "--max-bytes %lld is too small: the "
                     "smallest output, everything cut, is %lld bytes", b->max_bytes,
                     min);
    ad_error_suggest(err, "Raise the budget, or drill a smaller region with snapshot --root");
    ad_error_detail(err, "kind", json_string("budget_too_small"));
    ad_error_detail(err, "min_bytes", json_integer(min));
    return -1;
}

int ad_present_budgeted(const ad_node *root, const ad_identity_index *idx,
                        const ad_present_opts *opts, const ad_present_source *src,
                        const char *snapshot_id, json_t *refs, uint64_t *next_ref,
                        const ad_budget *b, ad_budget_build_fn build, void *ud,
                        json_t **ret_data, ad_present_result *ret, ad_error *err)
{
    job jb = {.root = root, .idx = idx, .src = src, .snapshot_id = snapshot_id,
              .first_ref = *next_ref, .b = b, .build = build, .ud = ud};
    node_set cuts = {0};
    ad_present_opts o = *opts;
    o.record_emitted = true;
    attempt t = {0};
    int rc = -1;
    /* The unbudgeted presentation: what fits as it is, and the refs a cut must account for. */
    size_t bytes = try_present(&jb, &o, &cuts, false, &t);
    if (bytes && (long long)bytes > b->data_bytes) {
        /* Step 1: clip long texts; step 2: cut containers until it fits. */
        o.clip_text_bytes = AD_BUDGET_CLIP_BYTES;
        for (;;) {
            attempt_clear(&t);
            o.cut = cuts.a;
            o.n_cut = cuts.n;
            bytes = try_present(&jb, &o, &cuts, true, &t);
            if (!bytes || (long long)bytes <= b->data_bytes)
                break;
            if (choose_cuts(&jb, &t, &cuts, bytes - (size_t)b->data_bytes) == 0) {
                too_small(err, b, bytes);
                goto done;
            }
        }
    }
    if (!bytes) {
        ad_error_set(err, AD_INTERNAL, "cannot present the snapshot");
        goto done;
    }
    json_object_update(refs, t.refs);
    *next_ref = t.next_ref;
    *ret_data = t.data;
    t.data = NULL;
    *ret = t.pr;
    if (!opts->record_emitted) { /* kept for a caller that asked for them (--since) */
        free(ret->emitted);
        ret->emitted = NULL;
        ret->n_emitted = 0;
    }
    t.pr.ref_nodes = NULL;
    t.pr.emitted = NULL;
    rc = 0;
done:
    attempt_clear(&t);
    free(cuts.a);
    free(jb.full_refs.a);
    return rc;
}

/* ---- find ------------------------------------------------------------------------------ */

static size_t clip_match(json_t *m)
{
    static const char *const keys[] = {"name", "value", "description"};
    size_t n = 0;
    for (size_t i = 0; i < 3; i++) {
        const char *s = json_string_value(json_object_get(m, keys[i]));
        if (s) {
            char *copy = strdup(s);
            n += copy && ad_budget_set_text(m, keys[i], copy, AD_BUDGET_CLIP_BYTES);
            free(copy);
        }
    }
    return n;
}

static void drop_ref(json_t *refs, const json_t *m)
{
    const char *ref = json_string_value(json_object_get(m, "ref_id"));
    const char *colon = ref ? strchr(ref, ':') : NULL;
    char key[40];
    if (colon && snprintf(key, sizeof(key), "@%s", colon + 1) < (int)sizeof(key))
        json_object_del(refs, key);
}

int ad_budget_fit_matches(json_t *d, json_t *refs, const ad_budget *b, ad_error *err)
{
    json_t *blk = json_pack("{s:I, s:b, s:i, s:i}", "max_bytes", (json_int_t)b->max_bytes,
                            "truncated", 0, "matches_cut", 0, "texts_clipped", 0);
    if (b->max_tokens) {
        json_object_set_new(blk, "max_tokens", json_integer(b->max_tokens));
        json_object_set_new(blk, "bytes_per_token", json_integer(AD_BYTES_PER_TOKEN));
    }
    json_object_set_new(d, "budget", blk);
    if ((long long)ad_json_bytes(d) <= b->data_bytes)
        return 0;
    json_t *arr = json_object_get(d, "matches");
    json_t *one = json_object_get(d, "match");
    size_t clipped = 0, cut = 0;
    if (json_is_object(one))
        clipped += clip_match(one);
    size_t i;
    json_t *m;
    json_array_foreach(arr, i, m)
        clipped += clip_match(m);
    json_object_set_new(blk, "truncated", json_true());
    json_object_set_new(blk, "texts_clipped", json_integer((json_int_t)clipped));
    json_object_set_new(blk, "clip_bytes", json_integer(AD_BUDGET_CLIP_BYTES));
    size_t bytes;
    while ((long long)(bytes = ad_json_bytes(d)) > b->data_bytes && json_array_size(arr)) {
        size_t last = json_array_size(arr) - 1;
        drop_ref(refs, json_array_get(arr, last));
        json_array_remove(arr, last);
        json_object_set_new(blk, "matches_cut", json_integer((json_int_t)++cut));
        json_object_set_new(d, "truncated", json_true());
    }
    if ((long long)bytes > b->data_bytes)
        return too_small(err, b, bytes);
    return 0;
}
