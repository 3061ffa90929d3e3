/* test_ffi_windows.c: the argument contract of the library's apps, windows, surfaces,
 * displays, screenshots, clipboard, mouse and notification calls, through the shared library
 * and without a desktop: every out-parameter is zeroed before anything is checked, NULLs,
 * enums, versions and sizes are refused with INVALID_ARGS before anything is sent, getters of
 * a NULL list answer 0 / NULL, and every free accepts NULL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agent_desktop.h"

/* A pointer value no call may leave behind. */
#define GARBAGE ((void *)(uintptr_t)0x5a5a5a5a)

static int setup(void **state)
{
    /* No bus: a call that got past its argument checks would fail otherwise, not hang. */
    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/ad-test-bus", 1);
    setenv("DISPLAY", ":999", 1);
    *state = ad_adapter_create();
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    ad_adapter_destroy(*state);
    return 0;
}

/* The last failure was INVALID_ARGS and its message names `word`. */
static void assert_invalid(AdResult rc, const char *word)
{
    assert_int_equal(rc, AD_RESULT_ERR_INVALID_ARGS);
    assert_int_equal(ad_last_error_code(), AD_RESULT_ERR_INVALID_ARGS);
    const char *msg = ad_last_error_message();
    assert_non_null(msg);
    if (!strstr(msg, word))
        fail_msg("'%s' does not name '%s'", msg, word);
}

/* A window that passes the exact checks (its id is not on any desktop). */
static AdExactWindowInfo good_window(void)
{
    AdExactWindowInfo w = {.version = AD_EXACT_WINDOW_INFO_VERSION,
                           .size = (uint32_t)AD_EXACT_WINDOW_INFO_SIZE};
    w.window.id = "w-1.999-none";
    return w;
}

static void test_lists_zero_out_and_refuse_null(void **state)
{
    (void)state;
    struct AdAppList *apps = GARBAGE;
    assert_invalid(ad_list_apps(NULL, &apps), "adapter");
    assert_null(apps);
    assert_invalid(ad_list_apps(*state, NULL), "out");

    struct AdExactWindowList *wins = GARBAGE;
    assert_invalid(ad_list_windows_exact(NULL, NULL, false, &wins), "adapter");
    assert_null(wins);
    wins = GARBAGE;
    assert_invalid(ad_list_windows_exact(*state, "\xff\xfe", false, &wins), "UTF-8");
    assert_null(wins);

    struct AdDisplayList *displays = GARBAGE;
    assert_invalid(ad_list_displays(NULL, &displays), "adapter");
    assert_null(displays);

    struct AdExactSurfaceList *surfaces = GARBAGE;
    assert_invalid(ad_list_surfaces_exact(NULL, 1, &surfaces), "adapter");
    assert_null(surfaces);

    struct AdNotificationList *notes = GARBAGE, *dismissed = GARBAGE, *failed = GARBAGE;
    assert_invalid(ad_list_notifications(NULL, NULL, &notes), "adapter");
    assert_null(notes);
    assert_invalid(ad_dismiss_all_notifications(*state, NULL, &dismissed, NULL), "failed_out");
    assert_null(dismissed);
    assert_invalid(ad_dismiss_all_notifications(*state, NULL, NULL, &failed), "dismissed_out");
    assert_null(failed);
}

static void test_getters_and_frees_accept_null(void **state)
{
    (void)state;
    assert_int_equal(ad_app_list_count(NULL), 0);
    assert_null(ad_app_list_get(NULL, 0));
    assert_int_equal(ad_exact_window_list_count(NULL), 0);
    assert_null(ad_exact_window_list_get(NULL, 0));
    assert_int_equal(ad_exact_surface_list_count(NULL), 0);
    assert_null(ad_exact_surface_list_get(NULL, 0));
    assert_int_equal(ad_display_list_count(NULL), 0);
    assert_null(ad_display_list_get(NULL, 0));
    assert_int_equal(ad_notification_list_count(NULL), 0);
    assert_null(ad_notification_list_get(NULL, 0));
    assert_null(ad_image_buffer_data(NULL));
    assert_int_equal(ad_image_buffer_size(NULL), 0);
    assert_int_equal(ad_image_buffer_width(NULL), 0);
    assert_int_equal(ad_image_buffer_height(NULL), 0);
    assert_true(ad_image_buffer_scale_factor(NULL) == 0.0);
    ad_app_list_free(NULL);
    ad_exact_window_list_free(NULL);
    ad_exact_surface_list_free(NULL);
    ad_display_list_free(NULL);
    ad_notification_list_free(NULL);
    ad_dismiss_all_notifications_free(NULL, NULL);
    ad_image_buffer_free(NULL);
    ad_release_exact_window_fields(NULL);
}

static void test_launch_zeroes_its_window(void **state)
{
    AdExactWindowInfo out;
    memset(&out, 0x5a, sizeof(out));
    assert_invalid(ad_launch_app_exact(*state, NULL, 1000, &out), "id");
    AdExactWindowInfo zero = {0};
    assert_memory_equal(&out, &zero, sizeof(out));
    ad_release_exact_window_fields(&out); /* safe after a failure */
    assert_invalid(ad_launch_app_exact(*state, "x", 1000, NULL), "out");
}

