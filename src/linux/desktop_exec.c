/* desktop_exec.c: splitting a desktop entry's Exec= line and unwrapping `env`
 * (desktop_exec.h). */
#include "linux/desktop_exec.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 256 /* an Exec= line holds a handful; more is not an app launcher */

/* A NULL-terminated list of owned strings. */
typedef struct {
    char **items;
    size_t n;
} word_list;

static void words_free(char **items)
{
    for (size_t i = 0; items && items[i]; i++)
        free(items[i]);
    free(items);
}

/* Appends w (taken over: freed on failure); false when full or out of memory. */
static bool words_add(word_list *l, char *w)
{
    char **grown = w && l->n < MAX_WORDS ? realloc(l->items, (l->n + 2) * sizeof(*grown))
                                         : NULL;
    if (!grown) {
        free(w);
        return false;
    }
    l->items = grown;
    l->items[l->n++] = w;
    l->items[l->n] = NULL;
    return true;
}

/* Undoes the escapes of a string value (\s \n \t \r \\); others stay as written. */
static char *unescape_value(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    if (!out)
        return NULL;
    for (; *s; s++) {
        if (*s != '\\' || !s[1]) {
            *o++ = *s;
            continue;
        }
        char c = s[1];
        char r = c == 's' ? ' ' : c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r'
               : c == '\\' ? '\\' : 0;
        if (r) {
            *o++ = r;
            s++;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
    return out;
}

/* Removes the field codes of one unquoted-or-quoted word in place; true when the word held
 * a code and nothing else is left of it (it expands to no argument). */
static bool strip_field_codes(char *w)
{
    bool had_code = false;
    char *o = w;
    for (char *p = w; *p; p++) {
        if (*p == '%' && p[1]) {
            if (p[1] == '%')
                *o++ = '%';
            else
                had_code = true;
            p++;
            continue;
        }
        *o++ = *p;
    }
    *o = '\0';
    return had_code && !*w;
}

/* The words of line (quotes removed, codes stripped) into *l; false when malformed. */
static bool split_words(const char *line, word_list *l)
{
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            return true;
        char *w = malloc(strlen(p) + 1), *o = w;
        if (!w)
            return false;
        bool quoted = false;
        for (; *p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
            if (*p == '"') {
                quoted = !quoted;
            } else if (quoted && *p == '\\' && p[1] && strchr("\"`$\\", p[1])) {
                *o++ = *++p;
            } else {
                *o++ = *p;
            }
        }
        *o = '\0';
        if (quoted) {
            free(w);
            return false;
        }
        if (strip_field_codes(w))
            free(w);
        else if (!words_add(l, w))
            return false;
    }
}

static bool is_env(const char *word)
{
    const char *slash = strrchr(word, '/');
    return strcmp(slash ? slash + 1 : word, "env") == 0;
}

/* NAME=VALUE with a non-empty NAME: what env takes as an assignment. */
static bool is_assignment(const char *word)
{
    const char *eq = strchr(word, '=');
    return eq && eq != word;
}

void ad_desktop_exec_clear(ad_desktop_exec *e)
{
    free(e->program);
    words_free(e->env);
    words_free(e->args);
    memset(e, 0, sizeof(*e));
}

/* The words of src[from..] as a new list (NULL-terminated, never NULL unless out of
 * memory). */
static char **copy_words(char *const *src, size_t from)
{
    word_list l = {calloc(1, sizeof(char *)), 0};
    for (size_t i = from; l.items && src && src[i]; i++)
        if (!words_add(&l, strdup(src[i]))) {
            words_free(l.items);
            return NULL;
        }
    return l.items;
}

int ad_desktop_exec_parse(const char *exec, ad_desktop_exec *out)
{
    memset(out, 0, sizeof(*out));
    char *line = unescape_value(exec);
    word_list words = {0};
    word_list env = {calloc(1, sizeof(char *)), 0};
    bool ok = line && env.items && split_words(line, &words);
    free(line);
    size_t i = 0;
    while (ok && i < words.n && is_env(words.items[i])) {
        for (i++; ok && i < words.n && is_assignment(words.items[i]); i++)
            ok = words_add(&env, strdup(words.items[i]));
        if (i < words.n && words.items[i][0] == '-')
            ok = false; /* env -i, -u NAME, -S, --: not a plain assignment list */
    }
    ok = ok && i < words.n;
    if (ok) {
        out->program = strdup(words.items[i]);
        out->env = env.items;
        out->args = copy_words(words.items, i + 1);
        env.items = NULL;
        ok = out->program && out->args;
    }
    words_free(words.items);
    words_free(env.items);
    if (!ok)
        ad_desktop_exec_clear(out);
    return ok ? 0 : -1;
}

int ad_desktop_exec_copy(ad_desktop_exec *dst, const ad_desktop_exec *src)
{
    dst->program = src->program ? strdup(src->program) : NULL;
    dst->env = copy_words(src->env, 0);
    dst->args = copy_words(src->args, 0);
    if ((src->program && !dst->program) || !dst->env || !dst->args) {
        ad_desktop_exec_clear(dst);
        return -1;
    }
    return 0;
}
