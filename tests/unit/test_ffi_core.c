/* test_ffi_core.c: the adapter's life (revocation, calls in flight, concurrent calls), the
 * argument checks of ad_execute_by_ref and ad_wait, the log callback and the per-thread last
 * error, through the shared library, without a desktop (the bus address points nowhere). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "agent_desktop.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The error code of an envelope (owned string, freed here), or "" when ok. */
static void assert_envelope_code(char *out, const char *code)
{
    assert_non_null(out);
    json_t *env = json_loads(out, 0, NULL);
    ad_free_string(out);
    assert_non_null(env);
    const char *c = json_string_value(json_object_get(json_object_get(env, "error"), "code"));
    assert_string_equal(c ? c : "", code);
    json_decref(env);
}

static AdWaitArgs pause_args(uint64_t ms)
{
    AdWaitArgs w;
    memset(&w, 0, sizeof(w));
    w.mode.pause.present = true;
    w.mode.pause.value = ms;
    w.scope.timeout_ms = 30000;
    return w;
}

static void test_calls_after_destroy_fail_with_invalid_args(void **state)
{
    (void)state;
    struct AdAdapter *a = ad_adapter_create_with_session(NULL);
    assert_non_null(a);
    char *out = (char *)1;
    assert_int_equal(ad_status(a, &out), AD_RESULT_OK);
    ad_free_string(out);
    ad_adapter_destroy(a);
    /* The same pointer, after destroy: refused, never a use after free (ASan checks). */
    out = (char *)1;
    assert_int_equal(ad_status(a, &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_null(out);
    assert_int_equal(ad_last_error_code(), AD_RESULT_ERR_INVALID_ARGS);
    assert_non_null(strstr(ad_last_error_message(), "destroyed"));
    AdWaitArgs w = pause_args(1);
    assert_int_equal(ad_wait(a, &w, &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_null(out);
    ad_adapter_destroy(a); /* a second destroy is a no-op */
    ad_adapter_destroy(NULL);
}

/* A pause (wait MS, a read) running on another thread. */
typedef struct {
    struct AdAdapter *adapter;
    uint64_t pause_ms;
    pthread_barrier_t start;
    pthread_t thread;
    AdResult rc;
    atomic_llong ended_ms;
} waiter;

static void *run_pause(void *p)
{
    waiter *w = p;
    pthread_barrier_wait(&w->start);
    AdWaitArgs args = pause_args(w->pause_ms);
    char *out = NULL;
    w->rc = ad_wait(w->adapter, &args, &out);
    atomic_store(&w->ended_ms, now_ms());
    ad_free_string(out);
    return NULL;
}

/* Starts a pause of pause_ms on a new adapter on another thread, and returns once it had a
 * head start of 200 ms, so the pause is in flight when the caller goes on. */
static void start_pause(waiter *w, uint64_t pause_ms)
{
    *w = (waiter){.adapter = ad_adapter_create(), .pause_ms = pause_ms};
    assert_non_null(w->adapter);
    pthread_barrier_init(&w->start, NULL, 2);
    pthread_create(&w->thread, NULL, run_pause, w);
    pthread_barrier_wait(&w->start);
    sleep_ms(200);
}

/* Joins the pause, which succeeded. */
static void join_pause(waiter *w)
{
    pthread_join(w->thread, NULL);
    pthread_barrier_destroy(&w->start);
    assert_int_equal(w->rc, AD_RESULT_OK);
}

static void test_destroy_waits_for_the_call_in_flight(void **state)
{
    (void)state;
    /* On a loaded machine destroy may still win the race to the adapter (the pause then
     * fails with INVALID_ARGS, which the contract allows): retry until a pause was in flight. */
    bool overlapped = false;
    for (int attempt = 0; attempt < 5 && !overlapped; attempt++) {
        waiter w;
        start_pause(&w, 1000);
        ad_adapter_destroy(w.adapter);
        int64_t destroyed_ms = now_ms();
        pthread_join(w.thread, NULL);
        pthread_barrier_destroy(&w.start);
        char *out = NULL;
        assert_int_equal(ad_status(w.adapter, &out), AD_RESULT_ERR_INVALID_ARGS);
        if (w.rc == AD_RESULT_ERR_INVALID_ARGS)
            continue; /* destroy came first */
        /* The call was in flight: it succeeded, and destroy returned only after it ended. */
        assert_int_equal(w.rc, AD_RESULT_OK);
        assert_true(atomic_load(&w.ended_ms) <= destroyed_ms);
        overlapped = true;
    }
    assert_true(overlapped);
}

static void test_reads_on_one_adapter_run_concurrently(void **state)
{
    (void)state;
    /* A long pause (a read) in flight on another thread; a status on the same adapter here
     * must not wait for it: it returns while the pause is still running. With one lock per
     * adapter it would end after the pause. */
    waiter w;
    start_pause(&w, 3000);
    char *out = NULL;
    assert_int_equal(ad_status(w.adapter, &out), AD_RESULT_OK);
    ad_free_string(out);
    assert_true(atomic_load(&w.ended_ms) == 0);
    join_pause(&w);
    ad_adapter_destroy(w.adapter);
}

static void test_execute_by_ref_checks_before_dispatch(void **state)
{
    (void)state;
    struct AdAdapter *a = ad_adapter_create();
    AdAction act;
    memset(&act, 0, sizeof(act));
    act.kind = AD_ACTION_KIND_CLICK;
    char *out = (char *)1;
    /* A bare ref and a malformed one: INVALID_ARGS, nothing allocated. */
    assert_int_equal(ad_execute_by_ref(a, "@e1", &act, AD_POLICY_KIND_HEADLESS, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    assert_null(out);
    assert_non_null(ad_last_error_suggestion());
    assert_int_equal(ad_execute_by_ref(a, "s1:e1", &act, AD_POLICY_KIND_HEADLESS, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    assert_null(out);
    assert_int_equal(ad_execute_by_ref(a, NULL, &act, AD_POLICY_KIND_HEADLESS, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    /* Enums out of range. */
    assert_int_equal(ad_execute_by_ref(a, "@sabc:e1", &act, 3, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    act.kind = 21;
    assert_int_equal(ad_execute_by_ref(a, "@sabc:e1", &act, 0, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    act.kind = AD_ACTION_KIND_SCROLL;
    act.scroll.direction = 4;
    assert_int_equal(ad_execute_by_ref(a, "@sabc:e1", &act, 0, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    assert_null(out);
    int32_t mods[] = {AD_MODIFIER_CTRL, 9};
    act.kind = AD_ACTION_KIND_KEY_DOWN;
    act.key = (AdKeyCombo){"a", mods, 2};
    assert_int_equal(ad_execute_by_ref(a, "@sabc:e1", &act, 0, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    act.kind = AD_ACTION_KIND_TYPE_TEXT; /* text is required */
    assert_int_equal(ad_execute_by_ref(a, "@sabc:e1", &act, 0, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    act.kind = AD_ACTION_KIND_CLICK;
    assert_int_equal(ad_execute_by_ref_timeout(a, "@sabc:e1", &act, 0, -2, &out),
                     AD_RESULT_ERR_INVALID_ARGS);
    assert_null(out);
    /* No ref form: fails closed, nothing sent. */
    act.kind = AD_ACTION_KIND_PRESS_KEY;
    act.key = (AdKeyCombo){"return", NULL, 0};
    assert_int_equal(ad_execute_by_ref(a, "@sabc:e1", &act, 0, &out),
                     AD_RESULT_ERR_ACTION_NOT_SUPPORTED);
    assert_null(out);
    AdDeliverySemantics sem;
    assert_int_equal(ad_last_error_delivery_semantics(&sem), AD_RESULT_OK);
    assert_int_equal(sem.delivery, AD_DELIVERY_DISPOSITION_NOT_DELIVERED);
    /* A well-formed ref of a snapshot that does not exist: the command's own failure. */
    act.kind = AD_ACTION_KIND_CLICK;
    assert_int_equal(ad_execute_by_ref_timeout(a, "@snosuchsnap:e1", &act, 0, 0, &out),
                     AD_RESULT_ERR_SNAPSHOT_NOT_FOUND);
    assert_envelope_code(out, "SNAPSHOT_NOT_FOUND");
    assert_int_equal(ad_last_error_code(), AD_RESULT_ERR_SNAPSHOT_NOT_FOUND);
    /* The reserved key-down reaches its command, which fails closed like the CLI's. */
    act.kind = AD_ACTION_KIND_KEY_DOWN;
    act.key = (AdKeyCombo){"a", mods, 1};
    out = NULL;
    AdResult rc = ad_execute_by_ref(a, "@sabc:e1", &act, 0, &out);
    assert_true(rc < 0);
    assert_non_null(out);
    ad_free_string(out);
    ad_adapter_destroy(a);
}

static void test_wait_takes_the_cli_mode_rules(void **state)
{
    (void)state;
    struct AdAdapter *a = ad_adapter_create();
    AdWaitArgs w;
    memset(&w, 0, sizeof(w));
    char *out = NULL;
    /* No mode at all: the validator's rule, with its envelope. */
    assert_int_equal(ad_wait(a, &w, &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_envelope_code(out, "INVALID_ARGS");
    /* Two modes at once. */
    w.mode.window = "Calculator";
    w.mode.text = "7";
    assert_int_equal(ad_wait(a, &w, &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_envelope_code(out, "INVALID_ARGS");
    /* --predicate without --element. */
    memset(&w, 0, sizeof(w));
    w.mode.window = "Calculator";
    w.predicate.predicate = "enabled";
    assert_int_equal(ad_wait(a, &w, &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_envelope_code(out, "INVALID_ARGS");
    /* A bad UTF-8 string is an argument failure: no envelope. */
    memset(&w, 0, sizeof(w));
    w.mode.text = "\xff\xfe";
    out = (char *)1;
    assert_int_equal(ad_wait(a, &w, &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_null(out);
    /* A bare element ref: refused before dispatch, like every ref the ABI takes. */
    memset(&w, 0, sizeof(w));
    w.mode.element = "@e3";
    out = (char *)1;
    assert_int_equal(ad_wait(a, &w, &out), AD_RESULT_ERR_INVALID_ARGS);
    assert_null(out);
    assert_non_null(ad_last_error_suggestion());
    /* A pause: ok. */
    w = pause_args(5);
    assert_int_equal(ad_wait(a, &w, &out), AD_RESULT_OK);
    assert_envelope_code(out, "");
    assert_int_equal(ad_wait(a, NULL, &out), AD_RESULT_ERR_INVALID_ARGS);
    ad_adapter_destroy(a);
}

static atomic_int log_lines;
static atomic_int version_lines;

static void on_log(int32_t level, const char *msg)
{
    atomic_fetch_add(&log_lines, 1);
    if (level == 4 && strstr(msg, "version: ok"))
        atomic_fetch_add(&version_lines, 1);
}

static void test_log_callback_receives_the_log_lines(void **state)
{
    (void)state;
    assert_int_equal(ad_set_log_callback(on_log), AD_RESULT_OK);
    char *out = NULL;
    assert_int_equal(ad_version(&out), AD_RESULT_OK);
    ad_free_string(out);
    assert_int_equal(atomic_load(&version_lines), 1);
    assert_int_equal(ad_set_log_callback(NULL), AD_RESULT_OK);
    int before = atomic_load(&log_lines);
    assert_int_equal(ad_version(&out), AD_RESULT_OK);
    ad_free_string(out);
    assert_int_equal(atomic_load(&log_lines), before);
}

static void *fail_once(void *p)
{
    (void)p;
    /* A failure fills this thread's slot with owned strings; the thread's exit frees them
     * (LeakSanitizer reports them otherwise). */
    AdResult rc = ad_init(AD_ABI_VERSION_MAJOR + 1);
    return (void *)(intptr_t)(rc == ad_last_error_code() ? rc : 0);
}

static void test_last_error_is_per_thread_and_freed_at_exit(void **state)
{
    (void)state;
    char *out = NULL;
    assert_int_equal(ad_version(NULL), AD_RESULT_ERR_INVALID_ARGS);
    const char *mine = ad_last_error_message();
    for (int i = 0; i < 16; i++) {
        pthread_t t;
        void *code = NULL;
        pthread_create(&t, NULL, fail_once, NULL);
        pthread_join(t, &code);
        assert_int_equal((intptr_t)code, AD_RESULT_ERR_INVALID_ARGS);
    }
    /* Other threads' failures left this thread's slot as it was. */
    assert_ptr_equal(ad_last_error_message(), mine);
    assert_non_null(strstr(mine, "out"));
    (void)out;
}

int main(void)
{
    setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/ad-test-bus", 1);
    setenv("AT_SPI_BUS_ADDRESS", "unix:path=/nonexistent/ad-test-a11y", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calls_after_destroy_fail_with_invalid_args),
        cmocka_unit_test(test_destroy_waits_for_the_call_in_flight),
        cmocka_unit_test(test_reads_on_one_adapter_run_concurrently),
        cmocka_unit_test(test_execute_by_ref_checks_before_dispatch),
        cmocka_unit_test(test_wait_takes_the_cli_mode_rules),
        cmocka_unit_test(test_log_callback_receives_the_log_lines),
        cmocka_unit_test(test_last_error_is_per_thread_and_freed_at_exit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
