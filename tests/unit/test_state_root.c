/* test_state_root.c: the private state root and session ids (configuration.md, sessions.md). */
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
#include "core/refstore.h"
#include "core/state_root.h"
#include "test_util.h"

static const char PRIVATE_MSG[] = "private file parent is accessible by group or other users";

typedef struct {
    tu_home home;
    char *saved_session;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof(*f));
    tu_home_begin(&f->home);
    const char *s = getenv("AGENT_DESKTOP_SESSION");
    f->saved_session = s ? strdup(s) : NULL;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    tu_home_end(&f->home);
    if (f->saved_session)
        setenv("AGENT_DESKTOP_SESSION", f->saved_session, 1);
    else
        unsetenv("AGENT_DESKTOP_SESSION");
    free(f->saved_session);
    free(f);
    return 0;
}

static char *path_in(fixture *f, const char *name)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", f->home.dir, name) < 0)
        abort();
    return p;
}

/* Resolves with AGENT_DESKTOP_HOME=value and expects INVALID_ARGS. */
static void expect_root_rejected(const char *value)
{
    setenv("AGENT_DESKTOP_HOME", value, 1);
    char *path = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_root_resolve(&path, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_non_null(err.suggestion);
    assert_null(path);
    ad_error_clear(&err);
}

static void test_relative_home_is_invalid(void **state)
{
    (void)state;
    expect_root_rejected("relative/dir");
    expect_root_rejected("./state");
    expect_root_rejected("");
}

static void test_symlink_home_is_invalid(void **state)
{
    fixture *f = *state;
    char *target = path_in(f, "real"), *link = path_in(f, "link");
    assert_int_equal(mkdir(target, 0700), 0);
    assert_int_equal(symlink(target, link), 0);
    setenv("AGENT_DESKTOP_HOME", link, 1);
    char *path = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_root_resolve(&path, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_non_null(strstr(err.message, "is a symbolic link"));
    ad_error_clear(&err);
    free(target);
    free(link);
}

static void test_file_home_is_invalid(void **state)
{
    fixture *f = *state;
    char *file = path_in(f, "file");
    tu_write_file(file, "x");
    expect_root_rejected(file);
    free(file);
}

static void test_home_owned_by_another_user_is_invalid(void **state)
{
    fixture *f = *state;
    if (geteuid() != 0)
        skip(); /* only root can hand a directory to another user */
    char *dir = path_in(f, "theirs");
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(chown(dir, 65534, 65534), 0);
    expect_root_rejected(dir);
    free(dir);
}

static void test_missing_home_resolves_without_creating_it(void **state)
{
    fixture *f = *state;
    char *path = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_root_resolve(&path, &err), 0);
    assert_string_equal(path, f->home.state);
    struct stat st;
    assert_int_not_equal(lstat(f->home.state, &st), 0);
    free(path);
}

static void test_unset_home_uses_dot_agent_desktop_under_home(void **state)
{
    fixture *f = *state;
    char *saved_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    unsetenv("AGENT_DESKTOP_HOME");
    setenv("HOME", f->home.dir, 1);
    char *path = NULL, *want = path_in(f, ".agent-desktop");
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_root_resolve(&path, &err), 0);
    assert_string_equal(path, want);
    if (saved_home)
        setenv("HOME", saved_home, 1);
    free(saved_home);
    free(path);
    free(want);
}

static void test_private_dir_created_0700_with_parents(void **state)
{
    fixture *f = *state;
    mode_t old = umask(0); /* the mode must not depend on the caller's umask */
    char *deep = path_in(f, "state/sessions/run-1");
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_private_dir_ensure(deep, &err), 0);
    umask(old);
    const char *levels[] = {"state", "state/sessions", "state/sessions/run-1"};
    for (size_t i = 0; i < 3; i++) {
        char *p = path_in(f, levels[i]);
        struct stat st;
        assert_int_equal(stat(p, &st), 0);
        assert_true(S_ISDIR(st.st_mode));
        assert_int_equal(st.st_mode & 0777, 0700);
        free(p);
    }
    /* Ensuring an existing private directory again succeeds. */
    assert_int_equal(ad_private_dir_ensure(deep, &err), 0);
    free(deep);
}

static void test_group_readable_dir_is_refused(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(f->home.state, 0700), 0);
    assert_int_equal(chmod(f->home.state, 0755), 0);
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_private_dir_ensure(f->home.state, &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    assert_string_equal(err.message, PRIVATE_MSG);
    assert_string_equal(json_string_value(json_object_get(err.details, "path")), f->home.state);
    ad_error_clear(&err);
}

static void test_writing_a_snapshot_under_a_0755_root_fails(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(f->home.state, 0755), 0);
    assert_int_equal(chmod(f->home.state, 0755), 0);
    ad_ctx ctx = {.state_root = f->home.state};
    ad_error err = AD_ERROR_INIT;
    json_t *map = json_pack("{s:s, s:{}}", "snapshot_id", "s1abc", "refs");
    assert_int_equal(ad_refstore_save(&ctx, map, &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    assert_string_equal(err.message, PRIVATE_MSG);
    /* Nothing was written below the exposed root. */
    assert_int_equal(tu_count_entries(f->home.state), 0);
    json_decref(map);
    ad_error_clear(&err);
}

static void test_private_file_write(void **state)
{
    fixture *f = *state;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_private_dir_ensure(f->home.state, &err), 0);
    assert_int_equal(ad_private_file_write(f->home.state, "latest", "s1abc", 5, &err), 0);
    assert_int_equal(ad_private_file_write(f->home.state, "latest", "s2", 2, &err), 0);
    char *p = path_in(f, "state/latest");
    char *text = tu_read_file(p, NULL);
    assert_string_equal(text, "s2");
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_false(tu_has_dotfile(f->home.state));
    assert_int_equal(tu_count_entries(f->home.state), 1);
    free(text);
    free(p);
}

