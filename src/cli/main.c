/* main.c: the agent-desktop CLI. Parses argv through the command table, dispatches, prints
 * one envelope, and exits 0 (ok), 1 (structured error) or 2 (argv could not be parsed). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/help.h"
#include "cli/lazy_libs.h"
#include "cli/parse.h"
#include "dispatch/batch.h"
#include "dispatch/dispatch.h"
#include "linux/linux_adapter.h"
#include "mcp/server.h"

/* The last envelope, never freed: the process exits right after printing it, and freeing a
 * 10k-node snapshot's tree costs milliseconds the OS spends for nothing (issue 12). Held
 * here, it stays reachable, so LeakSanitizer does not report it (volatile: a store nothing
 * reads would otherwise be optimized away, and the tree with it). Only this CLI does this:
 * the C library and the MCP server are long-lived and free everything. */
static json_t *volatile envelope_kept_until_exit;

int main(int argc, char **argv)
{
    ad_cli_parsed parsed;
    ad_error err = AD_ERROR_INIT;
    int exit_code = 0;
    /* `mcp` is a front end, not one of the 60 commands: it serves them over stdio. */
    if (ad_mcp_invoked(argc, argv))
        return ad_mcp_main(argc, argv);
    if (ad_cli_parse(argc, argv, &parsed, &err) < 0) {
        json_t *env = ad_cli_parse_error_envelope(&parsed, &err);
        ad_envelope_print(env);
        json_decref(env);
        exit_code = err.parse_error ? 2 : 1;
        goto done;
    }
    if (parsed.action == AD_CLI_HELP) {
        ad_cli_print_help(stdout, parsed.command);
        goto done;
    }
    if (parsed.action == AD_CLI_VERSION_TEXT) {
        printf("agent-desktop %s\n", AD_RELEASE_VERSION);
        goto done;
    }
#ifdef AD_LAZY_LIBS
    /* A batch may have run a mutating entry before a library failed to load. */
    ad_lazy_set_command(parsed.command->name,
                        parsed.command->mutates || parsed.command->handler == ad_cmd_batch);
#endif
    ad_adapter *adapter = ad_linux_adapter_new();
    json_t *env = ad_dispatch(adapter, parsed.command, parsed.args, parsed.globals, &exit_code);
    ad_envelope_print(env);
    envelope_kept_until_exit = env;
    if (adapter)
        adapter->ops->destroy(adapter);
done:
    ad_cli_parsed_clear(&parsed);
    ad_error_clear(&err);
    return exit_code;
}
