/* desktop_entry.c: a small reader of the [Desktop Entry] group of installed .desktop files. */
#include "linux/desktop_entry.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENTRY_FILES 4096

static const char *const app_dirs[] = {"/usr/share/applications", "/usr/local/share/applications",
                                       NULL};

/* Reads Name= and the first word of Exec= (base name) from the [Desktop Entry] group. */
static void read_entry(const char *path, char **name, char **exec)
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
        }
    }
    fclose(f);
}

int ad_desktop_entry_find(const char *exe, const char *app_name, char **ret_id,
                          char **ret_name)
{
    int files = 0;
    for (size_t d = 0; app_dirs[d]; d++) {
        DIR *dir = opendir(app_dirs[d]);
        if (!dir)
            continue;
        struct dirent *e;
        while ((e = readdir(dir)) && files++ < MAX_ENTRY_FILES) {
            size_t len = strlen(e->d_name);
            if (len < 9 || strcmp(e->d_name + len - 8, ".desktop") != 0)
                continue;
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", app_dirs[d], e->d_name);
            char *name = NULL, *exec = NULL;
            read_entry(path, &name, &exec);
            int hit = exec && ((exe && strcmp(exec, exe) == 0) ||
                               (app_name && strcmp(exec, app_name) == 0));
            free(exec);
            if (hit) {
                *ret_id = strndup(e->d_name, len - 8);
                *ret_name = name;
                closedir(dir);
                return 0;
            }
            free(name);
        }
        closedir(dir);
    }
    return -1;
}
