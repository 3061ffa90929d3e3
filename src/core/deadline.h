/* deadline.h: deadlines on CLOCK_MONOTONIC in microseconds (ad_now_us), built from a budget
 * in milliseconds. The arithmetic saturates: a budget too large for int64_t microseconds
 * gives INT64_MAX ("never") instead of wrapping into the past, and a negative budget counts as
 * 0 (the deadline is the base itself, so a loop still tries once). Every `now + ms * 1000`
 * goes through here. */
#ifndef AD_DEADLINE_H
#define AD_DEADLINE_H

#include <stdint.h>

/* base_us + ms milliseconds, saturating at INT64_MAX. */
int64_t ad_deadline_add_ms(int64_t base_us, int64_t ms);

/* ad_now_us() + ms milliseconds, saturating at INT64_MAX. */
int64_t ad_deadline_after_ms(int64_t ms);

#endif
