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

/* Field 22 of /proc/pid/stat, after the parenthesised command name (which may hold spaces). */
static int start_time(int pid, unsigned long long *ret)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    p += 2; /* skip ") " to field 3 */
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
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : 0;
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

char *ad_proc_exe_name(int pid)
{
    char path[64], target[PATH_MAX];
    snprintf(path, sizeof(path), "/proc/%d/exe", pid);
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    if (n <= 0)
        return NULL;
    target[n] = '\0';
    char *slash = strrchr(target, '/');
    return strdup(slash ? slash + 1 : target);
}

int ad_proc_parent(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    int ppid = 0;
    /* ") S 1234": the state, then field 4, the parent pid */
    if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
        return 0;
    return ppid;
}
