/* overlay_style.c: the cursor overlay's style flags checked and turned into a style object
 * (overlay_style.h). */
#include "core/overlay_style.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *str_arg(const json_t *args, const char *key)
{
    return json_string_value(json_object_get(args, key));
}

static int bad(ad_error *err, const char *argument, const char *fmt, const char *value)
{
    ad_error_set(err, AD_INVALID_ARGS, fmt, value);
    ad_error_detail_text(err, "argument", argument);
    err->parse_error = true; /* a value outside what the flag takes, as the table's ranges */
    return -1;
}

/* A whole decimal number text into *ret; false for anything else (hex, "1e3", "nan"). */
static bool parse_number(const char *text, double *ret)
{
    if (!text || !*text || isspace((unsigned char)*text))
        return false;
    for (const char *p = text; *p; p++)
        if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-' && *p != '+')
            return false;
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || *end || !isfinite(v))
        return false;
    *ret = v;
    return true;
}

/* "A,B" of two whole numbers in [lo, hi]; false otherwise. */
static bool parse_pair(const char *text, long lo, long hi, long *a, long *b)
{
    if (!text)
        return false;
    char *end = NULL;
    if (!isdigit((unsigned char)text[0]))
        return false;
    errno = 0;
    long x = strtol(text, &end, 10);
    if (errno || *end != ',' || !isdigit((unsigned char)end[1]))
        return false;
    const char *second = end + 1;
    long y = strtol(second, &end, 10);
    if (errno || *end || x < lo || x > hi || y < lo || y > hi)
        return false;
    *a = x;
    *b = y;
    return true;
}

static bool is_hex_colour(const char *s)
{
    if (!s || s[0] != '#' || strlen(s) != 7)
        return false;
    for (int i = 1; i < 7; i++)
        if (!isxdigit((unsigned char)s[i]))
            return false;
    return true;
}

static int check_decimal(const json_t *args, const char *key, const char *flag, double lo,
                         double hi, ad_error *err)
{
    const char *text = str_arg(args, key);
    double v;
    if (!text)
        return 0;
    if (!parse_number(text, &v) || v < lo || v > hi) {
        char fmt[160];
        snprintf(fmt, sizeof(fmt), "--%s takes a number from %g to %g, not '%%s'", flag, lo,
                 hi);
        return bad(err, key, fmt, text);
    }
    return 0;
}

/* The width and height of the PNG at path from its IHDR, or -1 with the reason in err. */
static int png_size(const char *path, const char *key, long *w, long *h, ad_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return bad(err, key, "Cannot read the PNG file '%s'", path);
    }
    unsigned char head[24];
    ssize_t n = read(fd, head, sizeof(head));
    close(fd);
    if (st.st_size > AD_OVERLAY_IMAGE_MAX_BYTES)
        return bad(err, key, "'%s' is larger than 2 MiB", path);
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n != (ssize_t)sizeof(head) || memcmp(head, sig, 8) != 0 || memcmp(head + 12, "IHDR", 4))
        return bad(err, key, "'%s' is not a PNG image", path);
    *w = (long)head[16] << 24 | (long)head[17] << 16 | (long)head[18] << 8 | head[19];
    *h = (long)head[20] << 24 | (long)head[21] << 16 | (long)head[22] << 8 | head[23];
    if (*w < 1 || *h < 1 || *w > AD_OVERLAY_IMAGE_MAX_SIDE || *h > AD_OVERLAY_IMAGE_MAX_SIDE)
        return bad(err, key, "'%s' must be 1 to 1024 pixels per side", path);
    return 0;
}

static int check_image(const json_t *args, const char *image_key, const char *hotspot_key,
                       ad_error *err)
{
    const char *path = str_arg(args, image_key);
    const char *hotspot = str_arg(args, hotspot_key);
    long w = AD_OVERLAY_IMAGE_MAX_SIDE, h = AD_OVERLAY_IMAGE_MAX_SIDE, x, y;
    if (path && png_size(path, image_key, &w, &h, err) < 0)
        return -1;
    if (hotspot && (!parse_pair(hotspot, 0, AD_OVERLAY_IMAGE_MAX_SIDE - 1, &x, &y) || x >= w ||
                    y >= h))
        return bad(err, hotspot_key, "The hotspot must be X,Y inside the image, not '%s'",
                   hotspot);
    return 0;
}

static size_t count_words(const char *s)
{
    size_t n = 0;
    for (bool in = false; *s; s++) {
        bool space = isspace((unsigned char)*s);
        if (!space && !in)
            n++;
        in = !space;
    }
    return n;
}

