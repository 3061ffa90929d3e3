/* test_refstore.c: saved refmaps, the latest pointer, size limit, pruning and namespaces
 * (snapshots-and-refs.md, "Where refs are stored"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/refmap_codec.h"
#include "core/refstore.h"
#include "core/state_files.h"
#include "core/state_root.h"
#include "test_util.h"

typedef struct {
    tu_home home;
    ad_ctx ctx; /* global namespace */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof(*f));
    tu_home_begin(&f->home);
    f->ctx.state_root = f->home.state;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    tu_home_end(&f->home);
    free(f);
    return 0;
}

static json_t *small_map(const char *id)
{
    return json_pack("{s:s, s:I, s:s, s:{s:i, s:s, s:s}, s:{s:{s:s, s:s, s:b}}}",
                     "snapshot_id", id, "next_ref", (json_int_t)2, "app", "calc", "source",
                     "pid", 300, "process_instance", "0000abcd:42", "source_window_id", "w1",
                     "refs", "@e1", "role", "button", "name", "7", "unique_at_capture", 1);
}

/* The snapshots directory at path, opened the way refstore opens it. */
static ad_state_dir snapshots_at(const char *path)
{
    ad_state_dir d = {.fd = open(path, O_RDONLY | O_DIRECTORY), .path = strdup(path)};
    assert_true(d.fd >= 0);
    return d;
}

static int prune_at(const char *path, const char *protect, int max, int keep)
{
    ad_state_dir d = snapshots_at(path);
    int removed = ad_refstore_prune(&d, protect, max, keep);
    ad_state_dir_close(&d);
    return removed;
}

static void save_ok(ad_ctx *ctx, const char *id)
{
    json_t *m = small_map(id);
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_save(ctx, m, &err), 0);
    assert_null(err.message);
    json_decref(m);
}

static char *fmt(const char *f, const char *a, const char *b)
{
    char *p = NULL;
    if (asprintf(&p, f, a, b) < 0)
        abort();
    return p;
}

static void test_round_trip_and_latest(void **state)
{
    fixture *f = *state;
    assert_null(ad_refstore_latest(&f->ctx));
    json_t *m = small_map("s1abc");
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_save(&f->ctx, m, &err), 0);
    json_t *back = NULL;
    assert_int_equal(ad_refstore_load(&f->ctx, "s1abc", &back, &err), 0);
    assert_true(json_equal(m, back));
    char *latest = ad_refstore_latest(&f->ctx);
    assert_string_equal(latest, "s1abc");
    free(latest);
    json_decref(back);
    json_decref(m);

    /* A second snapshot moves the pointer; the first stays loadable. */
    save_ok(&f->ctx, "s2def");
    latest = ad_refstore_latest(&f->ctx);
    assert_string_equal(latest, "s2def");
    free(latest);
    assert_int_equal(ad_refstore_load(&f->ctx, "s1abc", &back, &err), 0);
    json_decref(back);
}

