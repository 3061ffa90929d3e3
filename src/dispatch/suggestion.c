/* suggestion.c: the check that a suggestion names only flags and commands that work. */
#include "dispatch/suggestion.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_WORDS 96
#define WORD_BYTES 48

typedef struct {
    char text[WORD_BYTES];
} word;

/* Splits on anything but letters, digits, '-' and '_'; a flag word stops at '='. */
static size_t split_words(const char *s, word *out, size_t max)
{
    size_t n = 0;
    while (*s && n < max) {
        while (*s && !(isalnum((unsigned char)*s) || *s == '-' || *s == '_'))
            s++;
        size_t len = 0;
        while (s[len] && (isalnum((unsigned char)s[len]) || s[len] == '-' || s[len] == '_'))
            len++;
        if (!len)
            break;
        size_t keep = len < WORD_BYTES - 1 ? len : WORD_BYTES - 1;
        memcpy(out[n].text, s, keep);
        out[n].text[keep] = '\0';
        /* A word ending in '-' is prose ("pre- and post-"), not a name. */
        while (keep > 0 && out[n].text[keep - 1] == '-')
            out[n].text[--keep] = '\0';
        if (keep)
            n++;
        s += len;
    }
    return n;
}

static bool is_command_position(const word *w, size_t i)
{
    static const char *const leads[] = {"run", "agent-desktop", "with", "use", "or", "see",
                                        "then", "and", NULL};
    if (strchr(w[i].text, '-'))
        return true;
    if (i == 0)
        return false;
    for (size_t k = 0; leads[k]; k++)
        if (strcasecmp(w[i - 1].text, leads[k]) == 0)
            return true;
    return false;
}

static bool any_implemented_takes(const char *flag)
{
    for (size_t i = 0; i < ad_commands_count; i++)
        if (ad_commands[i].handler && ad_command_takes_flag(&ad_commands[i], flag))
            return true;
    return false;
}

const char *ad_suggestion_problem(const ad_command *cmd, const char *suggestion, char *buf,
                                  size_t size)
{
    if (!suggestion)
        return NULL;
    word w[MAX_WORDS];
    size_t n = split_words(suggestion, w, MAX_WORDS);
    const ad_command *named[MAX_WORDS];
    size_t n_named = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i].text[0] == '-' || !is_command_position(w, i))
            continue;
        const ad_command *c = ad_command_find(w[i].text);
        if (!c)
            continue;
        if (!c->handler) {
            snprintf(buf, size, "names %s, which this build does not implement", c->name);
            return buf;
        }
        named[n_named++] = c;
    }
    for (size_t i = 0; i < n; i++) {
        if (strncmp(w[i].text, "--", 2) != 0 || !w[i].text[2])
            continue;
        const char *flag = w[i].text + 2;
        bool ok = ad_arg_spec_find(ad_global_args, flag) != NULL ||
                  (cmd ? ad_command_takes_flag(cmd, flag) : any_implemented_takes(flag));
        for (size_t k = 0; k < n_named && !ok; k++)
            ok = ad_command_takes_flag(named[k], flag);
        if (!ok) {
            snprintf(buf, size, "names --%s, which %s does not accept", flag,
                     cmd ? cmd->name : "no implemented command");
            return buf;
        }
    }
    return NULL;
}
