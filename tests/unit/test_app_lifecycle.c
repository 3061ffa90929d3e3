/* test_app_lifecycle.c: close-app through ad_dispatch and the fake adapter (graceful, force,
 * already gone, protected, save prompt), launch's argument checks at every door's validator,
 * the CLI form --cdp [PORT], and the Linux list of protected processes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/parse.h"
#include "core/ctx.h"
#include "fake_adapter.h"
#include "linux/app_close.h"
#include "test_util.h"

/* Each test's state is the fake adapter, with one app "editor" (pid 400) and its window. */
static tu_home home;

static int setup(void **state)
{
    fake_adapter *fake = NULL;
    tu_fake_begin(&home, &fake);
    fake_add_app(fake, "editor", 400);
    fake_add_window(fake, "editor", "Notes", fk("window|n=Notes", NULL));
    *state = fake;
    return 0;
}

static int teardown(void **state)
{
    tu_fake_end(&home, *state);
    return 0;
}

static json_t *close_app(fake_adapter *fake, bool force, int want_exit)
{
    json_t *args = force ? tu_args("close-app", "{s:s, s:b}", "app", "editor", "force", 1)
                         : tu_args("close-app", "{s:s}", "app", "editor");
    return tu_run_exit(fake_base(fake), "close-app", args, NULL, want_exit);
}

static void test_graceful_close_is_verified_by_the_exit(void **state)
{
    fake_adapter *fake = *state;
    json_t *env = close_app(fake, false, 0);
    assert_string_equal(tu_str(env, "data.method"), "graceful");
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_verified");
    assert_string_equal(tu_str(env, "data.details.evidence"), "process_instance_exited");
    assert_string_equal(tu_str(env, "data.target.kind"), "app");
    assert_int_equal(json_integer_value(tu_at(env, "data.target.process.pid")), 400);
    assert_string_equal(tu_str(env, "data.steps.0.label"), "terminate_request");
    assert_true(json_is_true(tu_at(env, "data.steps.1.verified")));
    assert_int_equal(fake->n_close_windows, 1);
    assert_int_equal(fake->n_term + fake->n_kill, 0);
    json_decref(env);
}

static void test_force_terms_then_kills(void **state)
{
    fake_adapter *fake = *state;
    fake->ignores_term = true;
    json_t *env = close_app(fake, true, 0);
    assert_string_equal(tu_str(env, "data.method"), "force");
    assert_string_equal(tu_str(env, "data.steps.0.label"), "terminate_signal");
    assert_string_equal(tu_str(env, "data.steps.1.label"), "kill_signal");
    assert_string_equal(tu_str(env, "data.steps.2.label"), "process_exit");
    assert_int_equal(fake->n_term, 1);
    assert_int_equal(fake->n_kill, 1);
    assert_int_equal(fake->n_close_windows, 0);
    json_decref(env);
}

static void test_an_exited_instance_is_not_delivered(void **state)
{
    fake_adapter *fake = *state;
    fake->apps[0].listed_after_exit = true; /* still in the inventory, its process gone */
    fake_kill(fake, 400);
    json_t *env = close_app(fake, false, 0);
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "not_delivered");
    assert_string_equal(tu_str(env, "data.details.evidence"), "process_instance_not_running");
    assert_int_equal(json_array_size(tu_at(env, "data.steps")), 0);
    assert_int_equal(fake->n_close_windows, 0);
    json_decref(env);
}

static void test_protected_process_is_refused_with_or_without_force(void **state)
{
    fake_adapter *fake = *state;
    fake->protected_pid = 400;
    for (int force = 0; force < 2; force++) {
        json_t *env = close_app(fake, force, 1);
        assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
        assert_string_equal(tu_str(env, "error.details.kind"), "protected_process");
        assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
        json_decref(env);
    }
    assert_int_equal(fake->n_close_windows + fake->n_term + fake->n_kill, 0);
}

