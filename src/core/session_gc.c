/* session_gc.c: which sessions `session gc` removes, and removing them (core/session.h).
 *
 * The retention rules, from system.md's gc rows ("--older-than: remove only sessions older
 * than this; without --ended, sessions that never ended qualify once stale", "--ended:
 * remove ended sessions even if they wrote in the last five minutes") and sessions.md
 * ("deletes ended sessions that nothing is using"), checked in this order:
 *   1. A session in use (a command holds its use lock, session.h) is kept.
 *   2. With --older-than S, a session created less than S seconds ago is kept.
 *   3. A session that never ended is kept, unless --older-than is given without --ended:
 *      only then may an open session qualify, and only once stale (rule 4). With --ended
 *      only ended sessions go; without --older-than an open session is never removed.
 *   4. A qualifying session something wrote in within the last five minutes (a file's
 *      mtime, AD_SESSION_QUIET_MS) is kept, except an ended session under --ended. So an
 *      open session is stale when it is older than S and quiet for five minutes.
 *   5. Anything else is removed.
 * "Wrote" counts regular files anywhere in the session (manifest, refmaps, trace segments,
 * temp files of a write in flight), not the use lock, which every command opens.
 */
#include "core/session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/state_root.h"

ad_session_gc_verdict ad_session_gc_decide(const ad_session_gc_facts *f,
                                           const ad_session_gc_options *o, int64_t now_ms)
{
    bool ended = f->ended_at >= 0;
    if (f->in_use) /* 1 */
        return AD_GC_KEEP_IN_USE;
    if (o->has_older_than && now_ms - f->created_at < o->older_than_s * 1000) /* 2 */
        return AD_GC_KEEP_TOO_YOUNG;
    if (!ended && (o->ended || !o->has_older_than)) /* 3 */
        return AD_GC_KEEP_OPEN;
    bool recent = f->last_write_ms >= 0 && now_ms - f->last_write_ms < AD_SESSION_QUIET_MS;
    if (recent && !(ended && o->ended)) /* 4 */
        return AD_GC_KEEP_RECENT;
    return AD_GC_REMOVE; /* 5 */
}

/* The deepest directory level gc descends to (snapshots/<id>/, trace/screens/...); a
 * deeper tree is left in place and the session is not reported removed. */
#define TREE_DEPTH_MAX 8

static int64_t mtime_ms(const struct stat *st)
{
    return (int64_t)st->st_mtim.tv_sec * 1000 + st->st_mtim.tv_nsec / 1000000;
}

/* Visits the tree under dfd, never following a symlink: raises *newest to the newest mtime
 * of a regular file (the top level's use lock aside), and with `remove` unlinks every
 * entry after visiting it. Returns 0, or -1 when something could not be read or removed. */
static int tree_visit(int dfd, int depth, bool remove, int64_t *newest)
{
    int copy = dup(dfd);
    DIR *dir = copy >= 0 ? fdopendir(copy) : NULL;
    if (!dir) {
        if (copy >= 0)
            close(copy);
        return -1;
    }
    rewinddir(dir); /* the duplicate shares dfd's offset, at the end after an earlier visit */
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(dir))) {
        const char *name = de->d_name;
        struct stat st;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            rc = -1;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            int sub = depth < TREE_DEPTH_MAX
                          ? openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                          : -1;
            if (sub < 0 || tree_visit(sub, depth + 1, remove, newest) < 0)
                rc = -1;
            if (sub >= 0)
                close(sub);
            if (remove && rc == 0 && unlinkat(dfd, name, AT_REMOVEDIR) != 0)
                rc = -1;
            continue;
        }
        bool lock = depth == 0 && strcmp(name, "session.lock") == 0;
        if (S_ISREG(st.st_mode) && !lock && mtime_ms(&st) > *newest)
            *newest = mtime_ms(&st);
        if (remove && unlinkat(dfd, name, 0) != 0)
            rc = -1;
    }
    closedir(dir);
    return rc;
}

/* Decides on one session directory and removes it when the rules say so. Returns true when
 * it was removed. A directory without a readable manifest (a bare namespace, or one gc
 * cannot trust) is never touched. */
static bool collect_one(const ad_state_dir *sessions, const char *id,
                        const ad_session_gc_options *o)
{
    ad_state_dir d = AD_STATE_DIR_INIT;
    ad_error ignored = AD_ERROR_INIT;
    json_t *m = NULL;
    int lock = -1;
    bool removed = false;
    if (ad_state_dir_sub(sessions, id, false, &d, &ignored) != 0)
        goto done;
    lock = ad_session_lock_open(&d, &ignored);
    if (lock < 0)
        goto done;
    ad_session_gc_facts f = {.last_write_ms = -1, .ended_at = -1};
    /* Without waiting: a lock held shared means a command is running in the session. */
    if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK)
            goto done;
        f.in_use = true;
    }
    /* Read under the lock: no command can end or write the session meanwhile. */
    if (ad_session_manifest_read(&d, id, &m, &ignored) != 0)
        goto done;
    f.created_at = json_integer_value(json_object_get(m, "created_at"));
    if (ad_session_manifest_ended(m))
        f.ended_at = json_integer_value(json_object_get(m, "ended_at"));
    if (!f.in_use && tree_visit(d.fd, 0, false, &f.last_write_ms) < 0)
        goto done;
    if (ad_session_gc_decide(&f, o, ad_wall_ms()) != AD_GC_REMOVE)
        goto done;
    /* The lock file goes too; a command that opened it before waits on our lock, then sees
     * it unlinked (ad_session_enter) and runs in a bare namespace. */
    int64_t unused = -1;
    removed = tree_visit(d.fd, 0, true, &unused) == 0 &&
              unlinkat(sessions->fd, id, AT_REMOVEDIR) == 0;
done:
    if (lock >= 0)
        close(lock);
    json_decref(m);
    ad_error_clear(&ignored);
    ad_state_dir_close(&d);
    return removed;
}

int ad_session_gc(const char *root, const ad_session_gc_options *o, json_t **ret_removed,
                  ad_error *err)
{
    ad_state_dir sessions = AD_STATE_DIR_INIT;
    int rc = ad_session_dir_open(root, &sessions, err);
    if (rc < 0)
        return -1;
    json_t *removed = json_array();
    DIR *dir = rc == 0 ? ad_state_dir_entries(&sessions) : NULL;
    struct dirent *de;
    while (dir && (de = readdir(dir))) {
        if (ad_session_id_valid(de->d_name) && collect_one(&sessions, de->d_name, o))
            json_array_append_new(removed, json_string(de->d_name));
    }
    if (dir)
        closedir(dir);
    ad_state_dir_close(&sessions);
    *ret_removed = removed;
    return 0;
}
