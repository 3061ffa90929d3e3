/* ctx.c: the clock and logging helpers every command invocation uses (core/ctx.h). */
#include "core/ctx.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

bool ad_ctx_takes_flag(const ad_ctx *ctx, const char *flag)
{
    return !ctx->takes_flag || !ctx->command || ctx->takes_flag(ctx->command, flag);
}

int64_t ad_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void ad_ctx_note_delivery(ad_ctx *ctx, ad_delivery d)
{
    if (d != AD_NOT_DELIVERED)
        ctx->delivered = d;
}

int64_t ad_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void ad_wait_next_poll(ad_ctx *ctx, int poll_ms, int64_t deadline_us)
{
    int64_t until = ad_deadline_after_ms(poll_ms);
    if (until > deadline_us)
        until = deadline_us;
    if (ctx->adapter->ops->wait_change) {
        ctx->adapter->ops->wait_change(ctx->adapter, until);
        return;
    }
    int64_t left = until - ad_now_us();
    if (left > 0) {
        struct timespec ts = {(time_t)(left / 1000000), (long)(left % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
}

int64_t ad_wait_read_deadline(int64_t started_us, int64_t wait_deadline_us)
{
    int64_t d = ad_deadline_after_ms(2000), end = ad_deadline_add_ms(started_us, 2000);
    if (wait_deadline_us > end)
        end = wait_deadline_us;
    return d < end ? d : end;
}

/* The one process-wide log sink (the C library's ad_set_log_callback); NULL: none. An atomic
 * pointer, so a line logged on one thread while another replaces the sink calls the old or
 * the new one, never a torn value. */
static _Atomic(ad_log_sink) log_sink;

void ad_log_set_sink(ad_log_sink sink)
{
    atomic_store(&log_sink, sink);
}

void ad_log(const ad_ctx *ctx, const char *fmt, ...)
{
    ad_log_sink sink = atomic_load(&log_sink);
    bool to_stderr = ctx && ctx->verbose;
    if ((!sink && !to_stderr) || !fmt)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap); /* a longer line is cut, never overrun */
    va_end(ap);
    if (to_stderr)
        fprintf(stderr, "agent-desktop: %s\n", line);
    if (sink)
        sink(AD_LOG_LEVEL_DEBUG, line);
}
