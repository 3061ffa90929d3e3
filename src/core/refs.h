/* refs.h: qualified ref tokens (@<snapshot_id>:e<N>) and snapshot ids. */
#ifndef AD_REFS_H
#define AD_REFS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

#define AD_SNAPSHOT_ID_MAX 64

typedef struct {
    char snapshot_id[AD_SNAPSHOT_ID_MAX + 1];
    uint64_t number; /* N in eN, >= 1 */
} ad_ref;

/* Parses a qualified ref. A bare @eN or any malformed token fails with INVALID_ARGS and the
 * documented suggestion; the token is echoed only when it is short and printable. */
int ad_ref_parse(const char *token, ad_ref *ret, ad_error *err);
/* "@<id>:e<N>" into buf (at least 96 bytes). */
void ad_ref_format(const ad_ref *ref, char *buf, size_t size);
/* The refmap key "@eN" into buf. */
void ad_ref_key(uint64_t number, char *buf, size_t size);

/* True for 's' followed by 1-63 lowercase letters or digits. */
bool ad_snapshot_id_valid(const char *id);
/* A new random snapshot id: 's' + 13 base-36 characters. Returns -1 when no randomness. */
int ad_snapshot_id_new(char buf[AD_SNAPSHOT_ID_MAX + 1]);

#endif
