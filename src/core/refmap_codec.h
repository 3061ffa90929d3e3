/* refmap_codec.h: the compact on-disk form of a refmap (format 2).
 *
 * A refmap of N refs is a JSON object (refstore.h); as JSON it costs ~80 bytes per ref, so the
 * 1 MiB file limit stopped a snapshot at ~6,400 refs. Format 2 keeps the same object but
 * writes it as bytes:
 *
 *   "ADRM" u8 version(2)
 *   varint len, header: compact JSON of the top level without "refs"
 *   varint count, count x (varint len, JSON text): the value table (interned values)
 *   varint count, count x entry (ascending ref numbers)
 *   u32 little-endian FNV-1a of every byte before it
 *
 * An entry is: a varint (delta << 1 | same), the delta of its number N from the previous
 * entry's (the first from 0; never 0); unless `same`, a u16 little-endian field mask (with
 * `same`, the previous entry's); then the fields the mask names, in this order:
 *   role, states, available_actions, root_ref, extras: varint index into the value table
 *   name, value, description, native_id: front-coded against the previous entry's same field
 *     (varint shared prefix bytes, varint suffix length, suffix bytes)
 *   path: front-coded against the previous path (varint shared prefix, varint rest, the
 *     rest as varints, the first of them a zigzag step from the index it replaces)
 *   bounds: four zigzag varint deltas (x, y, width, height) from the previous bounds; the
 *     values are whole numbers, read back as JSON reals as present.c writes them
 *   bounds_hash: no bytes; it is ad_rect_hash(bounds), recomputed on read
 *   unique_at_capture, drill_target: a presence bit and a value bit in the mask
 * "extras" is an object of every other key, and of any known key whose value does not fit
 * its compact form, so every refmap round-trips exactly.
 *
 * A reader never guesses: a wrong magic, an unknown version, a bad checksum, a truncated or
 * overlong varint, an index out of range, text that is not UTF-8, a key given twice or bytes
 * after the end all fail. The decoded object is then checked field by field (refmap_check.h).
 */
#ifndef AD_REFMAP_CODEC_H
#define AD_REFMAP_CODEC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AD_REFMAP_FORMAT 2

/* Encodes a refmap. Returns a malloc'd buffer (the caller frees it) with its length in *len,
 * or NULL when out of memory or when "refs" is not an object keyed "@eN". */
unsigned char *ad_refmap_encode(const json_t *map, size_t *len);

/* The same bytes written one entry at a time, so a big snapshot never holds its refs as one
 * JSON object: entries are added in ascending ref number (N of "@eN") and may be freed once
 * added (the writer copies what the next entry is coded against). */
typedef struct ad_refmap_writer ad_refmap_writer;
/* A new writer (the caller frees it with ad_refmap_writer_free), or NULL. */
ad_refmap_writer *ad_refmap_writer_new(void);
/* Codes one entry. -1 when number is not above the previous one, entry is not an object, or
 * memory ran out (the writer then fails to finish). */
int ad_refmap_writer_add(ad_refmap_writer *w, uint64_t number, const json_t *entry);
/* The whole file: `header` is the refmap's top level without "refs" (borrowed). Returns a
 * malloc'd buffer (the caller frees it) with its length in *len, or NULL. The writer stays
 * the caller's to free. */
unsigned char *ad_refmap_writer_finish(ad_refmap_writer *w, const json_t *header, size_t *len);
void ad_refmap_writer_free(ad_refmap_writer *w); /* NULL-safe */

/* True when buf starts as a format-2 file does (any version byte). */
bool ad_refmap_is_compact(const unsigned char *buf, size_t len);

/* Decodes buf: 0 with a new reference in *ret (the caller's), or -1 with a short static
 * reason in *why that names no content. */
int ad_refmap_decode(const unsigned char *buf, size_t len, json_t **ret, const char **why);

/* The FNV-1a 32-bit hash format 2 ends with (exposed for tests and the fuzzer). */
unsigned ad_refmap_checksum(const unsigned char *buf, size_t len);

#endif
