/* state_files.c: fd-relative, symlink-refusing access to the state root. */
#include "core/state_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char private_msg[] = "private file parent is accessible by group or other users";

void ad_state_dir_close(ad_state_dir *d)
{
    if (d->fd >= 0)
        close(d->fd);
    free(d->path);
    d->fd = -1;
    d->path = NULL;
}

/* parent + "/" + name without doubling the slash of "/"; NULL when out of memory. */
static char *join(const char *parent, const char *name)
{
    char *p = NULL;
    size_t n = strlen(parent);
    int r = asprintf(&p, "%s%s%s", parent, n && parent[n - 1] == '/' ? "" : "/", name);
    return r < 0 ? NULL : p;
}

static int refuse_dir(const char *path, const char *why, ad_error *err)
{
    ad_error_set(err, AD_INTERNAL, "State directory '%s' %s", path, why);
    ad_error_suggest(err, "Remove %s; agent-desktop recreates it as a private directory", path);
    ad_error_detail(err, "path", json_string(path));
    return -1;
}

/* The fd must be a directory of this user. To write (create), group and others must have
 * no access at all (configuration.md); to read, they must not be able to write, so nobody
 * else can have planted what we read. */
static int verify_dir(int fd, const char *path, bool writing, ad_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode))
        return refuse_dir(path, "is not a directory", err);
    if (st.st_uid != geteuid())
        return refuse_dir(path, "is owned by another user", err);
    if (st.st_mode & (writing ? 077 : 022)) {
        ad_error_set(err, AD_INTERNAL, "%s", private_msg);
        ad_error_suggest(err, "Run chmod 700 on %s, or let agent-desktop create it", path);
        ad_error_detail(err, "path", json_string(path));
        return -1;
    }
    return 0;
}

