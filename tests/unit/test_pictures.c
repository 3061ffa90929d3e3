/* test_pictures.c: screenshot, list-displays, visual debug and session screenshots through
 * ad_dispatch and the fake adapter, whose capture paints each pixel with its own screen
 * coordinates (fake_adapter.h), so a test can tell which rectangle a picture came from. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base64.h"
#include "dispatch/command_table.h"
#include "fake_adapter.h"
#include "test_util.h"

static int setup(void **state)
{
    tu_bed *b = tu_bed_new(fk("window|n=Form", fk("button|n=Save <&>|a=Click|b=120,80,60,20",
                                                  NULL), NULL));
    fake_window *w = fake_window_get(b->fake, "w-fake-1");
    w->w.bounds = (ad_rect){100, 50, 400, 300};
    *state = b;
    return 0;
}

static int teardown(void **state)
{
    tu_bed_free(*state);
    return 0;
}

static json_t *run(tu_bed *b, const char *cmd, json_t *args, json_t *globals, int want_exit)
{
    return tu_run_exit(fake_base(b->fake), cmd, args, globals ? globals : json_object(),
                       want_exit);
}

/* Decodes PNG bytes; *ret_rgb (malloc'd) holds width*height*3 bytes. */
static void png_decode(const unsigned char *data, size_t len, int *w, int *h,
                       unsigned char **ret_rgb)
{
    png_image img;
    memset(&img, 0, sizeof(img));
    img.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_memory(&img, data, len));
    img.format = PNG_FORMAT_RGB;
    *ret_rgb = malloc(PNG_IMAGE_SIZE(img));
    assert_true(png_image_finish_read(&img, NULL, *ret_rgb, 0, NULL));
    *w = (int)img.width;
    *h = (int)img.height;
}

/* The core decoder, checked against its encoder on every length modulo 3 and on malformed
 * text. */
static void test_base64_round_trip(void **state)
{
    (void)state;
    const unsigned char in[] = {0x00, 0xff, 0x10, 0x80, 0x7f};
    for (size_t n = 0; n <= sizeof(in); n++) {
        char *text = ad_base64_encode(in, n, NULL);
        size_t len = 99;
        unsigned char *out = ad_base64_decode(text, strlen(text), &len);
        assert_non_null(out);
        assert_int_equal(len, n);
        assert_memory_equal(out, in, n);
        free(out);
        free(text);
    }
    size_t len = 99;
    assert_null(ad_base64_decode("abc", 3, &len));  /* not a multiple of 4 */
    assert_null(ad_base64_decode("ab!d", 4, &len)); /* not an alphabet character */
    assert_int_equal(len, 0);
}

static void test_list_displays(void **state)
{
    tu_bed *b = *state;
    b->fake->displays[1] = (ad_display){.id = "HDMI-1", .bounds = {1280, 0, 800, 600},
                                        .scale = 1.0};
    b->fake->n_displays = 2;
    json_t *env = run(b, "list-displays", tu_args("list-displays", "{}"), NULL, 0);
    assert_string_equal(tu_str(env, "data.0.id"), "screen");
    assert_true(json_is_true(tu_at(env, "data.0.is_primary")));
    assert_true(json_real_value(tu_at(env, "data.0.bounds.width")) == 1280.0);
    assert_true(json_real_value(tu_at(env, "data.0.scale")) == 1.0);
    assert_string_equal(tu_str(env, "data.1.id"), "HDMI-1");
    assert_true(json_is_false(tu_at(env, "data.1.is_primary")));
    assert_true(json_real_value(tu_at(env, "data.1.bounds.x")) == 1280.0);
    json_decref(env);
}

