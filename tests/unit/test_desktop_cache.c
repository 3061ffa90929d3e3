/* test_desktop_cache.c: the desktop entry cache (linux/desktop_cache.h) and the lookup through
 * it (linux/desktop_entry.h): a hit returns what was saved, a changed directory or file makes
 * the key differ, a corrupt, truncated or non-private file is ignored, and a lookup after an
 * entry changed sees the change. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "linux/desktop_cache.h"
#include "linux/desktop_entry.h"

typedef struct {
    char root[64];       /* a temp directory: state/ and share/applications/ below it */
    char apps[128];      /* share/applications */
    char cache[128];     /* state/desktop-entries.cache */
} fixture;

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Moves path's mtime by seconds, so a rewrite within one clock tick still changes the key. */
static void shift_mtime(const char *path, int seconds)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    struct timeval tv[2] = {{st.st_atime, 0}, {st.st_mtime + seconds, 0}};
    assert_int_equal(utimes(path, tv), 0);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof(*f));
    snprintf(f->root, sizeof(f->root), "/tmp/ad-dcache-XXXXXX");
    if (!f || !mkdtemp(f->root))
        return -1;
    char path[128];
    snprintf(path, sizeof(path), "%s/state", f->root);
    mkdir(path, 0700);
    snprintf(path, sizeof(path), "%s/share", f->root);
    mkdir(path, 0700);
    snprintf(f->apps, sizeof(f->apps), "%s/share/applications", f->root);
    mkdir(f->apps, 0700);
    snprintf(f->cache, sizeof(f->cache), "%s/state/desktop-entries.cache", f->root);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
    int rc = system(cmd);
    free(f);
    return rc == 0 ? 0 : -1;
}

static char *key_of(const fixture *f, size_t *len)
{
    char *dirs[] = {(char *)f->apps, "/nonexistent-ad-dir/applications"};
    char *key = NULL;
    assert_int_equal(ad_desktop_cache_key(dirs, 2, &key, len), 0);
    return key;
}

static char *words[] = {"--flag", "two words", NULL};
static char *env[] = {"A=1", NULL};

static void save_two(const fixture *f, const char *key, size_t len)
{
    ad_desktop_record r[2] = {
        {"editor", "Text Editor", "gedit", {"/usr/bin/gedit", NULL, words}},
        {"tool", NULL, "tool", {"tool", env, NULL}},
    };
    assert_int_equal(ad_desktop_cache_save(f->cache, key, len, r, 2), 0);
}

/* Saves two records under the directories' key; returns the key and the cache's stat. */
static char *saved_key(const fixture *f, size_t *len, struct stat *st)
{
    char *key = key_of(f, len);
    save_two(f, key, *len);
    assert_int_equal(stat(f->cache, st), 0);
    return key;
}

