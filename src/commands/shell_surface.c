/* shell_surface.c: open-system-surface (commands/observation.md; surfaces.md, "Open an OS
 * shell surface"). The contract is core/surface_shell.h; this turns it into data. */
#include "commands/common.h"
#include "commands/handlers.h"
#include "core/ctx.h"
#include "core/surface_shell.h"

/* The command takes no --timeout-ms: a click on the shell's bar shows its menu within a few
 * frames, and a loaded machine gets this long to read it back. */
#define OPEN_BUDGET_MS 5000

int ad_cmd_open_system_surface(ad_ctx *ctx, const json_t *args, json_t **ret_data,
                               ad_error *err)
{
    const char *kind = ad_arg_str(args, "surface");
    bool headed = json_is_true(json_object_get(ctx->globals, "headed"));
    ad_window win = {0};
    bool already_open = false;
    if (ad_surface_open_shell(ctx, kind, headed, ad_deadline_after_ms(OPEN_BUDGET_MS), &win,
                              &already_open, err) < 0)
        return -1;
    const char *canonical = ad_surface_kind_canonical(kind);
    *ret_data = json_pack("{s:s, s:o}", "surface", canonical ? canonical : kind, "window",
                          ad_window_json(&win));
    ad_window_clear(&win);
    return 0;
}
