/* tools.c: the MCP tool list from the command table (tools.h). */
#include "mcp/tools.h"

#include <stdio.h>
#include <string.h>

#include "dispatch/schema.h"

/* 60 commands, a few of them split into subcommands. */
#define AD_MCP_TOOLS_MAX 128

static ad_mcp_tool tools[AD_MCP_TOOLS_MAX];
static size_t tools_count;

static void add_tool(const ad_command *cmd, const char *action, size_t action_len)
{
    if (tools_count >= AD_MCP_TOOLS_MAX)
        return;
    ad_mcp_tool *t = &tools[tools_count++];
    int n = snprintf(t->name, sizeof(t->name), "desktop_%s", cmd->name);
    if (action && n > 0 && (size_t)n < sizeof(t->name))
        snprintf(t->name + n, sizeof(t->name) - (size_t)n, "_%.*s", (int)action_len, action);
    for (char *p = t->name; *p; p++)
        if (*p == '-')
            *p = '_';
    t->cmd = cmd;
    t->action = action;
    t->action_len = action_len;
}

const ad_mcp_tool *ad_mcp_tools(size_t *ret_count)
{
    if (tools_count == 0) {
        for (size_t i = 0; i < ad_commands_count; i++) {
            const ad_command *cmd = &ad_commands[i];
            const ad_arg_spec *action = ad_command_action_spec(cmd);
            if (!action) {
                add_tool(cmd, NULL, 0);
                continue;
            }
            for (const char *p = action->choices; p && *p;) {
                const char *bar = strchr(p, '|');
                size_t len = bar ? (size_t)(bar - p) : strlen(p);
                add_tool(cmd, p, len);
                p = bar ? bar + 1 : NULL;
            }
        }
    }
    *ret_count = tools_count;
    return tools;
}

const ad_mcp_tool *ad_mcp_tool_find(const char *name)
{
    size_t count;
    const ad_mcp_tool *all = ad_mcp_tools(&count);
    for (size_t i = 0; name && i < count; i++)
        if (strcmp(all[i].name, name) == 0)
            return &all[i];
    return NULL;
}

/* The tool's subcommand as a NUL-terminated string in buf ("" for none). */
static const char *action_text(const ad_mcp_tool *t, char *buf, size_t size)
{
    snprintf(buf, size, "%.*s", (int)t->action_len, t->action ? t->action : "");
    return t->action ? buf : NULL;
}

static bool tool_is(const ad_mcp_tool *t, const char *cmd, const char *action)
{
    return strcmp(t->cmd->name, cmd) == 0 &&
           (!action || (t->action && strlen(action) == t->action_len &&
                        strncmp(t->action, action, t->action_len) == 0));
}

/* readOnlyHint: the command does not change the desktop, and for the subcommands that write
 * state files (session start/end/gc, trace export, cursor-overlay), not those either. */
static bool read_only(const ad_mcp_tool *t)
{
    if (t->cmd->mutates)
        return false;
    if (tool_is(t, "session", NULL))
        return tool_is(t, "session", "list");
    if (tool_is(t, "trace", NULL))
        return tool_is(t, "trace", "show");
    return !tool_is(t, "cursor-overlay", NULL);
}

/* openWorldHint: the command reaches apps and the desktop; version, skills, sessions, traces
 * and the presentation-only cursor overlay stay within agent-desktop's own state. */
static bool open_world(const ad_mcp_tool *t)
{
    static const char *const local[] = {"version", "skills", "session", "trace",
                                        "cursor-overlay"};
    for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++)
        if (tool_is(t, local[i], NULL))
            return false;
    return true;
}

json_t *ad_mcp_tool_json(const ad_mcp_tool *t)
{
    char action[32];
    const char *act = action_text(t, action, sizeof(action));
    char title[128];
    snprintf(title, sizeof(title), "agent-desktop %s%s%s", t->cmd->name, act ? " " : "",
             act ? act : "");
    char description[512];
    snprintf(description, sizeof(description), "%s%s%s%s", t->cmd->summary,
             act ? " (subcommand " : "", act ? act : "", act ? ")" : "");
    bool ro = read_only(t);
    json_t *annotations = json_pack("{s:s, s:b, s:b}", "title", title, "readOnlyHint", ro,
                                    "openWorldHint", open_world(t));
    if (!ro)
        json_object_set_new(annotations, "destructiveHint",
                            json_boolean(t->cmd->destructive || tool_is(t, "session", "gc")));
    return json_pack("{s:s, s:s, s:s, s:o, s:o}", "name", t->name, "title", title,
                     "description", description, "inputSchema",
                     ad_command_input_schema(t->cmd, act), "annotations", annotations);
}

/* The schema's property names, joined with ", ", into buf. */
static void accepted_list(const json_t *props, char *buf, size_t size)
{
    size_t used = 0;
    const char *key;
    json_t *v;
    buf[0] = '\0';
    json_object_foreach((json_t *)props, key, v) {
        int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", key);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
    if (used == 0)
        snprintf(buf, size, "no arguments");
}

json_t *ad_mcp_tool_given(const ad_mcp_tool *t, const json_t *arguments, ad_error *err)
{
    char action[32];
    const char *act = action_text(t, action, sizeof(action));
    json_t *schema = ad_command_input_schema(t->cmd, act);
    const json_t *props = json_object_get(schema, "properties");
    json_t *given = json_object();
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)arguments, key, v) {
        if (json_is_null(v))
            continue; /* a null argument counts as omitted */
        if (!json_object_get(props, key)) {
            char list[1024];
            accepted_list(props, list, sizeof(list));
            ad_error_set(err, AD_INVALID_ARGS, "%s has no argument '%s'; it accepts: %s",
                         t->name, key, list);
            ad_error_detail_text(err, "argument", key);
            ad_error_suggest(err, "Call %s with only the arguments of its input schema",
                             t->name);
            json_decref(schema);
            json_decref(given);
            return NULL;
        }
        json_object_set(given, key, v);
    }
    if (act)
        json_object_set_new(given, "action", json_string(act));
    json_decref(schema);
    return given;
}
