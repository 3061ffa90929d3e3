/* session.c: the session manifest, ids, the use lock, start, end, list and the refusals of
 * an ended or multi-agent session (core/session.h). gc is in session_gc.c. */
#include "core/session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/state_root.h"

#define LOCK_NAME "session.lock"
#define MANIFEST_NAME "session.json"

int ad_session_id_format(char *buf, size_t size, int64_t ms, long pid, unsigned n)
{
    int w = snprintf(buf, size, "run-%lld-%ld-%u", (long long)ms, pid, n);
    return w < 0 || (size_t)w >= size ? -1 : 0;
}

json_t *ad_session_manifest_new(const char *id, const ad_session_options *o,
                                int64_t created_at)
{
    return json_pack("{s:i, s:s, s:s?, s:I, s:n, s:s, s:s, s:b, s:b, s:b}",
                     "schema", AD_SESSION_SCHEMA, "session_id", id, "name", o->name,
                     "created_at", (json_int_t)created_at, "ended_at",
                     "trace", o->trace ? "on" : "off",
                     "artifacts", o->screenshots ? "full" : "events",
                     "screenshots", o->screenshots, "cursor", o->cursor,
                     "multi_agent", o->multi_agent);
}

static bool is_one_of(const json_t *v, const char *a, const char *b)
{
    const char *s = json_string_value(v);
    return s && (strcmp(s, a) == 0 || strcmp(s, b) == 0);
}

int ad_session_manifest_check(const json_t *m, const char *id, ad_error *err)
{
    json_t *name = json_object_get(m, "name");
    json_t *ended = json_object_get(m, "ended_at");
    const char *mid = json_string_value(json_object_get(m, "session_id"));
    bool ok = json_is_object(m) &&
              json_integer_value(json_object_get(m, "schema")) == AD_SESSION_SCHEMA &&
              mid && strcmp(mid, id) == 0 && (json_is_null(name) || json_is_string(name)) &&
              json_is_integer(json_object_get(m, "created_at")) &&
              (json_is_null(ended) || json_is_integer(ended)) &&
              is_one_of(json_object_get(m, "trace"), "on", "off") &&
              is_one_of(json_object_get(m, "artifacts"), "events", "full") &&
              json_is_boolean(json_object_get(m, "screenshots")) &&
              json_is_boolean(json_object_get(m, "cursor")) &&
              json_is_boolean(json_object_get(m, "multi_agent"));
    if (ok)
        return 0;
    ad_error_set(err, AD_INTERNAL, "The manifest of session '%s' is not a valid schema-%d "
                                   "session.json", id, AD_SESSION_SCHEMA);
    ad_error_suggest(err, "Start a new session with agent-desktop session start");
    ad_error_detail_text(err, "session_id", id);
    return -1;
}

bool ad_session_manifest_ended(const json_t *m)
{
    return json_is_integer(json_object_get(m, "ended_at"));
}

bool ad_session_manifest_tracing(const json_t *m)
{
    const char *t = json_string_value(json_object_get(m, "trace"));
    return t && strcmp(t, "on") == 0;
}

bool ad_session_manifest_multi_agent(const json_t *m)
{
    return json_is_true(json_object_get(m, "multi_agent"));
}

int ad_session_check_open(const char *id, const json_t *manifest, bool runs_when_ended,
                          ad_error *err)
{
    if (!ad_session_manifest_ended(manifest))
        return 0;
    /* "running it again on an ended session succeeds" (system.md), with or without an id. */
    if (runs_when_ended)
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "Session '%s' has ended", id);
    ad_error_suggest(err, "Unset AGENT_DESKTOP_SESSION and omit --session, then run the "
                          "command or start a new session");
    ad_error_detail(err, "kind", json_string("session_ended"));
    ad_error_detail_text(err, "session_id", id);
    return -1;
}

int ad_session_check_agent(const char *id, const json_t *manifest, bool desktop_action,
                           const char *agent_id, const char *command, ad_error *err)
{
    if (!desktop_action || agent_id || !ad_session_manifest_multi_agent(manifest))
        return 0;
    ad_error_set(err, AD_INVALID_ARGS, "Session '%s' is multi-agent: %s needs an agent id",
                 id, command);
    ad_error_suggest(err, "Pass --agent-id ID or set AGENT_DESKTOP_AGENT_ID, then run the "
                          "command again");
    ad_error_detail(err, "kind", json_string("agent_id_required"));
    ad_error_detail_text(err, "session_id", id);
    return -1;
}

