/* utf8.c: UTF-8 validation, boundary-safe cuts and the escaping JSON string constructor. */
#include "core/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s[0..n), or 0 when s[0] does not start one. */
static size_t sequence_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c >= 0x01 && c <= 0x7f)
        return 1;
    size_t len;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0; /* NUL, a continuation byte, 0xc0/0xc1 or 0xf5.. */
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

bool ad_utf8_valid(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t len = sequence_len(u + i, n - i);
        if (!len)
            return false;
        i += len;
    }
    return true;
}

size_t ad_utf8_boundary(const char *s, size_t n, size_t max)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t len = sequence_len(u + i, n - i);
        if (!len)
            len = 1;
        if (i + len > max)
            break;
        i += len;
    }
    return i;
}

char *ad_utf8_sanitize(const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s);
    char *out = malloc(n * 4 + 1); /* each byte grows to at most four characters */
    if (!out)
        return NULL;
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t len = sequence_len(u + i, n - i);
        if (len) {
            memcpy(out + o, s + i, len);
            o += len;
            i += len;
        } else {
            o += (size_t)snprintf(out + o, 5, "\\x%02X", u[i]);
            i++;
        }
    }
    out[o] = '\0';
    return out;
}

json_t *ad_json_text(const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s);
    if (ad_utf8_valid(s, n))
        return json_stringn(s, n);
    char *clean = ad_utf8_sanitize(s);
    json_t *j = clean ? json_string(clean) : NULL;
    free(clean);
    return j;
}