static void test_save_prompt_keeps_the_app_and_is_reported(void **state)
{
    fake_adapter *fake = *state;
    fake->close_prompts = true;
    json_t *env = close_app(fake, false, 1);
    assert_string_equal(tu_str(env, "error.code"), "ACTION_FAILED");
    assert_string_equal(tu_str(env, "error.details.kind"), "close_prompt");
    assert_string_equal(tu_str(env, "error.details.prompt.title"), "Unsaved changes");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "delivered_unverified");
    assert_non_null(strstr(tu_str(env, "error.suggestion"), "--surface sheet"));
    assert_true(fake->apps[0].alive);
    json_decref(env);
}

static void test_no_window_to_close_fails_closed(void **state)
{
    fake_adapter *fake = *state;
    fake->no_windows = true;
    json_t *env = close_app(fake, false, 1);
    assert_string_equal(tu_str(env, "error.code"), "ACTION_FAILED");
    assert_string_equal(tu_str(env, "error.details.kind"), "no_window");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    json_decref(env);
}

/* launch's argument rules run in the validator, before the adapter (which has no launch
 * ops here: reaching it would be PLATFORM_NOT_SUPPORTED). */
static void expect_launch_refused(fake_adapter *fake, json_t *args, const char *kind)
{
    json_t *env = tu_run_exit(fake_base(fake), "launch", args, NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    if (kind)
        assert_string_equal(tu_str(env, "error.details.kind"), kind);
    json_decref(env);
}

static void test_launch_argument_rules(void **state)
{
    fake_adapter *fake = *state;
    expect_launch_refused(fake, tu_args("launch", "{s:s, s:[s, s]}", "app", "x", "env", "A=1",
                                     "A=2"), "env_key_repeated");
    expect_launch_refused(fake, tu_args("launch", "{s:s, s:[s]}", "app", "x", "env", "NOEQUALS"),
                          NULL);
    expect_launch_refused(fake, tu_args("launch", "{s:s, s:[s]}", "app", "x", "env", "=v"), NULL);
    expect_launch_refused(fake, tu_args("launch", "{s:s, s:i, s:[s]}", "app", "x", "cdp", 0, "arg",
                                     "--remote-debugging-port=1"), "cdp_switch_conflict");
    expect_launch_refused(fake, tu_args("launch", "{s:s, s:i, s:[s]}", "app", "x", "cdp", 0, "arg",
                                     "--remote-allow-origins=*"), "cdp_switch_conflict");
    json_t *env = tu_run_exit(fake_base(fake), "launch",
                              tu_args("launch", "{s:s, s:i}", "app", "x", "cdp", 70000), NULL, 2);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    /* Distinct keys, and a key that is a prefix of another, are fine: the adapter is
     * reached (and has no launch here). */
    env = tu_run_exit(fake_base(fake), "launch",
                              tu_args("launch", "{s:s, s:[s, s], s:[s]}", "app", "x", "env",
                                      "A=1", "AB=2", "arg", "--remote-debugging-port=1"),
                              NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "PLATFORM_NOT_SUPPORTED");
    json_decref(env);
}

static json_t *parse_launch(int argc, char **argv)
{
    ad_cli_parsed p;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_cli_parse(argc, argv, &p, &err), 0);
    json_t *args = json_incref(p.args);
    ad_cli_parsed_clear(&p);
    return args;
}

