/* refstore.c: atomic refmap files, the latest pointer, and pruning. */
#include "core/refstore.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/refmap_check.h"
#include "core/refmap_codec.h"
#include "core/refs.h"
#include "core/state_files.h"

static int open_namespace(ad_ctx *ctx, bool create, ad_state_dir *ns, ad_error *err)
{
    return ad_state_namespace_open(ctx->state_root, ctx->session_id, create, ns, err);
}

typedef struct {
    char id[AD_SNAPSHOT_ID_MAX + 1];
    struct timespec mtime;
} snap_age;

static int older_first(const void *a, const void *b)
{
    const snap_age *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* Removes snapshots/<id> with its refmap and any temp files a crashed writer left (they would
 * keep the rmdir from succeeding). A symlink at <id> is never followed. */
static void remove_snapshot_dir(int snapshots_fd, const char *id)
{
    int fd = openat(snapshots_fd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        unlinkat(fd, "refmap.json", 0);
        unlinkat(fd, "tree", 0); /* the stored read beside it (tree_store.h) */
        ad_state_dir d = {.fd = fd};
        ad_state_remove_stale_temps(&d, 0);
        close(fd);
    }
    unlinkat(snapshots_fd, id, AT_REMOVEDIR);
}

/* What one entry of snapshots/ is: a saved snapshot (with its refmap's mtime), an abandoned
 * partial one (no refmap and untouched for AD_STATE_STALE_TEMP_S), or something to leave. */
typedef enum { ENTRY_OTHER, ENTRY_SAVED, ENTRY_ABANDONED } entry_kind;

static entry_kind classify(int snapshots_fd, const char *id, struct timespec *mtime)
{
    int fd = openat(snapshots_fd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return ENTRY_OTHER;
    struct stat dir_st, file_st;
    entry_kind kind = ENTRY_OTHER;
    if (fstat(fd, &dir_st) == 0 && dir_st.st_uid == geteuid()) {
        if (fstatat(fd, "refmap.json", &file_st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(file_st.st_mode)) {
            kind = ENTRY_SAVED;
            *mtime = file_st.st_mtim;
        } else if (time(NULL) - dir_st.st_mtime >= AD_STATE_STALE_TEMP_S) {
            kind = ENTRY_ABANDONED; /* a failed or killed writer's directory */
        }
    }
    close(fd);
    return kind;
}

int ad_refstore_prune(const ad_state_dir *snapshots, const char *protect, int max, int keep)
{
    DIR *d = ad_state_dir_entries(snapshots);
    if (!d)
        return 0;
    size_t n = 0, cap = 0;
    snap_age *list = NULL;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!ad_snapshot_id_valid(e->d_name))
            continue;
        struct timespec mtime;
        entry_kind kind = classify(snapshots->fd, e->d_name, &mtime);
        if (kind == ENTRY_ABANDONED && !(protect && strcmp(e->d_name, protect) == 0)) {
            remove_snapshot_dir(snapshots->fd, e->d_name);
            removed++;
        }
        if (kind != ENTRY_SAVED)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            snap_age *l = realloc(list, cap * sizeof(*l));
            if (!l)
                break;
            list = l;
        }
        memcpy(list[n].id, e->d_name, strlen(e->d_name) + 1); /* valid ids fit */
        list[n].mtime = mtime;
        n++;
    }
    closedir(d);
    if ((int)n > max) {
        qsort(list, n, sizeof(*list), older_first);
        size_t excess = n - (size_t)keep;
        for (size_t i = 0; i < n && excess > 0; i++) {
            if (protect && strcmp(list[i].id, protect) == 0)
                continue;
            remove_snapshot_dir(snapshots->fd, list[i].id);
            excess--;
            removed++;
        }
    }
    free(list);
    return removed;
}

json_t *ad_window_brief_json(const ad_window *w)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(w->id));
    json_object_set_new(o, "title", w->title ? json_string(w->title) : json_null());
    return o;
}

json_t *ad_refmap_new(const char *id, const ad_present_source *src, uint64_t next_ref)
{
    const ad_window *w = src->window;
    json_t *m = json_object();
    json_object_set_new(m, "snapshot_id", json_string(id));
    json_object_set_new(m, "created_at", json_integer(ad_wall_ms()));
    json_object_set_new(m, "next_ref", json_integer((json_int_t)next_ref));
    json_object_set_new(m, "app", json_string(w->app_name ? w->app_name : ""));
    json_object_set_new(m, "window", ad_window_brief_json(w));
    json_object_set_new(m, "surface", json_string(src->surface));
    json_object_set_new(m, "source", ad_refmap_source_new(src));
    json_object_set_new(m, "refs", json_object());
    return m;
}

int ad_refstore_save(ad_ctx *ctx, const json_t *refmap, ad_error *err)
{
    const char *id = json_string_value(json_object_get(refmap, "snapshot_id"));
    if (!id || !ad_snapshot_id_valid(id))
        return ad_error_set(err, AD_INTERNAL, "refmap without a valid snapshot id");
    size_t len = 0;
    unsigned char *text = ad_refmap_encode(refmap, &len);
    if (!text)
        return ad_error_set(err, AD_INTERNAL, "cannot encode refmap");
    return ad_refstore_save_encoded(ctx, id, text, len, err);
}

