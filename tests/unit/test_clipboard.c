/* test_clipboard.c: the clipboard's formats (core/clip_formats.h) and clipboard-get, -set and
 * -clear through ad_dispatch and the fake adapter's clipboard. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/clip_formats.h"
#include "fake_adapter.h"
#include "test_util.h"

/* A 3x2 PNG's first 33 bytes (signature + IHDR) and a little more: enough for the header. */
static const unsigned char png_3x2[] = {
    0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
    0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0, 0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0,
    'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};

static void test_file_url_encoding(void **state)
{
    (void)state;
    char *u = ad_file_url_from_path("/tmp/a b/ü%#?.txt");
    assert_string_equal(u, "file:///tmp/a%20b/%C3%BC%25%23%3F.txt");
    free(u);
    assert_null(ad_file_url_from_path("relative/path"));
}

static void test_uri_list_parse(void **state)
{
    (void)state;
    const char text[] = "# a comment\r\nfile:///a\r\n\r\nfile:///b\nfile:///c";
    char **urls = NULL;
    long n = ad_uri_list_parse(text, sizeof(text) - 1, 16, &urls);
    assert_int_equal(n, 3);
    assert_string_equal(urls[0], "file:///a");
    assert_string_equal(urls[1], "file:///b");
    assert_string_equal(urls[2], "file:///c");
    ad_string_list_free(urls, (size_t)n);
    assert_int_equal(ad_uri_list_parse(text, sizeof(text) - 1, 1, &urls), 1); /* bounded */
    ad_string_list_free(urls, 1);
}

static void test_file_list_parse_by_type(void **state)
{
    (void)state;
    const char gnome[] = "copy\nfile:///a\nfile:///b";
    char **urls = NULL;
    long n = ad_file_list_parse("x-special/gnome-copied-files", gnome, sizeof(gnome) - 1, 16,
                                &urls);
    assert_int_equal(n, 2); /* the "copy" line is not a URL */
    assert_string_equal(urls[0], "file:///a");
    ad_string_list_free(urls, (size_t)n);
    const char plain[] = "file:///x\r\n";
    assert_int_equal(ad_file_list_parse("text/uri-list", plain, sizeof(plain) - 1, 16, &urls), 1);
    assert_string_equal(urls[0], "file:///x");
    ad_string_list_free(urls, 1);
    assert_int_equal(ad_file_list_parse("x-special/gnome-copied-files", "cut", 3, 16, &urls), 0);
}

static void test_png_size(void **state)
{
    (void)state;
    uint32_t w = 0, h = 0;
    assert_int_equal(ad_png_size(png_3x2, sizeof(png_3x2), &w, &h), 0);
    assert_int_equal(w, 3);
    assert_int_equal(h, 2);
    assert_int_equal(ad_png_size(png_3x2, 20, &w, &h), -1); /* cut before IHDR ends */
    unsigned char gif[sizeof(png_3x2)];
    memcpy(gif, png_3x2, sizeof(gif));
    gif[1] = 'G';
    assert_int_equal(ad_png_size(gif, sizeof(gif), &w, &h), -1);
}

typedef struct {
    tu_home home;
    fake_adapter *fake;
    char *dir;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_fake_begin(&f->home, &f->fake);
    f->dir = tu_tmpdir();
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    tu_rmrf(f->dir);
    free(f->dir);
    tu_fake_end(&f->home, f->fake);
    free(f);
    return 0;
}

static json_t *run(fx *f, const char *cmd, json_t *args, int want_exit)
{
    return tu_run_exit(fake_base(f->fake), cmd, args, NULL, want_exit);
}

static char *path_in(fx *f, const char *name)
{
    char *p = NULL;
    assert_true(asprintf(&p, "%s/%s", f->dir, name) > 0);
    return p;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, len, fp), len);
    fclose(fp);
}