static void test_hit_returns_what_was_saved(void **state)
{
    fixture *f = *state;
    size_t len;
    struct stat st;
    char *key = saved_key(f, &len, &st);
    assert_int_equal(st.st_mode & 0777, 0600);
    ad_desktop_record *r = NULL;
    size_t n = 0;
    assert_int_equal(ad_desktop_cache_load(f->cache, key, len, &r, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(r[0].id, "editor");
    assert_string_equal(r[0].name, "Text Editor");
    assert_string_equal(r[0].exec, "gedit");
    assert_string_equal(r[0].run.program, "/usr/bin/gedit");
    assert_null(r[0].run.env);
    assert_string_equal(r[0].run.args[0], "--flag");
    assert_string_equal(r[0].run.args[1], "two words");
    assert_null(r[0].run.args[2]);
    assert_null(r[1].name);
    assert_string_equal(r[1].run.env[0], "A=1");
    assert_null(r[1].run.env[1]);
    assert_null(r[1].run.args);
    ad_desktop_records_free(r, n);
    free(key);
}

static void test_missing_file_is_a_miss(void **state)
{
    fixture *f = *state;
    size_t len;
    char *key = key_of(f, &len);
    ad_desktop_record *r = NULL;
    size_t n = 0;
    assert_int_equal(ad_desktop_cache_load(f->cache, key, len, &r, &n), -1);
    assert_null(r);
    free(key);
}

static void test_key_changes_with_the_directory_and_its_files(void **state)
{
    fixture *f = *state;
    char entry[192];
    snprintf(entry, sizeof(entry), "%s/a.desktop", f->apps);
    write_file(entry, "[Desktop Entry]\nName=A\nExec=a\n");
    size_t len0, len1, len2;
    char *k0 = key_of(f, &len0);
    save_two(f, k0, len0);
    /* The same bytes rewritten in place: the directory's mtime stays, the file's moves. */
    shift_mtime(entry, 5);
    char *k1 = key_of(f, &len1);
    assert_false(len0 == len1 && memcmp(k0, k1, len0) == 0);
    ad_desktop_record *r = NULL;
    size_t n = 0;
    assert_int_equal(ad_desktop_cache_load(f->cache, k1, len1, &r, &n), -1);
    /* A new file in the directory. */
    snprintf(entry, sizeof(entry), "%s/b.desktop", f->apps);
    write_file(entry, "[Desktop Entry]\nName=B\nExec=b\n");
    shift_mtime(f->apps, 5);
    char *k2 = key_of(f, &len2);
    assert_false(len1 == len2 && memcmp(k1, k2, len1) == 0);
    free(k0);
    free(k1);
    free(k2);
}

static void test_corrupt_truncated_or_shared_file_is_ignored(void **state)
{
    fixture *f = *state;
    size_t len;
    struct stat st;
    char *key = saved_key(f, &len, &st);
    ad_desktop_record *r = NULL;
    size_t n = 0;
    /* Every truncation of a good file is rejected, never half-read. */
    for (off_t cut = 0; cut < st.st_size; cut++) {
        assert_int_equal(truncate(f->cache, cut), 0);
        save_two(f, key, len);
        assert_int_equal(truncate(f->cache, cut), 0);
        assert_int_equal(ad_desktop_cache_load(f->cache, key, len, &r, &n), -1);
    }
    write_file(f->cache, "agent-desktop desktop-entries 1\n99999999:x\n");
    chmod(f->cache, 0600);
    assert_int_equal(ad_desktop_cache_load(f->cache, key, len, &r, &n), -1);
    save_two(f, key, len);
    assert_int_equal(chmod(f->cache, 0644), 0);
    assert_int_equal(ad_desktop_cache_load(f->cache, key, len, &r, &n), -1);
    assert_null(r);
    free(key);
}

/* Through the lookup: the first read builds the cache, an edited entry is seen, and a corrupt
 * cache is rebuilt. */
static void test_lookup_sees_an_edited_entry(void **state)
{
    fixture *f = *state;
    char state_dir[96], share[96], entry[192];
    snprintf(state_dir, sizeof(state_dir), "%s/state", f->root);
    snprintf(share, sizeof(share), "%s/share", f->root);
    setenv("AGENT_DESKTOP_HOME", state_dir, 1);
    setenv("XDG_DATA_HOME", share, 1);
    setenv("XDG_DATA_DIRS", "/nonexistent-ad-dir", 1);
    snprintf(entry, sizeof(entry), "%s/probe.desktop", f->apps);
    write_file(entry, "[Desktop Entry]\nName=Probe\nExec=first-prog --one\n");
    for (int round = 0; round < 3; round++) {
        ad_desktop_entries *t = ad_desktop_entries_new();
        char *id = NULL;
        ad_desktop_exec exec = {0};
        assert_int_equal(ad_desktop_entry_lookup(t, "Probe", &id, &exec), 0);
        assert_string_equal(id, "probe");
        assert_string_equal(exec.program, round == 2 ? "second-prog" : "first-prog");
        free(id);
        ad_desktop_exec_clear(&exec);
        ad_desktop_entries_free(t);
        assert_int_equal(access(f->cache, F_OK), 0);
        if (round == 0) {
            write_file(f->cache, "agent-desktop desktop-entries 1\ngarbage\n");
            chmod(f->cache, 0600);
        } else if (round == 1) {
            write_file(entry, "[Desktop Entry]\nName=Probe\nExec=second-prog --one\n");
            shift_mtime(entry, 5);
        }
    }
    unsetenv("AGENT_DESKTOP_HOME");
    unsetenv("XDG_DATA_HOME");
    unsetenv("XDG_DATA_DIRS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_hit_returns_what_was_saved, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_file_is_a_miss, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_changes_with_the_directory_and_its_files, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_truncated_or_shared_file_is_ignored, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_lookup_sees_an_edited_entry, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
