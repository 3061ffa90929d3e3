/* visual_debug.c: see visual_debug.h. */
#include "core/visual_debug.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base64.h"
#include "core/budget.h"
#include "core/text_buf.h"
#include "core/private_file.h"
#include "core/refstore.h"
#include "core/resolve.h"
#include "core/window_select.h"

static bool is_command(const ad_ctx *ctx, const char *name)
{
    return ctx->command_name && strcmp(ctx->command_name, name) == 0;
}

/* --screenshot names a new .html file in a directory that exists. */
static int check_path(const char *path, ad_error *err)
{
    size_t n = strlen(path);
    struct stat st;
    char *copy = strdup(path);
    bool dir_ok = copy && access(dirname(copy), W_OK | X_OK) == 0;
    free(copy);
    const char *why = n <= 5 || strcmp(path + n - 5, ".html") != 0 ? "it must end in .html"
                      : lstat(path, &st) == 0                    ? "the file exists"
                      : !dir_ok ? "its directory does not exist or is not writable"
                                : NULL;
    if (!why)
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "--screenshot '%s' cannot be the visual debug file: %s",
                 path, why);
    ad_error_suggest(err, "Pass --screenshot with a new file name ending in .html");
    ad_error_detail_text(err, "argument", "screenshot");
    return -1;
}

static void note(ad_visual_debug *v, const ad_error *e)
{
    if (!v->warning)
        v->warning = strdup(e->message ? e->message : "The window could not be captured");
}

/* The picture of the live window window_id; empty (and a warning) when it cannot be taken. */
static void window_picture(ad_ctx *ctx, ad_visual_debug *v, const char *window_id,
                           ad_picture *ret)
{
    ad_window w = {0};
    ad_error e = AD_ERROR_INIT;
    memset(ret, 0, sizeof(*ret));
    if (!window_id)
        ad_error_set(&e, AD_WINDOW_NOT_FOUND, "No window was observed to capture");
    else if (ad_window_by_id(ctx, NULL, window_id, ad_deadline_after_ms(3000), &w, &e) == 0)
        ad_capture_png(ctx, &w, NULL, ret, &e);
    if (!ret->png)
        note(v, &e);
    ad_window_clear(&w);
    ad_error_clear(&e);
}

/* data.debug as ad_visual_debug_end builds it, for the path `saved`. */
static json_t *debug_block(const char *saved, const char *warning, bool budgeted)
{
    json_t *d = json_object();
    if (saved) {
        json_object_set_new(d, "path", json_string(saved));
        json_object_set_new(d, "format", json_string("html"));
    }
    /* Under a budget the warning prints in at most AD_DEBUG_WARNING_CLIP bytes, escapes
     * included (a non-ASCII title in it prints as \uXXXX): clipped shorter until it does. */
    for (size_t clip = AD_DEBUG_WARNING_CLIP; warning && budgeted; clip -= 16) {
        ad_budget_set_text(d, "warning", warning, clip);
        size_t printed = ad_json_bytes(json_object_get(d, "warning"));
        if (clip <= 16 || printed <= AD_DEBUG_WARNING_CLIP + 2)
            break;
    }
    if (warning && !budgeted)
        json_object_set_new(d, "warning", json_string(warning));
    return d;
}

/* Takes the largest data.debug off the budget: the path ad_private_file_write will resolve
 * (printed as it will be, escapes and all), and the longest warning kept (its full length a
 * 10-digit number). */
static int reserve_room(ad_ctx *ctx, ad_visual_debug *v, ad_error *err)
{
    char *d = strdup(v->path), *f = strdup(v->path), dir[PATH_MAX], *saved = NULL;
    /* Without a directory realpath resolves the page is never written: no path is shown. */
    if (d && f && realpath(dirname(d), dir) &&
        asprintf(&saved, "%s/%s", strcmp(dir, "/") ? dir : "", basename(f)) < 0)
        saved = NULL;
    char warning[AD_DEBUG_WARNING_CLIP + 2];
    memset(warning, 'x', sizeof(warning) - 1);
    warning[sizeof(warning) - 1] = '\0';
    json_t *block = json_pack("{s:o}", "debug", debug_block(saved, warning, true));
    json_object_set_new(json_object_get(block, "debug"), "warning_length",
                        json_integer(1000000000));
    long long room = (long long)ad_json_bytes(block) - 2 + 1; /* a comma joins it */
    json_decref(block);
    free(saved);
    free(d);
    free(f);
    ctx->budget.data_bytes -= room;
    v->budgeted = true;
    if (ctx->budget.data_bytes > 0)
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "The budget leaves no room for the snapshot beside "
                                       "data.debug (%lld bytes)", room);
    ad_error_suggest(err, "Raise --max-bytes, or drop --debug and --screenshot");
    ad_error_detail_text(err, "argument", "max_bytes");
    return -1;
}

