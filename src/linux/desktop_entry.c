/* desktop_entry.c: a small reader of the [Desktop Entry] group of installed .desktop files. */
#include "linux/desktop_entry.h"

#include "linux/desktop_exec.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_ENTRY_FILES 4096

/* Reads Name= and Exec= (split, `env` unwrapped: desktop_exec.h) from the [Desktop Entry]
 * group. *exec stays empty when Exec= is missing or names no program. */
static void read_entry(const char *path, char **name, ad_desktop_exec *exec)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[4096];
    int in_main = 0;
    bool exec_seen = false;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '[') {
            in_main = strcmp(line, "[Desktop Entry]") == 0;
            continue;
        }
        if (!in_main)
            continue;
        if (!*name && strncmp(line, "Name=", 5) == 0) {
            *name = strdup(line + 5);
        } else if (!exec_seen && strncmp(line, "Exec=", 5) == 0) {
            exec_seen = true;
            ad_desktop_exec_parse(line + 5, exec);
        }
    }
    fclose(f);
}

typedef struct {
    char *id, *name;
    char *exec;           /* the program's base name, what a running process is matched by */
    ad_desktop_exec run;  /* what the entry starts */
} entry;

/* Every desktop entry, read once per owner (the platform adapter) on first use: a command
 * may match several apps. Not process-global: two adapters on two threads each have their
 * own, and one's destroy cannot free what the other reads. */
struct ad_desktop_entries {
    entry *entries;
    size_t n_entries;
    bool loaded;
};

ad_desktop_entries *ad_desktop_entries_new(void)
{
    return calloc(1, sizeof(ad_desktop_entries));
}

static bool known_id(const ad_desktop_entries *t, const char *id, size_t len)
{
    for (size_t i = 0; i < t->n_entries; i++)
        if (strlen(t->entries[i].id) == len && strncmp(t->entries[i].id, id, len) == 0)
            return true;
    return false;
}

/* The entries of one applications directory; an id seen in an earlier directory wins (the
 * XDG order: the user's data home before the system's data dirs). */
static void load_dir(ad_desktop_entries *t, const char *dir_path, size_t *cap)
{
    DIR *dir = opendir(dir_path);
    if (!dir)
        return;
    struct dirent *e;
    while ((e = readdir(dir)) && t->n_entries < MAX_ENTRY_FILES) {
        size_t len = strlen(e->d_name);
        if (len < 9 || strcmp(e->d_name + len - 8, ".desktop") != 0 ||
            known_id(t, e->d_name, len - 8))
            continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof(path), "%s/%s", dir_path, e->d_name) >= (int)sizeof(path))
            continue;
        char *name = NULL;
        ad_desktop_exec run = {0};
        read_entry(path, &name, &run);
        const char *slash = run.program ? strrchr(run.program, '/') : NULL;
        char *exec = run.program ? strdup(slash ? slash + 1 : run.program) : NULL;
        char *id = strndup(e->d_name, len - 8);
        if (t->n_entries == *cap) {
            size_t grown_cap = *cap ? *cap * 2 : 128;
            entry *l = realloc(t->entries, grown_cap * sizeof(*l));
            if (l) {
                t->entries = l;
                *cap = grown_cap;
            }
        }
        if (!exec || !id || t->n_entries == *cap) {
            free(name);
            free(exec);
            free(id);
            ad_desktop_exec_clear(&run);
            continue;
        }
        t->entries[t->n_entries++] = (entry){id, name, exec, run};
    }
    closedir(dir);
}

/* $XDG_DATA_HOME/applications (default ~/.local/share), then each of $XDG_DATA_DIRS
 * (default /usr/local/share:/usr/share), as the XDG Base Directory Specification orders them. */
static void load_entries(ad_desktop_entries *t)
{
    t->loaded = true;
    size_t cap = 0;
    char dir[PATH_MAX];
    const char *home = getenv("XDG_DATA_HOME"), *user = getenv("HOME");
    if (home && home[0] == '/')
        snprintf(dir, sizeof(dir), "%s/applications", home);
    else if (user && user[0] == '/')
        snprintf(dir, sizeof(dir), "%s/.local/share/applications", user);
    else
        dir[0] = '\0';
    if (dir[0])
        load_dir(t, dir, &cap);
    const char *dirs = getenv("XDG_DATA_DIRS");
    if (!dirs || !*dirs)
        dirs = "/usr/local/share:/usr/share";
    for (const char *p = dirs; *p;) {
        size_t len = strcspn(p, ":");
        /* Relative entries are invalid in the spec and ignored. */
        if (p[0] == '/' && snprintf(dir, sizeof(dir), "%.*s/applications", (int)len, p) <
                               (int)sizeof(dir))
            load_dir(t, dir, &cap);
        p += len;
        if (*p == ':')
            p++;
    }
}

int ad_desktop_entry_find(ad_desktop_entries *t, const char *exe, const char *app_name,
                          char **ret_id, char **ret_name)
{
    if (!t)
        return -1;
    if (!t->loaded)
        load_entries(t);
    for (size_t i = 0; i < t->n_entries; i++) {
        const entry *e = &t->entries[i];
        if ((exe && strcmp(e->exec, exe) == 0) || (app_name && strcmp(e->exec, app_name) == 0)) {
            *ret_id = e->id ? strdup(e->id) : NULL;
            *ret_name = e->name ? strdup(e->name) : NULL;
            return 0;
        }
    }
    return -1;
}

int ad_desktop_entry_lookup(ad_desktop_entries *t, const char *app, char **ret_id,
                            ad_desktop_exec *ret_exec)
{
    if (!t)
        return -1;
    if (!t->loaded)
        load_entries(t);
    const entry *found = NULL;
    for (size_t i = 0; i < t->n_entries && !found; i++)
        if (t->entries[i].id && strcmp(t->entries[i].id, app) == 0)
            found = &t->entries[i];
    for (size_t i = 0; i < t->n_entries && !found; i++)
        if (t->entries[i].name && strcasecmp(t->entries[i].name, app) == 0)
            found = &t->entries[i];
    if (!found)
        return -1;
    if (ad_desktop_exec_copy(ret_exec, &found->run) < 0)
        return -1;
    *ret_id = strdup(found->id);
    return 0;
}

void ad_desktop_entries_free(ad_desktop_entries *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_entries; i++) {
        free(t->entries[i].id);
        free(t->entries[i].name);
        free(t->entries[i].exec);
        ad_desktop_exec_clear(&t->entries[i].run);
    }
    free(t->entries);
    free(t);
}
