/* man_pages.c: writes the man pages from the command table, at build time.
 *
 *   man-pages OUTDIR SLUG...
 *
 * Writes OUTDIR/agent-desktop.1 (the overview: every group and command, the global flags)
 * and OUTDIR/agent-desktop-SLUG.1 for each command group (each command with its arguments
 * and flags). SLUG is a group name lower-cased with every other character a '-'
 * ("App and window" -> app-and-window). The slugs are the pages meson installs, so they are
 * given on the command line; a table group without a slug, or a slug without a group, fails
 * the build rather than leaving a page out. Nothing here is hand-written prose: it is the
 * same table --help reads.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"

/* The slug of group into buf. */
static void group_slug(const char *group, char *buf, size_t size)
{
    size_t n = 0;
    for (const char *p = group; *p && n + 1 < size; p++)
        buf[n++] = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '-';
    buf[n] = '\0';
}

/* Text with roff's special characters escaped: '\' and a leading '.' or '\''. */
static void roff_text(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", out);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", out);
        else if (*s == '-')
            fputs("\\-", out);
        else
            fputc(*s, out);
    }
}

static void page_header(FILE *out, const char *name, const char *what)
{
    fprintf(out, ".\\\" Generated from the command table by man/man_pages.c; do not edit.\n");
    fprintf(out, ".TH \"%s\" 1 \"\" \"agent-desktop %s\" \"agent-desktop\"\n", name,
            AD_RELEASE_VERSION);
    fputs(".SH NAME\n", out);
    roff_text(out, name);
    fputs(" \\- ", out);
    roff_text(out, what);
    fputc('\n', out);
}

/* One argument as a tagged paragraph: the flag (or positional), then its help line. */
static void arg_item(FILE *out, const ad_arg_spec *s)
{
    fputs(".TP\n", out);
    if (s->positional) {
        fprintf(out, "\\fI%s\\fR%s\n", s->name, s->required ? "" : " (optional)");
    } else {
        if (s->short_name)
            fprintf(out, "\\fB\\-%c\\fR, ", s->short_name);
        fputs("\\fB\\-\\-", out);
        roff_text(out, s->name);
        fputs("\\fR", out);
        if (s->type != AD_ARG_BOOL)
            fputs(s->bare_value ? " [\\fIVALUE\\fR]" : " \\fIVALUE\\fR", out);
        fputc('\n', out);
    }
    roff_text(out, s->help ? s->help : "");
    if (s->choices) {
        fputs(" One of: ", out);
        roff_text(out, s->choices);
        fputc('.', out);
    }
    if (s->action_defaults) {
        fputs(" Default: ", out);
        roff_text(out, s->action_defaults);
        fputc('.', out);
    } else if (s->default_value) {
        fputs(" Default: ", out);
        roff_text(out, s->default_value[0] ? s->default_value : "empty");
        fputc('.', out);
    }
    if (s->only_for) {
        fputs(" Only with: ", out);
        roff_text(out, s->only_for);
        fputc('.', out);
    }
    fputc('\n', out);
}

static void global_flags(FILE *out)
{
    fputs(".SH GLOBAL FLAGS\nAccepted before or after any command.\n", out);
    for (const ad_arg_spec *s = ad_global_args; s->name; s++)
        arg_item(out, s);
}

static void command_section(FILE *out, const ad_command *c)
{
    fputs(".SS ", out);
    roff_text(out, c->name);
    fputs("\n.B agent\\-desktop ", out);
    roff_text(out, c->name);
    fputc('\n', out);
    for (const ad_arg_spec *s = c->args; s && s->name; s++)
        if (s->positional)
            fprintf(out, ".I %s%s%s\n", s->required ? "" : "[", s->name, s->required ? "" : "]");
    fputs("[\\fIFLAGS\\fR]\n.PP\n", out);
    roff_text(out, c->summary);
    fputc('\n', out);
    if (!c->handler)
        fputs(".PP\nNot available in this build: it fails closed with "
              "PLATFORM_NOT_SUPPORTED.\n", out);
    for (const ad_arg_spec *s = c->args; s && s->name; s++)
        arg_item(out, s);
}

