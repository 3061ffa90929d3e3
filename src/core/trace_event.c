/* trace_event.c: the no-op-when-untraced hook (trace_event.h). */
#include "core/trace_event.h"

int ad_trace_event(ad_ctx *ctx, const char *event, json_t *fields_stolen)
{
    if (!ctx || !ctx->trace || !ctx->trace->emit) {
        json_decref(fields_stolen);
        return 0;
    }
    return ctx->trace->emit(ctx->trace, event, fields_stolen);
}

bool ad_trace_attached(const ad_ctx *ctx)
{
    return ctx && ctx->trace;
}
