/* ctx.h: what one command invocation carries: the adapter, the global flags, the selected
 * state namespace. Built by a front end, borrowed by handlers. */
#ifndef AD_CTX_H
#define AD_CTX_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "core/budget.h"
#include "core/deadline.h"
#include "core/error.h"
#include "platform/adapter.h"

struct ad_command; /* dispatch/command_table.h: core reads a command only through ctx */
struct ad_trace;   /* core/trace_event.h: the command's trace sink */
struct ad_observe; /* core/observe.h: an --observe finished after the post-action wait */

typedef struct ad_ctx {
    ad_adapter *adapter;       /* borrowed; never NULL in a front end */
    const struct ad_command *command; /* the command being run (dispatch's table entry) */
    const char *command_name;  /* its name, for messages */
    /* Whether the running command takes a flag, so a suggestion names only flags it has
     * (dispatch sets it; NULL answers true). Core never reads the table itself. */
    bool (*takes_flag)(const struct ad_command *cmd, const char *flag);
    const json_t *globals;     /* parsed global flags (borrowed) */
    char *state_root;          /* owned; resolved by dispatch */
    char *session_id;          /* owned; NULL for the global namespace */
    /* The session's manifest (session.json), owned; NULL when there is no session or the
     * session has no manifest (a bare --session namespace). Read once by dispatch. */
    json_t *session_manifest;
    char *agent_id;            /* owned; --agent-id or AGENT_DESKTOP_AGENT_ID, else NULL */
    bool verbose;
    /* The window the command read or acted on (owned), for the post-action wait flags. */
    char *observed_window_id;
    /* What input this invocation already sent: AD_NOT_DELIVERED until the input path records
     * a delivery (ad_ctx_note_delivery). Dispatch gives it to any error raised afterwards. */
    ad_delivery delivered;
    /* The trace this command writes to (borrowed from dispatch); NULL when it does not
     * trace. Written only through ad_trace_event (core/trace_event.h). */
    struct ad_trace *trace;
    /* Borrowed, NULL unless batch captured it: what a `wait --event` compares against, read
     * before the entry that precedes the wait ran (commands/wait_modes.h). */
    struct ad_event_baseline *event_baseline;
    /* --max-bytes / --max-tokens as a budget for the data object (dispatch sets it; its
     * data_bytes is 0 without one). A post-action wait lowers it around the fresh snapshot
     * by what it adds beside it. */
    ad_budget budget;
    /* Owned, NULL unless an --observe waits for --wait-for to settle (core/observe.h):
     * dispatch finishes it after the wait and frees it (ad_observe_free). */
    struct ad_observe *observe_pending;
} ad_ctx;

/* Records that input reached the app (`d` is not AD_NOT_DELIVERED): from then on an error of
 * this invocation cannot read as "nothing was sent". Called where input is sent (the ref
 * action pipeline, physical input), so no handler has to remember it on each error path. */
void ad_ctx_note_delivery(ad_ctx *ctx, ad_delivery d);

/* True when the running command declares the flag `flag` (see takes_flag). */
bool ad_ctx_takes_flag(const ad_ctx *ctx, const char *flag);

/* Microseconds on CLOCK_MONOTONIC. */
int64_t ad_now_us(void);
/* Milliseconds since the Unix epoch. */
int64_t ad_wall_ms(void);

/* Waits for the next poll of a wait loop: until the app signals a change (when the adapter
 * can watch for it) or poll_ms passes, never past deadline_us. */
void ad_wait_next_poll(ad_ctx *ctx, int poll_ms, int64_t deadline_us);

/* The deadline of one read inside a wait loop that started at started_us and ends at
 * wait_deadline_us: 2 s, but never past the wait's own deadline once the wait has run 2 s, so
 * a stalled read cannot stretch a long wait; a shorter wait keeps its reads' 2 s, so a slow
 * read still observes once (--timeout 0 still reads once). An app that does not answer costs
 * its own answer budget (1 s, AD_ATSPI_APP_ANSWER_BUDGET_US), not the read's. */
int64_t ad_wait_read_deadline(int64_t started_us, int64_t wait_deadline_us);

/* Logs one line: to stderr with --verbose, and to the log sink when one is set. */
void ad_log(const ad_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Log levels a sink receives, as the C library's callback documents them (1 error to 5
 * trace); ad_log's lines are diagnostics, DEBUG. */
#define AD_LOG_LEVEL_ERROR 1
#define AD_LOG_LEVEL_WARN 2
#define AD_LOG_LEVEL_INFO 3
#define AD_LOG_LEVEL_DEBUG 4
#define AD_LOG_LEVEL_TRACE 5

/* The one process-wide log sink (NULL clears it): it may be called on any thread that logs,
 * concurrently, with a line it borrows for the call. Set by the C library only. */
typedef void (*ad_log_sink)(int32_t level, const char *line);
void ad_log_set_sink(ad_log_sink sink);

#endif
