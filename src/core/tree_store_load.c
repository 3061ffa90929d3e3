/* tree_store_load.c: rebuilding a snapshot's stored read (the form in tree_store.h) into a
 * tree a delta can be computed against; anything malformed is "no stored read". */
#include "core/tree_store.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/tree_store_private.h"

/* ---- rebuilding ------------------------------------------------------------------------- */

static int no_read(ad_error *err, const char *snapshot_id, const char *why)
{
    ad_error_set(err, AD_SNAPSHOT_NOT_FOUND, "Snapshot '%s' has no stored read to compare with",
                 snapshot_id);
    ad_error_suggest(err, "Take a new snapshot without --since, then pass its snapshot_id to "
                          "--since");
    ad_error_detail(err, "kind", json_string("no_stored_read"));
    ad_error_detail(err, "reason", json_string(why));
    return -1;
}

/* A stored text into t: 0 absent, null unknown, a string known. False when malformed. */
static bool read_text(const json_t *v, ad_text *t)
{
    if (!v || (json_is_integer(v) && json_integer_value(v) == 0)) {
        t->state = AD_FIELD_ABSENT;
        return true;
    }
    if (json_is_null(v)) {
        t->state = AD_FIELD_UNKNOWN;
        return true;
    }
    if (!json_is_string(v) || !(t->text = strdup(json_string_value(v))))
        return false;
    t->state = AD_FIELD_KNOWN;
    return true;
}

static json_int_t int_at(const json_t *a, size_t i, bool *ok)
{
    const json_t *v = json_array_get(a, i);
    if (!v)
        return 0;
    if (!json_is_integer(v))
        *ok = false;
    return json_integer_value(v);
}

static bool read_actions(const json_t *v, ad_node *n)
{
    n->actions_state = AD_FIELD_ABSENT;
    if (!v || (json_is_integer(v) && json_integer_value(v) == 0))
        return true;
    if (json_is_null(v)) {
        n->actions_state = AD_FIELD_UNKNOWN;
        return true;
    }
    if (!json_is_string(v))
        return false;
    n->actions_state = AD_FIELD_KNOWN;
    char *s = strdup(json_string_value(v)), *save = NULL;
    bool ok = s != NULL;
    for (char *t = s ? strtok_r(s, ",", &save) : NULL; ok && t; t = strtok_r(NULL, ",", &save))
        ok = ad_node_add_action(n, t) == 0;
    free(s);
    return ok;
}

static bool read_bounds(const json_t *v, ad_node *n)
{
    if (!v || (json_is_integer(v) && json_integer_value(v) == 0))
        return true; /* unread: absent, as a read without --include-bounds leaves it */
    json_int_t b[4];
    if (json_unpack((json_t *)v, "[IIII!]", &b[0], &b[1], &b[2], &b[3]) < 0)
        return false;
    n->bounds_state = AD_FIELD_KNOWN;
    n->bounds = (ad_rect){(double)b[0], (double)b[1], (double)b[2], (double)b[3]};
    return true;
}

/* One node from its array; *ret_kids gets its child count, *ret_ref its ref. */
static ad_node *read_node(const json_t *a, const ad_stored_tree *t, size_t *ret_kids,
                          uint64_t *ret_ref)
{
    /* [n_children] alone is a node of the first role with every other field zero: the writer
     * trims trailing zeros down to the first field. */
    bool ok = json_is_array(a) && json_array_size(a) >= 1 && json_array_size(a) <= I_COUNT;
    json_int_t kids = int_at(a, I_KIDS, &ok), role = int_at(a, I_ROLE, &ok);
    json_int_t ref = int_at(a, I_REF, &ok), live = int_at(a, I_LIVE, &ok);
    json_int_t flags = int_at(a, I_FLAGS, &ok);
    ad_node *n = ok ? ad_node_new() : NULL;
    if (!n || kids < 0 || kids > 4096 || role < 0 || (size_t)role >= t->n_roles || ref < 0 ||
        live < 0 || flags < 0 || flags > 15)
        goto bad;
    n->role = t->roles[role];
    const json_t *states = json_array_get(a, I_STATES), *cls = json_array_get(a, I_CLASS);
    if (!read_text(json_array_get(a, I_NAME), &n->name) ||
        !read_text(json_array_get(a, I_VALUE), &n->value) ||
        !read_text(json_array_get(a, I_DESC), &n->description) ||
        !read_text(json_array_get(a, I_NID), &n->native_id) ||
        !read_actions(json_array_get(a, I_ACTIONS), n) ||
        !read_bounds(json_array_get(a, I_BOUNDS), n))
        goto bad;
    if (states && json_is_null(states)) {
        n->states_state = AD_FIELD_UNKNOWN;
    } else if (!states || json_is_integer(states)) {
        n->states_state = AD_FIELD_KNOWN;
        n->states = (uint32_t)json_integer_value(states);
    } else {
        goto bad;
    }
    if (cls && json_is_string(cls))
        n->toolkit_class = strdup(json_string_value(cls));
    else if (cls && !(json_is_integer(cls) && json_integer_value(cls) == 0))
        goto bad;
    n->live_child_count = (long)live - 1;
    n->children_cut = flags & F_CUT;
    n->secure = flags & F_SECURE;
    n->checked_unreported = flags & F_CHECKED_UNREPORTED;
    n->native_id_unread = flags & F_ID_UNREAD;
    *ret_kids = (size_t)kids;
    *ret_ref = (uint64_t)ref;
    return n;
bad:
    ad_node_free(n);
    return NULL;
}

