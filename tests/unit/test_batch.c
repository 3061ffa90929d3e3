/* test_batch.c: batch through ad_dispatch and the fake adapter (commands/batch.md): the
 * result shape of the spec's example, every rejection before the first entry with nothing
 * run (the fake counts its calls), --stop-on-error, the --timeout-ms budget (not_started
 * rows, a long wait cut at the budget), the output limit, per-entry sessions and ended
 * sessions, the multi-agent rule, PERM_DENIED, and the wait --event baseline read before the
 * action that precedes the wait. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "dispatch/batch.h"
#include "fake_adapter.h"
#include "test_util.h"

static ad_node *form_tree(void)
{
    return fk("window|n=Form", fk("button|n=Save|a=Click", NULL),
              fk("button|n=Open|a=Click", NULL), NULL);
}

/* The state of every test: a tu_bed (one app "form", its window "Form"). */
typedef tu_bed fx;

static int setup(void **state)
{
    *state = tu_bed_new(form_tree());
    return 0;
}

static int teardown(void **state)
{
    tu_bed_free(*state);
    return 0;
}

/* Runs batch with the entries `json` (a JSON text) and extra batch args packed from fmt. */
static json_t *batch(fx *f, const char *json, json_t *extra, json_t *globals, int want_exit)
{
    json_t *args = tu_args("batch", "{s:s}", "json", json);
    if (extra) {
        json_object_update(args, extra);
        json_decref(extra);
    }
    return tu_run_exit(fake_base(f->fake), "batch", args, globals, want_exit);
}

static char *ref_of(fx *f, const char *name)
{
    json_t *env = tu_run_exit(fake_base(f->fake), "snapshot", tu_args("snapshot", "{}"), NULL,
                              0);
    json_t *n = tu_node_named(tu_at(env, "data.tree"), name);
    assert_non_null(n);
    char *ref = strdup(tu_str(n, "ref_id"));
    json_decref(env);
    return ref;
}

/* A click entry on ref (timeout 0: no auto-wait), as JSON text into buf. */
static const char *click_entry(char *buf, size_t size, const char *ref)
{
    snprintf(buf, size, "{\"command\":\"click\",\"args\":{\"ref_id\":\"%s\",\"timeout_ms\":0}}",
             ref);
    return buf;
}

/* A batch of n entries {"command": cmd} (caller frees). */
static char *repeated_entries(const char *cmd, int n)
{
    char *json = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&json, &len);
    fputc('[', m);
    for (int i = 0; i < n; i++)
        fprintf(m, "%s{\"command\":\"%s\"}", i ? "," : "", cmd);
    fputc(']', m);
    fclose(m);
    return json;
}

/* The batch stopped at `index` for `reason`, with these counts. */
static void expect_stopped(const json_t *env, long long index, const char *reason,
                           long long completed, long long not_started)
{
    assert_string_equal(tu_str(env, "data.stopped.reason"), reason);
    assert_int_equal(tu_int(env, "data.stopped.index"), index);
    assert_int_equal(tu_int(env, "data.completed_entries"), completed);
    assert_int_equal(tu_int(env, "data.not_started_entries"), not_started);
}

/* Row `row` did not start, for `reason`, and says nothing was delivered. */
static void expect_not_started(const json_t *env, int row, const char *reason)
{
    json_t *r = json_array_get(tu_at(env, "data.results"), (size_t)row);
    assert_string_equal(tu_str(r, "execution"), "not_started");
    assert_string_equal(tu_str(r, "not_started_reason"), reason);
    assert_false(json_is_true(tu_at(r, "ok")));
    assert_string_equal(tu_str(r, "error.disposition.delivery"), "not_delivered");
}

/* ---- the result ------------------------------------------------------------------------- */

