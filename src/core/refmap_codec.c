/* refmap_codec.c: writing and reading format 2 (layout in refmap_codec.h). */
#include "core/refmap_codec.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/node.h"
#include "core/present.h"

static const unsigned char MAGIC[4] = {'A', 'D', 'R', 'M'};
#define PATH_MAX_DEPTH 64
#define BOUND_LIMIT 2147483647.0

/* The fields an entry codes compactly, in mask-bit and byte order. */
typedef enum { K_INTERN, K_TEXT, K_PATH, K_BOUNDS, K_HASH, K_BOOL } field_kind;
typedef struct {
    const char *key;
    field_kind kind;
} field;
static const field FIELDS[] = {
    {"role", K_INTERN},        {"states", K_INTERN}, {"available_actions", K_INTERN},
    {"root_ref", K_INTERN},    {"name", K_TEXT},     {"value", K_TEXT},
    {"description", K_TEXT},   {"native_id", K_TEXT}, {"path", K_PATH},
    {"bounds", K_BOUNDS},      {"bounds_hash", K_HASH}, {"unique_at_capture", K_BOOL},
    {"drill_target", K_BOOL},
};
#define N_FIELDS (sizeof(FIELDS) / sizeof(FIELDS[0]))
#define N_TEXT 4
#define BIT_UNIQUE_VALUE (1u << 13)
#define BIT_DRILL_VALUE (1u << 14)
#define BIT_EXTRAS (1u << 15)

static const char *const BOUND_KEYS[4] = {"x", "y", "width", "height"};

unsigned ad_refmap_checksum(const unsigned char *buf, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ buf[i]) * 16777619u;
    return h;
}

bool ad_refmap_is_compact(const unsigned char *buf, size_t len)
{
    return len >= sizeof(MAGIC) && memcmp(buf, MAGIC, sizeof(MAGIC)) == 0;
}

/* What the previous entry held, for the deltas. Strings point into the map being coded. */
typedef struct {
    const char *text[N_TEXT];
    size_t text_len[N_TEXT];
    int64_t path[PATH_MAX_DEPTH];
    size_t depth;
    int64_t bounds[4];
    uint64_t number;
    unsigned mask;
} previous;

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* ---- writing ------------------------------------------------------------------------- */

typedef struct {
    unsigned char *p;
    size_t len, cap;
    bool failed;
} out;

static void put(out *o, const void *data, size_t n)
{
    if (o->failed || n == 0) /* an empty table has no buffer: memcpy(NULL) is UB */
        return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n)
            cap *= 2;
        unsigned char *p = realloc(o->p, cap);
        if (!p) {
            o->failed = true;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->len, data, n);
    o->len += n;
}

static void put_varint(out *o, uint64_t v)
{
    unsigned char b[10];
    size_t n = 0;
    do {
        b[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v)
            b[n] |= 0x80;
        n++;
    } while (v);
    put(o, b, n);
}

static void put_bytes(out *o, const char *s, size_t n)
{
    put_varint(o, n);
    put(o, s, n);
}

/* The value table while writing: a JSON object from compact text to its index. */
typedef struct {
    json_t *index;
    out texts;
    size_t count;
} table;

static uint64_t intern(table *t, const json_t *v)
{
    char *text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    if (!text) {
        t->texts.failed = true;
        return 0;
    }
    const json_t *known = json_object_get(t->index, text);
    uint64_t i;
    if (known) {
        i = (uint64_t)json_integer_value(known);
    } else {
        i = t->count++;
        json_object_set_new(t->index, text, json_integer((json_int_t)i));
        put_bytes(&t->texts, text, strlen(text));
    }
    free(text);
    return i;
}

/* Whole numbers that fit in int32; bounds with a fraction go to extras. */
static bool bounds_fit(const json_t *b, int64_t ret[4])
{
    if (!json_is_object(b) || json_object_size(b) != 4)
        return false;
    for (size_t i = 0; i < 4; i++) {
        const json_t *v = json_object_get(b, BOUND_KEYS[i]);
        double d = json_real_value(v);
        if (!json_is_real(v) || d != floor(d) || fabs(d) > BOUND_LIMIT)
            return false;
        ret[i] = (int64_t)d;
    }
    return true;
}

