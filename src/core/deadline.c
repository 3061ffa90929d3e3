/* deadline.c: saturating deadline arithmetic (deadline.h). */
#include "core/deadline.h"

#include <errno.h>
#include <time.h>

#include "core/ctx.h"

/* Per thread: the C library may run commands on several threads, each with its own budget. */
static _Thread_local int64_t ceiling_us = INT64_MAX;

int64_t ad_deadline_ceiling_push(int64_t c)
{
    int64_t previous = ceiling_us;
    if (c < ceiling_us)
        ceiling_us = c;
    return previous;
}

void ad_deadline_ceiling_restore(int64_t previous_us)
{
    ceiling_us = previous_us;
}

int64_t ad_deadline_ceiling(void)
{
    return ceiling_us;
}

static int64_t uncapped_add_ms(int64_t base_us, int64_t ms)
{
    if (ms <= 0)
        return base_us;
    if (ms > INT64_MAX / 1000)
        return INT64_MAX;
    int64_t add_us = ms * 1000;
    if (base_us > INT64_MAX - add_us)
        return INT64_MAX;
    return base_us + add_us;
}

int64_t ad_deadline_add_ms(int64_t base_us, int64_t ms)
{
    int64_t d = uncapped_add_ms(base_us, ms);
    return d < ceiling_us ? d : ceiling_us;
}

int ad_deadline_sleep_ms(int64_t ms, ad_error *err)
{
    int64_t started = ad_now_us();
    int64_t wanted = uncapped_add_ms(started, ms), end = ad_deadline_add_ms(started, ms);
    struct timespec ts = {(time_t)(end / 1000000), (long)(end % 1000000) * 1000L};
    /* Absolute on CLOCK_MONOTONIC (ad_now_us' clock), so a signal cannot stretch it. */
    while (end > ad_now_us() &&
           clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
    if (end >= wanted)
        return 0;
    int64_t waited_ms = (ad_now_us() - started) / 1000;
    ad_error_set(err, AD_TIMEOUT, "The %lld ms sleep was cut after %lld ms: the enclosing "
                                  "budget (batch --timeout-ms) ran out",
                 (long long)ms, (long long)waited_ms);
    ad_error_suggest(err, "Run the wait on its own, or give the batch more time");
    ad_error_detail(err, "kind", json_string("budget_exhausted"));
    ad_error_detail(err, "requested_ms", json_integer(ms));
    ad_error_detail(err, "waited_ms", json_integer(waited_ms));
    return -1;
}

int64_t ad_deadline_after_ms(int64_t ms)
{
    return ad_deadline_add_ms(ad_now_us(), ms);
}

int64_t ad_deadline_within(int64_t deadline_us, int64_t floor_ms, int64_t cap_ms)
{
    int64_t now = ad_now_us();
    int64_t lo = ad_deadline_add_ms(now, floor_ms), hi = ad_deadline_add_ms(now, cap_ms);
    return deadline_us < lo ? lo : deadline_us > hi ? hi : deadline_us;
}
