/* fuzz_argv.c: argv parsing. The input is split at NUL bytes into at most 32 arguments after
 * "agent-desktop"; whatever ad_cli_parse makes of them, a parse error must become one whole
 * envelope (command and error.message present, valid JSON), and a successful parse must give
 * arguments that serialise. Nothing is dispatched: a parsed `wait 86400000` would sleep. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/parse.h"
#include "dispatch/dispatch.h"
#include "fuzz_util.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = fz_cstr(data, size);
    char *argv[MAX_ARGS + 2] = {"agent-desktop"};
    int argc = 1;
    for (char *p = buf; argc <= MAX_ARGS;) {
        argv[argc++] = p;
        size_t len = strlen(p);
        if (p + len >= buf + size)
            break;
        p += len + 1;
    }
    argv[argc] = NULL;

    ad_cli_parsed parsed;
    ad_error err = AD_ERROR_INIT;
    if (ad_cli_parse(argc, argv, &parsed, &err) < 0) {
        json_t *env = ad_cli_parse_error_envelope(&parsed, &err); /* as main.c prints it */
        fz_check_envelope(env);
        json_decref(env);
    } else if (parsed.action == AD_CLI_RUN) {
        char *a = json_dumps(parsed.args, JSON_COMPACT | JSON_ENSURE_ASCII);
        char *g = json_dumps(parsed.globals, JSON_COMPACT | JSON_ENSURE_ASCII);
        if (!a || !g)
            abort();
        free(a);
        free(g);
    }
    ad_cli_parsed_clear(&parsed);
    ad_error_clear(&err);
    free(buf);
    return 0;
}
