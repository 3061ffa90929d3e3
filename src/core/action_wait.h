/* action_wait.h: the auto-wait of the ref-action pipeline (action.h): resolution and the
 * actionability checks, without the lease, polled every 100 ms or on an application event
 * until the target is actionable, a terminal check fails, or the deadline passes. */
#ifndef AD_ACTION_WAIT_H
#define AD_ACTION_WAIT_H

#include "core/action.h"
#include "core/resolve.h"

/* details.auto_wait of an action report. */
typedef struct {
    int preflight_attempts, resolve_attempts;
    unsigned contention;
    int64_t hold_ms;
} ad_auto_wait;

/* On success *r holds the live read of an actionable target. Fails with the last
 * evaluation (TIMEOUT actionability_timeout with details.checks and last_report, or the
 * terminal check's code), or with the resolution's own error when no evaluation was made;
 * a resolution cut by the deadline after a failed evaluation reports that evaluation. */
int ad_wait_actionable(ad_ctx *ctx, const ad_action_spec *spec, ad_resolved *r,
                       int64_t deadline, bool headed, ad_auto_wait *w, ad_error *err);

#endif
