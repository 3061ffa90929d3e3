/* overlay_input.c: the cursors hidden while real input is sent (overlay_input.h). */
#include "core/overlay_input.h"

#include "core/overlay_session.h"
#include "core/trace_event.h"

/* One hide or unhide request; failures are trace events. */
static void ask(ad_ctx *ctx, json_t *req)
{
    const char *op = json_string_value(json_object_get(req, "op"));
    json_t *reply = NULL;
    ad_error e = AD_ERROR_INIT;
    int rc = ctx->adapter->ops->overlay(ctx->adapter, req, false,
                                        ad_deadline_after_ms(AD_OVERLAY_HIDE_MS), &reply, &e);
    if (rc < 0)
        ad_trace_event(ctx, "cursor.hide.error",
                       json_pack("{s:s, s:s, s:s}", "op", op, "code",
                                 ad_error_code_name(e.code), "message",
                                 e.message ? e.message : ""));
    ad_error_clear(&e);
    json_decref(reply);
    json_decref(req);
}

bool ad_overlay_hide_for_input(ad_ctx *ctx)
{
    if (!ad_overlay_session_on(ctx))
        return false;
    ask(ctx, json_pack("{s:s, s:s}", "op", "hide", "session", ctx->session_id));
    return true;
}

void ad_overlay_show_after_input(ad_ctx *ctx, bool hid, const ad_phys_req *req)
{
    if (!hid)
        return;
    json_t *r = json_pack("{s:s, s:s, s:s}", "op", "unhide", "session", ctx->session_id,
                          "cursor", ad_overlay_cursor_name(ctx->session_manifest,
                                                           ctx->agent_id));
    if (r && req && req->kind == AD_PHYS_DRAG)
        json_object_set_new(r, "point", json_pack("[i, i]", req->x2, req->y2));
    ask(ctx, r);
}

int ad_overlay_physical(ad_ctx *ctx, const ad_phys_req *req, int64_t deadline_us,
                        ad_act_result *res, ad_error *err)
{
    bool hid = ad_overlay_hide_for_input(ctx);
    int rc = ctx->adapter->ops->physical(ctx->adapter, req, deadline_us, res, err);
    ad_overlay_show_after_input(ctx, hid, req);
    return rc;
}
