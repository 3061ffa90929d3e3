/* state_files.h: the one way to read and write under the state root (configuration.md).
 *
 * The root is opened once and verified; every directory below it is opened from its parent's
 * fd with openat(O_NOFOLLOW | O_DIRECTORY), so a symlink anywhere below the root is refused,
 * not followed. Every directory must belong to this user; one opened to write (create) must
 * give group and others no access, one opened to read must not be writable by them.
 * Files are opened O_NOFOLLOW (reads also O_NONBLOCK, so a FIFO cannot block a read) and must
 * be regular files of this user within a size bound. No message ever quotes a file's content.
 *
 * An ad_state_dir owns its fd and its path (malloc'd, for messages); close it with
 * ad_state_dir_close. */
#ifndef AD_STATE_FILES_H
#define AD_STATE_FILES_H

#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

typedef struct {
    int fd;     /* -1 when closed */
    char *path; /* for messages only; never reopened by name */
} ad_state_dir;

#define AD_STATE_DIR_INIT {.fd = -1, .path = NULL}

/* A temp file older than this was left by a killed writer and may be removed. */
#define AD_STATE_STALE_TEMP_S (10 * 60)

/* Opens the namespace directory: root, or root/sessions/<session_id> when session_id is not
 * NULL. With create, missing directories (and the root's missing parents) are made 0700.
 * Returns 0 with *ret open, 1 when a directory is missing and !create, -1 with err (INTERNAL:
 * a symlink, a non-directory, another user's directory, or one group or others can access
 * (create) or write (read only)). */
int ad_state_namespace_open(const char *root, const char *session_id, bool create,
                            ad_state_dir *ret, ad_error *err);

/* Opens parent/name (one path component) with the same checks and return values. */
int ad_state_dir_sub(const ad_state_dir *parent, const char *name, bool create,
                     ad_state_dir *ret, ad_error *err);

/* Opens parent/names[0]/.../names[n-1] one component at a time, each checked as above. */
int ad_state_dir_walk(const ad_state_dir *parent, const char *const *names, size_t n,
                      bool create, ad_state_dir *ret, ad_error *err);

void ad_state_dir_close(ad_state_dir *d);

/* Reads dir/name whole. Returns 0 with a malloc'd NUL-terminated copy in *ret (caller frees)
 * and its length in *ret_len (may be NULL), 1 when the file does not exist, -1 with err when
 * it is not a regular file of this user, is larger than max bytes, or cannot be read. */
int ad_state_file_read(const ad_state_dir *d, const char *name, size_t max, char **ret,
                       size_t *ret_len, ad_error *err);

/* Reads dir/name as JSON: 0 with a new reference in *ret, 1 when absent, -1 with err as
 * ad_state_file_read, or INTERNAL "is not valid JSON" (without the parser's excerpt). */
int ad_state_json_read(const ad_state_dir *d, const char *name, size_t max, json_t **ret,
                       ad_error *err);

/* Replaces dir/name with data through a private temp file ".<name>.XXXXXX" (mode 0600),
 * fsync and renameat, so readers never see a torn file. The temp file is removed on failure. */
int ad_state_file_write(const ad_state_dir *d, const char *name, const char *data, size_t len,
                        ad_error *err);
/* The same without the fsync: still private and atomic (a reader sees the old file or the new
 * one, whole), but after a system crash the file may be old or empty. Only for a file whose
 * loss reads as "none" (latest_snapshot_id, written right after a flushed refmap): it saves
 * the command a second flush (1-3 ms). */
int ad_state_file_write_unflushed(const ad_state_dir *d, const char *name, const char *data,
                                  size_t len, ad_error *err);

/* The entries of d, from a duplicate of its fd (NULL on failure); the caller closedirs it. */
DIR *ad_state_dir_entries(const ad_state_dir *d);

/* True for a name ad_state_file_write uses as a temp file: '.', a name, '.', 6 characters. */
bool ad_state_temp_name(const char *entry);

/* Removes this user's regular temp files in dir last modified at least min_age_s seconds ago
 * (a killed writer's leftovers). Returns how many were removed. */
int ad_state_remove_stale_temps(const ad_state_dir *d, int64_t min_age_s);

#endif