int ad_session_lock_open(const ad_state_dir *d, ad_error *err)
{
    int fd = openat(d->fd, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK,
                    0600);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
        return fd;
    int e = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    ad_error_set(err, AD_INTERNAL, "Cannot open the use lock of session '%s': %s", d->path,
                 e ? strerror(e) : "it is not a regular file of this user");
    return -1;
}

int ad_session_manifest_read(const ad_state_dir *d, const char *id, json_t **ret,
                             ad_error *err)
{
    json_t *m = NULL;
    int rc = ad_state_json_read(d, MANIFEST_NAME, AD_SESSION_MANIFEST_MAX, &m, err);
    if (rc != 0)
        return rc;
    if (ad_session_manifest_check(m, id, err) < 0) {
        json_decref(m);
        return -1;
    }
    *ret = m;
    return 0;
}

/* How long a command waits for the shared use lock: gc holds the exclusive one only while it
 * removes one session, so a longer hold is a stuck or foreign lock, and the command fails
 * closed instead of hanging. */
#define LOCK_WAIT_MS 10000

static int lock_shared(int fd, const char *id, ad_error *err)
{
    int64_t give_up = ad_now_us() + (int64_t)LOCK_WAIT_MS * 1000;
    for (;;) {
        if (flock(fd, LOCK_SH | LOCK_NB) == 0)
            return 0;
        if (errno != EWOULDBLOCK && errno != EINTR)
            return ad_error_set(err, AD_INTERNAL, "Cannot lock session '%s': %s", id,
                                strerror(errno));
        if (ad_now_us() >= give_up)
            break;
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    ad_error_set(err, AD_INTERNAL, "Session '%s' stayed locked for %d s (session gc, or "
                                   "another process holding session.lock)", id,
                 LOCK_WAIT_MS / 1000);
    ad_error_suggest(err, "Wait for session gc to finish, then run the command again");
    ad_error_detail_text(err, "session_id", id);
    return -1;
}

int ad_session_enter(const char *root, const char *id, ad_session_use *use,
                     json_t **ret_manifest, ad_error *err)
{
    *ret_manifest = NULL;
    ad_state_dir ns = AD_STATE_DIR_INIT;
    int rc = ad_state_namespace_open(root, id, false, &ns, err);
    if (rc != 0) /* 1: no directory yet, a bare namespace nothing can collect */
        return rc < 0 ? -1 : 0;
    int fd = ad_session_lock_open(&ns, err);
    struct stat st;
    if (fd < 0 || lock_shared(fd, id, err) < 0) {
        if (fd >= 0)
            close(fd);
        ad_state_dir_close(&ns);
        return -1;
    }
    /* gc unlinks the lock while it holds it exclusively: a lock we got after that guards
     * a session that is gone, which leaves a bare namespace. */
    if (fstat(fd, &st) != 0 || st.st_nlink == 0) {
        close(fd);
        ad_state_dir_close(&ns);
        return 0;
    }
    use->lock_fd = fd;
    rc = ad_session_manifest_read(&ns, id, ret_manifest, err);
    ad_state_dir_close(&ns);
    if (rc < 0) {
        ad_session_leave(use);
        return -1;
    }
    return 0;
}

void ad_session_leave(ad_session_use *use)
{
    if (use->lock_fd >= 0)
        close(use->lock_fd); /* releases the flock */
    use->lock_fd = -1;
}

/* Counts sessions this process started, so two starts in one millisecond (the C library)
 * get different ids. */
static atomic_uint session_counter;

/* mkdirat with a fresh id: the counter moves on past an id some other process took. */
static int make_session_dir(const ad_state_dir *sessions, char *id, size_t size,
                            int64_t now, ad_error *err)
{
    for (int tries = 0; tries < 64; tries++) {
        unsigned n = atomic_fetch_add(&session_counter, 1);
        if (ad_session_id_format(id, size, now, (long)getpid(), n) < 0)
            break;
        if (mkdirat(sessions->fd, id, 0700) == 0)
            return 0;
        if (errno != EEXIST)
            return ad_error_set(err, AD_INTERNAL, "Cannot create session directory in '%s': "
                                "%s", sessions->path, strerror(errno));
    }
    return ad_error_set(err, AD_INTERNAL, "Cannot find a free session id in '%s'",
                        sessions->path);
}

static int write_manifest(const ad_state_dir *d, const json_t *m, ad_error *err)
{
    char *text = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS);
    if (!text)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    int rc = ad_state_file_write(d, MANIFEST_NAME, text, strlen(text), err);
    free(text);
    return rc;
}