static void test_spec_example_shape(void **state)
{
    fx *f = *state;
    json_t *env = batch(f, "[{\"command\":\"version\"},{\"command\":\"wait\",\"args\":"
                           "{\"ms\":100}}]",
                        json_pack("{s:b}", "stop_on_error", 1), NULL, 0);
    assert_true(json_is_true(tu_at(env, "ok")));
    assert_int_equal(tu_int(env, "data.total_entries"), 2);
    assert_int_equal(tu_int(env, "data.completed_entries"), 2);
    assert_int_equal(tu_int(env, "data.not_started_entries"), 0);
    assert_int_equal(tu_int(env, "data.timeout_ms"), 60000);
    assert_null(tu_at(env, "data.stopped"));
    assert_true(tu_int(env, "data.elapsed_ms") >= 100);
    assert_string_equal(tu_str(env, "data.results.0.command"), "version");
    assert_string_equal(tu_str(env, "data.results.0.execution"), "completed");
    assert_int_equal(tu_int(env, "data.results.0.index"), 0);
    assert_string_equal(tu_str(env, "data.results.0.version"), "2.6");
    assert_string_equal(tu_str(env, "data.results.0.data.os"), "linux");
    assert_int_equal(tu_int(env, "data.results.1.data.waited_ms"), 100);
    json_t *limits = json_pack("{s:i, s:i, s:i}", "max_entries", 64, "max_input_bytes",
                               1048576, "max_output_bytes", 4194304);
    assert_true(json_equal(tu_at(env, "data.limits"), limits));
    json_decref(limits);
    json_t *sem = json_pack("{s:b, s:b, s:s, s:s, s:s, s:s}", "atomic", 0, "batch_retries", 0,
                            "command_retry_contracts", "preserved", "error_disposition",
                            "error.disposition", "order", "sequential",
                            "successful_action_disposition", "data.disposition");
    assert_true(json_equal(tu_at(env, "data.semantics"), sem));
    json_decref(sem);
    json_decref(env);
}

/* ---- validation before the first entry -------------------------------------------------- */

