/* test_notifications.c: list-notifications, the mutations and wait --notification through
 * ad_dispatch and the fake adapter's notification surface (fake_notifications.c): the row
 * shape, the unfiltered index, the identity guard (nothing pressed), --headed, the presses
 * at the shell's coordinates and the read-back that verifies them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "fake_adapter.h"
#include "test_util.h"

typedef struct {
    tu_home home;
    fake_adapter *fake;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_fake_begin(&f->home, &f->fake);
    fake_enable_physical(f->fake);
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

static json_t *run(fx *f, const char *cmd, json_t *args, json_t *globals, int want_exit)
{
    json_t *env = tu_run_exit(fake_base(f->fake), cmd, args, globals, want_exit); /* takes both */
    assert_string_equal(tu_str(env, "command"), cmd);
    return env;
}

static const ad_rect CLOSE = {850, 46, 26, 26};

/* Three rows; the second is on a banner with a close button and two actions. */
static void three(fx *f)
{
    fake_add_notification(f->fake, "Build done", "All green");
    ad_notification *n = fake_add_notification(f->fake, "Standup", "Room 4");
    n->app_name = strdup("Calendar");
    fake_add_notification(f->fake, "No body", NULL);
    ad_notification *b = &f->fake->notes.banner;
    f->fake->notes.has_banner = true;
    b->title = strdup("Standup");
    b->body = strdup("Room 4");
    b->on_screen = true;
    b->bounds = (ad_rect){390, 36, 499, 76};
    b->close_known = true;
    b->close = CLOSE;
    fake_notification_action(b, "Snooze", (ad_rect){400, 110, 100, 30});
    fake_notification_action(b, "Open", (ad_rect){0});
}

static void test_list_rows(void **state)
{
    fx *f = *state;
    three(f);
    json_t *env = run(f, "list-notifications", tu_args("list-notifications", "{}"), NULL, 0);
    assert_int_equal(tu_int(env, "data.count"), 3);
    json_t *rows = tu_at(env, "data.notifications");
    json_t *want = json_loads("[{\"index\":1,\"title\":\"Build done\",\"body\":\"All green\"},"
                              "{\"index\":2,\"app_name\":\"Calendar\",\"title\":\"Standup\","
                              "\"body\":\"Room 4\",\"actions\":[\"Snooze\",\"Open\"]},"
                              "{\"index\":3,\"title\":\"No body\"}]", 0, NULL);
    assert_true(json_equal(rows, want));
    json_decref(want);
    json_decref(env);
    assert_int_equal(f->fake->n_physical, 0);
}

static void test_filters_keep_the_unfiltered_index(void **state)
{
    fx *f = *state;
    three(f);
    json_t *env = run(f, "list-notifications", tu_args("list-notifications", "{s:s}", "text",
                                                       "room"), NULL, 0);
    assert_int_equal(tu_int(env, "data.count"), 1);
    assert_int_equal(tu_int(env, "data.notifications.0.index"), 2);
    json_decref(env);
    env = run(f, "list-notifications", tu_args("list-notifications", "{s:s}", "app",
                                               "calendar"), NULL, 0);
    assert_int_equal(tu_int(env, "data.count"), 1);
    assert_string_equal(tu_str(env, "data.notifications.0.title"), "Standup");
    json_decref(env);
    env = run(f, "list-notifications", tu_args("list-notifications", "{s:I}", "limit", 2),
              NULL, 0);
    assert_int_equal(tu_int(env, "data.count"), 2);
    assert_int_equal(tu_int(env, "data.notifications.1.index"), 2);
    json_decref(env);
}

static void test_no_service_names_the_daemon(void **state)
{
    fx *f = *state;
    f->fake->notes_absent = true;
    json_t *env = run(f, "list-notifications", tu_args("list-notifications", "{}"), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "PLATFORM_NOT_SUPPORTED");
    assert_string_equal(tu_str(env, "error.details.daemon"), "absent");
    assert_string_equal(tu_str(env, "error.details.detail"),
                        "no service owns org.freedesktop.Notifications");
    json_decref(env);
}

