/* png_image.h: an ad_image (platform/adapter.h) as PNG bytes. */
#ifndef AD_PNG_IMAGE_H
#define AD_PNG_IMAGE_H

#include <stddef.h>

#include "core/error.h"
#include "platform/adapter.h"

/* Encodes img as an 8-bit RGB PNG. *ret (malloc'd, the caller frees) and *ret_len on
 * success; INTERNAL when libpng fails. */
int ad_png_encode(const ad_image *img, unsigned char **ret, size_t *ret_len, ad_error *err);

#endif
