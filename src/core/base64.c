/* base64.c: see base64.h. */
#include "core/base64.h"

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
