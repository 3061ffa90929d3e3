/* test_refmap_codec.c: the compact refmap format 2 (refmap_codec.h): exact round trips, the
 * size of a 50,000-ref map, and corrupt files failing closed (snapshots-and-refs.md, "Where
 * refs are stored": one ref map within 1,048,576 bytes). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "core/node.h"
#include "core/present.h"
#include "core/refmap_codec.h"
#include "core/refstore.h"
#include "test_util.h"

static json_t *map_with(json_t *refs)
{
    return json_pack("{s:s, s:I, s:I, s:s, s:s, s:{s:s, s:s}, s:{s:i, s:s, s:s, s:s, s:b}, "
                     "s:o}",
                     "snapshot_id", "s1codec", "created_at", (json_int_t)1796122764936,
                     "next_ref", (json_int_t)1, "app", "ad-bench-synthetic", "surface",
                     "window", "window", "id", "x11:0x1a00003", "title", "AD Synthetic",
                     "source", "pid", 4242, "process_instance", "boot:77", "source_window_id",
                     "x11:0x1a00003", "source_app", "ad-bench-synthetic", "path_is_absolute",
                     1, "refs", refs);
}

/* n refs shaped as present.c writes a big grid of buttons: 100 per row, distinct names,
 * screen bounds, their hash, states, one action, a 6-deep path. */
static json_t *grid_map(size_t n)
{
    json_t *refs = json_object();
    for (size_t i = 0; i < n; i++) {
        size_t row = i / 100, col = i % 100;
        char key[32], name[64], h[17];
        snprintf(key, sizeof(key), "@e%zu", i + 1);
        snprintf(name, sizeof(name), "Button %zu.%zu", row + 1, 2 * col + 2);
        ad_rect r = {.x = 10.0 + 74.0 * (double)col, .y = 40.0 + 31.0 * (double)row,
                     .width = 72.0 + (double)(col % 3), .height = 29.0};
        ad_rect_hash(&r, h);
        json_t *e = json_pack("{s:s, s:s, s:b, s:o, s:s, s:[s, s, s, s, s], s:[s], "
                              "s:[i, i, i, i, I, I]}",
                              "role", "button", "name", name, "unique_at_capture", 1, "bounds",
                              ad_rect_json(&r), "bounds_hash", h, "states", "enabled",
                              "focusable", "sensitive", "showing", "visible",
                              "available_actions", "click", "path", 0, 0, 0, 0,
                              (json_int_t)row, (json_int_t)(2 * col + 1));
        json_object_set_new(refs, key, e);
    }
    json_t *m = map_with(refs);
    json_object_set_new(m, "next_ref", json_integer((json_int_t)n + 1));
    return m;
}

/* Encodes and decodes m; asserts the result equals m exactly. Returns the encoded size. */
static size_t round_trip(const json_t *m)
{
    size_t len = 0;
    unsigned char *enc = ad_refmap_encode(m, &len);
    assert_non_null(enc);
    assert_true(ad_refmap_is_compact(enc, len));
    json_t *back = NULL;
    const char *why = "unset";
    assert_int_equal(ad_refmap_decode(enc, len, &back, &why), 0);
    assert_true(json_equal(back, (json_t *)m));
    json_decref(back);
    free(enc);
    return len;
}

static void test_fifty_thousand_refs_fit_well_under_twenty_bytes_each(void **state)
{
    (void)state;
    json_t *m = grid_map(50000);
    char *as_json = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);
    size_t json_len = strlen(as_json);
    free(as_json);
    size_t len = round_trip(m);
    print_message("# 50000 refs: format 1 (JSON) %zu bytes (%.1f per ref), format 2 %zu bytes "
                  "(%.2f per ref)\n",
                  json_len, (double)json_len / 50000, len, (double)len / 50000);
    assert_true(json_len > AD_REFMAP_MAX_BYTES); /* what made such a snapshot fail */
    assert_true(len < 20 * 50000);
    assert_true(len <= AD_REFMAP_MAX_BYTES);
    json_decref(m);
}

