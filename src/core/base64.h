/* base64.h: standard base64 (RFC 4648, padded), for images in JSON and in HTML data: URIs. */
#ifndef AD_BASE64_H
#define AD_BASE64_H

#include <stddef.h>

/* prefix (NULL: none) followed by the base64 of in[0..n), NUL-terminated; malloc'd, the
 * caller frees it; NULL when out of memory. */
char *ad_base64_encode(const unsigned char *in, size_t n, const char *prefix);

/* The bytes of padded base64 text `in` (n chars; whitespace is not allowed). Returns them
 * malloc'd (the caller frees; never NULL on success, even for n == 0) with *ret_len; NULL for
 * malformed text or out of memory. */
unsigned char *ad_base64_decode(const char *in, size_t n, size_t *ret_len);

#endif