static void test_set_text_keeps_every_byte(void **state)
{
    fx *f = *state;
    json_t *env = run(f, "clipboard-set", tu_args("clipboard-set", "{s:s}", "text",
                                                  "two\nlines\n"), 0);
    assert_string_equal(tu_str(env, "data.type"), "text");
    assert_string_equal(tu_str(env, "data.action"), "clipboard-set");
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_unverified");
    assert_string_equal(tu_str(env, "data.steps.0.label"), "clipboard_write");
    assert_string_equal(tu_str(env, "data.target.kind"), "clipboard");
    json_decref(env);
    assert_int_equal(f->fake->clip.kind, AD_CLIP_TEXT);
    assert_int_equal(f->fake->clip.len, 10);
    assert_memory_equal(f->fake->clip.data, "two\nlines\n", 10);
    /* No text at all is the empty text (the table's default). */
    json_decref(run(f, "clipboard-set", tu_args("clipboard-set", "{}"), 0));
    assert_int_equal(f->fake->clip.len, 0);
}

static void test_set_text_with_nul_is_refused(void **state)
{
    fx *f = *state;
    json_t *args = json_object();
    json_object_set_new(args, "text", json_stringn("a\0b", 3));
    json_t *env = run(f, "clipboard-set", args, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    assert_int_equal(f->fake->n_clip_writes, 0);
}

static void test_set_precedence_file_url_then_image_then_text(void **state)
{
    fx *f = *state;
    char *png = path_in(f, "a.png"), *txt = path_in(f, "a b.txt");
    write_bytes(png, png_3x2, sizeof(png_3x2));
    write_bytes(txt, "x", 1);
    json_t *env = run(f, "clipboard-set", tu_args("clipboard-set", "{s:s, s:s, s:[s]}", "text",
                                                  "t", "image", png, "file_url", txt), 0);
    assert_string_equal(tu_str(env, "data.type"), "file_urls");
    json_decref(env);
    assert_int_equal(f->fake->clip.n_file_urls, 1);
    char *want = NULL;
    assert_true(asprintf(&want, "file://%s/a%%20b.txt", f->dir) > 0);
    assert_string_equal(f->fake->clip.file_urls[0], want);
    free(want);

    env = run(f, "clipboard-set", tu_args("clipboard-set", "{s:s, s:s}", "text", "t", "image",
                                          png), 0);
    assert_string_equal(tu_str(env, "data.type"), "image");
    json_decref(env);
    assert_int_equal(f->fake->clip.len, sizeof(png_3x2));
    assert_memory_equal(f->fake->clip.data, png_3x2, sizeof(png_3x2));
    free(png);
    free(txt);
}

static void test_set_refuses_bad_files_before_writing(void **state)
{
    fx *f = *state;
    char *missing = path_in(f, "missing"), *gif = path_in(f, "x.gif");
    write_bytes(gif, "GIF89a..............................", 36);
    const char *bad[][2] = {{"file_url", missing}, {"image", missing}, {"image", gif},
                            {"image", f->dir}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        json_t *args = strcmp(bad[i][0], "file_url") == 0
                           ? tu_args("clipboard-set", "{s:[s]}", bad[i][0], bad[i][1])
                           : tu_args("clipboard-set", "{s:s}", bad[i][0], bad[i][1]);
        json_t *env = run(f, "clipboard-set", args, 1);
        assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
        assert_string_equal(tu_str(env, "error.details.argument"), bad[i][0]);
        json_decref(env);
    }
    assert_int_equal(f->fake->n_clip_writes, 0);
    free(missing);
    free(gif);
}

static void test_stdin_flag_excludes_image(void **state)
{
    fx *f = *state;
    json_t *env = run(f, "clipboard-set", tu_args("clipboard-set", "{s:s, s:b, s:s}", "text",
                                                  "piped", "stdin", 1, "image", "/x.png"), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    assert_int_equal(f->fake->n_clip_writes, 0);
}

static void test_get_found_false_and_text(void **state)
{
    fx *f = *state;
    json_t *env = run(f, "clipboard-get", tu_args("clipboard-get", "{}"), 0);
    assert_false(json_is_true(tu_at(env, "data.found")));
    assert_non_null(tu_at(env, "data.found"));
    assert_string_equal(tu_str(env, "data.type"), "text");
    json_decref(env);
    json_decref(run(f, "clipboard-set", tu_args("clipboard-set", "{s:s}", "text", "hi"), 0));
    env = run(f, "clipboard-get", tu_args("clipboard-get", "{s:s}", "format", "auto"), 0);
    assert_string_equal(tu_str(env, "data.text"), "hi");
    assert_null(tu_at(env, "data.found"));
    json_decref(env);
    env = run(f, "clipboard-get", tu_args("clipboard-get", "{s:s}", "format", "image"), 0);
    assert_false(json_is_true(tu_at(env, "data.found")));
    assert_string_equal(tu_str(env, "data.type"), "image");
    json_decref(env);
    json_decref(run(f, "clipboard-clear", tu_args("clipboard-clear", "{}"), 0));
    assert_false(f->fake->clip_held);
}

static void test_get_image_goes_to_a_private_file(void **state)
{
    fx *f = *state;
    char *png = path_in(f, "a.png");
    write_bytes(png, png_3x2, sizeof(png_3x2));
    json_decref(run(f, "clipboard-set", tu_args("clipboard-set", "{s:s}", "image", png), 0));
    json_t *env = run(f, "clipboard-get", tu_args("clipboard-get", "{s:s}", "format", "image"),
                      0);
    assert_string_equal(tu_str(env, "data.type"), "image");
    assert_int_equal(tu_int(env, "data.width"), 3);
    assert_int_equal(tu_int(env, "data.height"), 2);
    const char *path = tu_str(env, "data.path");
    char *tmp = NULL;
    assert_true(asprintf(&tmp, "%s/tmp/", f->home.state) > 0);
    assert_true(strncmp(path, tmp, strlen(tmp)) == 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    size_t len = 0;
    char *got = tu_read_file(path, &len);
    assert_int_equal(len, sizeof(png_3x2));
    assert_memory_equal(got, png_3x2, len);
    free(got);
    free(tmp);
    json_decref(env);

    /* With a session, the session's clipboard/ directory. */
    env = tu_run_exit(fake_base(f->fake), "clipboard-get",
                      tu_args("clipboard-get", "{s:s}", "format", "image"),
                      json_pack("{s:s}", "session", "clipsess"), 0);
    assert_non_null(strstr(tu_str(env, "data.path"), "/sessions/clipsess/clipboard/"));
    json_decref(env);

    char *bad_out = path_in(f, "no/such/dir.png");
    env = run(f, "clipboard-get", tu_args("clipboard-get", "{s:s, s:s}", "format", "image",
                                          "out", bad_out), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    free(bad_out);
    free(png);
}

static void test_missing_helper_is_platform_not_supported(void **state)
{
    fx *f = *state;
    f->fake->clip_missing = true;
    const char *cmds[] = {"clipboard-get", "clipboard-set", "clipboard-clear"};
    for (size_t i = 0; i < 3; i++) {
        json_t *env = run(f, cmds[i], tu_args(cmds[i], "{}"), 1);
        assert_string_equal(tu_str(env, "error.code"), "PLATFORM_NOT_SUPPORTED");
        json_decref(env);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_url_encoding),
        cmocka_unit_test(test_uri_list_parse),
        cmocka_unit_test(test_file_list_parse_by_type),
        cmocka_unit_test(test_png_size),
        cmocka_unit_test_setup_teardown(test_set_text_keeps_every_byte, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_text_with_nul_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_precedence_file_url_then_image_then_text,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_refuses_bad_files_before_writing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_stdin_flag_excludes_image, setup, teardown),
        cmocka_unit_test_setup_teardown(test_get_found_false_and_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_get_image_goes_to_a_private_file, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_missing_helper_is_platform_not_supported, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