static void bounds_hash_of(const int64_t b[4], char h[17])
{
    ad_rect r = {.x = (double)b[0], .y = (double)b[1], .width = (double)b[2],
                 .height = (double)b[3]};
    ad_rect_hash(&r, h);
}

static bool path_fits(const json_t *p)
{
    if (!json_is_array(p) || json_array_size(p) > PATH_MAX_DEPTH)
        return false;
    size_t i;
    const json_t *v;
    json_array_foreach(p, i, v) if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                                     json_integer_value(v) > INT32_MAX) return false;
    return true;
}

static bool fits(const field *f, const json_t *v, const json_t *entry)
{
    int64_t b[4];
    char h[17];
    switch (f->kind) {
    case K_INTERN: return true;
    case K_TEXT: return json_is_string(v);
    case K_PATH: return path_fits(v);
    case K_BOUNDS: return bounds_fit(v, b);
    case K_HASH:
        if (!json_is_string(v) || !bounds_fit(json_object_get(entry, "bounds"), b))
            return false;
        bounds_hash_of(b, h);
        return strcmp(json_string_value(v), h) == 0;
    case K_BOOL: return json_is_boolean(v);
    }
    return false;
}

static void put_text(out *o, previous *prev, int slot, const json_t *v)
{
    const char *s = json_string_value(v);
    size_t n = json_string_length(v), shared = 0;
    const char *p = prev->text[slot];
    while (p && shared < n && shared < prev->text_len[slot] && p[shared] == s[shared])
        shared++;
    put_varint(o, shared);
    put_bytes(o, s + shared, n - shared);
    prev->text[slot] = s;
    prev->text_len[slot] = n;
}

static void put_path(out *o, previous *prev, const json_t *p)
{
    size_t n = json_array_size(p), shared = 0;
    while (shared < n && shared < prev->depth &&
           json_integer_value(json_array_get(p, shared)) == prev->path[shared])
        shared++;
    put_varint(o, shared);
    put_varint(o, n - shared);
    for (size_t i = 0; i < n; i++) {
        int64_t v = json_integer_value(json_array_get(p, i));
        /* The first differing index is coded against the one it replaces: a sibling's
         * index is a small step away. */
        if (i == shared && i < prev->depth)
            put_varint(o, zigzag(v - prev->path[i]));
        else if (i >= shared)
            put_varint(o, (uint64_t)v);
        prev->path[i] = v;
    }
    prev->depth = n;
}

static void put_entry(out *o, table *t, previous *prev, uint64_t number, const json_t *e)
{
    unsigned mask = 0;
    json_t *extras = json_object();
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)e, key, v) {
        size_t i = 0;
        while (i < N_FIELDS && strcmp(FIELDS[i].key, key) != 0)
            i++;
        if (i < N_FIELDS && fits(&FIELDS[i], v, e))
            mask |= 1u << i;
        else
            json_object_set(extras, key, v);
    }
    if (json_object_size(extras))
        mask |= BIT_EXTRAS;
    if (json_is_true(json_object_get(e, "unique_at_capture")))
        mask |= BIT_UNIQUE_VALUE;
    if (json_is_true(json_object_get(e, "drill_target")))
        mask |= BIT_DRILL_VALUE;
    /* The low bit says "the same mask as the previous entry": a big window's refs mostly
     * share one shape, and then the mask costs nothing. */
    bool same = prev->number && mask == prev->mask;
    put_varint(o, (number - prev->number) << 1 | same);
    prev->number = number;
    prev->mask = mask;
    if (!same) {
        unsigned char m[2] = {(unsigned char)(mask & 0xff), (unsigned char)(mask >> 8)};
        put(o, m, 2);
    }
    int slot = 0;
    for (size_t i = 0; i < N_FIELDS; i++) {
        const json_t *fv = json_object_get(e, FIELDS[i].key);
        bool on = mask & (1u << i);
        if (FIELDS[i].kind == K_TEXT) {
            if (on)
                put_text(o, prev, slot, fv);
            slot++;
        } else if (on && FIELDS[i].kind == K_INTERN) {
            put_varint(o, intern(t, fv));
        } else if (on && FIELDS[i].kind == K_PATH) {
            put_path(o, prev, fv);
        } else if (on && FIELDS[i].kind == K_BOUNDS) {
            int64_t b[4];
            bounds_fit(fv, b);
            for (size_t k = 0; k < 4; k++) {
                put_varint(o, zigzag(b[k] - prev->bounds[k]));
                prev->bounds[k] = b[k];
            }
        }
    }
    if (mask & BIT_EXTRAS)
        put_varint(o, intern(t, extras));
    json_decref(extras);
}

