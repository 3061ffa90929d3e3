/* identity.c: which fields of an element are its identity, and a small chained hash table
 * of identity keys.
 *
 * The rules (snapshots-and-refs.md: "a value is never identity"; the comparison is role,
 * native id, name and description):
 *   1. The role is always identity.
 *   2. The native id (AT-SPI AccessibleId) is identity.
 *   3. The name is identity. A toolkit class name is never a name (ad_toolkit_class_name:
 *      GTK 4.8 names an unlabelled widget after its type); the adapter keeps it apart as the
 *      toolkit class, which is identity only (rule 4) and never shown as name or text.
 *   4. The toolkit class counts only where it stood in for the name: gnome-calculator's
 *      display (GtkSourceView) and history (GtkTextView) are two unnamed text fields that
 *      only their classes tell apart.
 *   5. On a value-bearing role (slider, incrementor, progressbar, scrollbar, levelindicator,
 *      textfield, combobox, datefield, timefield), a description that shows the value (equal
 *      to it, or the same number at the description's precision) is state: identity keeps
 *      only the fact that the description shows the value. Measured on gtk3-widget-factory
 *      3.24.38: the vertical GtkScale that draws its value exposes Value 50 (1..100) and
 *      Description "50.0", the text it draws, which becomes "42.0" after set-value 42; its
 *      insensitive twin draws " " and the horizontal scales have no description. No GTK3
 *      scale has a name or id, so that fact is what tells the drawing scale from the others.
 *      The name stays identity even where it shows the value: an unnamed GTK3 GtkComboBox is
 *      named after its active item, and as state gtk3-widget-factory's three such combos
 *      (Left, Middle, Right) would be twins with no ref at all; their refs go stale after a
 *      select instead (its readback then reports delivered_unverified).
 *   6. An identity is unknown when one of its fields is unknown. When a value-bearing
 *      element's value could not be read, rule 5 cannot apply and its description counts as
 *      read; against a saved identity that relied on rule 5 such an element is undecided
 *      (ad_identity_unproven), never a match or a miss.
 *   7. Values, states and bounds are never identity.
 *   8. A read may leave the native id unread where the caller knows every identity it will
 *      compare (ad_read_limits.native_id_needed, asked through ad_identity_could_match):
 *      such a node is a miss when another field differs, and unproven otherwise; it never
 *      matches. An identity index counts it as unknown (rule 6).
 */
#include "core/identity.h"

#include <ctype.h>
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

static bool value_role(const char *role)
{
    static const char *const roles[] = {"slider", "incrementor", "progressbar", "scrollbar",
                                        "levelindicator", "textfield", "combobox",
                                        "datefield", "timefield", NULL};
    for (size_t i = 0; roles[i]; i++)
        if (strcmp(role, roles[i]) == 0)
            return true;
    return false;
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            return false;
    return true;
}

/* Reads a whole string (spaces around it allowed) as a decimal number with '.' or ','
 * (the app's locale) as separator; *decimals gets the digits after it. */
static bool read_number(const char *s, double *ret, int *decimals)
{
    char buf[64];
    size_t n = 0;
    while (isspace((unsigned char)*s))
        s++;
    *decimals = -1;
    for (; *s && !isspace((unsigned char)*s); s++) {
        char c = *s == ',' ? '.' : *s;
        bool ok = isdigit((unsigned char)c) || (n == 0 && (c == '-' || c == '+')) ||
                  (c == '.' && *decimals < 0);
        if (!ok || n + 1 >= sizeof(buf))
            return false;
        if (c == '.')
            *decimals = 0;
        else if (*decimals >= 0)
            (*decimals)++;
        buf[n++] = c;
    }
    while (isspace((unsigned char)*s))
        s++;
    buf[n] = '\0';
    char *end = NULL;
    *ret = strtod(buf, &end);
    if (*decimals < 0)
        *decimals = 0;
    return n > 0 && !*s && end && !*end && isdigit((unsigned char)buf[n - 1]);
}

/* Half a unit of the last of `decimals` digits (the core links no libm). */
static double half_unit(int decimals)
{
    double u = 0.5;
    for (int i = 0; i < decimals && i < 15; i++)
        u /= 10;
    return u;
}

