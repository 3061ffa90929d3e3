/* deadline.h: deadlines on CLOCK_MONOTONIC in microseconds (ad_now_us), built from a budget
 * in milliseconds. The arithmetic saturates: a budget too large for int64_t microseconds
 * gives INT64_MAX ("never") instead of wrapping into the past, and a negative budget counts as
 * 0 (the deadline is the base itself, so a loop still tries once). Every `now + ms * 1000`
 * goes through here. */
#ifndef AD_DEADLINE_H
#define AD_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

/* base_us + ms milliseconds, saturating at INT64_MAX, and never past the ceiling (below). */
int64_t ad_deadline_add_ms(int64_t base_us, int64_t ms);

/* ad_now_us() + ms milliseconds, the same way. */
int64_t ad_deadline_after_ms(int64_t ms);

/* The deadline of a step that follows or checks the command's main work (the surfaces open
 * after an action, the modal-dialog check): the command's own deadline_us, but no sooner than
 * floor_ms from now (so the step still gets one try) and no later than cap_ms from now (so a
 * silent part of the desktop cannot stretch the command past its budget twice). */
int64_t ad_deadline_within(int64_t deadline_us, int64_t floor_ms, int64_t cap_ms);

/* The ceiling: a deadline that every deadline built here is capped by, so a caller above a
 * command (batch, with its --timeout-ms budget) bounds the command's own deadlines (its
 * --timeout-ms, a wait's --timeout, the post-action wait, bus read budgets) without the
 * command knowing. Per thread; INT64_MAX (the initial value) means none. Returns the
 * previous ceiling, which the caller restores when its command ends; a new ceiling later
 * than the current one is kept at the current one (an outer budget always wins). */
int64_t ad_deadline_ceiling_push(int64_t ceiling_us);
void ad_deadline_ceiling_restore(int64_t previous_us);
int64_t ad_deadline_ceiling(void);

/* Sleeps ms milliseconds, cut at the ceiling. Returns 0 after the whole sleep, or -1 with
 * TIMEOUT in err (details.kind "budget_exhausted", waited_ms, requested_ms) when the ceiling
 * cut it: a sleep that was asked for and not done is never reported as done. */
int ad_deadline_sleep_ms(int64_t ms, ad_error *err);

#endif