static FILE *open_page(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s.1", dir, name);
    FILE *out = fopen(path, "w");
    if (!out)
        perror(path);
    return out;
}

static int close_page(FILE *out)
{
    return (ferror(out) | fclose(out)) ? -1 : 0;
}

/* The group page of `slug`: every command of that group, in table order. */
static int write_group_page(const char *dir, const char *slug)
{
    const char *group = NULL;
    char s[128], name[160];
    for (size_t i = 0; i < ad_commands_count && !group; i++) {
        group_slug(ad_commands[i].group, s, sizeof(s));
        if (strcmp(s, slug) == 0)
            group = ad_commands[i].group;
    }
    if (!group) {
        fprintf(stderr, "man-pages: no command group has the slug '%s'\n", slug);
        return -1;
    }
    snprintf(name, sizeof(name), "agent-desktop-%s", slug);
    FILE *out = open_page(dir, name);
    if (!out)
        return -1;
    char what[160];
    snprintf(what, sizeof(what), "%s commands of agent-desktop", group);
    page_header(out, name, what);
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < ad_commands_count; i++)
        if (strcmp(ad_commands[i].group, group) == 0)
            command_section(out, &ad_commands[i]);
    global_flags(out);
    fputs(".SH SEE ALSO\n.BR agent\\-desktop (1)\n", out);
    return close_page(out);
}

/* The overview page; every group must have a slug among slugs. */
static int write_main_page(const char *dir, char **slugs, int nslugs)
{
    FILE *out = open_page(dir, "agent-desktop");
    if (!out)
        return -1;
    int rc = 0;
    page_header(out, "agent-desktop", "read and operate desktop apps through the "
                                       "accessibility tree");
    fputs(".SH SYNOPSIS\n.B agent\\-desktop\n[\\fIGLOBAL FLAGS\\fR] \\fICOMMAND\\fR "
          "[\\fIARGS\\fR]\n.SH DESCRIPTION\nEvery command prints one JSON envelope "
          "(contract " AD_CONTRACT_VERSION ") on stdout.\n"
          "Run \\fBagent\\-desktop \\fICOMMAND\\fB \\-\\-help\\fR for one command.\n"
          ".SH COMMANDS\n", out);
    const char *group = NULL;
    for (size_t i = 0; i < ad_commands_count; i++) {
        const ad_command *c = &ad_commands[i];
        if (!group || strcmp(group, c->group) != 0) {
            group = c->group;
            char s[128];
            group_slug(group, s, sizeof(s));
            int found = 0;
            for (int k = 0; k < nslugs; k++)
                found |= strcmp(slugs[k], s) == 0;
            if (!found) {
                fprintf(stderr, "man-pages: group '%s' has no page: add '%s' to "
                                "man/meson.build\n", group, s);
                rc = -1;
            }
            fputs(".SS ", out);
            roff_text(out, group);
            fprintf(out, " (see \\fBagent\\-desktop\\-%s\\fR(1))\n", s);
        }
        fputs(".TP\n.B ", out);
        roff_text(out, c->name);
        fputc('\n', out);
        roff_text(out, c->summary);
        fputs(c->handler ? "\n" : " (not in this build)\n", out);
    }
    global_flags(out);
    fputs(".SH SEE ALSO\n", out);
    for (int k = 0; k < nslugs; k++)
        fprintf(out, ".BR agent\\-desktop\\-%s (1)%s\n", slugs[k], k + 1 < nslugs ? "," : "");
    return close_page(out) | rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: man-pages OUTDIR SLUG...\n", stderr);
        return 2;
    }
    int rc = write_main_page(argv[1], argv + 2, argc - 2);
    for (int k = 2; k < argc; k++)
        rc |= write_group_page(argv[1], argv[k]);
    return rc ? 1 : 0;
}
