/* OS shell surfaces through dispatch (core/surface_shell.h): status supported_surfaces,
 * open-system-surface (kind check, headed policy, already open, click then read back, a click
 * that opens nothing), snapshot --surface of an open and a closed shell surface, and
 * list-surfaces leaving them out. The fake shell below is one action-center whose opener is a
 * point; its open surface is the fake window w-fake-1 of "gnome-shell". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "fake_adapter.h"
#include "test_util.h"

#define OPENER_X 640
#define OPENER_Y 16

typedef struct {
    tu_home home;
    fake_adapter *fake;
    ad_adapter_ops ops;
    fake_window *popup;
    bool shell;         /* a shell runs: the kind resolves */
    bool open;          /* the action-center shows */
    bool click_ignored; /* a click at the opener opens nothing */
    int n_physical;
    ad_phys_req last;
} fx;

static fx *the; /* the ops below have no user data */

static size_t shell_kinds(ad_adapter *a, int64_t deadline_us, const char **ret, size_t cap)
{
    (void)a;
    (void)deadline_us;
    if (!the->shell || cap == 0)
        return 0;
    ret[0] = "action-center";
    return 1;
}

static int shell_surface(ad_adapter *a, const char *kind, int64_t deadline_us,
                         ad_shell_surface *ret, ad_error *err)
{
    (void)a;
    (void)deadline_us;
    memset(ret, 0, sizeof(*ret));
    if (!the->shell || strcmp(kind, "action-center") != 0)
        return ad_error_set(err, AD_WINDOW_NOT_FOUND, "no such shell surface");
    ret->open = the->open;
    if (the->open)
        return ad_window_copy(&ret->window, &the->popup->w);
    ret->opener_known = true;
    ret->opener_x = OPENER_X;
    ret->opener_y = OPENER_Y;
    return 0;
}

static int physical(ad_adapter *a, const ad_phys_req *req, int64_t deadline_us,
                    ad_act_result *res, ad_error *err)
{
    (void)a;
    (void)deadline_us;
    (void)err;
    the->n_physical++;
    the->last = *req;
    if (req->kind == AD_PHYS_CLICK && req->x == OPENER_X && req->y == OPENER_Y &&
        !the->click_ignored)
        the->open = true;
    res->delivery = AD_DELIVERED_UNVERIFIED;
    return 0;
}

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_fake_begin(&f->home, &f->fake);
    fake_add_app(f->fake, "gnome-shell", 300);
    f->popup = fake_add_window(f->fake, "gnome-shell", NULL,
                               fk("group", fk("button|n=Next month|b=950,125,32,32", NULL),
                                  fk("button|n=Clear|a=Click", NULL), NULL));
    f->popup->w.kind = "shell";
    f->ops = *fake_base(f->fake)->ops;
    f->ops.shell_surface_kinds = shell_kinds;
    f->ops.shell_surface = shell_surface;
    f->ops.physical = physical;
    fake_base(f->fake)->ops = &f->ops;
    f->shell = true;
    the = f;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    tu_fake_end(&f->home, f->fake);
    free(f);
    return 0;
}

static json_t *headed(void)
{
    return json_pack("{s:b}", "headed", 1);
}

static json_t *open_surface(fx *f, const char *kind, bool with_headed, int want_exit)
{
    return tu_run_exit(fake_base(f->fake), "open-system-surface",
                       tu_args("open-system-surface", "{s:s}", "surface", kind),
                       with_headed ? headed() : NULL, want_exit);
}

static json_t *status_kinds(fx *f)
{
    json_t *env = tu_run_exit(fake_base(f->fake), "status", tu_args("status", "{}"), NULL, 0);
    json_t *kinds = json_incref(tu_at(env, "data.supported_surfaces"));
    json_decref(env);
    return kinds;
}

static void test_status_adds_the_kinds_the_shell_resolves(void **state)
{
    fx *f = *state;
    json_t *kinds = status_kinds(f);
    /* The fake's own app kinds ("window"), then the shell's. */
    assert_int_equal(json_array_size(kinds), 2);
    assert_string_equal(json_string_value(json_array_get(kinds, 1)), "action-center");
    json_decref(kinds);
    f->shell = false;
    kinds = status_kinds(f);
    assert_int_equal(json_array_size(kinds), 1);
    json_decref(kinds);
}

static void test_headless_open_is_refused_before_any_input(void **state)
{
    fx *f = *state;
    json_t *env = open_surface(f, "action-center", false, 1);
    assert_string_equal(tu_str(env, "error.code"), "POLICY_DENIED");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    assert_non_null(strstr(tu_str(env, "error.suggestion"), "--headed"));
    assert_int_equal(f->n_physical, 0);
    assert_false(f->open);
    json_decref(env);
}

