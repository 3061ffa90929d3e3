/* clipboard.c: clipboard-get, clipboard-set and clipboard-clear (commands/clipboard.md).
 *
 * The handlers turn arguments into an ad_clip_content and back; the platform's work (and
 * its read-back) is in the adapter's clipboard ops. Image bytes never go inline: a read
 * image is written to --out, or to a private file in the session's clipboard/ directory, or
 * in tmp/ under the state root without a session. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "core/clip_formats.h"
#include "core/ctx.h"
#include "core/state_files.h"
#include "core/utf8.h"

/* Reading waits for another program's answer; writing may move 64 MiB through the server. */
#define CLIPBOARD_READ_MS 10000
#define CLIPBOARD_WRITE_MS 30000

static int no_clipboard(ad_error *err)
{
    return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                        "This build has no clipboard for this platform");
}

static json_t *write_report(const char *action, const char *type)
{
    json_t *d = json_pack("{s:s, s:o, s:[{s:s, s:s, s:s}], s:{s:s}}", "action", action,
                          "disposition", ad_disposition_json(AD_DELIVERED_UNVERIFIED), "steps",
                          "label", "clipboard_write", "mechanism", "semantic_api", "outcome",
                          "succeeded", "target", "kind", "clipboard");
    if (type)
        json_object_set_new(d, "type", json_string(type));
    return d;
}

/* Writes an image to `out` (created 0600, replaced when it exists). INVALID_ARGS when it
 * cannot be written. */
static int write_out(const char *out, const char *data, size_t len, ad_error *err)
{
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0600);
    size_t done = 0;
    while (fd >= 0 && done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    int e = errno;
    if (fd >= 0 && close(fd) < 0 && done == len)
        done = 0, e = errno;
    if (fd < 0 || done != len) {
        ad_error_set(err, AD_INVALID_ARGS, "Cannot write the image to --out: %s", strerror(e));
        ad_error_detail(err, "argument", json_string("out"));
        ad_error_detail_text(err, "path", out);
        return -1;
    }
    return 0;
}

/* A private file for the image in the session's clipboard/ or the root's tmp/. *ret_path
 * is malloc'd (the caller's). */
static int write_private(const ad_ctx *ctx, const char *data, size_t len, char **ret_path,
                         ad_error *err)
{
    ad_state_dir ns = AD_STATE_DIR_INIT, dir = AD_STATE_DIR_INIT;
    char name[96];
    snprintf(name, sizeof(name), "clipboard-%lld-%ld.png", (long long)ad_wall_ms(),
             (long)getpid());
    int rc = ad_state_namespace_open(ctx->state_root, ctx->session_id, true, &ns, err);
    if (rc == 0)
        rc = ad_state_dir_sub(&ns, ctx->session_id ? "clipboard" : "tmp", true, &dir, err);
    if (rc == 0)
        rc = ad_state_file_write(&dir, name, data, len, err);
    char *path = NULL;
    if (rc == 0 && asprintf(&path, "%s/%s", dir.path, name) < 0)
        rc = ad_error_set(err, AD_INTERNAL, "Out of memory");
    ad_state_dir_close(&dir);
    ad_state_dir_close(&ns);
    if (rc != 0)
        return -1;
    *ret_path = path;
    return 0;
}

static json_t *image_result(const ad_ctx *ctx, const json_t *args, const ad_clip_content *c,
                            ad_error *err)
{
    uint32_t w, h;
    if (ad_png_size((const unsigned char *)c->data, c->len, &w, &h) < 0) {
        ad_error_set(err, AD_ACTION_FAILED, "The clipboard's image/png is not a PNG image");
        return NULL;
    }
    const char *out = ad_arg_str(args, "out");
    char *path = NULL;
    if (out ? write_out(out, c->data, c->len, err) : write_private(ctx, c->data, c->len,
                                                                   &path, err))
        return NULL;
    json_t *d = json_pack("{s:s, s:o, s:I, s:I}", "type", "image", "path",
                          ad_json_text(out ? out : path), "width", (json_int_t)w, "height",
                          (json_int_t)h);
    free(path);
    return d;
}

int ad_cmd_clipboard_get(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *format = ad_arg_str(args, "format");
    ad_clip_want want = strcmp(format, "image") == 0       ? AD_CLIP_WANT_IMAGE
                        : strcmp(format, "file-urls") == 0 ? AD_CLIP_WANT_FILE_URLS
                        : strcmp(format, "auto") == 0      ? AD_CLIP_WANT_AUTO
                                                           : AD_CLIP_WANT_TEXT;
    if (!ctx->adapter->ops->clipboard_read)
        return no_clipboard(err);
    ad_clip_content c = {0};
    int r = ctx->adapter->ops->clipboard_read(ctx->adapter, want,
                                              ad_deadline_after_ms(CLIPBOARD_READ_MS), &c, err);
    if (r < 0)
        return -1;
    json_t *d = NULL;
    if (r == 0) {
        static const char *const absent[] = {"text", "image", "file_urls", "auto"};
        d = json_pack("{s:b, s:s}", "found", 0, "type", absent[want]);
    } else if (c.kind == AD_CLIP_IMAGE) {
        d = image_result(ctx, args, &c, err);
    } else if (c.kind == AD_CLIP_FILE_URLS) {
        json_t *urls = json_array();
        for (size_t i = 0; i < c.n_file_urls; i++)
            json_array_append_new(urls, ad_json_text(c.file_urls[i]));
        d = json_pack("{s:s, s:o}", "type", "file_urls", "file_urls", urls);
    } else {
        d = json_pack("{s:o, s:s}", "text", ad_json_text(c.data), "type", "text");
    }
    ad_clip_content_clear(&c);
    if (!d)
        return -1;
    *ret_data = d;
    return 0;
}

