/* html_buf.h: a growing text buffer for the HTML pages agent-desktop writes (the trace
 * viewer, the visual debug file). An allocation failure sticks: later calls do nothing and
 * `failed` stays true, so a page is checked once at the end. */
#ifndef AD_HTML_BUF_H
#define AD_HTML_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *buf; /* NUL-terminated, malloc'd; the owner frees it */
    size_t len, cap;
    bool failed;
} ad_html_buf;

void ad_html_put_n(ad_html_buf *b, const char *s, size_t n);
void ad_html_put(ad_html_buf *b, const char *s);
/* printf-style; one call writes at most 511 bytes. */
void ad_html_putf(ad_html_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text and attribute values: every character that could end either is escaped. */
void ad_html_put_escaped(ad_html_buf *b, const char *s);

#endif
