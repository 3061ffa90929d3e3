/* action_artifacts.c: see action_artifacts.h. */
#include "core/action_artifacts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/capture.h"
#include "core/refs.h"
#include "core/session.h"
#include "core/trace_event.h"

static long long count_entries(const ad_state_dir *trace, const char *sub)
{
    ad_state_dir d = AD_STATE_DIR_INIT;
    ad_error e = AD_ERROR_INIT;
    long long n = 0;
    if (ad_state_dir_sub(trace, sub, false, &d, &e) == 0) {
        DIR *it = ad_state_dir_entries(&d);
        struct dirent *de;
        while (it && (de = readdir(it)))
            n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
        if (it)
            closedir(it);
    }
    ad_state_dir_close(&d);
    ad_error_clear(&e);
    return n;
}

long long ad_artifact_entries(const ad_state_dir *trace)
{
    return count_entries(trace, "screens") + count_entries(trace, "refmaps");
}

/* Entries under trace/ itself: its segments and the two artifact directories. */
static long long trace_entries(const ad_state_dir *trace)
{
    DIR *it = ad_state_dir_entries(trace);
    struct dirent *de;
    long long n = 0;
    while (it && (de = readdir(it)))
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    if (it)
        closedir(it);
    return n + ad_artifact_entries(trace);
}

static json_t *skip_json(const char *code, const char *reason)
{
    json_t *o = json_pack("{s:s}", "code", code);
    if (reason)
        json_object_set_new(o, "reason", json_string(reason));
    return o;
}

static json_t *error_skip(const ad_error *err)
{
    return skip_json(ad_error_code_name(err->code),
                     json_string_value(json_object_get(err->details, "reason")));
}

/* Writes trace/<sub>/<name> when the budget has room for a new entry (or it replaces one).
 * NULL on success, else the skip object (new reference). */
static json_t *store(ad_ctx *ctx, const char *sub, const char *name, const void *data,
                     size_t len)
{
    ad_state_dir ns = AD_STATE_DIR_INIT, trace = AD_STATE_DIR_INIT, dir = AD_STATE_DIR_INIT;
    ad_error e = AD_ERROR_INIT;
    json_t *skip = NULL;
    if (ad_state_namespace_open(ctx->state_root, ctx->session_id, false, &ns, &e) != 0 ||
        ad_state_dir_sub(&ns, "trace", true, &trace, &e) != 0) {
        skip = skip_json("INTERNAL", "trace_directory");
    } else if (trace_entries(&trace) >= AD_TRACE_ENTRIES_MAX &&
               faccessat(trace.fd, sub, F_OK, 0) != 0) {
        skip = skip_json("INTERNAL", "budget");
    } else if (ad_state_dir_sub(&trace, sub, true, &dir, &e) != 0) {
        skip = skip_json("INTERNAL", "directory");
    } else if (faccessat(dir.fd, name, F_OK, 0) != 0 &&
               trace_entries(&trace) >= AD_TRACE_ENTRIES_MAX) {
        skip = skip_json("INTERNAL", "budget");
    } else if (ad_state_file_write(&dir, name, data, len, &e) < 0) {
        skip = skip_json("INTERNAL", "write");
    }
    ad_state_dir_close(&dir);
    ad_state_dir_close(&trace);
    ad_state_dir_close(&ns);
    ad_error_clear(&e);
    return skip;
}

/* One picture of w under screens/<stamp>-<side>.png; the event gets `side` (its relative
 * path) or `<side>_skipped`. */
static void picture(ad_ctx *ctx, const ad_window *w, ad_artifacts *a, const char *side)
{
    char name[96], rel[112], key[32];
    snprintf(name, sizeof(name), "%s-%s.png", a->stamp, side);
    snprintf(key, sizeof(key), "%s_skipped", side);
    ad_picture pic = {0};
    ad_error e = AD_ERROR_INIT;
    json_t *skip = NULL;
    if (!w || !w->id)
        skip = skip_json("WINDOW_NOT_FOUND", NULL);
    else if (ad_capture_png(ctx, w, NULL, &pic, &e) < 0)
        skip = error_skip(&e);
    else
        skip = store(ctx, "screens", name, pic.png, pic.len);
    if (skip) {
        json_object_set_new(a->event, key, skip);
    } else {
        snprintf(rel, sizeof(rel), "screens/%s", name);
        json_object_set_new(a->event, side, json_string(rel));
    }
    ad_picture_clear(&pic);
    ad_error_clear(&e);
}

void ad_artifacts_before(ad_ctx *ctx, const ad_window *w, const json_t *refmap,
                         const char *action, const char *ref, ad_artifacts *a)
{
    a->on = ctx->session_id && ad_trace_attached(ctx) &&
            json_is_true(json_object_get(ctx->session_manifest, "screenshots"));
    if (!a->on)
        return;
    static unsigned seq; /* a batch runs several actions in one process */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(a->stamp, sizeof(a->stamp), "%lld-%d-%u",
             (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000, (int)getpid(), seq++);
    a->event = json_pack("{s:s, s:s}", "command", action, "ref", ref);
    const char *sid = json_string_value(json_object_get(refmap, "snapshot_id"));
    char *text = refmap ? json_dumps(refmap, JSON_COMPACT) : NULL;
    bool safe = sid && ad_snapshot_id_valid(sid) && strlen(sid) < 64; /* a file name */
    char name[80], rel[96];
    if (safe && text) {
        snprintf(name, sizeof(name), "%s.json", sid);
        json_t *skip = store(ctx, "refmaps", name, text, strlen(text));
        snprintf(rel, sizeof(rel), "refmaps/%s", name);
        json_object_set_new(a->event, skip ? "refmap_skipped" : "refmap",
                            skip ? skip : json_string(rel));
    }
    free(text);
    picture(ctx, w, a, "before");
}

void ad_artifacts_after(ad_ctx *ctx, const ad_window *w, ad_artifacts *a)
{
    if (!a->on || !a->event)
        return;
    picture(ctx, w, a, "after");
    ad_trace_event(ctx, "action.artifacts", a->event);
    a->event = NULL;
    a->on = false;
}
