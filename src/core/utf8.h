/* utf8.h: UTF-8 checks and the one way a C string enters JSON.
 *
 * jansson's json_string returns NULL for text that is not valid UTF-8, and json_object_set_new
 * then drops the key without a word: an envelope without `command` or `error.message`.
 * Every string that can hold outside bytes (argv, app text, file names) enters JSON through
 * ad_json_text, which never fails on content: it escapes each byte that is not part of a
 * valid UTF-8 sequence as the four characters \xNN. Truncation at a byte limit goes through
 * ad_utf8_boundary so it never cuts a character in half.
 */
#ifndef AD_UTF8_H
#define AD_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* True when s[0..n) is valid UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF,
 * no NUL byte). */
bool ad_utf8_valid(const char *s, size_t n);

/* The length of the longest prefix of s[0..n) that is at most max bytes and ends on a
 * character boundary (a lone invalid byte counts as one character). */
size_t ad_utf8_boundary(const char *s, size_t n, size_t max);

/* A malloc'd copy of s with every invalid byte written as \xNN; NULL only when out of
 * memory. The caller frees it. s NULL gives "". */
char *ad_utf8_sanitize(const char *s);

/* A new JSON string from s (NULL gives ""), escaped as ad_utf8_sanitize does. Returns NULL
 * only when out of memory. */
json_t *ad_json_text(const char *s);

#endif
