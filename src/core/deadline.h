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

/* The deadline of a step that follows or checks the command's main work (the surfaces open
 * after an action, the modal-dialog check): the command's own deadline_us, but no sooner than
 * floor_ms from now (so the step still gets one try) and no later than cap_ms from now (so a
 * silent part of the desktop cannot stretch the command past its budget twice). */
int64_t ad_deadline_within(int64_t deadline_us, int64_t floor_ms, int64_t cap_ms);

#endif
