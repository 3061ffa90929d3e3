/* test_ffi.c: the C ABI of libagent_desktop_ffi.so: the handshake, envelopes returned as
 * owned strings, the last-error slot, and ad_free_string. Runs without a desktop: status
 * then reports the accessibility bus as unavailable, which is itself a checked outcome. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "agent_desktop.h"

static json_t *parse(char *s)
{
    json_t *j = json_loads(s, 0, NULL);
    ad_free_string(s);
    assert_non_null(j);
    return j;
}

static void test_init_checks_the_major(void **state)
{
    (void)state;
    assert_int_equal(ad_abi_version(), AD_ABI_VERSION_MAJOR);
    assert_int_equal(ad_init(AD_ABI_VERSION_MAJOR + 1), AD_RESULT_ERR_INVALID_ARGS);
    assert_int_equal(ad_last_error_code(), AD_RESULT_ERR_INVALID_ARGS);
    assert_non_null(ad_last_error_message());
    assert_int_equal(ad_init(AD_ABI_VERSION_MAJOR), AD_RESULT_OK);
}

static void test_version_envelope(void **state)
{
    (void)state;
    char *out = NULL;
    assert_int_equal(ad_version(&out), AD_RESULT_OK);
    json_t *env = parse(out);
    assert_string_equal(json_string_value(json_object_get(env, "version")), "2.6");
    assert_true(json_is_true(json_object_get(env, "ok")));
    assert_string_equal(json_string_value(json_object_get(env, "command")), "version");
    json_t *data = json_object_get(env, "data");
    assert_string_equal(json_string_value(json_object_get(data, "os")), "linux");
    json_decref(env);
    assert_int_equal(ad_version(NULL), AD_RESULT_ERR_INVALID_ARGS);
}

static void test_status_without_a_bus(void **state)
{
    (void)state;
    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/ad-test-bus", 1);
    struct AdAdapter *a = ad_adapter_create();
    assert_non_null(a);
    char *out = NULL;
    assert_int_equal(ad_status(a, &out), AD_RESULT_OK);
    json_t *env = parse(out);
    json_t *acc = json_object_get(json_object_get(json_object_get(env, "data"), "permissions"),
                                  "accessibility");
    assert_string_equal(json_string_value(json_object_get(acc, "state")), "denied");
    assert_int_equal(json_array_size(json_object_get(json_object_get(env, "data"),
                                                     "supported_surfaces")), 0);
    json_decref(env);
    assert_int_equal(ad_check_permissions(a), AD_RESULT_ERR_PERM_DENIED);
    ad_adapter_destroy(a);
}

static void test_snapshot_error_envelope_and_last_error(void **state)
{
    (void)state;
    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/ad-test-bus", 1);
    struct AdAdapter *a = ad_adapter_create_with_session("ffi-test");
    char *out = NULL;
    assert_int_equal(ad_snapshot(a, "nope", 0, 5, true, true, &out),
                     AD_RESULT_ERR_PLATFORM_NOT_SUPPORTED);
    json_t *env = parse(out);
    assert_true(json_is_false(json_object_get(env, "ok")));
    assert_int_equal(ad_last_error_code(), AD_RESULT_ERR_PLATFORM_NOT_SUPPORTED);
    assert_non_null(ad_last_error_platform_detail());
    json_decref(env);
    assert_int_equal(ad_snapshot(a, "nope", 99, 5, true, true, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    ad_adapter_destroy(a);
    ad_free_string(NULL);
}

/* A session with a manifest that traces, under the test's AGENT_DESKTOP_HOME. */
static void make_tracing_session(const char *id)
{
    const char *home = getenv("AGENT_DESKTOP_HOME");
    char path[512];
    mkdir(home, 0700);
    snprintf(path, sizeof(path), "%s/sessions", home);
    mkdir(path, 0700);
    snprintf(path, sizeof(path), "%s/sessions/%s", home, id);
    mkdir(path, 0700);
    snprintf(path, sizeof(path), "%s/sessions/%s/session.json", home, id);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"schema\":1,\"session_id\":\"%s\",\"name\":null,\"created_at\":1,"
               "\"ended_at\":null,\"trace\":\"on\",\"artifacts\":\"events\","
               "\"screenshots\":false,\"cursor\":false,\"multi_agent\":false}", id);
    fclose(f);
    chmod(path, 0600);
}

static void test_trace_show_and_export(void **state)
{
    (void)state;
    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/ad-test-bus", 1);
    char *out = NULL;
    struct AdAdapter *none = ad_adapter_create();
    assert_int_equal(ad_trace_show(none, 0, NULL, &out), AD_RESULT_ERR_INVALID_ARGS);
    ad_free_string(out);
    ad_adapter_destroy(none);
    char id[64];
    snprintf(id, sizeof(id), "ffi-trace-%ld", (long)getpid());
    make_tracing_session(id);
    struct AdAdapter *a = ad_adapter_create_with_session(id);
    assert_int_equal(ad_status(a, &out), AD_RESULT_OK);
    ad_free_string(out);
    assert_int_equal(ad_trace_show(a, 0, "command.end", &out), AD_RESULT_OK);
    json_t *env = parse(out);
    json_t *data = json_object_get(env, "data");
    assert_int_equal(json_integer_value(json_object_get(data, "matched_events")), 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(data, "events"), 0), "command")),
                        "status");
    json_decref(env);
    assert_int_equal(ad_trace_export(a, 0, NULL, &out), AD_RESULT_OK);
    env = parse(out);
    const char *path = json_string_value(json_object_get(json_object_get(env, "data"), "path"));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    json_decref(env);
    ad_adapter_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_checks_the_major),
        cmocka_unit_test(test_version_envelope),
        cmocka_unit_test(test_status_without_a_bus),
        cmocka_unit_test(test_snapshot_error_envelope_and_last_error),
        cmocka_unit_test(test_trace_show_and_export),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
