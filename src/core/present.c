/* present.c: snapshot presentation, ref allocation and drill targets.
 *
 * Drill targets (skeleton-and-drill-down.md, "Find the drill target"), as this build applies
 * them: a container cut by the depth limit is a target when it earns a ref (rule 1), or when
 * it can be re-identified without guessing (rule 2). Off macOS a ref carries no address, so
 * "can be re-identified" means one of:
 *   - its own identity (role, native id, name, description) was unique in the whole window; or
 *   - an anchor: a descendant whose identity was unique, recorded with the number of parent
 *     hops up to the container. Resolution counts the anchor live (exactly one match), walks up
 *     the same hops and checks the container's role and identity again.
 * Bounds alone never qualify: two unnamed groups with an area are indistinguishable, and a
 * rectangle is not identity (snapshots-and-refs.md). A cut container with neither moves the
 * target to its nearest qualifying ancestor (rule 3), the window root never is one, and the
 * deepest candidate wins (rule 4). GTK4 apps such as Debian 12's gnome-calculator expose
 * containers with no name or id; the anchor rule is what makes them drillable.
 */
#include "core/present.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/refs.h"

bool ad_node_is_wrapper(const ad_node *n)
{
    bool container = strcmp(n->role, "group") == 0 || strcmp(n->role, "unknown") == 0;
    return container && n->name.state == AD_FIELD_ABSENT &&
           n->description.state == AD_FIELD_ABSENT && n->native_id.state == AD_FIELD_ABSENT &&
           !ad_node_refable(n);
}

json_t *ad_rect_json(const ad_rect *r)
{
    return json_pack("{s:f, s:f, s:f, s:f}", "height", r->height, "width", r->width, "x", r->x,
                     "y", r->y);
}

json_t *ad_native_id_json(const char *id)
{
    /* The spec's examples name the kind ax_identifier on every platform. */
    return json_pack("{s:s, s:s}", "kind", "ax_identifier", "value", id);
}

json_t *ad_states_json(const ad_node *n)
{
    json_t *a = json_array();
    for (unsigned b = 0; b < AD_ST_COUNT; b++)
        if (n->states & (1u << b))
            json_array_append_new(a, json_string(ad_state_token(b)));
    return a;
}