static void test_missing_snapshot(void **state)
{
    fixture *f = *state;
    json_t *back = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_load(&f->ctx, "s404", &back, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    assert_string_equal(err.message, "Snapshot 's404' not found");
    assert_non_null(err.suggestion);
    assert_null(back);
    ad_error_clear(&err);
}

/* A refmap that does not parse is no usable snapshot: SNAPSHOT_NOT_FOUND (refresh and
 * retry), and the message never quotes what the file holds. */
static void test_corrupt_refmap_is_not_found_without_its_content(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    char *p = fmt("%s/snapshots/%s/refmap.json", f->home.state, "s1abc");
    tu_write_file(p, "hunter2secret:x:19000:0:99999:7:::");
    json_t *back = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_load(&f->ctx, "s1abc", &back, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    assert_string_equal(json_string_value(json_object_get(err.details, "kind")),
                        "refmap_invalid");
    assert_null(strstr(err.message, "hunter2"));
    assert_null(back);
    ad_error_clear(&err);
    free(p);
}

static void test_invalid_snapshot_id_is_refused(void **state)
{
    fixture *f = *state;
    json_t *m = small_map("../escape");
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_save(&f->ctx, m, &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    assert_int_equal(tu_count_entries(f->home.dir), 0);
    json_decref(m);
    ad_error_clear(&err);
}

/* A map whose compact encoding is exactly `bytes` long. */
/* A refmap whose saved file is exactly `bytes` long (a padding string in its header). */
static json_t *map_of_size(size_t bytes)
{
    json_t *m = json_pack("{s:s, s:s, s:{}}", "pad", "", "snapshot_id", "s1big", "refs");
    size_t pad = 0, len = 0;
    for (int tries = 0; tries < 4; tries++) {
        unsigned char *enc = ad_refmap_encode(m, &len);
        free(enc);
        if (len == bytes)
            break;
        pad += bytes - len; /* converges: only the header's length prefix can grow */
        char *s = malloc(pad + 1);
        memset(s, 'x', pad);
        s[pad] = '\0';
        json_object_set_new(m, "pad", json_string(s));
        free(s);
    }
    assert_int_equal(len, bytes);
    return m;
}

static void test_over_one_mib_fails_and_writes_nothing(void **state)
{
    fixture *f = *state;
    json_t *m = map_of_size(AD_REFMAP_MAX_BYTES + 1);
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_save(&f->ctx, m, &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    assert_non_null(strstr(err.message, "1 MiB"));
    assert_non_null(err.suggestion);
    /* Not even the state root was created. */
    assert_int_equal(tu_count_entries(f->home.dir), 0);
    assert_null(ad_refstore_latest(&f->ctx));
    json_decref(m);
    ad_error_clear(&err);

    /* Exactly 1,048,576 bytes is within the limit. */
    m = map_of_size(AD_REFMAP_MAX_BYTES);
    assert_int_equal(ad_refstore_save(&f->ctx, m, &err), 0);
    json_decref(m);
}

static void test_files_are_private_and_no_temp_files_remain(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    save_ok(&f->ctx, "s1abc"); /* rewrite in place */
    char *refmap = fmt("%s/snapshots/%s/refmap.json", f->home.state, "s1abc");
    char *latest = fmt("%s/%s", f->home.state, "latest_snapshot_id");
    char *snapdir = fmt("%s/snapshots/%s", f->home.state, "s1abc");
    struct stat st;
    assert_int_equal(stat(refmap, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(stat(latest, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(stat(snapdir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(stat(f->home.state, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_false(tu_has_dotfile(f->home.state));
    assert_false(tu_has_dotfile(snapdir));
    assert_int_equal(tu_count_entries(snapdir), 1);
    free(refmap);
    free(latest);
    free(snapdir);
}

/* Creates <dir>/<id>/refmap.json with the given mtime (seconds). */
static void make_snapshot(const char *dir, const char *id, time_t mtime)
{
    char *sd = fmt("%s/%s", dir, id), *file = fmt("%s/%s/refmap.json", dir, id);
    assert_int_equal(mkdir(sd, 0700), 0);
    tu_write_file(file, "{}");
    struct timespec ts[2] = {{.tv_sec = mtime}, {.tv_sec = mtime}};
    assert_int_equal(utimensat(AT_FDCWD, file, ts, 0), 0);
    free(sd);
    free(file);
}

static bool snapshot_exists(const char *dir, const char *id)
{
    char *file = fmt("%s/%s/refmap.json", dir, id);
    bool ok = access(file, F_OK) == 0;
    free(file);
    return ok;
}

static void test_prune_keeps_96_newest_and_the_protected_one(void **state)
{
    fixture *f = *state;
    char *dir = fmt("%s/%s", f->home.dir, "snapshots");
    assert_int_equal(mkdir(dir, 0700), 0);
    char id[16];
    for (int i = 0; i < 129; i++) { /* s000 is the oldest */
        snprintf(id, sizeof(id), "s%03d", i);
        make_snapshot(dir, id, 1000000 + i);
    }
    /* A crashed writer's temp file must not keep a pruned directory alive. */
    char *tmp = fmt("%s/%s/.refmap.json.abc123", dir, "s005");
    tu_write_file(tmp, "partial");
    /* Entries that are not snapshot ids are neither counted nor touched, even when they
     * look like the oldest snapshot. */
    make_snapshot(dir, "Not-A-Snapshot", 1);
    char *other = fmt("%s/%s", dir, "Not-A-Snapshot/refmap.json");

    assert_int_equal(prune_at(dir, "s000", 128, 96), 33);
    assert_int_equal(tu_count_entries(dir), 96 + 1);
    assert_true(snapshot_exists(dir, "s000"));  /* protected, though oldest */
    assert_false(snapshot_exists(dir, "s001")); /* oldest unprotected: removed */
    assert_false(snapshot_exists(dir, "s033"));
    assert_true(snapshot_exists(dir, "s034"));  /* 95 newest + the protected one */
    assert_true(snapshot_exists(dir, "s128"));
    char *s005 = fmt("%s/%s", dir, "s005");
    assert_int_equal(access(s005, F_OK), -1);
    assert_int_equal(access(other, F_OK), 0);
    free(s005);
    free(tmp);
    free(other);
    free(dir);
}

static void test_prune_below_the_limit_removes_nothing(void **state)
{
    fixture *f = *state;
    char *dir = fmt("%s/%s", f->home.dir, "snapshots");
    assert_int_equal(mkdir(dir, 0700), 0);
    char id[16];
    for (int i = 0; i < 128; i++) {
        snprintf(id, sizeof(id), "s%03d", i);
        make_snapshot(dir, id, 1000000 + i);
    }
    assert_int_equal(prune_at(dir, NULL, 128, 96), 0);
    assert_int_equal(tu_count_entries(dir), 128);
    free(dir);
}

static void test_save_prunes_but_keeps_the_snapshot_just_written(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(f->home.state, 0700), 0);
    char *dir = fmt("%s/%s", f->home.state, "snapshots");
    assert_int_equal(mkdir(dir, 0700), 0);
    /* 128 saved snapshots, all newer than anything written now: the new one is the oldest
     * by mtime, so only the protection keeps it. */
    time_t future = time(NULL) + 100000;
    char id[16];
    for (int i = 0; i < 128; i++) {
        snprintf(id, sizeof(id), "s%03d", i);
        make_snapshot(dir, id, future + i);
    }
    save_ok(&f->ctx, "snew");
    assert_int_equal(tu_count_entries(dir), 96);
    assert_true(snapshot_exists(dir, "snew"));
    assert_false(snapshot_exists(dir, "s000"));
    assert_true(snapshot_exists(dir, "s127"));
    char *latest = ad_refstore_latest(&f->ctx);
    assert_string_equal(latest, "snew");
    free(latest);
    free(dir);
}

static void test_session_namespaces_are_separate(void **state)
{
    fixture *f = *state;
    ad_ctx session = {.state_root = f->home.state, .session_id = "run-1"};
    save_ok(&session, "s1abc");
    json_t *back = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_load(&f->ctx, "s1abc", &back, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    assert_null(ad_refstore_latest(&f->ctx));
    char *file = fmt("%s/sessions/%s/snapshots/s1abc/refmap.json", f->home.state, "run-1");
    assert_int_equal(access(file, F_OK), 0);
    free(file);

    /* And the other way round: a global snapshot is invisible to the session. */
    save_ok(&f->ctx, "s2glob");
    assert_int_equal(ad_refstore_load(&session, "s2glob", &back, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    char *latest = ad_refstore_latest(&session);
    assert_string_equal(latest, "s1abc");
    free(latest);
    ad_ctx other = {.state_root = f->home.state, .session_id = "run-2"};
    assert_int_equal(ad_refstore_load(&other, "s1abc", &back, &err), -1);
    assert_int_equal(err.code, AD_SNAPSHOT_NOT_FOUND);
    ad_error_clear(&err);
}

static void test_latest_ignores_garbage(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    char *p = fmt("%s/%s", f->home.state, "latest_snapshot_id");
    tu_write_file(p, "../../etc");
    assert_null(ad_refstore_latest(&f->ctx));
    free(p);
}

/* ---- attacks on the files under the state root ----------------------------------------- */

static void expect_load_fails(ad_ctx *ctx, const char *id, ad_error_code code, const char *secret)
{
    json_t *back = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_load(ctx, id, &back, &err), -1);
    assert_int_equal(err.code, code);
    assert_null(back);
    if (secret)
        assert_null(strstr(err.message, secret));
    ad_error_clear(&err);
}

/* A FIFO with no writer would block a plain open forever; alarm bounds the test. */
static void test_fifo_at_refmap_or_latest_does_not_hang(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    char *refmap = fmt("%s/snapshots/%s/refmap.json", f->home.state, "s1abc");
    char *latest = fmt("%s/%s", f->home.state, "latest_snapshot_id");
    assert_int_equal(unlink(refmap), 0);
    assert_int_equal(mkfifo(refmap, 0600), 0);
    assert_int_equal(unlink(latest), 0);
    assert_int_equal(mkfifo(latest, 0600), 0);
    alarm(20);
    expect_load_fails(&f->ctx, "s1abc", AD_SNAPSHOT_NOT_FOUND, NULL);
    assert_null(ad_refstore_latest(&f->ctx));
    alarm(0);
    free(refmap);
    free(latest);
}

/* A refmap symlinked to another file is refused unread: its first word is never echoed. */
static void test_symlinked_refmap_is_refused_and_not_echoed(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    char *refmap = fmt("%s/snapshots/%s/refmap.json", f->home.state, "s1abc");
    char *secret = fmt("%s/%s", f->home.dir, "shadow");
    tu_write_file(secret, "rootsecretword:$6$salt:19000:0:99999:7:::\n");
    const char *targets[] = {secret, "/etc/shadow"};
    for (size_t i = 0; i < 2; i++) {
        unlink(refmap);
        assert_int_equal(symlink(targets[i], refmap), 0);
        expect_load_fails(&f->ctx, "s1abc", AD_SNAPSHOT_NOT_FOUND, "rootsecretword");
        expect_load_fails(&f->ctx, "s1abc", AD_SNAPSHOT_NOT_FOUND, "root:");
    }
    free(refmap);
    free(secret);
}

static void test_oversized_refmap_on_disk_is_refused(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    char *refmap = fmt("%s/snapshots/%s/refmap.json", f->home.state, "s1abc");
    assert_int_equal(truncate(refmap, AD_REFMAP_MAX_BYTES + 1), 0);
    expect_load_fails(&f->ctx, "s1abc", AD_SNAPSHOT_NOT_FOUND, NULL);
    free(refmap);
}

typedef enum { SUB_SYMLINK, SUB_0777, SUB_FOREIGN } sub_attack;

/* snapshots/ as a symlink to a directory elsewhere, world-writable, or another user's: the
 * save fails before writing anything through it, and loads refuse it too. */
static void attack_snapshots_dir(fixture *f, sub_attack how)
{
    if (how == SUB_FOREIGN && geteuid() != 0)
        skip(); /* only root can hand a directory to another user */
    assert_int_equal(mkdir(f->home.state, 0700), 0);
    char *snaps = fmt("%s/%s", f->home.state, "snapshots");
    char *elsewhere = fmt("%s/%s", f->home.dir, "elsewhere");
    assert_int_equal(mkdir(elsewhere, 0700), 0);
    if (how == SUB_SYMLINK) {
        assert_int_equal(symlink(elsewhere, snaps), 0);
    } else {
        assert_int_equal(mkdir(snaps, 0700), 0);
        if (how == SUB_0777)
            assert_int_equal(chmod(snaps, 0777), 0);
        else
            assert_int_equal(chown(snaps, 65534, 65534), 0);
    }
    json_t *m = small_map("s1abc");
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_save(&f->ctx, m, &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    ad_error_clear(&err);
    json_decref(m);
    assert_int_equal(tu_count_entries(elsewhere), 0);
    if (how != SUB_SYMLINK)
        assert_int_equal(tu_count_entries(snaps), 0);
    assert_null(ad_refstore_latest(&f->ctx));
    /* A refmap planted there is not loaded either. */
    char *planted = fmt("%s/%s", how == SUB_SYMLINK ? elsewhere : snaps, "s2abc");
    assert_int_equal(mkdir(planted, 0700), 0);
    char *file = fmt("%s/%s", planted, "refmap.json");
    json_t *p = small_map("s2abc");
    assert_int_equal(json_dump_file(p, file, 0), 0);
    json_decref(p);
    expect_load_fails(&f->ctx, "s2abc", AD_INTERNAL, NULL);
    free(file);
    free(planted);
    free(snaps);
    free(elsewhere);
}

static void test_symlinked_snapshots_dir_is_refused(void **state)
{
    attack_snapshots_dir(*state, SUB_SYMLINK);
}

static void test_world_writable_snapshots_dir_is_refused(void **state)
{
    attack_snapshots_dir(*state, SUB_0777);
}

static void test_foreign_snapshots_dir_is_refused(void **state)
{
    attack_snapshots_dir(*state, SUB_FOREIGN);
}

static void set_age(const char *path, time_t age_s)
{
    time_t t = time(NULL) - age_s;
    struct timespec ts[2] = {{.tv_sec = t}, {.tv_sec = t}};
    assert_int_equal(utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW), 0);
}

/* A killed writer's temp files and a failed writer's empty snapshot directory go away on
 * the next save once they are old enough that no live writer can own them. */
static void test_save_removes_stale_temps_and_abandoned_dirs(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    char *old_tmp = fmt("%s/%s", f->home.state, ".latest_snapshot_id.Ab12Cd");
    char *new_tmp = fmt("%s/%s", f->home.state, ".latest_snapshot_id.Zz98Yy");
    char *old_map_tmp = fmt("%s/snapshots/%s", f->home.state, "s1abc/.refmap.json.Qq11Ww");
    char *empty_old = fmt("%s/snapshots/%s", f->home.state, "s9old");
    char *empty_new = fmt("%s/snapshots/%s", f->home.state, "s9new");
    tu_write_file(old_tmp, "s1");
    tu_write_file(new_tmp, "s1");
    tu_write_file(old_map_tmp, "{");
    set_age(old_tmp, AD_STATE_STALE_TEMP_S + 60);
    set_age(old_map_tmp, AD_STATE_STALE_TEMP_S + 60);
    assert_int_equal(mkdir(empty_old, 0700), 0);
    assert_int_equal(mkdir(empty_new, 0700), 0);
    set_age(empty_old, AD_STATE_STALE_TEMP_S + 60);
    save_ok(&f->ctx, "s1abc");
    assert_int_equal(access(old_tmp, F_OK), -1);
    assert_int_equal(access(old_map_tmp, F_OK), -1);
    assert_int_equal(access(empty_old, F_OK), -1);
    assert_int_equal(access(new_tmp, F_OK), 0);   /* may belong to a live writer */
    assert_int_equal(access(empty_new, F_OK), 0); /* likewise */
    free(old_tmp);
    free(new_tmp);
    free(old_map_tmp);
    free(empty_old);
    free(empty_new);
}

/* A write that fails after its snapshot directory was made leaves no empty directory. */
static void test_failed_write_leaves_no_snapshot_dir(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    struct rlimit old, small = {.rlim_cur = 8, .rlim_max = RLIM_INFINITY};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small.rlim_max = old.rlim_max;
    signal(SIGXFSZ, SIG_IGN); /* the write then fails with EFBIG instead of killing us */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    json_t *m = small_map("s2big");
    ad_error err = AD_ERROR_INIT;
    int rc = ad_refstore_save(&f->ctx, m, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, SIG_DFL);
    assert_int_equal(rc, -1);
    assert_int_equal(err.code, AD_INTERNAL);
    ad_error_clear(&err);
    json_decref(m);
    char *dir = fmt("%s/snapshots/%s", f->home.state, "s2big");
    assert_int_equal(access(dir, F_OK), -1);
    char *snaps = fmt("%s/%s", f->home.state, "snapshots");
    assert_int_equal(tu_count_entries(snaps), 1);
    char *latest = ad_refstore_latest(&f->ctx);
    assert_string_equal(latest, "s1abc");
    free(latest);
    free(snaps);
    free(dir);
}

/* Reading needs only that nobody else can write what is read: a 0755 root still loads, a
 * group-writable one does not (and no write goes through either). */
static void test_reads_refuse_only_roots_others_can_write(void **state)
{
    fixture *f = *state;
    save_ok(&f->ctx, "s1abc");
    assert_int_equal(chmod(f->home.state, 0755), 0);
    json_t *back = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_refstore_load(&f->ctx, "s1abc", &back, &err), 0);
    json_decref(back);
    json_t *m = small_map("s2abc");
    assert_int_equal(ad_refstore_save(&f->ctx, m, &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    ad_error_clear(&err);
    json_decref(m);
    assert_int_equal(chmod(f->home.state, 0775), 0);
    expect_load_fails(&f->ctx, "s1abc", AD_INTERNAL, NULL);
    assert_null(ad_refstore_latest(&f->ctx));
    assert_int_equal(chmod(f->home.state, 0700), 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_round_trip_and_latest),
        T(test_missing_snapshot),
        T(test_corrupt_refmap_is_not_found_without_its_content),
        T(test_invalid_snapshot_id_is_refused),
        T(test_over_one_mib_fails_and_writes_nothing),
        T(test_files_are_private_and_no_temp_files_remain),
        T(test_prune_keeps_96_newest_and_the_protected_one),
        T(test_prune_below_the_limit_removes_nothing),
        T(test_save_prunes_but_keeps_the_snapshot_just_written),
        T(test_session_namespaces_are_separate),
        T(test_latest_ignores_garbage),
        T(test_fifo_at_refmap_or_latest_does_not_hang),
        T(test_symlinked_refmap_is_refused_and_not_echoed),
        T(test_oversized_refmap_on_disk_is_refused),
        T(test_symlinked_snapshots_dir_is_refused),
        T(test_world_writable_snapshots_dir_is_refused),
        T(test_foreign_snapshots_dir_is_refused),
        T(test_save_removes_stale_temps_and_abandoned_dirs),
        T(test_failed_write_leaves_no_snapshot_dir),
        T(test_reads_refuse_only_roots_others_can_write),
    };
    return cmocka_run_group_tests_name("refstore", tests, NULL, NULL);
}
