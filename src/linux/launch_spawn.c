/* launch_spawn.c: resolving launch's APP and starting it detached (launch_spawn.h). */
#include "linux/launch_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linux/desktop_entry.h"
#include "linux/proc.h"

extern char **environ;

static bool executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The absolute path of cmd: itself when absolute, else the first $PATH hit; NULL when it is
 * not an executable file (malloc'd). A relative path with a slash is not looked up. */
static char *find_program(const char *cmd)
{
    if (cmd[0] == '/')
        return executable_file(cmd) ? strdup(cmd) : NULL;
    if (!cmd[0] || strchr(cmd, '/'))
        return NULL;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, ":");
        char full[PATH_MAX];
        if (len > 0 && snprintf(full, sizeof(full), "%.*s/%s", (int)len, p, cmd) <
                           (int)sizeof(full) &&
            executable_file(full))
            return strdup(full);
        p += len;
        if (*p == ':')
            p++;
    }
    return NULL;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int fill_target(ad_launch_target *ret, char *program, const char *desktop_id)
{
    ret->program = program;
    ret->name = strdup(base_name(program));
    ret->desktop_id = desktop_id ? strdup(desktop_id) : NULL;
    return 0;
}

int ad_launch_resolve(const char *app, ad_desktop_entries *desktop_entries,
                      ad_launch_target *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (app[0] == '/') {
        char *program = find_program(app);
        if (program)
            return fill_target(ret, program, NULL);
        ad_error_set(err, AD_APP_NOT_FOUND, "'%s' is not an executable file", app);
        ad_error_suggest(err, "Pass the absolute path of an executable, a desktop id, or a "
                              "command on PATH");
        return -1;
    }
    char *id = NULL;
    ad_desktop_exec exec = {0};
    if (ad_desktop_entry_lookup(desktop_entries, app, &id, &exec) == 0) {
        /* The real executable, after any `env NAME=VALUE` of Exec= (desktop_exec.h). */
        char *program = find_program(exec.program);
        if (program) {
            fill_target(ret, program, id);
            ret->env = exec.env; /* taken over */
            ret->args = exec.args;
            exec.env = exec.args = NULL;
        }
        ad_desktop_exec_clear(&exec);
        free(id); /* an entry without a verified executable names nothing */
        if (program)
            return 0;
    }
    char *program = find_program(app);
    if (program)
        return fill_target(ret, program, NULL);
    ad_error_set(err, AD_APP_NOT_FOUND, "'%s' names no executable, desktop entry or command "
                                        "on PATH", app);
    ad_error_suggest(err, "Pass an absolute path, a desktop id such as org.gnome.Calculator, "
                          "a desktop entry name, or a command on PATH");
    return -1;
}

static size_t count(char *const *list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    return n;
}

/* True when some "KEY=VALUE" of sets (n of them) has the key of entry ("KEY=..."). */
static bool key_set_in(const char *entry, char *const *sets, size_t n)
{
    const char *eq = strchr(entry, '=');
    size_t key_len = eq ? (size_t)(eq - entry) : strlen(entry);
    for (size_t j = 0; j < n; j++)
        if (sets[j] && strncmp(sets[j], entry, key_len) == 0 && sets[j][key_len] == '=')
            return true;
    return false;
}

/* Our environment with each "KEY=VALUE" of the entry's assignments, then of --env, replacing
 * or adding its key (--env wins over the entry). Every string is borrowed; the caller frees
 * the array only. */
static char **merged_environment(char *const *entry_env, const json_t *env)
{
    size_t n = count(environ), n_entry = count(entry_env);
    size_t extra = env ? json_array_size(env) : 0;
    char **out = calloc(n + n_entry + extra + 1, sizeof(*out));
    if (!out)
        return NULL;
    /* The overrides in the order they apply: the entry's, then --env's. */
    char **sets = out + n;
    size_t k = 0;
    for (size_t j = 0; j < extra; j++)
        sets[k++] = (char *)json_string_value(json_array_get(env, j));
    for (size_t j = 0; j < n_entry; j++)
        if (!key_set_in(entry_env[j], sets, extra))
            sets[k++] = entry_env[j];
    size_t n_sets = k, kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!key_set_in(environ[i], sets, n_sets))
            out[kept++] = environ[i];
    memmove(out + kept, sets, n_sets * sizeof(*out));
    out[kept + n_sets] = NULL;
    return out;
}

/* argv: the program's base name, the entry's Exec= arguments, then args (borrowed strings;
 * the caller frees the array). */
static char **build_argv(const char *program, char *const *entry_args, const json_t *args)
{
    size_t n = args ? json_array_size(args) : 0, n_entry = count(entry_args);
    char **argv = calloc(n_entry + n + 2, sizeof(*argv));
    if (!argv)
        return NULL;
    size_t k = 0;
    argv[k++] = (char *)base_name(program);
    for (size_t i = 0; i < n_entry; i++)
        argv[k++] = entry_args[i];
    for (size_t i = 0; i < n; i++)
        argv[k++] = (char *)json_string_value(json_array_get(args, i));
    return argv;
}

int ad_launch_spawn(const ad_launch_target *t, const ad_launch_req *req, int *ret_pid,
                    ad_error *err)
{
    /* --cwd was checked by the launch handler before anything else (commands/launch.c). */
    char **argv = build_argv(t->program, t->args, req->args);
    char **envp = merged_environment(t->env, req->env);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    for (int fd = 0; fd < 3; fd++)
        posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
    /* Nothing of ours (a bus socket, a caller's pipe on a high fd) stays open in the app. */
    posix_spawn_file_actions_addclosefrom_np(&fa, 3);
    if (req->cwd)
        posix_spawn_file_actions_addchdir_np(&fa, req->cwd);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigfillset(&defaults);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    /* Its own session: no controlling terminal of ours, no signal to our process group. */
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    int rc = argv && envp ? posix_spawn(&pid, t->program, &fa, &attr, argv, envp) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    free(argv);
    free(envp);
    if (rc != 0) {
        ad_error_set(err, AD_ACTION_FAILED, "Could not start '%s': %s", t->program,
                     strerror(rc));
        ad_error_platform_detail(err, strerror(rc));
        return -1;
    }
    *ret_pid = (int)pid;
    return 0;
}

bool ad_launch_is_chromium(int pid)
{
    char *exe = ad_proc_exe_path(pid);
    char *slash = exe ? strrchr(exe, '/') : NULL;
    static const char *const beside[] = {"resources.pak", "v8_context_snapshot.bin"};
    bool found = slash != NULL;
    for (size_t i = 0; found && i < 2; i++) {
        char path[PATH_MAX];
        found = snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - exe), exe, beside[i]) <
                    (int)sizeof(path) &&
                access(path, R_OK) == 0;
    }
    free(exe);
    return found;
}
