/* refstore.c: atomic refmap files, the latest pointer, and pruning. */
#include "core/refstore.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/refs.h"
#include "core/state_root.h"

static char *namespace_dir(ad_ctx *ctx)
{
    return ad_namespace_path(ctx->state_root, ctx->session_id);
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

static void remove_snapshot_dir(const char *snapshots_dir, const char *id)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s/refmap.json", snapshots_dir, id);
    unlink(path);
    snprintf(path, sizeof(path), "%s/%s", snapshots_dir, id);
    /* A leftover temp file from a crashed writer would keep rmdir from succeeding. */
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        char f[8192];
        while ((e = readdir(d)))
            if (e->d_name[0] == '.' && strlen(e->d_name) > 2 &&
                snprintf(f, sizeof(f), "%s/%s", path, e->d_name) < (int)sizeof(f))
                unlink(f);
        closedir(d);
    }
    rmdir(path);
}

int ad_refstore_prune(const char *snapshots_dir, const char *protect, int max, int keep)
{
    DIR *d = opendir(snapshots_dir);
    if (!d)
        return 0;
    size_t n = 0, cap = 0;
    snap_age *list = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!ad_snapshot_id_valid(e->d_name))
            continue;
        char path[8192];
        struct stat st;
        if (snprintf(path, sizeof(path), "%s/%s/refmap.json", snapshots_dir, e->d_name) >=
            (int)sizeof(path))
            continue;
        if (stat(path, &st) != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            snap_age *l = realloc(list, cap * sizeof(*l));
            if (!l)
                break;
            list = l;
        }
        memcpy(list[n].id, e->d_name, strlen(e->d_name) + 1); /* valid ids fit */
        list[n].mtime = st.st_mtim;
        n++;
    }
    closedir(d);
    int removed = 0;
    if ((int)n > max) {
        qsort(list, n, sizeof(*list), older_first);
        size_t excess = n - (size_t)keep;
        for (size_t i = 0; i < n && excess > 0; i++) {
            if (protect && strcmp(list[i].id, protect) == 0)
                continue;
            remove_snapshot_dir(snapshots_dir, list[i].id);
            excess--;
            removed++;
        }
    }
    free(list);
    return removed;
}

int ad_refstore_save(ad_ctx *ctx, const json_t *refmap, ad_error *err)
{
    const char *id = json_string_value(json_object_get(refmap, "snapshot_id"));
    if (!id || !ad_snapshot_id_valid(id))
        return ad_error_set(err, AD_INTERNAL, "refmap without a valid snapshot id");
    char *text = json_dumps(refmap, JSON_COMPACT | JSON_SORT_KEYS);
    if (!text)
        return ad_error_set(err, AD_INTERNAL, "cannot encode refmap");
    size_t len = strlen(text);
    int rc = -1;
    char *ns = namespace_dir(ctx), *snaps = NULL, *dir = NULL;
    if (len > AD_REFMAP_MAX_BYTES) {
        ad_error_set(err, AD_INTERNAL, "Ref map of %zu bytes exceeds the 1 MiB limit", len);
        ad_error_suggest(err, "Narrow the observation with --skeleton, --max-depth, --root, or "
                              "a tighter find");
        goto done;
    }
    if (!ns || asprintf(&snaps, "%s/snapshots", ns) < 0 ||
        asprintf(&dir, "%s/snapshots/%s", ns, id) < 0) {
        ad_error_set(err, AD_INTERNAL, "out of memory");
        goto done;
    }
    if (ad_private_dir_ensure(ctx->state_root, err) < 0 || ad_private_dir_ensure(ns, err) < 0 ||
        ad_private_dir_ensure(dir, err) < 0)
        goto done;
    if (ad_private_file_write(dir, "refmap.json", text, len, err) < 0)
        goto done;
    if (ad_private_file_write(ns, "latest_snapshot_id", id, strlen(id), err) < 0)
        goto done;
    ad_refstore_prune(snaps, id, AD_SNAPSHOTS_MAX, AD_SNAPSHOTS_KEEP);
    rc = 0;
done:
    free(text);
    free(ns);
    free(snaps);
    free(dir);
    return rc;
}

int ad_refstore_load(ad_ctx *ctx, const char *snapshot_id, json_t **ret, ad_error *err)
{
    char *ns = namespace_dir(ctx), *path = NULL;
    int rc = -1;
    if (!ns || asprintf(&path, "%s/snapshots/%s/refmap.json", ns, snapshot_id) < 0) {
        ad_error_set(err, AD_INTERNAL, "out of memory");
        goto done;
    }
    /* save never writes more than the limit: a bigger file is refused before it is parsed,
     * which would cost seconds a command's deadline does not have. */
    struct stat st;
    if (stat(path, &st) == 0 && st.st_size > AD_REFMAP_MAX_BYTES) {
        ad_error_set(err, AD_INTERNAL, "Ref map of %lld bytes exceeds the 1 MiB limit",
                     (long long)st.st_size);
        ad_error_suggest(err, "Take a fresh snapshot");
        goto done;
    }
    json_error_t jerr;
    json_t *map = json_load_file(path, 0, &jerr);
    if (!map) {
        if (access(path, F_OK) == 0) {
            ad_error_set(err, AD_INTERNAL, "Snapshot '%s' is unreadable: %s", snapshot_id,
                         jerr.text);
        } else {
            ad_error_set(err, AD_SNAPSHOT_NOT_FOUND, "Snapshot '%s' not found", snapshot_id);
            ad_error_suggest(err, "Re-run a snapshot and retry with a ref from the returned "
                                  "snapshot (CLI: snapshot, then use the printed "
                                  "@<snapshot_id>:eN ref; use the same --session and state "
                                  "root)");
        }
        goto done;
    }
    *ret = map;
    rc = 0;
done:
    free(ns);
    free(path);
    return rc;
}

char *ad_refstore_latest(ad_ctx *ctx)
{
    char *ns = namespace_dir(ctx), *path = NULL;
    char buf[AD_SNAPSHOT_ID_MAX + 2] = {0};
    if (ns && asprintf(&path, "%s/latest_snapshot_id", ns) >= 0) {
        FILE *f = fopen(path, "r");
        if (f) {
            size_t n = fread(buf, 1, sizeof(buf) - 1, f);
            buf[n] = '\0';
            fclose(f);
        }
    }
    free(ns);
    free(path);
    return ad_snapshot_id_valid(buf) ? strdup(buf) : NULL;
}
