/* arg_check.c: range checks of whole-number arguments from the command table, and the
 * choice lists they name. */
#include "dispatch/arg_check.h"

#include <stdio.h>
#include <string.h>

void ad_arg_key(const char *name, char *buf, size_t size)
{
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++)
        buf[i] = name[i] == '-' ? '_' : name[i];
    buf[i] = '\0';
}

void ad_arg_int_bounds(const ad_arg_spec *spec, int64_t *ret_min, int64_t *ret_max)
{
    *ret_min = spec->min;
    *ret_max = spec->max == 0 ? INT64_MAX : spec->max;
}

int ad_arg_parse_error(ad_error *err)
{
    err->parse_error = true;
    return -1;
}

/* "--max-depth" for a flag, "<ms>" for a positional: how the user wrote it. */
static void arg_label(const ad_arg_spec *spec, char *buf, size_t size)
{
    snprintf(buf, size, spec->positional ? "<%s>" : "--%s", spec->name);
}

int ad_arg_int_check(const ad_arg_spec *spec, long long v, ad_error *err)
{
    int64_t min, max;
    ad_arg_int_bounds(spec, &min, &max);
    if (v >= min && v <= max)
        return 0;
    char label[80], range[64];
    arg_label(spec, label, sizeof(label));
    if (max == INT64_MAX)
        snprintf(range, sizeof(range), "%lld or more", (long long)min);
    else
        snprintf(range, sizeof(range), "%lld to %lld", (long long)min, (long long)max);
    ad_error_set(err, AD_INVALID_ARGS, "%s %lld is out of range: expected %s", label, v, range);
    ad_error_suggest(err, "Pass %s with a value of %s", label, range);
    ad_error_detail_text(err, "argument", spec->name);
    ad_error_detail(err, "minimum", json_integer((json_int_t)min));
    if (max != INT64_MAX)
        ad_error_detail(err, "maximum", json_integer((json_int_t)max));
    return ad_arg_parse_error(err);
}

bool ad_arg_list_has(const char *list, const char *text, size_t n)
{
    for (const char *c = list; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, text, n) == 0)
            return true;
        c = bar ? bar + 1 : NULL;
    }
    return false;
}
