/* modal_block.c: a modal dialog that blocks the target's window (modal_block.h). */
#include "core/modal_block.h"

#include <string.h>

/* The windows of the process with this pid (ret is the caller's). -1 when they cannot be
 * listed in time. */
static int windows_of_pid(ad_ctx *ctx, int pid, int64_t deadline_us, ad_window_list *ret)
{
    ad_app_list apps = {0};
    ad_error e = AD_ERROR_INIT;
    int rc = -1;
    memset(ret, 0, sizeof(*ret));
    if (ctx->adapter->ops->list_apps(ctx->adapter, deadline_us, &apps, &e) < 0)
        goto done;
    size_t kept = 0;
    for (size_t i = 0; i < apps.count; i++) {
        if (apps.items[i].pid == pid)
            apps.items[kept++] = apps.items[i];
        else
            ad_app_clear(&apps.items[i]);
    }
    apps.count = kept;
    if (kept && ctx->adapter->ops->list_windows(ctx->adapter, &apps, deadline_us, ret, &e) == 0)
        rc = 0;
done:
    ad_app_list_clear(&apps);
    ad_error_clear(&e);
    return rc;
}

static const ad_window *find_window(const ad_window_list *l, const char *id)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].id && strcmp(l->items[i].id, id) == 0)
            return &l->items[i];
    return NULL;
}

static int blocked(const ad_window *dialog, ad_error *err)
{
    const char *type = dialog->kind && strcmp(dialog->kind, "alert") == 0    ? "alert"
                       : dialog->kind && strcmp(dialog->kind, "dialog") == 0 ? "sheet"
                                                                             : "window";
    ad_error_set(err, AD_ACTION_FAILED, "A modal dialog%s%s%s blocks the target's window",
                 dialog->title ? " (" : "", dialog->title ? dialog->title : "",
                 dialog->title ? ")" : "");
    ad_error_suggest(err, "Read it with snapshot --surface %s and answer or dismiss it, then "
                          "act again", type);
    ad_error_detail(err, "cause", json_string("blocked_by_modal_dialog"));
    ad_error_detail(err, "blocking_surface", json_pack("{s:s, s:s?, s:s}", "id", dialog->id,
                                                       "title", dialog->title, "type", type));
    err->delivery = AD_NOT_DELIVERED;
    return -1;
}

int ad_modal_block_check(ad_ctx *ctx, const ad_window *target, int64_t deadline_us,
                         ad_error *err)
{
    ad_window_list wins;
    if (!target->id || target->pid <= 0 ||
        windows_of_pid(ctx, target->pid, deadline_us, &wins) < 0)
        return 0;
    /* Modality as the listing reads it now; a modal target window is the one that takes
     * the input (of two stacked modal dialogs, the order is not exposed: neither blocks). */
    const ad_window *self = find_window(&wins, target->id);
    int rc = 0;
    for (size_t i = 0; i < wins.count && !(self && self->modal); i++) {
        const ad_window *w = &wins.items[i];
        if (w->modal && w->visible && w != self) {
            rc = blocked(w, err);
            break;
        }
    }
    ad_window_list_clear(&wins);
    return rc;
}
