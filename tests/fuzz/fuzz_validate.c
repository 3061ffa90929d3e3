/* fuzz_validate.c: the validator every door uses, over any JSON a batch entry, an MCP call
 * or the C library could pass. The first byte picks the command; the rest is the given
 * arguments. Accepted arguments hold only declared keys of the declared types; a refusal is
 * INVALID_ARGS that makes a whole envelope; nothing leaks either way. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "dispatch/validate.h"
#include "fuzz_util.h"

static void check_accepted(const ad_command *cmd, const json_t *args)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)args, key, v) {
        const ad_arg_spec *s = ad_arg_spec_find(cmd->args, key);
        if (!s || strchr(key, '-'))
            abort();
        bool typed = s->type == AD_ARG_BOOL          ? json_is_boolean(v)
                     : s->type == AD_ARG_INT         ? json_is_integer(v)
                     : s->type == AD_ARG_STRING_LIST ? json_is_array(v)
                                                     : json_is_string(v);
        if (!typed)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const ad_command *cmd = &ad_commands[data[0] % ad_commands_count];
    char *text = fz_cstr(data + 1, size - 1);
    json_t *given = json_loads(text, JSON_DECODE_ANY, NULL);
    json_t *args = NULL;
    ad_error err = AD_ERROR_INIT;
    if (ad_args_validate(cmd, given, &args, &err) == 0) {
        check_accepted(cmd, args);
        json_decref(args);
    } else {
        if (err.code != AD_INVALID_ARGS || !err.message)
            abort();
        json_t *env = ad_envelope_error(cmd->name, &err);
        fz_check_envelope(env);
        json_decref(env);
    }
    ad_error_clear(&err);
    json_decref(given);
    free(text);
    return 0;
}