int ad_session_create(const char *root, const ad_session_options *o, json_t **ret_manifest,
                      ad_error *err)
{
    ad_state_dir top = AD_STATE_DIR_INIT, sessions = AD_STATE_DIR_INIT;
    ad_state_dir dir = AD_STATE_DIR_INIT, sub = AD_STATE_DIR_INIT;
    json_t *m = NULL;
    char id[96];
    int64_t now = ad_wall_ms();
    int rc = -1;
    if (ad_state_namespace_open(root, NULL, true, &top, err) < 0 ||
        ad_state_dir_sub(&top, "sessions", true, &sessions, err) < 0 ||
        make_session_dir(&sessions, id, sizeof(id), now, err) < 0 ||
        ad_state_dir_sub(&sessions, id, true, &dir, err) < 0)
        goto done;
    if (ad_state_dir_sub(&dir, "snapshots", true, &sub, err) < 0)
        goto done;
    ad_state_dir_close(&sub);
    if (o->trace && ad_state_dir_sub(&dir, "trace", true, &sub, err) < 0)
        goto done;
    ad_state_dir_close(&sub);
    m = ad_session_manifest_new(id, o, now);
    if (!m) {
        ad_error_set(err, AD_INTERNAL, "out of memory");
        goto done;
    }
    /* The manifest last: a directory without one is a bare namespace, never a half session. */
    if (write_manifest(&dir, m, err) < 0)
        goto done;
    *ret_manifest = m;
    m = NULL;
    rc = 0;
done:
    json_decref(m);
    ad_state_dir_close(&sub);
    ad_state_dir_close(&dir);
    ad_state_dir_close(&sessions);
    ad_state_dir_close(&top);
    return rc;
}

static int not_found(const char *id, ad_error *err)
{
    ad_error_set(err, AD_INVALID_ARGS, "There is no session '%s'", id);
    ad_error_suggest(err, "Run agent-desktop session list for the sessions that exist");
    ad_error_detail(err, "kind", json_string("session_not_found"));
    ad_error_detail_text(err, "session_id", id);
    return -1;
}

/* Replaces the manifest of session id (held open with its use lock) with m. */
static int rewrite_manifest(const char *root, const char *id, const json_t *m, ad_error *err)
{
    ad_state_dir ns = AD_STATE_DIR_INIT;
    int rc = ad_state_namespace_open(root, id, false, &ns, err);
    if (rc > 0)
        rc = not_found(id, err);
    else if (rc == 0)
        rc = write_manifest(&ns, m, err);
    ad_state_dir_close(&ns);
    return rc;
}

int ad_session_end(const char *root, const char *id, json_t **ret_manifest, ad_error *err)
{
    if (!ad_session_id_valid(id)) {
        ad_error_set(err, AD_INVALID_ARGS, "Invalid session id '%s': expected 1 to 64 "
                                           "letters, digits, '-' or '_'", id);
        ad_error_suggest(err, "Run agent-desktop session list for the sessions that exist");
        ad_error_detail_text(err, "argument", "id");
        return -1;
    }
    ad_session_use use = AD_SESSION_USE_INIT;
    json_t *m = NULL;
    /* The use lock keeps gc from removing the session between the read and the write. */
    if (ad_session_enter(root, id, &use, &m, err) < 0)
        return -1;
    int rc = 0;
    if (!m) {
        rc = not_found(id, err);
    } else if (!ad_session_manifest_ended(m)) {
        json_object_set_new(m, "ended_at", json_integer((json_int_t)ad_wall_ms()));
        rc = rewrite_manifest(root, id, m, err);
    }
    ad_session_leave(&use);
    if (rc < 0) {
        json_decref(m);
        return -1;
    }
    *ret_manifest = m;
    return 0;
}

