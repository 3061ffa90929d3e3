/* test_session.c: sessions (core/session.h): the gc retention rules, numbered as in
 * session_gc.c; the manifest on disk; end, list and gc over a private state root; the use
 * lock. Through dispatch: test_session_commands.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/session.h"
#include "fake_adapter.h"
#include "test_util.h"

/* ---- gc rules (pure) ----------------------------------------------------------------- */

#define NOW 10000000000LL
#define MIN (60 * 1000LL)

static ad_session_gc_verdict decide(int64_t age_ms, int64_t ended_ago_ms, int64_t wrote_ago_ms,
                                    bool in_use, bool has_older, int64_t older_s, bool ended)
{
    ad_session_gc_facts f = {.created_at = NOW - age_ms,
                             .ended_at = ended_ago_ms < 0 ? -1 : NOW - ended_ago_ms,
                             .last_write_ms = wrote_ago_ms < 0 ? -1 : NOW - wrote_ago_ms,
                             .in_use = in_use};
    ad_session_gc_options o = {.has_older_than = has_older, .older_than_s = older_s,
                               .ended = ended};
    return ad_session_gc_decide(&f, &o, NOW);
}

/* Rule 1: in use is kept whatever else holds, even ended, old, quiet, under --ended. */
static void test_gc_rule1_in_use_is_kept(void **state)
{
    (void)state;
    assert_int_equal(decide(60 * MIN, 30 * MIN, 30 * MIN, true, true, 0, true),
                     AD_GC_KEEP_IN_USE);
    assert_int_equal(decide(60 * MIN, 30 * MIN, 30 * MIN, true, false, 0, false),
                     AD_GC_KEEP_IN_USE);
}

/* Rule 2: --older-than keeps younger sessions, ended or not; at the bound it qualifies. */
static void test_gc_rule2_older_than_keeps_young(void **state)
{
    (void)state;
    assert_int_equal(decide(10 * MIN, 9 * MIN, 9 * MIN, false, true, 3600, true),
                     AD_GC_KEEP_TOO_YOUNG);
    assert_int_equal(decide(10 * MIN, -1, 9 * MIN, false, true, 3600, false),
                     AD_GC_KEEP_TOO_YOUNG);
    assert_int_equal(decide(60 * MIN, 9 * MIN, 9 * MIN, false, true, 3600, true),
                     AD_GC_REMOVE);
}

/* Rule 3: an open session goes only with --older-than and without --ended. */
static void test_gc_rule3_open_needs_older_than_without_ended(void **state)
{
    (void)state;
    assert_int_equal(decide(60 * MIN, -1, 30 * MIN, false, false, 0, false), AD_GC_KEEP_OPEN);
    assert_int_equal(decide(60 * MIN, -1, 30 * MIN, false, false, 0, true), AD_GC_KEEP_OPEN);
    assert_int_equal(decide(60 * MIN, -1, 30 * MIN, false, true, 60, true), AD_GC_KEEP_OPEN);
    assert_int_equal(decide(60 * MIN, -1, 30 * MIN, false, true, 60, false), AD_GC_REMOVE);
}

/* Rule 4: a write in the last five minutes keeps a session, except an ended one under
 * --ended; so an open session must be old and quiet (stale). */
static void test_gc_rule4_recent_write_keeps(void **state)
{
    (void)state;
    /* ended, wrote 1 minute ago: kept without --ended, removed with it */
    assert_int_equal(decide(60 * MIN, 1 * MIN, 1 * MIN, false, false, 0, false),
                     AD_GC_KEEP_RECENT);
    assert_int_equal(decide(60 * MIN, 1 * MIN, 1 * MIN, false, false, 0, true), AD_GC_REMOVE);
    /* open and old, but wrote 4 minutes ago: not stale yet */
    assert_int_equal(decide(60 * MIN, -1, 4 * MIN, false, true, 60, false), AD_GC_KEEP_RECENT);
    /* exactly five minutes quiet qualifies */
    assert_int_equal(decide(60 * MIN, -1, 5 * MIN, false, true, 60, false), AD_GC_REMOVE);
}

