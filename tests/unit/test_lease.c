/* test_lease.c: where the interaction lease lives, and that no other user can squat it
 * (configuration.md, "State root": the cross-process interaction lock). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/lease.h"
#include "test_util.h"

typedef struct {
    char *dir;  /* scratch: rt/ is a runtime dir, tmp/ a fallback base */
    char *rt, *tmp, *theirs;
} fx;

static char *in(const char *dir, const char *name)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", dir, name) < 0)
        abort();
    return p;
}

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    f->dir = tu_tmpdir();
    f->rt = in(f->dir, "rt");
    f->tmp = in(f->dir, "tmp");
    char name[64];
    snprintf(name, sizeof(name), "agent-desktop-%u", (unsigned)geteuid());
    f->theirs = in(f->tmp, name);
    assert_int_equal(mkdir(f->rt, 0700), 0);
    assert_int_equal(mkdir(f->tmp, 01777), 0);
    assert_int_equal(chmod(f->tmp, 01777), 0); /* like /tmp, whatever the umask */
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    tu_rmrf(f->dir);
    free(f->dir);
    free(f->rt);
    free(f->tmp);
    free(f->theirs);
    unsetenv("XDG_RUNTIME_DIR");
    unsetenv("AD_LEASE_DIR");
    free(f);
    return 0;
}

static void expect_private_dir(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_uid, geteuid());
    assert_int_equal(st.st_mode & 0777, 0700);
}

static void expect_refused(const char *rt, const char *tmp, const char *in_message,
                           const char *in_suggestion)
{
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_lease_open(rt, tmp, &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    if (!strstr(err.message, in_message))
        fail_msg("message '%s' lacks '%s'", err.message, in_message);
    assert_non_null(err.suggestion);
    if (in_suggestion && !strstr(err.suggestion, in_suggestion))
        fail_msg("suggestion '%s' lacks '%s'", err.suggestion, in_suggestion);
    ad_error_clear(&err);
}

static void test_runtime_dir_holds_the_lease(void **state)
{
    fx *f = *state;
    ad_error err = AD_ERROR_INIT;
    int fd = ad_lease_open(f->rt, f->tmp, &err);
    assert_true(fd >= 0);
    close(fd);
    char *dir = in(f->rt, "agent-desktop"), *lock = in(dir, "interaction.lock");
    expect_private_dir(dir);
    assert_int_equal(access(lock, F_OK), 0);
    assert_int_equal(tu_count_entries(f->tmp), 0); /* the fallback was not touched */
    free(dir);
    free(lock);
}

static void test_a_bad_runtime_dir_fails_closed(void **state)
{
    fx *f = *state;
    expect_refused("relative/rt", f->tmp, "XDG_RUNTIME_DIR", "XDG_RUNTIME_DIR");
    char *missing = in(f->dir, "missing");
    expect_refused(missing, f->tmp, "XDG_RUNTIME_DIR", NULL);
    free(missing);
    assert_int_equal(chmod(f->rt, 0755), 0);
    expect_refused(f->rt, f->tmp, "XDG_RUNTIME_DIR", NULL);
    assert_int_equal(chmod(f->rt, 0700), 0);
    if (geteuid() == 0) {
        assert_int_equal(chown(f->rt, 65534, 65534), 0);
        expect_refused(f->rt, f->tmp, "XDG_RUNTIME_DIR", NULL);
    }
    assert_int_equal(tu_count_entries(f->tmp), 0);
}

static void test_fallback_is_a_private_dir_under_tmp(void **state)
{
    fx *f = *state;
    ad_error err = AD_ERROR_INIT;
    int fd = ad_lease_open(NULL, f->tmp, &err);
    assert_true(fd >= 0);
    close(fd);
    expect_private_dir(f->theirs);
    fd = ad_lease_open("", f->tmp, &err); /* empty is unset */
    assert_true(fd >= 0);
    close(fd);
}

/* Another user who creates /tmp/agent-desktop-<uid> first: refused, and the suggestion is
 * one the victim can follow (a runtime dir of their own), not "remove it". */
static void test_a_squatted_fallback_is_refused_with_a_way_out(void **state)
{
    fx *f = *state;
    if (geteuid() != 0)
        skip(); /* only root can hand a directory to another user */
    assert_int_equal(mkdir(f->theirs, 0700), 0);
    assert_int_equal(chown(f->theirs, 65534, 65534), 0);
    expect_refused(NULL, f->tmp, "owned by another user", "XDG_RUNTIME_DIR");
    /* Following the suggestion works. */
    ad_error err = AD_ERROR_INIT;
    int fd = ad_lease_open(f->rt, f->tmp, &err);
    assert_true(fd >= 0);
    close(fd);
}

static void test_symlinks_are_refused(void **state)
{
    fx *f = *state;
    char *mine = in(f->dir, "mine");
    assert_int_equal(mkdir(mine, 0700), 0);
    assert_int_equal(symlink(mine, f->theirs), 0);
    expect_refused(NULL, f->tmp, "symbolic link", "XDG_RUNTIME_DIR");
    /* A lock file that is a symlink is not followed either. */
    char *dir = in(f->rt, "agent-desktop"), *lock = in(dir, "interaction.lock");
    char *target = in(mine, "target");
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(symlink(target, lock), 0);
    expect_refused(f->rt, f->tmp, "interaction lock", NULL);
    assert_int_equal(access(target, F_OK), -1);
    free(mine);
    free(dir);
    free(lock);
    free(target);
}

/* The test-only AD_LEASE_DIR override is gone: setting it changes nothing. */
static void test_ad_lease_dir_is_ignored(void **state)
{
    fx *f = *state;
    char *escape = in(f->dir, "escape");
    assert_int_equal(mkdir(escape, 0700), 0);
    setenv("AD_LEASE_DIR", escape, 1);
    setenv("XDG_RUNTIME_DIR", f->rt, 1);
    ad_lease l = AD_LEASE_INIT;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_lease_acquire(&l, ad_now_us() + 1000000, &err), 0);
    ad_lease_release(&l);
    assert_int_equal(tu_count_entries(escape), 0);
    char *lock = in(f->rt, "agent-desktop/interaction.lock");
    assert_int_equal(access(lock, F_OK), 0);
    free(lock);
    free(escape);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_runtime_dir_holds_the_lease),
        T(test_a_bad_runtime_dir_fails_closed),
        T(test_fallback_is_a_private_dir_under_tmp),
        T(test_a_squatted_fallback_is_refused_with_a_way_out),
        T(test_symlinks_are_refused),
        T(test_ad_lease_dir_is_ignored),
    };
    return cmocka_run_group_tests_name("lease", tests, NULL, NULL);
}
