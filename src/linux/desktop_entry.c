/* desktop_entry.c: a small reader of the [Desktop Entry] group of installed .desktop files. */
#include "linux/desktop_entry.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_ENTRY_FILES 4096

static const char *const app_dirs[] = {"/usr/share/applications", "/usr/local/share/applications",
                                       NULL};

/* Reads Name= and the first word of Exec= (*prog as written, *exec its base name) from the
 * [Desktop Entry] group. */
static void read_entry(const char *path, char **name, char **exec, char **prog_out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    int in_main = 0;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '[') {
            in_main = strcmp(line, "[Desktop Entry]") == 0;
            continue;
        }
        if (!in_main)
            continue;
        if (!*name && strncmp(line, "Name=", 5) == 0)
            *name = strdup(line + 5);
        else if (!*exec && strncmp(line, "Exec=", 5) == 0) {
            char *prog = line + 5;
            prog[strcspn(prog, " \t")] = '\0';
            char *slash = strrchr(prog, '/');
            *exec = strdup(slash ? slash + 1 : prog);
            *prog_out = strdup(prog);
        }
    }
    fclose(f);
}

typedef struct {
    char *id, *name, *exec, *prog;
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

static void load_entries(ad_desktop_entries *t)
{
    t->loaded = true;
    size_t cap = 0;
    for (size_t d = 0; app_dirs[d]; d++) {
        DIR *dir = opendir(app_dirs[d]);
        if (!dir)
            continue;
        struct dirent *e;
        while ((e = readdir(dir)) && t->n_entries < MAX_ENTRY_FILES) {
            size_t len = strlen(e->d_name);
            if (len < 9 || strcmp(e->d_name + len - 8, ".desktop") != 0)
                continue;
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", app_dirs[d], e->d_name);
            char *name = NULL, *exec = NULL, *prog = NULL;
            read_entry(path, &name, &exec, &prog);
            if (!exec || !prog) {
                free(name);
                free(exec);
                free(prog);
                continue;
            }
            if (t->n_entries == cap) {
                cap = cap ? cap * 2 : 128;
                entry *l = realloc(t->entries, cap * sizeof(*l));
                if (!l) {
                    free(name);
                    free(exec);
                    free(prog);
                    break;
                }
                t->entries = l;
            }
            t->entries[t->n_entries++] = (entry){strndup(e->d_name, len - 8), name, exec, prog};
        }
        closedir(dir);
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
                            char **ret_program)
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
    *ret_id = strdup(found->id);
    *ret_program = strdup(found->prog);
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
        free(t->entries[i].prog);
    }
    free(t->entries);
    free(t);
}
