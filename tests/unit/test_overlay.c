/* test_overlay.c: the cursor overlay's model: every style flag's check as the validator runs
 * it (core/overlay_style.h through dispatch/validate.h), the style object, and the glide
 * path's determinism and bounds (core/overlay_motion.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/overlay_motion.h"
#include "core/overlay_style.h"
#include "dispatch/validate.h"
#include "helper/overlay_label.h"
#include "test_util.h"

/* Validates cursor-overlay with given (JSON text): 0 with *ret_args, or -1 with err. */
static int validate(const char *given_json, json_t **ret_args, ad_error *err)
{
    json_t *given = json_loads(given_json, 0, NULL);
    assert_non_null(given);
    int rc = ad_args_validate(ad_command_find("cursor-overlay"), given, ret_args, err);
    json_decref(given);
    return rc;
}

static void expect_refused(const char *given_json, const char *argument, const char *part)
{
    json_t *args = NULL;
    ad_error err = AD_ERROR_INIT;
    if (validate(given_json, &args, &err) != -1)
        fail_msg("accepted: %s", given_json);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_null(args);
    if (argument)
        assert_string_equal(tu_str(err.details, "argument"), argument);
    if (part && !strstr(err.message, part))
        fail_msg("message '%s' lacks '%s'", err.message, part);
    ad_error_clear(&err);
}

static json_t *accepted(const char *given_json)
{
    json_t *args = NULL;
    ad_error err = AD_ERROR_INIT;
    if (validate(given_json, &args, &err) != 0)
        fail_msg("refused %s: %s", given_json, err.message);
    return args;
}

static void test_every_range_is_enforced(void **state)
{
    (void)state;
    expect_refused("{\"action\":\"enable\",\"size\":\"0.4\"}", "size", "0.5 to 4");
    expect_refused("{\"action\":\"enable\",\"size\":\"4.01\"}", "size", NULL);
    expect_refused("{\"action\":\"enable\",\"size\":\"big\"}", "size", NULL);
    expect_refused("{\"action\":\"enable\",\"bow\":\"3.1\"}", "bow", NULL);
    expect_refused("{\"action\":\"enable\",\"overshoot\":\"0.16\"}", "overshoot", NULL);
    expect_refused("{\"action\":\"enable\",\"tremor\":\"-0.5\"}", "tremor", NULL);
    expect_refused("{\"action\":\"enable\",\"tremor\":\"nan\"}", "tremor", NULL);
    expect_refused("{\"action\":\"enable\",\"dwell_ms\":301}", "dwell_ms", NULL);
    expect_refused("{\"action\":\"enable\",\"max_words\":0}", "max_words", NULL);
    expect_refused("{\"action\":\"enable\",\"max_words\":13}", "max_words", NULL);
    for (const char *c = "#12345|#1234567|123456|#GGGGGG|red"; c;) {
        char value[16], json[96];
        const char *bar = strchr(c, '|');
        size_t n = bar ? (size_t)(bar - c) : strlen(c);
        snprintf(value, sizeof(value), "%.*s", (int)n, c);
        snprintf(json, sizeof(json), "{\"action\":\"enable\",\"accent\":\"%s\"}", value);
        expect_refused(json, "accent", "#RRGGBB");
        snprintf(json, sizeof(json), "{\"action\":\"enable\",\"rim\":\"%s\"}", value);
        expect_refused(json, "rim", NULL);
        snprintf(json, sizeof(json), "{\"action\":\"enable\",\"fill\":\"%s\"}", value);
        expect_refused(json, "fill", NULL);
        c = bar ? bar + 1 : NULL;
    }
}

