/* state_root.c: resolving the state root path and the session id. */
#include "core/state_root.h"

#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int invalid_root(const char *why_fmt, const char *what, ad_error *err)
{
    ad_error_set(err, AD_INVALID_ARGS, why_fmt, what);
    ad_error_suggest(err, "Set AGENT_DESKTOP_HOME to an absolute directory path, or unset it "
                          "to use ~/.agent-desktop");
    return -1;
}

/* The absolute path `in` without empty or '.' components, so "/x/link/" and "/x/link/." name
 * link itself (a trailing slash would make lstat follow it). NULL when a component is '..'
 * (which would resolve through whatever symlink precedes it) or out of memory. */
static char *normalized(const char *in, bool *dotdot)
{
    char *out = malloc(strlen(in) + 2);
    if (!out)
        return NULL;
    size_t n = 0;
    for (const char *p = in; *p;) {
        while (*p == '/')
            p++;
        const char *end = strchrnul(p, '/');
        size_t len = (size_t)(end - p);
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            *dotdot = true;
            free(out);
            return NULL;
        }
        if (len > 0 && !(len == 1 && p[0] == '.')) {
            out[n++] = '/';
            memcpy(out + n, p, len);
            n += len;
        }
        p = end;
    }
    out[n] = '\0';
    return out;
}

int ad_state_root_resolve(char **ret_path, ad_error *err)
{
    const char *env = getenv("AGENT_DESKTOP_HOME");
    char *raw = NULL;
    if (env) {
        if (env[0] != '/')
            return invalid_root("%s must be an absolute path", "AGENT_DESKTOP_HOME", err);
        raw = strdup(env);
    } else {
        const char *home = getenv("HOME");
        /* getpwuid_r, not getpwuid: the library may resolve the root on several threads at
         * once, and getpwuid's result is one static buffer. */
        struct passwd pwbuf, *pw = NULL;
        char pwstore[4096];
        if (!home || !*home) {
            getpwuid_r(getuid(), &pwbuf, pwstore, sizeof(pwstore), &pw);
            home = pw ? pw->pw_dir : "/";
        }
        /* A relative HOME would make every state path depend on the working directory. */
        if (home[0] != '/')
            return invalid_root("%s is not an absolute path, so ~/.agent-desktop has no fixed "
                                "location", "HOME", err);
        if (asprintf(&raw, "%s/.agent-desktop", home) < 0)
            raw = NULL;
    }
    if (!raw)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    bool dotdot = false;
    char *path = normalized(raw, &dotdot);
    free(raw);
    if (dotdot)
        return invalid_root("%s must not contain a '..' component",
                            env ? "AGENT_DESKTOP_HOME" : "HOME", err);
    if (!path)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    if (!path[0]) {
        free(path);
        return invalid_root("%s must name a directory below /",
                            env ? "AGENT_DESKTOP_HOME" : "HOME", err);
    }
    struct stat st;
    if (lstat(path, &st) == 0) {
        const char *why = NULL;
        if (S_ISLNK(st.st_mode))
            why = "is a symbolic link";
        else if (!S_ISDIR(st.st_mode))
            why = "is not a directory";
        else if (st.st_uid != geteuid())
            why = "is owned by another user";
        if (why) {
            ad_error_set(err, AD_INVALID_ARGS, "State root '%s' %s", path, why);
            ad_error_suggest(err, "Point AGENT_DESKTOP_HOME at a directory you own, or at a "
                                  "path that does not exist yet");
            free(path);
            return -1;
        }
    }
    *ret_path = path;
    return 0;
}

int ad_session_id_valid(const char *id)
{
    size_t n = strlen(id);
    if (n < 1 || n > 64)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

/* Resolves one id from its flag or, without the flag, its environment variable: NULL when
 * neither is set, INVALID_ARGS for an empty or malformed id. `what` names the id in
 * the message ("session id"). *ret_id is the caller's. */
static int id_resolve(const char *flag_value, const char *flag, const char *env_name,
                      const char *what, char **ret_id, ad_error *err)
{
    const char *id = flag_value;
    const char *source = flag;
    if (!id) {
        id = getenv(env_name);
        source = env_name;
    }
    *ret_id = NULL;
    if (!id)
        return 0;
    if (!ad_session_id_valid(id)) {
        if (*id)
            ad_error_set(err, AD_INVALID_ARGS,
                         "Invalid %s from %s, '%s': expected 1 to 64 letters, digits, '-' "
                         "or '_'", what, source, id);
        else
            ad_error_set(err, AD_INVALID_ARGS, "%s is empty", source);
        ad_error_suggest(err, "Pass an id such as run-1 with %s, or unset %s", flag,
                         env_name);
        ad_error_detail_text(err, "source", source);
        return -1;
    }
    *ret_id = strdup(id);
    return *ret_id ? 0 : ad_error_set(err, AD_INTERNAL, "out of memory");
}

int ad_session_resolve(const char *flag_value, char **ret_id, ad_error *err)
{
    return id_resolve(flag_value, "--session", "AGENT_DESKTOP_SESSION", "session id", ret_id,
                      err);
}

int ad_agent_id_resolve(const char *flag_value, char **ret_id, ad_error *err)
{
    return id_resolve(flag_value, "--agent-id", "AGENT_DESKTOP_AGENT_ID", "agent id", ret_id,
                      err);
}
