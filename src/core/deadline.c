/* deadline.c: saturating deadline arithmetic (deadline.h). */
#include "core/deadline.h"

#include "core/ctx.h"

int64_t ad_deadline_add_ms(int64_t base_us, int64_t ms)
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