int ad_state_dir_sub(const ad_state_dir *parent, const char *name, bool create,
                     ad_state_dir *ret, ad_error *err)
{
    ret->fd = -1;
    ret->path = join(parent->path, name);
    if (!ret->path)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    if (create && mkdirat(parent->fd, name, 0700) != 0 && errno != EEXIST) {
        ad_error_set(err, AD_INTERNAL, "Cannot create directory '%s': %s", ret->path,
                     strerror(errno));
        goto fail;
    }
    int fd = openat(parent->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        struct stat st;
        if (e == ENOENT && !create) {
            ad_state_dir_close(ret);
            return 1;
        }
        if (fstatat(parent->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
            refuse_dir(ret->path, "is a symbolic link", err);
        else if (e == ENOTDIR || e == ELOOP)
            refuse_dir(ret->path, "is not a directory", err);
        else
            ad_error_set(err, AD_INTERNAL, "Cannot open directory '%s': %s", ret->path,
                         strerror(e));
        goto fail;
    }
    ret->fd = fd;
    if (verify_dir(fd, ret->path, create, err) < 0)
        goto fail;
    return 0;
fail:
    ad_state_dir_close(ret);
    return -1;
}

/* The root's missing parents are made 0700; existing ones (symlinks included) are the
 * user's own business, outside the state root. */
static int make_parents(const char *parent, ad_error *err)
{
    char *copy = strdup(parent);
    if (!copy)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    for (char *p = copy + 1;; p++) {
        if (*p != '/' && *p)
            continue;
        char c = *p;
        *p = '\0';
        struct stat st;
        if (stat(copy, &st) != 0 && mkdir(copy, 0700) != 0 && errno != EEXIST) {
            ad_error_set(err, AD_INTERNAL, "Cannot create directory '%s': %s", copy,
                         strerror(errno));
            free(copy);
            return -1;
        }
        *p = c;
        if (!c)
            break;
    }
    free(copy);
    return 0;
}

/* root is absolute with no trailing slash and no '.' or '..' component (state_root.c). */
static int open_root(const char *root, bool create, ad_state_dir *ret, ad_error *err)
{
    const char *slash = strrchr(root, '/');
    if (root[0] != '/' || !slash || !slash[1])
        return ad_error_set(err, AD_INTERNAL, "State root '%s' is not a normalized absolute "
                                              "path", root);
    size_t parent_len = slash == root ? 1 : (size_t)(slash - root);
    ad_state_dir parent = {.fd = -1, .path = strndup(root, parent_len)};
    if (!parent.path)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    int rc = -1;
    if (create && strcmp(parent.path, "/") != 0 && make_parents(parent.path, err) < 0)
        goto done;
    parent.fd = open(parent.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parent.fd < 0) {
        if (errno == ENOENT && !create)
            rc = 1;
        else
            ad_error_set(err, AD_INTERNAL, "Cannot open directory '%s': %s", parent.path,
                         strerror(errno));
        goto done;
    }
    rc = ad_state_dir_sub(&parent, slash + 1, create, ret, err);
done:
    ad_state_dir_close(&parent);
    return rc;
}

int ad_state_dir_walk(const ad_state_dir *parent, const char *const *names, size_t n,
                      bool create, ad_state_dir *ret, ad_error *err)
{
    ad_state_dir at = AD_STATE_DIR_INIT;
    int rc = 0;
    ret->fd = -1;
    ret->path = NULL;
    for (size_t i = 0; i < n && rc == 0; i++) {
        ad_state_dir next = AD_STATE_DIR_INIT;
        rc = ad_state_dir_sub(i ? &at : parent, names[i], create, i + 1 < n ? &next : ret,
                              err);
        ad_state_dir_close(&at);
        at = next;
    }
    ad_state_dir_close(&at);
    return rc;
}

int ad_state_namespace_open(const char *root, const char *session_id, bool create,
                            ad_state_dir *ret, ad_error *err)
{
    ad_state_dir r = AD_STATE_DIR_INIT;
    ret->fd = -1;
    ret->path = NULL;
    int rc = open_root(root, create, session_id ? &r : ret, err);
    if (rc != 0 || !session_id)
        return rc;
    const char *const names[] = {"sessions", session_id};
    rc = ad_state_dir_walk(&r, names, 2, create, ret, err);
    ad_state_dir_close(&r);
    return rc;
}

int ad_state_file_read(const ad_state_dir *d, const char *name, size_t max, char **ret,
                       size_t *ret_len, ad_error *err)
{
    char *path = join(d->path, name);
    char *buf = NULL;
    int rc = -1;
    if (!path)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    /* O_NONBLOCK: opening a FIFO with no writer returns at once, and fstat refuses it. */
    int fd = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        if (errno == ENOENT)
            rc = 1;
        else if (errno == ELOOP)
            ad_error_set(err, AD_INTERNAL, "'%s' is a symbolic link", path);
        else
            ad_error_set(err, AD_INTERNAL, "Cannot open '%s': %s", path, strerror(errno));
        goto done;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ad_error_set(err, AD_INTERNAL, "'%s' is not a regular file", path);
        goto done;
    }
    if (st.st_uid != geteuid()) {
        ad_error_set(err, AD_INTERNAL, "'%s' is owned by another user", path);
        goto done;
    }
    if ((size_t)st.st_size > max) {
        ad_error_set(err, AD_INTERNAL, "'%s' is larger than %zu bytes", path, max);
        goto done;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0; /* one spare byte notices a growing file */
    buf = malloc(cap + 1);
    if (!buf) {
        ad_error_set(err, AD_INTERNAL, "out of memory");
        goto done;
    }
    while (n < cap) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            ad_error_set(err, AD_INTERNAL, "Cannot read '%s': %s", path, strerror(errno));
            goto done;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n > max) {
        ad_error_set(err, AD_INTERNAL, "'%s' is larger than %zu bytes", path, max);
        goto done;
    }
    buf[n] = '\0';
    *ret = buf;
    buf = NULL;
    if (ret_len)
        *ret_len = n;
    rc = 0;
done:
    if (fd >= 0)
        close(fd);
    free(buf);
    free(path);
    return rc;
}

int ad_state_json_read(const ad_state_dir *d, const char *name, size_t max, json_t **ret,
                       ad_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc = ad_state_file_read(d, name, max, &text, &len, err);
    if (rc != 0)
        return rc;
    json_error_t jerr;
    *ret = json_loadb(text, len, 0, &jerr);
    free(text);
    if (*ret)
        return 0;
    /* jerr.text quotes the offending token: never echo file content. */
    char *path = join(d->path, name);
    ad_error_set(err, AD_INTERNAL, "'%s' is not valid JSON", path ? path : name);
    free(path);
    return -1;
}

bool ad_state_temp_name(const char *entry)
{
    size_t n = strlen(entry);
    if (n < 9 || entry[0] != '.' || entry[n - 7] != '.')
        return false;
    for (size_t i = n - 6; i < n; i++) {
        char c = entry[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return false;
    }
    return true;
}

static int temp_fill(char *suffix)
{
    static const char alphabet[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char rnd[6];
    if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
        return -1;
    for (size_t i = 0; i < sizeof(rnd); i++)
        suffix[i] = alphabet[rnd[i] % (sizeof(alphabet) - 1)];
    return 0;
}

static int write_file(const ad_state_dir *d, const char *name, const char *data, size_t len,
                      bool flush, ad_error *err)
{
    char tmp[256];
    char *path = join(d->path, name);
    int fd = -1, rc = -1;
    bool created = false;
    if (!path)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    int n = snprintf(tmp, sizeof(tmp), ".%s.XXXXXX", name);
    if (n < 0 || (size_t)n >= sizeof(tmp)) {
        ad_error_set(err, AD_INTERNAL, "file name too long: %s", path);
        goto done;
    }
    for (int attempt = 0; attempt < 16 && fd < 0; attempt++) {
        if (temp_fill(tmp + n - 6) < 0)
            break;
        fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        ad_error_set(err, AD_INTERNAL, "Cannot write in '%s': %s", d->path, strerror(errno));
        goto done;
    }
    created = true;
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            ad_error_set(err, AD_INTERNAL, "Cannot write '%s': %s", path, strerror(errno));
            goto done;
        }
        off += (size_t)w;
    }
    int closed = !flush || fsync(fd) == 0 ? close(fd) : (close(fd), -1);
    fd = -1;
    if (closed != 0) {
        ad_error_set(err, AD_INTERNAL, "Cannot flush '%s': %s", path, strerror(errno));
        goto done;
    }
    if (renameat(d->fd, tmp, d->fd, name) != 0) {
        ad_error_set(err, AD_INTERNAL, "Cannot replace '%s': %s", path, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (fd >= 0)
        close(fd);
    if (rc < 0 && created)
        unlinkat(d->fd, tmp, 0);
    free(path);
    return rc;
}

int ad_state_file_write(const ad_state_dir *d, const char *name, const char *data, size_t len,
                        ad_error *err)
{
    return write_file(d, name, data, len, true, err);
}

int ad_state_file_write_unflushed(const ad_state_dir *d, const char *name, const char *data,
                                  size_t len, ad_error *err)
{
    return write_file(d, name, data, len, false, err);
}

DIR *ad_state_dir_entries(const ad_state_dir *d)
{
    int fd = dup(d->fd); /* closedir closes the fd it owns; d keeps its own */
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir && fd >= 0)
        close(fd);
    /* The duplicate shares d's directory offset: a second listing of d would start where
     * the first one ended and see nothing. */
    if (dir)
        rewinddir(dir);
    return dir;
}

int ad_state_remove_stale_temps(const ad_state_dir *d, int64_t min_age_s)
{
    DIR *dir = ad_state_dir_entries(d);
    if (!dir)
        return 0;
    time_t now = time(NULL);
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        struct stat st;
        if (!ad_state_temp_name(e->d_name) ||
            fstatat(d->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != geteuid() || now - st.st_mtime < min_age_s)
            continue;
        if (unlinkat(d->fd, e->d_name, 0) == 0)
            removed++;
    }
    closedir(dir);
    return removed;
}