static void test_a_kind_the_session_lacks_names_the_one_to_use(void **state)
{
    fx *f = *state;
    const char *kinds[] = {"start-menu", "quick-settings", "taskbar", "dock", "bogus"};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        for (int h = 0; h < 2; h++) {
            json_t *env = open_surface(f, kinds[i], h, 1);
            assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
            assert_string_equal(tu_str(env, "error.details.requested_surface"), kinds[i]);
            assert_string_equal(tu_str(env, "error.details.supported_surfaces.1"),
                                "action-center");
            assert_non_null(strstr(tu_str(env, "error.suggestion"),
                                   "agent-desktop --headed open-system-surface --surface "
                                   "action-center"));
            json_decref(env);
        }
    }
    /* Without a shell nothing opens, and the suggestion says so instead. */
    f->shell = false;
    json_t *env = open_surface(f, "action-center", true, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_non_null(strstr(tu_str(env, "error.suggestion"), "no shell surface"));
    json_decref(env);
    assert_int_equal(f->n_physical, 0);
}

static void test_headed_open_clicks_the_opener_and_returns_the_window(void **state)
{
    fx *f = *state;
    json_t *env = open_surface(f, "action_center", true, 0); /* underscores read as hyphens */
    assert_string_equal(tu_str(env, "data.surface"), "action-center");
    assert_string_equal(tu_str(env, "data.window.id"), f->popup->w.id);
    assert_string_equal(tu_str(env, "data.window.app_name"), "gnome-shell");
    assert_int_equal(f->n_physical, 1);
    assert_int_equal(f->last.kind, AD_PHYS_CLICK);
    assert_int_equal(f->last.x, OPENER_X);
    assert_int_equal(f->last.y, OPENER_Y);
    json_decref(env);
    /* Already open: returned again, with no second click (which would close it). */
    env = open_surface(f, "action-center", true, 0);
    assert_string_equal(tu_str(env, "data.window.id"), f->popup->w.id);
    assert_int_equal(f->n_physical, 1);
    assert_true(f->open);
    json_decref(env);
}

static void test_a_click_that_opens_nothing_fails_after_delivery(void **state)
{
    fx *f = *state;
    f->click_ignored = true;
    json_t *env = open_surface(f, "action-center", true, 1);
    assert_string_equal(tu_str(env, "error.code"), "ACTION_FAILED");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "delivered_unverified");
    assert_int_equal(f->n_physical, 1);
    json_decref(env);
}

static void test_snapshot_reads_an_open_surface_and_refuses_a_closed_one(void **state)
{
    fx *f = *state;
    json_t *env = tu_run_exit(fake_base(f->fake), "snapshot",
                              tu_args("snapshot", "{s:s}", "surface", "action-center"), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "WINDOW_NOT_FOUND");
    assert_string_equal(tu_str(env, "error.details.kind"), "surface_absent");
    assert_string_equal(tu_str(env, "error.details.surface"), "action-center");
    json_decref(env);
    f->open = true;
    env = tu_run_exit(fake_base(f->fake), "snapshot",
                      tu_args("snapshot", "{s:s}", "surface", "action-center"), NULL, 0);
    assert_string_equal(tu_str(env, "data.window.id"), f->popup->w.id);
    assert_non_null(tu_node_named(tu_at(env, "data.tree"), "Next month"));
    json_decref(env);
    /* Without a shell the kind is not one this session has. */
    f->shell = false;
    env = tu_run_exit(fake_base(f->fake), "snapshot",
                      tu_args("snapshot", "{s:s}", "surface", "action-center"), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_int_equal(json_array_size(tu_at(env, "error.details.supported_surfaces")), 1);
    json_decref(env);
    assert_int_equal(f->n_physical, 0);
}

static void test_list_surfaces_never_shows_a_shell_surface(void **state)
{
    fx *f = *state;
    f->open = true;
    json_t *env = tu_run_exit(fake_base(f->fake), "list-surfaces",
                              tu_args("list-surfaces", "{s:s}", "app", "gnome-shell"), NULL, 0);
    assert_int_equal(json_array_size(tu_at(env, "data.surfaces")), 0);
    json_decref(env);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_status_adds_the_kinds_the_shell_resolves),
        T(test_headless_open_is_refused_before_any_input),
        T(test_a_kind_the_session_lacks_names_the_one_to_use),
        T(test_headed_open_clicks_the_opener_and_returns_the_window),
        T(test_a_click_that_opens_nothing_fails_after_delivery),
        T(test_snapshot_reads_an_open_surface_and_refuses_a_closed_one),
        T(test_list_surfaces_never_shows_a_shell_surface),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
