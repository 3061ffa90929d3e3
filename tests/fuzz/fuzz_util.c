/* fuzz_util.c: see fuzz_util.h. */
#include "fuzz_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char *what, const json_t *env)
{
    char *s = json_dumps(env, JSON_COMPACT | JSON_ENSURE_ASCII);
    fprintf(stderr, "fuzz: envelope invariant broken (%s): %s\n", what, s ? s : "(unprintable)");
    free(s);
    abort();
}

void fz_check_envelope(const json_t *env)
{
    if (!env)
        die("no envelope", env);
    char *text = json_dumps(env, JSON_COMPACT | JSON_ENSURE_ASCII);
    if (!text)
        die("does not serialise", env);
    json_t *back = json_loads(text, 0, NULL);
    free(text);
    if (!back)
        die("does not parse back", env);
    const json_t *ok = json_object_get(back, "ok");
    if (!json_is_string(json_object_get(back, "version")) || !json_is_boolean(ok) ||
        !json_is_string(json_object_get(back, "command")))
        die("version, ok or command missing", env);
    if (json_is_true(ok)) {
        if (!json_is_object(json_object_get(back, "data")))
            die("ok without data", env);
    } else {
        const json_t *err = json_object_get(back, "error");
        if (!json_is_string(json_object_get(err, "code")) ||
            !json_is_string(json_object_get(err, "message")))
            die("error without code or message", env);
    }
    json_decref(back);
}

static char *home;

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void fz_cleanup(void)
{
    if (home)
        nftw(home, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fz_state_home(void)
{
    if (home)
        return home;
    const char *base = getenv("TMPDIR");
    if (asprintf(&home, "%s/ad-fuzz-XXXXXX", base && *base ? base : "/tmp") < 0 ||
        !mkdtemp(home))
        abort();
    atexit(fz_cleanup);
    return home;
}

char *fz_cstr(const unsigned char *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}
