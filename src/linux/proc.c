/* proc.c: /proc/<pid>/stat start times and the boot id. */
#include "linux/proc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void boot_prefix(char out[9])
{
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    char buf[64] = {0};
    size_t n = 0;
    if (f) {
        if (fgets(buf, sizeof(buf), f)) {
            for (char *p = buf; *p && n < 8; p++)
                if (*p != '-')
                    out[n++] = *p;
        }
        fclose(f);
    }
    while (n < 8)
        out[n++] = '0';
    out[8] = '\0';
}

/* /proc/pid/stat read into buf, from field 3 on: what follows the parenthesised command name
 * (which may hold spaces and parentheses) and its space. NULL when unreadable. */
static const char *stat_fields(int pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p + 2 : NULL;
}

/* Field 22 of /proc/pid/stat: the start time in clock ticks. */
static int start_time(int pid, unsigned long long *ret)
{
    char buf[1024];
    const char *p = stat_fields(pid, buf, sizeof(buf));
    if (!p)
        return -1;
    for (int field = 3; field < 22 && p; field++) {
        p = strchr(p, ' ');
        if (p)
            p++;
    }
    if (!p)
        return -1;
    *ret = strtoull(p, NULL, 10);
    return 0;
}

char *ad_proc_instance(int pid)
{
    unsigned long long st;
    if (pid <= 0 || start_time(pid, &st) < 0)
        return NULL;
    char boot[9];
    boot_prefix(boot);
    char *s = NULL;
    if (asprintf(&s, "%s:%llu", boot, st) < 0)
        return NULL;
    return s;
}

/* The state letter of /proc/pid/stat (R, S, D, Z, ...), or 0 when unreadable. */
static char proc_state(int pid)
{
    char buf[1024];
    const char *p = stat_fields(pid, buf, sizeof(buf));
    return p ? p[0] : 0;
}

bool ad_proc_alive(int pid, const char *instance)
{
    char *now = ad_proc_instance(pid);
    /* An exited process that its parent has not reaped yet is a zombie: still in /proc with
     * its start time, but gone. */
    bool alive = now && (!instance || strcmp(now, instance) == 0) && proc_state(pid) != 'Z' &&
                 proc_state(pid) != 'X';
    free(now);
    return alive;
}

char *ad_proc_exe_path(int pid)
{
    char path[64], target[PATH_MAX];
    snprintf(path, sizeof(path), "/proc/%d/exe", pid);
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    if (n <= 0)
        return NULL;
    target[n] = '\0';
    return strdup(target);
}

char *ad_proc_exe_name(int pid)
{
    char *path = ad_proc_exe_path(pid);
    char *slash = path ? strrchr(path, '/') : NULL;
    char *name = path ? strdup(slash ? slash + 1 : path) : NULL;
    free(path);
    return name;
}

int ad_proc_parent(int pid)
{
    char buf[1024];
    const char *p = stat_fields(pid, buf, sizeof(buf));
    int ppid = 0;
    /* "S 1234 ...": the state, then field 4, the parent pid */
    if (!p || sscanf(p, "%*c %d", &ppid) != 1)
        return 0;
    return ppid;
}