int ad_session_set_cursor(const char *root, const char *id, bool cursor, bool multi_agent,
                          ad_error *err)
{
    ad_session_use use = AD_SESSION_USE_INIT;
    json_t *m = NULL;
    if (ad_session_enter(root, id, &use, &m, err) < 0)
        return -1;
    int rc = -1;
    if (!m) {
        rc = not_found(id, err);
    } else {
        json_object_set_new(m, "cursor", json_boolean(cursor));
        json_object_set_new(m, "multi_agent", json_boolean(multi_agent));
        rc = rewrite_manifest(root, id, m, err);
    }
    ad_session_leave(&use);
    json_decref(m);
    return rc < 0 ? -1 : 0;
}

/* The list entry of a manifest (system.md: session_id, name, created_at, ended_at, trace,
 * artifacts; ended_at and name written as null when absent). */
static json_t *list_entry(const json_t *m)
{
    json_t *e = json_object();
    static const char *const keys[] = {"session_id", "name", "created_at", "ended_at",
                                       "trace", "artifacts"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        json_t *v = json_object_get(m, keys[i]);
        json_object_set_new(e, keys[i], v ? json_incref(v) : json_null());
    }
    return e;
}

static int oldest_first(const void *pa, const void *pb)
{
    const json_t *a = *(const json_t *const *)pa, *b = *(const json_t *const *)pb;
    json_int_t ca = json_integer_value(json_object_get(a, "created_at"));
    json_int_t cb = json_integer_value(json_object_get(b, "created_at"));
    if (ca != cb)
        return ca < cb ? -1 : 1;
    return strcmp(json_string_value(json_object_get(a, "session_id")),
                  json_string_value(json_object_get(b, "session_id")));
}

int ad_session_dir_open(const char *root, ad_state_dir *ret, ad_error *err)
{
    ad_state_dir top = AD_STATE_DIR_INIT;
    int rc = ad_state_namespace_open(root, NULL, false, &top, err);
    if (rc == 0)
        rc = ad_state_dir_sub(&top, "sessions", false, ret, err);
    ad_state_dir_close(&top);
    return rc;
}

int ad_session_list(const char *root, json_t **ret_sessions, json_t **ret_warnings,
                    ad_error *err)
{
    ad_state_dir sessions = AD_STATE_DIR_INIT;
    json_t *list = json_array(), *warnings = json_array();
    int rc = ad_session_dir_open(root, &sessions, err);
    if (rc < 0) {
        json_decref(list);
        json_decref(warnings);
        return -1;
    }
    DIR *dir = rc == 0 ? ad_state_dir_entries(&sessions) : NULL;
    struct dirent *de;
    while (dir && (de = readdir(dir))) {
        if (!ad_session_id_valid(de->d_name))
            continue; /* ".", "..", temp files */
        ad_state_dir one = AD_STATE_DIR_INIT;
        ad_error why = AD_ERROR_INIT;
        json_t *m = NULL;
        int found = ad_state_dir_sub(&sessions, de->d_name, false, &one, &why);
        if (found == 0)
            found = ad_session_manifest_read(&one, de->d_name, &m, &why);
        ad_state_dir_close(&one);
        if (found == 0)
            json_array_append_new(list, m);
        else if (found < 0)
            json_array_append_new(warnings, json_pack("{s:s, s:s, s:s?}", "kind",
                                                      "unreadable_manifest", "session_id",
                                                      de->d_name, "message", why.message));
        ad_error_clear(&why);
    }
    if (dir)
        closedir(dir);
    ad_state_dir_close(&sessions);
    size_t n = json_array_size(list);
    json_t **items = n ? calloc(n, sizeof(*items)) : NULL;
    json_t *sorted = json_array();
    for (size_t i = 0; items && i < n; i++)
        items[i] = json_array_get(list, i);
    if (items)
        qsort(items, n, sizeof(*items), oldest_first);
    for (size_t i = 0; items && i < n; i++)
        json_array_append_new(sorted, list_entry(items[i]));
    free(items);
    json_decref(list);
    *ret_sessions = sorted;
    *ret_warnings = warnings;
    return 0;
}
