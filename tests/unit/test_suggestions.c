/* test_suggestions.c: every suggestion in the source can be followed literally (item 14).
 *
 * The checker (core/suggestion.c) is tested on known cases, then run over every
 * ad_error_suggest literal in src/: a command it names must exist with a handler, and a
 * flag it names must belong to an implemented command or the globals. Which command is
 * running is known only at run time; dispatch applies the per-command check there. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/command_table.h"
#include "dispatch/suggestion.h"

static const char *problem(const char *cmd, const char *text)
{
    static char buf[160];
    return ad_suggestion_problem(cmd ? ad_command_find(cmd) : NULL, text, buf, sizeof(buf));
}

static void test_checker_cases(void **state)
{
    (void)state;
    /* The two kinds the issue names. */
    assert_non_null(problem("list-surfaces", "Run list-windows --app x and pass --window-id"));
    /* Every command has a handler now, so naming one is never the problem. */
    assert_null(problem("snapshot", "Check the name with list-apps, or open it with "
                                    "open-system-surface --surface action-center"));
    assert_non_null(problem("snapshot", "Open it with open-system-surface --kind tray"));
    /* A flag of a command named in the suggestion, of the running command, or global. */
    assert_null(problem("list-surfaces", "Run list-windows --app x to see them, then snapshot "
                                         "--window-id ID to read one"));
    assert_null(problem("snapshot", "Run list-windows --app x and pass --window-id"));
    assert_null(problem("get", "Run agent-desktop --help to list the accepted flags"));
    assert_non_null(problem("get", "Retry with a larger --timeout-ms"));
    /* Prose words that are command names elsewhere are not commands. */
    assert_null(problem("click", "Take a fresh snapshot, then start a new session"));
    assert_null(problem(NULL, NULL));
}

/* Appends the C string literals that follow `p` (adjacent literals concatenate) to out;
 * returns where they end. */
static const char *literals(const char *p, char *out, size_t size)
{
    size_t n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == '\t')
            p++;
        if (*p != '"')
            break;
        for (p++; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1])
                p++;
            if (n + 1 < size)
                out[n++] = *p;
        }
        if (*p)
            p++;
    }
    out[n] = '\0';
    return p;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    size_t got = s ? fread(s, 1, (size_t)len, f) : 0;
    fclose(f);
    if (s)
        s[got] = '\0';
    return s;
}

static size_t check_file(const char *path, size_t *bad)
{
    char *src = read_all(path);
    assert_non_null(src);
    size_t found = 0;
    for (const char *p = src; (p = strstr(p, "ad_error_suggest(")); ) {
        p += strlen("ad_error_suggest(");
        const char *q = strchr(p, ',');
        if (!q || strchr(p, ')') < q) /* the declaration, not a call */
            continue;
        char text[1024];
        literals(q + 1, text, sizeof(text));
        if (!*text)
            continue;
        found++;
        const char *why = problem(NULL, text);
        if (why) {
            fprintf(stderr, "%s: suggestion \"%s\" %s\n", path, text, why);
            (*bad)++;
        }
    }
    free(src);
    return found;
}

static void test_every_suggestion_in_the_source(void **state)
{
    (void)state;
    static const char *const dirs[] = {"src/cli", "src/core", "src/commands", "src/linux",
                                       "src/ffi", NULL};
    size_t found = 0, bad = 0;
    for (size_t d = 0; dirs[d]; d++) {
        char dir[1024];
        snprintf(dir, sizeof(dir), "%s/%s", AD_SOURCE_DIR, dirs[d]);
        DIR *h = opendir(dir);
        assert_non_null(h);
        for (struct dirent *e; (e = readdir(h));) {
            size_t len = strlen(e->d_name);
            if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0)
                continue;
            char path[2048];
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            found += check_file(path, &bad);
        }
        closedir(h);
    }
    assert_true(found > 50);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker_cases),
        cmocka_unit_test(test_every_suggestion_in_the_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
