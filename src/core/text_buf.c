/* text_buf.c: see text_buf.h. */
#include "core/text_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ad_buf_put_n(ad_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *nb = realloc(b->buf, cap);
        if (!nb) {
            b->failed = true;
            return;
        }
        b->buf = nb;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

void ad_buf_put(ad_buf *b, const char *s)
{
    ad_buf_put_n(b, s, strlen(s));
}

void ad_buf_putf(ad_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n > 0)
        ad_buf_put_n(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

void ad_buf_put_escaped(ad_buf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': ad_buf_put(b, "&amp;"); break;
        case '<': ad_buf_put(b, "&lt;"); break;
        case '>': ad_buf_put(b, "&gt;"); break;
        case '"': ad_buf_put(b, "&quot;"); break;
        case '\'': ad_buf_put(b, "&#39;"); break;
        default: ad_buf_put_n(b, s, 1);
        }
    }
}
