/* desktop_cache.h: the installed desktop entries kept in one private file in the state root,
 * so that a lookup reads one small file instead of every .desktop file. The file is a hint:
 * it is used only when its key (every applications directory's mtime and each .desktop
 * file's name, mtime and size) equals the key just computed; a stale, corrupt or missing
 * file is ignored and rebuilt. Correctness never depends on it. */
#ifndef AD_DESKTOP_CACHE_H
#define AD_DESKTOP_CACHE_H

#include <stddef.h>

#include "linux/desktop_exec.h"

/* One desktop entry as the lookup keeps it. All fields owned; name may be NULL. */
typedef struct {
    char *id;            /* file name without .desktop */
    char *name;          /* Name=, or NULL */
    char *exec;          /* the program's base name, what a running process is matched by */
    ad_desktop_exec run; /* what the entry starts */
} ad_desktop_record;

/* The key of dirs (in order): for each directory its mtime (or absence), then for each
 * .desktop file in it (readdir order) its name, mtime and size; a stat, never an open.
 * *ret_key (malloc'd, the caller frees) and *ret_len; -1 when out of memory. */
int ad_desktop_cache_key(char *const *dirs, size_t n_dirs, char **ret_key, size_t *ret_len);

/* The records stored at path under key: 0 with *ret (malloc'd, free with
 * ad_desktop_records_free) and *ret_n, or -1 (nothing allocated) when the file is missing,
 * not the caller's private regular file, keyed otherwise, or malformed in any way. */
int ad_desktop_cache_load(const char *path, const char *key, size_t key_len,
                          ad_desktop_record **ret, size_t *ret_n);

/* Writes the n records under key to path, private (0600) and atomically; -1 on failure
 * (the caller goes on without a cache). */
int ad_desktop_cache_save(const char *path, const char *key, size_t key_len,
                          const ad_desktop_record *records, size_t n);

/* Frees n records and the array; NULL is a no-op. */
void ad_desktop_records_free(ad_desktop_record *records, size_t n);

#endif
