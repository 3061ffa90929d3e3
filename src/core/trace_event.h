/* trace_event.h: how core and the handlers add an event to the command's trace without
 * knowing who writes it (guides/traces.md). Dispatch attaches a sink to ctx->trace when the
 * command traces (a tracing session or --trace PATH); with none attached every call here is
 * a no-op, so a call site is always one line. */
#ifndef AD_TRACE_EVENT_H
#define AD_TRACE_EVENT_H

#include <jansson.h>

#include "core/ctx.h"

/* The sink a writer embeds as its first member. emit steals fields (a JSON object or NULL),
 * adds the common keys (seq, ts_ms, segment, ...), redacts, and writes one line or drops the
 * event (budget, write failure). It returns 0 when the line was written, -1 otherwise. */
struct ad_trace {
    int (*emit)(struct ad_trace *sink, const char *event, json_t *fields_stolen);
};

/* A session trace's budget of directory entries under trace/: its segments, and the files of
 * session screenshots and refmap copies (core/action_artifacts.h). */
#define AD_TRACE_ENTRIES_MAX 4096LL

/* Adds `event` with fields_stolen (an object, or NULL for none) to ctx's trace. Steals the
 * fields whether or not a trace is attached. Returns 0 when written or when nothing traces,
 * -1 when an attached writer could not write it (callers other than dispatch ignore this). */
int ad_trace_event(ad_ctx *ctx, const char *event, json_t *fields_stolen);

/* True when a trace writer is attached (status.tracing). */
bool ad_trace_attached(const ad_ctx *ctx);

#endif
