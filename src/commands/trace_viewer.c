/* trace_viewer.c: the trace export's HTML (trace_viewer.h). */
#include "commands/trace_viewer.h"

#include "core/text_buf.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *str(const json_t *ev, const char *key)
{
    return json_string_value(json_object_get(ev, key));
}

static void put_time(ad_buf *b, json_int_t ts_ms)
{
    time_t s = (time_t)(ts_ms / 1000);
    struct tm tm;
    char text[32] = "?";
    if (gmtime_r(&s, &tm))
        strftime(text, sizeof(text), "%H:%M:%S", &tm);
    ad_buf_putf(b, "%s.%03d", text, (int)(ts_ms % 1000));
}

/* The keys every event has, shown in their own columns rather than under details. */
static bool common_key(const char *k)
{
    static const char *const keys[] = {"event", "seq", "ts_ms", "segment", "session_id",
                                       "writer_pid", "writer_proc_start_ms", "command", "ok",
                                       "duration_ms", "code"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (strcmp(k, keys[i]) == 0)
            return true;
    return false;
}

static void put_details(ad_buf *b, const json_t *ev)
{
    json_t *rest = json_object();
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)ev, k, v) if (!common_key(k)) json_object_set(rest, k, v);
    if (json_object_size(rest)) {
        char *s = json_dumps(rest, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
        ad_buf_put_escaped(b, s);
        free(s);
    }
    json_decref(rest);
}

static void put_outcome(ad_buf *b, const json_t *ev)
{
    json_t *ok = json_object_get(ev, "ok");
    if (json_is_true(ok))
        ad_buf_put(b, "<span class=\"ok\">ok</span>");
    else if (json_is_false(ok) || str(ev, "code")) { /* a failed command, or a failed step */
        ad_buf_put(b, "<span class=\"bad\">error ");
        ad_buf_put_escaped(b, str(ev, "code"));
        ad_buf_put(b, "</span>");
    }
}

static const char style[] =
    "body{font:14px system-ui,sans-serif;margin:16px;color:#1a1a1a;background:#fafafa}"
    "h1{font-size:20px}h2{font-size:16px;margin-top:24px}"
    "table{border-collapse:collapse;width:100%;background:#fff}"
    "th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}"
    "th{background:#eef}td.details{font:12px monospace;word-break:break-all}"
    ".ok{color:#0a6b0a;font-weight:600}.bad{color:#b00020;font-weight:600}"
    "tr.snapshot td{background:#f2f8ff}tr.failed td{background:#fff0f0}"
    "#filters label{margin-right:10px;white-space:nowrap}.hidden{display:none}"
    "img{max-width:45%;border:1px solid #ccc;margin:4px}";

/* Filters: the text box keeps events whose name starts with it, each checkbox shows or hides
 * one event name, "failures only" keeps failed commands. */
static const char script[] =
    "(function(){var rows=[].slice.call(document.querySelectorAll('tr.ev'));"
    "var box=document.getElementById('prefix'),fail=document.getElementById('failures');"
    "var checks=[].slice.call(document.querySelectorAll('input.evname'));"
    "function apply(){var p=box.value,off={},n=0;checks.forEach(function(c){"
    "if(!c.checked)off[c.value]=1;});rows.forEach(function(r){var e=r.dataset.event;"
    "var show=e.indexOf(p)===0&&!off[e]&&(!fail.checked||r.dataset.failed==='1');"
    "r.classList.toggle('hidden',!show);if(show)n++;});"
    "document.getElementById('shown').textContent=n;}"
    "box.addEventListener('input',apply);fail.addEventListener('change',apply);"
    "checks.forEach(function(c){c.addEventListener('change',apply);});apply();})();";

static void put_filters(ad_buf *b, const json_t *events)
{
    json_t *names = json_object();
    size_t i;
    json_t *ev;
    json_array_foreach(events, i, ev) {
        const char *e = str(ev, "event");
        if (e) {
            json_t *c = json_object_get(names, e);
            json_object_set_new(names, e, json_integer(c ? json_integer_value(c) + 1 : 1));
        }
    }
    ad_buf_put(b, "<div id=\"filters\"><label>Event prefix <input id=\"prefix\" type=\"text\" "
           "placeholder=\"command.\"></label><label><input id=\"failures\" type=\"checkbox\">"
           " failed commands only</label><br>");
    const char *k;
    json_t *v;
    json_object_foreach(names, k, v) {
        ad_buf_put(b, "<label><input class=\"evname\" type=\"checkbox\" checked value=\"");
        ad_buf_put_escaped(b, k);
        ad_buf_put(b, "\"> ");
        ad_buf_put_escaped(b, k);
        ad_buf_putf(b, " (%" JSON_INTEGER_FORMAT ")</label>", json_integer_value(v));
    }
    ad_buf_put(b, "</div>");
    json_decref(names);
}

/* A command.end row of the commands table, keyed by when its command started. */
typedef struct {
    json_int_t start_ms; /* ts_ms - duration_ms: the end event alone says when it began */
    size_t index;        /* in the timeline, to keep equal starts in end order */
    const json_t *end;
} command_row;