static bool add_ref(ad_stored_tree *t, const ad_node *n, uint64_t ref, size_t cap)
{
    if (ref == 0)
        return true;
    if (t->n_refs == cap)
        return false;
    t->refs[t->n_refs++] = (ad_node_ref){.node = n, .ref = ref};
    return true;
}

/* A node being rebuilt and how many of its children are still to come. */
typedef struct {
    ad_node *node;
    size_t left;
} level;

/* Rebuilds the tree from the node list (document order with child counts). */
static const char *rebuild(const json_t *nodes, ad_stored_tree *t)
{
    size_t total = json_array_size(nodes);
    if (total == 0 || total > STORE_NODES_MAX)
        return "node count out of range";
    level stack[STORE_DEPTH_MAX];
    size_t depth = 0, kids = 0, i = 0;
    uint64_t ref = 0;
    t->refs = calloc(total, sizeof(*t->refs));
    if (!t->refs || !(t->root = read_node(json_array_get(nodes, i++), t, &kids, &ref)) ||
        !add_ref(t, t->root, ref, total))
        return "malformed node";
    stack[depth++] = (level){t->root, kids};
    while (depth > 0) {
        if (stack[depth - 1].left == 0) {
            depth--;
            continue;
        }
        if (i >= total)
            return "fewer nodes than child counts";
        ad_node *n = read_node(json_array_get(nodes, i++), t, &kids, &ref);
        if (!n)
            return "malformed node";
        if (ad_node_add_child(stack[depth - 1].node, n) < 0) {
            ad_node_free(n);
            return "out of memory";
        }
        stack[depth - 1].left--;
        if (!add_ref(t, n, ref, total))
            return "malformed node";
        if (depth == STORE_DEPTH_MAX)
            return "too deep";
        stack[depth++] = (level){n, kids};
    }
    if (i != total)
        return "more nodes than child counts";
    ad_node_refs_sort(t->refs, t->n_refs);
    return NULL;
}

static const char *parse(const json_t *doc, ad_stored_tree *t)
{
    const json_t *roles = json_object_get(doc, "roles"), *nodes = json_object_get(doc, "nodes");
    const char *win = json_string_value(json_object_get(doc, "window_id"));
    const json_t *complete = json_object_get(doc, "complete");
    if (json_integer_value(json_object_get(doc, "v")) != 1 || !json_is_array(roles) ||
        !json_is_array(nodes) || !win || !json_is_boolean(complete))
        return "not a stored read of this version";
    t->complete = json_is_true(complete);
    if (!(t->window_id = strdup(win)))
        return "out of memory";
    t->roles = calloc(json_array_size(roles) + 1, sizeof(*t->roles));
    if (!t->roles)
        return "out of memory";
    size_t i;
    json_t *r;
    json_array_foreach(roles, i, r) {
        if (!json_is_string(r) || !(t->roles[i] = strdup(json_string_value(r))))
            return "malformed role";
        t->n_roles++;
    }
    return rebuild(nodes, t);
}

int ad_tree_store_load(ad_ctx *ctx, const char *snapshot_id, ad_stored_tree *ret,
                       ad_error *err)
{
    ad_stored_tree t = {0};
    ad_state_dir dir = AD_STATE_DIR_INIT;
    json_t *doc = NULL;
    const char *why = NULL;
    ad_error read_err = AD_ERROR_INIT;
    int rc = ad_tree_store_dir_open(ctx, snapshot_id, false, &dir, err);
    if (rc < 0)
        return -1;
    if (rc == 1)
        why = "the snapshot is missing";
    else if ((rc = ad_state_json_read(&dir, AD_TREE_STORE_FILE, AD_TREE_STORE_MAX_BYTES, &doc,
                                      &read_err)) != 0)
        why = rc == 1 ? "the snapshot kept no read" : "its stored read cannot be read";
    else
        why = parse(doc, &t);
    ad_state_dir_close(&dir);
    ad_error_clear(&read_err);
    json_decref(doc);
    if (why) {
        ad_stored_tree_free(&t);
        return no_read(err, snapshot_id, why);
    }
    *ret = t;
    return 0;
}

void ad_stored_tree_free(ad_stored_tree *t)
{
    if (!t)
        return;
    ad_node_free(t->root);
    for (size_t i = 0; i < t->n_roles; i++)
        free(t->roles[i]);
    free(t->roles);
    free(t->window_id);
    free(t->refs);
    *t = (ad_stored_tree){0};
}
