/* action_artifacts.h: the before and after pictures of a ref action in a session started
 * with --screenshots (guides/traces.md, "Capture screenshots with a session").
 *
 * Under <session>/trace/: screens/<stamp>-before.png and -after.png (the target window, as
 * core/capture.h takes it) and refmaps/<snapshot_id>.json (the refmap the ref came from), all
 * written private and atomically (state_files.h). One action.artifacts event names them
 * relative to trace/ ("screens/NAME.png", what trace export embeds) or says why a picture
 * was skipped (`before_skipped` / `after_skipped`: {code, reason?}). The files count in the
 * trace budget's directory entries (AD_TRACE_ENTRIES_MAX): past it nothing new is written
 * and the event says "budget". Nothing here ever fails the action. */
#ifndef AD_ACTION_ARTIFACTS_H
#define AD_ACTION_ARTIFACTS_H

#include <stdbool.h>
#include <jansson.h>

#include "core/ctx.h"
#include "core/state_files.h"

typedef struct {
    bool on;        /* the session asks for screenshots and a trace is attached */
    char stamp[64]; /* the file name stem shared by the pair */
    json_t *event;  /* the action.artifacts fields being built (owned) */
} ad_artifacts;

/* Before dispatch: when the session asks for it, captures `w`, copies `refmap` (borrowed)
 * and starts the event. a is the caller's; zero it first. */
void ad_artifacts_before(ad_ctx *ctx, const ad_window *w, const json_t *refmap,
                         const char *action, const char *ref, ad_artifacts *a);

/* After the action (delivered or not): captures `w` again and writes the event; then clears
 * a. A no-op when ad_artifacts_before did not start. */
void ad_artifacts_after(ad_ctx *ctx, const ad_window *w, ad_artifacts *a);

/* Directory entries the artifacts hold under trace/ (screens/ and refmaps/ themselves are
 * counted by whoever reads trace/). 0 when they cannot be read. */
long long ad_artifact_entries(const ad_state_dir *trace);

#endif
