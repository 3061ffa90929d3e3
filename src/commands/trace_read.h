/* trace_read.h: a session's trace segments read back as one timeline (commands/system.md,
 * trace). Shared by trace show and trace export. */
#ifndef AD_TRACE_READ_H
#define AD_TRACE_READ_H

#include <jansson.h>
#include <stddef.h>

#include "core/ctx.h"

/* The longest segment read: the session budget, plus room for the last line that crossed it. */
#define AD_TRACE_SEGMENT_READ_MAX (33 * 1024 * 1024)

typedef struct {
    json_t *events;   /* owned: every event, merged (ad_trace_merge) */
    json_t *warnings; /* owned: {segment, line, reason} for each skipped line or segment */
    size_t segments;  /* how many segment files were read */
} ad_trace_timeline;

/* Appends the events of one segment's text to events (objects only; every other line, and a
 * last line without its '\n', which a writer is still writing or left torn, goes to
 * warnings). `segment` names the file in warnings. */
void ad_trace_segment_parse(const char *segment, const char *text, size_t len, json_t *events,
                            json_t *warnings);

/* Orders events into one timeline: by ts_ms, then segment, then seq. A writer never lets
 * ts_ms go back within its segment, so each segment keeps its own seq order. */
void ad_trace_merge(json_t *events);

/* Reads every segment of ctx's session (ctx->session_id) into *ret (the caller clears it).
 * INVALID_ARGS without an active session or when the session has no trace directory; the
 * caller decides what counts as "recorded nothing". */
int ad_trace_timeline_read(ad_ctx *ctx, ad_trace_timeline *ret, ad_error *err);

/* The events, as the last `limit` of those whose name starts with prefix (NULL: all;
 * limit 0: no limit). Returns a new array; *ret_matched counts the prefix's matches. */
json_t *ad_trace_select(const json_t *events, const char *prefix, int64_t limit,
                        size_t *ret_matched);

void ad_trace_timeline_clear(ad_trace_timeline *t);

#endif
