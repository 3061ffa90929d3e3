/* test_cdp_http.c: launch --cdp's loopback checks (linux/cdp_http.h) against sockets of the
 * test's own: a bound port, a port whose last connection sits in TIME_WAIT, and a DevTools-like
 * server that answers only HTTP/1.1 and keeps the connection open after the body, as
 * Chromium does. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/ctx.h"
#include "linux/cdp_http.h"

/* Whether a server that binds as Chromium does (SO_REUSEADDR) can listen on port now. */
static bool server_could_bind(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    bool ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(fd, 1) == 0;
    close(fd);
    return ok;
}

/* A listening socket on 127.0.0.1 (port 0: any); its port in *ret_port. */
static int listener(int *ret_port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(listen(fd, 4), 0);
    socklen_t len = sizeof(a);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    *ret_port = ntohs(a.sin_port);
    return fd;
}

static int dial(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    return fd;
}

/* A bound port is in use. A port whose last connection sits in TIME_WAIT is answered as a
 * server binding with SO_REUSEADDR finds it: free on Linux, in use on network stacks that
 * keep TIME_WAIT ports (gVisor), so the probe never promises a port Chromium cannot take. */
static void test_bound_port_is_in_use_and_time_wait_as_a_server_sees_it(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    int port = 0, free_port = 0;
    int lfd = listener(&port);
    assert_int_equal(ad_loopback_port(port, NULL, &err), 1);
    /* The server side closes first, so the port's connection stays in TIME_WAIT. */
    int c = dial(port);
    int s = accept(lfd, NULL, NULL);
    close(lfd);
    close(s);
    char b;
    assert_int_equal(read(c, &b, 1), 0);
    close(c);
    int in_use = ad_loopback_port(port, NULL, &err);
    assert_int_equal(in_use, server_could_bind(port) ? 0 : 1);
    assert_int_equal(ad_loopback_port(0, &free_port, &err), 0);
    assert_true(free_port > 0);
    ad_error_clear(&err);
}

/* One connection at a time: HTTP/1.0 is closed unanswered; HTTP/1.1 gets the body and the
 * connection stays open until the client goes. */
static void serve_like_chromium(int lfd)
{
    static const char body[] = "{\"Browser\":\"Fake/1.0\",\"webSocketDebuggerUrl\":"
                               "\"ws://127.0.0.1/devtools/browser/x\"}";
    for (;;) {
        int c = accept(lfd, NULL, NULL);
        if (c < 0)
            _exit(0);
        char req[1024];
        ssize_t n = read(c, req, sizeof(req) - 1);
        req[n > 0 ? n : 0] = '\0';
        if (strstr(req, "GET /json/version HTTP/1.1\r\n")) {
            char resp[512];
            int len = snprintf(resp, sizeof(resp), "HTTP/1.1 200 OK\r\nContent-Length:%zu\r\n"
                               "Content-Type:application/json\r\n\r\n%s", strlen(body), body);
            if (write(c, resp, (size_t)len) != len)
                _exit(1);
            while (read(c, req, sizeof(req)) > 0) {
            }
        }
        close(c);
    }
}

static void test_version_is_read_to_its_content_length(void **state)
{
    (void)state;
    int port = 0;
    int lfd = listener(&port);
    pid_t server = fork();
    if (server == 0)
        serve_like_chromium(lfd);
    close(lfd);
    ad_error err = AD_ERROR_INIT;
    json_t *doc = NULL;
    int64_t started = ad_now_us();
    int rc = ad_cdp_version(port, started + 60 * 1000000LL, &doc, &err);
    int64_t took = ad_now_us() - started;
    kill(server, SIGKILL);
    waitpid(server, NULL, 0);
    assert_int_equal(rc, 0);
    assert_string_equal(json_string_value(json_object_get(doc, "Browser")), "Fake/1.0");
    /* Not held until the deadline by the open connection (a loose bound: 60 s deadline). */
    assert_true(took < 30 * 1000000LL);
    json_decref(doc);
    /* Nothing listens any more: an error, not a document. */
    assert_int_equal(ad_cdp_version(port, ad_now_us() + 1000000, &doc, &err), -1);
    assert_int_equal(err.code, AD_ACTION_FAILED);
    ad_error_clear(&err);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_port_is_in_use_and_time_wait_as_a_server_sees_it),
        cmocka_unit_test(test_version_is_read_to_its_content_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
