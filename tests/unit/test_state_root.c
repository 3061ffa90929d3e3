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
#include "core/state_files.h"
#include "core/state_root.h"
#include "fake_adapter.h"
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

static void test_private_dirs_created_0700_with_parents(void **state)
{
    fixture *f = *state;
    mode_t old = umask(0); /* the mode must not depend on the caller's umask */
    char *root = path_in(f, "a/b/state");
    ad_state_dir d = AD_STATE_DIR_INIT;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_namespace_open(root, "run-1", true, &d, &err), 0);
    umask(old);
    assert_true(d.fd >= 0);
    ad_state_dir_close(&d);
    const char *levels[] = {"a", "a/b", "a/b/state", "a/b/state/sessions",
                            "a/b/state/sessions/run-1"};
    for (size_t i = 0; i < 5; i++) {
        char *p = path_in(f, levels[i]);
        struct stat st;
        assert_int_equal(stat(p, &st), 0);
        assert_true(S_ISDIR(st.st_mode));
        assert_int_equal(st.st_mode & 0777, 0700);
        free(p);
    }
    /* Opening an existing private namespace again succeeds; without create a missing one
     * is 1, not an error. */
    assert_int_equal(ad_state_namespace_open(root, "run-1", true, &d, &err), 0);
    ad_state_dir_close(&d);
    assert_int_equal(ad_state_namespace_open(root, "run-2", false, &d, &err), 1);
    assert_int_equal(d.fd, -1);
    assert_null(err.message);
    free(root);
}

static void test_group_readable_dir_is_refused(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(f->home.state, 0700), 0);
    assert_int_equal(chmod(f->home.state, 0755), 0);
    ad_state_dir d = AD_STATE_DIR_INIT;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_namespace_open(f->home.state, NULL, true, &d, &err), -1);
    assert_int_equal(err.code, AD_INTERNAL);
    assert_string_equal(err.message, PRIVATE_MSG);
    assert_string_equal(json_string_value(json_object_get(err.details, "path")), f->home.state);
    assert_int_equal(d.fd, -1);
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
    ad_state_dir d = AD_STATE_DIR_INIT;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_namespace_open(f->home.state, NULL, true, &d, &err), 0);
    assert_int_equal(ad_state_file_write(&d, "latest", "s1abc", 5, &err), 0);
    assert_int_equal(ad_state_file_write(&d, "latest", "s2", 2, &err), 0);
    ad_state_dir_close(&d);
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

/* A trailing slash or "/." would make lstat follow the symlink it names. */
static void test_symlink_home_with_trailing_slash_or_dot_is_invalid(void **state)
{
    fixture *f = *state;
    char *target = path_in(f, "real"), *link = path_in(f, "link");
    assert_int_equal(mkdir(target, 0700), 0);
    assert_int_equal(symlink(target, link), 0);
    const char *tails[] = {"/", "/.", "//", "/./", "/./."};
    for (size_t i = 0; i < 5; i++) {
        char *v = NULL;
        assert_true(asprintf(&v, "%s%s", link, tails[i]) > 0);
        setenv("AGENT_DESKTOP_HOME", v, 1);
        char *path = NULL;
        ad_error err = AD_ERROR_INIT;
        assert_int_equal(ad_state_root_resolve(&path, &err), -1);
        assert_int_equal(err.code, AD_INVALID_ARGS);
        assert_non_null(strstr(err.message, "is a symbolic link"));
        assert_null(path);
        ad_error_clear(&err);
        free(v);
    }
    /* Even past resolution, the layer never opens a symlinked root. */
    ad_state_dir d = AD_STATE_DIR_INIT;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_namespace_open(link, NULL, true, &d, &err), -1);
    assert_non_null(strstr(err.message, "is a symbolic link"));
    ad_error_clear(&err);
    assert_int_equal(tu_count_entries(target), 0);
    free(target);
    free(link);
}

static void test_home_is_normalized(void **state)
{
    fixture *f = *state;
    char *v = NULL, *path = NULL, *want = path_in(f, "state");
    assert_true(asprintf(&v, "%s//./state/./", f->home.dir) > 0);
    setenv("AGENT_DESKTOP_HOME", v, 1);
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_root_resolve(&path, &err), 0);
    assert_string_equal(path, want);
    free(path);
    free(v);
    free(want);
    expect_root_rejected("/tmp/../etc");
    expect_root_rejected("/tmp/x/..");
    expect_root_rejected("/");
    expect_root_rejected("/./");
}

static void test_relative_home_variable_is_invalid(void **state)
{
    (void)state;
    char *saved_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    unsetenv("AGENT_DESKTOP_HOME");
    setenv("HOME", "relative/home", 1);
    char *path = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_root_resolve(&path, &err), -1);
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_non_null(strstr(err.message, "HOME"));
    assert_null(path);
    ad_error_clear(&err);
    if (saved_home)
        setenv("HOME", saved_home, 1);
    else
        unsetenv("HOME");
    free(saved_home);
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

/* A FIFO at session.json would block the ended-session check forever; a manifest that is a
 * symlink is not followed. Both fail closed with INTERNAL, bounded by alarm. */
static void test_session_manifest_fifo_or_symlink_fails_closed(void **state)
{
    fixture *f = *state;
    char *manifest = path_in(f, "state/sessions/run-1/session.json");
    ad_state_dir d = AD_STATE_DIR_INIT;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_state_namespace_open(f->home.state, "run-1", true, &d, &err), 0);
    ad_state_dir_close(&d);
    fake_adapter *fake = fake_new();
    assert_int_equal(mkfifo(manifest, 0600), 0);
    alarm(20);
    json_t *env = tu_run_exit(fake_base(fake), "status", tu_args("status", "{}"),
                              json_pack("{s:s}", "session", "run-1"), 1);
    alarm(0);
    assert_string_equal(tu_str(env, "error.code"), "INTERNAL");
    assert_non_null(strstr(tu_str(env, "error.message"), "not a regular file"));
    json_decref(env);
    char *ended = path_in(f, "ended.json");
    tu_write_file(ended, "{\"ended_at\": 1}");
    assert_int_equal(unlink(manifest), 0);
    assert_int_equal(symlink(ended, manifest), 0);
    env = tu_run_exit(fake_base(fake), "status", tu_args("status", "{}"),
                      json_pack("{s:s}", "session", "run-1"), 1);
    assert_string_equal(tu_str(env, "error.code"), "INTERNAL");
    assert_non_null(strstr(tu_str(env, "error.message"), "symbolic link"));
    json_decref(env);
    fake_free(fake);
    free(ended);
    free(manifest);
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
        T(test_private_dirs_created_0700_with_parents),
        T(test_group_readable_dir_is_refused),
        T(test_writing_a_snapshot_under_a_0755_root_fails),
        T(test_private_file_write),
        T(test_session_id_validity),
        T(test_session_resolve),
        T(test_symlink_home_with_trailing_slash_or_dot_is_invalid),
        T(test_home_is_normalized),
        T(test_relative_home_variable_is_invalid),
        T(test_session_manifest_fifo_or_symlink_fails_closed),
        T(test_agent_id_resolve),
    };
    return cmocka_run_group_tests_name("state_root", tests, NULL, NULL);
}