static int by_start(const void *a, const void *b)
{
    const command_row *x = a, *y = b;
    if (x->start_ms != y->start_ms)
        return x->start_ms < y->start_ms ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The commands in the order they started, each at its start time: the timeline holds their
 * command.end events in end order, which puts a long command after the ones that ran inside
 * it (two processes, or the C library's threads). */
static void put_commands(ad_buf *b, const json_t *events)
{
    ad_buf_put(b, "<h2>Commands</h2><table id=\"commands\"><tr><th>Started (UTC)</th>"
           "<th>Command</th><th>Outcome</th><th>Duration</th></tr>");
    command_row *rows = calloc(json_array_size(events) + 1, sizeof(*rows));
    if (!rows) {
        b->failed = true;
        return;
    }
    size_t n = 0, i;
    json_t *ev;
    json_array_foreach(events, i, ev) {
        const char *e = str(ev, "event");
        if (!e || strcmp(e, "command.end") != 0)
            continue;
        rows[n++] = (command_row){json_integer_value(json_object_get(ev, "ts_ms")) -
                                      json_integer_value(json_object_get(ev, "duration_ms")),
                                  i, ev};
    }
    qsort(rows, n, sizeof(*rows), by_start);
    for (i = 0; i < n; i++) {
        ev = (json_t *)rows[i].end;
        ad_buf_put(b, json_is_false(json_object_get(ev, "ok")) ? "<tr class=\"failed\"><td>" : "<tr><td>");
        put_time(b, rows[i].start_ms);
        ad_buf_put(b, "</td><td>");
        ad_buf_put_escaped(b, str(ev, "command"));
        ad_buf_put(b, "</td><td>");
        put_outcome(b, ev);
        ad_buf_putf(b, "</td><td>%" JSON_INTEGER_FORMAT " ms</td></tr>",
             json_integer_value(json_object_get(ev, "duration_ms")));
    }
    free(rows);
    ad_buf_put(b, "</table>");
}

static void put_screens(ad_buf *b, const json_t *pair)
{
    const char *before = str(pair, "before"), *after = str(pair, "after");
    if (before) {
        ad_buf_put(b, "<div>before <img alt=\"before\" src=\"");
        ad_buf_put_escaped(b, before);
        ad_buf_put(b, "\"></div>");
    }
    if (after) {
        ad_buf_put(b, "<div>after <img alt=\"after\" src=\"");
        ad_buf_put_escaped(b, after);
        ad_buf_put(b, "\"></div>");
    }
}

static void put_timeline(ad_buf *b, const ad_trace_viewer_input *in)
{
    ad_buf_put(b, "<h2>Timeline (<span id=\"shown\"></span> shown)</h2><table id=\"timeline\"><tr>"
           "<th>Time (UTC)</th><th>Segment</th><th>Seq</th><th>Event</th><th>Command</th>"
           "<th>Outcome</th><th>Duration</th><th>Details</th></tr>");
    size_t i;
    json_t *ev;
    json_array_foreach(in->events, i, ev) {
        const char *e = str(ev, "event");
        bool failed = json_is_false(json_object_get(ev, "ok"));
        bool snap = e && strncmp(e, "snapshot.", 9) == 0;
        ad_buf_putf(b, "<tr class=\"ev%s%s\" data-failed=\"%d\" data-seq=\"%" JSON_INTEGER_FORMAT
                "\" data-event=\"", failed ? " failed" : "", snap ? " snapshot" : "", failed,
             json_integer_value(json_object_get(ev, "seq")));
        ad_buf_put_escaped(b, e);
        ad_buf_put(b, "\" data-segment=\"");
        ad_buf_put_escaped(b, str(ev, "segment"));
        ad_buf_put(b, "\"><td>");
        put_time(b, json_integer_value(json_object_get(ev, "ts_ms")));
        ad_buf_put(b, "</td><td>");
        ad_buf_put_escaped(b, str(ev, "segment"));
        ad_buf_putf(b, "</td><td>%" JSON_INTEGER_FORMAT "</td><td>",
             json_integer_value(json_object_get(ev, "seq")));
        ad_buf_put_escaped(b, e);
        ad_buf_put(b, "</td><td>");
        ad_buf_put_escaped(b, str(ev, "command"));
        ad_buf_put(b, "</td><td>");
        put_outcome(b, ev);
        ad_buf_put(b, "</td><td>");
        if (json_is_integer(json_object_get(ev, "duration_ms")))
            ad_buf_putf(b, "%" JSON_INTEGER_FORMAT " ms",
                 json_integer_value(json_object_get(ev, "duration_ms")));
        ad_buf_put(b, "</td><td class=\"details\">");
        put_details(b, ev);
        put_screens(b, json_array_get(in->screens, i));
        ad_buf_put(b, "</td></tr>");
    }
    ad_buf_put(b, "</table>");
}

char *ad_trace_viewer_html(const ad_trace_viewer_input *in, size_t *len)
{
    ad_buf b = {0};
    ad_buf_put(&b, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
            "<title>agent-desktop trace ");
    ad_buf_put_escaped(&b, in->session_id);
    ad_buf_put(&b, "</title><style>");
    ad_buf_put(&b, style);
    ad_buf_put(&b, "</style></head><body><h1>agent-desktop trace <code>");
    ad_buf_put_escaped(&b, in->session_id);
    ad_buf_putf(&b, "</code></h1><p id=\"summary\">%zu of %zu events%s. Times are UTC. Sensitive "
             "fields read {\"redacted\": true}; screenshots are not redacted.</p>",
         json_array_size(in->events), in->total_events,
         in->truncated ? " (the earliest were left out: export with --limit 0 for all)" : "");
    put_filters(&b, in->events);
    put_commands(&b, in->events);
    put_timeline(&b, in);
    ad_buf_put(&b, "<script>");
    ad_buf_put(&b, script);
    ad_buf_put(&b, "</script></body></html>\n");
    if (b.failed) {
        free(b.buf);
        return NULL;
    }
    *len = b.len;
    return b.buf;
}