/* Rule 5: an ended, quiet session nothing uses is removed with no flags at all. */
static void test_gc_rule5_ended_quiet_is_removed(void **state)
{
    (void)state;
    assert_int_equal(decide(60 * MIN, 30 * MIN, 30 * MIN, false, false, 0, false),
                     AD_GC_REMOVE);
    assert_int_equal(decide(60 * MIN, 30 * MIN, -1, false, false, 0, false), AD_GC_REMOVE);
}

/* ---- the manifest and files on disk -------------------------------------------------- */

typedef struct {
    tu_home home;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_home_begin(&f->home);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    tu_home_end(&f->home);
    free(f);
    return 0;
}

static char *path_of(fx *f, const char *id, const char *name)
{
    char *p = NULL;
    if (asprintf(&p, "%s/sessions/%s%s%s", f->home.state, id, name ? "/" : "", name ? name : "")
        < 0)
        abort();
    return p;
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mode & 07777;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static json_t *start(fx *f, const ad_session_options *o)
{
    ad_error err = AD_ERROR_INIT;
    json_t *m = NULL;
    assert_int_equal(ad_session_create(f->home.state, o, &m, &err), 0);
    return m;
}

static void test_id_format(void **state)
{
    (void)state;
    char id[64];
    assert_int_equal(ad_session_id_format(id, sizeof(id), 1793352720537LL, 17009, 0), 0);
    assert_string_equal(id, "run-1793352720537-17009-0");
    assert_int_equal(ad_session_id_format(id, 8, 1793352720537LL, 17009, 0), -1);
}

static void test_start_writes_a_private_manifest(void **state)
{
    fx *f = *state;
    ad_session_options o = {.name = "docs-example", .trace = true};
    json_t *m = start(f, &o);
    const char *id = json_string_value(json_object_get(m, "session_id"));
    regex_t re;
    assert_int_equal(regcomp(&re, "^run-[0-9]{13}-[0-9]+-[0-9]+$", REG_EXTENDED | REG_NOSUB),
                     0);
    assert_int_equal(regexec(&re, id, 0, NULL, 0), 0);
    regfree(&re);
    char *dir = path_of(f, id, NULL), *file = path_of(f, id, "session.json");
    char *snaps = path_of(f, id, "snapshots"), *trace = path_of(f, id, "trace");
    assert_int_equal(mode_of(dir), 0700);
    assert_int_equal(mode_of(file), 0600);
    assert_int_equal(mode_of(snaps), 0700);
    assert_int_equal(mode_of(trace), 0700);
    /* The file itself, read independently, holds the fixed format. */
    char *text = tu_read_file(file, NULL);
    json_t *disk = json_loads(text, 0, NULL);
    assert_non_null(disk);
    assert_int_equal(json_object_size(disk), 10);
    assert_int_equal(tu_int(disk, "schema"), 1);
    assert_string_equal(tu_str(disk, "session_id"), id);
    assert_string_equal(tu_str(disk, "name"), "docs-example");
    assert_true(json_is_null(tu_at(disk, "ended_at")));
    assert_string_equal(tu_str(disk, "trace"), "on");
    assert_string_equal(tu_str(disk, "artifacts"), "events");
    assert_true(json_is_false(tu_at(disk, "screenshots")));
    assert_true(json_is_false(tu_at(disk, "cursor")));
    assert_true(json_is_false(tu_at(disk, "multi_agent")));
    assert_true(llabs(tu_int(disk, "created_at") - ad_wall_ms()) < 60 * 1000);
    assert_false(tu_has_dotfile(dir)); /* no temp file left behind */
    json_decref(disk);
    free(text);
    free(dir), free(file), free(snaps), free(trace);
    json_decref(m);
}

static void test_no_trace_and_screenshots_are_recorded(void **state)
{
    fx *f = *state;
    ad_session_options quiet = {.trace = false};
    json_t *m = start(f, &quiet);
    const char *id = json_string_value(json_object_get(m, "session_id"));
    char *trace = path_of(f, id, "trace");
    assert_false(exists(trace));
    assert_string_equal(tu_str(m, "trace"), "off");
    assert_true(json_is_null(tu_at(m, "name")));
    free(trace);
    ad_session_options full = {.trace = true, .screenshots = true, .cursor = true,
                               .multi_agent = true};
    json_t *m2 = start(f, &full);
    /* Two starts in one process (and maybe one millisecond) get two ids. */
    assert_string_not_equal(tu_str(m2, "session_id"), id);
    assert_string_equal(tu_str(m2, "artifacts"), "full");
    assert_true(ad_session_manifest_multi_agent(m2));
    json_decref(m);
    json_decref(m2);
}

static void test_manifest_check_rejects_malformed(void **state)
{
    (void)state;
    ad_session_options o = {.trace = true};
    json_t *good = ad_session_manifest_new("run-1", &o, 5);
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_session_manifest_check(good, "run-1", &err), 0);
    /* another session's manifest copied in is not this session's */
    assert_int_equal(ad_session_manifest_check(good, "run-2", &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    ad_error_clear(&err);
    const char *breakers[] = {"{s:i}", "{s:s}", "{s:s}", "{s:s}", "{s:i}"};
    const char *keys[] = {"schema", "trace", "artifacts", "ended_at", "multi_agent"};
    const char *vals[] = {NULL, "maybe", "some", "soon", NULL};
    for (size_t i = 0; i < 5; i++) {
        json_t *bad = json_deep_copy(good);
        json_t *patch = vals[i] ? json_pack(breakers[i], keys[i], vals[i])
                                : json_pack(breakers[i], keys[i], 2);
        json_object_update(bad, patch);
        assert_int_equal(ad_session_manifest_check(bad, "run-1", &err), -1);
        ad_error_clear(&err);
        json_decref(patch);
        json_decref(bad);
    }
    json_decref(good);
}

static void test_end_seals_once_and_is_idempotent(void **state)
{
    fx *f = *state;
    ad_session_options o = {.trace = true};
    json_t *m = start(f, &o);
    char *id = strdup(json_string_value(json_object_get(m, "session_id")));
    ad_error err = AD_ERROR_INIT;
    json_t *e1 = NULL, *e2 = NULL;
    assert_int_equal(ad_session_end(f->home.state, id, &e1, &err), 0);
    assert_true(ad_session_manifest_ended(e1));
    json_int_t at = json_integer_value(json_object_get(e1, "ended_at"));
    struct timespec ms2 = {0, 2 * 1000 * 1000};
    nanosleep(&ms2, NULL);
    assert_int_equal(ad_session_end(f->home.state, id, &e2, &err), 0);
    assert_int_equal(json_integer_value(json_object_get(e2, "ended_at")), at);
    /* The sealed manifest on disk, read independently. */
    char *file = path_of(f, id, "session.json");
    char *text = tu_read_file(file, NULL);
    json_t *disk = json_loads(text, 0, NULL);
    assert_int_equal(tu_int(disk, "ended_at"), at);
    assert_int_equal(mode_of(file), 0600);
    json_decref(disk);
    free(text);
    free(file);
    /* An id with no manifest is not a session to end. */
    assert_int_equal(ad_session_end(f->home.state, "run-none", &e2, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_string_equal(tu_str(err.details, "kind"), "session_not_found");
    ad_error_clear(&err);
    json_decref(e1);
    json_decref(e2);
    json_decref(m);
    free(id);
}

/* Writes a manifest by hand (the format other tools may also write). */
static void plant(fx *f, const char *id, int64_t created, const char *ended)
{
    char *dir = path_of(f, id, NULL), *sessions = NULL, *file = path_of(f, id, "session.json");
    if (asprintf(&sessions, "%s/sessions", f->home.state) < 0)
        abort();
    mkdir(f->home.state, 0700);
    mkdir(sessions, 0700);
    assert_int_equal(mkdir(dir, 0700), 0);
    char text[512];
    snprintf(text, sizeof(text), "{\"schema\":1,\"session_id\":\"%s\",\"name\":null,"
             "\"created_at\":%lld,\"ended_at\":%s,\"trace\":\"off\",\"artifacts\":\"events\","
             "\"screenshots\":false,\"cursor\":false,\"multi_agent\":false}", id,
             (long long)created, ended);
    tu_write_file(file, text);
    free(dir), free(sessions), free(file);
}

/* Sets every file's mtime under a session to `ago_s` seconds ago. */
static void age_files(fx *f, const char *id, const char *name, int ago_s)
{
    char *file = path_of(f, id, name);
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= ago_s;
    t[1] = t[0];
    assert_int_equal(utimensat(AT_FDCWD, file, t, 0), 0);
    free(file);
}

static void test_list_is_oldest_first_and_names_bad_manifests(void **state)
{
    fx *f = *state;
    plant(f, "run-b", 2000, "null");
    plant(f, "run-a", 3000, "3500");
    plant(f, "run-c", 1000, "null");
    plant(f, "run-bad", 500, "\"soon\"");
    char *bare = path_of(f, "bare-ns", NULL);
    assert_int_equal(mkdir(bare, 0700), 0); /* a --session namespace: not a session */
    free(bare);
    json_t *list = NULL, *warnings = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_session_list(f->home.state, &list, &warnings, &err), 0);
    assert_int_equal(json_array_size(list), 3);
    assert_string_equal(tu_str(list, "0.session_id"), "run-c");
    assert_string_equal(tu_str(list, "1.session_id"), "run-b");
    assert_string_equal(tu_str(list, "2.session_id"), "run-a");
    assert_true(json_is_null(tu_at(list, "0.ended_at")));
    assert_int_equal(tu_int(list, "2.ended_at"), 3500);
    assert_int_equal(json_object_size(json_array_get(list, 0)), 6);
    assert_int_equal(json_array_size(warnings), 1);
    assert_string_equal(tu_str(warnings, "0.session_id"), "run-bad");
    json_decref(list);
    json_decref(warnings);
    /* No state root yet at all: an empty list. */
    tu_rmrf(f->home.state);
    assert_int_equal(ad_session_list(f->home.state, &list, &warnings, &err), 0);
    assert_int_equal(json_array_size(list), 0);
    json_decref(list);
    json_decref(warnings);
}

static json_t *gc(fx *f, bool has_older, int64_t older_s, bool ended)
{
    ad_session_gc_options o = {.has_older_than = has_older, .older_than_s = older_s,
                               .ended = ended};
    json_t *removed = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_session_gc(f->home.state, &o, &removed, &err), 0);
    return removed;
}

static bool removed_has(const json_t *removed, const char *id)
{
    size_t i;
    json_t *v;
    json_array_foreach(removed, i, v) {
        if (strcmp(json_string_value(v), id) == 0)
            return true;
    }
    return false;
}

static void test_gc_on_disk(void **state)
{
    fx *f = *state;
    int64_t hour_ago = ad_wall_ms() - 60 * MIN;
    plant(f, "run-quiet-ended", hour_ago, "1");
    age_files(f, "run-quiet-ended", "session.json", 600);
    plant(f, "run-fresh-ended", hour_ago, "2");     /* its manifest was just written */
    plant(f, "run-stale-open", hour_ago, "null");
    age_files(f, "run-stale-open", "session.json", 600);
    plant(f, "run-used-ended", hour_ago, "3");
    age_files(f, "run-used-ended", "session.json", 600);
    char *bare = path_of(f, "bare-ns", NULL);
    assert_int_equal(mkdir(bare, 0700), 0);
    /* A command running in run-used-ended holds its use lock. */
    ad_session_use use = AD_SESSION_USE_INIT;
    json_t *m = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_session_enter(f->home.state, "run-used-ended", &use, &m, &err), 0);
    assert_non_null(m);

    json_t *r = gc(f, false, 0, false);
    assert_int_equal(json_array_size(r), 1);
    assert_true(removed_has(r, "run-quiet-ended"));
    char *gone = path_of(f, "run-quiet-ended", NULL);
    assert_false(exists(gone));
    json_decref(r);

    r = gc(f, false, 0, true); /* --ended: the fresh one goes, the one in use stays */
    assert_int_equal(json_array_size(r), 1);
    assert_true(removed_has(r, "run-fresh-ended"));
    json_decref(r);

    r = gc(f, true, 24 * 3600, false); /* nothing is a day old */
    assert_int_equal(json_array_size(r), 0);
    json_decref(r);

    r = gc(f, true, 60, false); /* the stale open one qualifies now */
    assert_int_equal(json_array_size(r), 1);
    assert_true(removed_has(r, "run-stale-open"));
    json_decref(r);

    ad_session_leave(&use);
    r = gc(f, false, 0, true);
    assert_true(removed_has(r, "run-used-ended"));
    json_decref(r);
    assert_true(exists(bare)); /* a bare namespace is never collected */
    free(bare);
    free(gone);
    json_decref(m);
}

/* A use lock held exclusively (gc removing, or a stuck foreign holder) makes a command fail
 * closed after its bounded wait instead of hanging. */
static void test_enter_fails_closed_on_a_held_lock(void **state)
{
    fx *f = *state;
    plant(f, "run-held", 1, "null");
    char *lock = path_of(f, "run-held", "session.lock");
    int fd = open(lock, O_RDWR | O_CREAT, 0600);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX), 0);
    ad_session_use use = AD_SESSION_USE_INIT;
    json_t *m = NULL;
    ad_error err = AD_ERROR_INIT;
    int64_t began = ad_now_us();
    assert_int_equal(ad_session_enter(f->home.state, "run-held", &use, &m, &err), -1);
    assert_true(ad_now_us() - began >= 9 * 1000 * 1000);
    assert_int_equal(err.code, AD_INTERNAL);
    assert_int_equal(use.lock_fd, -1);
    assert_null(m);
    ad_error_clear(&err);
    close(fd);
    /* Released, the same session enters at once. */
    assert_int_equal(ad_session_enter(f->home.state, "run-held", &use, &m, &err), 0);
    assert_non_null(m);
    ad_session_leave(&use);
    json_decref(m);
    free(lock);
}