static void test_screenshot_base64_is_the_window(void **state)
{
    tu_bed *b = *state;
    json_t *env = run(b, "screenshot", tu_args("screenshot", "{}"), NULL, 0);
    assert_string_equal(tu_str(env, "data.format"), "png");
    assert_int_equal(tu_int(env, "data.width"), 400);
    assert_int_equal(tu_int(env, "data.height"), 300);
    assert_true(json_real_value(tu_at(env, "data.scale_factor")) == 1.0);
    assert_null(tu_at(env, "data.path"));
    size_t len;
    const char *b64 = tu_str(env, "data.data");
    unsigned char *png = ad_base64_decode(b64, strlen(b64), &len);
    int w, h;
    unsigned char *rgb;
    png_decode(png, len, &w, &h, &rgb);
    assert_int_equal(w, 400);
    assert_int_equal(h, 300);
    /* pixel (0,0) is the window's screen origin (100,50); (10,20) is (110,70) */
    assert_int_equal(rgb[0], 100);
    assert_int_equal(rgb[1], 50);
    assert_int_equal(rgb[(20 * 400 + 10) * 3], 110);
    assert_int_equal(rgb[(20 * 400 + 10) * 3 + 1], 70);
    free(rgb);
    free(png);
    json_decref(env);
}

static void test_screenshot_file_is_private_and_atomic(void **state)
{
    tu_bed *b = *state;
    char *dir = tu_tmpdir();
    char path[512], sub[512], missing[512];
    snprintf(path, sizeof(path), "%s/shot.png", dir);
    tu_write_file(path, "old"); /* a file there is replaced whole */
    chmod(path, 0644);
    json_t *env = run(b, "screenshot", tu_args("screenshot", "{s:s}", "path", path), NULL, 0);
    assert_string_equal(tu_str(env, "data.path"), path);
    assert_null(tu_at(env, "data.data"));
    json_decref(env);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    size_t len;
    char *bytes = tu_read_file(path, &len);
    assert_memory_equal(bytes, "\x89PNG", 4);
    free(bytes);
    assert_false(tu_has_dotfile(dir)); /* no temp file left */
    assert_int_equal(tu_count_entries(dir), 1);
    /* a directory, or a directory that does not exist: INVALID_ARGS */
    snprintf(sub, sizeof(sub), "%s/sub", dir);
    mkdir(sub, 0700);
    snprintf(missing, sizeof(missing), "%s/nowhere/shot.png", dir);
    env = run(b, "screenshot", tu_args("screenshot", "{s:s}", "path", sub), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = run(b, "screenshot", tu_args("screenshot", "{s:s}", "path", missing), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    tu_rmrf(dir);
    free(dir);
}

static void test_screen_rules_and_range(void **state)
{
    tu_bed *b = *state;
    json_t *env = run(b, "screenshot", tu_args("screenshot", "{s:i, s:s}", "screen", 0, "app",
                                               "form"), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = run(b, "screenshot", tu_args("screenshot", "{s:i, s:s}", "screen", 0, "window_id",
                                       "w-fake-1"), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = run(b, "screenshot", tu_args("screenshot", "{s:i}", "screen", 1), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    assert_int_equal(b->fake->n_capture, 0); /* refused before any capture */
    env = run(b, "screenshot", tu_args("screenshot", "{s:i}", "screen", 0), NULL, 0);
    assert_int_equal(tu_int(env, "data.width"), 1280);
    assert_int_equal(tu_int(env, "data.height"), 1024);
    json_decref(env);
}

static void test_covered_fails_closed(void **state)
{
    tu_bed *b = *state;
    b->fake->capture_fails = "covered";
    json_t *env = run(b, "screenshot", tu_args("screenshot", "{s:s}", "app", "form"), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "ACTION_FAILED");
    assert_string_equal(tu_str(env, "error.details.reason"), "covered");
    assert_null(tu_at(env, "data"));
    json_decref(env);
}

static json_t *debug_globals(const char *path)
{
    return json_pack("{s:b, s:s}", "debug", 1, "screenshot", path);
}

static void test_debug_flag_rules(void **state)
{
    tu_bed *b = *state;
    char *dir = tu_tmpdir();
    char path[512], exists[512];
    snprintf(path, sizeof(path), "%s/d.html", dir);
    snprintf(exists, sizeof(exists), "%s/old.html", dir);
    tu_write_file(exists, "keep");
    json_t *cases[] = {
        json_pack("{s:b}", "debug", 1),
        json_pack("{s:s}", "screenshot", path),
        json_pack("{s:b, s:s}", "debug", 1, "screenshot", exists),
        json_pack("{s:b, s:s}", "debug", 1, "screenshot", "/tmp/x.htm"),
    };
    for (size_t i = 0; i < 4; i++) {
        json_t *env = run(b, "snapshot", tu_args("snapshot", "{}"), cases[i], 1);
        assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
        json_decref(env);
    }
    json_t *env = run(b, "find", tu_args("find", "{s:s}", "role", "button"),
                      debug_globals(path), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = run(b, "snapshot", tu_args("snapshot", "{s:s}", "surface", "menu"),
              debug_globals(path), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    size_t len;
    char *kept = tu_read_file(exists, &len);
    assert_string_equal(kept, "keep");
    free(kept);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(b->fake->n_capture, 0);
    tu_rmrf(dir);
    free(dir);
}

static void test_debug_snapshot_page(void **state)
{
    tu_bed *b = *state;
    char *dir = tu_tmpdir();
    char path[512];
    snprintf(path, sizeof(path), "%s/d.html", dir);
    json_t *env = run(b, "snapshot", tu_args("snapshot", "{s:b}", "interactive_only", 1),
                      debug_globals(path), 0);
    assert_string_equal(tu_str(env, "data.debug.path"), path);
    assert_string_equal(tu_str(env, "data.debug.format"), "html");
    assert_null(tu_at(env, "data.debug.warning"));
    char ref[96];
    snprintf(ref, sizeof(ref), "data-ref=\"@%s:e1\"", tu_str(env, "data.snapshot_id"));
    json_decref(env);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    size_t len;
    char *html = tu_read_file(path, &len);
    /* the button at 120,80 in a window picture whose origin is 100,50: box at 20,30 */
    assert_non_null(strstr(html, ref));
    assert_non_null(strstr(html, "left:20px;top:30px;width:60px;height:20px"));
    assert_non_null(strstr(html, "e1 button \"Save &lt;&amp;&gt;\""));
    assert_non_null(strstr(html, "<figure id=\"window\" style=\"width:400px;height:300px\">"));
    assert_null(strstr(html, "http"));
    free(html);
    tu_rmrf(dir);
    free(dir);
}

static void test_debug_click_pair_and_warning(void **state)
{
    tu_bed *b = *state;
    char *dir = tu_tmpdir();
    char path[512], path2[512];
    snprintf(path, sizeof(path), "%s/c.html", dir);
    snprintf(path2, sizeof(path2), "%s/w.html", dir);
    json_t *env = run(b, "snapshot", tu_args("snapshot", "{s:b}", "interactive_only", 1), NULL, 0);
    char ref[96];
    snprintf(ref, sizeof(ref), "@%s:e1", tu_str(env, "data.snapshot_id"));
    json_decref(env);
    env = run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), debug_globals(path), 0);
    assert_string_equal(tu_str(env, "data.debug.format"), "html");
    json_decref(env);
    assert_int_equal(b->fake->n_capture, 2);
    assert_int_equal(b->fake->n_act, 1);
    size_t len;
    char *html = tu_read_file(path, &len);
    assert_non_null(strstr(html, "<figure id=\"before\""));
    assert_non_null(strstr(html, "<figure id=\"after\""));
    assert_non_null(strstr(html, "class=\"box target\""));
    free(html);
    /* a window that cannot be captured: the command succeeds and says why */
    b->fake->capture_fails = "covered";
    env = run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), debug_globals(path2), 0);
    assert_string_equal(tu_str(env, "data.debug.warning"), "fake capture refused");
    assert_int_equal(b->fake->n_act, 2);
    json_decref(env);
    tu_rmrf(dir);
    free(dir);
}

/* Starts a session (with --screenshots or not) and takes a snapshot in it: the session id in
 * sid, the snapshot id in snap and the Save button's ref in ref. Returns the globals
 * {"session": sid} (new reference). */
static json_t *session_with_snapshot(tu_bed *b, bool screenshots, char *sid, char *snap,
                                     char *ref)
{
    json_t *env = run(b, "session", tu_args("session", "{s:s, s:b}", "action", "start",
                                            "screenshots", screenshots), NULL, 0);
    snprintf(sid, 96, "%s", tu_str(env, "data.session_id"));
    json_decref(env);
    json_t *g = json_pack("{s:s}", "session", sid);
    env = run(b, "snapshot", tu_args("snapshot", "{s:b}", "interactive_only", 1),
              json_incref(g), 0);
    snprintf(snap, 64, "%s", tu_str(env, "data.snapshot_id"));
    snprintf(ref, 96, "@%s:e1", snap);
    json_decref(env);
    return g;
}

static void test_session_screenshots(void **state)
{
    tu_bed *b = *state;
    char sid[96], snap[64], ref[96];
    json_t *g = session_with_snapshot(b, true, sid, snap, ref);
    json_t *env = run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), json_incref(g), 0);
    json_decref(env);
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/sessions/%s/trace/screens", b->home.state, sid);
    assert_int_equal(tu_count_entries(dir), 2);
    snprintf(dir, sizeof(dir), "%s/sessions/%s/trace/refmaps/%s.json", b->home.state, sid,
             snap);
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    /* the event names both pictures relative to trace/ */
    env = run(b, "trace", tu_args("trace", "{s:s, s:s}", "action", "show", "event",
                                  "action.artifacts"), json_incref(g), 0);
    const char *before = tu_str(env, "data.events.0.before");
    assert_non_null(before);
    assert_int_equal(strncmp(before, "screens/", 8), 0);
    assert_non_null(tu_str(env, "data.events.0.after"));
    assert_string_equal(tu_str(env, "data.events.0.command"), "click");
    json_decref(env);
    /* a session without --screenshots captures nothing */
    int before_n = b->fake->n_capture;
    char sid2[96];
    json_t *g2 = session_with_snapshot(b, false, sid2, snap, ref);
    json_decref(run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), g2, 0));
    assert_int_equal(b->fake->n_capture, before_n);
    json_decref(g);
}

