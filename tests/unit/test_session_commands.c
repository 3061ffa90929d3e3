/* test_session_commands.c: the session command and the session refusals through
 * ad_dispatch and the fake adapter: start's output and rules, the ended-session refusal,
 * the multi-agent refusal of desktop actions, and which table entries are desktop actions.
 * The files and gc rules underneath: test_session.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/command_table.h"
#include "fake_adapter.h"
#include "test_util.h"

typedef struct {
    tu_bed *bed;
} dfx;

static int dsetup(void **state)
{
    dfx *f = calloc(1, sizeof(*f));
    f->bed = tu_bed_new(fk("window|n=Form", fk("button|n=Save|a=Click", NULL), NULL));
    *state = f;
    return 0;
}

static int dteardown(void **state)
{
    dfx *f = *state;
    tu_bed_free(f->bed);
    free(f);
    return 0;
}

static json_t *drun(dfx *f, const char *cmd, json_t *args, const char *session,
                    const char *agent, int want_exit)
{
    return tu_run_in(fake_base(f->bed->fake), cmd, args, session, agent, want_exit);
}

static char *start_id(dfx *f, json_t *args)
{
    json_t *env = drun(f, "session", args, NULL, NULL, 0);
    char *id = strdup(tu_str(env, "data.session_id"));
    json_decref(env);
    return id;
}

static char *save_ref(dfx *f, const char *session)
{
    return tu_snapshot_ref(fake_base(f->bed->fake), session, "Save");
}

static void test_start_output_and_warnings(void **state)
{
    dfx *f = *state;
    json_t *env = drun(f, "session", tu_args("session", "{s:s, s:s}", "action", "start",
                                             "name", "docs-example"), NULL, NULL, 0);
    const char *id = tu_str(env, "data.session_id");
    char next[128];
    snprintf(next, sizeof(next), "export AGENT_DESKTOP_SESSION=%s", id);
    assert_string_equal(tu_str(env, "data.next"), next);
    assert_string_equal(tu_str(env, "data.activation.environment"), "AGENT_DESKTOP_SESSION");
    assert_string_equal(tu_str(env, "data.activation.value"), id);
    assert_string_equal(tu_str(env, "data.trace"), "on");
    assert_string_equal(tu_str(env, "data.artifacts"), "events");
    assert_string_equal(tu_str(env, "data.name"), "docs-example");
    assert_non_null(tu_at(env, "data.created_at"));
    assert_null(tu_at(env, "data.warnings")); /* nothing recorded that is not in effect */
    json_decref(env);
    env = drun(f, "session", tu_args("session", "{s:s, s:b, s:b}", "action", "start",
                                     "screenshots", 1, "cursor", 1), NULL, NULL, 0);
    /* --screenshots and --cursor are in effect (core/action_artifacts.h,
     * core/overlay_session.h): no warning */
    assert_string_equal(tu_str(env, "data.artifacts"), "full");
    assert_null(tu_at(env, "data.warnings"));
    json_decref(env);
}

