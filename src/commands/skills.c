/* skills.c: the skills command (skills.md): list, get NAME [REFERENCE] [--full], path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/common.h"
#include "commands/handlers.h"
#include "commands/skills_data.h"
#include "core/ctx.h"

#define CURRENT_PLATFORM "linux"

static const ad_skill *skill_find(const char *name)
{
    if (strcmp(name, "platform") == 0)
        name = CURRENT_PLATFORM;
    for (size_t i = 0; i < ad_skills_count; i++)
        if (strcmp(ad_skills[i].name, name) == 0 || strcmp(ad_skills[i].alias, name) == 0)
            return &ad_skills[i];
    return NULL;
}

/* Matches a reference by path, file name or stem. */
static const ad_skill_ref *ref_find(const ad_skill *s, const char *want)
{
    for (size_t i = 0; i < s->n_refs; i++) {
        const char *path = s->refs[i].path;
        const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        size_t stem = strlen(file) - 3; /* ".md" */
        if (strcmp(path, want) == 0 || strcmp(file, want) == 0 ||
            (strlen(want) == stem && strncmp(file, want, stem) == 0))
            return &s->refs[i];
    }
    return NULL;
}

static json_t *refs_json(const ad_skill *s)
{
    json_t *a = json_array();
    for (size_t i = 0; i < s->n_refs; i++)
        json_array_append_new(a, json_string(s->refs[i].path));
    return a;
}

static json_t *list_entry(const ad_skill *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "aliases", json_pack("[s, s]", s->alias, s->name));
    if (s->platform)
        json_object_set_new(o, "current", json_boolean(strcmp(s->platform, CURRENT_PLATFORM) == 0));
    json_object_set_new(o, "name", json_string(s->name));
    if (s->platform)
        json_object_set_new(o, "platform", json_string(s->platform));
    json_object_set_new(o, "references", refs_json(s));
    return o;
}

static int unknown_skill(const char *name, ad_error *err)
{
    size_t cap = 256;
    char *known = calloc(1, cap);
    for (size_t i = 0; known && i < ad_skills_count; i++) {
        size_t need = strlen(known) + strlen(ad_skills[i].alias) + strlen(ad_skills[i].name) + 8;
        if (need > cap) {
            cap = need * 2;
            char *k = realloc(known, cap);
            if (!k)
                break;
            known = k;
        }
        strcat(known, i ? ", " : "");
        strcat(known, ad_skills[i].alias);
        strcat(known, ", ");
        strcat(known, ad_skills[i].name);
    }
    ad_error_set(err, AD_INVALID_ARGS, "Unknown skill '%s'. Known: %s", name,
                 known ? known : "");
    ad_error_suggest(err, "Run agent-desktop skills list");
    free(known);
    return -1;
}

static int unknown_reference(const ad_skill *s, const char *want, ad_error *err)
{
    char list[2048] = "";
    for (size_t i = 0; i < s->n_refs; i++) {
        if (i)
            strncat(list, ", ", sizeof(list) - strlen(list) - 1);
        strncat(list, s->refs[i].path, sizeof(list) - strlen(list) - 1);
    }
    ad_error_set(err, AD_INVALID_ARGS, "Unknown reference '%s' for skill %s. Available: %s",
                 want, s->name, list);
    ad_error_suggest(err, "Name a reference by path, file name or stem");
    return -1;
}

static int get_skill(const json_t *args, json_t **ret_data, ad_error *err)
{
    const char *name = ad_arg_str(args, "name"); /* the table's rule: get needs a name */
    const ad_skill *s = skill_find(name);
    if (!s)
        return unknown_skill(name, err);
    const char *want = ad_arg_str(args, "reference");
    json_t *d = json_object();
    json_object_set_new(d, "name", json_string(s->name));
    if (want) {
        const ad_skill_ref *r = ref_find(s, want);
        if (!r) {
            json_decref(d);
            return unknown_reference(s, want, err);
        }
        json_object_set_new(d, "reference", json_string(r->path));
        json_object_set_new(d, "content", json_string(r->content));
    } else if (ad_arg_bool(args, "full")) {
        size_t len = strlen(s->content) + 1;
        for (size_t i = 0; i < s->n_refs; i++)
            len += strlen(s->refs[i].content) + strlen(s->refs[i].path) + 16;
        char *all = malloc(len);
        if (!all) {
            json_decref(d);
            return ad_error_set(err, AD_INTERNAL, "out of memory");
        }
        strcpy(all, s->content);
        for (size_t i = 0; i < s->n_refs; i++) {
            strcat(all, "\n--- ");
            strcat(all, s->refs[i].path);
            strcat(all, " ---\n\n");
            strcat(all, s->refs[i].content);
        }
        json_object_set_new(d, "content", json_string(all));
        free(all);
    } else {
        json_object_set_new(d, "content", json_string(s->content));
    }
    json_object_set_new(d, "references", refs_json(s));
    *ret_data = d;
    return 0;
}

int ad_cmd_skills(ad_ctx *ctx, const json_t *args, json_t **ret_data, ad_error *err)
{
    (void)ctx;
    const char *action = ad_arg_str(args, "action");
    if (action && strcmp(action, "get") == 0)
        return get_skill(args, ret_data, err);
    json_t *names = json_array();
    for (size_t i = 0; i < ad_skills_count; i++)
        json_array_append_new(names, json_string(ad_skills[i].name));
    if (action && strcmp(action, "path") == 0) {
        *ret_data = json_pack("{s:o, s:s, s:s}", "available", names, "location", "embedded",
                              "note", "Skills are compiled into this binary and are always "
                                      "version-matched. Run `agent-desktop skills get <name>` "
                                      "to print a skill, or redirect into a file to extract a "
                                      "copy.");
        return 0;
    }
    json_decref(names);
    json_t *list = json_array();
    for (size_t i = 0; i < ad_skills_count; i++)
        json_array_append_new(list, list_entry(&ad_skills[i]));
    *ret_data = json_pack("{s:o}", "skills", list);
    return 0;
}
