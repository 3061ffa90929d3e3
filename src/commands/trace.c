/* trace.c: trace show and trace export (commands/system.md, trace). Both read the active
 * session's segments only, never a --trace PATH file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "core/base64.h"
#include "commands/trace_read.h"
#include "commands/trace_viewer.h"
#include "core/ctx.h"
#include "core/private_file.h"
#include "core/state_files.h"
#include "core/utf8.h"
#include "dispatch/trace_writer.h"

/* What the session recorded besides trace.meta lines and the trace command's own events
 * (this very command has written its command.start before the handler runs). */
static size_t recorded_events(const json_t *events)
{
    size_t n = 0, i;
    json_t *ev;
    json_array_foreach(events, i, ev) {
        const char *e = json_string_value(json_object_get(ev, "event"));
        const char *c = json_string_value(json_object_get(ev, "command"));
        if (e && strcmp(e, "trace.meta") != 0 && !(c && strcmp(c, "trace") == 0))
            n++;
    }
    return n;
}

static int read_recorded(ad_ctx *ctx, ad_trace_timeline *t, ad_error *err)
{
    if (ad_trace_timeline_read(ctx, t, err) < 0)
        return -1;
    if (recorded_events(t->events) == 0) {
        ad_trace_timeline_clear(t);
        ad_error_set(err, AD_INVALID_ARGS, "Session '%s' has recorded no trace events",
                     ctx->session_id);
        ad_error_suggest(err, "Run commands in the session first, then read its trace");
        return -1;
    }
    return 0;
}

static int trace_show(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    ad_trace_timeline t;
    if (read_recorded(ctx, &t, err) < 0)
        return -1;
    const char *prefix = ad_arg_str(args, "event");
    int64_t limit = ad_arg_int(args, "limit");
    size_t matched = 0;
    json_t *events = ad_trace_select(t.events, prefix, limit, &matched);
    json_t *d = json_object();
    json_object_set_new(d, "session_id", json_string(ctx->session_id));
    json_object_set_new(d, "segments", json_integer((json_int_t)t.segments));
    json_object_set_new(d, "total_events", json_integer((json_int_t)json_array_size(t.events)));
    json_object_set_new(d, "returned_events", json_integer((json_int_t)json_array_size(events)));
    json_object_set_new(d, "truncated", json_boolean(json_array_size(events) < matched));
    if (prefix)
        json_object_set_new(d, "matched_events", json_integer((json_int_t)matched));
    if (json_array_size(t.warnings))
        json_object_set_new(d, "warnings", json_incref(t.warnings));
    json_object_set_new(d, "events", events);
    ad_trace_timeline_clear(&t);
    *ret_data = d;
    return 0;
}

#define SCREEN_MAX (16 * 1024 * 1024)

/* One image an action.artifacts event names ("screens/NAME.png", relative to trace/) as a
 * data: URI (malloc'd, the caller frees), or NULL when it is not there or not a private file
 * of this user. */
static char *screen_uri(const ad_state_dir *screens, const char *rel)
{
    if (!rel || strncmp(rel, "screens/", 8) != 0 || strchr(rel + 8, '/') || !rel[8])
        return NULL;
    char *bytes = NULL;
    size_t len = 0;
    ad_error e = AD_ERROR_INIT;
    char *uri = NULL;
    if (ad_state_file_read(screens, rel + 8, SCREEN_MAX, &bytes, &len, &e) == 0)
        uri = ad_base64_encode((const unsigned char *)bytes, len, "data:image/png;base64,");
    ad_error_clear(&e);
    free(bytes);
    return uri;
}

/* The before/after images of each embedded action.artifacts event, by event index: a new
 * array the caller owns, one {before?, after?} object per event. An image that cannot be
 * read counts in *skipped, one embedded in *embedded. */