static void test_odd_entries_round_trip_exactly(void **state)
{
    (void)state;
    json_t *refs = json_object();
    /* Fractional bounds, a hash that is not theirs, and integer bounds all go to extras. */
    json_object_set_new(refs, "@e3",
                        json_pack("{s:s, s:{s:f, s:f, s:f, s:f}, s:s, s:b}", "role", "slider",
                                  "bounds", "x", 1.5, "y", 2.0, "width", 3.0, "height", 4.0,
                                  "bounds_hash", "0123456789abcdef", "unique_at_capture", 0));
    json_object_set_new(refs, "@e7",
                        json_pack("{s:s, s:{s:f, s:f, s:f, s:f}, s:s, s:b}", "role", "slider",
                                  "bounds", "x", -20.0, "y", 2.0, "width", 3.0, "height", 4.0,
                                  "bounds_hash", "0123456789abcdef", "unique_at_capture", 1));
    json_object_set_new(refs, "@e8", json_pack("{s:s, s:{s:i, s:i, s:i, s:i}, s:b}", "role",
                                               "label", "bounds", "x", 1, "y", 2, "width", 3,
                                               "height", 4, "unique_at_capture", 1));
    /* Unicode and shared prefixes, a NUL inside a name, a non-string name. */
    json_object_set_new(refs, "@e10", json_pack("{s:s, s:s, s:s, s:s, s:b}", "role", "button",
                                                "name", "Übernehmen ✓", "value", "",
                                                "native_id", "ok_btn", "unique_at_capture", 1));
    json_object_set_new(refs, "@e11", json_pack("{s:s, s:s%, s:i, s:b, s:b}", "role", "button",
                                                "name", "Über\0x", (size_t)6, "description", 7,
                                                "unique_at_capture", 1, "drill_target", 1));
    /* An anchored drill target with a root_ref, description_shows_value, an empty path. */
    json_object_set_new(
        refs, "@e12",
        json_pack("{s:s, s:s, s:b, s:b, s:{s:s, s:s, s:i, s:[{s:s}]}, s:s, s:[], s:b}", "role",
                  "list", "name", "Items", "unique_at_capture", 1, "drill_target", 1, "anchor",
                  "role", "panel", "name", "Side", "hops", 2, "between", "role", "filler",
                  "root_ref", "@e3", "path", "description_shows_value", 1));
    /* A path longer than the compact form takes, and one with a negative index. */
    json_t *deep = json_array();
    for (int i = 0; i < 70; i++)
        json_array_append_new(deep, json_integer(i));
    json_object_set_new(refs, "@e9999999999",
                        json_pack("{s:s, s:o, s:b}", "role", "cell", "path", deep,
                                  "unique_at_capture", 1));
    json_object_set_new(refs, "@e20", json_pack("{s:s, s:[i, i], s:b}", "role", "cell", "path",
                                                1, -1, "unique_at_capture", 1));
    json_t *m = map_with(refs);
    round_trip(m);
    json_decref(m);

    json_t *empty = map_with(json_object());
    round_trip(empty);
    json_decref(empty);
}

static unsigned char *small_encoded(size_t *len)
{
    json_t *m = grid_map(3);
    unsigned char *enc = ad_refmap_encode(m, len);
    assert_non_null(enc);
    json_decref(m);
    return enc;
}

static void expect_refused(const unsigned char *buf, size_t len, const char *why_part)
{
    json_t *back = NULL;
    const char *why = NULL;
    assert_int_equal(ad_refmap_decode(buf, len, &back, &why), -1);
    assert_null(back);
    assert_non_null(why);
    if (why_part)
        assert_non_null(strstr(why, why_part));
}

/* Rewrites the trailing checksum so a change reaches the decoder behind it. */
static void reseal(unsigned char *buf, size_t len)
{
    unsigned sum = ad_refmap_checksum(buf, len - 4);
    for (int i = 0; i < 4; i++)
        buf[len - 4 + i] = (unsigned char)(sum >> (8 * i));
}