static void test_cli_cdp_takes_an_optional_port(void **state)
{
    (void)state;
    char *bare[] = {"agent-desktop", "launch", "chromium", "--cdp"};
    char *port[] = {"agent-desktop", "launch", "chromium", "--cdp", "9229"};
    char *inline_port[] = {"agent-desktop", "launch", "--cdp=0", "chromium"};
    char *before_app[] = {"agent-desktop", "launch", "--cdp", "chromium"};
    json_t *a = parse_launch(4, bare);
    assert_int_equal(json_integer_value(json_object_get(a, "cdp")), 0);
    json_decref(a);
    a = parse_launch(5, port);
    assert_int_equal(json_integer_value(json_object_get(a, "cdp")), 9229);
    assert_string_equal(json_string_value(json_object_get(a, "app")), "chromium");
    json_decref(a);
    a = parse_launch(4, inline_port);
    assert_int_equal(json_integer_value(json_object_get(a, "cdp")), 0);
    json_decref(a);
    a = parse_launch(4, before_app);
    assert_int_equal(json_integer_value(json_object_get(a, "cdp")), 0);
    assert_string_equal(json_string_value(json_object_get(a, "app")), "chromium");
    json_decref(a);
}

/* The Linux list, read from /proc: pid 1, ourselves, our parent, and a process whose
 * executable is named like a display server. */
/* ---- launch's registration polling, over the fake with launch ops of this file -------- */

#define LAUNCHED_PID 4242
#define REGISTERS_AT_POLL 3 /* the app registers while launch waits for its 3rd poll */

static const ad_adapter_ops *fake_ops_of_bed;
static fake_adapter *poll_fake;
static int n_polls, n_checks_after_registration;
static bool app_registered;
static int64_t longest_poll_us;

static int poll_resolve(ad_adapter *a, const char *app, ad_launch_target *ret, ad_error *err)
{
    (void)a, (void)err;
    memset(ret, 0, sizeof(*ret));
    ret->program = strdup("/fake/bin/slowapp");
    ret->name = strdup(app);
    return 0;
}

static int poll_spawn(ad_adapter *a, const ad_launch_target *t, const ad_launch_req *req,
                      int *ret_pid, char **ret_instance, ad_error *err)
{
    (void)a, (void)req, (void)err;
    fake_add_app(poll_fake, t->name, LAUNCHED_PID); /* running, not yet registered */
    *ret_pid = LAUNCHED_PID;
    *ret_instance = strdup("boot:1");
    return 0;
}

/* The registry: the launched app is listed only once it registered. */
static int poll_list_apps(ad_adapter *a, int64_t deadline_us, ad_app_list *ret, ad_error *err)
{
    if (app_registered)
        n_checks_after_registration++;
    int rc = fake_ops_of_bed->list_apps(a, deadline_us, ret, err);
    for (size_t i = 0; rc == 0 && !app_registered && i < ret->count; i++)
        if (ret->items[i].pid == LAUNCHED_PID)
            ret->items[i].pid = 0; /* not matched to the launched process yet */
    return rc;
}

/* Each poll: how long launch would wait for it, recorded without sleeping; the app
 * registers during the REGISTERS_AT_POLL-th. */
static int poll_wait_change(ad_adapter *a, int64_t until_us)
{
    (void)a;
    int64_t span = until_us - ad_now_us();
    if (span > longest_poll_us)
        longest_poll_us = span;
    if (++n_polls == REGISTERS_AT_POLL)
        app_registered = true;
    return 0;
}

static int poll_loopback_port(ad_adapter *a, int port, int *ret_port, ad_error *err)
{
    (void)a, (void)port, (void)err;
    *ret_port = 0;
    return 0;
}

static int poll_cdp_version(ad_adapter *a, int port, int64_t deadline_us, json_t **ret,
                            ad_error *err)
{
    (void)a, (void)port, (void)deadline_us, (void)ret;
    return ad_error_set(err, AD_ACTION_FAILED, "no endpoint in this test");
}

/* launch returns at its first registration check after the app registered, and a check
 * comes at most 20 ms after the one before (commit 256b520: was 50 ms). The polls do not
 * sleep: what is asserted is launch's own schedule and order, not a measured time. */