static void test_travel_and_dwell_budget(void **state)
{
    (void)state;
    expect_refused("{\"action\":\"enable\",\"travel_ms\":\"320,90\"}", "travel_ms", NULL);
    expect_refused("{\"action\":\"enable\",\"travel_ms\":\"90\"}", "travel_ms", NULL);
    expect_refused("{\"action\":\"enable\",\"travel_ms\":\"90,701\"}", "travel_ms", NULL);
    expect_refused("{\"action\":\"enable\",\"travel_ms\":\"-1,90\"}", "travel_ms", NULL);
    /* Maximum travel plus dwell must not exceed 700 ms. */
    expect_refused("{\"action\":\"enable\",\"travel_ms\":\"100,500\",\"dwell_ms\":201}",
                   "dwell_ms", "700 ms");
    json_decref(accepted("{\"action\":\"enable\",\"travel_ms\":\"100,500\",\"dwell_ms\":200}"));
    /* The default travel (90,320) counts too. */
    expect_refused("{\"action\":\"enable\",\"dwell_ms\":300,\"travel_ms\":\"0,401\"}",
                   "dwell_ms", NULL);
    json_decref(accepted("{\"action\":\"enable\",\"dwell_ms\":300}"));
}

static void test_label_words_and_subcommand_flags(void **state)
{
    (void)state;
    expect_refused("{\"action\":\"enable\",\"label\":\"   \"}", "label", "1 to 12 words");
    expect_refused("{\"action\":\"enable\",\"label\":\"a b c d e f g h i j k l m\"}", "label",
                   "12 words");
    json_decref(accepted("{\"action\":\"enable\",\"label\":\"a b c d e f g h i j k l\"}"));
    /* Style flags belong to enable. */
    expect_refused("{\"action\":\"disable\",\"accent\":\"#FF00FF\"}", "accent", "does not take");
    /* A hotspot is a point of its image. */
    expect_refused("{\"action\":\"enable\",\"hotspot\":\"1,1\"}", NULL, "--hotspot needs --image");
}

/* A PNG header of w x h in a temp file (enough for the size check); the caller unlinks. */
static void write_png_header(const char *path, unsigned w, unsigned h, size_t pad)
{
    unsigned char head[24] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
                              'I', 'H', 'D', 'R', (unsigned char)(w >> 24),
                              (unsigned char)(w >> 16), (unsigned char)(w >> 8),
                              (unsigned char)w, (unsigned char)(h >> 24),
                              (unsigned char)(h >> 16), (unsigned char)(h >> 8),
                              (unsigned char)h};
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(head, 1, sizeof(head), f);
    for (size_t i = 0; i < pad; i++)
        fputc(0, f);
    fclose(f);
}

static void test_images_size_and_hotspot(void **state)
{
    (void)state;
    char path[] = "/tmp/ad-overlay-png-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char json[256];
    write_png_header(path, 32, 48, 0);
    snprintf(json, sizeof(json), "{\"action\":\"enable\",\"image\":\"%s\",\"hotspot\":\"31,47\"}",
             path);
    json_t *args = accepted(json);
    json_t *style = ad_overlay_style_from_args(args);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(style, "hotspot"), 0)),
                     31);
    json_decref(style);
    json_decref(args);
    snprintf(json, sizeof(json), "{\"action\":\"enable\",\"image\":\"%s\",\"hotspot\":\"32,0\"}",
             path);
    expect_refused(json, "hotspot", "inside the image");
    snprintf(json, sizeof(json), "{\"action\":\"enable\",\"pointer_image\":\"%s\","
             "\"pointer_hotspot\":\"0,48\"}", path);
    expect_refused(json, "pointer_hotspot", NULL);
    write_png_header(path, 1025, 10, 0);
    snprintf(json, sizeof(json), "{\"action\":\"enable\",\"image\":\"%s\"}", path);
    expect_refused(json, "image", "1024 pixels");
    write_png_header(path, 10, 10, AD_OVERLAY_IMAGE_MAX_BYTES);
    expect_refused(json, "image", "2 MiB");
    FILE *f = fopen(path, "wb");
    fputs("not a png at all, just some text here", f);
    fclose(f);
    expect_refused(json, "image", "not a PNG");
    unlink(path);
    expect_refused(json, "image", "Cannot read");
}

