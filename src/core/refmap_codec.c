/* refmap_codec.c: writing refmap format 2 (layout in refmap_codec.h). */
#include "core/refmap_codec.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/refmap_fields.h"
#include "core/text_buf.h"

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

/* ---- writing ------------------------------------------------------------------------- */

typedef ad_buf out; /* text_buf.h: its failure sticks, checked once at the end */

static void put(out *o, const void *data, size_t n)
{
    if (n) /* an empty part has no buffer yet: memcpy from NULL is UB */
        ad_buf_put_n(o, data, n);
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

/* The writer keeps its own copy of each previous text: an entry may be freed once added
 * (ad_refmap_writer_add), so prev->text points into these buffers, never into an entry. */
typedef struct {
    ad_buf copy[N_TEXT];
} text_copies;

static void put_text(out *o, previous *prev, text_copies *tc, int slot, const json_t *v)
{
    const char *s = json_string_value(v);
    size_t n = json_string_length(v), shared = 0;
    const char *p = prev->text[slot];
    while (p && shared < n && shared < prev->text_len[slot] && p[shared] == s[shared])
        shared++;
    put_varint(o, shared);
    put_bytes(o, s + shared, n - shared);
    ad_buf *c = &tc->copy[slot];
    c->len = 0;
    if (n)
        ad_buf_put_n(c, s, n);
    if (c->failed)
        o->failed = true;
    prev->text[slot] = c->buf ? c->buf : "";
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

static void put_entry(out *o, table *t, previous *prev, text_copies *tc, uint64_t number,
                      const json_t *e)
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
                put_text(o, prev, tc, slot, fv);
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

struct ad_refmap_writer {
    table t;
    out body; /* the entries, without their count */
    size_t count;
    previous prev;
    text_copies tc;
};

ad_refmap_writer *ad_refmap_writer_new(void)
{
    ad_refmap_writer *w = calloc(1, sizeof(*w));
    if (w && !(w->t.index = json_object())) {
        free(w);
        return NULL;
    }
    return w;
}

void ad_refmap_writer_free(ad_refmap_writer *w)
{
    if (!w)
        return;
    free(w->body.buf);
    free(w->t.texts.buf);
    for (size_t i = 0; i < N_TEXT; i++)
        free(w->tc.copy[i].buf);
    json_decref(w->t.index);
    free(w);
}

int ad_refmap_writer_add(ad_refmap_writer *w, uint64_t number, const json_t *entry)
{
    if (!json_is_object(entry) || number == 0 || number <= w->prev.number)
        return -1;
    put_entry(&w->body, &w->t, &w->prev, &w->tc, number, entry);
    w->count++;
    return w->body.failed || w->t.texts.failed ? -1 : 0;
}

unsigned char *ad_refmap_writer_finish(ad_refmap_writer *w, const json_t *header, size_t *len)
{
    out file = {0};
    unsigned char *ret = NULL;
    char *head = json_dumps(header, JSON_COMPACT | JSON_SORT_KEYS);
    put(&file, MAGIC, sizeof(MAGIC));
    unsigned char version = AD_REFMAP_FORMAT;
    put(&file, &version, 1);
    if (head)
        put_bytes(&file, head, strlen(head));
    free(head);
    put_varint(&file, w->t.count);
    put(&file, w->t.texts.buf, w->t.texts.len);
    put_varint(&file, w->count);
    put(&file, w->body.buf, w->body.len);
    uint32_t sum = ad_refmap_checksum((const unsigned char *)file.buf, file.len);
    unsigned char s[4] = {sum & 0xff, (sum >> 8) & 0xff, (sum >> 16) & 0xff, sum >> 24};
    put(&file, s, 4);
    if (head && !file.failed && !w->body.failed && !w->t.texts.failed) {
        ret = (unsigned char *)file.buf;
        file.buf = NULL;
        *len = file.len;
    }
    free(file.buf);
    return ret;
}

unsigned char *ad_refmap_encode(const json_t *map, size_t *len)
{
    const json_t *refs = json_object_get(map, "refs");
    if (!json_is_object(refs))
        return NULL;
    size_t n = json_object_size(refs), i = 0;
    numbered *list = calloc(n ? n : 1, sizeof(*list));
    json_t *header = json_copy((json_t *)map);
    ad_refmap_writer *w = ad_refmap_writer_new();
    unsigned char *ret = NULL;
    if (!list || !header || !w)
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
    for (i = 0; i < n; i++)
        if (ad_refmap_writer_add(w, list[i].number, list[i].entry) < 0)
            goto done;
    ret = ad_refmap_writer_finish(w, header, len);
done:
    ad_refmap_writer_free(w);
    json_decref(header);
    free(list);
    return ret;
}