/* The number N of "@eN" (1..2^53), or 0. */
static uint64_t key_number(const char *k)
{
    if (k[0] != '@' || k[1] != 'e' || k[2] < '1' || k[2] > '9' || strlen(k) > 17)
        return 0;
    uint64_t n = 0;
    for (const char *p = k + 2; *p; p++) {
        if (*p < '0' || *p > '9')
            return 0;
        n = n * 10 + (uint64_t)(*p - '0');
    }
    return n;
}

typedef struct {
    uint64_t number;
    const json_t *entry;
} numbered;

static int by_number(const void *a, const void *b)
{
    const numbered *x = a, *y = b;
    return x->number < y->number ? -1 : x->number > y->number;
}

unsigned char *ad_refmap_encode(const json_t *map, size_t *len)
{
    const json_t *refs = json_object_get(map, "refs");
    if (!json_is_object(refs))
        return NULL;
    size_t n = json_object_size(refs), i = 0;
    numbered *list = calloc(n ? n : 1, sizeof(*list));
    json_t *header = json_copy((json_t *)map);
    table t = {.index = json_object()};
    out body = {0}, file = {0};
    unsigned char *ret = NULL;
    if (!list || !header || !t.index)
        goto done;
    json_object_del(header, "refs");
    const char *key;
    json_t *e;
    json_object_foreach((json_t *)refs, key, e) {
        if (!(list[i].number = key_number(key)) || !json_is_object(e))
            goto done;
        list[i++].entry = e;
    }
    qsort(list, n, sizeof(*list), by_number);
    previous prev = {0};
    put_varint(&body, n);
    for (i = 0; i < n; i++)
        put_entry(&body, &t, &prev, list[i].number, list[i].entry);
    char *head = json_dumps(header, JSON_COMPACT | JSON_SORT_KEYS);
    put(&file, MAGIC, sizeof(MAGIC));
    unsigned char version = AD_REFMAP_FORMAT;
    put(&file, &version, 1);
    if (head)
        put_bytes(&file, head, strlen(head));
    free(head);
    put_varint(&file, t.count);
    put(&file, t.texts.p, t.texts.len);
    put(&file, body.p, body.len);
    uint32_t sum = ad_refmap_checksum(file.p, file.len);
    unsigned char s[4] = {sum & 0xff, (sum >> 8) & 0xff, (sum >> 16) & 0xff, sum >> 24};
    put(&file, s, 4);
    if (head && !file.failed && !body.failed && !t.texts.failed) {
        ret = file.p;
        file.p = NULL;
        *len = file.len;
    }
done:
    free(file.p);
    free(body.p);
    free(t.texts.p);
    json_decref(t.index);
    json_decref(header);
    free(list);
    return ret;
}

/* ---- reading ------------------------------------------------------------------------- */

typedef struct {
    const unsigned char *p, *end;
    const char *why; /* the first problem; once set, every read fails */
} in;

static bool fail(in *r, const char *why)
{
    if (!r->why)
        r->why = why;
    return false;
}

static bool get_varint(in *r, uint64_t *ret)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->why || r->p >= r->end)
            return fail(r, "truncated");
        unsigned char b = *r->p++;
        if (shift == 63 && b > 1)
            break;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *ret = v;
            return true;
        }
    }
    return fail(r, "a number is too long");
}

/* A length-prefixed run of bytes inside the file. */
static bool get_bytes(in *r, const unsigned char **ret, size_t *len)
{
    uint64_t n;
    if (!get_varint(r, &n))
        return false;
    if (n > (uint64_t)(r->end - r->p))
        return fail(r, "truncated");
    *ret = r->p;
    *len = (size_t)n;
    r->p += n;
    return true;
}

