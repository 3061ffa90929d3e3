/* test_traces.c: the trace writer (segments, seq, budget, --trace PATH, --trace-strict),
 * redaction, and trace show's merge order, through ad_dispatch and the fake adapter. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands/trace_read.h"
#include "core/trace_redact.h"
#include "dispatch/trace_writer.h"
#include "fake_adapter.h"
#include "test_util.h"

/* ---- redaction ---- */

static void test_sensitive_keys(void **state)
{
    (void)state;
    const char *hidden[] = {"text", "value", "name", "title", "url", "label", "description",
                            "password", "windowTitle", "window_title", "URLValue", "accessibleName",
                            "json", "Value"};
    for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
        assert_true(ad_trace_key_sensitive(hidden[i]));
    const char *readable[] = {"app", "app_name", "command", "ref", "snapshot_id", "code",
                              "duration_ms", "context", "role", "event", "total_matches"};
    for (size_t i = 0; i < sizeof(readable) / sizeof(readable[0]); i++)
        assert_false(ad_trace_key_sensitive(readable[i]));
}

static void test_redact_nested_and_secure(void **state)
{
    (void)state;
    json_t *v = json_loads("{\"command\":\"type\",\"args\":{\"ref_id\":\"@s1:e2\",\"text\":"
                           "\"hunter2\",\"items\":[{\"windowTitle\":\"Bank\",\"n\":1}]},"
                           "\"node\":{\"secure\":true,\"role\":\"textfield\",\"value\":"
                           "\"hunter3\"},\"pw\":{\"role\":\"password text\",\"text\":\"x9\"}}",
                           0, NULL);
    ad_trace_redact(v);
    char *s = json_dumps(v, JSON_SORT_KEYS);
    assert_null(strstr(s, "hunter2"));
    assert_null(strstr(s, "hunter3"));
    assert_null(strstr(s, "Bank"));
    assert_null(strstr(s, "x9"));
    assert_string_equal(tu_str(v, "command"), "type");
    assert_string_equal(tu_str(v, "args.ref_id"), "@s1:e2");
    assert_true(json_is_true(tu_at(v, "args.text.redacted")));
    assert_true(json_is_true(tu_at(v, "args.items.0.windowTitle.redacted")));
    /* A secure field's value is gone, not even marked. */
    assert_null(tu_at(v, "node.value"));
    assert_null(tu_at(v, "pw.text"));
    assert_string_equal(tu_str(v, "node.role"), "textfield");
    free(s);
    json_decref(v);
}

/* ---- reading back ---- */

static void test_merge_keeps_segment_order(void **state)
{
    (void)state;
    json_t *events = json_array();
    json_t *warnings = json_array();
    /* Two writers at the same millisecond, and one a millisecond earlier. */
    const char *a = "{\"event\":\"trace.meta\",\"seq\":0,\"ts_ms\":10,\"segment\":\"2-5\"}\n"
                    "{\"event\":\"command.start\",\"seq\":1,\"ts_ms\":10,\"segment\":\"2-5\"}\n"
                    "{\"event\":\"command.end\",\"seq\":2,\"ts_ms\":12,\"segment\":\"2-5\"}\n";
    const char *b = "{\"event\":\"trace.meta\",\"seq\":0,\"ts_ms\":9,\"segment\":\"1-5\"}\n"
                    "{\"event\":\"command.start\",\"seq\":1,\"ts_ms\":10,\"segment\":\"1-5\"}\n"
                    "not json\n"
                    "{\"event\":\"command.end\",\"seq\":2,\"ts_ms\":11,\"segment\":\"1-5\"}\n"
                    "{\"event\":\"torn";
    ad_trace_segment_parse("2-5", a, strlen(a), events, warnings);
    ad_trace_segment_parse("1-5", b, strlen(b), events, warnings);
    ad_trace_merge(events);
    const char *want[][2] = {{"1-5", "0"}, {"1-5", "1"}, {"2-5", "0"}, {"2-5", "1"},
                             {"1-5", "2"}, {"2-5", "2"}};
    assert_int_equal(json_array_size(events), 6);
    for (size_t i = 0; i < 6; i++) {
        json_t *ev = json_array_get(events, i);
        assert_string_equal(tu_str(ev, "segment"), want[i][0]);
        assert_int_equal(tu_int(ev, "seq"), atoi(want[i][1]));
    }
    assert_int_equal(json_array_size(warnings), 2);
    assert_int_equal(tu_int(warnings, "0.line"), 3);
    assert_int_equal(tu_int(warnings, "1.line"), 5);
    /* The prefix applies before the limit. */
    size_t matched = 0;
    json_t *sel = ad_trace_select(events, "command.end", 1, &matched);
    assert_int_equal(matched, 2);
    assert_int_equal(json_array_size(sel), 1);
    assert_string_equal(tu_str(sel, "0.segment"), "2-5");
    json_decref(sel);
    json_decref(events);
    json_decref(warnings);
}

