/* base64.c: see base64.h. */
#include "core/base64.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

char *ad_base64_encode(const unsigned char *in, size_t n, const char *prefix)
{
    static const char tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t head = prefix ? strlen(prefix) : 0;
    char *out = malloc(head + (n + 2) / 3 * 4 + 1);
    if (!out)
        return NULL;
    memcpy(out, prefix ? prefix : "", head);
    char *o = out + head;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        *o++ = tab[v >> 18 & 63];
        *o++ = tab[v >> 12 & 63];
        *o++ = i + 1 < n ? tab[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? tab[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

/* The 6-bit value of base64 character c, or -1. */
static int sextet(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

unsigned char *ad_base64_decode(const char *in, size_t n, size_t *ret_len)
{
    *ret_len = 0;
    if (n % 4 != 0)
        return NULL;
    unsigned char *out = malloc(n / 4 * 3 + 1);
    size_t len = 0;
    for (size_t i = 0; out && i < n; i += 4) {
        bool last = i + 4 == n;
        int pad = last ? (in[i + 3] == '=') + (in[i + 2] == '=' && in[i + 3] == '=') : 0;
        int v[4];
        for (int k = 0; k < 4; k++) {
            v[k] = k >= 4 - pad ? 0 : sextet(in[i + k]);
            if (v[k] < 0) {
                free(out);
                return NULL;
            }
        }
        unsigned w = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 |
                     (unsigned)v[3];
        out[len++] = (unsigned char)(w >> 16);
        if (pad < 2)
            out[len++] = (unsigned char)(w >> 8);
        if (pad < 1)
            out[len++] = (unsigned char)w;
    }
    if (out)
        *ret_len = len;
    return out;
}
