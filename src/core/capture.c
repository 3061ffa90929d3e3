/* capture.c: see capture.h. */
#include "core/capture.h"

#include <stdlib.h>
#include <string.h>

#include "core/png_image.h"

int ad_capture_png(ad_ctx *ctx, const ad_window *window, const ad_rect *rect, ad_picture *ret,
                   ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (!ctx->adapter->ops->capture) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "This platform cannot capture the screen");
        return -1;
    }
    ad_image img = {0};
    if (ctx->adapter->ops->capture(ctx->adapter, window, rect, &img, err) < 0)
        return -1;
    int rc = ad_png_encode(&img, &ret->png, &ret->len, err);
    if (rc == 0) {
        ret->x = img.x;
        ret->y = img.y;
        ret->width = img.width;
        ret->height = img.height;
    }
    ad_image_clear(&img);
    return rc;
}

void ad_picture_clear(ad_picture *p)
{
    free(p->png);
    memset(p, 0, sizeof(*p));
}
