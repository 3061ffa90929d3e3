/* test_bus_call.c: the deadline-bounded D-Bus helpers against a silent peer: a unix socket that
 * listens and never accepts, which is what a stopped (SIGSTOP) dbus-daemon looks like to a
 * client (the kernel completes the connect, nobody authenticates). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/ctx.h"
#include "linux/atspi_bus.h"
#include "linux/bus_call.h"

#define BUDGET_US (300 * 1000)
#define SLACK_US (700 * 1000) /* a loaded machine */

typedef struct {
    char dir[48];
    char path[96];
    char address[160];
    int fd;
} silent_peer;

static int setup(void **state)
{
    silent_peer *p = calloc(1, sizeof(*p));
    snprintf(p->dir, sizeof(p->dir), "/tmp/ad-bus-call-XXXXXX");
    assert_non_null(mkdtemp(p->dir));
    snprintf(p->path, sizeof(p->path), "%s/bus", p->dir);
    snprintf(p->address, sizeof(p->address), "unix:path=%s", p->path);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", p->path);
    p->fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(p->fd >= 0);
    assert_int_equal(bind(p->fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    assert_int_equal(listen(p->fd, 16), 0);
    *state = p;
    return 0;
}

static int teardown(void **state)
{
    silent_peer *p = *state;
    close(p->fd);
    unlink(p->path);
    rmdir(p->dir);
    free(p);
    return 0;
}

static void test_timeout_is_never_sd_bus_default(void **state)
{
    (void)state;
    assert_int_equal(ad_bus_timeout_us(ad_now_us() - 1000), 1); /* 0 would mean 25 s */
    uint64_t t = ad_bus_timeout_us(ad_now_us() + 1000000);
    assert_true(t > 0 && t <= 1000000);
}

static void test_no_answer_is_not_a_refusal(void **state)
{
    (void)state;
    sd_bus_error no_reply = SD_BUS_ERROR_MAKE_CONST(SD_BUS_ERROR_NO_REPLY, "timed out");
    sd_bus_error unknown = SD_BUS_ERROR_MAKE_CONST(SD_BUS_ERROR_UNKNOWN_METHOD, "no");
    sd_bus_error gone = SD_BUS_ERROR_MAKE_CONST(SD_BUS_ERROR_SERVICE_UNKNOWN, "gone");
    assert_true(ad_bus_no_answer(-ETIMEDOUT, NULL));
    assert_true(ad_bus_no_answer(-ECONNRESET, NULL)); /* the daemon went away mid-call */
    assert_true(ad_bus_no_answer(-ENOTCONN, NULL));
    assert_true(ad_bus_no_answer(-EIO, &no_reply));
    assert_false(ad_bus_no_answer(-EBADR, &unknown)); /* the app answered: refused */
    assert_false(ad_bus_no_answer(-EHOSTUNREACH, &gone));
}

/* sd_bus_start alone succeeds here (the old connect said "connected"); the open waits for
 * the authentication and gives up at the deadline. */
static void test_open_ends_at_the_deadline(void **state)
{
    silent_peer *p = *state;
    for (int client = 0; client <= 1; client++) {
        sd_bus *bus = NULL;
        int64_t t0 = ad_now_us();
        assert_int_equal(ad_bus_open(p->address, client, t0 + BUDGET_US, &bus), -ETIMEDOUT);
        int64_t took = ad_now_us() - t0;
        assert_null(bus);
        assert_true(took >= BUDGET_US && took < BUDGET_US + SLACK_US);
    }
}

/* A call queued on a connection that never authenticated: closing drops it at once, where a
 * flush would wait for the peer forever. */
static void test_close_does_not_wait_for_a_silent_peer(void **state)
{
    silent_peer *p = *state;
    sd_bus *bus = NULL;
    assert_true(sd_bus_new(&bus) >= 0);
    assert_true(sd_bus_set_address(bus, p->address) >= 0);
    assert_true(sd_bus_start(bus) >= 0);
    assert_true(sd_bus_call_method_async(bus, NULL, "org.example", "/", "org.example", "M",
                                         NULL, NULL, "") >= 0);
    int64_t t0 = ad_now_us();
    assert_null(ad_bus_close(bus));
    assert_true(ad_now_us() - t0 < SLACK_US);
}

/* A silent session bus: TIMEOUT naming it, by the deadline; a missing one stays
 * PLATFORM_NOT_SUPPORTED. */
static void test_bus_open_reports_the_silent_part(void **state)
{
    silent_peer *p = *state;
    setenv("DBUS_SESSION_BUS_ADDRESS", p->address, 1);
    sd_bus *bus = NULL;
    ad_error err = AD_ERROR_INIT;
    int64_t t0 = ad_now_us();
    assert_int_equal(ad_atspi_bus_open(t0 + BUDGET_US, &bus, &err), -1);
    assert_true(ad_now_us() - t0 < BUDGET_US + SLACK_US);
    assert_null(bus);
    assert_int_equal(err.code, AD_TIMEOUT);
    assert_string_equal(json_string_value(json_object_get(err.details, "kind")),
                        "accessibility_bus_unresponsive");
    assert_string_equal(json_string_value(json_object_get(err.details, "component")),
                        "session_bus");
    assert_non_null(err.suggestion);
    assert_non_null(err.platform_detail);
    assert_int_equal(err.delivery, AD_NOT_DELIVERED);
    ad_error_clear(&err);

    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/ad-bus-call/bus", 1);
    assert_int_equal(ad_atspi_bus_open(ad_now_us() + BUDGET_US, &bus, &err), -1);
    assert_int_equal(err.code, AD_PLATFORM_NOT_SUPPORTED);
    assert_string_equal(json_string_value(json_object_get(err.details, "kind")),
                        "accessibility_bus_unavailable");
    ad_error_clear(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeout_is_never_sd_bus_default),
        cmocka_unit_test(test_no_answer_is_not_a_refusal),
        cmocka_unit_test_setup_teardown(test_open_ends_at_the_deadline, setup, teardown),
        cmocka_unit_test_setup_teardown(test_close_does_not_wait_for_a_silent_peer, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_bus_open_reports_the_silent_part, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