static void test_mutations_need_headed(void **state)
{
    fx *f = *state;
    three(f);
    json_t *env = run(f, "dismiss-notification", tu_args("dismiss-notification", "{s:I, s:s}",
                      "index", 2, "expected_title", "Standup"), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "POLICY_DENIED");
    json_decref(env);
    env = run(f, "dismiss-all-notifications", tu_args("dismiss-all-notifications", "{}"), NULL,
              1);
    assert_string_equal(tu_str(env, "error.code"), "POLICY_DENIED");
    json_decref(env);
    assert_int_equal(f->fake->n_physical, 0);
    assert_int_equal(f->fake->notes.count, 3);
}

static void test_identity_is_required(void **state)
{
    fx *f = *state;
    three(f);
    json_t *env = run(f, "dismiss-notification", tu_args("dismiss-notification", "{s:I}",
                      "index", 2), headed(), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    assert_int_equal(f->fake->n_read_notifications, 0);
}

static void test_guard_presses_nothing(void **state)
{
    fx *f = *state;
    three(f);
    /* Another title at the index; an index past the end; an app the row does not show. */
    json_t *cases[] = {
        tu_args("dismiss-notification", "{s:I, s:s}", "index", 1, "expected_title", "Standup"),
        tu_args("dismiss-notification", "{s:I, s:s}", "index", 4, "expected_title", "Standup"),
        tu_args("dismiss-notification", "{s:I, s:s}", "index", 1, "expected_app", "Build"),
        tu_args("dismiss-notification", "{s:I, s:s}", "index", 2, "expected_app", "Mail"),
    };
    for (size_t i = 0; i < 4; i++) {
        json_t *env = run(f, "dismiss-notification", cases[i], headed(), 1);
        assert_string_equal(tu_str(env, "error.code"), "NOTIFICATION_NOT_FOUND");
        assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
        if (i == 2)
            assert_string_equal(tu_str(env, "error.details.app_name"), "unknown");
        json_decref(env);
    }
    assert_int_equal(f->fake->n_physical, 0);
    assert_int_equal(f->fake->notes.count, 3);
}

static bool hits(const ad_phys_req *r, ad_rect at)
{
    return r->x >= at.x && r->x < at.x + at.width && r->y >= at.y && r->y < at.y + at.height;
}

/* The shell: a click on the banner's close button or on a showing action button closes
 * the banner's notification. */
static void shell_effect(fake_adapter *fk, const ad_phys_req *req)
{
    ad_notification_surface *s = &fk->notes;
    if (req->kind != AD_PHYS_CLICK || !s->has_banner)
        return;
    bool pressed = s->banner.close_known && hits(req, s->banner.close);
    for (size_t i = 0; i < s->banner.n_actions; i++)
        pressed |= s->banner.action_at[i].width > 0 && hits(req, s->banner.action_at[i]);
    for (size_t i = 0; pressed && i < s->count; i++)
        if (strcmp(s->items[i].title, s->banner.title) == 0) {
            fake_remove_notification(fk, i);
            ad_notification_clear(&s->banner);
            s->has_banner = false;
            return;
        }
}

static void test_dismiss_on_the_banner(void **state)
{
    fx *f = *state;
    three(f);
    f->fake->phys_effect = shell_effect;
    json_t *env = run(f, "dismiss-notification", tu_args("dismiss-notification", "{s:I, s:s}",
                      "index", 2, "expected_title", "Standup"), headed(), 0);
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_verified");
    assert_string_equal(tu_str(env, "data.dismissed.title"), "Standup");
    assert_int_equal(tu_int(env, "data.dismissed.index"), 2);
    json_decref(env);
    /* Into the banner first (its buttons show then), then the close button's centre. */
    assert_int_equal(f->fake->n_physical, 2);
    assert_int_equal(f->fake->phys[0].kind, AD_PHYS_MOVE);
    assert_int_equal(f->fake->phys[1].kind, AD_PHYS_CLICK);
    assert_int_equal(f->fake->phys[1].x, 863);
    assert_int_equal(f->fake->phys[1].y, 59);
    assert_int_equal(f->fake->notes.count, 2);
}

static void test_dismiss_still_listed_is_action_failed(void **state)
{
    fx *f = *state;
    three(f); /* no effect: the row stays */
    json_t *env = run(f, "dismiss-notification", tu_args("dismiss-notification", "{s:I, s:s}",
                      "index", 2, "expected_title", "Standup"), headed(), 1);
    assert_string_equal(tu_str(env, "error.code"), "ACTION_FAILED");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "delivered_unverified");
    json_decref(env);
}