static void test_session_id_validity(void **state)
{
    (void)state;
    char id[80];
    memset(id, 'a', sizeof(id));
    id[64] = '\0';
    assert_true(ad_session_id_valid(id));
    id[64] = 'a';
    id[65] = '\0';
    assert_false(ad_session_id_valid(id));
    assert_true(ad_session_id_valid("run-1_A"));
    assert_true(ad_session_id_valid("x"));
    assert_false(ad_session_id_valid(""));
    assert_false(ad_session_id_valid("a b"));
    assert_false(ad_session_id_valid("a/b"));
    assert_false(ad_session_id_valid(".."));
    assert_false(ad_session_id_valid("caf\xc3\xa9"));
}

static void test_session_resolve(void **state)
{
    (void)state;
    char *id = NULL;
    ad_error err = AD_ERROR_INIT;
    /* Neither flag nor variable: the global namespace. */
    assert_int_equal(ad_session_resolve(NULL, &id, &err), 0);
    assert_null(id);
    /* The variable applies without a flag, and the flag wins over it. */
    setenv("AGENT_DESKTOP_SESSION", "from-env", 1);
    assert_int_equal(ad_session_resolve(NULL, &id, &err), 0);
    assert_string_equal(id, "from-env");
    free(id);
    assert_int_equal(ad_session_resolve("from-flag", &id, &err), 0);
    assert_string_equal(id, "from-flag");
    free(id);
    /* Empty and malformed ids are INVALID_ARGS, naming their source. */
    assert_int_equal(ad_session_resolve("", &id, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_string_equal(err.message, "--session is empty");
    assert_null(id);
    setenv("AGENT_DESKTOP_SESSION", "bad id", 1);
    assert_int_equal(ad_session_resolve(NULL, &id, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_non_null(strstr(err.message, "AGENT_DESKTOP_SESSION"));
    assert_non_null(err.suggestion);
    ad_error_clear(&err);
}

/* sessions.md, "Agent identity": 1 to 64 letters, digits, '-' or '_'; the flag wins over
 * AGENT_DESKTOP_AGENT_ID; an invalid id from either is INVALID_ARGS. */
static void test_agent_id_resolve(void **state)
{
    (void)state;
    char *id = NULL;
    ad_error err = AD_ERROR_INIT;
    const char *saved = getenv("AGENT_DESKTOP_AGENT_ID");
    char *restore = saved ? strdup(saved) : NULL;
    unsetenv("AGENT_DESKTOP_AGENT_ID");
    assert_int_equal(ad_agent_id_resolve(NULL, &id, &err), 0);
    assert_null(id);
    assert_int_equal(ad_agent_id_resolve("agent_7-b", &id, &err), 0);
    assert_string_equal(id, "agent_7-b");
    free(id);
    char seventy[71];
    memset(seventy, 'a', 70);
    seventy[70] = '\0';
    const char *bad[] = {"x y", "", seventy, "caf\xc3\xa9", NULL};
    for (size_t i = 0; bad[i]; i++) {
        assert_int_equal(ad_agent_id_resolve(bad[i], &id, &err), -1);
        assert_int_equal(err.code, AD_INVALID_ARGS);
        assert_non_null(strstr(err.message, "--agent-id"));
        assert_null(id);
        ad_error_clear(&err);
    }
    seventy[64] = '\0';
    assert_int_equal(ad_agent_id_resolve(seventy, &id, &err), 0); /* 64 is the longest */
    free(id);
    setenv("AGENT_DESKTOP_AGENT_ID", "bad id", 1);
    assert_int_equal(ad_agent_id_resolve(NULL, &id, &err), -1);
    assert_non_null(strstr(err.message, "AGENT_DESKTOP_AGENT_ID"));
    ad_error_clear(&err);
    assert_int_equal(ad_agent_id_resolve("good", &id, &err), 0); /* the flag wins */
    assert_string_equal(id, "good");
    free(id);
    if (restore)
        setenv("AGENT_DESKTOP_AGENT_ID", restore, 1);
    else
        unsetenv("AGENT_DESKTOP_AGENT_ID");
    free(restore);
}

static void test_namespace_path(void **state)
{
    (void)state;
    char *p = ad_namespace_path("/r", NULL);
    assert_string_equal(p, "/r");
    free(p);
    p = ad_namespace_path("/r", "run-1");
    assert_string_equal(p, "/r/sessions/run-1");
    free(p);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_relative_home_is_invalid),
        T(test_symlink_home_is_invalid),
        T(test_file_home_is_invalid),
        T(test_home_owned_by_another_user_is_invalid),
        T(test_missing_home_resolves_without_creating_it),
        T(test_unset_home_uses_dot_agent_desktop_under_home),
        T(test_private_dir_created_0700_with_parents),
        T(test_group_readable_dir_is_refused),
        T(test_writing_a_snapshot_under_a_0755_root_fails),
        T(test_private_file_write),
        T(test_session_id_validity),
        T(test_session_resolve),
        T(test_agent_id_resolve),
        T(test_namespace_path),
    };
    return cmocka_run_group_tests_name("state_root", tests, NULL, NULL);
}
