/* refmap_decode.c: reading refmap format 2 (layout in refmap_codec.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/refmap_codec.h"
#include "core/refmap_fields.h"

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
            if (on && !(mask & (1u << FIELD_BOUNDS))) {
                fail(r, "a bounds hash without bounds");
            } else if (on) {
                char h[17];
                bounds_hash_of(prev->bounds, h);
                v = json_string(h);
            }
            break;
        case K_BOOL:
            if (on)
                v = json_boolean(mask &
                                 (i == FIELD_UNIQUE ? BIT_UNIQUE_VALUE : BIT_DRILL_VALUE));
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
