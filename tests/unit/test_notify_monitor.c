/* test_notify_monitor.c: the helper's notify service (src/helper/notify_monitor.h) against a
 * private dbus-daemon this test starts and stops, with a clock of its own: every read of
 * ad_helper_now_us advances it by one millisecond, so a reading taken before the monitor
 * started is always earlier than the monitor's start (c3173cf: the first "ensure" answered
 * since_ms from the request's arrival, a negative age, whenever starting took a
 * millisecond or more; a real clock made that depend on the machine's load). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "helper/helper_proto.h"
#include "helper/notify_monitor.h"

static int64_t fake_now_us = 1000 * 1000;

/* The clock the service reads (helper_proto.h): one millisecond per reading. */
int64_t ad_helper_now_us(void)
{
    fake_now_us += 1000;
    return fake_now_us;
}

static pid_t daemon_pid;

/* Starts `dbus-daemon --session` on a socket of its own and points the session address at
 * it (the service reads DBUS_SESSION_BUS_ADDRESS). */
static int start_bus(void **state)
{
    (void)state;
    int fds[2];
    if (pipe(fds) < 0)
        return -1;
    daemon_pid = fork();
    if (daemon_pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        execlp("dbus-daemon", "dbus-daemon", "--session", "--nofork", "--print-address=1",
               "--address=unix:tmpdir=/tmp", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char addr[1024] = "";
    size_t n = 0;
    ssize_t r;
    while (n < sizeof(addr) - 1 && (r = read(fds[0], addr + n, 1)) == 1 && addr[n] != '\n')
        n++;
    close(fds[0]);
    addr[n] = '\0';
    if (daemon_pid < 0 || n == 0)
        return -1;
    setenv("DBUS_SESSION_BUS_ADDRESS", addr, 1);
    return 0;
}

static int stop_bus(void **state)
{
    (void)state;
    if (daemon_pid > 0) {
        kill(daemon_pid, SIGTERM);
        waitpid(daemon_pid, NULL, 0);
    }
    return 0;
}

static json_int_t since_ms_of(ad_notify_monitor *m, const char *op)
{
    json_t *req = json_pack("{s:s, s:s}", "service", "notify", "op", op);
    json_t *reply = ad_notify_monitor_request(m, req);
    assert_non_null(reply);
    assert_true(json_is_true(json_object_get(reply, "ok")));
    assert_true(json_is_true(json_object_get(reply, "monitoring")));
    json_int_t since = json_integer_value(json_object_get(reply, "since_ms"));
    json_decref(req);
    json_decref(reply);
    return since;
}

/* since_ms is never negative: not on the request that started the monitor, not later. */
static void test_since_ms_counts_from_now(void **state)
{
    (void)state;
    ad_notify_monitor *m = ad_notify_monitor_new();
    assert_non_null(m);
    json_int_t first = since_ms_of(m, "ensure");
    assert_true(first >= 0);
    json_int_t later = since_ms_of(m, "list");
    assert_true(later > first); /* the clock moved on between them */
    ad_notify_monitor_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_since_ms_counts_from_now),
    };
    return cmocka_run_group_tests(tests, start_bus, stop_bus);
}
