/* refmap_check.c: validating a refmap read from disk before anything uses it. */
#include "core/refmap_check.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/refs.h"

#define PID_LIMIT (1 << 22) /* the kernel's PID_MAX_LIMIT on 64-bit: no pid is larger */
#define TOKEN_MAX 256       /* process instances and window ids are far shorter */
#define PATH_DEPTH_MAX 64   /* present.c records at most 64 child indexes */
#define HOPS_MAX 64
#define REF_NUMBER_MAX 9999999999LL /* ad_ref_parse accepts at most 10 digits */

/* A non-empty printable string of at most TOKEN_MAX bytes. */
static bool token(const json_t *v)
{
    const char *s = json_string_value(v);
    if (!s || !*s || strlen(s) > TOKEN_MAX)
        return false;
    for (; *s; s++)
        if (!isprint((unsigned char)*s))
            return false;
    return true;
}

static bool int_in(const json_t *v, json_int_t lo, json_int_t hi)
{
    return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

/* Absent, or a string. */
static bool opt_str(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return !v || json_is_string(v);
}

static bool opt_str_or_null(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return !v || json_is_string(v) || json_is_null(v);
}

static bool opt_bool(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return !v || json_is_boolean(v);
}

static bool opt_string_array(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return true;
    if (!json_is_array(v))
        return false;
    size_t i;
    const json_t *s;
    json_array_foreach(v, i, s) if (!json_is_string(s)) return false;
    return true;
}

/* "@eN" with N in 1..REF_NUMBER_MAX, as ad_ref_key writes it. */
static bool ref_key(const char *k)
{
    if (!k || k[0] != '@' || k[1] != 'e' || k[2] < '1' || k[2] > '9' || strlen(k) > 12)
        return false;
    for (const char *p = k + 2; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    return true;
}

/* The fields resolution compares: a role, and text fields that are strings when present. */
static bool identity(const json_t *o)
{
    const char *role = json_string_value(json_object_get(o, "role"));
    return json_is_object(o) && role && *role && opt_str(o, "name") && opt_str(o, "value") &&
           opt_str(o, "description") && opt_str(o, "native_id");
}

/* resolve.c walks `hops` parents and compares between[i] for every one but the last: a chain
 * shorter than hops - 1 would skip comparisons, so it must be exact. */
static const char *anchor_problem(const json_t *a)
{
    if (!identity(a))
        return "anchor";
    const json_t *hops = json_object_get(a, "hops"), *between = json_object_get(a, "between");
    if (!int_in(hops, 1, HOPS_MAX))
        return "anchor.hops";
    if (!json_is_array(between) || json_array_size(between) != (size_t)json_integer_value(hops) - 1)
        return "anchor.between";
    size_t i;
    const json_t *b;
    json_array_foreach(between, i, b) if (!identity(b)) return "anchor.between";
    return NULL;
}

static const char *bounds_problem(const json_t *b)
{
    static const char *const keys[] = {"x", "y", "width", "height"};
    if (!json_is_object(b))
        return "bounds";
    for (size_t i = 0; i < 4; i++)
        if (!json_is_number(json_object_get(b, keys[i])))
            return "bounds";
    return NULL;
}

static const char *path_problem(const json_t *p)
{
    if (!json_is_array(p) || json_array_size(p) > PATH_DEPTH_MAX)
        return "path";
    size_t i;
    const json_t *v;
    json_array_foreach(p, i, v) if (!int_in(v, 0, INT32_MAX)) return "path";
    return NULL;
}

/* The first malformed field of a ref entry, or NULL. */
static const char *entry_problem(const json_t *e)
{
    if (!json_is_object(e))
        return "entry";
    if (!identity(e))
        return "role, name, value, description or native_id";
    if (!json_is_boolean(json_object_get(e, "unique_at_capture")))
        return "unique_at_capture";
    const json_t *v;
    const char *why;
    if ((v = json_object_get(e, "anchor")) && (why = anchor_problem(v)))
        return why;
    if ((v = json_object_get(e, "bounds")) && (why = bounds_problem(v)))
        return why;
    if ((v = json_object_get(e, "path")) && (why = path_problem(v)))
        return why;
    if ((v = json_object_get(e, "root_ref")) && !ref_key(json_string_value(v)))
        return "root_ref";
    if (!opt_str(e, "bounds_hash") || !opt_string_array(e, "states") ||
        !opt_string_array(e, "available_actions") || !opt_bool(e, "drill_target"))
        return "bounds_hash, states, available_actions or drill_target";
    return NULL;
}

static const char *source_problem(const json_t *s)
{
    if (!json_is_object(s))
        return "source";
    if (!int_in(json_object_get(s, "pid"), 1, PID_LIMIT))
        return "source.pid";
    if (!token(json_object_get(s, "process_instance")))
        return "source.process_instance";
    if (!token(json_object_get(s, "source_window_id")))
        return "source.source_window_id";
    if (!opt_str(s, "source_app") || !opt_str_or_null(s, "source_window_title") ||
        !opt_str(s, "source_window_bounds_hash") || !opt_str(s, "source_surface") ||
        !opt_str(s, "bounds_space") || !opt_bool(s, "path_is_absolute"))
        return "source";
    return NULL;
}

static const char *top_problem(const json_t *m, const char *snapshot_id)
{
    if (!json_is_object(m))
        return "the top level";
    const char *id = json_string_value(json_object_get(m, "snapshot_id"));
    if (!id || strcmp(id, snapshot_id) != 0)
        return "snapshot_id";
    const json_t *v;
    if ((v = json_object_get(m, "next_ref")) && !int_in(v, 1, REF_NUMBER_MAX + 1))
        return "next_ref";
    if ((v = json_object_get(m, "created_at")) && !int_in(v, 0, INT64_MAX))
        return "created_at";
    if (!opt_str(m, "app") || !opt_str(m, "surface"))
        return "app or surface";
    v = json_object_get(m, "window");
    if (v && !json_is_null(v) &&
        (!json_is_object(v) || !opt_str(v, "id") || !opt_str_or_null(v, "title")))
        return "window";
    if (!json_is_object(json_object_get(m, "refs")))
        return "refs";
    return source_problem(json_object_get(m, "source"));
}

int ad_refmap_check(const json_t *map, const char *snapshot_id, ad_error *err)
{
    char field[128];
    const char *why = top_problem(map, snapshot_id);
    if (!why) {
        json_t *refs = json_object_get(map, "refs");
        const char *key;
        json_t *e;
        json_object_foreach(refs, key, e) {
            const char *bad = ref_key(key) ? entry_problem(e) : "a key that is not @eN";
            if (bad) {
                /* A well-formed key is safe to name; a malformed one is not echoed. */
                snprintf(field, sizeof(field), "refs%s%s: %s", ref_key(key) ? "." : "",
                         ref_key(key) ? key : "", bad);
                why = field;
                break;
            }
        }
    }
    return why ? ad_refmap_invalid(err, snapshot_id, why) : 0;
}

int ad_refmap_invalid(ad_error *err, const char *snapshot_id, const char *why)
{
    ad_error_set(err, AD_SNAPSHOT_NOT_FOUND, "Snapshot '%s' has an unusable ref map: %s",
                 snapshot_id, why);
    ad_error_suggest(err, "Re-run a snapshot and retry with a ref from the returned snapshot");
    ad_error_detail(err, "kind", json_string("refmap_invalid"));
    return -1;
}
