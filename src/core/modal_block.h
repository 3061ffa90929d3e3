/* modal_block.h: a modal dialog that blocks the window a ref action targets
 * (platforms/linux.md, troubleshooting: ACTION_FAILED, cause blocked_by_modal_dialog).
 *
 * A toolkit grab keeps the user's input away from the other windows of an application while
 * one of its windows is modal (GTK3: gtk_grab_add for the whole window group), but an
 * accessibility call still reaches them: a semantic click on the window behind the dialog
 * would act. The pipeline refuses such an action before anything is sent. */
#ifndef AD_MODAL_BLOCK_H
#define AD_MODAL_BLOCK_H

#include <stdint.h>

#include "core/ctx.h"

/* 0 when no shown modal window of the target's process blocks `target` (the target's own
 * window is modal, or none is open), -1 with ACTION_FAILED cause blocked_by_modal_dialog and
 * details.blocking_surface (id, title, type). Windows that cannot be listed before
 * deadline_us block nothing: the modality is then unknown, and the action goes on as it
 * would without this check. */
int ad_modal_block_check(ad_ctx *ctx, const ad_window *target, int64_t deadline_us,
                         ad_error *err);

#endif