int ad_refstore_save_encoded(ad_ctx *ctx, const char *id, unsigned char *text, size_t len,
                             ad_error *err)
{
    if (!id || !ad_snapshot_id_valid(id)) {
        free(text);
        return ad_error_set(err, AD_INTERNAL, "refmap without a valid snapshot id");
    }
    int rc = -1;
    ad_state_dir ns = AD_STATE_DIR_INIT, snaps = AD_STATE_DIR_INIT, dir = AD_STATE_DIR_INIT;
    if (len > AD_REFMAP_MAX_BYTES) {
        ad_error_set(err, AD_INTERNAL, "Ref map of %zu bytes exceeds the 1 MiB limit", len);
        ad_error_suggest(err, "Narrow the observation with --skeleton, --max-depth, --root, or "
                              "a tighter find");
        goto done;
    }
    if (open_namespace(ctx, true, &ns, err) != 0 ||
        ad_state_dir_sub(&ns, "snapshots", true, &snaps, err) != 0 ||
        ad_state_dir_sub(&snaps, id, true, &dir, err) != 0)
        goto done;
    if (ad_state_file_write(&dir, "refmap.json", (const char *)text, len, err) < 0) {
        /* No empty snapshots/<id>/ stays behind (a re-drilled one keeps its old refmap,
         * so the rmdir fails harmlessly). */
        ad_state_dir_close(&dir);
        unlinkat(snaps.fd, id, AT_REMOVEDIR);
        goto done;
    }
    ad_state_remove_stale_temps(&dir, AD_STATE_STALE_TEMP_S);
    /* Unflushed: an empty or old pointer after a crash is "no latest snapshot" or an older
     * one (ad_refstore_latest), and the refmap it names was flushed above. */
    if (ad_state_file_write_unflushed(&ns, "latest_snapshot_id", id, strlen(id), err) < 0)
        goto done;
    ad_state_remove_stale_temps(&ns, AD_STATE_STALE_TEMP_S);
    ad_refstore_prune(&snaps, id, AD_SNAPSHOTS_MAX, AD_SNAPSHOTS_KEEP);
    rc = 0;
done:
    free(text);
    ad_state_dir_close(&dir);
    ad_state_dir_close(&snaps);
    ad_state_dir_close(&ns);
    return rc;
}

static int not_found(ad_error *err, const char *snapshot_id)
{
    ad_error_set(err, AD_SNAPSHOT_NOT_FOUND, "Snapshot '%s' not found", snapshot_id);
    ad_error_suggest(err, "Re-run a snapshot and retry with a ref from the returned snapshot "
                          "(CLI: snapshot, then use the printed @<snapshot_id>:eN ref; use the "
                          "same --session and state root)");
    return -1;
}

/* Opens snapshots/<id> of the namespace: 0, 1 when any level is missing, -1 with err. */
static int open_snapshot_dir(ad_ctx *ctx, const char *snapshot_id, ad_state_dir *ret,
                             ad_error *err)
{
    ad_state_dir ns = AD_STATE_DIR_INIT;
    const char *const names[] = {"snapshots", snapshot_id};
    int rc = open_namespace(ctx, false, &ns, err);
    if (rc == 0)
        rc = ad_state_dir_walk(&ns, names, 2, false, ret, err);
    ad_state_dir_close(&ns);
    return rc;
}

/* Format 2 (refmap_codec.h), or the JSON object earlier versions wrote (format 1: a state
 * root kept from a previous version can still hold one). */
static int decode(const char *bytes, size_t len, json_t **ret, ad_error *err,
                  const char *snapshot_id)
{
    const unsigned char *b = (const unsigned char *)bytes;
    const char *why = NULL;
    if (ad_refmap_is_compact(b, len))
        return ad_refmap_decode(b, len, ret, &why) < 0
                   ? ad_refmap_invalid(err, snapshot_id, why)
                   : 0;
    *ret = json_loadb(bytes, len, JSON_REJECT_DUPLICATES, NULL);
    return *ret ? 0 : ad_refmap_invalid(err, snapshot_id, "'refmap.json' is not valid JSON");
}

int ad_refstore_load(ad_ctx *ctx, const char *snapshot_id, json_t **ret, ad_error *err)
{
    if (!ad_snapshot_id_valid(snapshot_id))
        return not_found(err, snapshot_id);
    ad_state_dir dir = AD_STATE_DIR_INIT;
    json_t *map = NULL;
    int rc = open_snapshot_dir(ctx, snapshot_id, &dir, err);
    if (rc == 0) {
        ad_error why = AD_ERROR_INIT;
        char *bytes = NULL;
        size_t len = 0;
        rc = ad_state_file_read(&dir, "refmap.json", AD_REFMAP_MAX_BYTES, &bytes, &len, &why);
        /* A refmap that is not a private regular file in a known format is no usable
         * snapshot. The reason names the file or the format, never its content. */
        if (rc < 0)
            ad_refmap_invalid(err, snapshot_id, why.message);
        else if (rc == 0 && decode(bytes, len, &map, err, snapshot_id) < 0)
            rc = -1;
        free(bytes);
        ad_error_clear(&why);
    }
    ad_state_dir_close(&dir);
    if (rc == 1)
        return not_found(err, snapshot_id);
    if (rc < 0)
        return -1;
    if (ad_refmap_check(map, snapshot_id, err) < 0) {
        json_decref(map);
        return -1;
    }
    *ret = map;
    return 0;
}

char *ad_refstore_latest(ad_ctx *ctx)
{
    ad_state_dir ns = AD_STATE_DIR_INIT;
    ad_error ignored = AD_ERROR_INIT;
    char *text = NULL;
    /* Any failure (missing, not a regular file, too long) is simply no latest snapshot. */
    if (open_namespace(ctx, false, &ns, &ignored) == 0 &&
        ad_state_file_read(&ns, "latest_snapshot_id", AD_SNAPSHOT_ID_MAX, &text, NULL,
                           &ignored) == 0 &&
        !ad_snapshot_id_valid(text)) {
        free(text);
        text = NULL;
    }
    ad_state_dir_close(&ns);
    ad_error_clear(&ignored);
    return text;
}