int ad_visual_debug_begin(ad_ctx *ctx, const json_t *args, ad_visual_debug *v, ad_error *err)
{
    memset(v, 0, sizeof(*v));
    v->path = json_string_value(json_object_get(ctx->globals, "screenshot"));
    if (!json_is_true(json_object_get(ctx->globals, "debug")) || !v->path)
        return 0;
    if (check_path(v->path, err) < 0)
        return -1;
    const char *surface = json_string_value(json_object_get(args, "surface"));
    if (is_command(ctx, "snapshot") && surface && strcmp(surface, "window") != 0) {
        ad_error_set(err, AD_INVALID_ARGS, "--debug captures the window surface only, not "
                                           "--surface %s", surface);
        ad_error_suggest(err, "Drop --surface, or drop --debug and --screenshot");
        ad_error_detail_text(err, "argument", "surface");
        return -1;
    }
    v->on = true;
    if (ctx->budget.data_bytes > 0 && reserve_room(ctx, v, err) < 0)
        return -1;
    if (!is_command(ctx, "click"))
        return 0;
    /* The ref's snapshot and window, read only: a ref that does not load fails in the
     * handler with its own error, and the page is never written then. */
    const char *ref = json_string_value(json_object_get(args, "ref_id"));
    ad_resolved r = {0};
    ad_error e = AD_ERROR_INIT;
    if (ref && ad_resolve_load(ctx, ref, &r, &e) == 0) {
        v->ref = strdup(ref);
        v->refmap = json_incref(r.refmap);
        const char *wid = json_string_value(
            json_object_get(json_object_get(r.refmap, "source"), "source_window_id"));
        v->window_id = wid ? strdup(wid) : NULL;
        window_picture(ctx, v, v->window_id, &v->before);
    }
    ad_resolved_clear(&r);
    ad_error_clear(&e);
    return 0;
}

/* One figure: the picture at its natural size with a box per ref that has bounds. */
static void put_figure(ad_buf *b, const char *id, const ad_picture *pic,
                       const json_t *refmap, const char *target)
{
    char *uri = ad_base64_encode(pic->png, pic->len, "data:image/png;base64,");
    if (!uri) {
        b->failed = true;
        return;
    }
    ad_buf_putf(b, "<figure id=\"%s\" style=\"width:%dpx;height:%dpx\">", id, pic->width,
                 pic->height);
    ad_buf_putf(b, "<img width=\"%d\" height=\"%d\" alt=\"%s\" src=\"", pic->width,
                 pic->height, id);
    ad_buf_put(b, uri);
    ad_buf_put(b, "\">");
    free(uri);
    const char *sid = json_string_value(json_object_get(refmap, "snapshot_id"));
    const char *key;
    json_t *e;
    json_object_foreach(json_object_get(refmap, "refs"), key, e) {
        json_t *bd = json_object_get(e, "bounds");
        if (!bd)
            continue;
        double x = json_number_value(json_object_get(bd, "x")) - pic->x;
        double y = json_number_value(json_object_get(bd, "y")) - pic->y;
        double w = json_number_value(json_object_get(bd, "width"));
        double h = json_number_value(json_object_get(bd, "height"));
        if (w <= 0 || h <= 0 || x >= pic->width || y >= pic->height || x + w <= 0 || y + h <= 0)
            continue;
        char full[96];
        snprintf(full, sizeof(full), "@%s:%s", sid ? sid : "", key[0] == '@' ? key + 1 : key);
        const char *role = json_string_value(json_object_get(e, "role"));
        const char *name = json_string_value(json_object_get(e, "name"));
        ad_buf_putf(b, "<div class=\"box%s\" data-ref=\"", target && strcmp(target, full) == 0
                                                               ? " target" : "");
        ad_buf_put_escaped(b, full);
        ad_buf_putf(b, "\" style=\"left:%.0fpx;top:%.0fpx;width:%.0fpx;height:%.0fpx\" "
                        "title=\"", x, y, w, h);
        ad_buf_put_escaped(b, name ? name : "");
        ad_buf_put(b, "\"><span>");
        ad_buf_put_escaped(b, key[0] == '@' ? key + 1 : key);
        ad_buf_put(b, " ");
        ad_buf_put_escaped(b, role ? role : "");
        if (name && *name) {
            ad_buf_put(b, " \"");
            ad_buf_put_escaped(b, name);
            ad_buf_put(b, "\"");
        }
        ad_buf_put(b, "</span></div>");
    }
    ad_buf_put(b, "</figure>\n");
}

