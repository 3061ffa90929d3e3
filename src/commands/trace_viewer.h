/* trace_viewer.h: the self-contained HTML viewer trace export writes (guides/traces.md). One
 * file, no network and no external script: a summary, filters by event name and by failed
 * commands, the commands with outcome, duration and error code, and the whole timeline, each
 * event a row (data-seq, data-event) already in the HTML, so it reads without script too. */
#ifndef AD_TRACE_VIEWER_H
#define AD_TRACE_VIEWER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *session_id;
    const json_t *events;  /* the embedded events, in timeline order (borrowed) */
    size_t total_events;   /* before the limit */
    bool truncated;
    /* Embedded screenshots, by event index: NULL or a data: URI pair per action.artifacts
     * event (borrowed; see trace.c). */
    const json_t *screens;
} ad_trace_viewer_input;

/* The HTML document (malloc'd, the caller frees; NULL when out of memory), length in *len. */
char *ad_trace_viewer_html(const ad_trace_viewer_input *in, size_t *len);

#endif
