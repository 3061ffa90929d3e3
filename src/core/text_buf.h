/* text_buf.h: a growing byte buffer, for the HTML pages agent-desktop writes (the trace
 * viewer, the visual debug file) and the PNG encoder's output. An allocation failure sticks:
 * later calls do nothing and `failed` stays true, so a result is checked once at the end. */
#ifndef AD_TEXT_BUF_H
#define AD_TEXT_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *buf; /* NUL-terminated, malloc'd; the owner frees it */
    size_t len, cap;
    bool failed;
} ad_buf;

void ad_buf_put_n(ad_buf *b, const char *s, size_t n);
void ad_buf_put(ad_buf *b, const char *s);
/* printf-style; one call writes at most 511 bytes. */
void ad_buf_putf(ad_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* HTML text and attribute values: every character that could end either is escaped. */
void ad_buf_put_escaped(ad_buf *b, const char *s);

#endif
