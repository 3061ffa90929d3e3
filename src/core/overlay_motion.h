/* overlay_motion.h: the path the overlay's agent cursor glides along (system.md
 * "cursor-overlay": --travel-ms, --bow, --overshoot, --tremor, --motion-seed).
 *
 * A move from (x0, y0) to (x1, y1) takes a time between travel_min and travel_max that grows
 * with the distance (the full maximum from AD_MOTION_LONG_PX on). Its path is a quadratic
 * curve bowed sideways by bow * 0.15 * distance at its middle, aimed past the target by
 * overshoot * distance and settling back on it in the last AD_MOTION_SETTLE of the time,
 * plus a tremor of at most `tremor` points per axis that fades in and out (zero at both
 * ends). The side of the bow and the tremor come from a generator seeded by the move and
 * --motion-seed: the same move with the same seed always gives the same points, another
 * seed another path. The last point is exactly the target, at the travel time.
 *
 * Pure arithmetic: the helper draws these points (src/helper/overlay_x11.c).
 */
#ifndef AD_OVERLAY_MOTION_H
#define AD_OVERLAY_MOTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AD_MOTION_FRAME_MS 16     /* one point per frame */
#define AD_MOTION_LONG_PX 1200.0  /* a move this long or longer takes travel_max */
#define AD_MOTION_SETTLE 0.2      /* the share of the time spent settling back from overshoot */
/* The most points a move has: 700 ms at one point per 16 ms, plus the first and last. */
#define AD_MOTION_MAX_POINTS (700 / AD_MOTION_FRAME_MS + 2)

typedef struct {
    int travel_min_ms, travel_max_ms; /* 0 <= min <= max <= 700 */
    double bow;                       /* 0 to 3 */
    double overshoot;                 /* 0 to 0.15 */
    double tremor;                    /* 0 to 4 points */
    bool has_seed;
    int64_t seed;                     /* --motion-seed */
} ad_motion_params;

typedef struct {
    double x, y;
    int t_ms; /* since the move started */
} ad_motion_point;

/* The travel time of a move of `distance` points. */
int ad_motion_duration_ms(const ad_motion_params *p, double distance);

/* Fills out[0..n) (n <= cap, at most AD_MOTION_MAX_POINTS) with the path's points, one per
 * frame, the first the start (t 0) and the last exactly the target (t = the duration).
 * Returns n (at least 1: a zero-length or zero-time move is just the target). */
size_t ad_motion_path(const ad_motion_params *p, double x0, double y0, double x1, double y1,
                      ad_motion_point *out, size_t cap);

#endif
