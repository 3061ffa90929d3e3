/* trace_redact.c: key-word redaction of trace events (trace_redact.h). */
#include "core/trace_redact.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

static const char *const sensitive_words[] = {
    "text", "value", "name", "title", "url", "label", "description", "password", "secret",
    "token", "json",
};

/* Keys that contain a sensitive word but name something the spec keeps readable. */
static const char *const readable_keys[] = {"app_name", "appName", "command_name"};

static bool word_sensitive(const char *w, size_t n)
{
    for (size_t i = 0; i < sizeof(sensitive_words) / sizeof(sensitive_words[0]); i++)
        if (strlen(sensitive_words[i]) == n && strncasecmp(w, sensitive_words[i], n) == 0)
            return true;
    return false;
}

static bool is_separator(char c)
{
    return c == '_' || c == '-' || c == '.' || c == ' ';
}

/* Where the word starting at s[i] ends: before a separator, before an upper-case letter
 * that follows a lower-case one, or before the last capital of an acronym that a
 * lower-case letter follows ("URLValue": URL ends before V). */
static size_t word_end(const char *s, size_t i)
{
    size_t j = i + 1;
    for (; s[j] && !is_separator(s[j]); j++) {
        unsigned char prev = (unsigned char)s[j - 1], cur = (unsigned char)s[j],
                      next = (unsigned char)s[j + 1];
        if (islower(prev) && isupper(cur))
            break;
        if (isupper(prev) && isupper(cur) && islower(next))
            break;
    }
    return j;
}

bool ad_trace_key_sensitive(const char *key)
{
    if (!key)
        return false;
    for (size_t i = 0; i < sizeof(readable_keys) / sizeof(readable_keys[0]); i++)
        if (strcmp(key, readable_keys[i]) == 0)
            return false;
    for (size_t i = 0; key[i];) {
        if (is_separator(key[i])) {
            i++;
            continue;
        }
        size_t end = word_end(key, i);
        if (word_sensitive(key + i, end - i))
            return true;
        i = end;
    }
    return false;
}

static bool object_secure(const json_t *o)
{
    const char *role = json_string_value(json_object_get(o, "role"));
    return json_is_true(json_object_get(o, "secure")) ||
           (role && strcmp(role, "password text") == 0);
}

void ad_trace_redact(json_t *v)
{
    if (json_is_array(v)) {
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item) ad_trace_redact(item);
        return;
    }
    if (!json_is_object(v))
        return;
    bool secure = object_secure(v);
    const char *key;
    json_t *member;
    void *tmp;
    json_object_foreach_safe(v, tmp, key, member) {
        if (!ad_trace_key_sensitive(key)) {
            ad_trace_redact(member);
            continue;
        }
        if (secure)
            json_object_del(v, key);
        else
            json_object_set_new(v, key, json_pack("{s:b}", "redacted", 1));
    }
}
