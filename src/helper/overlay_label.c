/* overlay_label.c: the label pill's text in the core font's ASCII (overlay_label.h). */
#include "helper/overlay_label.h"

#include <stdbool.h>

static bool is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The length of the UTF-8 sequence at p: its lead byte and the continuation bytes that
 * follow it (1 for ASCII and for a byte that starts no valid sequence). */
static size_t sequence_length(const unsigned char *p)
{
    size_t want = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 1;
    if (p[0] < 0x80 || p[0] > 0xF4)
        want = 1;
    size_t n = 1;
    while (n < want && p[n] >= 0x80 && p[n] <= 0xBF)
        n++;
    return n;
}

void ad_overlay_label_text(const char *label, int max_words, char *buf, size_t size)
{
    size_t n = 0;
    int words = 0;
    const unsigned char *p = (const unsigned char *)label;
    buf[0] = '\0';
    while (p && *p && words < max_words) {
        while (is_space(*p))
            p++;
        if (!*p)
            break;
        if (n && n + 1 < size)
            buf[n++] = ' ';
        while (*p && !is_space(*p)) {
            size_t len = sequence_length(p);
            if (n + 1 < size)
                buf[n++] = len == 1 && *p >= 0x20 && *p < 0x7f ? (char)*p : '?';
            p += len;
        }
        words++;
    }
    buf[n] = '\0';
}