static void test_launch_returns_at_the_first_poll_after_registration(void **state)
{
    fake_adapter *fake = *state;
    fake_ops_of_bed = fake->base.ops;
    static ad_adapter_ops ops;
    ops = *fake_ops_of_bed;
    ops.launch_resolve = poll_resolve;
    ops.launch_spawn = poll_spawn;
    ops.list_apps = poll_list_apps;
    ops.wait_change = poll_wait_change;
    ops.loopback_port = poll_loopback_port;
    ops.cdp_version = poll_cdp_version;
    fake->base.ops = &ops;
    poll_fake = fake;
    n_polls = n_checks_after_registration = 0;
    app_registered = false;
    longest_poll_us = 0;
    json_t *env = tu_run_exit(fake_base(fake), "launch",
                              tu_args("launch", "{s:s, s:b}", "app", "slowapp", "no_attach", 1),
                              NULL, 0);
    fake->base.ops = fake_ops_of_bed;
    assert_int_equal(tu_int(env, "data.pid"), LAUNCHED_PID);
    assert_true(json_object_get(tu_at(env, "data"), "registered") == NULL);
    assert_int_equal(n_polls, REGISTERS_AT_POLL);   /* no poll after it registered */
    assert_int_equal(n_checks_after_registration, 1); /* the first check saw it */
    assert_true(longest_poll_us > 0);
    assert_true(longest_poll_us <= 20 * 1000);
    json_decref(env);
}

static void test_linux_protected_processes(void **state)
{
    (void)state;
    assert_non_null(ad_proc_protected(1));
    assert_non_null(ad_proc_protected((int)getpid()));
    assert_non_null(ad_proc_protected((int)getppid()));
    char *dir = tu_tmpdir();
    char xvfb[512], cmd[1200];
    snprintf(xvfb, sizeof(xvfb), "%s/Xvfb", dir);
    snprintf(cmd, sizeof(cmd), "cp /bin/sleep '%s'", xvfb);
    assert_int_equal(system(cmd), 0);
    pid_t fake_server = fork();
    if (fake_server == 0) {
        execl(xvfb, "Xvfb", "30", (char *)NULL);
        _exit(127);
    }
    pid_t plain = fork();
    if (plain == 0) {
        execl("/bin/sleep", "sleep", "30", (char *)NULL);
        _exit(127);
    }
    /* Both have exec'd once /proc/<pid>/exe names the new program. */
    char link[64], target[512];
    for (int i = 0; i < 2000; i++) {
        snprintf(link, sizeof(link), "/proc/%d/exe", (int)fake_server);
        ssize_t n = readlink(link, target, sizeof(target) - 1);
        target[n > 0 ? n : 0] = '\0';
        char link2[64], target2[512];
        snprintf(link2, sizeof(link2), "/proc/%d/exe", (int)plain);
        ssize_t n2 = readlink(link2, target2, sizeof(target2) - 1);
        target2[n2 > 0 ? n2 : 0] = '\0';
        if (strstr(target, "/Xvfb") && strstr(target2, "sleep"))
            break;
        usleep(1000);
    }
    const char *server_why = ad_proc_protected((int)fake_server);
    const char *plain_why = ad_proc_protected((int)plain);
    kill(fake_server, SIGKILL);
    kill(plain, SIGKILL);
    waitpid(fake_server, NULL, 0);
    waitpid(plain, NULL, 0);
    tu_rmrf(dir);
    free(dir);
    assert_non_null(server_why);
    assert_null(plain_why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_graceful_close_is_verified_by_the_exit, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_force_terms_then_kills, setup, teardown),
        cmocka_unit_test_setup_teardown(test_an_exited_instance_is_not_delivered, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_protected_process_is_refused_with_or_without_force,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_prompt_keeps_the_app_and_is_reported, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_no_window_to_close_fails_closed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_returns_at_the_first_poll_after_registration,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_argument_rules, setup, teardown),
        cmocka_unit_test(test_cli_cdp_takes_an_optional_port),
        cmocka_unit_test(test_linux_protected_processes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