static void test_exact_window_version_and_size(void **state)
{
    AdExactWindowInfo w = good_window();
    w.version = 2;
    assert_invalid(ad_focus_window_exact(*state, &w), "version");
    w = good_window();
    w.size = 95;
    assert_invalid(ad_focus_window_exact(*state, &w), "size");
    w = good_window();
    w.window.id = NULL;
    assert_invalid(ad_focus_window_exact(*state, &w), "window.id");
    assert_invalid(ad_focus_window_exact(*state, NULL), "win");
    w = good_window();
    w.size = 0;
    struct AdImageBuffer *img = GARBAGE;
    assert_invalid(ad_screenshot_window_exact(*state, &w, &img), "size");
    assert_null(img);
    AdWindowOp op = {.kind = AD_WINDOW_OP_KIND_MINIMIZE};
    assert_invalid(ad_window_op_exact(*state, &w, op), "size");
}

static void test_window_op_values(void **state)
{
    AdExactWindowInfo w = good_window();
    AdWindowOp op = {.kind = AD_WINDOW_OP_KIND_RESTORE + 1};
    assert_invalid(ad_window_op_exact(*state, &w, op), "op.kind");
    op.kind = -1;
    assert_invalid(ad_window_op_exact(*state, &w, op), "op.kind");
    op = (AdWindowOp){.kind = AD_WINDOW_OP_KIND_RESIZE, .width = 1.0 / 0.0, .height = 10};
    assert_invalid(ad_window_op_exact(*state, &w, op), "op.width");
    op = (AdWindowOp){.kind = AD_WINDOW_OP_KIND_MOVE, .x = 0, .y = 1e12};
    assert_invalid(ad_window_op_exact(*state, &w, op), "op.y");
}

static void test_screenshot_target(void **state)
{
    struct AdImageBuffer *img = GARBAGE;
    AdScreenshotTarget t = {.kind = 1}; /* AdScreenshotKind has no 1 */
    assert_invalid(ad_screenshot(*state, &t, &img), "target.kind");
    assert_null(img);
    t.kind = 3;
    assert_invalid(ad_screenshot(*state, &t, &img), "target.kind");
    assert_invalid(ad_screenshot(*state, NULL, &img), "target");
    assert_invalid(ad_screenshot(*state, &t, NULL), "out");
}

static void test_clipboard_arguments(void **state)
{
    char *text = GARBAGE;
    assert_invalid(ad_get_clipboard(NULL, &text), "adapter");
    assert_null(text);
    assert_invalid(ad_get_clipboard(*state, NULL), "out");
    assert_invalid(ad_set_clipboard(*state, NULL), "text");
    assert_invalid(ad_set_clipboard(*state, "\xc3"), "UTF-8");
    assert_invalid(ad_clear_clipboard(NULL), "adapter");
}

static void test_mouse_values(void **state)
{
    AdMouseEvent ev = {.kind = AD_MOUSE_EVENT_KIND_CLICK + 1, .click_count = 1};
    assert_invalid(ad_mouse_event(*state, &ev), "event.kind");
    ev = (AdMouseEvent){.kind = AD_MOUSE_EVENT_KIND_CLICK, .button = 3, .click_count = 1};
    assert_invalid(ad_mouse_event(*state, &ev), "event.button");
    ev = (AdMouseEvent){.kind = AD_MOUSE_EVENT_KIND_MOVE, .point = {0.0 / 0.0, 1}};
    assert_invalid(ad_mouse_event(*state, &ev), "event.point");
    assert_invalid(ad_mouse_event(*state, NULL), "event");
    ev = (AdMouseEvent){.kind = AD_MOUSE_EVENT_KIND_CLICK, .click_count = 1};
    const int32_t bad[] = {AD_MODIFIER_CTRL, AD_MODIFIER_SHIFT + 1};
    assert_invalid(ad_mouse_event_with_modifiers(*state, &ev, bad, 2), "modifier");
    assert_invalid(ad_mouse_event_with_modifiers(*state, &ev, NULL, 1), "modifiers");
    AdPoint p = {10, 10};
    assert_invalid(ad_mouse_wheel(*state, p, 0, -3, 1u << 4), "modifier_mask");
    assert_invalid(ad_mouse_wheel(*state, p, 0, 1.0 / 0.0, 0), "delta_y");
    assert_invalid(ad_drag(*state, NULL), "params");
    AdDragParams d = {.from = {1, 1}, .to = {0.0 / 0.0, 2}};
    assert_invalid(ad_drag(*state, &d), "params.to");
}

static void test_notification_arguments(void **state)
{
    AdActionResult out;
    memset(&out, 0x5a, sizeof(out));
    AdNotificationActionRequest req = {.index = 1, .policy = AD_POLICY_KIND_HEADED + 1,
                                       .action_name = "Open"};
    assert_invalid(ad_notification_action(*state, &req, &out), "request.policy");
    AdActionResult zero = {0};
    assert_memory_equal(&out, &zero, sizeof(out));
    req.policy = AD_POLICY_KIND_HEADED;
    req.action_name = NULL;
    assert_invalid(ad_notification_action(*state, &req, &out), "action_name");
    assert_invalid(ad_notification_action(*state, NULL, &out), "request");
    assert_invalid(ad_dismiss_notification(*state, 1, NULL, "\xff", NULL), "expected_app");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lists_zero_out_and_refuse_null, setup, teardown),
        cmocka_unit_test(test_getters_and_frees_accept_null),
        cmocka_unit_test_setup_teardown(test_launch_zeroes_its_window, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exact_window_version_and_size, setup, teardown),
        cmocka_unit_test_setup_teardown(test_window_op_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_screenshot_target, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clipboard_arguments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mouse_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_notification_arguments, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
