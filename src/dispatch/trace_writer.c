/* trace_writer.c: segments, seq, the budget and one-write lines (trace_writer.h). */
#include "dispatch/trace_writer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/action_artifacts.h"
#include "core/ctx.h"
#include "core/session.h"
#include "core/state_files.h"
#include "core/trace_event.h"
#include "core/trace_redact.h"
#include "dispatch/dispatch.h"

struct ad_trace_writer {
    struct ad_trace sink; /* first: ctx->trace points here */
    int fd;
    char *session_id;     /* NULL for --trace PATH without a session */
    char *key;            /* the file's identity in the seq table (its path) */
    char segment[64];
    bool budgeted;        /* a session segment (--trace PATH has no budget) */
    int64_t bytes_used, events_used;
    bool entries_spent;   /* no room for a new segment: every event is dropped */
    int64_t resume_seq;   /* the file's next seq if the seq table does not know it */
};

/* The next seq and last ts_ms of each segment this process wrote, so several commands of
 * one process (batch, MCP, the C library's threads) continue one segment's numbering. */
#define SEQ_SLOTS 8
static struct {
    char *key;
    int64_t next_seq, last_ts;
} seq_table[SEQ_SLOTS];
static size_t seq_evict;
static pthread_mutex_t seq_lock = PTHREAD_MUTEX_INITIALIZER;

static int64_t proc_start_ms;
static pthread_once_t proc_start_once = PTHREAD_ONCE_INIT;

static void read_proc_start(void)
{
    int64_t ms = 0;
    char buf[1024];
    FILE *f = fopen("/proc/self/stat", "re");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    /* Field 22 (starttime, clock ticks since boot) counts from after the ')' of comm. */
    char *p = strrchr(buf, ')');
    unsigned long long ticks = 0;
    if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d "
                           "%*d %*d %*d %llu", &ticks) == 1) {
        FILE *s = fopen("/proc/stat", "re");
        char line[256];
        long long btime = -1;
        while (s && fgets(line, sizeof(line), s))
            if (sscanf(line, "btime %lld", &btime) == 1)
                break;
        if (s)
            fclose(s);
        long hz = sysconf(_SC_CLK_TCK);
        if (btime > 0 && hz > 0)
            ms = btime * 1000 + (int64_t)(ticks * 1000ULL / (unsigned long long)hz);
    }
    proc_start_ms = ms > 0 ? ms : ad_wall_ms(); /* without /proc: the process's first trace */
}

int64_t ad_trace_proc_start_ms(void)
{
    pthread_once(&proc_start_once, read_proc_start); /* the C library may trace from threads */
    return proc_start_ms;
}

static int unavailable(ad_error *err, const char *what, const char *why)
{
    ad_error_set(err, AD_INTERNAL, "Cannot open the trace %s: %s", what, why);
    ad_error_suggest(err, "Run the command without --trace-strict, or pass --trace a new file "
                          "in a directory you can write");
    ad_error_detail(err, "kind", json_string("trace_unavailable"));
    return -1;
}

/* Opens dirfd/name to append, created 0600; refuses a symlink, a non-regular file, another
 * user's file and one group or others can read or write. Returns the fd or -1 (errno-like
 * reason in *why). */
static int open_private_append(int dirfd, const char *name, const char **why)
{
    int fd = openat(dirfd, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
                                     O_NONBLOCK, 0600);
    if (fd < 0) {
        *why = errno == ELOOP ? "it is a symlink" : strerror(errno);
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
        *why = "it is not a regular file";
    else if (st.st_uid != geteuid())
        *why = "it belongs to another user";
    else if (st.st_mode & 077)
        *why = "group or other users can access it";
    else
        return fd;
    close(fd);
    return -1;
}

/* The seq of the last whole line of the segment at dirfd/name, or -1 (none, unreadable). */
static int64_t last_seq(int dirfd, const char *name, off_t size)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[4097];
    off_t from = size > 4096 ? size - 4096 : 0;
    ssize_t n = pread(fd, buf, (size_t)(size - from), from);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* The last line that ends in '\n'; a torn tail (no '\n') is skipped. */
    char *end = strrchr(buf, '\n');
    if (!end)
        return -1;
    *end = '\0';
    char *start = strrchr(buf, '\n');
    start = start ? start + 1 : buf;
    json_t *line = json_loads(start, 0, NULL);
    json_int_t seq = json_is_integer(json_object_get(line, "seq"))
                         ? json_integer_value(json_object_get(line, "seq")) : -1;
    json_decref(line);
    return seq;
}

