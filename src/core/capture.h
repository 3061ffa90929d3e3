/* capture.h: a window or a screen rectangle as PNG bytes, through the adapter's capture op.
 * The one path every picture takes: screenshot, visual debug and session screenshots. */
#ifndef AD_CAPTURE_H
#define AD_CAPTURE_H

#include <stddef.h>

#include "core/ctx.h"

typedef struct {
    unsigned char *png; /* owned; free with ad_picture_clear */
    size_t len;
    int x, y; /* the screen point of pixel (0, 0) */
    int width, height;
} ad_picture;

/* Captures `window` (NULL: the screen rectangle `rect`) and encodes it. PLATFORM_NOT_SUPPORTED
 * when the adapter cannot capture; the adapter's errors as they come (adapter.h, capture).
 * Fills *ret on success (the caller clears it). */
int ad_capture_png(ad_ctx *ctx, const ad_window *window, const ad_rect *rect, ad_picture *ret,
                   ad_error *err);

void ad_picture_clear(ad_picture *p);

#endif
