/* private_file.h: files agent-desktop writes at a path the caller names. */
#ifndef AD_PRIVATE_FILE_H
#define AD_PRIVATE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* Writes data to path private (0600) and atomically: a temp file in the same directory,
 * then rename over path, or, with must_be_new, a rename that fails when path exists.
 * *ret_path (when non-NULL) receives the absolute path (malloc'd, the caller frees).
 * INVALID_ARGS naming `what` for a path that cannot be written (no such directory, a
 * directory, not writable), and, with must_be_new, for one that exists (details.kind
 * "file_exists"). The one writer of files at a caller's path: screenshot, visual debug,
 * trace export --out. */
int ad_private_file_write(const char *path, const void *data, size_t len, bool must_be_new,
                          const char *what, char **ret_path, ad_error *err);

#endif