static void test_corrupt_and_truncated_files_fail_closed(void **state)
{
    (void)state;
    size_t len;
    unsigned char *enc = small_encoded(&len);
    /* Every truncation, sealed or not. */
    for (size_t n = 0; n < len; n++) {
        unsigned char *cut = malloc(len);
        memcpy(cut, enc, n);
        expect_refused(cut, n, NULL);
        if (n >= 9) {
            reseal(cut, n);
            expect_refused(cut, n, NULL);
        }
        free(cut);
    }
    /* Every flipped byte breaks the checksum. */
    for (size_t i = 0; i < len; i++) {
        enc[i] ^= 0x20;
        expect_refused(enc, len, NULL);
        enc[i] ^= 0x20;
    }
    /* An unknown version is refused as such, even with a valid checksum. */
    enc[4] = 3;
    reseal(enc, len);
    expect_refused(enc, len, "unknown");
    enc[4] = AD_REFMAP_FORMAT;
    reseal(enc, len);
    json_t *ok = NULL;
    const char *why;
    assert_int_equal(ad_refmap_decode(enc, len, &ok, &why), 0);
    json_decref(ok);
    /* Sealed bytes after the end. */
    unsigned char *longer = malloc(len + 1);
    memcpy(longer, enc, len - 4);
    longer[len - 4] = 0;
    reseal(longer, len + 1);
    expect_refused(longer, len + 1, "after the end");
    free(longer);
    free(enc);
}

/* A sealed file whose first entry's role names a value past the table's end. */
static void test_an_index_out_of_range_fails_closed(void **state)
{
    (void)state;
    json_t *m = map_with(json_pack("{s:{s:s, s:b}}", "@e1", "role", "button",
                                   "unique_at_capture", 1));
    size_t len;
    unsigned char *enc = ad_refmap_encode(m, &len);
    /* The entry ends the file before the checksum: head 2, mask (2), role index 0. */
    assert_int_equal(enc[len - 4 - 1], 0);
    enc[len - 4 - 1] = 5;
    reseal(enc, len);
    expect_refused(enc, len, "out of range");
    free(enc);
    json_decref(m);
}

/* Through the store: a 50,000-ref snapshot saves within 1 MiB and loads back whole; a corrupt
 * refmap.json is SNAPSHOT_NOT_FOUND with details.kind refmap_invalid. */
static void test_the_store_saves_and_refuses(void **state)
{
    (void)state;
    tu_home home;
    tu_home_begin(&home);
    ad_ctx ctx = {.state_root = home.state};
    json_t *m = grid_map(50000);
    json_object_set_new(m, "snapshot_id", json_string("s1big"));
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_save(&ctx, m, &err), 0);
    json_t *back = NULL;
    assert_int_equal(ad_refstore_load(&ctx, "s1big", &back, &err), 0);
    assert_true(json_equal(back, m));
    json_decref(back);

    char path[4096];
    snprintf(path, sizeof(path), "%s/snapshots/s1big/refmap.json", home.state);
    size_t len;
    char *bytes = tu_read_file(path, &len);
    assert_true(len < 20 * 50000);
    bytes[len / 2] ^= 1;
    FILE *f = fopen(path, "wb");
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    fclose(f);
    free(bytes);
    assert_int_equal(ad_refstore_load(&ctx, "s1big", &back, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    assert_string_equal(json_string_value(json_object_get(err.details, "kind")),
                        "refmap_invalid");
    assert_non_null(strstr(err.message, "checksum"));
    ad_error_clear(&err);

    tu_write_file(path, "ADRM\x07 junk");
    assert_int_equal(ad_refstore_load(&ctx, "s1big", &back, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    ad_error_clear(&err);
    tu_write_file(path, "\x01\x02 neither format");
    assert_int_equal(ad_refstore_load(&ctx, "s1big", &back, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    ad_error_clear(&err);
    json_decref(m);
    tu_home_end(&home);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifty_thousand_refs_fit_well_under_twenty_bytes_each),
        cmocka_unit_test(test_odd_entries_round_trip_exactly),
        cmocka_unit_test(test_corrupt_and_truncated_files_fail_closed),
        cmocka_unit_test(test_an_index_out_of_range_fails_closed),
        cmocka_unit_test(test_the_store_saves_and_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
