/* windows.c: focus-window, move-window, resize-window, minimize, maximize, restore
 * (app-window.md). The contract is core/window_op.c; this reads the arguments. */
#include "commands/common.h"
#include "commands/handlers.h"
#include "core/window_op.h"

const ad_win_op ad_win_op_move = AD_WIN_MOVE, ad_win_op_resize = AD_WIN_RESIZE,
                ad_win_op_minimize = AD_WIN_MINIMIZE, ad_win_op_maximize = AD_WIN_MAXIMIZE,
                ad_win_op_restore = AD_WIN_RESTORE;

int ad_cmd_window_op(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const ad_win_op *op = ctx->command->data;
    ad_win_req req = {.op = *op};
    if (req.op == AD_WIN_MOVE) {
        req.x = (int)ad_arg_int(args, "x");
        req.y = (int)ad_arg_int(args, "y");
    } else if (req.op == AD_WIN_RESIZE) {
        req.width = (int)ad_arg_int(args, "width");
        req.height = (int)ad_arg_int(args, "height");
    }
    return ad_window_op_run(ctx, &req, ad_arg_str(args, "app"), ad_arg_str(args, "window_id"),
                            ret_data, err);
}

int ad_cmd_focus_window(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    ad_window focused = {0};
    if (ad_window_focus_run(ctx, ad_arg_str(args, "app"), ad_arg_str(args, "window_id"),
                            ad_arg_str(args, "title"), &focused, err) < 0)
        return -1;
    *ret_data = json_pack("{s:o}", "focused", ad_window_json(&focused));
    ad_window_clear(&focused);
    return 0;
}
