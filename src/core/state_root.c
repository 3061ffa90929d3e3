/* state_root.c: resolving and writing the private state root. */
#include "core/state_root.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char private_msg[] = "private file parent is accessible by group or other users";

int ad_state_root_resolve(char **ret_path, ad_error *err)
{
    const char *env = getenv("AGENT_DESKTOP_HOME");
    char *path = NULL;
    if (env) {
        if (env[0] != '/') {
            ad_error_set(err, AD_INVALID_ARGS, "AGENT_DESKTOP_HOME must be an absolute path");
            ad_error_suggest(err, "Set AGENT_DESKTOP_HOME to an absolute directory path, or "
                                  "unset it to use ~/.agent-desktop");
            return -1;
        }
        path = strdup(env);
    } else {
        const char *home = getenv("HOME");
        if (!home || !*home) {
            struct passwd *pw = getpwuid(getuid());
            home = pw ? pw->pw_dir : "/";
        }
        if (asprintf(&path, "%s/.agent-desktop", home) < 0)
            path = NULL;
    }
    if (!path)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    struct stat st;
    if (lstat(path, &st) == 0) {
        const char *why = NULL;
        if (S_ISLNK(st.st_mode))
            why = "is a symbolic link";
        else if (!S_ISDIR(st.st_mode))
            why = "is not a directory";
        else if (st.st_uid != getuid())
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

char *ad_namespace_path(const char *root, const char *session_id)
{
    char *p = NULL;
    int r = session_id ? asprintf(&p, "%s/sessions/%s", root, session_id)
                       : asprintf(&p, "%s", root);
    return r < 0 ? NULL : p;
}

static int mkdir_private(const char *path, ad_error *err)
{
    if (mkdir(path, 0700) == 0 || errno == EEXIST)
        return 0;
    ad_error_set(err, AD_INTERNAL, "Cannot create directory '%s': %s", path, strerror(errno));
    return -1;
}

int ad_private_dir_ensure(const char *path, ad_error *err)
{
    char *copy = strdup(path);
    if (!copy)
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    for (char *p = copy + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        struct stat st;
        if (stat(copy, &st) != 0 && mkdir_private(copy, err) < 0) {
            free(copy);
            return -1;
        }
        *p = '/';
    }
    free(copy);
    if (mkdir_private(path, err) < 0)
        return -1;
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return ad_error_set(err, AD_INTERNAL, "State directory '%s' is not a directory", path);
    if (st.st_mode & 077) {
        ad_error_set(err, AD_INTERNAL, "%s", private_msg);
        ad_error_suggest(err, "Run chmod 700 on %s, or let agent-desktop create it", path);
        ad_error_detail_text(err, "path", path);
        return -1;
    }
    return 0;
}

int ad_private_file_write(const char *dir, const char *name, const char *data, size_t len,
                          ad_error *err)
{
    char *tmp = NULL, *final = NULL;
    int fd = -1, rc = -1;
    if (asprintf(&tmp, "%s/.%s.XXXXXX", dir, name) < 0 ||
        asprintf(&final, "%s/%s", dir, name) < 0) {
        ad_error_set(err, AD_INTERNAL, "out of memory");
        goto done;
    }
    fd = mkstemp(tmp); /* mkstemp creates the file with mode 0600 */
    if (fd < 0) {
        ad_error_set(err, AD_INTERNAL, "Cannot write in '%s': %s", dir, strerror(errno));
        goto done;
    }
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            ad_error_set(err, AD_INTERNAL, "Cannot write '%s': %s", final, strerror(errno));
            goto done;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        fd = -1;
        ad_error_set(err, AD_INTERNAL, "Cannot flush '%s': %s", final, strerror(errno));
        goto done;
    }
    fd = -1;
    if (rename(tmp, final) != 0) {
        ad_error_set(err, AD_INTERNAL, "Cannot replace '%s': %s", final, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (fd >= 0)
        close(fd);
    if (rc < 0 && tmp)
        unlink(tmp);
    free(tmp);
    free(final);
    return rc;
}
