/* overlay_session.c: the session's cursor overlay setting and the action hook
 * (overlay_session.h). */
#include "core/overlay_session.h"

#include <stdlib.h>
#include <string.h>

#include "core/overlay_style.h"
#include "core/state_files.h"
#include "core/trace_event.h"

#define SETTING_NAME "cursor.json"
#define SETTING_MAX (256 * 1024)

int ad_overlay_setting_read(const char *root, const char *session_id, json_t **ret,
                            ad_error *err)
{
    ad_state_dir ns = AD_STATE_DIR_INIT;
    int rc = ad_state_namespace_open(root, session_id, false, &ns, err);
    if (rc == 0)
        rc = ad_state_json_read(&ns, SETTING_NAME, SETTING_MAX, ret, err);
    ad_state_dir_close(&ns);
    return rc;
}

int ad_overlay_setting_write(const char *root, const char *session_id, const json_t *setting,
                             ad_error *err)
{
    ad_state_dir ns = AD_STATE_DIR_INIT;
    char *text = json_dumps(setting, JSON_COMPACT | JSON_SORT_KEYS);
    int rc = text ? ad_state_namespace_open(root, session_id, true, &ns, err)
                  : ad_error_set(err, AD_INTERNAL, "out of memory");
    if (rc == 0)
        rc = ad_state_file_write(&ns, SETTING_NAME, text, strlen(text), err);
    ad_state_dir_close(&ns);
    free(text);
    return rc < 0 ? -1 : 0;
}

json_t *ad_overlay_style_for(const json_t *setting, const char *agent_id)
{
    json_t *profile = agent_id ? json_object_get(json_object_get(setting, "profiles"), agent_id)
                               : NULL;
    json_t *style = json_is_object(profile) ? profile : json_object_get(setting, "style");
    if (json_is_object(style))
        return json_incref(style);
    json_t *none = json_object();
    json_t *defaults = ad_overlay_style_from_args(none);
    json_decref(none);
    return defaults;
}

const char *ad_overlay_cursor_name(const json_t *manifest, const char *agent_id)
{
    return json_is_true(json_object_get(manifest, "multi_agent")) && agent_id ? agent_id : "";
}

/* The longest the glide of style may take: its travel maximum plus its dwell. */
static int glide_budget_ms(const json_t *style)
{
    json_int_t travel = json_integer_value(json_array_get(json_object_get(style, "travel_ms"),
                                                          1));
    json_int_t dwell = json_integer_value(json_object_get(style, "dwell_ms"));
    json_int_t total = travel + dwell;
    return total < 0 ? 0 : total > AD_OVERLAY_MAX_WAIT_MS ? AD_OVERLAY_MAX_WAIT_MS : (int)total;
}

bool ad_overlay_session_on(const ad_ctx *ctx)
{
    return ctx->session_id && json_is_true(json_object_get(ctx->session_manifest, "cursor")) &&
           ctx->adapter->ops->overlay;
}

void ad_overlay_before_action(ad_ctx *ctx, const ad_rect *bounds, double x, double y,
                              bool pressable)
{
    const json_t *m = ctx->session_manifest;
    if (!ad_overlay_session_on(ctx))
        return;
    ad_error e = AD_ERROR_INIT;
    json_t *setting = NULL;
    if (ad_overlay_setting_read(ctx->state_root, ctx->session_id, &setting, &e) < 0) {
        ad_trace_event(ctx, "cursor.glide.error", json_pack("{s:s}", "message", e.message));
        ad_error_clear(&e);
        return;
    }
    json_t *style = ad_overlay_style_for(setting, ctx->agent_id);
    json_decref(setting);
    int budget = glide_budget_ms(style);
    json_t *req = json_pack("{s:s, s:s, s:s, s:o, s:[f, f], s:b}", "op", "glide", "session",
                            ctx->session_id, "cursor",
                            ad_overlay_cursor_name(m, ctx->agent_id), "style", style, "point",
                            x, y, "pressable", pressable);
    if (req && bounds && bounds->width > 0 && bounds->height > 0)
        json_object_set_new(req, "bounds", json_pack("[f, f, f, f]", bounds->x, bounds->y,
                                                     bounds->width, bounds->height));
    json_t *reply = NULL;
    int64_t deadline = ad_now_us() + (int64_t)(budget + AD_OVERLAY_SLACK_MS) * 1000;
    int rc = req ? ctx->adapter->ops->overlay(ctx->adapter, req, true, deadline, &reply, &e)
                 : ad_error_set(&e, AD_INTERNAL, "out of memory");
    if (rc == 0)
        ad_trace_event(ctx, "cursor.glide",
                       json_pack("{s:b, s:[f, f]}", "rendered",
                                 json_is_true(json_object_get(reply, "mapped")), "point", x,
                                 y));
    else
        ad_trace_event(ctx, "cursor.glide.error", json_pack("{s:s, s:s}", "code",
                                                            ad_error_code_name(e.code),
                                                            "message", e.message));
    ad_error_clear(&e);
    json_decref(reply);
    json_decref(req);
}

int ad_overlay_stop(ad_ctx *ctx, const char *session_id, ad_error *err)
{
    if (!ctx->adapter->ops->overlay)
        return 0; /* nothing can have been drawn */
    json_t *req = json_pack("{s:s, s:s}", "op", "stop", "session", session_id);
    json_t *reply = NULL;
    /* Never starts the service: when none runs, no cursor is drawn. */
    int rc = ctx->adapter->ops->overlay(ctx->adapter, req, false,
                                        ad_now_us() + 2000 * 1000, &reply, err);
    json_decref(req);
    json_decref(reply);
    if (rc < 0) {
        err->delivery = AD_DELIVERY_UNCERTAIN;
        ad_error_suggest(err, "Run agent-desktop cursor-overlay disable again to retry the "
                              "teardown");
        return -1;
    }
    ad_trace_event(ctx, "cursor.stop", json_pack("{s:s}", "session", session_id));
    return 0;
}
