/* trace_writer.h: the one trace writer (guides/traces.md). Dispatch opens it after the
 * session is selected, attaches its sink to ctx->trace, writes command.start before the
 * handler and command.end after, and closes it.
 *
 * Where events go: to --trace PATH (one private file, no session needed; the session's
 * trace then receives nothing), else to the session's trace when its manifest says
 * "trace": "on" and it has not ended: one segment per process,
 * <state root>/sessions/<id>/trace/
 * <pid>-<proc_start_ms>.jsonl, whose first line is trace.meta. Every event carries event,
 * seq (per segment, from 0), ts_ms (never decreasing within a segment), segment,
 * session_id, writer_pid and writer_proc_start_ms, and is redacted (core/trace_redact.h).
 * Each line is one write(2) of the whole line to an O_APPEND descriptor, so concurrent
 * processes never interleave. Files are created 0600, directories 0700.
 *
 * The session budget (AD_TRACE_*_MAX) is counted across all of the session's segments when
 * the writer opens: one readdir of trace/, a stat per entry and one read of the last 4 KiB of
 * each segment (its last seq gives its event count), so the cost grows with the number of
 * segments, not their size. This process's own writes are added as it goes. Once the budget
 * is spent new events are dropped and existing ones stay readable. Processes that open at
 * the same moment each see the same remainder, so they can overshoot by at most one
 * command's events each. --trace PATH has no budget: the caller chose the file. */
#ifndef AD_TRACE_WRITER_H
#define AD_TRACE_WRITER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/state_files.h"
#include "core/trace_event.h" /* AD_TRACE_ENTRIES_MAX */

#define AD_TRACE_BYTES_MAX (32LL * 1024 * 1024)
#define AD_TRACE_EVENTS_MAX 100000LL
/* A line longer than this is not written (the event is dropped): one write(2) stays small. */
#define AD_TRACE_LINE_MAX (256 * 1024)

typedef struct ad_trace_writer ad_trace_writer;

/* Opens the writer for one command: path (--trace; may be NULL) wins over the session
 * (state_root, session_id and manifest; any may be NULL). Returns 0 with *ret a new writer
 * (the caller closes it) or NULL when nothing traces; -1 with err (INTERNAL, details.kind
 * "trace_unavailable") when a trace was asked for but cannot be opened. */
int ad_trace_writer_open(const char *path, const char *state_root, const char *session_id,
                         const json_t *manifest, ad_trace_writer **ret, ad_error *err);

/* The sink to put in ctx->trace (borrowed; valid until close). */
struct ad_trace *ad_trace_writer_sink(ad_trace_writer *w);

/* Writes one event (fields_stolen: an object or NULL). 0 when written; -1 when dropped by
 * the budget or not written (write failure), with the reason in err when err is not NULL. */
int ad_trace_writer_emit(ad_trace_writer *w, const char *event, json_t *fields_stolen,
                         ad_error *err);

/* Closes and frees w (NULL is fine). */
void ad_trace_writer_close(ad_trace_writer *w);

/* Opens <root>/sessions/<session_id>/trace (made 0700 with create). Returns 0 with *ret
 * open, 1 when the session directory or (without create) trace/ is missing, -1 with err
 * (state_files.h). */
int ad_trace_dir_open(const char *root, const char *session_id, bool create, ad_state_dir *ret,
                      ad_error *err);

/* True for a segment's file name in trace/: not hidden, ending in .jsonl. */
bool ad_trace_is_segment_name(const char *name);

/* This process's start, in ms since the epoch (/proc/self/stat), the segment's name part. */
int64_t ad_trace_proc_start_ms(void);

#endif
