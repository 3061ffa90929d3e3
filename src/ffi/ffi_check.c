/* ffi_check.c: the argument checks every ABI function runs before it reaches the desktop. A
 * caller's string is read at most AD_MAX_STRING_BYTES + 1 bytes far (strnlen), so an
 * unterminated buffer is refused instead of read past. */
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"
#include "ffi/ffi_private.h"

AdResult ffi_check_string(const char *s, const char *what, bool required)
{
    char msg[160];
    if (!s) {
        if (!required)
            return AD_RESULT_OK;
        snprintf(msg, sizeof(msg), "%s must not be NULL", what);
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, msg, NULL);
    }
    size_t n = strnlen(s, AD_MAX_STRING_BYTES + 1);
    if (n > AD_MAX_STRING_BYTES) {
        snprintf(msg, sizeof(msg), "%s is longer than AD_MAX_STRING_BYTES (%zu bytes)", what,
                 (size_t)AD_MAX_STRING_BYTES);
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, msg, "Pass a shorter string");
    }
    if (!ad_utf8_valid(s, n)) {
        snprintf(msg, sizeof(msg), "%s is not valid UTF-8", what);
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, msg, "Pass UTF-8 text");
    }
    return AD_RESULT_OK;
}

AdResult ffi_check_enum(int32_t v, int32_t lo, int32_t hi, const char *what)
{
    if (v >= lo && v <= hi)
        return AD_RESULT_OK;
    char msg[160];
    snprintf(msg, sizeof(msg), "%s is %d, outside %d to %d", what, (int)v, (int)lo, (int)hi);
    return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, msg, NULL);
}

AdResult ffi_check_ptr(const void *p, const char *what)
{
    if (p)
        return AD_RESULT_OK;
    char msg[160];
    snprintf(msg, sizeof(msg), "%s must not be NULL", what);
    return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, msg, NULL);
}