static json_t *get_json(in *r, int flags)
{
    const unsigned char *s;
    size_t n;
    if (!get_bytes(r, &s, &n))
        return NULL;
    json_t *v = json_loadb((const char *)s, n, flags | JSON_REJECT_DUPLICATES, NULL);
    if (!v)
        fail(r, "a value is not JSON");
    return v;
}

static json_t *get_interned(in *r, const json_t *values)
{
    uint64_t i;
    if (!get_varint(r, &i))
        return NULL;
    if (i >= json_array_size(values)) {
        fail(r, "a value index is out of range");
        return NULL;
    }
    return json_deep_copy(json_array_get(values, (size_t)i));
}

static json_t *get_text(in *r, previous *prev, int slot)
{
    uint64_t shared;
    const unsigned char *suffix;
    size_t n;
    if (!get_varint(r, &shared) || !get_bytes(r, &suffix, &n))
        return NULL;
    if (shared > prev->text_len[slot]) {
        fail(r, "a text prefix is out of range");
        return NULL;
    }
    char *s = malloc((size_t)shared + n + 1);
    if (!s) {
        fail(r, "out of memory");
        return NULL;
    }
    if (shared)
        memcpy(s, prev->text[slot], (size_t)shared);
    memcpy(s + shared, suffix, n);
    json_t *v = json_stringn(s, (size_t)shared + n);
    free(s);
    if (!v) {
        fail(r, "text is not UTF-8");
        return NULL;
    }
    prev->text[slot] = json_string_value(v);
    prev->text_len[slot] = json_string_length(v);
    return v;
}

static json_t *get_path(in *r, previous *prev)
{
    uint64_t shared, rest, v;
    if (!get_varint(r, &shared) || !get_varint(r, &rest))
        return NULL;
    if (shared > prev->depth || rest > PATH_MAX_DEPTH - shared) {
        fail(r, "a path is out of range");
        return NULL;
    }
    for (size_t i = (size_t)shared; i < shared + rest; i++) {
        if (!get_varint(r, &v))
            return NULL;
        if (i == shared && i < prev->depth) /* a step from the index it replaces */
            v = (uint64_t)(prev->path[i] + unzigzag(v));
        if (v > INT32_MAX) {
            fail(r, "a path is out of range");
            return NULL;
        }
        prev->path[i] = (int64_t)v;
    }
    prev->depth = (size_t)(shared + rest);
    json_t *p = json_array();
    for (size_t i = 0; i < prev->depth; i++)
        json_array_append_new(p, json_integer((json_int_t)prev->path[i]));
    return p;
}

static json_t *get_bounds(in *r, previous *prev)
{
    uint64_t d;
    for (size_t k = 0; k < 4; k++) {
        if (!get_varint(r, &d))
            return NULL;
        int64_t v = (int64_t)((uint64_t)prev->bounds[k] + (uint64_t)unzigzag(d));
        if (v > (int64_t)BOUND_LIMIT || v < -(int64_t)BOUND_LIMIT) {
            fail(r, "bounds are out of range");
            return NULL;
        }
        prev->bounds[k] = v;
    }
    return json_pack("{s:f, s:f, s:f, s:f}", "x", (double)prev->bounds[0], "y",
                     (double)prev->bounds[1], "width", (double)prev->bounds[2], "height",
                     (double)prev->bounds[3]);
}

/* Sets key once: a key given twice is a corrupt file. Steals v. */
static bool set_once(in *r, json_t *o, const char *key, json_t *v)
{
    if (!v)
        return fail(r, "out of memory");
    if (json_object_get(o, key)) {
        json_decref(v);
        return fail(r, "a key is given twice");
    }
    json_object_set_new(o, key, v);
    return true;
}

