/* overlay_motion.c: the agent cursor's glide path (overlay_motion.h). */
#include "core/overlay_motion.h"

#include <math.h>

/* splitmix64: a small, well-mixed generator; its sequence depends only on the seed. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A value in [-1, 1]. */
static double signed_unit(uint64_t *state)
{
    return (double)(next_random(state) >> 11) / (double)(1ULL << 52) - 1.0;
}

static uint64_t mix(uint64_t h, double v)
{
    uint64_t s = h ^ (uint64_t)(int64_t)llround(v * 8.0);
    return next_random(&s);
}

int ad_motion_duration_ms(const ad_motion_params *p, double distance)
{
    double share = distance >= AD_MOTION_LONG_PX ? 1.0 : distance / AD_MOTION_LONG_PX;
    if (share < 0)
        share = 0;
    return p->travel_min_ms + (int)lround((p->travel_max_ms - p->travel_min_ms) * share);
}

/* Eases in and out: slow start, fast middle, slow arrival. */
static double ease(double s)
{
    return s * s * (3.0 - 2.0 * s);
}

size_t ad_motion_path(const ad_motion_params *p, double x0, double y0, double x1, double y1,
                      ad_motion_point *out, size_t cap)
{
    if (cap == 0)
        return 0;
    if (cap > AD_MOTION_MAX_POINTS)
        cap = AD_MOTION_MAX_POINTS;
    double dx = x1 - x0, dy = y1 - y0;
    double dist = sqrt(dx * dx + dy * dy);
    int total = ad_motion_duration_ms(p, dist);
    if (dist < 0.5 || total <= 0 || cap < 2) {
        out[0] = (ad_motion_point){x1, y1, total > 0 ? total : 0};
        return 1;
    }
    uint64_t state = p->has_seed ? (uint64_t)p->seed : 0x5eedULL;
    state = mix(mix(mix(mix(state, x0), y0), x1), y1);
    double side = next_random(&state) & 1 ? 1.0 : -1.0;
    /* Past the target by the overshoot, along the move. */
    double ox = x1 + dx * p->overshoot, oy = y1 + dy * p->overshoot;
    /* The control point: the middle, pushed sideways (perpendicular) by the bow. */
    double bend = p->bow * 0.15 * dist * side;
    double cx = (x0 + ox) / 2 - dy / dist * bend, cy = (y0 + oy) / 2 + dx / dist * bend;
    double settle = p->overshoot > 0 ? AD_MOTION_SETTLE : 0.0;
    size_t n = (size_t)(total / AD_MOTION_FRAME_MS) + 1;
    if (n > cap - 1)
        n = cap - 1;
    for (size_t i = 0; i < n; i++) {
        double s = (double)i / (double)n; /* [0, 1): the last point is added below */
        double x, y;
        if (s < 1.0 - settle) {
            double u = ease(s / (1.0 - settle));
            x = (1 - u) * (1 - u) * x0 + 2 * (1 - u) * u * cx + u * u * ox;
            y = (1 - u) * (1 - u) * y0 + 2 * (1 - u) * u * cy + u * u * oy;
        } else {
            double u = ease((s - (1.0 - settle)) / settle);
            x = ox + (x1 - ox) * u;
            y = oy + (y1 - oy) * u;
        }
        double fade = sin(M_PI * s); /* no tremor at the start nor at the target */
        x += p->tremor * fade * signed_unit(&state);
        y += p->tremor * fade * signed_unit(&state);
        out[i] = (ad_motion_point){x, y, (int)lround(s * total)};
    }
    out[n] = (ad_motion_point){x1, y1, total};
    return n + 1;
}
