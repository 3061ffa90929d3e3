/* refmap_fields.h: what the writer (refmap_codec.c) and the reader (refmap_decode.c) of
 * refmap format 2 share: the magic, the fields an entry codes and their mask bits, and the
 * state each side keeps of the previous entry. Private to those two files. */
#ifndef AD_REFMAP_FIELDS_H
#define AD_REFMAP_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "core/node.h"
#include "core/present.h"

static const unsigned char MAGIC[4] = {'A', 'D', 'R', 'M'};
#define PATH_MAX_DEPTH 64
#define BOUND_LIMIT 2147483647.0

/* The fields an entry codes compactly, in mask-bit and byte order. */
typedef enum { K_INTERN, K_TEXT, K_PATH, K_BOUNDS, K_HASH, K_BOOL } field_kind;
typedef struct {
    const char *key;
    field_kind kind;
} field;
static const field FIELDS[] = {
    {"role", K_INTERN},        {"states", K_INTERN}, {"available_actions", K_INTERN},
    {"root_ref", K_INTERN},    {"name", K_TEXT},     {"value", K_TEXT},
    {"description", K_TEXT},   {"native_id", K_TEXT}, {"path", K_PATH},
    {"bounds", K_BOUNDS},      {"bounds_hash", K_HASH}, {"unique_at_capture", K_BOOL},
    {"drill_target", K_BOOL},
};
#define N_FIELDS (sizeof(FIELDS) / sizeof(FIELDS[0]))
#define N_TEXT 4
#define FIELD_BOUNDS 9  /* FIELDS[9] */
#define FIELD_UNIQUE 11 /* FIELDS[11] */
#define BIT_UNIQUE_VALUE (1u << 13)
#define BIT_DRILL_VALUE (1u << 14)
#define BIT_EXTRAS (1u << 15)

/* What the previous entry held, for the deltas. Strings point into the map being coded. */
typedef struct {
    const char *text[N_TEXT];
    size_t text_len[N_TEXT];
    int64_t path[PATH_MAX_DEPTH];
    size_t depth;
    int64_t bounds[4];
    uint64_t number;
    unsigned mask;
} previous;

static inline uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline void bounds_hash_of(const int64_t b[4], char h[17])
{
    ad_rect r = {.x = (double)b[0], .y = (double)b[1], .width = (double)b[2],
                 .height = (double)b[3]};
    ad_rect_hash(&r, h);
}

#endif
