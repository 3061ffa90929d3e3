/* test_util.c: see test_util.h. */
#include "test_util.h"

#include "core/refmap_codec.h"
#include "fake_adapter.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "dispatch/command_table.h"
#include "dispatch/dispatch.h"
#include "fake_adapter.h"

tu_bed *tu_bed_new(ad_node *root)
{
    tu_bed *b = calloc(1, sizeof(*b));
    tu_home_begin(&b->home);
    b->lease_dir = tu_tmpdir();
    /* The lease lives in $XDG_RUNTIME_DIR/agent-desktop: a private one of this test. */
    setenv("XDG_RUNTIME_DIR", b->lease_dir, 1);
    b->fake = fake_new();
    fake_add_app(b->fake, "form", 300);
    fake_add_window(b->fake, "form", "Form", root)->w.is_focused = true;
    return b;
}

void tu_bed_free(tu_bed *b)
{
    fake_free(b->fake);
    tu_home_end(&b->home);
    tu_rmrf(b->lease_dir);
    free(b->lease_dir);
    unsetenv("XDG_RUNTIME_DIR");
    free(b);
}

int tu_bed_teardown(void **state)
{
    tu_bed_free(*state);
    return 0;
}

char *tu_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *tmpl = NULL;
    if (asprintf(&tmpl, "%s/ad-unit-XXXXXX", base && *base ? base : "/tmp") < 0 ||
        !mkdtemp(tmpl)) {
        perror("tu_tmpdir");
        abort();
    }
    return tmpl;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

void tu_rmrf(const char *path)
{
    nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void tu_home_begin(tu_home *h)
{
    const char *old = getenv("AGENT_DESKTOP_HOME");
    h->saved_env = old ? strdup(old) : NULL;
    h->dir = tu_tmpdir();
    if (asprintf(&h->state, "%s/state", h->dir) < 0)
        abort();
    setenv("AGENT_DESKTOP_HOME", h->state, 1);
    unsetenv("AGENT_DESKTOP_SESSION");
}

void tu_home_end(tu_home *h)
{
    tu_rmrf(h->dir);
    if (h->saved_env)
        setenv("AGENT_DESKTOP_HOME", h->saved_env, 1);
    else
        unsetenv("AGENT_DESKTOP_HOME");
    free(h->dir);
    free(h->state);
    free(h->saved_env);
    memset(h, 0, sizeof(*h));
}

char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

json_t *tu_refmap_load(const char *path)
{
    size_t len = 0;
    char *bytes = tu_read_file(path, &len);
    json_t *map = NULL;
    const char *why = NULL;
    if (bytes && ad_refmap_is_compact((const unsigned char *)bytes, len))
        ad_refmap_decode((const unsigned char *)bytes, len, &map, &why);
    else if (bytes)
        map = json_loadb(bytes, len, 0, NULL);
    free(bytes);
    return map;
}

void tu_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

int tu_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

bool tu_has_dotfile(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            found = true;
    closedir(d);
    return found;
}


json_t *tu_args(const char *cmd, const char *fmt, ...)
{
    const ad_command *c = ad_command_find(cmd);
    if (!c) {
        fprintf(stderr, "tu_args: no command %s\n", cmd);
        abort();
    }
    va_list ap;
    va_start(ap, fmt);
    json_error_t jerr;
    json_t *args = json_vpack_ex(&jerr, 0, fmt, ap);
    va_end(ap);
    if (!args) {
        fprintf(stderr, "tu_args: %s\n", jerr.text);
        abort();
    }
    return args;
}

json_t *tu_run(ad_adapter *a, const char *cmd, json_t *args, json_t *globals, int *exit_code)
{
    if (!globals)
        globals = json_object();
    json_t *env = ad_dispatch(a, ad_command_find(cmd), args, globals, exit_code);
    json_decref(args);
    json_decref(globals);
    return env;
}

json_t *tu_run_exit(ad_adapter *a, const char *cmd, json_t *args, json_t *globals,
                    int want_exit)
{
    int exit_code = -1;
    json_t *env = tu_run(a, cmd, args, globals, &exit_code);
    if (exit_code != want_exit) {
        char *s = json_dumps(env, JSON_INDENT(1));
        fail_msg("%s exited %d, wanted %d: %s", cmd, exit_code, want_exit, s);
    }
    return env;
}

json_t *tu_run_in(ad_adapter *a, const char *cmd, json_t *args, const char *session,
                  const char *agent, int want_exit)
{
    json_t *g = json_object();
    if (session)
        json_object_set_new(g, "session", json_string(session));
    if (agent)
        json_object_set_new(g, "agent_id", json_string(agent));
    return tu_run_exit(a, cmd, args, g, want_exit);
}

char *tu_snapshot_ref(ad_adapter *a, const char *session, const char *name)
{
    json_t *env = tu_run_in(a, "snapshot", tu_args("snapshot", "{}"), session, NULL, 0);
    const char *ref = tu_str(tu_node_named(tu_at(env, "data.tree"), name), "ref_id");
    assert_non_null(ref);
    char *copy = strdup(ref);
    json_decref(env);
    return copy;
}

json_t *tu_at(const json_t *v, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", path);
    char *save = NULL;
    json_t *cur = (json_t *)v;
    for (char *p = strtok_r(buf, ".", &save); p && cur; p = strtok_r(NULL, ".", &save)) {
        if (json_is_array(cur)) {
            char *end;
            long i = strtol(p, &end, 10);
            cur = *end ? NULL : json_array_get(cur, (size_t)i);
        } else {
            cur = json_object_get(cur, p);
        }
    }
    return cur;
}

const char *tu_str(const json_t *v, const char *path)
{
    return json_string_value(tu_at(v, path));
}

long long tu_int(const json_t *v, const char *path)
{
    json_t *x = tu_at(v, path);
    return json_is_integer(x) ? (long long)json_integer_value(x) : -999999;
}

json_t *tu_node_named(const json_t *tree, const char *name)
{
    const char *have = json_string_value(json_object_get(tree, "name"));
    if (have && strcmp(have, name) == 0)
        return (json_t *)tree;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(tree, "children"), i, c) {
        json_t *hit = tu_node_named(c, name);
        if (hit)
            return hit;
    }
    return NULL;
}

size_t tu_count_refs(const json_t *tree)
{
    size_t n = json_object_get(tree, "ref_id") ? 1 : 0;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(tree, "children"), i, c)
        n += tu_count_refs(c);
    return n;
}

void tu_fake_begin(tu_home *home, struct fake_adapter **ret_fake)
{
    tu_home_begin(home);
    *ret_fake = fake_new();
}

void tu_fake_end(tu_home *home, struct fake_adapter *fake)
{
    fake_free(fake);
    tu_home_end(home);
}