static json_t *embed_screens(ad_ctx *ctx, const json_t *events, size_t *embedded,
                             size_t *skipped)
{
    json_t *screens = json_array();
    ad_state_dir trace = AD_STATE_DIR_INIT, dir = AD_STATE_DIR_INIT;
    ad_error e = AD_ERROR_INIT;
    bool open = ad_trace_dir_open(ctx->state_root, ctx->session_id, false, &trace, &e) == 0 &&
                ad_state_dir_sub(&trace, "screens", false, &dir, &e) == 0;
    ad_error_clear(&e);
    size_t i;
    json_t *ev;
    json_array_foreach(events, i, ev) {
        json_t *pair = json_object();
        const char *name = json_string_value(json_object_get(ev, "event"));
        for (int k = 0; name && strcmp(name, "action.artifacts") == 0 && k < 2; k++) {
            const char *side = k ? "after" : "before";
            const char *rel = json_string_value(json_object_get(ev, side));
            if (!rel)
                continue;
            char *uri = open ? screen_uri(&dir, rel) : NULL;
            if (uri) {
                json_object_set_new(pair, side, json_string(uri));
                (*embedded)++;
            } else {
                (*skipped)++;
            }
            free(uri);
        }
        json_array_append_new(screens, pair);
    }
    ad_state_dir_close(&dir);
    ad_state_dir_close(&trace);
    return screens;
}

/* The default export: trace-<session>.html in the session directory, replaced atomically. */
static int write_default(ad_ctx *ctx, const char *html, size_t len, char **ret_path,
                         ad_error *err)
{
    char name[128];
    snprintf(name, sizeof(name), "trace-%s.html", ctx->session_id);
    ad_state_dir ns = AD_STATE_DIR_INIT;
    int rc = ad_state_namespace_open(ctx->state_root, ctx->session_id, false, &ns, err);
    if (rc > 0)
        rc = ad_error_set(err, AD_INVALID_ARGS, "The session directory is missing");
    if (rc == 0)
        rc = ad_state_file_write(&ns, name, html, len, err);
    if (rc == 0) {
        size_t n = strlen(ns.path) + strlen(name) + 2;
        *ret_path = malloc(n);
        if (*ret_path)
            snprintf(*ret_path, n, "%s/%s", ns.path, name);
    }
    ad_state_dir_close(&ns);
    return rc;
}

static int trace_export(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    ad_trace_timeline t;
    if (read_recorded(ctx, &t, err) < 0)
        return -1;
    size_t matched = 0, embedded = 0, skipped = 0;
    json_t *events = ad_trace_select(t.events, NULL, ad_arg_int(args, "limit"), &matched);
    json_t *screens = embed_screens(ctx, events, &embedded, &skipped);
    ad_trace_viewer_input in = {.session_id = ctx->session_id, .events = events,
                                .total_events = json_array_size(t.events),
                                .truncated = json_array_size(events) < matched,
                                .screens = screens};
    size_t len = 0;
    char *html = ad_trace_viewer_html(&in, &len);
    const char *out = ad_arg_str(args, "out");
    char *path = NULL;
    int rc = -1;
    if (!html)
        ad_error_set(err, AD_INTERNAL, "out of memory");
    else if (out)
        rc = ad_private_file_write(out, html, len, true, "trace export", NULL, err);
    else
        rc = write_default(ctx, html, len, &path, err);
    if (rc == 0) {
        json_t *d = json_object();
        json_object_set_new(d, "bytes", json_integer((json_int_t)len));
        json_object_set_new(d, "event_count", json_integer((json_int_t)json_array_size(events)));
        json_object_set_new(d, "path", ad_json_text(out ? out : path));
        json_object_set_new(d, "returned_events",
                            json_integer((json_int_t)json_array_size(events)));
        json_object_set_new(d, "screenshots_embedded", json_integer((json_int_t)embedded));
        json_object_set_new(d, "screenshots_skipped", json_integer((json_int_t)skipped));
        json_object_set_new(d, "total_events", json_integer((json_int_t)in.total_events));
        json_object_set_new(d, "truncated", json_boolean(in.truncated));
        *ret_data = d;
    }
    free(path);
    free(html);
    json_decref(screens);
    json_decref(events);
    ad_trace_timeline_clear(&t);
    return rc;
}

int ad_cmd_trace(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *action = ad_arg_str(args, "action");
    if (action && strcmp(action, "export") == 0)
        return trace_export(ctx, args, ret_data, err);
    return trace_show(ctx, args, ret_data, err);
}
