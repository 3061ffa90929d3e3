/* png_image.c: libpng to a memory buffer; private atomic files. */
#include "core/png_image.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    unsigned char *data;
    size_t len, cap;
    bool oom;
} png_buf;

static void on_write(png_structp png, png_bytep bytes, png_size_t n)
{
    png_buf *b = png_get_io_ptr(png);
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 65536);
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *p = realloc(b->data, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

static void on_flush(png_structp png)
{
    (void)png;
}

int ad_png_encode(const ad_image *img, unsigned char **ret, size_t *ret_len, ad_error *err)
{
    png_buf b = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *rows = img->height > 0 ? calloc((size_t)img->height, sizeof(*rows)) : NULL;
    if (!png || !info || !rows || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(b.data);
        return ad_error_set(err, AD_INTERNAL, "The PNG encoder failed");
    }
    png_set_write_fn(png, &b, on_write, on_flush);
    png_set_IHDR(png, info, (png_uint_32)img->width, (png_uint_32)img->height, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    /* level 1: screenshots are large and flat; speed matters more than the last bytes */
    png_set_compression_level(png, 1);
    for (int i = 0; i < img->height; i++)
        rows[i] = img->rgb + (size_t)i * (size_t)img->width * 3;
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    if (b.oom) {
        free(b.data);
        return ad_error_set(err, AD_INTERNAL, "Out of memory encoding the PNG");
    }
    *ret = b.data;
    *ret_len = b.len;
    return 0;
}

static int bad_path(ad_error *err, const char *what, const char *path, const char *why)
{
    ad_error_set(err, AD_INVALID_ARGS, "Cannot write the %s to '%s': %s", what, path, why);
    ad_error_suggest(err, "Pass a path in an existing directory you can write to");
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
    else if (lstat(path, &st) == 0 && (must_be_new || S_ISDIR(st.st_mode)))
        rc = bad_path(err, what, path, must_be_new ? "the file exists" : "it is a directory");
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
    if (ok && must_be_new) { /* link fails with EEXIST: never replaces a file made meanwhile */
        ok = link(tmp, full) == 0;
        saved = errno;
        unlink(tmp);
    } else if (ok) {
        ok = rename(tmp, full) == 0;
        saved = errno;
    }
    if (!ok) {
        unlink(tmp);
        rc = bad_path(err, what, path, strerror(saved ? saved : EIO));
        goto out;
    }
    if (ret_path && !(*ret_path = strdup(full)))
        rc = ad_error_set(err, AD_INTERNAL, "Out of memory");
out:
    free(d);
    free(f);
    return rc;
}