static void test_session_screenshots_keep_the_entry_budget(void **state)
{
    tu_bed *b = *state;
    char sid[96], snap[64], ref[96];
    json_t *g = session_with_snapshot(b, true, sid, snap, ref);
    json_t *env;
    /* trace/ holds this process's segment and screens/; fill screens/ up to the budget */
    char dir[1024], file[1100];
    snprintf(dir, sizeof(dir), "%s/sessions/%s/trace/screens", b->home.state, sid);
    mkdir(dir, 0700);
    for (int i = 0; i < 4094; i++) {
        snprintf(file, sizeof(file), "%s/f%d.png", dir, i);
        tu_write_file(file, "");
    }
    json_decref(run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), json_incref(g), 0));
    assert_int_equal(b->fake->n_act, 1); /* the action itself never waits on its pictures */
    assert_int_equal(tu_count_entries(dir), 4094);
    env = run(b, "trace", tu_args("trace", "{s:s, s:s}", "action", "show", "event",
                                  "action.artifacts"), json_incref(g), 0);
    assert_string_equal(tu_str(env, "data.events.0.before_skipped.reason"), "budget");
    assert_string_equal(tu_str(env, "data.events.0.after_skipped.reason"), "budget");
    assert_null(tu_at(env, "data.events.0.before"));
    json_decref(env);
    json_decref(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base64_round_trip),
        cmocka_unit_test_setup_teardown(test_list_displays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_screenshot_base64_is_the_window, setup, teardown),
        cmocka_unit_test_setup_teardown(test_screenshot_file_is_private_and_atomic, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_screen_rules_and_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_covered_fails_closed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debug_flag_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debug_snapshot_page, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debug_click_pair_and_warning, setup, teardown),
        cmocka_unit_test_setup_teardown(test_session_screenshots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_session_screenshots_keep_the_entry_budget, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