/* Each batch starts with a valid click, so "nothing ran" is the fake's act count. */
static void expect_rejected(fx *f, const char *bad_entry, int index, const char *command,
                            const char *message_part)
{
    char *ref = ref_of(f, "Save");
    char click[256], *json = NULL;
    click_entry(click, sizeof(click), ref);
    assert_true(asprintf(&json, "[%s,%s]", click, bad_entry) > 0);
    int acts = f->fake->n_act;
    json_t *env = batch(f, json, NULL, NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    char want[128];
    snprintf(want, sizeof(want), "Batch entry %d ('%s') failed validation: ", index,
             command ? command : "?");
    const char *msg = tu_str(env, "error.message");
    if (strncmp(msg, want, strlen(want)) != 0 || !strstr(msg, message_part))
        fail_msg("%s: message '%s'", bad_entry, msg);
    assert_int_equal(tu_int(env, "error.details.batch_index"), index);
    if (command)
        assert_string_equal(tu_str(env, "error.details.batch_command"), command);
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    assert_int_equal(f->fake->n_act, acts);
    json_decref(env);
    free(json);
    free(ref);
}

static void test_each_rejection_runs_nothing(void **state)
{
    fx *f = *state;
    expect_rejected(f, "{\"command\":\"click\",\"args\":{\"ref_id\":\"@e1\"}}", 1, "click",
                    "Invalid ref_id '@e1'");
    expect_rejected(f, "{\"command\":\"snapshot\",\"args\":{\"root\":\"@e1\"}}", 1,
                    "snapshot", "'@e1'");
    expect_rejected(f, "{\"command\":\"wait\",\"args\":{\"element\":\"e1\"}}", 1, "wait",
                    "'e1'");
    expect_rejected(f, "{\"command\":\"batch\",\"args\":{\"json\":\"[]\"}}", 1, "batch",
                    "Batch commands cannot be nested");
    expect_rejected(f, "{\"command\":\"cursor-overlay\"}", 1, "cursor-overlay",
                    "cannot run inside a batch");
    expect_rejected(f, "{\"command\":\"no-such\"}", 1, "no-such", "Unknown command");
    expect_rejected(f, "{\"command\":\"version\",\"extra\":1}", 1, "version", "'extra'");
    expect_rejected(f, "{\"command\":\"snapshot\",\"args\":{\"max-depth\":3}}", 1,
                    "snapshot", "max-depth");
    expect_rejected(f, "{\"command\":\"snapshot\",\"args\":{\"max_depth\":\"x\"}}", 1,
                    "snapshot", "--max-depth");
    expect_rejected(f, "{\"command\":\"wait\",\"args\":{\"ms\":-1}}", 1, "wait", "ms");
    expect_rejected(f, "{\"command\":\"version\",\"session\":\"a b\"}", 1, "version", "");
    expect_rejected(f, "{\"command\":\"version\",\"args\":[1]}", 1, "version", "args");
    expect_rejected(f, "{\"args\":{}}", 1, NULL, "command");
    expect_rejected(f, "7", 1, NULL, "object");
}

static void test_limits_and_format_before_parsing(void **state)
{
    fx *f = *state;
    /* Over 1 MiB: refused before parsing, so even invalid JSON gives the size error. */
    size_t n = AD_BATCH_MAX_INPUT_BYTES + 1;
    char *big = malloc(n + 1);
    memset(big, '[', n);
    big[n] = '\0';
    json_t *env = batch(f, big, NULL, NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_non_null(strstr(tu_str(env, "error.message"), "1048576"));
    json_decref(env);
    free(big);
    /* 65 entries. */
    char *many = repeated_entries("version", 65);
    env = batch(f, many, NULL, NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_non_null(strstr(tu_str(env, "error.message"), "64"));
    json_decref(env);
    free(many);
    many = repeated_entries("version", 64); /* 64 run */
    env = batch(f, many, NULL, NULL, 0);
    assert_int_equal(tu_int(env, "data.completed_entries"), 64);
    json_decref(env);
    free(many);
    env = batch(f, "[{\"command\":", NULL, NULL, 1);
    assert_non_null(strstr(tu_str(env, "error.message"), "does not parse"));
    json_decref(env);
    env = batch(f, "{\"command\":\"version\"}", NULL, NULL, 1);
    assert_non_null(strstr(tu_str(env, "error.message"), "array"));
    json_decref(env);
}

static void test_missing_bus_is_perm_denied_for_the_whole_batch(void **state)
{
    fx *f = *state;
    f->fake->bus_available = false;
    json_t *env = batch(f, "[{\"command\":\"version\"},{\"command\":\"list-apps\"}]", NULL,
                        NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "PERM_DENIED");
    assert_int_equal(tu_int(env, "error.details.batch_index"), 1);
    assert_string_equal(tu_str(env, "error.details.batch_command"), "list-apps");
    assert_int_equal(f->fake->n_list_apps, 0);
    json_decref(env);
    /* Commands that need no accessibility bus still run. */
    env = batch(f, "[{\"command\":\"version\"},{\"command\":\"wait\",\"args\":{\"ms\":1}}]",
                NULL, NULL, 0);
    assert_int_equal(tu_int(env, "data.completed_entries"), 2);
    json_decref(env);
    /* A silent bus is unknown, not denied: the entry reports its own error. */
    f->fake->bus_silent = true;
    env = batch(f, "[{\"command\":\"list-apps\"}]", NULL, NULL, 0);
    assert_false(json_is_true(tu_at(env, "data.results.0.ok")));
    json_decref(env);
}

/* Starts a session through `session start` (caller frees the id); ended: then ends it. */
static char *start_session(fx *f, bool multi_agent, bool ended)
{
    json_t *args = multi_agent ? json_pack("{s:s, s:b, s:b}", "action", "start", "cursor", 1,
                                           "multi_agent", 1)
                               : json_pack("{s:s}", "action", "start");
    json_t *env = tu_run_exit(fake_base(f->fake), "session", args, NULL, 0);
    char *id = strdup(tu_str(env, "data.session_id"));
    json_decref(env);
    if (ended)
        json_decref(tu_run_exit(fake_base(f->fake), "session",
                                json_pack("{s:s}", "action", "end"),
                                json_pack("{s:s}", "session", id), 0));
    return id;
}

static void test_multi_agent_rule_through_the_batch(void **state)
{
    fx *f = *state;
    char *multi = start_session(f, true, false);
    char *ref = ref_of(f, "Save");
    char a[256], *json = NULL;
    assert_true(asprintf(&json, "[{\"command\":\"version\",\"session\":\"%s\"},%s]", multi,
                         click_entry(a, sizeof(a), ref)) > 0);
    /* The click runs in the multi-agent session: without an agent id nothing runs. */
    json_t *env = batch(f, json, NULL, json_pack("{s:s}", "session", multi), 1);
    assert_int_equal(tu_int(env, "error.details.batch_index"), 1);
    assert_string_equal(tu_str(env, "error.details.batch_command"), "click");
    assert_non_null(strstr(tu_str(env, "error.message"), "agent id"));
    assert_int_equal(f->fake->n_act, 0);
    json_decref(env);
    /* With one, every entry gets it. */
    env = batch(f, json, NULL, json_pack("{s:s, s:s}", "session", multi, "agent_id", "a1"), 0);
    assert_int_equal(tu_int(env, "data.completed_entries"), 2);
    json_decref(env);
    free(json);
    free(ref);
    free(multi);
}

/* ---- execution -------------------------------------------------------------------------- */

static void test_stop_on_error_and_its_counts(void **state)
{
    fx *f = *state;
    char *save = ref_of(f, "Save");
    char stale[64], a[256], b[256], *json = NULL;
    snprintf(stale, sizeof(stale), "%.*s999", (int)(strrchr(save, 'e') - save + 1), save);
    assert_true(asprintf(&json, "[%s,%s,%s]", click_entry(a, sizeof(a), save),
                         click_entry(b, sizeof(b), stale), a) > 0);
    json_t *env = batch(f, json, json_pack("{s:b}", "stop_on_error", 1), NULL, 0);
    assert_int_equal(f->fake->n_act, 1);
    assert_int_equal(json_array_size(tu_at(env, "data.results")), 2);
    assert_string_equal(tu_str(env, "data.results.1.error.code"), "STALE_REF");
    assert_string_equal(tu_str(env, "data.results.1.execution"), "completed");
    expect_stopped(env, 1, "stop_on_error", 2, 1);
    json_decref(env);
    /* Without it, later entries still run. */
    env = batch(f, json, NULL, NULL, 0);
    assert_int_equal(f->fake->n_act, 3);
    assert_int_equal(tu_int(env, "data.completed_entries"), 3);
    assert_null(tu_at(env, "data.stopped"));
    assert_true(json_is_true(tu_at(env, "data.results.2.ok")));
    json_decref(env);
    free(json);
    free(save);
}

static void test_budget_caps_entries_and_stops_the_batch(void **state)
{
    fx *f = *state;
    /* A wait of 100 s in a 300 ms batch ends with the budget, as a TIMEOUT, not a success. */
    int64_t t0 = ad_now_us();
    json_t *env = batch(f, "[{\"command\":\"wait\",\"args\":{\"ms\":100000}},"
                           "{\"command\":\"version\"}]",
                        json_pack("{s:i}", "timeout_ms", 300), NULL, 0);
    int64_t took_ms = (ad_now_us() - t0) / 1000;
    assert_true(took_ms >= 300 && took_ms < 30000);
    assert_string_equal(tu_str(env, "data.results.0.error.code"), "TIMEOUT");
    assert_string_equal(tu_str(env, "data.results.0.error.details.kind"), "budget_exhausted");
    expect_not_started(env, 1, "deadline");
    expect_stopped(env, 1, "deadline", 1, 1);
    json_decref(env);
    /* An element wait's own 30 s --timeout is capped by the batch's 300 ms too. */
    t0 = ad_now_us();
    env = batch(f, "[{\"command\":\"wait\",\"args\":{\"text\":\"never shown\",\"app\":"
                   "\"form\",\"timeout\":30000}}]",
                json_pack("{s:i}", "timeout_ms", 300), NULL, 0);
    took_ms = (ad_now_us() - t0) / 1000;
    assert_true(took_ms >= 250 && took_ms < 10000);
    assert_string_equal(tu_str(env, "data.results.0.error.code"), "TIMEOUT");
    json_decref(env);
    /* A spent budget starts nothing: one not_started row, the rest counted without rows. */
    char *ref = ref_of(f, "Save");
    char a[256], *json = NULL;
    assert_true(asprintf(&json, "[%s,%s,%s]", click_entry(a, sizeof(a), ref), a, a) > 0);
    env = batch(f, json, json_pack("{s:i}", "timeout_ms", 0), NULL, 0);
    assert_int_equal(f->fake->n_act, 0);
    assert_int_equal(json_array_size(tu_at(env, "data.results")), 1);
    assert_int_equal(tu_int(env, "data.not_started_entries"), 3);
    assert_int_equal(tu_int(env, "data.completed_entries"), 0);
    json_decref(env);
    free(json);
    free(ref);
    /* The ceiling ends with the batch: a later direct call has its full deadlines. */
    assert_int_equal(ad_deadline_ceiling(), INT64_MAX);
}

static void test_output_limit_omits_the_crossing_entry(void **state)
{
    fx *f = *state;
    /* About 0.6 MB per snapshot: the seventh crosses 4 MiB. */
    char spec[1300];
    int head = snprintf(spec, sizeof(spec), "statictext|n=");
    memset(spec + head, 'x', 1200);
    spec[head + 1200] = '\0';
    for (int i = 0; i < 500; i++) {
        spec[head] = (char)('a' + i % 26);
        spec[head + 1] = (char)('a' + i / 26 % 26);
        fk_insert(f->fake->wins[0].root, 0, fk(spec, NULL));
    }
    char *json = repeated_entries("snapshot", 12);
    json_t *env = batch(f, json, NULL, NULL, 0);
    free(json);
    char *out = json_dumps(env, JSON_COMPACT | JSON_ENSURE_ASCII);
    assert_true(strlen(out) <= AD_BATCH_MAX_OUTPUT_BYTES);
    free(out);
    size_t rows = json_array_size(tu_at(env, "data.results"));
    assert_true(rows > 1 && rows < 12);
    json_t *last = json_array_get(tu_at(env, "data.results"), rows - 1);
    assert_string_equal(tu_str(last, "error.code"), "INVALID_ARGS");
    assert_true(json_is_true(tu_at(last, "error.details.result_omitted")));
    assert_string_equal(tu_str(last, "execution"), "completed");
    expect_stopped(env, (long long)rows - 1, "output_limit", (long long)rows,
                   12 - (long long)rows);
    json_decref(env);
}

static void test_entry_sessions(void **state)
{
    fx *f = *state;
    char *gone = start_session(f, false, true), *json = NULL;
    assert_true(asprintf(&json, "[{\"command\":\"status\",\"session\":\"own\"},"
                                "{\"command\":\"status\"},"
                                "{\"command\":\"status\",\"session\":\"%s\"},"
                                "{\"command\":\"version\"}]", gone) > 0);
    json_t *env = batch(f, json, NULL, json_pack("{s:s}", "session", "outer"), 0);
    free(json);
    free(gone);
    assert_string_equal(tu_str(env, "data.results.0.data.session_id"), "own");
    assert_string_equal(tu_str(env, "data.results.1.data.session_id"), "outer");
    expect_not_started(env, 2, "session_ended");
    assert_string_equal(tu_str(env, "data.results.3.execution"), "completed");
    assert_int_equal(tu_int(env, "data.completed_entries"), 3);
    assert_int_equal(tu_int(env, "data.not_started_entries"), 1);
    json_decref(env);
}

/* ---- wait --event after an action ------------------------------------------------------- */

static void open_dialog(fake_adapter *f, const ad_node *target)
{
    (void)target;
    fake_add_window(f, "form", "Dialog", fk("dialog|n=Dialog", NULL));
}

/* Runs [`first` (may be NULL), click Open, wait --event window-opened --app form]. */
static json_t *click_then_event_wait(fx *f, const char *first)
{
    char *ref = ref_of(f, "Open");
    char a[256], *json = NULL;
    assert_true(asprintf(&json, "[%s%s%s,{\"command\":\"wait\",\"args\":{\"event\":"
                                "\"window-opened\",\"app\":\"form\",\"timeout\":2000}}]",
                         first ? first : "", first ? "," : "",
                         click_entry(a, sizeof(a), ref)) > 0);
    json_t *env = batch(f, json, NULL, NULL, 0);
    free(json);
    free(ref);
    return env;
}

static void test_event_baseline_is_read_before_the_action(void **state)
{
    fx *f = *state;
    f->fake->act_effect = open_dialog;
    json_t *env = click_then_event_wait(f, NULL);
    assert_int_equal(f->fake->n_act, 1);
    assert_true(json_is_true(tu_at(env, "data.results.1.ok")));
    assert_string_equal(tu_str(env, "data.results.1.data.event.kind"), "window_opened");
    assert_string_equal(tu_str(env, "data.results.1.data.event.title"), "Dialog");
    json_decref(env);
}

static void test_failed_baseline_starts_nothing(void **state)
{
    fx *f = *state;
    fake_add_app(f->fake, "form", 301); /* two processes: the baseline cannot pick one */
    json_t *env = click_then_event_wait(f, "{\"command\":\"version\"}");
    assert_int_equal(f->fake->n_act, 0);
    expect_not_started(env, 1, "pre_action_baseline_failed");
    expect_stopped(env, 1, "pre_action_baseline_failed", 1, 2);
    json_decref(env);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_spec_example_shape),
        T(test_each_rejection_runs_nothing),
        T(test_limits_and_format_before_parsing),
        T(test_missing_bus_is_perm_denied_for_the_whole_batch),
        T(test_multi_agent_rule_through_the_batch),
        T(test_stop_on_error_and_its_counts),
        T(test_budget_caps_entries_and_stops_the_batch),
        T(test_output_limit_omits_the_crossing_entry),
        T(test_entry_sessions),
        T(test_event_baseline_is_read_before_the_action),
        T(test_failed_baseline_starts_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
