/* cursor_overlay.c: cursor-overlay enable | disable (commands/system.md "cursor-overlay").
 * The style and its checks are core/overlay_style.h (the table runs the check), what is saved
 * and the drawing requests core/overlay_session.h. */
#include <stdio.h>
#include <string.h>

#include "commands/handlers.h"
#include "core/ctx.h"
#include "core/overlay_session.h"
#include "core/overlay_style.h"
#include "core/session.h"

static int need_session(ad_ctx *ctx, ad_error *err)
{
    if (ctx->session_id && ctx->session_manifest)
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "cursor-overlay needs an active session");
    ad_error_suggest(err, "Run agent-desktop session start, export the AGENT_DESKTOP_SESSION "
                          "it prints, then run cursor-overlay again");
    return -1;
}

/* data as system.md's example shows it. */
static json_t *result(const ad_ctx *ctx, bool enabled, const json_t *style, bool rendered)
{
    char next[160];
    snprintf(next, sizeof(next), "export AGENT_DESKTOP_SESSION=%s", ctx->session_id);
    return json_pack("{s:{s:s, s:s}, s:{s:b, s:O, s:o}, s:s, s:b, s:s}", "activation",
                     "environment", "AGENT_DESKTOP_SESSION", "value", ctx->session_id,
                     "cursor_overlay", "enabled", enabled, "max_words",
                     json_object_get(style, "max_words"), "style",
                     ad_overlay_style_summary(style), "next", next, "rendered", rendered,
                     "session_id", ctx->session_id);
}

static int overlay_enable(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    bool multi = json_is_true(json_object_get(args, "multi_agent"));
    if (multi && ctx->agent_id) {
        /* A global flag against a command flag: no table rule sees both. */
        ad_error_set(err, AD_INVALID_ARGS, "--multi-agent is rejected together with "
                                           "--agent-id");
        ad_error_suggest(err, "Enable the session's mode without --agent-id, then save each "
                              "agent's profile with --agent-id");
        ad_error_detail_text(err, "argument", "multi_agent");
        return -1;
    }
    json_t *setting = NULL;
    if (ad_overlay_setting_read(ctx->state_root, ctx->session_id, &setting, err) < 0)
        return -1;
    if (!setting)
        setting = json_object();
    json_t *style = ad_overlay_style_from_args(args);
    if (ctx->agent_id) {
        if (!json_is_object(json_object_get(setting, "profiles")))
            json_object_set_new(setting, "profiles", json_object());
        json_object_set(json_object_get(setting, "profiles"), ctx->agent_id, style);
    } else {
        json_object_set(setting, "style", style);
    }
    /* An agent saving its profile keeps the session's mode; otherwise enable sets it. */
    if (ctx->agent_id)
        multi = ad_session_manifest_multi_agent(ctx->session_manifest);
    int rc = ad_overlay_setting_write(ctx->state_root, ctx->session_id, setting, err);
    if (rc == 0)
        rc = ad_session_set_cursor(ctx->state_root, ctx->session_id, true, multi, err);
    json_decref(setting);
    if (rc < 0) {
        json_decref(style);
        return -1;
    }
    json_object_set_new(ctx->session_manifest, "cursor", json_true());
    json_object_set_new(ctx->session_manifest, "multi_agent", json_boolean(multi));
    /* Draw the cursor now, where the pointer is; a multi-agent session without an agent id
     * has no cursor of its own to draw until an agent acts. */
    bool rendered = false;
    if ((!multi || ctx->agent_id) && ctx->adapter->ops->overlay) {
        json_t *req = json_pack("{s:s, s:s, s:s, s:O}", "op", "show", "session",
                                ctx->session_id, "cursor",
                                ad_overlay_cursor_name(ctx->session_manifest, ctx->agent_id),
                                "style", style);
        json_t *reply = NULL;
        ad_error e = AD_ERROR_INIT;
        if (ctx->adapter->ops->overlay(ctx->adapter, req, true,
                                       ad_now_us() + 2000 * 1000, &reply, &e) == 0)
            rendered = json_is_true(json_object_get(reply, "mapped"));
        else
            ad_log(ctx, "cursor overlay not drawn: %s", e.message ? e.message : "");
        ad_error_clear(&e);
        json_decref(reply);
        json_decref(req);
    }
    *ret_data = result(ctx, true, style, rendered);
    json_decref(style);
    return 0;
}

static int overlay_disable(ad_ctx *ctx, ad_error *err)
{
    if (ad_session_set_cursor(ctx->state_root, ctx->session_id, false, false, err) < 0)
        return -1;
    json_object_set_new(ctx->session_manifest, "cursor", json_false());
    json_object_set_new(ctx->session_manifest, "multi_agent", json_false());
    return ad_overlay_stop(ctx, ctx->session_id, err);
}

int ad_cmd_cursor_overlay(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *action = json_string_value(json_object_get(args, "action"));
    if (need_session(ctx, err) < 0)
        return -1;
    if (action && strcmp(action, "enable") == 0)
        return overlay_enable(ctx, args, ret_data, err);
    if (overlay_disable(ctx, err) < 0)
        return -1;
    json_t *setting = NULL;
    ad_error e = AD_ERROR_INIT;
    if (ad_overlay_setting_read(ctx->state_root, ctx->session_id, &setting, &e) < 0)
        ad_error_clear(&e);
    json_t *style = ad_overlay_style_for(setting, ctx->agent_id);
    json_decref(setting);
    *ret_data = result(ctx, false, style, false);
    json_decref(style);
    return 0;
}
