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
        cmocka_unit_test_setup_teardown(test_launch_argument_rules, setup, teardown),
        cmocka_unit_test(test_cli_cdp_takes_an_optional_port),
        cmocka_unit_test(test_linux_protected_processes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