bool ad_trace_is_segment_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n > 6 && strcmp(name + n - 6, ".jsonl") == 0;
}

/* Sums what the session's segments hold into w and says whether a new entry fits. */
static void count_budget(ad_trace_writer *w, const ad_state_dir *dir, const char *own)
{
    DIR *d = ad_state_dir_entries(dir);
    struct dirent *e;
    int64_t entries = 0;
    bool own_exists = false;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        entries++;
        struct stat st;
        if (!ad_trace_is_segment_name(e->d_name) ||
            fstatat(dir->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
            continue;
        own_exists = own_exists || strcmp(e->d_name, own) == 0;
        w->bytes_used += st.st_size;
        int64_t seq = last_seq(dir->fd, e->d_name, st.st_size);
        w->events_used += seq >= 0 ? seq + 1 : 0;
    }
    if (d)
        closedir(d);
    entries += ad_artifact_entries(dir); /* session screenshots and refmap copies */
    w->entries_spent = !own_exists && entries >= AD_TRACE_ENTRIES_MAX;
}

int ad_trace_dir_open(const char *root, const char *session_id, bool create, ad_state_dir *ret,
                      ad_error *err)
{
    ad_state_dir ns = AD_STATE_DIR_INIT;
    int rc = ad_state_namespace_open(root, session_id, false, &ns, err);
    if (rc == 0)
        rc = ad_state_dir_sub(&ns, "trace", create, ret, err);
    ad_state_dir_close(&ns);
    return rc;
}

static int open_session_segment(ad_trace_writer *w, const char *root, const char *session_id,
                                ad_error *err)
{
    ad_state_dir dir = AD_STATE_DIR_INIT;
    int rc = ad_trace_dir_open(root, session_id, true, &dir, err);
    if (rc != 0) {
        if (rc > 0)
            unavailable(err, "directory", "the session directory is missing");
        return -1;
    }
    char name[80];
    snprintf(name, sizeof(name), "%s.jsonl", w->segment);
    w->budgeted = true;
    count_budget(w, &dir, name);
    const char *why = NULL;
    if (!w->entries_spent) {
        w->fd = open_private_append(dir.fd, name, &why);
        if (w->fd < 0) {
            unavailable(err, "segment", why);
            ad_state_dir_close(&dir);
            return -1;
        }
    }
    size_t klen = strlen(dir.path) + strlen(name) + 2;
    w->key = malloc(klen);
    if (w->key)
        snprintf(w->key, klen, "%s/%s", dir.path, name);
    /* Where this process's own segment goes on when the seq table no longer knows it
     * (seq_slot): after its last whole line. */
    struct stat st;
    if (w->fd >= 0 && fstat(w->fd, &st) == 0 && st.st_size > 0)
        w->resume_seq = last_seq(dir.fd, name, st.st_size) + 1;
    ad_state_dir_close(&dir);
    if (!w->key)
        return unavailable(err, "segment", "out of memory");
    return 0;
}

static int emit_sink(struct ad_trace *sink, const char *event, json_t *fields_stolen)
{
    return ad_trace_writer_emit((ad_trace_writer *)sink, event, fields_stolen, NULL);
}

int ad_trace_writer_open(const char *path, const char *state_root, const char *session_id,
                         const json_t *manifest, ad_trace_writer **ret, ad_error *err)
{
    *ret = NULL;
    /* An ended session is sealed: `session end` run again records nothing. */
    bool session = !path && session_id && state_root && ad_session_manifest_tracing(manifest) &&
                   !ad_session_manifest_ended(manifest);
    if (!path && !session)
        return 0;
    ad_trace_writer *w = calloc(1, sizeof(*w));
    if (!w)
        return unavailable(err, "file", "out of memory");
    w->sink.emit = emit_sink;
    w->fd = -1;
    snprintf(w->segment, sizeof(w->segment), "%ld-%lld", (long)getpid(),
             (long long)ad_trace_proc_start_ms());
    w->session_id = session_id ? strdup(session_id) : NULL;
    int rc;
    if (path) {
        const char *why = NULL;
        w->fd = open_private_append(AT_FDCWD, path, &why);
        w->key = strdup(path);
        rc = w->fd < 0 ? unavailable(err, "file", why) : 0;
    } else {
        rc = open_session_segment(w, state_root, session_id, err);
    }
    if (rc < 0) {
        ad_trace_writer_close(w);
        return -1;
    }
    *ret = w;
    return 0;
}

struct ad_trace *ad_trace_writer_sink(ad_trace_writer *w)
{
    return w ? &w->sink : NULL;
}

/* The slot of w's file in seq_table, added (at w->resume_seq) when absent. Called locked. */
static size_t seq_slot(const ad_trace_writer *w)
{
    for (size_t i = 0; i < SEQ_SLOTS; i++)
        if (seq_table[i].key && strcmp(seq_table[i].key, w->key) == 0)
            return i;
    size_t slot = seq_evict++ % SEQ_SLOTS;
    free(seq_table[slot].key);
    seq_table[slot].key = strdup(w->key);
    seq_table[slot].next_seq = w->resume_seq;
    seq_table[slot].last_ts = 0;
    return slot;
}

static int dropped(ad_error *err, const char *why)
{
    if (err) {
        ad_error_set(err, AD_INTERNAL, "The trace event was not written: %s", why);
        ad_error_suggest(err, "Run the command without --trace-strict");
        ad_error_detail(err, "kind", json_string("trace_write_failed"));
    }
    return -1;
}

/* Writes one finished line, adding the common keys; called with seq_lock held. */
static int write_line(ad_trace_writer *w, size_t slot, const char *event, json_t *line,
                      ad_error *err)
{
    int64_t now = ad_wall_ms();
    if (now < seq_table[slot].last_ts)
        now = seq_table[slot].last_ts; /* the wall clock stepped back: keep order */
    json_object_set_new(line, "event", json_string(event));
    json_object_set_new(line, "seq", json_integer((json_int_t)seq_table[slot].next_seq));
    json_object_set_new(line, "ts_ms", json_integer((json_int_t)now));
    json_object_set_new(line, "segment", json_string(w->segment));
    json_object_set_new(line, "session_id",
                        w->session_id ? json_string(w->session_id) : json_null());
    json_object_set_new(line, "writer_pid", json_integer((json_int_t)getpid()));
    json_object_set_new(line, "writer_proc_start_ms",
                        json_integer((json_int_t)ad_trace_proc_start_ms()));
    char *text = json_dumps(line, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    if (!text)
        return dropped(err, "it cannot be serialized");
    size_t len = strlen(text);
    int rc = 0;
    if (len + 1 > AD_TRACE_LINE_MAX) {
        rc = dropped(err, "the event is too large");
    } else if (w->budgeted && (w->bytes_used + (int64_t)len + 1 > AD_TRACE_BYTES_MAX ||
                               w->events_used + 1 > AD_TRACE_EVENTS_MAX)) {
        rc = dropped(err, "the session's trace budget is spent");
    } else {
        text[len] = '\n'; /* the NUL goes; write only len + 1 bytes */
        ssize_t n = write(w->fd, text, len + 1);
        if (n != (ssize_t)(len + 1))
            rc = dropped(err, n < 0 ? strerror(errno) : "a short write");
        if (n > 0) {
            /* A short write still used its seq and bytes: a reader skips the torn line. */
            seq_table[slot].next_seq++;
            seq_table[slot].last_ts = now;
            w->bytes_used += n;
            w->events_used++;
        }
    }
    free(text);
    return rc;
}

int ad_trace_writer_emit(ad_trace_writer *w, const char *event, json_t *fields_stolen,
                         ad_error *err)
{
    json_t *line = json_is_object(fields_stolen) ? fields_stolen : json_object();
    if (line != fields_stolen)
        json_decref(fields_stolen);
    ad_trace_redact(line);
    int rc;
    if (!w || w->fd < 0) {
        rc = dropped(err, w && w->entries_spent ? "the session's trace budget is spent"
                                                : "no trace file is open");
    } else {
        pthread_mutex_lock(&seq_lock);
        size_t slot = seq_slot(w);
        rc = 0;
        if (seq_table[slot].next_seq == 0) {
            /* A segment opens: its first line says who writes it. */
            json_t *meta = json_pack("{s:i, s:s, s:s, s:I, s:I}", "schema", 1, "version",
                                     AD_RELEASE_VERSION, "os", "linux", "pid",
                                     (json_int_t)getpid(), "proc_start_ms",
                                     (json_int_t)ad_trace_proc_start_ms());
            rc = write_line(w, slot, "trace.meta", meta, err);
            json_decref(meta);
        }
        if (rc == 0)
            rc = write_line(w, slot, event, line, err);
        pthread_mutex_unlock(&seq_lock);
    }
    json_decref(line);
    return rc;
}

void ad_trace_writer_close(ad_trace_writer *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        close(w->fd);
    free(w->session_id);
    free(w->key);
    free(w);
}