/* --file-url: every path must exist; each becomes the file URL of its absolute path. */
static int file_urls_of(const json_t *paths, ad_clip_content *c, ad_error *err)
{
    size_t n = json_array_size(paths);
    c->kind = AD_CLIP_FILE_URLS;
    c->file_urls = calloc(n, sizeof(char *));
    if (!c->file_urls)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    for (size_t i = 0; i < n; i++) {
        const char *path = json_string_value(json_array_get(paths, i));
        char abs[PATH_MAX];
        if (!realpath(path, abs)) {
            ad_error_set(err, AD_INVALID_ARGS, "--file-url %s: %s", path, strerror(errno));
            ad_error_detail(err, "argument", json_string("file_url"));
            ad_error_detail_text(err, "path", path);
            return -1;
        }
        if (!(c->file_urls[c->n_file_urls] = ad_file_url_from_path(abs)))
            return ad_error_set(err, AD_INTERNAL, "Out of memory");
        c->n_file_urls++;
    }
    return 0;
}

static int bad_image(ad_error *err, const char *path, const char *why)
{
    ad_error_set(err, AD_INVALID_ARGS, "--image %s %s", path, why);
    ad_error_detail(err, "argument", json_string("image"));
    ad_error_detail_text(err, "path", path);
    return -1;
}

/* --image: a regular PNG file of at most 64 MiB, read whole. */
static int image_of(const char *path, ad_clip_content *c, ad_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return bad_image(err, path, strerror(e));
    }
    if (!S_ISREG(st.st_mode) || st.st_size > (off_t)AD_CLIP_IMAGE_MAX) {
        close(fd);
        return bad_image(err, path, S_ISREG(st.st_mode) ? "is larger than 64 MiB"
                                                        : "is not a regular file");
    }
    c->kind = AD_CLIP_IMAGE;
    c->data = malloc((size_t)st.st_size + 1);
    while (c->data && c->len < (size_t)st.st_size) {
        ssize_t n = read(fd, c->data + c->len, (size_t)st.st_size - c->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        c->len += (size_t)n;
    }
    close(fd);
    uint32_t w, h;
    if (!c->data || c->len != (size_t)st.st_size)
        return bad_image(err, path, "could not be read whole");
    if (ad_png_size((const unsigned char *)c->data, c->len, &w, &h) < 0)
        return bad_image(err, path, "is not a PNG image");
    return 0;
}

static int text_of(const json_t *text, ad_clip_content *c, ad_error *err)
{
    size_t len = json_string_length(text);
    const char *s = json_string_value(text);
    if (memchr(s, '\0', len)) {
        ad_error_set(err, AD_INVALID_ARGS, "The text holds a NUL byte");
        ad_error_detail(err, "argument", json_string("text"));
        return -1;
    }
    c->kind = AD_CLIP_TEXT;
    c->data = malloc(len + 1);
    if (!c->data)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    memcpy(c->data, s, len + 1);
    c->len = len;
    return 0;
}

int ad_cmd_clipboard_set(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    static const char *const type_names[] = {"text", "image", "file_urls"};
    const json_t *urls = json_object_get(args, "file_url");
    const char *image = ad_arg_str(args, "image");
    ad_clip_content c = {0};
    /* One representation per call: --file-url, else --image, else the text. */
    int rc = json_array_size(urls) ? file_urls_of(urls, &c, err)
             : image               ? image_of(image, &c, err)
                                   : text_of(json_object_get(args, "text"), &c, err);
    if (rc == 0 && !ctx->adapter->ops->clipboard_write)
        rc = no_clipboard(err);
    if (rc == 0)
        rc = ctx->adapter->ops->clipboard_write(ctx->adapter, &c,
                                                ad_deadline_after_ms(CLIPBOARD_WRITE_MS), err);
    ad_clip_kind kind = c.kind;
    ad_clip_content_clear(&c);
    if (rc < 0)
        return -1;
    ad_ctx_note_delivery(ctx, AD_DELIVERED_UNVERIFIED);
    *ret_data = write_report("clipboard-set", type_names[kind]);
    return 0;
}

int ad_cmd_clipboard_clear(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    (void)args;
    if (!ctx->adapter->ops->clipboard_clear)
        return no_clipboard(err);
    if (ctx->adapter->ops->clipboard_clear(ctx->adapter, ad_deadline_after_ms(CLIPBOARD_READ_MS),
                                           err) < 0)
        return -1;
    ad_ctx_note_delivery(ctx, AD_DELIVERED_UNVERIFIED);
    *ret_data = write_report("clipboard-clear", NULL);
    return 0;
}
