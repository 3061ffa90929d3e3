/* session.c: the session command, start | end | list | gc (commands/system.md "session",
 * sessions.md). The files and rules are core/session.h; this file reads the arguments and
 * shapes `data`. The cross-argument rules (--multi-agent requires --cursor, --screenshots
 * excludes --no-trace) and the subcommand-only flags are in the command table. --cursor
 * [--multi-agent] is recorded in the manifest, which is where the cursor overlay reads its
 * mode (core/overlay_session.h); end stops the session's cursors. */
#include <stdio.h>
#include <string.h>

#include "commands/handlers.h"
#include "core/ctx.h"
#include "core/overlay_session.h"
#include "core/session.h"
#include "core/utf8.h"

static bool flag_on(const json_t *args, const char *key)
{
    return json_is_true(json_object_get(args, key));
}

static int session_start(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *name = json_string_value(json_object_get(args, "name"));
    /* The upper bound (128 bytes) is the table's max_bytes. */
    if (name && (!*name || !ad_utf8_valid(name, strlen(name)))) {
        ad_error_set(err, AD_INVALID_ARGS, "--name must be a UTF-8 label of 1 to %d bytes",
                     AD_SESSION_NAME_MAX);
        ad_error_suggest(err, "Pass a short label such as --name docs-example");
        ad_error_detail_text(err, "argument", "name");
        return -1;
    }
    ad_session_options o = {
        .name = name,
        .trace = !flag_on(args, "no_trace"),
        .screenshots = flag_on(args, "screenshots"),
        .cursor = flag_on(args, "cursor"),
        .multi_agent = flag_on(args, "multi_agent"),
    };
    json_t *m = NULL;
    if (ad_session_create(ctx->state_root, &o, &m, err) < 0)
        return -1;
    const char *id = json_string_value(json_object_get(m, "session_id"));
    char next[160];
    snprintf(next, sizeof(next), "export AGENT_DESKTOP_SESSION=%s", id);
    json_t *d = json_pack("{s:{s:s, s:s}, s:O, s:O, s:O, s:s, s:s, s:O}",
                          "activation", "environment", "AGENT_DESKTOP_SESSION", "value", id,
                          "artifacts", json_object_get(m, "artifacts"),
                          "created_at", json_object_get(m, "created_at"),
                          "name", json_object_get(m, "name"),
                          "next", next, "session_id", id,
                          "trace", json_object_get(m, "trace"));
    json_decref(m);
    *ret_data = d;
    return 0;
}

static int session_end(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *id = json_string_value(json_object_get(args, "id"));
    if (!id)
        id = ctx->session_id;
    if (!id) {
        ad_error_set(err, AD_INVALID_ARGS, "session end needs a session: pass its id, or "
                                           "select one with --session");
        ad_error_suggest(err, "Run agent-desktop session list, then agent-desktop session "
                              "end ID");
        return -1;
    }
    json_t *m = NULL;
    if (ad_session_end(ctx->state_root, id, &m, err) < 0)
        return -1;
    json_t *d = json_pack("{s:O, s:O}", "ended_at", json_object_get(m, "ended_at"),
                          "session_id", json_object_get(m, "session_id"));
    /* "Also stops every cursor overlay in the session" (system.md); the session has ended
     * either way, so a teardown that cannot be confirmed is a warning, not a failure. */
    ad_error e = AD_ERROR_INIT;
    if (json_is_true(json_object_get(m, "cursor")) && ad_overlay_stop(ctx, id, &e) < 0)
        json_object_set_new(d, "warnings",
                            json_pack("[{s:s, s:s}]", "kind", "cursor_overlay_teardown",
                                      "message", e.message ? e.message : "not confirmed"));
    ad_error_clear(&e);
    json_decref(m);
    *ret_data = d;
    return 0;
}

static int session_list(ad_ctx *ctx, json_t **ret_data, ad_error *err)
{
    json_t *sessions = NULL, *warnings = NULL;
    if (ad_session_list(ctx->state_root, &sessions, &warnings, err) < 0)
        return -1;
    json_t *d = json_pack("{s:o}", "sessions", sessions);
    if (json_array_size(warnings))
        json_object_set_new(d, "warnings", warnings);
    else
        json_decref(warnings);
    *ret_data = d;
    return 0;
}

static int session_gc(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    json_t *older = json_object_get(args, "older_than");
    ad_session_gc_options o = {
        .has_older_than = json_is_integer(older),
        .older_than_s = json_integer_value(older),
        .ended = flag_on(args, "ended"),
    };
    json_t *removed = NULL;
    if (ad_session_gc(ctx->state_root, &o, &removed, err) < 0)
        return -1;
    *ret_data = json_pack("{s:o}", "removed", removed);
    return 0;
}

int ad_cmd_session(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *action = json_string_value(json_object_get(args, "action"));
    if (action && strcmp(action, "start") == 0)
        return session_start(ctx, args, ret_data, err);
    if (action && strcmp(action, "end") == 0)
        return session_end(ctx, args, ret_data, err);
    if (action && strcmp(action, "list") == 0)
        return session_list(ctx, ret_data, err);
    if (action && strcmp(action, "gc") == 0)
        return session_gc(ctx, args, ret_data, err);
    return ad_error_set(err, AD_INVALID_ARGS, "Unknown session subcommand");
}