static void test_style_defaults_match_the_table(void **state)
{
    (void)state;
    json_t *args = accepted("{\"action\":\"enable\",\"accent\":\"#ff00aa\",\"no_ripple\":true,"
                            "\"motion_seed\":7}");
    json_t *style = ad_overlay_style_from_args(args);
    json_t *none = json_object();
    json_t *plain = ad_overlay_style_from_args(none);
    json_t *table = accepted("{\"action\":\"enable\"}");
    json_t *table_style = ad_overlay_style_from_args(table);
    /* session start --cursor's style (no arguments) is enable's without flags. */
    assert_true(json_equal(plain, table_style));
    assert_string_equal(tu_str(style, "accent"), "#FF00AA");
    assert_false(json_is_true(json_object_get(style, "ripple")));
    assert_true(json_is_true(json_object_get(style, "highlight")));
    assert_int_equal(json_integer_value(json_object_get(style, "motion_seed")), 7);
    assert_string_equal(tu_str(plain, "accent"), "#4299FF");
    assert_string_equal(tu_str(plain, "rim"), "#111318");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(plain, "travel_ms"), 1)),
                     320);
    json_t *summary = ad_overlay_style_summary(plain);
    json_t *want = json_pack("{s:s, s:b, s:s, s:b, s:f}", "accent", "#4299FF", "highlight", 1,
                             "rim", "#111318", "ripple", 1, "size", 1.0);
    assert_true(json_equal(summary, want));
    json_decref(want);
    json_decref(summary);
    json_decref(table_style);
    json_decref(table);
    json_decref(plain);
    json_decref(none);
    json_decref(style);
    json_decref(args);
}

static const ad_motion_params DEFAULTS = {.travel_min_ms = 90, .travel_max_ms = 320, .bow = 1,
                                          .overshoot = 0.035, .tremor = 1.1};

static size_t path_of(const ad_motion_params *p, ad_motion_point *pts)
{
    return ad_motion_path(p, 100, 100, 700, 400, pts, AD_MOTION_MAX_POINTS);
}

static void test_path_is_deterministic_and_ends_on_the_target(void **state)
{
    (void)state;
    ad_motion_point a[AD_MOTION_MAX_POINTS], b[AD_MOTION_MAX_POINTS], c[AD_MOTION_MAX_POINTS];
    ad_motion_params seeded = DEFAULTS;
    seeded.has_seed = true;
    seeded.seed = 42;
    size_t na = path_of(&seeded, a), nb = path_of(&seeded, b);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++)
        assert_true(a[i].x == b[i].x && a[i].y == b[i].y && a[i].t_ms == b[i].t_ms);
    seeded.seed = 43;
    size_t nc = path_of(&seeded, c);
    assert_int_equal(nc, na);
    bool differs = false; /* another seed, another path */
    for (size_t i = 0; i < na; i++)
        differs = differs || a[i].x != c[i].x || a[i].y != c[i].y;
    assert_true(differs);
    assert_true(a[0].x == 100 && a[0].y == 100 && a[0].t_ms == 0);
    assert_true(a[na - 1].x == 700 && a[na - 1].y == 400);
    int duration = ad_motion_duration_ms(&seeded, hypot(600, 300));
    assert_int_equal(a[na - 1].t_ms, duration);
    assert_true(duration >= 90 && duration <= 320);
    for (size_t i = 1; i < na; i++)
        assert_true(a[i].t_ms >= a[i - 1].t_ms);
    /* Short moves take the minimum, long ones the maximum. */
    assert_int_equal(ad_motion_duration_ms(&DEFAULTS, 0), 90);
    assert_int_equal(ad_motion_duration_ms(&DEFAULTS, 5000), 320);
    /* A zero-length move is just the target. */
    assert_int_equal(ad_motion_path(&DEFAULTS, 5, 5, 5, 5, a, AD_MOTION_MAX_POINTS), 1);
    /* The longest move fits the buffer. */
    ad_motion_params longest = {.travel_min_ms = 700, .travel_max_ms = 700};
    size_t n = ad_motion_path(&longest, 0, 0, 4000, 0, a, AD_MOTION_MAX_POINTS);
    assert_true(n <= AD_MOTION_MAX_POINTS && a[n - 1].t_ms == 700 && a[n - 1].x == 4000);
}

/* Distance of (x, y) from the line through the move, and how far along it (0..1). */
static void along(const ad_motion_point *p, double *off, double *t)
{
    double dx = 600, dy = 300, len = hypot(dx, dy);
    double rx = p->x - 100, ry = p->y - 100;
    *t = (rx * dx + ry * dy) / (len * len);
    *off = fabs(rx * dy - ry * dx) / len;
}