static json_t *get_entry(in *r, const json_t *values, previous *prev, uint64_t *number)
{
    uint64_t head;
    if (!get_varint(r, &head))
        return NULL;
    uint64_t delta = head >> 1;
    bool same = head & 1;
    if (delta == 0 || delta > UINT64_MAX - prev->number || (same && !prev->number)) {
        fail(r, "ref numbers are not ascending");
        return NULL;
    }
    *number = prev->number += delta;
    unsigned mask = prev->mask;
    if (!same) {
        if (r->end - r->p < 2) {
            fail(r, "truncated");
            return NULL;
        }
        mask = r->p[0] | (unsigned)r->p[1] << 8;
        r->p += 2;
    }
    prev->mask = mask;
    json_t *e = json_object();
    int slot = 0;
    for (size_t i = 0; i < N_FIELDS && !r->why; i++) {
        bool on = mask & (1u << i);
        json_t *v = NULL;
        switch (FIELDS[i].kind) {
        case K_INTERN: v = on ? get_interned(r, values) : NULL; break;
        case K_TEXT: v = on ? get_text(r, prev, slot) : NULL; slot++; break;
        case K_PATH: v = on ? get_path(r, prev) : NULL; break;
        case K_BOUNDS: v = on ? get_bounds(r, prev) : NULL; break;
        case K_HASH:
            if (on && !(mask & (1u << 9))) {
                fail(r, "a bounds hash without bounds");
            } else if (on) {
                char h[17];
                bounds_hash_of(prev->bounds, h);
                v = json_string(h);
            }
            break;
        case K_BOOL:
            if (on)
                v = json_boolean(mask & (i == 11 ? BIT_UNIQUE_VALUE : BIT_DRILL_VALUE));
            break;
        }
        if (on && !r->why)
            set_once(r, e, FIELDS[i].key, v);
        else
            json_decref(v);
    }
    if ((mask & BIT_EXTRAS) && !r->why) {
        json_t *extras = get_interned(r, values);
        const char *key;
        json_t *v;
        if (extras && !json_is_object(extras))
            fail(r, "extras are not an object");
        json_object_foreach(extras, key, v) if (!set_once(r, e, key, json_incref(v))) break;
        json_decref(extras);
    }
    if (r->why) {
        json_decref(e);
        return NULL;
    }
    return e;
}

static json_t *get_refs(in *r, const json_t *values)
{
    uint64_t count, number = 0;
    if (!get_varint(r, &count))
        return NULL;
    if (count > (uint64_t)(r->end - r->p)) { /* an entry takes at least 1 byte */
        fail(r, "truncated");
        return NULL;
    }
    json_t *refs = json_object();
    previous prev = {0};
    for (uint64_t i = 0; i < count && !r->why; i++) {
        json_t *e = get_entry(r, values, &prev, &number);
        char key[32];
        snprintf(key, sizeof(key), "@e%llu", (unsigned long long)number);
        if (e)
            json_object_set_new(refs, key, e);
    }
    if (r->why) {
        json_decref(refs);
        return NULL;
    }
    return refs;
}

int ad_refmap_decode(const unsigned char *buf, size_t len, json_t **ret, const char **why)
{
    if (!ad_refmap_is_compact(buf, len) || len < sizeof(MAGIC) + 1 + 4) {
        *why = "not a ref map";
        return -1;
    }
    if (buf[sizeof(MAGIC)] != AD_REFMAP_FORMAT) {
        *why = "an unknown ref map format version";
        return -1;
    }
    const unsigned char *s = buf + len - 4;
    uint32_t sum = s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
    if (sum != ad_refmap_checksum(buf, len - 4)) {
        *why = "a bad checksum";
        return -1;
    }
    in r = {.p = buf + sizeof(MAGIC) + 1, .end = s};
    json_t *map = get_json(&r, 0), *values = NULL, *refs = NULL;
    uint64_t count = 0;
    if (map && (!json_is_object(map) || json_object_get(map, "refs")))
        fail(&r, "a bad header");
    if (get_varint(&r, &count) && count > (uint64_t)(r.end - r.p))
        fail(&r, "truncated");
    if (!r.why)
        values = json_array();
    for (uint64_t i = 0; i < count && !r.why; i++) {
        json_t *v = get_json(&r, JSON_DECODE_ANY);
        if (v)
            json_array_append_new(values, v);
    }
    if (!r.why)
        refs = get_refs(&r, values);
    if (!r.why && r.p != r.end)
        fail(&r, "bytes after the end");
    json_decref(values);
    if (r.why) {
        json_decref(refs);
        json_decref(map);
        *why = r.why;
        return -1;
    }
    json_object_set_new(map, "refs", refs);
    *ret = map;
    return 0;
}
