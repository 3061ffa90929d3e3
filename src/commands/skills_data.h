/* skills_data.h: the skills compiled into the binary (generated from skills/ at build time). */
#ifndef AD_SKILLS_DATA_H
#define AD_SKILLS_DATA_H

#include <stddef.h>

typedef struct {
    const char *path;    /* "references/troubleshooting.md"; NULL ends a list */
    const char *content; /* Markdown */
} ad_skill_ref;

typedef struct {
    const char *name;     /* "agent-desktop-linux" */
    const char *alias;    /* "linux" */
    const char *platform; /* "linux", or NULL for a skill of every OS */
    const ad_skill_ref *refs;
    size_t n_refs;
    const char *content;  /* SKILL.md */
} ad_skill;

extern const ad_skill ad_skills[];
extern const size_t ad_skills_count;

#endif
