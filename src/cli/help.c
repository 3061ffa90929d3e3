/* help.c: --help text, generated from the command table. */
#include "cli/help.h"

#include <stdio.h>
#include <string.h>

#include "dispatch/dispatch.h"

static void print_arg(FILE *out, const ad_arg_spec *s)
{
    char left[96];
    if (s->positional)
        snprintf(left, sizeof(left), "  %s%s%s", s->required ? "<" : "[",
                 s->name, s->required ? ">" : "]");
    else if (s->short_name)
        snprintf(left, sizeof(left), "  -%c, --%s%s", s->short_name, s->name,
                 s->type == AD_ARG_BOOL ? "" : " VALUE");
    else
        snprintf(left, sizeof(left), "  --%s%s", s->name,
                 s->type == AD_ARG_BOOL ? "" : s->bare_value ? " [VALUE]" : " VALUE");
    fprintf(out, "%-34s %s", left, s->help ? s->help : "");
    if (s->choices)
        fprintf(out, " [%s]", s->choices);
    if (s->action_defaults)
        fprintf(out, " (default %s)", s->action_defaults);
    else if (s->default_value && !s->default_value[0])
        fprintf(out, " (default: empty)"); /* "(default )" would read as a typo */
    else if (s->default_value)
        fprintf(out, " (default %s)", s->default_value);
    if (s->only_for)
        fprintf(out, " [only with %s]", s->only_for);
    fputc('\n', out);
}

void ad_cli_print_help(FILE *out, const ad_command *cmd)
{
    if (cmd) {
        fprintf(out, "agent-desktop %s: %s\n\nUsage: agent-desktop %s", cmd->name, cmd->summary,
                cmd->name);
        for (const ad_arg_spec *s = cmd->args; s && s->name; s++)
            if (s->positional)
                fprintf(out, s->required ? " <%s>" : " [%s]", s->name);
        fputs(" [FLAGS]\n\n", out);
        bool any = false;
        for (const ad_arg_spec *s = cmd->args; s && s->name; s++) {
            if (!any)
                fputs("Arguments and flags:\n", out);
            any = true;
            print_arg(out, s);
        }
        if (!cmd->handler)
            fputs("\nNot available in this build: it fails closed with "
                  "PLATFORM_NOT_SUPPORTED.\n", out);
        fputs("\nGlobal flags (before or after the command):\n", out);
        for (const ad_arg_spec *s = ad_global_args; s->name; s++)
            print_arg(out, s);
        return;
    }
    fprintf(out, "agent-desktop %s (JSON contract %s)\n"
                 "Read and operate desktop apps through the accessibility tree.\n"
                 "Every command prints one JSON envelope on stdout.\n\n"
                 "Usage: agent-desktop [GLOBAL FLAGS] <command> [ARGS]\n",
            AD_RELEASE_VERSION, AD_CONTRACT_VERSION);
    const char *group = NULL;
    for (size_t i = 0; i < ad_commands_count; i++) {
        const ad_command *c = &ad_commands[i];
        if (!group || strcmp(group, c->group) != 0) {
            group = c->group;
            fprintf(out, "\n%s:\n", group);
        }
        fprintf(out, "  %-26s %s%s\n", c->name, c->summary,
                c->handler ? "" : " (not in this build)");
    }
    fputs("\nGlobal flags:\n", out);
    for (const ad_arg_spec *s = ad_global_args; s->name; s++)
        print_arg(out, s);
    fputs("\nRun agent-desktop <command> --help for a command's flags.\n", out);
}