/* The top-bar clock opens the message list: every row shows, with its close button, and
 * the banner hides (as GNOME Shell's does). */
static void list_opens(fake_adapter *fk, const ad_phys_req *req)
{
    ad_notification_surface *s = &fk->notes;
    if (req->kind == AD_PHYS_CLICK && hits(req, s->toggle)) {
        ad_notification_clear(&s->banner);
        s->has_banner = false;
        for (size_t i = 0; i < s->count; i++) {
            s->items[i].on_screen = true;
            s->items[i].bounds = (ad_rect){300, 50 + 90.0 * i, 400, 80};
            s->items[i].close_known = true;
            s->items[i].close = (ad_rect){660, 60 + 90.0 * i, 26, 26};
        }
        return;
    }
    for (size_t i = 0; req->kind == AD_PHYS_CLICK && i < s->count; i++)
        if (s->items[i].close_known && hits(req, s->items[i].close)) {
            fake_remove_notification(fk, i);
            return;
        }
}

static void test_dismiss_opens_the_list(void **state)
{
    fx *f = *state;
    three(f);
    f->fake->notes.toggle_known = true;
    f->fake->notes.toggle = (ad_rect){565, 0, 151, 32};
    f->fake->phys_effect = list_opens;
    json_t *env = run(f, "dismiss-notification", tu_args("dismiss-notification", "{s:I, s:s}",
                      "index", 3, "expected_title", "No body"), headed(), 0);
    assert_true(json_is_true(tu_at(env, "data.details.opened_message_list")));
    json_decref(env);
    /* Clock, into the row, its close button, and the clock again to close the list. */
    assert_int_equal(f->fake->n_physical, 4);
    assert_true(hits(&f->fake->phys[0], f->fake->notes.toggle));
    assert_int_equal(f->fake->phys[1].kind, AD_PHYS_MOVE);
    assert_int_equal(f->fake->phys[2].y, 60 + 180 + 13);
    assert_true(hits(&f->fake->phys[3], f->fake->notes.toggle));
    assert_int_equal(f->fake->notes.count, 2);
    assert_string_equal(f->fake->notes.items[1].title, "Standup");
}

static void test_dismiss_all(void **state)
{
    fx *f = *state;
    three(f);
    f->fake->notes.toggle_known = true;
    f->fake->notes.toggle = (ad_rect){565, 0, 151, 32};
    f->fake->phys_effect = list_opens;
    json_t *env = run(f, "dismiss-all-notifications", tu_args("dismiss-all-notifications", "{}"),
                      headed(), 0);
    assert_int_equal(tu_int(env, "data.dismissed_count"), 3);
    assert_null(tu_at(env, "data.failures"));
    assert_null(tu_at(env, "data.failed_count"));
    json_decref(env);
    assert_int_equal(f->fake->notes.count, 0);
}

