/* tree_store.c: writing a snapshot's stored read (the form in tree_store.h), and the refs by
 * node both sides look up; tree_store_load.c rebuilds it. */
#include "core/tree_store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/refs.h"
#include "core/state_files.h"
#include "core/tree_diff.h"
#include "core/tree_store_private.h"

/* ---- refs by node ----------------------------------------------------------------------- */

static int by_node(const void *x, const void *y)
{
    const ad_node_ref *a = x, *b = y;
    return a->node < b->node ? -1 : a->node > b->node;
}

void ad_node_refs_sort(ad_node_ref *refs, size_t n)
{
    if (n)
        qsort(refs, n, sizeof(*refs), by_node);
}

uint64_t ad_node_ref_find(const ad_node_ref *refs, size_t n, const ad_node *node)
{
    ad_node_ref key = {.node = node};
    const ad_node_ref *r = n ? bsearch(&key, refs, n, sizeof(*refs), by_node) : NULL;
    return r ? r->ref : 0;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* The stored form is written as it is walked, into one growing buffer: no JSON tree of the
 * read is built (at 50,000 nodes that tree raised a snapshot's peak memory by ~30 MB; the
 * buffer is ~50 bytes a node). The bytes are those json_dumps(JSON_COMPACT) gave for that
 * tree; test_tree_store.c pins them. The buffer stops growing once it passes
 * AD_TREE_STORE_MAX_BYTES (checked after each node). */
typedef struct {
    char *buf;
    size_t len, cap;
    bool failed; /* out of memory */
    char *scratch; /* the joined actions of one node */
    size_t scratch_cap;
    const char **roles; /* in order of first use; static role tokens */
    size_t n_roles, roles_cap;
    const ad_node_ref *refs;
    size_t n_refs;
} writer;

static bool grow(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c = c > SIZE_MAX / 2 ? need : c * 2;
    char *p = realloc(*buf, c);
    if (!p)
        return false;
    *buf = p;
    *cap = c;
    return true;
}

static bool reserve(writer *w, size_t more)
{
    if (!w->failed && !grow(&w->buf, &w->cap, w->len + more))
        w->failed = true;
    return !w->failed;
}

static void put(writer *w, const char *s, size_t n)
{
    if (reserve(w, n)) {
        memcpy(w->buf + w->len, s, n);
        w->len += n;
    }
}

static void put_lit(writer *w, const char *s)
{
    put(w, s, strlen(s));
}

static void put_int(writer *w, json_int_t v)
{
    char digits[24], *p = digits + sizeof(digits);
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    put(w, p, (size_t)(digits + sizeof(digits) - p));
}

/* s as a JSON string, or null when it is not valid UTF-8 (json_string refuses it: returns
 * false). Plain printable ASCII is copied; anything else is escaped by jansson, one string at
 * a time, so that the escapes are exactly those of json_dumps. */
static bool put_string(writer *w, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = 0;
    while (u[n] >= 0x20 && u[n] < 0x80 && u[n] != '"' && u[n] != '\\')
        n++;
    if (u[n] == '\0') {
        put(w, "\"", 1);
        put(w, s, n);
        put(w, "\"", 1);
        return true;
    }
    json_t *j = json_string(s);
    if (!j) {
        put_lit(w, "null");
        return false;
    }
    size_t room = reserve(w, 2 + n) ? w->cap - w->len : 0, got = 0;
    if (room)
        got = json_dumpb(j, w->buf + w->len, room, JSON_ENCODE_ANY);
    if (got > room && reserve(w, got))
        got = json_dumpb(j, w->buf + w->len, got, JSON_ENCODE_ANY);
    json_decref(j);
    if (got == 0 || got > w->cap - w->len)
        w->failed = true;
    else
        w->len += got;
    return true;
}

static void put_text(writer *w, const ad_text *t)
{
    if (t->state == AD_FIELD_KNOWN)
        put_string(w, t->text);
    else
        put_lit(w, t->state == AD_FIELD_UNKNOWN ? "null" : "0");
}

static void put_value(writer *w, const ad_node *n)
{
    if (n->secure) {
        put_lit(w, "0"); /* a password field's value is never kept */
    } else if (n->value.state == AD_FIELD_KNOWN && strlen(n->value.text) > AD_TREE_VALUE_KEEP) {
        char mark[AD_TREE_VALUE_MARK_SIZE];
        ad_tree_value_mark(n->value.text, mark);
        put_string(w, mark);
    } else {
        put_text(w, &n->value);
    }
}

static void put_actions(writer *w, const ad_node *n)
{
    if (n->actions_state != AD_FIELD_KNOWN || n->n_actions == 0) {
        put_lit(w, n->actions_state == AD_FIELD_UNKNOWN ? "null" : "0");
        return;
    }
    size_t len = 0;
    for (size_t i = 0; i < n->n_actions; i++) {
        size_t l = strlen(n->actions[i]);
        if (!grow(&w->scratch, &w->scratch_cap, len + l + 1)) {
            w->failed = true;
            return;
        }
        memcpy(w->scratch + len, n->actions[i], l);
        len += l;
        w->scratch[len++] = ',';
    }
    w->scratch[len - 1] = '\0';
    put_string(w, w->scratch);
}

static void put_bounds(writer *w, const ad_node *n)
{
    if (n->bounds_state != AD_FIELD_KNOWN) {
        put_lit(w, "0");
        return;
    }
    const double b[4] = {n->bounds.x, n->bounds.y, n->bounds.width, n->bounds.height};
    for (size_t i = 0; i < 4; i++) {
        put(w, i ? "," : "[", 1);
        put_int(w, (json_int_t)lround(b[i]));
    }
    put(w, "]", 1);
}

/* The index of role in w->roles, added when new (false when out of memory). */
static bool role_index(writer *w, const char *role, size_t *ret)
{
    for (size_t i = 0; i < w->n_roles; i++)
        if (w->roles[i] == role || strcmp(w->roles[i], role) == 0) {
            *ret = i;
            return true;
        }
    if (w->n_roles == w->roles_cap) {
        size_t cap = w->roles_cap ? w->roles_cap * 2 : 32;
        const char **p = realloc(w->roles, cap * sizeof(*p));
        if (!p)
            return false;
        w->roles = p;
        w->roles_cap = cap;
    }
    w->roles[w->n_roles] = role;
    *ret = w->n_roles++;
    return true;
}

/* Collects the roles in document order, as the "roles" list comes before the nodes. */
static bool collect_roles(writer *w, const ad_node *n)
{
    size_t ignored;
    if (!role_index(w, n->role, &ignored))
        return false;
    for (size_t i = 0; i < n->n_children; i++)
        if (!collect_roles(w, n->children[i]))
            return false;
    return true;
}

static void put_field(writer *w, const ad_node *n, int field)
{
    size_t role = 0;
    switch (field) {
    case I_ROLE:
        role_index(w, n->role, &role); /* collected already, so found */
        put_int(w, (json_int_t)role);
        break;
    case I_NAME: put_text(w, &n->name); break;
    case I_REF: put_int(w, (json_int_t)ad_node_ref_find(w->refs, w->n_refs, n)); break;
    case I_STATES:
        if (n->states_state == AD_FIELD_KNOWN)
            put_int(w, n->states);
        else
            put_lit(w, "null");
        break;
    case I_ACTIONS: put_actions(w, n); break;
    case I_VALUE: put_value(w, n); break;
    case I_DESC: put_text(w, &n->description); break;
    case I_NID: put_text(w, &n->native_id); break;
    case I_CLASS:
        if (n->toolkit_class)
            put_string(w, n->toolkit_class);
        else
            put_lit(w, "0");
        break;
    case I_BOUNDS: put_bounds(w, n); break;
    case I_LIVE: put_int(w, (json_int_t)(n->live_child_count + 1)); break;
    case I_FLAGS:
        put_int(w, (n->children_cut ? F_CUT : 0) | (n->secure ? F_SECURE : 0) |
                       (n->checked_unreported ? F_CHECKED_UNREPORTED : 0) |
                       (n->native_id_unread ? F_ID_UNREAD : 0));
        break;
    }
}

/* One node's array; trailing fields that are 0 are left out (the first never is). */
static void put_node(writer *w, const ad_node *n)
{
    put(w, "[", 1);
    put_int(w, (json_int_t)n->n_children);
    size_t keep = w->len;
    for (int i = I_ROLE; i < I_COUNT && !w->failed; i++) {
        put(w, ",", 1);
        size_t start = w->len;
        put_field(w, n, i);
        if (!w->failed && !(w->len - start == 1 && w->buf[start] == '0'))
            keep = w->len;
    }
    if (!w->failed)
        w->len = keep;
    put(w, "]", 1);
}

/* The node and its subtree in document order; false once failed or past the size limit. */
static bool put_tree(writer *w, const ad_node *n)
{
    put_node(w, n);
    if (w->failed || w->len > AD_TREE_STORE_MAX_BYTES)
        return false;
    for (size_t i = 0; i < n->n_children; i++) {
        put(w, ",", 1);
        if (!put_tree(w, n->children[i]))
            return false;
    }
    return true;
}

/* The whole stored form into w->buf; false when out of memory or past the size limit. */
static bool put_doc(writer *w, const ad_node *root, bool complete, const char *window_id)
{
    put_lit(w, "{\"v\":1,\"window_id\":");
    if (!collect_roles(w, root) || !window_id || !put_string(w, window_id)) {
        w->failed = true; /* out of memory, or a window id JSON cannot hold */
        return false;
    }
    put_lit(w, complete ? ",\"complete\":true,\"roles\":[" : ",\"complete\":false,\"roles\":[");
    for (size_t i = 0; i < w->n_roles; i++) {
        if (i)
            put(w, ",", 1);
        put_string(w, w->roles[i]);
    }
    put_lit(w, "],\"nodes\":[");
    if (!put_tree(w, root))
        return false;
    put_lit(w, "]}");
    return !w->failed && w->len <= AD_TREE_STORE_MAX_BYTES;
}

int ad_tree_store_dir_open(ad_ctx *ctx, const char *snapshot_id, bool create,
                           ad_state_dir *ret, ad_error *err)
{
    ad_state_dir ns = AD_STATE_DIR_INIT;
    const char *const names[] = {"snapshots", snapshot_id};
    int rc = ad_state_namespace_open(ctx->state_root, ctx->session_id, create, &ns, err);
    if (rc == 0)
        rc = ad_state_dir_walk(&ns, names, 2, create, ret, err);
    ad_state_dir_close(&ns);
    return rc;
}

int ad_tree_store_save(ad_ctx *ctx, const char *snapshot_id, const ad_node *root,
                       bool complete, const char *window_id, const ad_node_ref *refs,
                       size_t n_refs, ad_error *err)
{
    ad_node_ref *sorted = malloc((n_refs ? n_refs : 1) * sizeof(*sorted));
    if (!sorted)
        return ad_error_set(err, AD_INTERNAL, "cannot store the snapshot's read");
    if (n_refs)
        memcpy(sorted, refs, n_refs * sizeof(*sorted));
    ad_node_refs_sort(sorted, n_refs);
    writer w = {.refs = sorted, .n_refs = n_refs};
    int rc = put_doc(&w, root, complete, window_id) ? 0 : 1;
    free(sorted);
    free(w.scratch);
    free(w.roles);
    ad_state_dir dir = AD_STATE_DIR_INIT;
    if (w.failed)
        rc = ad_error_set(err, AD_INTERNAL, "cannot store the snapshot's read");
    else if (rc == 0 && (ad_tree_store_dir_open(ctx, snapshot_id, true, &dir, err) != 0 ||
                         ad_state_file_write_unflushed(&dir, AD_TREE_STORE_FILE, w.buf, w.len,
                                                       err) < 0))
        rc = -1;
    ad_state_dir_close(&dir);
    free(w.buf);
    return rc;
}

void ad_tree_store_remove(ad_ctx *ctx, const char *snapshot_id)
{
    ad_state_dir dir = AD_STATE_DIR_INIT;
    ad_error ignored = AD_ERROR_INIT;
    if (ad_tree_store_dir_open(ctx, snapshot_id, false, &dir, &ignored) == 0)
        unlinkat(dir.fd, AD_TREE_STORE_FILE, 0);
    ad_state_dir_close(&dir);
    ad_error_clear(&ignored);
}

ad_node_ref *ad_node_refs_presented(const ad_present_result *pr, size_t *ret_n)
{
    ad_node_ref *refs = calloc(pr->refs_added ? pr->refs_added : 1, sizeof(*refs));
    size_t n = 0;
    for (size_t i = 0; refs && pr->ref_nodes && i < pr->refs_added; i++)
        refs[n++] = (ad_node_ref){.node = pr->ref_nodes[i], .ref = pr->first_ref + i};
    *ret_n = n;
    return refs;
}

int ad_tree_store_save_presented(ad_ctx *ctx, const char *snapshot_id, const ad_tree *tree,
                                 const char *window_id, const ad_present_result *pr,
                                 ad_error *err)
{
    size_t n = 0;
    ad_node_ref *refs = ad_node_refs_presented(pr, &n);
    if (!refs)
        return ad_error_set(err, AD_INTERNAL, "cannot store the snapshot's read");
    int rc = ad_tree_store_save(ctx, snapshot_id, tree->root, tree->complete, window_id, refs,
                                n, err);
    free(refs);
    return rc < 0 ? -1 : 0;
}
