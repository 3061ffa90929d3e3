/* framing.c: newline-delimited JSON-RPC framing (framing.h). */
#include "mcp/framing.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ad_line_reader_init(ad_line_reader *r)
{
    memset(r, 0, sizeof(*r));
}

void ad_line_reader_clear(ad_line_reader *r)
{
    free(r->buf);
    ad_line_reader_init(r);
}

int ad_line_reader_feed(ad_line_reader *r, const char *data, size_t n)
{
    if (r->oversized) {
        /* Drop the refused line's bytes up to the newline that ends it. */
        const char *nl = memchr(data, '\n', n);
        if (!nl)
            return 0;
        r->oversized = false;
        r->refused = true;
        n -= (size_t)(nl + 1 - data);
        data = nl + 1;
    }
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 1)
            cap *= 2;
        char *buf = realloc(r->buf, cap);
        if (!buf)
            return -1;
        r->buf = buf;
        r->cap = cap;
    }
    memcpy(r->buf + r->len, data, n);
    r->len += n;
    return 0;
}

/* Drops the first `consumed` bytes of the buffer. */
static void drop_front(ad_line_reader *r, size_t consumed)
{
    memmove(r->buf, r->buf + consumed, r->len - consumed);
    r->len -= consumed;
    r->scanned = 0;
}

int ad_line_reader_fill(ad_line_reader *r, int fd)
{
    char chunk[65536];
    ssize_t n = read(fd, chunk, sizeof(chunk));
    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 0 : -1;
    if (n == 0) {
        r->eof = true;
        /* A refused line that the end of the stream cut short is still reported. */
        r->refused = r->refused || r->oversized;
        r->oversized = false;
        return 0;
    }
    return ad_line_reader_feed(r, chunk, (size_t)n) < 0 ? -1 : 0;
}

ad_line_kind ad_line_reader_next(ad_line_reader *r, char **ret_line, size_t *ret_len)
{
    if (r->refused) {
        r->refused = false;
        return AD_LINE_TOO_LONG;
    }
    char *nl = r->len > r->scanned ? memchr(r->buf + r->scanned, '\n', r->len - r->scanned)
                                   : NULL;
    if (!nl) {
        r->scanned = r->len;
        if (r->len > AD_MCP_MESSAGE_MAX) {
            /* No newline within the limit: refuse the line and drop the rest as it comes. */
            r->len = 0;
            r->scanned = 0;
            if (r->eof)
                return AD_LINE_TOO_LONG;
            r->oversized = true;
            return AD_LINE_NONE;
        }
        if (!r->eof || r->len == 0)
            return AD_LINE_NONE;
    }
    size_t line_len = nl ? (size_t)(nl - r->buf) : r->len;
    size_t consumed = nl ? line_len + 1 : line_len;
    if (line_len > AD_MCP_MESSAGE_MAX) {
        drop_front(r, consumed);
        return AD_LINE_TOO_LONG;
    }
    size_t text_len = line_len;
    if (text_len > 0 && r->buf[text_len - 1] == '\r')
        text_len--;
    char *line = malloc(text_len + 1);
    if (!line)
        return AD_LINE_NONE;
    memcpy(line, r->buf, text_len);
    line[text_len] = '\0';
    drop_front(r, consumed);
    *ret_line = line;
    *ret_len = text_len;
    return AD_LINE_OK;
}

/* Writes all n bytes, retrying after EINTR and partial writes. */
static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int ad_mcp_write_message(int fd, const json_t *msg)
{
    /* JSON_COMPACT escapes newlines inside strings, so the message is one line. */
    char *text = json_dumps(msg, JSON_COMPACT);
    if (!text)
        return -1;
    size_t len = strlen(text);
    char *line = realloc(text, len + 2);
    if (!line) {
        free(text);
        return -1;
    }
    line[len] = '\n';
    line[len + 1] = '\0';
    int rc = write_all(fd, line, len + 1);
    free(line);
    return rc;
}
