/* png_image.h: an ad_image (platform/adapter.h) as PNG bytes, and a private file writer for
 * the pictures and debug pages agent-desktop saves where the caller asks. */
#ifndef AD_PNG_IMAGE_H
#define AD_PNG_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "platform/adapter.h"

/* Encodes img as an 8-bit RGB PNG. *ret (malloc'd, the caller frees) and *ret_len on
 * success; INTERNAL when libpng fails. */
int ad_png_encode(const ad_image *img, unsigned char **ret, size_t *ret_len, ad_error *err);

/* Writes data to path private (0600) and atomically: a temp file in the same directory,
 * then rename over path, or, with must_be_new, a link that fails when path exists. *ret_path
 * (when non-NULL) receives the absolute path (malloc'd, the caller frees). INVALID_ARGS
 * naming `what` for a path that cannot be written (no such directory, a directory, not
 * writable, or, with must_be_new, present). */
int ad_private_file_write(const char *path, const void *data, size_t len, bool must_be_new,
                          const char *what, char **ret_path, ad_error *err);

#endif