/* Rule 5: does the text show the value? */
static bool shows_value(const char *text, const char *value)
{
    if (!text || !value || blank(text))
        return false;
    if (strcmp(text, value) == 0)
        return true;
    double d, v;
    int dd, dv;
    if (!read_number(text, &d, &dd) || !read_number(value, &v, &dv))
        return false;
    /* Each side is rounded to its own digits: half a unit of the last digit of each. */
    double diff = d > v ? d - v : v - d;
    return diff <= half_unit(dd) + half_unit(dv) + 1e-9;
}

ad_identity ad_identity_of(const ad_node *n)
{
    ad_identity id = {.role = n->role, .native_id = ad_text_get(&n->native_id),
                      .name = ad_text_get(&n->name), .description = ad_text_get(&n->description),
                      .toolkit_class = n->toolkit_class};
    if (!value_role(n->role) || n->value.state != AD_FIELD_KNOWN)
        return id;
    const char *value = ad_text_get(&n->value);
    if (shows_value(id.description, value)) {
        id.description = NULL;
        id.description_shows_value = true;
    }
    return id;
}

bool ad_identity_unknown(const ad_node *n)
{
    return n->name.state == AD_FIELD_UNKNOWN || n->description.state == AD_FIELD_UNKNOWN ||
           n->native_id.state == AD_FIELD_UNKNOWN;
}

static bool str_eq(const char *have, const char *want);

/* Every identity field but the native id equal (rules 1, 3-5). */
static bool same_but_native_id(const ad_identity *have, const ad_identity *want)
{
    return want->role && strcmp(have->role, want->role) == 0 &&
           str_eq(have->name, want->name) && str_eq(have->description, want->description) &&
           str_eq(have->toolkit_class, want->toolkit_class) &&
           have->description_shows_value == want->description_shows_value;
}

bool ad_identity_unproven(const ad_node *n, const ad_identity *want)
{
    if (want->description_shows_value && value_role(n->role) &&
        n->value.state == AD_FIELD_UNKNOWN)
        return true;
    /* An id left unread (node.h) decides nothing when another field already differs: that
     * node is a miss. Where all the others agree, only the id could tell, so it is unproven
     * (the reader was asked for it: ad_identity_could_match). */
    if (n->native_id_unread && n->name.state != AD_FIELD_UNKNOWN &&
        n->description.state != AD_FIELD_UNKNOWN) {
        ad_identity have = ad_identity_of(n);
        return same_but_native_id(&have, want);
    }
    return ad_identity_unknown(n);
}

bool ad_identity_no_id_needed(const ad_node *n, void *ud)
{
    (void)n;
    (void)ud;
    return false;
}

bool ad_identity_could_match(const ad_node *n, const ad_identity *want)
{
    const char *name = ad_text_get(&n->name);
    return want->role && strcmp(n->role, want->role) == 0 &&
           (n->name.state == AD_FIELD_UNKNOWN || str_eq(name, want->name)) &&
           str_eq(n->toolkit_class, want->toolkit_class);
}

static char *make_key(const ad_identity *id)
{
    /* \x1f separates fields; a leading \x1e marks "present" so "" and absent differ. */
    const char *parts[6] = {id->role, id->native_id, id->name, id->description,
                            id->toolkit_class, id->description_shows_value ? "" : NULL};
    size_t len = 1;
    for (int i = 0; i < 6; i++)
        len += (parts[i] ? strlen(parts[i]) : 0) + 2;
    char *k = malloc(len);
    if (!k)
        return NULL;
    char *p = k;
    for (int i = 0; i < 6; i++) {
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
    if (ad_identity_unknown(n)) {
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
    ad_identity id = ad_identity_of(n);
    char *key = make_key(&id);
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

size_t ad_identity_count(const ad_identity_index *idx, const ad_identity *id)
{
    char *key = make_key(id);
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
    if (ad_identity_unknown(n) || ad_identity_role_unknown(idx, n->role))
        return false;
    ad_identity id = ad_identity_of(n);
    return ad_identity_count(idx, &id) == 1;
}

static bool str_eq(const char *have, const char *want)
{
    if (!have || !want)
        return !have && !want;
    return strcmp(have, want) == 0;
}

bool ad_identity_matches(const ad_node *n, const ad_identity *want)
{
    ad_identity have = ad_identity_of(n);
    return !n->native_id_unread && str_eq(have.native_id, want->native_id) &&
           same_but_native_id(&have, want);
}