int ad_overlay_args_check(const json_t *given, const json_t *args, ad_error *err)
{
    (void)given;
    static const char *const colours[] = {"accent", "fill", "rim"};
    for (size_t i = 0; i < 3; i++) {
        const char *c = str_arg(args, colours[i]);
        if (c && !is_hex_colour(c)) {
            char fmt[96];
            snprintf(fmt, sizeof(fmt), "--%s takes a #RRGGBB colour, not '%%s'", colours[i]);
            return bad(err, colours[i], fmt, c);
        }
    }
    if (check_decimal(args, "size", "size", 0.5, 4.0, err) < 0 ||
        check_decimal(args, "bow", "bow", 0, 3, err) < 0 ||
        check_decimal(args, "overshoot", "overshoot", 0, 0.15, err) < 0 ||
        check_decimal(args, "tremor", "tremor", 0, 4, err) < 0)
        return -1;
    const char *travel = str_arg(args, "travel_ms");
    long lo = 0, hi = 0;
    if (travel && (!parse_pair(travel, 0, AD_OVERLAY_MAX_WAIT_MS, &lo, &hi) || lo > hi))
        return bad(err, "travel_ms", "--travel-ms takes MIN,MAX in ms with MIN <= MAX <= 700, "
                                     "not '%s'", travel);
    json_int_t dwell = json_integer_value(json_object_get(args, "dwell_ms"));
    if (travel && hi + dwell > AD_OVERLAY_MAX_WAIT_MS) {
        char text[64];
        snprintf(text, sizeof(text), "%ld + %lld", hi, (long long)dwell);
        return bad(err, "dwell_ms", "Maximum travel plus dwell must not exceed 700 ms (%s)",
                   text);
    }
    const char *label = str_arg(args, "label");
    if (label && count_words(label) == 0)
        return bad(err, "label", "--label needs 1 to 12 words, not '%s'", label);
    if (label && count_words(label) > 12)
        return bad(err, "label", "--label is limited to 12 words: '%s'", label);
    return check_image(args, "image", "hotspot", err) < 0 ||
                   check_image(args, "pointer_image", "pointer_hotspot", err) < 0
               ? -1
               : 0;
}

static double number_or(const json_t *args, const char *key, const char *fallback)
{
    double v = 0;
    if (!parse_number(str_arg(args, key), &v))
        parse_number(fallback, &v);
    return v;
}

static json_t *upper(const char *colour)
{
    char buf[8] = {0};
    for (size_t i = 0; i < 7 && colour[i]; i++)
        buf[i] = (char)toupper((unsigned char)colour[i]);
    return json_string(buf);
}

static void set_pair(json_t *o, const char *key, const char *text, long lo, long hi)
{
    long a, b;
    if (parse_pair(text, lo, hi, &a, &b))
        json_object_set_new(o, key, json_pack("[I, I]", (json_int_t)a, (json_int_t)b));
}

json_t *ad_overlay_style_from_args(const json_t *args)
{
    const char *accent = str_arg(args, "accent");
    const char *rim = str_arg(args, "rim");
    const char *fill = str_arg(args, "fill");
    json_t *max_words = json_object_get(args, "max_words");
    json_t *dwell = json_object_get(args, "dwell_ms");
    json_t *s = json_object();
    if (!s)
        return NULL;
    json_object_set_new(s, "accent", upper(accent ? accent : AD_OVERLAY_ACCENT));
    if (fill)
        json_object_set_new(s, "fill", upper(fill));
    json_object_set_new(s, "rim", upper(rim ? rim : AD_OVERLAY_RIM));
    json_object_set_new(s, "size", json_real(number_or(args, "size", AD_OVERLAY_SIZE)));
    json_object_set_new(s, "ripple", json_boolean(!json_is_true(json_object_get(args,
                                                                                "no_ripple"))));
    json_object_set_new(s, "highlight",
                        json_boolean(!json_is_true(json_object_get(args, "no_highlight"))));
    if (str_arg(args, "label"))
        json_object_set_new(s, "label", json_string(str_arg(args, "label")));
    json_object_set_new(s, "max_words", json_integer(json_is_integer(max_words)
                                                         ? json_integer_value(max_words)
                                                         : atoi(AD_OVERLAY_MAX_WORDS)));
    const char *travel = str_arg(args, "travel_ms");
    set_pair(s, "travel_ms", travel ? travel : AD_OVERLAY_TRAVEL_MS, 0, AD_OVERLAY_MAX_WAIT_MS);
    json_object_set_new(s, "bow", json_real(number_or(args, "bow", AD_OVERLAY_BOW)));
    json_object_set_new(s, "overshoot",
                        json_real(number_or(args, "overshoot", AD_OVERLAY_OVERSHOOT)));
    json_object_set_new(s, "tremor", json_real(number_or(args, "tremor", AD_OVERLAY_TREMOR)));
    json_object_set_new(s, "dwell_ms", json_integer(json_is_integer(dwell)
                                                        ? json_integer_value(dwell)
                                                        : atoi(AD_OVERLAY_DWELL_MS)));
    json_t *seed = json_object_get(args, "motion_seed");
    if (json_is_integer(seed))
        json_object_set(s, "motion_seed", seed);
    static const char *const images[][2] = {{"image", "hotspot"},
                                            {"pointer_image", "pointer_hotspot"}};
    for (size_t i = 0; i < 2; i++) {
        const char *path = str_arg(args, images[i][0]);
        if (!path)
            continue;
        /* The helper reads the file later, from another directory: an absolute path. */
        char *abs = realpath(path, NULL);
        json_object_set_new(s, images[i][0], json_string(abs ? abs : path));
        free(abs);
        const char *hs = str_arg(args, images[i][1]);
        set_pair(s, images[i][1], hs ? hs : "0,0", 0, AD_OVERLAY_IMAGE_MAX_SIDE - 1);
    }
    return s;
}

json_t *ad_overlay_style_summary(const json_t *style)
{
    json_t *o = json_object();
    static const char *const keys[] = {"accent", "fill", "highlight", "rim", "ripple", "size"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        json_t *v = json_object_get(style, keys[i]);
        if (v)
            json_object_set(o, keys[i], v);
    }
    return o;
}
