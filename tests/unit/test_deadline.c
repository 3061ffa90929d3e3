/* test_deadline.c: saturating deadline arithmetic (core/deadline.h), the 24-hour maximum of
 * every timeout-like flag in the command table (and an int-sized scroll count), and commands
 * handed a budget beyond it (the C ABI and batch bypass the CLI parser) that must not wrap
 * their deadline into the past. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "dispatch/command_table.h"
#include "core/ctx.h"
#include "fake_adapter.h"
#include "test_util.h"

static void test_add_ms(void **state)
{
    (void)state;
    assert_int_equal(ad_deadline_add_ms(100, 2), 2100);
    assert_int_equal(ad_deadline_add_ms(100, 0), 100);
    assert_int_equal(ad_deadline_add_ms(100, -5), 100); /* a negative budget is 0 */
    assert_true(ad_deadline_add_ms(0, INT64_MAX) == INT64_MAX);
    assert_true(ad_deadline_add_ms(0, INT64_MAX / 1000 + 1) == INT64_MAX);
    assert_true(ad_deadline_add_ms(INT64_MAX - 5, 1) == INT64_MAX);
    assert_true(ad_deadline_add_ms(INT64_MAX - 1000, 1) == INT64_MAX);
    assert_true(ad_deadline_add_ms(-1000, INT64_MAX / 1000) == -1000 + INT64_MAX / 1000 * 1000);
}

static void test_after_ms(void **state)
{
    (void)state;
    int64_t before = ad_now_us();
    int64_t d = ad_deadline_after_ms(AD_DURATION_MAX_MS);
    assert_true(d >= before + (int64_t)AD_DURATION_MAX_MS * 1000);
    assert_true(ad_deadline_after_ms(INT64_MAX) == INT64_MAX);
    assert_true(ad_deadline_after_ms(-1) >= before);
}

/* A follow-up step keeps the command's deadline, but gets at least the floor and at most the
 * cap: a passed deadline still allows one try, a far one cannot stretch the step. */
static void test_within(void **state)
{
    (void)state;
    int64_t before = ad_now_us();
    int64_t d = ad_deadline_within(before - 1000000, 250, 2000); /* already passed */
    assert_true(d >= before + 250000 && d <= ad_now_us() + 250000);
    d = ad_deadline_within(INT64_MAX, 250, 2000); /* far away: capped */
    assert_true(d >= before + 2000000 && d <= ad_now_us() + 2000000);
    int64_t mid = ad_deadline_after_ms(1000);
    assert_true(ad_deadline_within(mid, 250, 2000) == mid); /* in between: its own */
}

/* A timeout-like flag: a duration in ms that becomes a deadline. */
static bool timeout_like(const ad_arg_spec *s)
{
    return s->type == AD_ARG_INT && !s->positional &&
           (strcmp(s->name, "timeout-ms") == 0 || strcmp(s->name, "timeout") == 0 ||
            strcmp(s->name, "wait-timeout") == 0);
}

static int check_ranges(const ad_arg_spec *specs, const char *owner)
{
    int n = 0;
    for (const ad_arg_spec *s = specs; s && s->name; s++) {
        if (!timeout_like(s))
            continue;
        if (s->min != 0 || s->max != AD_DURATION_MAX_MS)
            fail_msg("%s --%s has range [%lld, %lld], not [0, %d]", owner, s->name,
                     (long long)s->min, (long long)s->max, AD_DURATION_MAX_MS);
        n++;
    }
    return n;
}

static void test_every_timeout_flag_is_bounded(void **state)
{
    (void)state;
    int n = check_ranges(ad_global_args, "the global");
    assert_int_equal(n, 1); /* --wait-timeout */
    for (size_t i = 0; i < ad_commands_count; i++)
        n += check_ranges(ad_commands[i].args, ad_commands[i].name);
    assert_true(n >= 26); /* the ref actions, observation, waits, launch, batch */
}

/* scroll --amount becomes an int wheel count: a larger value would wrap (2^32 + 1 -> 1). */
static void test_scroll_amount_fits_an_int(void **state)
{
    (void)state;
    const ad_arg_spec *s = ad_arg_spec_find(ad_command_find("scroll")->args, "amount");
    assert_non_null(s);
    assert_true(s->max > 0 && s->max <= INT32_MAX);
}

/* ---- budgets beyond the maximum through dispatch ---------------------------------------- */

typedef tu_bed fx;

static int setup(void **state)
{
    fx *f = tu_bed_new(fk("window|n=Form", fk("button|n=Save|a=Click", NULL), NULL));
    f->fake->reads_honor_deadline = true; /* a wrapped deadline fails the read */
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    tu_bed_free(*state);
    return 0;
}

/* A budget past the table's maximum that reaches dispatch without the CLI parser (the C ABI,
 * batch) is refused the same way, before anything is read or sent; the saturating helpers
 * above keep any budget a handler computes from wrapping. */
static void test_huge_snapshot_budget_is_refused_by_dispatch(void **state)
{
    fx *f = *state;
    json_t *env = tu_run_exit(fake_base(f->fake), "snapshot",
                              tu_args("snapshot", "{s:I}", "timeout_ms", (json_int_t)INT64_MAX),
                              NULL, 2);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_int_equal(f->fake->n_read_window, 0);
    json_decref(env);
}

static void test_huge_click_and_wait_budgets_are_refused_before_the_click(void **state)
{
    fx *f = *state;
    json_t *snap = tu_run_exit(fake_base(f->fake), "snapshot", tu_args("snapshot", "{}"), NULL,
                               0);
    const char *ref = tu_str(tu_node_named(tu_at(snap, "data.tree"), "Save"), "ref_id");
    json_t *env = tu_run_exit(fake_base(f->fake), "click",
                              tu_args("click", "{s:s, s:I}", "ref_id", ref, "timeout_ms",
                                      (json_int_t)INT64_MAX),
                              NULL, 2);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = tu_run_exit(fake_base(f->fake), "click", tu_args("click", "{s:s}", "ref_id", ref),
                      json_pack("{s:s, s:I}", "wait_for", "button:Save", "wait_timeout",
                                (json_int_t)INT64_MAX),
                      2);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_int_equal(f->fake->n_act, 0);
    json_decref(env);
    json_decref(snap);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_ms),
        cmocka_unit_test(test_after_ms),
        cmocka_unit_test(test_within),
        cmocka_unit_test(test_every_timeout_flag_is_bounded),
        cmocka_unit_test(test_scroll_amount_fits_an_int),
        T(test_huge_snapshot_budget_is_refused_by_dispatch),
        T(test_huge_click_and_wait_budgets_are_refused_before_the_click),
    };
    return cmocka_run_group_tests_name("deadline", tests, NULL, NULL);
}
