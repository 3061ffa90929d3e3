/* ffi_check.c: the argument checks every ABI function runs before it reaches the desktop. A
 * caller's string is read at most AD_MAX_STRING_BYTES + 1 bytes far (strnlen), so an
 * unterminated buffer is refused instead of read past. */
#include <stdio.h>
#include <stdlib.h>
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

const char *const ffi_modifier_names[4] = {"meta", "ctrl", "alt", "shift"};

char *ffi_combo_text(const AdKeyCombo *k, const char *what)
{
    char name[96];
    snprintf(name, sizeof(name), "%s.key", what);
    if (ffi_check_string(k->key, name, true) != AD_RESULT_OK)
        return NULL;
    snprintf(name, sizeof(name), "%s.modifiers", what);
    if (k->modifier_count && ffi_check_ptr(k->modifiers, name) != AD_RESULT_OK)
        return NULL;
    size_t len = strlen(k->key) + 1;
    for (uint32_t i = 0; i < k->modifier_count; i++) {
        if (ffi_check_enum(k->modifiers[i], AD_MODIFIER_META, AD_MODIFIER_SHIFT, name) !=
            AD_RESULT_OK)
            return NULL;
        len += strlen(ffi_modifier_names[k->modifiers[i]]) + 1;
    }
    char *combo = malloc(len);
    if (!combo) {
        ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
        return NULL;
    }
    combo[0] = '\0';
    for (uint32_t i = 0; i < k->modifier_count; i++) {
        strcat(combo, ffi_modifier_names[k->modifiers[i]]);
        strcat(combo, "+");
    }
    strcat(combo, k->key);
    return combo;
}