/* A directory listed twice through ad_state_dir_entries: the second listing once started
 * where the first ended (the duplicate fd shares the offset) and saw nothing. */
static void test_state_dir_lists_twice(void **state)
{
    fx *f = *state;
    plant(f, "run-x", 1, "null");
    ad_state_dir ns = AD_STATE_DIR_INIT;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_namespace_open(f->home.state, "run-x", false, &ns, &err), 0);
    for (int pass = 0; pass < 2; pass++) {
        DIR *d = ad_state_dir_entries(&ns);
        int n = 0;
        struct dirent *de;
        while ((de = readdir(d)))
            n += strcmp(de->d_name, "session.json") == 0;
        closedir(d);
        assert_int_equal(n, 1);
    }
    ad_state_dir_close(&ns);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gc_rule1_in_use_is_kept),
        cmocka_unit_test(test_gc_rule2_older_than_keeps_young),
        cmocka_unit_test(test_gc_rule3_open_needs_older_than_without_ended),
        cmocka_unit_test(test_gc_rule4_recent_write_keeps),
        cmocka_unit_test(test_gc_rule5_ended_quiet_is_removed),
        cmocka_unit_test(test_id_format),
        cmocka_unit_test(test_manifest_check_rejects_malformed),
        T(test_start_writes_a_private_manifest),
        T(test_no_trace_and_screenshots_are_recorded),
        T(test_end_seals_once_and_is_idempotent),
        T(test_list_is_oldest_first_and_names_bad_manifests),
        T(test_gc_on_disk),
        T(test_state_dir_lists_twice),
        T(test_enter_fails_closed_on_a_held_lock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
