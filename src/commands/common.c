/* common.c: argument accessors and the surface check. */
#include "commands/common.h"

#include <string.h>

#include "core/ctx.h"

const char *ad_arg_str(const json_t *args, const char *key)
{
    return json_string_value(json_object_get(args, key));
}

bool ad_arg_bool(const json_t *args, const char *key)
{
    return json_is_true(json_object_get(args, key));
}

int64_t ad_arg_int(const json_t *args, const char *key)
{
    return (int64_t)json_integer_value(json_object_get(args, key));
}

bool ad_arg_has(const json_t *args, const char *key)
{
    json_t *v = json_object_get(args, key);
    return v && !json_is_null(v);
}

int64_t ad_deadline_from(const json_t *args, const char *key)
{
    return ad_deadline_after_ms(ad_arg_int(args, key));
}