static void test_start_rules(void **state)
{
    dfx *f = *state;
    json_t *env = drun(f, "session", tu_args("session", "{s:s, s:b}", "action", "start",
                                             "multi_agent", 1), NULL, NULL, 2);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = drun(f, "session", tu_args("session", "{s:s, s:b, s:b}", "action", "start",
                                     "screenshots", 1, "no_trace", 1), NULL, NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = drun(f, "session", tu_args("session", "{s:s, s:s}", "action", "start", "name", ""),
               NULL, NULL, 1);
    assert_string_equal(tu_str(env, "error.details.argument"), "name");
    json_decref(env);
    env = drun(f, "session", tu_args("session", "{s:s, s:b}", "action", "list", "ended", 1),
               NULL, NULL, 2);
    assert_string_equal(tu_str(env, "error.details.argument"), "ended");
    json_decref(env);
    /* None of the refused starts made a session. */
    env = drun(f, "session", tu_args("session", "{s:s}", "action", "list"), NULL, NULL, 0);
    assert_int_equal(json_array_size(tu_at(env, "data.sessions")), 0);
    json_decref(env);
}

static void test_ended_session_refuses_all_but_version_skills_and_end(void **state)
{
    dfx *f = *state;
    char *id = start_id(f, tu_args("session", "{s:s}", "action", "start"));
    char *ref = save_ref(f, id);
    json_t *env = drun(f, "session", tu_args("session", "{s:s, s:s}", "action", "end", "id",
                                             id), NULL, NULL, 0);
    json_decref(env);
    const char *cmds[] = {"snapshot", "status", "click"};
    json_t *argv[] = {tu_args("snapshot", "{}"), tu_args("status", "{}"),
                      tu_args("click", "{s:s}", "ref_id", ref)};
    for (size_t i = 0; i < 3; i++) {
        env = drun(f, cmds[i], argv[i], id, NULL, 1);
        assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
        assert_string_equal(tu_str(env, "error.details.kind"), "session_ended");
        assert_string_equal(tu_str(env, "error.details.session_id"), id);
        json_decref(env);
    }
    assert_int_equal(f->bed->fake->n_act, 0);
    json_decref(drun(f, "version", tu_args("version", "{}"), id, NULL, 0));
    json_decref(drun(f, "skills", tu_args("skills", "{}"), id, NULL, 0));
    /* session end with no id ends the selected session again: it succeeds. */
    json_decref(drun(f, "session", tu_args("session", "{s:s}", "action", "end"), id, NULL, 0));
    free(ref);
    free(id);
}

static void test_multi_agent_session_needs_an_agent_id_for_actions(void **state)
{
    dfx *f = *state;
    char *id = start_id(f, tu_args("session", "{s:s, s:b, s:b}", "action", "start", "cursor",
                                   1, "multi_agent", 1));
    char *ref = save_ref(f, id); /* observation needs no agent id */
    json_t *env = drun(f, "click", tu_args("click", "{s:s}", "ref_id", ref), id, NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_string_equal(tu_str(env, "error.details.kind"), "agent_id_required");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    json_decref(env);
    assert_int_equal(f->bed->fake->n_act, 0);
    env = drun(f, "press", tu_args("press", "{s:s}", "combo", "return"), id, NULL, 1);
    assert_string_equal(tu_str(env, "error.details.kind"), "agent_id_required");
    json_decref(env);
    /* With an agent id the same click goes through. */
    json_decref(drun(f, "click", tu_args("click", "{s:s, s:i}", "ref_id", ref, "timeout_ms",
                                         0), id, "agent-a", 0));
    assert_int_equal(f->bed->fake->n_act, 1);
    /* A single-agent session does not ask for one. */
    char *solo = start_id(f, tu_args("session", "{s:s}", "action", "start"));
    char *ref2 = save_ref(f, solo);
    json_decref(drun(f, "click", tu_args("click", "{s:s, s:i}", "ref_id", ref2, "timeout_ms",
                                         0), solo, NULL, 0));
    assert_int_equal(f->bed->fake->n_act, 2);
    /* An invalid agent id is INVALID_ARGS whatever the session. */
    env = drun(f, "snapshot", tu_args("snapshot", "{}"), solo, "bad id!", 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    free(ref), free(ref2), free(id), free(solo);
}

/* Every table entry that acts on an app is a desktop action; observation is not. */
static void test_desktop_action_marks(void **state)
{
    (void)state;
    const char *acts[] = {"launch", "close-app", "focus-window", "click", "type", "scroll",
                          "press", "hover", "drag", "mouse-click", "notification-action",
                          "open-system-surface", "key-down"};
    const char *not[] = {"snapshot", "find", "get", "wait", "clipboard-set", "status",
                         "session", "list-notifications", "batch"};
    for (size_t i = 0; i < sizeof(acts) / sizeof(*acts); i++)
        assert_true(ad_command_find(acts[i])->desktop_action);
    for (size_t i = 0; i < sizeof(not) / sizeof(*not); i++)
        assert_false(ad_command_find(not[i])->desktop_action);
}

int main(void)
{
#define D(fn) cmocka_unit_test_setup_teardown(fn, dsetup, dteardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desktop_action_marks),
        D(test_start_output_and_warnings),
        D(test_start_rules),
        D(test_ended_session_refuses_all_but_version_skills_and_end),
        D(test_multi_agent_session_needs_an_agent_id_for_actions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