/* ---- the writer through dispatch ---- */

typedef struct {
    tu_bed *bed;
    char *session_dir, *trace_dir, *segment;
} fx;

static void mkdir_private(const char *path)
{
    assert_true(mkdir(path, 0700) == 0);
}

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    f->bed = tu_bed_new(fk("window|n=Form", fk("button|n=Save|a=Click|b=10,10,80,30", NULL),
                           fk("button|n=Busy|a=Click|s=disabled", NULL),
                           fk("textfield|n=Secret|a=SetValue|cap=editable|secure", NULL),
                           fk("group|n=Box", fk("group|n=Mid", fk("group|n=Deep",
                              fk("button|n=Inner|a=Click", NULL), NULL), NULL), NULL), NULL));
    char *sessions = NULL, *manifest = NULL;
    assert_true(asprintf(&sessions, "%s/sessions", f->bed->home.state) > 0);
    assert_true(asprintf(&f->session_dir, "%s/s1", sessions) > 0);
    assert_true(asprintf(&f->trace_dir, "%s/trace", f->session_dir) > 0);
    assert_true(asprintf(&manifest, "%s/session.json", f->session_dir) > 0);
    assert_true(asprintf(&f->segment, "%s/%ld-%lld.jsonl", f->trace_dir, (long)getpid(),
                         (long long)ad_trace_proc_start_ms()) > 0);
    mkdir_private(f->bed->home.state);
    mkdir_private(sessions);
    mkdir_private(f->session_dir);
    tu_write_file(manifest, "{\"schema\":1,\"session_id\":\"s1\",\"name\":null,\"created_at\":1,"
                            "\"ended_at\":null,\"trace\":\"on\",\"artifacts\":\"events\","
                            "\"screenshots\":false,\"cursor\":false,\"multi_agent\":false}");
    free(sessions);
    free(manifest);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    tu_bed_free(f->bed);
    free(f->session_dir);
    free(f->trace_dir);
    free(f->segment);
    free(f);
    return 0;
}

static json_t *run(fx *f, const char *cmd, json_t *args, json_t *globals, int want_exit)
{
    return tu_run_exit(fake_base(f->bed->fake), cmd, args, globals, want_exit);
}

static json_t *in_session(void)
{
    return json_pack("{s:s}", "session", "s1");
}

/* Every line of a file as JSON (each must parse), or an empty array when it is absent. */
static json_t *lines_of(const char *path)
{
    json_t *out = json_array();
    size_t len = 0;
    char *text = tu_read_file(path, &len);
    for (char *p = text; p && *p;) {
        char *nl = strchr(p, '\n');
        assert_non_null(nl);
        json_t *ev = json_loadb(p, (size_t)(nl - p), 0, NULL);
        assert_non_null(ev);
        json_array_append_new(out, ev);
        p = nl + 1;
    }
    free(text);
    return out;
}

