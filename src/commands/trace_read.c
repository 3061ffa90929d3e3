/* trace_read.c: segment parsing, merge order and selection (trace_read.h). */
#include "commands/trace_read.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/state_files.h"
#include "dispatch/trace_writer.h"

static void warn(json_t *warnings, const char *segment, size_t line, const char *reason)
{
    json_t *w = json_pack("{s:s, s:s}", "segment", segment, "reason", reason);
    if (line)
        json_object_set_new(w, "line", json_integer((json_int_t)line));
    json_array_append_new(warnings, w);
}

void ad_trace_segment_parse(const char *segment, const char *text, size_t len, json_t *events,
                            json_t *warnings)
{
    size_t line = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        line++;
        if (!nl) {
            warn(warnings, segment, line, "the last line is incomplete");
            break;
        }
        json_t *ev = n ? json_loadb(text + at, n, 0, NULL) : NULL;
        if (json_is_object(ev) && json_is_string(json_object_get(ev, "event")))
            json_array_append_new(events, ev);
        else {
            json_decref(ev);
            warn(warnings, segment, line, "not a trace event (JSON object with an event)");
        }
        at += n + 1;
    }
}

static int compare_events(const void *pa, const void *pb)
{
    const json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
    json_int_t ta = json_integer_value(json_object_get(a, "ts_ms"));
    json_int_t tb = json_integer_value(json_object_get(b, "ts_ms"));
    if (ta != tb)
        return ta < tb ? -1 : 1;
    const char *sa = json_string_value(json_object_get(a, "segment"));
    const char *sb = json_string_value(json_object_get(b, "segment"));
    int c = strcmp(sa ? sa : "", sb ? sb : "");
    if (c)
        return c;
    json_int_t qa = json_integer_value(json_object_get(a, "seq"));
    json_int_t qb = json_integer_value(json_object_get(b, "seq"));
    return qa < qb ? -1 : qa > qb;
}

void ad_trace_merge(json_t *events)
{
    size_t n = json_array_size(events);
    json_t **items = n ? malloc(n * sizeof(*items)) : NULL;
    if (!items)
        return;
    for (size_t i = 0; i < n; i++)
        items[i] = json_incref(json_array_get(events, i));
    qsort(items, n, sizeof(*items), compare_events);
    json_array_clear(events);
    for (size_t i = 0; i < n; i++)
        json_array_append_new(events, items[i]);
    free(items);
}

static int no_trace(ad_error *err, const char *why)
{
    ad_error_set(err, AD_INVALID_ARGS, "trace needs an active session with a trace: %s", why);
    ad_error_suggest(err, "Select a session that traces with --session ID or "
                          "AGENT_DESKTOP_SESSION, and run commands in it first");
    return -1;
}

int ad_trace_timeline_read(ad_ctx *ctx, ad_trace_timeline *ret, ad_error *err)
{
    *ret = (ad_trace_timeline){0};
    if (!ctx->session_id)
        return no_trace(err, "no session is selected");
    ad_state_dir dir = AD_STATE_DIR_INIT;
    int rc = ad_trace_dir_open(ctx->state_root, ctx->session_id, false, &dir, err);
    if (rc < 0)
        return -1;
    if (rc > 0)
        return no_trace(err, "the session recorded nothing");
    ret->events = json_array();
    ret->warnings = json_array();
    DIR *d = ad_state_dir_entries(&dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!ad_trace_is_segment_name(e->d_name))
            continue;
        char *text = NULL;
        size_t len = 0;
        ad_error ferr = AD_ERROR_INIT;
        char segment[256];
        snprintf(segment, sizeof(segment), "%.*s", (int)(strlen(e->d_name) - 6), e->d_name);
        /* A segment that is not a private regular file of this user is skipped, not read. */
        if (ad_state_file_read(&dir, e->d_name, AD_TRACE_SEGMENT_READ_MAX, &text, &len,
                               &ferr) == 0) {
            ret->segments++;
            ad_trace_segment_parse(segment, text, len, ret->events, ret->warnings);
        } else if (ferr.message) {
            warn(ret->warnings, segment, 0, ferr.message);
        }
        ad_error_clear(&ferr);
        free(text);
    }
    if (d)
        closedir(d);
    ad_state_dir_close(&dir);
    ad_trace_merge(ret->events);
    return 0;
}

json_t *ad_trace_select(const json_t *events, const char *prefix, int64_t limit,
                        size_t *ret_matched)
{
    json_t *matched = json_array();
    size_t i;
    json_t *ev;
    size_t plen = prefix ? strlen(prefix) : 0;
    json_array_foreach(events, i, ev) {
        const char *name = json_string_value(json_object_get(ev, "event"));
        if (!prefix || (name && strncmp(name, prefix, plen) == 0))
            json_array_append(matched, ev);
    }
    *ret_matched = json_array_size(matched);
    if (limit <= 0 || (size_t)limit >= json_array_size(matched))
        return matched;
    json_t *last = json_array();
    for (size_t k = json_array_size(matched) - (size_t)limit; k < json_array_size(matched); k++)
        json_array_append(last, json_array_get(matched, k));
    json_decref(matched);
    return last;
}

void ad_trace_timeline_clear(ad_trace_timeline *t)
{
    json_decref(t->events);
    json_decref(t->warnings);
    *t = (ad_trace_timeline){0};
}
