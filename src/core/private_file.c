/* private_file.c: see private_file.h. */
#include "core/private_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int bad_path(ad_error *err, const char *what, const char *path, const char *why)
{
    ad_error_set(err, AD_INVALID_ARGS, "Cannot write the %s to '%s': %s", what, path, why);
    ad_error_suggest(err, "Pass a path in an existing directory you can write to");
    return -1;
}

static int path_exists(ad_error *err, const char *what, const char *path)
{
    ad_error_set(err, AD_INVALID_ARGS, "Cannot write the %s to '%s': the file exists", what,
                 path);
    ad_error_suggest(err, "Pass a new file name");
    ad_error_detail(err, "kind", json_string("file_exists"));
    return -1;
}

static bool write_all(int fd, const unsigned char *p, size_t len)
{
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

int ad_private_file_write(const char *path, const void *data, size_t len, bool must_be_new,
                          const char *what, char **ret_path, ad_error *err)
{
    char *d = strdup(path), *f = strdup(path);
    char dir[PATH_MAX], full[PATH_MAX + NAME_MAX + 2], tmp[PATH_MAX + NAME_MAX + 16];
    int rc = -1;
    if (!d || !f) {
        rc = ad_error_set(err, AD_INTERNAL, "Out of memory");
        goto out;
    }
    const char *base = basename(f);
    struct stat st;
    if (!*path || strcmp(base, "/") == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        rc = bad_path(err, what, path, "not a file name");
    else if (!realpath(dirname(d), dir))
        rc = bad_path(err, what, path, strerror(errno));
    else if (lstat(path, &st) == 0 && must_be_new)
        rc = path_exists(err, what, path);
    else if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
        rc = bad_path(err, what, path, "it is a directory");
    else
        rc = 0;
    if (rc < 0)
        goto out;
    snprintf(full, sizeof(full), "%s/%s", strcmp(dir, "/") ? dir : "", base);
    snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", strcmp(dir, "/") ? dir : "", base);
    int fd = mkstemp(tmp); /* created 0600 */
    if (fd < 0) {
        rc = bad_path(err, what, path, strerror(errno));
        goto out;
    }
    bool ok = fchmod(fd, 0600) == 0 && write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (ok) { /* RENAME_NOREPLACE: never replaces a file made meanwhile */
        ok = renameat2(AT_FDCWD, tmp, AT_FDCWD, full, must_be_new ? RENAME_NOREPLACE : 0) == 0;
        saved = errno;
    }
    if (!ok) {
        unlink(tmp);
        rc = saved == EEXIST && must_be_new ? path_exists(err, what, path)
                                            : bad_path(err, what, path,
                                                       strerror(saved ? saved : EIO));
        goto out;
    }
    if (ret_path && !(*ret_path = strdup(full)))
        rc = ad_error_set(err, AD_INTERNAL, "Out of memory");
out:
    free(d);
    free(f);
    return rc;
}