static char *page(const ad_ctx *ctx, const ad_visual_debug *v, const ad_picture *after,
                  const json_t *refmap, size_t *ret_len)
{
    ad_buf b = {0};
    ad_buf_put(&b, "<!doctype html>\n<html><head><meta charset=\"utf-8\">"
                    "<title>agent-desktop visual debug</title><style>"
                    "body{margin:0;font:13px sans-serif;color:#111;background:#fff}"
                    "figure{margin:0;position:relative;display:block}"
                    "figure img{display:block}"
                    ".box{position:absolute;box-sizing:border-box;border:2px solid #ff00ff}"
                    ".box.target{border-color:#ff00ff;outline:1px dashed #000}"
                    ".box span{position:absolute;left:0;top:0;max-width:100%;overflow:hidden;"
                    "white-space:nowrap;font:10px/12px monospace;color:#700070;"
                    "background:rgba(255,255,255,.75)}"
                    "p,table{margin:6px 8px}td,th{padding:1px 6px;text-align:left}"
                    "</style></head><body>\n");
    bool click = is_command(ctx, "click");
    if (click && v->before.png)
        put_figure(&b, "before", &v->before, refmap, v->ref);
    if (after->png)
        put_figure(&b, click ? "after" : "window", after, refmap, v->ref);
    ad_buf_put(&b, "<p><b>agent-desktop ");
    ad_buf_put_escaped(&b, ctx->command_name);
    ad_buf_put(&b, "</b>");
    if (v->ref) {
        ad_buf_put(&b, " ");
        ad_buf_put_escaped(&b, v->ref);
    }
    ad_buf_put(&b, click ? ": the window before the click, then after it. Two separate "
                            "observations, not proof that the click was delivered.</p>\n"
                          : ": the window, with the bounds of each ref.</p>\n");
    if (v->warning) {
        ad_buf_put(&b, "<p class=\"warning\">");
        ad_buf_put_escaped(&b, v->warning);
        ad_buf_put(&b, "</p>\n");
    }
    ad_buf_put(&b, "<table><tr><th>ref</th><th>role</th><th>name</th><th>bounds</th></tr>");
    const char *key;
    json_t *e;
    json_object_foreach(json_object_get(refmap, "refs"), key, e) {
        json_t *bd = json_object_get(e, "bounds");
        ad_buf_put(&b, "<tr><td>");
        ad_buf_put_escaped(&b, key);
        ad_buf_put(&b, "</td><td>");
        ad_buf_put_escaped(&b, json_string_value(json_object_get(e, "role")));
        ad_buf_put(&b, "</td><td>");
        ad_buf_put_escaped(&b, json_string_value(json_object_get(e, "name")));
        if (bd)
            ad_buf_putf(&b, "</td><td>%.0f,%.0f %.0fx%.0f",
                         json_number_value(json_object_get(bd, "x")),
                         json_number_value(json_object_get(bd, "y")),
                         json_number_value(json_object_get(bd, "width")),
                         json_number_value(json_object_get(bd, "height")));
        ad_buf_put(&b, "</td></tr>");
    }
    ad_buf_put(&b, "</table>\n</body></html>\n");
    if (b.failed) {
        free(b.buf);
        return NULL;
    }
    *ret_len = b.len;
    return b.buf;
}

void ad_visual_debug_end(ad_ctx *ctx, ad_visual_debug *v, json_t *data)
{
    if (!v->on || !json_is_object(data))
        return;
    ad_picture after = {0};
    json_t *refmap = v->refmap ? json_incref(v->refmap) : NULL;
    ad_error e = AD_ERROR_INIT;
    if (!refmap) { /* snapshot: the snapshot it just saved */
        const char *sid = json_string_value(json_object_get(data, "snapshot_id"));
        if (!sid || ad_refstore_load(ctx, sid, &refmap, &e) < 0)
            note(v, &e);
    }
    window_picture(ctx, v, v->window_id ? v->window_id : ctx->observed_window_id, &after);
    size_t len = 0;
    char *html = page(ctx, v, &after, refmap, &len);
    char *saved = NULL;
    ad_error_clear(&e);
    if (!html)
        ad_error_set(&e, AD_INTERNAL, "Out of memory building the visual debug page");
    else
        ad_private_file_write(v->path, html, len, true, "visual debug file", &saved, &e);
    if (!saved)
        note(v, &e);
    json_object_set_new(data, "debug", debug_block(saved, v->warning, v->budgeted));
    free(saved);
    free(html);
    json_decref(refmap);
    ad_picture_clear(&after);
    ad_error_clear(&e);
}

void ad_visual_debug_clear(ad_visual_debug *v)
{
    ad_picture_clear(&v->before);
    json_decref(v->refmap);
    free(v->ref);
    free(v->window_id);
    free(v->warning);
    memset(v, 0, sizeof(*v));
}