static void test_session_segment(void **state)
{
    fx *f = *state;
    json_decref(run(f, "snapshot", tu_args("snapshot", "{}"), in_session(), 0));
    json_t *st = run(f, "status", tu_args("status", "{}"), in_session(), 0);
    assert_true(json_is_true(tu_at(st, "data.tracing")));
    json_decref(st);
    struct stat sb;
    assert_int_equal(stat(f->trace_dir, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0700);
    assert_int_equal(stat(f->segment, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    json_t *lines = lines_of(f->segment);
    const char *want[] = {"trace.meta", "command.start", "snapshot.saved", "command.end",
                          "command.start", "command.end"};
    assert_int_equal(json_array_size(lines), 6);
    for (size_t i = 0; i < 6; i++) {
        json_t *ev = json_array_get(lines, i);
        assert_string_equal(tu_str(ev, "event"), want[i]);
        /* seq counts the segment's lines, across the two commands of this process. */
        assert_int_equal(tu_int(ev, "seq"), (long long)i);
        assert_string_equal(tu_str(ev, "session_id"), "s1");
        assert_int_equal(tu_int(ev, "writer_pid"), getpid());
    }
    assert_int_equal(tu_int(lines, "0.schema"), 1);
    assert_string_equal(tu_str(lines, "0.os"), "linux");
    assert_string_equal(tu_str(lines, "2.app"), "form");
    assert_true(json_is_true(tu_at(lines, "3.ok")));
    assert_true(json_is_integer(tu_at(lines, "3.duration_ms")));
    json_decref(lines);
}

static void test_ref_action_events_and_secret(void **state)
{
    fx *f = *state;
    json_t *env = run(f, "snapshot", tu_args("snapshot", "{}"), in_session(), 0);
    const char *save = tu_str(tu_node_named(tu_at(env, "data.tree"), "Save"), "ref_id");
    const char *secret = tu_str(tu_node_named(tu_at(env, "data.tree"), "Secret"), "ref_id");
    json_decref(run(f, "click", tu_args("click", "{s:s}", "ref_id", save), in_session(), 0));
    json_decref(run(f, "set-value", tu_args("set-value", "{s:s, s:s}", "ref_id", secret,
                                            "value", "hunter2"), in_session(), 0));
    json_decref(run(f, "click", tu_args("click", "{s:s}", "ref_id", "@s0000000:e1"),
                    in_session(), 1));
    json_decref(env);
    size_t len = 0;
    char *text = tu_read_file(f->segment, &len);
    assert_null(strstr(text, "hunter2"));
    free(text);
    json_t *lines = lines_of(f->segment);
    int ok = 0, checks = 0, errors = 0;
    size_t i;
    json_t *ev;
    json_array_foreach(lines, i, ev) {
        const char *e = tu_str(ev, "event");
        ok += strcmp(e, "ref.resolve.ok") == 0;
        checks += strcmp(e, "actionability.check.ok") == 0;
        if (strcmp(e, "ref.resolve.error") == 0) {
            errors++;
            assert_string_equal(tu_str(ev, "code"), "SNAPSHOT_NOT_FOUND");
        }
    }
    assert_int_equal(ok, 2);
    assert_int_equal(checks, 2);
    assert_int_equal(errors, 1);
    json_decref(lines);
}

/* The events of one name in the segment. */
static json_t *events_named(fx *f, const char *name)
{
    json_t *lines = lines_of(f->segment), *out = json_array();
    size_t i;
    json_t *ev;
    json_array_foreach(lines, i, ev) if (strcmp(tu_str(ev, "event"), name) == 0)
        json_array_append(out, ev);
    json_decref(lines);
    return out;
}

static void test_checks_error_and_drill(void **state)
{
    fx *f = *state;
    json_t *env = run(f, "snapshot", tu_args("snapshot", "{s:b}", "skeleton", 1), in_session(), 0);
    const char *busy = tu_str(tu_node_named(tu_at(env, "data.tree"), "Busy"), "ref_id");
    const char *box = tu_str(tu_node_named(tu_at(env, "data.tree"), "Deep"), "ref_id");
    json_decref(run(f, "click", tu_args("click", "{s:s, s:i}", "ref_id", busy, "timeout_ms", 0),
                    in_session(), 1));
    json_decref(run(f, "snapshot", tu_args("snapshot", "{s:s}", "root", box), in_session(), 0));
    json_t *checks = events_named(f, "actionability.check.error");
    assert_int_equal(json_array_size(checks), 1);
    assert_string_equal(tu_str(checks, "0.ref"), busy);
    assert_non_null(tu_str(checks, "0.code"));
    json_t *drills = events_named(f, "snapshot.root.saved");
    assert_int_equal(json_array_size(drills), 1);
    assert_string_equal(tu_str(drills, "0.root"), box);
    assert_string_equal(tu_str(drills, "0.snapshot_id"), tu_str(env, "data.snapshot_id"));
    json_t *ends = events_named(f, "command.end");
    assert_true(json_is_false(tu_at(ends, "1.ok")));
    assert_string_equal(tu_str(ends, "1.code"), tu_str(checks, "0.code"));
    json_decref(checks);
    json_decref(drills);
    json_decref(ends);
    json_decref(env);
}

static void test_trace_path_takes_the_events(void **state)
{
    fx *f = *state;
    char *path = NULL;
    assert_true(asprintf(&path, "%s/run.jsonl", f->bed->home.dir) > 0);
    json_t *g = json_pack("{s:s, s:s, s:s}", "session", "s1", "trace", path, "agent_id", "a1");
    json_decref(run(f, "status", tu_args("status", "{}"), g, 0));
    json_t *lines = lines_of(path);
    assert_int_equal(json_array_size(lines), 3);
    assert_string_equal(tu_str(lines, "1.agent_id"), "a1");
    assert_string_equal(tu_str(lines, "2.event"), "command.end");
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    /* The session's trace received nothing. */
    assert_int_equal(access(f->trace_dir, F_OK), -1);
    json_decref(lines);
    free(path);
}

static void test_strict(void **state)
{
    fx *f = *state;
    /* Nothing to trace: INVALID_ARGS. */
    json_t *g = json_pack("{s:b}", "trace_strict", 1);
    json_t *env = run(f, "status", tu_args("status", "{}"), g, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    /* A trace that cannot be opened fails the click before it acts. */
    env = run(f, "snapshot", tu_args("snapshot", "{}"), NULL, 0);
    char *save = strdup(tu_str(tu_node_named(tu_at(env, "data.tree"), "Save"), "ref_id"));
    json_decref(env);
    g = json_pack("{s:b, s:s}", "trace_strict", 1, "trace", f->bed->home.dir);
    env = run(f, "click", tu_args("click", "{s:s}", "ref_id", save), g, 1);
    assert_string_equal(tu_str(env, "error.details.kind"), "trace_unavailable");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    assert_int_equal(f->bed->fake->n_act, 0);
    json_decref(env);
    /* Without --trace-strict the same failure only loses the trace. */
    g = json_pack("{s:s}", "trace", f->bed->home.dir);
    json_decref(run(f, "click", tu_args("click", "{s:s}", "ref_id", save), g, 0));
    assert_int_equal(f->bed->fake->n_act, 1);
    free(save);
}

static void write_segment_of(fx *f, const char *name, const char *text)
{
    mkdir(f->trace_dir, 0700);
    char *path = NULL;
    assert_true(asprintf(&path, "%s/%s", f->trace_dir, name) > 0);
    tu_write_file(path, text);
    assert_int_equal(chmod(path, 0600), 0); /* as a writer leaves it */
    free(path);
}

/* A segment of this process the seq table does not know (evicted by other segments, or
 * written before): numbering goes on after its last line, without a second trace.meta. */
static void test_own_segment_resumes(void **state)
{
    fx *f = *state;
    write_segment_of(f, strrchr(f->segment, '/') + 1,
                     "{\"event\":\"trace.meta\",\"seq\":0,\"ts_ms\":1}\n"
                     "{\"event\":\"command.end\",\"seq\":4,\"ts_ms\":2}\n");
    json_decref(run(f, "status", tu_args("status", "{}"), in_session(), 0));
    json_t *lines = lines_of(f->segment);
    assert_int_equal(json_array_size(lines), 4);
    assert_string_equal(tu_str(lines, "2.event"), "command.start");
    assert_int_equal(tu_int(lines, "2.seq"), 5);
    assert_int_equal(tu_int(lines, "3.seq"), 6);
    json_decref(lines);
}

static void test_budget_events(void **state)
{
    fx *f = *state;
    const char *full = "{\"event\":\"command.end\",\"seq\":99999,\"ts_ms\":1,\"segment\":\"1-1\"}\n";
    write_segment_of(f, "1-1.jsonl", full);
    json_decref(run(f, "status", tu_args("status", "{}"), in_session(), 0));
    json_t *lines = lines_of(f->segment);
    assert_int_equal(json_array_size(lines), 0);
    json_decref(lines);
    /* Old events stay readable. */
    json_t *env = run(f, "trace", tu_args("trace", "{s:s}", "action", "show"), in_session(), 0);
    assert_int_equal(tu_int(env, "data.total_events"), 1);
    json_decref(env);
}

static void test_budget_bytes(void **state)
{
    fx *f = *state;
    write_segment_of(f, "1-1.jsonl", "");
    char *path = NULL;
    assert_true(asprintf(&path, "%s/1-1.jsonl", f->trace_dir) > 0);
    assert_int_equal(truncate(path, AD_TRACE_BYTES_MAX - 100), 0); /* sparse: cheap */
    json_decref(run(f, "status", tu_args("status", "{}"), in_session(), 0));
    json_t *lines = lines_of(f->segment);
    /* trace.meta (~200 bytes) does not fit in the last 100 bytes. */
    assert_int_equal(json_array_size(lines), 0);
    json_decref(lines);
    free(path);
}

static void test_budget_entries(void **state)
{
    fx *f = *state;
    for (int i = 0; i < AD_TRACE_ENTRIES_MAX; i++) {
        char name[32];
        snprintf(name, sizeof(name), "%d-1.jsonl", 100000 + i);
        write_segment_of(f, name, "");
    }
    json_decref(run(f, "status", tu_args("status", "{}"), in_session(), 0));
    assert_int_equal(access(f->segment, F_OK), -1);
    assert_int_equal(tu_count_entries(f->trace_dir), AD_TRACE_ENTRIES_MAX);
}

static void test_show_needs_recorded_events(void **state)
{
    fx *f = *state;
    json_t *env = run(f, "trace", tu_args("trace", "{s:s}", "action", "show"), in_session(), 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    env = run(f, "trace", tu_args("trace", "{s:s}", "action", "show"), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    json_decref(run(f, "snapshot", tu_args("snapshot", "{}"), in_session(), 0));
    env = run(f, "trace", tu_args("trace", "{s:s, s:s}", "action", "show", "event", "snapshot."),
              in_session(), 0);
    assert_int_equal(tu_int(env, "data.matched_events"), 1);
    assert_int_equal(tu_int(env, "data.segments"), 1);
    assert_string_equal(tu_str(env, "data.events.0.event"), "snapshot.saved");
    json_decref(env);
}

static void assert_once(const char *text, const char *needle)
{
    const char *first = strstr(text, needle);
    assert_non_null(first);
    assert_null(strstr(first + 1, needle));
}

/* Exports the session's trace to a new file; returns its HTML (the caller frees) and the
 * envelope in *ret_env (the caller's). */
static char *export_html(fx *f, json_t **ret_env)
{
    char *out = NULL;
    assert_true(asprintf(&out, "%s/view.html", f->bed->home.dir) > 0);
    *ret_env = run(f, "trace", tu_args("trace", "{s:s, s:s}", "action", "export", "out", out),
                   in_session(), 0);
    char *html = tu_read_file(out, NULL);
    assert_non_null(html);
    free(out);
    return html;
}

static void test_export_embeds_screens(void **state)
{
    fx *f = *state;
    /* An action.artifacts event as a screenshot session records it: one image present, one
     * missing (skipped, not an error). */
    write_segment_of(f, "1-1.jsonl",
                     "{\"event\":\"trace.meta\",\"seq\":0,\"ts_ms\":1,\"segment\":\"1-1\"}\n"
                     "{\"event\":\"action.artifacts\",\"seq\":1,\"ts_ms\":2,\"segment\":"
                     "\"1-1\",\"before\":\"screens/b.png\",\"after\":\"screens/gone.png\"}\n");
    char *screens = NULL, *png = NULL;
    assert_true(asprintf(&screens, "%s/screens", f->trace_dir) > 0);
    assert_true(asprintf(&png, "%s/b.png", screens) > 0);
    mkdir_private(screens);
    tu_write_file(png, "\x89PNG-not-really");
    json_t *env = NULL;
    char *html = export_html(f, &env);
    assert_int_equal(tu_int(env, "data.screenshots_embedded"), 1);
    assert_int_equal(tu_int(env, "data.screenshots_skipped"), 1);
    /* The export's default limit is 5000, not show's 500. */
    assert_int_equal(tu_int(env, "data.returned_events"), tu_int(env, "data.total_events"));
    assert_non_null(strstr(html, "src=\"data:image/png;base64,iVBORy1ub3QtcmVhbGx5\""));
    assert_once(html, "<img"); /* the missing one has no image */
    free(html);
    json_decref(env);
    free(screens);
    free(png);
}

/* Writes one segment, then exports the session's trace; returns the HTML (the caller
 * frees). */
static char *export_segment(fx *f, const char *name, const char *text)
{
    write_segment_of(f, name, text);
    json_t *env = NULL;
    char *html = export_html(f, &env);
    json_decref(env);
    return html;
}

/* One command's start and end lines of segment pid-start_ms, started at start_ms (the
 * caller frees). */
static char *command_lines(const char *command, int pid, int start_ms, int duration_ms)
{
    char *text = NULL;
    assert_true(asprintf(&text,
                         "{\"event\":\"command.start\",\"seq\":0,\"ts_ms\":%d,"
                         "\"segment\":\"%d-%d\",\"command\":\"%s\"}\n"
                         "{\"event\":\"command.end\",\"seq\":1,\"ts_ms\":%d,"
                         "\"segment\":\"%d-%d\",\"command\":\"%s\",\"ok\":true,"
                         "\"duration_ms\":%d}\n",
                         start_ms, pid, start_ms, command, start_ms + duration_ms, pid,
                         start_ms, command, duration_ms) > 0);
    return text;
}

/* A trace line is data, never markup: a hostile event name or field cannot add an element
 * or end the viewer's script. */
static void test_export_escapes_event_text(void **state)
{
    fx *f = *state;
    char *html = export_segment(
        f, "1-1.jsonl",
        "{\"event\":\"x<script>alert(1)</script>\",\"seq\":0,\"ts_ms\":1,"
        "\"segment\":\"1-1\\\" onmouseover=\\\"a()\",\"command\":\"<img src=x>\","
        "\"ok\":false,\"code\":\"</td></tr></table><b>\"}\n");
    assert_null(strstr(html, "<script>alert"));
    assert_null(strstr(html, "<img src=x>"));
    assert_null(strstr(html, "</table><b>"));
    assert_null(strstr(html, "\" onmouseover"));
    assert_non_null(strstr(html, "x&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_once(html, "<script>"); /* the viewer's own */
    free(html);
}

/* The commands table lists commands in the order they started, each at its start time: a
 * long command that another process's short one ran inside ends last in the timeline. */
static void test_export_lists_commands_in_start_order(void **state)
{
    fx *f = *state;
    char *long_one = command_lines("long-one", 10, 100, 400);
    char *short_one = command_lines("short-one", 11, 200, 100);
    write_segment_of(f, "10-100.jsonl", long_one);
    char *html = export_segment(f, "11-200.jsonl", short_one);
    free(long_one);
    free(short_one);
    const char *table = strstr(html, "<table id=\"commands\">");
    assert_non_null(table);
    const char *end = strstr(table, "</table>");
    const char *first = strstr(table, "long-one"), *second = strstr(table, "short-one");
    assert_non_null(first);
    assert_non_null(second);
    assert_true(first < second && second < end);
    /* Each row shows when its command started. */
    assert_non_null(strstr(table, "<td>00:00:00.100</td><td>long-one</td>"));
    assert_non_null(strstr(table, "<td>00:00:00.200</td><td>short-one</td>"));
    free(html);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sensitive_keys),
        cmocka_unit_test(test_redact_nested_and_secure),
        cmocka_unit_test(test_merge_keeps_segment_order),
        cmocka_unit_test_setup_teardown(test_session_segment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ref_action_events_and_secret, setup, teardown),
        cmocka_unit_test_setup_teardown(test_checks_error_and_drill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_path_takes_the_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strict, setup, teardown),
        cmocka_unit_test_setup_teardown(test_own_segment_resumes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_budget_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_budget_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_budget_entries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_show_needs_recorded_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export_embeds_screens, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export_escapes_event_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export_lists_commands_in_start_order, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
