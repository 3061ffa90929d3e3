/* framing.h: newline-delimited JSON-RPC over a byte stream (the MCP stdio transport).
 *
 * Each message is one line. The reader keeps the bytes of an incomplete line until its
 * newline arrives, and refuses a line longer than AD_MCP_MESSAGE_MAX: it drops that line's
 * bytes as they come (never holding more than the limit) and reports it once, at its end,
 * so the server can answer and go on with the next line.
 */
#ifndef AD_MCP_FRAMING_H
#define AD_MCP_FRAMING_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* The largest message the server accepts or a child may print: 4 MiB (spec guides/mcp.md). */
#define AD_MCP_MESSAGE_MAX (4u * 1024u * 1024u)

typedef struct {
    char *buf;       /* owned; bytes of lines not yet taken */
    size_t len;      /* bytes held */
    size_t cap;
    size_t scanned;  /* bytes of buf already known to hold no newline */
    bool oversized;  /* dropping the rest of a line past the limit */
    bool refused;    /* a line past the limit ended: next() reports it first */
    bool eof;        /* the stream ended */
} ad_line_reader;

typedef enum {
    AD_LINE_NONE,     /* no complete line yet */
    AD_LINE_OK,       /* *ret_line is one line without its newline */
    AD_LINE_TOO_LONG, /* a line over the limit ended (its bytes are gone) */
} ad_line_kind;

void ad_line_reader_init(ad_line_reader *r);
void ad_line_reader_clear(ad_line_reader *r);

/* Appends n bytes read from the stream (take the lines with next() before feeding more, so
 * at most one partial line plus one chunk is held). -1 when out of memory. */
int ad_line_reader_feed(ad_line_reader *r, const char *data, size_t n);

/* Reads what fd has (one read(2)); sets r->eof at end of stream. 0, or -1 on a read error
 * other than EINTR/EAGAIN. */
int ad_line_reader_fill(ad_line_reader *r, int fd);

/* Takes the next line. On AD_LINE_OK sets *ret_line to a new NUL-terminated string the
 * caller frees and *ret_len to its length. A last line without a newline at end of stream
 * counts as a line. A "\r\n" ending drops the '\r'. */
ad_line_kind ad_line_reader_next(ad_line_reader *r, char **ret_line, size_t *ret_len);

/* Writes msg (borrowed) as one compact line to fd, retrying partial writes. 0 or -1. */
int ad_mcp_write_message(int fd, const json_t *msg);

#endif