static void test_dismiss_all_for_one_app(void **state)
{
    fx *f = *state;
    three(f);
    f->fake->phys_effect = shell_effect;
    json_t *env = run(f, "dismiss-all-notifications", tu_args("dismiss-all-notifications",
                      "{s:s}", "app", "CALENDAR"), headed(), 0);
    assert_int_equal(tu_int(env, "data.dismissed_count"), 1);
    assert_string_equal(tu_str(env, "data.dismissed.0.title"), "Standup");
    json_decref(env);
    assert_int_equal(f->fake->notes.count, 2);
}

static void test_action_press(void **state)
{
    fx *f = *state;
    three(f);
    f->fake->phys_effect = shell_effect;
    json_t *env = run(f, "notification-action", tu_args("notification-action", "{s:I, s:s, s:s}",
                      "index", 2, "action", "Snooze", "expected_title", "Standup"), headed(), 0);
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_unverified");
    assert_true(json_is_true(tu_at(env, "data.details.notification_closed")));
    json_decref(env);
    assert_int_equal(f->fake->phys[1].x, 450);
    assert_int_equal(f->fake->phys[1].y, 125);
}

static void test_unknown_action_presses_nothing(void **state)
{
    fx *f = *state;
    three(f);
    json_t *env = run(f, "notification-action", tu_args("notification-action", "{s:I, s:s, s:s}",
                      "index", 2, "action", "Delete", "expected_title", "Standup"), headed(), 1);
    assert_string_equal(tu_str(env, "error.code"), "ACTION_NOT_SUPPORTED");
    json_decref(env);
    /* A row without a banner has no buttons at all (GNOME Shell 43's message list). */
    env = run(f, "notification-action", tu_args("notification-action", "{s:I, s:s, s:s}",
              "index", 1, "action", "Snooze", "expected_title", "Build done"), headed(), 1);
    assert_string_equal(tu_str(env, "error.code"), "ACTION_NOT_SUPPORTED");
    json_decref(env);
    assert_int_equal(f->fake->n_physical, 0);
}

/* A new notification arrives on the third read (the baseline is the first). */
static void arrives(fake_adapter *fk, int n)
{
    if (n == 3)
        fake_add_notification(fk, "Fresh", "new one");
}

static void test_wait_returns_only_a_new_one(void **state)
{
    fx *f = *state;
    three(f);
    f->fake->notes_on_read = arrives;
    json_t *env = run(f, "wait", tu_args("wait", "{s:b, s:I}", "notification", 1, "timeout",
                                         5000), NULL, 0);
    assert_string_equal(tu_str(env, "data.condition"), "notification");
    assert_string_equal(tu_str(env, "data.notification.title"), "Fresh");
    assert_int_equal(tu_int(env, "data.notification.index"), 4);
    json_decref(env);
}

static void test_wait_text_filters(void **state)
{
    fx *f = *state;
    three(f);
    f->fake->notes_on_read = arrives;
    /* An old row matches the text, a new one does not: neither counts. */
    json_t *env = run(f, "wait", tu_args("wait", "{s:b, s:s, s:I}", "notification", 1, "text",
                                         "green", "timeout", 400), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "TIMEOUT");
    assert_int_equal(tu_int(env, "error.details.last_observed.baseline_count"), 3);
    json_decref(env);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_list_rows),
        T(test_filters_keep_the_unfiltered_index),
        T(test_no_service_names_the_daemon),
        T(test_mutations_need_headed),
        T(test_identity_is_required),
        T(test_guard_presses_nothing),
        T(test_dismiss_on_the_banner),
        T(test_dismiss_still_listed_is_action_failed),
        T(test_dismiss_opens_the_list),
        T(test_dismiss_all),
        T(test_dismiss_all_for_one_app),
        T(test_action_press),
        T(test_unknown_action_presses_nothing),
        T(test_wait_returns_only_a_new_one),
        T(test_wait_text_filters),
    };
    return cmocka_run_group_tests_name("notifications", tests, NULL, NULL);
}