/* The widest sideways distance and the furthest point along the move of p's path. */
static void extremes(const ad_motion_params *p, double *widest, double *furthest)
{
    ad_motion_point pts[AD_MOTION_MAX_POINTS];
    size_t n = path_of(p, pts);
    *widest = 0;
    *furthest = 0;
    for (size_t i = 0; i < n; i++) {
        double off, t;
        along(&pts[i], &off, &t);
        *widest = fmax(*widest, off);
        *furthest = fmax(*furthest, t);
    }
}

static void test_bow_overshoot_and_tremor_bounds(void **state)
{
    (void)state;
    ad_motion_point pts[AD_MOTION_MAX_POINTS];
    double len = hypot(600, 300);
    /* Nothing: a straight path that never passes the target. */
    ad_motion_params straight = {.travel_min_ms = 200, .travel_max_ms = 200};
    double widest, furthest;
    extremes(&straight, &widest, &furthest);
    assert_true(widest < 1e-6 && furthest <= 1 + 1e-9);
    /* Bow: a sideways bulge of up to bow * 0.15 * distance / 2 (a quadratic's middle). */
    ad_motion_params bowed = straight;
    bowed.bow = 3;
    extremes(&bowed, &widest, &furthest);
    assert_true(widest > 0.2 * len && widest <= 3 * 0.15 * len / 2 + 1e-6);
    /* Overshoot: past the target by at most the fraction, then back on it. */
    ad_motion_params over = straight;
    over.overshoot = 0.15;
    extremes(&over, &widest, &furthest);
    assert_true(furthest > 1.05 && furthest <= 1.15 + 1e-9);
    size_t n;
    /* Tremor: at most `tremor` points per axis off the tremor-free path, none at the ends. */
    ad_motion_params shaky = straight, calm = straight;
    shaky.tremor = 4;
    ad_motion_point ref[AD_MOTION_MAX_POINTS];
    size_t nr = path_of(&calm, ref);
    n = path_of(&shaky, pts);
    assert_int_equal(n, nr);
    double most = 0;
    for (size_t i = 0; i < n; i++) {
        most = fmax(most, fmax(fabs(pts[i].x - ref[i].x), fabs(pts[i].y - ref[i].y)));
        assert_true(fabs(pts[i].x - ref[i].x) <= 4 + 1e-9);
    }
    assert_true(most > 0.5);
    assert_true(pts[0].x == 100 && pts[n - 1].x == 700);
}

/* The pill's text (helper/overlay_label.h): words as given, each non-ASCII character one
 * '?', malformed bytes and control characters too, a cut never halves a sequence. */
static void test_label_text_is_ascii_one_cell_per_character(void **state)
{
    (void)state;
    char buf[64];
    ad_overlay_label_text("  press   the\tbutton now ", 3, buf, sizeof(buf));
    assert_string_equal(buf, "press the button");
    ad_overlay_label_text("caf\xc3\xa9 \xe2\x98\x95 \xf0\x9f\x98\x80" "!", 6, buf, sizeof(buf));
    assert_string_equal(buf, "caf? ? ?!");
    /* A stray continuation byte, a truncated sequence, an invalid lead, a control. */
    ad_overlay_label_text("a\x80" "b \xe2\x98 c\xff" "d e\x01" "f", 6, buf, sizeof(buf));
    assert_string_equal(buf, "a?b ? c?d e?f");
    ad_overlay_label_text("\xe6\x97\xa5\xe6\x9c\xac", 6, buf, 3); /* cut: two cells */
    assert_string_equal(buf, "??");
    ad_overlay_label_text(NULL, 6, buf, sizeof(buf));
    assert_string_equal(buf, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_range_is_enforced),
        cmocka_unit_test(test_travel_and_dwell_budget),
        cmocka_unit_test(test_label_words_and_subcommand_flags),
        cmocka_unit_test(test_images_size_and_hotspot),
        cmocka_unit_test(test_style_defaults_match_the_table),
        cmocka_unit_test(test_path_is_deterministic_and_ends_on_the_target),
        cmocka_unit_test(test_bow_overshoot_and_tremor_bounds),
        cmocka_unit_test(test_label_text_is_ascii_one_cell_per_character),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