void ad_rect_hash(const ad_rect *r, char buf[17])
{
    char text[128];
    snprintf(text, sizeof(text), "%.1f,%.1f,%.1f,%.1f", r->x, r->y, r->width, r->height);
    unsigned long long h = 1469598103934665603ULL;
    for (const char *p = text; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    snprintf(buf, 17, "%016llx", h);
}

/* ---- drill targets ---------------------------------------------------------------------- */

typedef struct {
    const ad_node *node;
    int hops;
} anchor;

/* The shallowest descendant whose identity is unique and carries a name or id. */
static anchor find_anchor(const ad_node *container, const ad_identity_index *idx)
{
    const ad_node *level[2][4096];
    size_t n_cur = 0, n_next;
    level[0][n_cur++] = container;
    for (int hops = 1, cur = 0; n_cur > 0 && hops <= 50; hops++, cur ^= 1) {
        n_next = 0;
        for (size_t i = 0; i < n_cur; i++) {
            const ad_node *p = level[cur][i];
            for (size_t c = 0; c < p->n_children; c++) {
                const ad_node *ch = p->children[c];
                bool named = ch->name.state == AD_FIELD_KNOWN ||
                             ch->native_id.state == AD_FIELD_KNOWN;
                if (named && ad_identity_unique(idx, ch))
                    return (anchor){ch, hops};
                if (n_next < 4096)
                    level[cur ^ 1][n_next++] = ch;
            }
        }
        n_cur = n_next;
    }
    return (anchor){NULL, 0};
}

typedef struct {
    const ad_present_opts *opts;
    const ad_identity_index *idx;
    const ad_present_source *src;
    const ad_node *root;
    /* drill target marks, parallel to a flat walk: kept in a small pointer set */
    const ad_node **targets;
    size_t n_targets, cap_targets;
} presenter;


static void add_target(presenter *p, const ad_node *n)
{
    if (p->n_targets == p->cap_targets) {
        size_t cap = p->cap_targets ? p->cap_targets * 2 : 16;
        const ad_node **t = realloc(p->targets, cap * sizeof(*t));
        if (!t)
            return;
        p->targets = t;
        p->cap_targets = cap;
    }
    p->targets[p->n_targets++] = n;
}

static int child_depth(const ad_node *n, int depth)
{
    return ad_node_is_wrapper(n) ? depth : depth + 1;
}

static bool has_children(const ad_node *n)
{
    return n->n_children > 0 || n->live_child_count > 0;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(const ad_node *const *)a, y = (uintptr_t)*(const ad_node *const *)b;
    return x < y ? -1 : x > y;
}

/* The targets are sorted by address once marked (ad_present): every emitted node asks, and a
 * scan made a wide window with thousands of cut containers quadratic. */
static bool is_target(const presenter *p, const ad_node *n)
{
    return p->n_targets &&
           bsearch(&n, p->targets, p->n_targets, sizeof(*p->targets), cmp_ptr) != NULL;
}

/* Cut by the depth limit (its children lie below max_depth) or by a budget (opts->cut): a
 * container shown without its children, with children_count and a drill target. */
static bool depth_cut(const presenter *p, const ad_node *n, int depth)
{
    if (!has_children(n))
        return false;
    if (child_depth(n, depth) > p->opts->max_depth)
        return true;
    return p->opts->n_cut &&
           bsearch(&n, p->opts->cut, p->opts->n_cut, sizeof(*p->opts->cut), cmp_ptr);
}

static bool identifiable(const presenter *p, const ad_node *n)
{
    return ad_identity_unique(p->idx, n) || find_anchor(n, p->idx).node != NULL;
}

/* Pass 1: returns true when the subtree holds a cut container that still needs a target. */
static bool mark_targets(presenter *p, const ad_node *n, int depth)
{
    bool is_root = n == p->root;
    if (depth_cut(p, n, depth)) {
        /* A ref-able container keeps its ordinary ref (rule 1), but when that ref cannot be
         * resolved (not unique) an ancestor must cover the cut too. */
        bool refable = ad_node_refable(n);
        if (!is_root && refable && ad_identity_unique(p->idx, n))
            return false;
        if (!is_root && !refable && identifiable(p, n)) {
            add_target(p, n);
            return false;
        }
        return true;
    }
    bool needs = false;
    for (size_t i = 0; i < n->n_children; i++)
        needs |= mark_targets(p, n->children[i], child_depth(n, depth));
    if (needs && !is_root && (ad_node_refable(n) ? ad_identity_unique(p->idx, n)
                                                  : identifiable(p, n))) {
        add_target(p, n);
        return false;
    }
    return needs;
}

/* ---- ref entries ------------------------------------------------------------------------ */

static void set_text(json_t *o, const char *key, const ad_text *t)
{
    const char *s = ad_text_get(t);
    if (s)
        json_object_set_new(o, key, json_string(s));
}

/* A presented text field: clipped at a UTF-8 boundary when longer than `clip` bytes (0: no
 * limit), with <key>_length stating the full length, never silently. */
static void show_text(json_t *o, const char *key, const ad_text *t, size_t clip,
                      size_t *clipped)
{
    const char *s = ad_text_get(t);
    if (s && ad_budget_set_text(o, key, s, clip))
        (*clipped)++;
}

/* The nearest name around n, as a role:name selector (new string), or NULL: level by level
 * up the ancestors, the siblings before the path (nearest first: the label beside a
 * control), then the ancestor itself. GTK3 containers carry no names, so the ancestor
 * alone would name nothing in gtk3-widget-factory. */
static json_t *named_context(const ad_node *n)
{
    for (const ad_node *child = n, *a = n->parent; a; child = a, a = a->parent) {
        for (size_t i = a->n_children; i-- > 0;) {
            if (a->children[i] != child)
                continue;
            while (i-- > 0) {
                const ad_node *s = a->children[i];
                const char *name = ad_node_display_text(s);
                if (name)
                    return json_sprintf("%s:%s", s->role, name);
            }
            break;
        }
        const char *name = ad_text_get(&a->name);
        if (name)
            return json_sprintf("%s:%s", a->role, name);
    }
    return NULL;
}

void ad_present_annotate_unique(json_t *o, const ad_node *n, const json_t *entry)
{
    /* The entry's own verdict, the one resolution reads: never a second copy of it. */
    if (json_is_true(json_object_get(entry, "unique_at_capture")))
        return;
    json_object_set_new(o, "unique", json_false());
    json_t *ctx = named_context(n);
    if (ctx)
        json_object_set_new(o, "context", ctx);
}

static void set_str(json_t *o, const char *key, const char *s)
{
    if (s)
        json_object_set_new(o, key, json_string(s));
}

/* The identity fields of n (identity.c rules) into a ref entry or an anchor record: what
 * resolution compares, so a description that shows a value is stored only as that fact. */
static void set_identity(json_t *o, const ad_node *n)
{
    ad_identity id = ad_identity_of(n);
    json_object_set_new(o, "role", json_string(id.role));
    set_str(o, "name", id.name);
    set_str(o, "description", id.description);
    set_str(o, "native_id", id.native_id);
    set_str(o, "toolkit_class", id.toolkit_class);
    if (id.description_shows_value)
        json_object_set_new(o, "description_shows_value", json_true());
}

json_t *ad_refmap_source_new(const ad_present_source *src)
{
    const ad_window *w = src->window;
    json_t *o = json_object();
    json_object_set_new(o, "pid", json_integer(w->pid));
    json_object_set_new(o, "process_instance",
                        w->process_instance ? json_string(w->process_instance) : json_null());
    json_object_set_new(o, "source_app", json_string(src->app_name ? src->app_name : ""));
    json_object_set_new(o, "source_window_id", json_string(w->id));
    json_object_set_new(o, "source_window_title", w->title ? json_string(w->title) : json_null());
    if (w->bounds_known) {
        char h[17];
        ad_rect_hash(&w->bounds, h);
        json_object_set_new(o, "source_window_bounds_hash", json_string(h));
    }
    json_object_set_new(o, "source_surface", json_string(src->surface));
    json_object_set_new(o, "bounds_space", json_string("screen"));
    json_object_set_new(o, "path_is_absolute", json_true());
    return o;
}

json_t *ad_ref_entry_new(const ad_node *n, const ad_identity_index *idx,
                         const ad_present_source *src, bool drill_target)
{
    json_t *e = json_object();
    set_identity(e, n);
    if (!n->secure)
        set_text(e, "value", &n->value);
    bool unique = src->identity_proven && ad_identity_unique(idx, n);
    if (src->identity_proven && !unique && drill_target && !ad_node_refable(n)) {
        anchor a = find_anchor(n, idx);
        if (a.node) {
            json_t *aj = json_object();
            set_identity(aj, a.node);
            json_object_set_new(aj, "hops", json_integer(a.hops));
            /* The identities between anchor and container, nearest the anchor first, so a
             * restructured region fails instead of landing on another container. */
            json_t *between = json_array();
            const ad_node *p = a.node->parent;
            for (int h = 1; h < a.hops && p; h++, p = p->parent) {
                json_t *b = json_object();
                set_identity(b, p);
                json_array_append_new(between, b);
            }
            json_object_set_new(aj, "between", between);
            json_object_set_new(e, "anchor", aj);
            unique = true;
        }
    }
    json_object_set_new(e, "unique_at_capture", json_boolean(unique));
    if (n->bounds_state == AD_FIELD_KNOWN) {
        char h[17];
        ad_rect_hash(&n->bounds, h);
        json_object_set_new(e, "bounds", ad_rect_json(&n->bounds));
        json_object_set_new(e, "bounds_hash", json_string(h));
    }
    if (n->states_state == AD_FIELD_KNOWN && n->states)
        json_object_set_new(e, "states", ad_states_json(n));
    if ((!drill_target || ad_node_refable(n)) && n->n_actions) {
        json_t *acts = json_array();
        for (size_t i = 0; i < n->n_actions; i++)
            json_array_append_new(acts, json_string(n->actions[i]));
        json_object_set_new(e, "available_actions", acts);
    }
    if (drill_target)
        json_object_set_new(e, "drill_target", json_true());
    size_t path[64];
    size_t depth = ad_node_path(n, path, 64);
    json_t *pj = json_array();
    for (size_t i = 0; i < depth && i < 64; i++)
        json_array_append_new(pj, json_integer((json_int_t)path[i]));
    json_object_set_new(e, "path", pj);
    if (src->root_ref_key)
        json_object_set_new(e, "root_ref", json_string(src->root_ref_key));
    return e;
}

/* ---- pass 2: emit ----------------------------------------------------------------------- */

typedef struct {
    presenter *p;
    const char *snapshot_id;
    json_t *refs;
    uint64_t *next_ref;
    size_t added;
    const ad_node **nodes;
    size_t cap_nodes;
    size_t clipped;
    ad_emitted *emitted;
    size_t n_emitted, cap_emitted;
    bool sink_failed;
    /* One JSON string per distinct role or action name, shared by every node that shows it
     * (the emitter holds one reference to each): a big window has a handful of words and
     * would otherwise allocate two strings for them per node. */
    struct {
        const char *text; /* borrowed from the read */
        json_t *json;
    } words[64];
    size_t n_words;
} emitter;

/* The shared string for s (new reference): the same bytes json_string(s) gives. */
static json_t *word(emitter *em, const char *s)
{
    for (size_t i = 0; i < em->n_words; i++)
        if (em->words[i].text == s || strcmp(em->words[i].text, s) == 0)
            return json_incref(em->words[i].json);
    json_t *j = json_string(s);
    if (j && em->n_words < sizeof(em->words) / sizeof(em->words[0])) {
        em->words[em->n_words].text = s;
        em->words[em->n_words++].json = json_incref(j);
    }
    return j;
}

static json_t *record(emitter *em, const ad_node *n, json_t *o)
{
    if (!em->p->opts->record_emitted)
        return o;
    if (em->n_emitted == em->cap_emitted) {
        size_t cap = em->cap_emitted ? em->cap_emitted * 2 : 64;
        ad_emitted *a = realloc(em->emitted, cap * sizeof(*a));
        if (!a)
            return o; /* a budget then measures fewer candidates, never a wrong one */
        em->emitted = a;
        em->cap_emitted = cap;
    }
    em->emitted[em->n_emitted++] = (ad_emitted){n, o};
    return o;
}

/* A wrapper --compact may collapse: nothing to show, and nothing unread to hide. */
static bool node_plain(const ad_node *n)
{
    return n->name.state == AD_FIELD_ABSENT && n->value.state == AD_FIELD_ABSENT &&
           n->description.state == AD_FIELD_ABSENT && n->native_id.state == AD_FIELD_ABSENT &&
           n->states_state != AD_FIELD_UNKNOWN && n->states == 0 && n->n_actions == 0;
}

static json_t *emit(emitter *em, const ad_node *n, int depth)
{
    presenter *p = em->p;
    bool is_root = n == p->root;
    bool target = is_target(p, n);
    /* A drilled root already has its ref; the window root is never a drill target. */
    bool gets_ref;
    if (is_root)
        gets_ref = !p->src->root_ref_key && ad_node_refable(n);
    else
        gets_ref = ad_node_refable(n) || target;
    json_t *o = json_object();
    if (n->n_actions) {
        json_t *acts = json_array();
        for (size_t i = 0; i < n->n_actions; i++)
            json_array_append_new(acts, word(em, n->actions[i]));
        json_object_set_new(o, "available_actions", acts);
    }
    if (p->opts->include_bounds && n->bounds_state == AD_FIELD_KNOWN)
        json_object_set_new(o, "bounds", ad_rect_json(&n->bounds));
    bool cut = depth_cut(p, n, depth);
    if (cut)
        json_object_set_new(o, "children_count",
                            json_integer(n->live_child_count >= 0 ? n->live_child_count
                                                                  : (json_int_t)n->n_children));
    size_t clip = p->opts->clip_text_bytes;
    show_text(o, "description", &n->description, clip, &em->clipped);
    show_text(o, "name", &n->name, clip, &em->clipped);
    if (n->native_id.state == AD_FIELD_KNOWN)
        json_object_set_new(o, "native_id", ad_native_id_json(n->native_id.text));
    if (gets_ref) {
        char key[32], ref[128];
        uint64_t num = (*em->next_ref)++;
        ad_ref_key(num, key, sizeof(key));
        snprintf(ref, sizeof(ref), "@%s:e%llu", em->snapshot_id, (unsigned long long)num);
        json_object_set_new(o, "ref_id", json_string(ref));
        json_t *entry = ad_ref_entry_new(n, p->idx, p->src, target);
        if (p->opts->annotate_unique)
            ad_present_annotate_unique(o, n, entry);
        if (p->opts->ref_sink) {
            if (ad_refmap_writer_add(p->opts->ref_sink, num, entry) < 0)
                em->sink_failed = true;
            json_decref(entry);
        } else {
            json_object_set_new(em->refs, key, entry);
        }
        if (em->added == em->cap_nodes) {
            size_t cap = em->cap_nodes ? em->cap_nodes * 2 : 64;
            const ad_node **a = realloc(em->nodes, cap * sizeof(*a));
            if (a) {
                em->nodes = a;
                em->cap_nodes = cap;
            }
        }
        if (em->added < em->cap_nodes)
            em->nodes[em->added] = n;
        em->added++;
    }
    json_object_set_new(o, "role", word(em, n->role));
    if (n->states)
        json_object_set_new(o, "states", ad_states_json(n));
    /* A field whose read failed is never shown as absent: the node says read_failed (its
     * action list too, which a cut read used to show short, e.g. a button without Click). */
    bool unread = n->name.state == AD_FIELD_UNKNOWN || n->states_state == AD_FIELD_UNKNOWN ||
                  n->description.state == AD_FIELD_UNKNOWN ||
                  n->actions_state == AD_FIELD_UNKNOWN;
    if (unread)
        json_object_set_new(o, "read_failed", json_true());
    if (n->children_cut)
        json_object_set_new(o, "subtree_truncated", json_true());
    if (!n->secure)
        show_text(o, "value", &n->value, clip, &em->clipped);
    json_t *kids = json_array();
    if (!cut) {
        int cd = child_depth(n, depth);
        for (size_t i = 0; i < n->n_children; i++) {
            json_t *c = emit(em, n->children[i], cd);
            if (c)
                json_array_append_new(kids, c);
        }
    }
    bool kept_marker = cut || n->children_cut || unread;
    if (!is_root && p->opts->interactive_only && !gets_ref && json_array_size(kids) == 0 &&
        !kept_marker) {
        json_decref(kids);
        json_decref(o);
        return NULL;
    }
    if (!is_root && p->opts->compact && !gets_ref && json_array_size(kids) == 1 && !cut &&
        !n->children_cut && node_plain(n)) {
        json_t *only = json_incref(json_array_get(kids, 0));
        json_decref(kids);
        json_decref(o);
        return only;
    }
    if (json_array_size(kids) > 0)
        json_object_set_new(o, "children", kids);
    else
        json_decref(kids);
    return record(em, n, o);
}

int ad_present(const ad_node *root, const ad_identity_index *idx, const ad_present_opts *opts,
               const ad_present_source *source, const char *snapshot_id, json_t *refs,
               uint64_t *next_ref, ad_present_result *ret)
{
    presenter p = {.opts = opts, .idx = idx, .src = source, .root = root};
    /* Drill targets mark every depth cut, not only skeleton ones: any cut can be drilled. */
    mark_targets(&p, root, 0);
    if (p.n_targets)
        qsort(p.targets, p.n_targets, sizeof(*p.targets), cmp_ptr);
    emitter em = {.p = &p, .snapshot_id = snapshot_id, .refs = refs, .next_ref = next_ref};
    ret->first_ref = *next_ref;
    ret->tree = emit(&em, root, 0);
    ret->refs_added = em.added;
    ret->ref_nodes = em.nodes;
    ret->texts_clipped = em.clipped;
    ret->emitted = em.emitted;
    ret->n_emitted = em.n_emitted;
    free(p.targets);
    for (size_t i = 0; i < em.n_words; i++)
        json_decref(em.words[i].json);
    if (ret->tree && em.sink_failed) {
        json_decref(ret->tree);
        ret->tree = NULL;
    }
    return ret->tree ? 0 : -1;
}
