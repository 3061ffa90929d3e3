/* system.c: status, permissions and version (commands/system.md). */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "commands/handlers.h"
#include "core/ctx.h"
#include "dispatch/dispatch.h"
#include "core/refstore.h"
#include "core/surface_shell.h"
#include "core/trace_event.h"
#include "core/utf8.h"

/* How long status waits for the shell kinds: gnome-shell's tree is read once (~0.1 s). */
#define SHELL_KINDS_TIMEOUT_MS 2000

static json_t *surfaces_json(ad_ctx *ctx, bool available)
{
    if (!available)
        return json_array();
    return ad_surface_supported_json(ctx, ad_deadline_after_ms(SHELL_KINDS_TIMEOUT_MS));
}

/* How long status and permissions wait for the accessibility service: they take no
 * --timeout-ms, and a stalled bus must not hold them (it reads as "unknown"). */
#define HEALTH_TIMEOUT_MS 2000

/* The permissions object; *ret_available tells whether the accessibility bus answered. A
 * service that refused is denied; one that stayed silent until the deadline is unknown. */
static json_t *permissions_json(ad_ctx *ctx, bool *ret_available)
{
    ad_health h = {0};
    ctx->adapter->ops->health(ctx->adapter, ad_now_us() + HEALTH_TIMEOUT_MS * 1000, &h);
    json_t *acc = json_object();
    json_object_set_new(acc, "state", json_string(h.available   ? "granted"
                                                  : h.timed_out ? "unknown"
                                                                : "denied"));
    if (!h.available) {
        if (h.suggestion)
            json_object_set_new(acc, "suggestion", json_string(h.suggestion));
        if (h.detail)
            json_object_set_new(acc, "platform_detail", json_string(h.detail));
    }
    json_t *p = json_object();
    json_object_set_new(p, "accessibility", acc);
    json_object_set_new(p, "automation", json_pack("{s:s}", "state", "not_required"));
    json_object_set_new(p, "screen_recording", json_pack("{s:s}", "state", "not_required"));
    *ret_available = h.available;
    ad_health_clear(&h);
    return p;
}

int ad_cmd_status(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    (void)args;
    (void)err;
    bool available = false;
    json_t *d = json_object();
    json_object_set_new(d, "permissions", permissions_json(ctx, &available));
    json_object_set_new(d, "platform", json_string(ctx->adapter->ops->platform));
    char *latest = ad_refstore_latest(ctx);
    json_t *ref_count = json_null();
    if (latest) {
        json_t *map = NULL;
        ad_error ignored = AD_ERROR_INIT;
        if (ad_refstore_load(ctx, latest, &map, &ignored) == 0) {
            ref_count = json_integer((json_int_t)json_object_size(json_object_get(map, "refs")));
            json_decref(map);
        }
        ad_error_clear(&ignored);
    }
    json_object_set_new(d, "ref_count", ref_count);
    json_object_set_new(d, "session_id",
                        ctx->session_id ? json_string(ctx->session_id) : json_null());
    json_object_set_new(d, "snapshot_id", latest ? json_string(latest) : json_null());
    free(latest);
    /* A path from AGENT_DESKTOP_HOME need not be UTF-8; json_string would drop the key. */
    json_object_set_new(d, "state_root", ad_json_text(ctx->state_root));
    json_object_set_new(d, "supported_surfaces", surfaces_json(ctx, available));
    /* tracing: a trace writer is attached (the session's, or --trace PATH); artifacts come
     * from the session's manifest (a bare --session namespace has none: no artifacts key). */
    json_object_set_new(d, "tracing", json_boolean(ad_trace_attached(ctx)));
    json_t *artifacts = json_object_get(ctx->session_manifest, "artifacts");
    if (artifacts)
        json_object_set(d, "artifacts", artifacts);
    json_object_set_new(d, "version", json_string(AD_RELEASE_VERSION));
    *ret_data = d;
    return 0;
}

int ad_cmd_permissions(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    if (json_is_true(json_object_get(args, "guide"))) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "permissions --guide is macOS only");
        ad_error_suggest(err, "On Linux, run inside the graphical session with a running AT-SPI "
                              "bus and check agent-desktop status");
        return -1;
    }
    /* Linux has no permission prompt: --request reports the same states. */
    bool available;
    *ret_data = permissions_json(ctx, &available);
    return 0;
}

int ad_cmd_version(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    (void)ctx;
    (void)args;
    (void)err;
    struct utsname u;
    const char *target = uname(&u) == 0 ? u.machine : "unknown";
    *ret_data = json_pack("{s:s, s:s, s:s}", "os", "linux", "target", target, "version",
                          AD_RELEASE_VERSION);
    return 0;
}
