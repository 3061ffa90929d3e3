/* test_x11_hold.c: a termination signal waits while a faked key or button is down
 * (src/linux/x11_hold.c), without an X server: the events are only recorded. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "linux/x11_hold.h"

static volatile sig_atomic_t terms;

static void on_term(int sig)
{
    (void)sig;
    terms++;
}

static bool term_blocked(void)
{
    sigset_t now;
    sigprocmask(SIG_SETMASK, NULL, &now);
    return sigismember(&now, SIGTERM) == 1;
}

static void test_signal_waits_for_the_last_release(void **state)
{
    (void)state;
    signal(SIGTERM, on_term);
    terms = 0;
    ad_x11_hold_note(NULL, XCB_KEY_PRESS, 50);
    ad_x11_hold_note(NULL, XCB_BUTTON_PRESS, 1);
    assert_true(ad_x11_hold_active());
    assert_true(term_blocked());
    kill(getpid(), SIGTERM);
    assert_int_equal(terms, 0);
    /* A long pause returns once the signal is waiting, and every later one at once. */
    ad_x11_hold_pause_ms(600000);
    ad_x11_hold_pause_ms(600000);
    ad_x11_hold_note(NULL, XCB_KEY_RELEASE, 50);
    assert_int_equal(terms, 0);
    assert_true(term_blocked());
    ad_x11_hold_note(NULL, XCB_BUTTON_RELEASE, 1);
    assert_false(ad_x11_hold_active());
    assert_false(term_blocked());
    assert_int_equal(terms, 1);
    signal(SIGTERM, SIG_DFL);
}

/* Repeated presses of a held key count once; motion and releases of what is up do nothing. */
static void test_only_state_changes_count(void **state)
{
    (void)state;
    ad_x11_hold_note(NULL, XCB_KEY_RELEASE, 9);
    ad_x11_hold_note(NULL, XCB_MOTION_NOTIFY, 0);
    assert_false(ad_x11_hold_active());
    ad_x11_hold_note(NULL, XCB_KEY_PRESS, 9);
    ad_x11_hold_note(NULL, XCB_KEY_PRESS, 9);
    ad_x11_hold_note(NULL, XCB_KEY_RELEASE, 9);
    assert_false(ad_x11_hold_active());
    assert_false(term_blocked());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_waits_for_the_last_release),
        cmocka_unit_test(test_only_state_changes_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
