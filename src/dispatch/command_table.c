/* command_table.c: the single declaration of every agent-desktop command and global flag.
 *
 * This file is data. It lists the 60 commands of spec/commands.md in that order, grouped as
 * there, each with its flags and positionals (types, defaults, choices, ranges and a one-line
 * help taken from the spec's command pages), whether it mutates the desktop, whether it
 * accepts the post-action wait flags (spec/configuration.md), and its handler when this build
 * has one. The CLI parser, --help, batch argument decoding, the MCP tool list and the C ABI
 * all read this table, so nothing about a command's arguments is declared anywhere else.
 * Defaults that would hide whether the user passed a flag (a flag that selects a mode, a
 * default that depends on another flag, or a subcommand-only flag) are left NULL here and
 * named in the help text instead; the handler applies them.
 */
#include "dispatch/command_table.h"

#include <string.h>

#include "commands/handlers.h"
#include "dispatch/command_args.h"

/* The argument lists each command refers to are in command_args.c. */

/* ---- Global flags --------------------------------------------------------------------- */

const ad_arg_spec ad_global_args[] = {
    {.name = "headed", .type = AD_ARG_BOOL,
     .help = "Prefer physical delivery and allow focus and cursor side effects."},
    {.name = "session", .type = AD_ARG_STRING,
     .help = "Select the snapshot namespace and trace; overrides AGENT_DESKTOP_SESSION."},
    {.name = "agent-id", .type = AD_ARG_STRING,
     .help = "Subagent id within the session; overrides AGENT_DESKTOP_AGENT_ID."},
    {.name = "trace", .type = AD_ARG_STRING,
     .help = "Append trace events as JSONL to this file."},
    {.name = "trace-strict", .type = AD_ARG_BOOL,
     .help = "Fail when trace setup or a pre-action write fails."},
    {.name = "wait-for", .short_name = 'w', .type = AD_ARG_STRING,
     .help = "After the command, poll until an element matches SELECTOR."},
    {.name = "wait-for-gone", .type = AD_ARG_STRING,
     .help = "After the command, poll until no element matches SELECTOR."},
    {.name = "wait-timeout", .type = AD_ARG_INT, .min = 0, .max = AD_DURATION_MAX_MS,
     .help = "Longest wait in ms for --wait-for and --wait-for-gone (default 30000), at most "
             "86400000; 0 checks once."},
    {.name = "verbose", .short_name = 'v', .type = AD_ARG_BOOL,
     .help = "Write debug logs to stderr."},
    {.name = "debug", .type = AD_ARG_BOOL,
     .help = "Write a visual debug HTML file; requires --screenshot."},
    {.name = "screenshot", .type = AD_ARG_STRING,
     .help = "Path of the visual debug HTML file; requires --debug."},
    {.name = "help", .short_name = 'h', .type = AD_ARG_BOOL, .help = "Print help as text."},
    {.name = "version", .short_name = 'V', .type = AD_ARG_BOOL,
     .help = "Print the version as text."},
    {0},
};

/* ---- The command table ---------------------------------------------------------------- */

#define G_APP "App and window"
#define G_OBS "Observation"
#define G_INT "Interaction"
#define G_SCROLL "Scroll"
#define G_KEY "Keyboard"
#define G_MOUSE "Mouse"
#define G_NOTE "Notifications"
#define G_CLIP "Clipboard"
#define G_WAIT "Wait"
#define G_SYS "System"
#define G_BATCH "Batch"

const ad_command ad_commands[] = {
    /* App and window */
    {.name = "launch", .group = G_APP, .mutates = true, .args = ad_args_launch,
     .summary = "Start an app, or attach to a running one, and return once its process is "
                "running."},
    {.name = "close-app", .destructive = true,
     .group = G_APP, .mutates = true, .args = ad_args_close_app,
     .summary = "Quit an app and all its windows, or end its process with --force."},
    {.name = "list-apps", .group = G_APP, .args = ad_args_list_inventory,
     .handler = ad_cmd_list_apps, .summary = "List running GUI apps."},
    {.name = "list-windows", .group = G_APP, .args = ad_args_list_inventory,
     .handler = ad_cmd_list_windows,
     .summary = "List windows with ids, titles, bounds, and focus state."},
    {.name = "focus-window", .group = G_APP, .mutates = true, .args = ad_args_focus_window,
     .summary = "Bring a window to the front and confirm the OS reports it focused."},
    {.name = "resize-window", .group = G_APP, .mutates = true, .args = ad_args_resize_window,
     .summary = "Set a window's width and height."},
    {.name = "move-window", .group = G_APP, .mutates = true, .args = ad_args_move_window,
     .summary = "Move a window to screen coordinates."},
    {.name = "minimize", .group = G_APP, .mutates = true, .args = ad_args_window_target,
     .summary = "Minimize a window."},
    {.name = "maximize", .group = G_APP, .mutates = true, .args = ad_args_window_target,
     .summary = "Maximize or zoom a window."},
    {.name = "restore", .group = G_APP, .mutates = true, .args = ad_args_window_target,
     .summary = "Restore a minimized or maximized window."},

    /* Observation */
    {.name = "snapshot", .group = G_OBS, .accepts_wait_flags = true, .args = ad_args_snapshot,
     .handler = ad_cmd_snapshot,
     .summary = "Capture the accessibility tree as JSON with qualified refs."},
    {.name = "find", .group = G_OBS, .args = ad_args_find, .handler = ad_cmd_find,
     .summary = "Search for elements by role, name, value, text, description, native id, or "
                "state."},
    {.name = "get", .group = G_OBS, .args = ad_args_get, .handler = ad_cmd_get,
     .summary = "Read one property of a ref: text, value, title, bounds, role, or states."},
    {.name = "is", .group = G_OBS, .args = ad_args_is, .handler = ad_cmd_is,
     .summary = "Check one state of a ref: visible, enabled, checked, focused, expanded, or "
                "selected."},
    {.name = "screenshot", .group = G_OBS, .args = ad_args_screenshot,
     .summary = "Capture an app window or a display as an image."},
    {.name = "list-displays", .group = G_OBS, .args = ad_args_no,
     .summary = "List displays with bounds, scale factor, and primary flag."},
    {.name = "list-surfaces", .handler = ad_cmd_list_surfaces,
     .group = G_OBS, .args = ad_args_list_surfaces,
     .summary = "List the overlays an app presents now, such as sheets and menus."},
    {.name = "open-system-surface", .group = G_OBS, .mutates = true,
     .args = ad_args_open_system_surface,
     .summary = "Raise an OS shell surface and return the window it presents."},

    /* Interaction */
    {.name = "click",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Activate an element with its primary action."},
    {.name = "double-click",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Double-click an element. Usually needs --headed."},
    {.name = "triple-click",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Triple-click an element. Needs --headed."},
    {.name = "right-click",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Open an element's context menu."},
    {.name = "type",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_type, .summary = "Insert text into a text target."},
    {.name = "set-value",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_set_value,
     .summary = "Write a value directly through the accessibility value path."},
    {.name = "clear", .destructive = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Empty a text target."},
    {.name = "focus",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action,
     .summary = "Move keyboard focus to an element without clicking it."},
    {.name = "select",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_select, .summary = "Pick an option in a list, dropdown, or combo box."},
    {.name = "toggle",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Flip a checkbox or switch."},
    {.name = "check",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Set a checkbox or switch to checked, idempotently."},
    {.name = "uncheck",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action,
     .summary = "Set a checkbox or switch to unchecked, idempotently."},
    {.name = "expand",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action,
     .summary = "Expand a disclosure triangle, tree item, or accordion."},
    {.name = "collapse",
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action,
     .summary = "Collapse a disclosure triangle, tree item, or accordion."},

    /* Scroll */
    {.name = "scroll",
     .handler = ad_cmd_scroll, .group = G_SCROLL, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_scroll,
     .summary = "Scroll a scroll area in a direction by a number of units."},
    {.name = "scroll-to",
     .handler = ad_cmd_ref_action, .group = G_SCROLL, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Bring an element into the visible area."},

    /* Keyboard */
    {.name = "press", .handler = ad_cmd_press,
     .group = G_KEY, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_press, .summary = "Send a key combo such as return or ctrl+s."},
    {.name = "key-down", .handler = ad_cmd_held_key,
     .group = G_KEY, .mutates = true, .args = ad_args_held_key,
     .summary = "Reserved. Fails closed instead of holding a key."},
    {.name = "key-up", .handler = ad_cmd_held_key,
     .group = G_KEY, .mutates = true, .args = ad_args_held_key,
     .summary = "Reserved. Fails closed instead of releasing a key."},

    /* Mouse */
    {.name = "hover", .handler = ad_cmd_hover,
     .group = G_MOUSE, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_hover,
     .summary = "Move the cursor to an element's center or to coordinates. Needs --headed."},
    {.name = "drag", .handler = ad_cmd_drag,
     .group = G_MOUSE, .mutates = true, .accepts_wait_flags = true,
     .args = ad_args_drag,
     .summary = "Drag from one element or point to another. Needs --headed."},
    {.name = "mouse-move", .handler = ad_cmd_mouse,
     .group = G_MOUSE, .mutates = true, .args = ad_args_mouse_move,
     .summary = "Move the cursor to screen coordinates. Needs --headed."},
    {.name = "mouse-click", .handler = ad_cmd_mouse,
     .group = G_MOUSE, .mutates = true, .args = ad_args_mouse_click,
     .summary = "Click at screen coordinates. Needs --headed."},
    {.name = "mouse-down", .handler = ad_cmd_mouse,
     .group = G_MOUSE, .mutates = true, .args = ad_args_mouse_down,
     .summary = "Reserved. Fails closed instead of pressing a button."},
    {.name = "mouse-up", .handler = ad_cmd_mouse,
     .group = G_MOUSE, .mutates = true, .args = ad_args_mouse_up,
     .summary = "Reserved. Fails closed instead of releasing a button."},
    {.name = "mouse-wheel", .handler = ad_cmd_mouse,
     .group = G_MOUSE, .mutates = true, .args = ad_args_mouse_wheel,
     .summary = "Scroll the mouse wheel at screen coordinates. Needs --headed."},

    /* Notifications */
    {.name = "list-notifications", .group = G_NOTE, .args = ad_args_list_notifications,
     .summary = "List entries in the OS notification surface."},
    {.name = "dismiss-notification", .destructive = true, .group = G_NOTE, .mutates = true,
     .args = ad_args_dismiss_notification, .summary = "Dismiss one notification by index."},
    {.name = "dismiss-all-notifications", .destructive = true, .group = G_NOTE, .mutates = true,
     .args = ad_args_dismiss_all_notifications,
     .summary = "Dismiss every notification, optionally for one app."},
    {.name = "notification-action", .group = G_NOTE, .mutates = true,
     .args = ad_args_notification_action,
     .summary = "Press an action button on a notification."},

    /* Clipboard */
    {.name = "clipboard-get", .group = G_CLIP, .args = ad_args_clipboard_get,
     .summary = "Read text, an image, or file references from the clipboard."},
    {.name = "clipboard-set", .destructive = true,
     .group = G_CLIP, .mutates = true, .args = ad_args_clipboard_set,
     .summary = "Write text, an image, or file references to the clipboard."},
    {.name = "clipboard-clear", .destructive = true,
     .group = G_CLIP, .mutates = true, .args = ad_args_no,
     .summary = "Clear the clipboard."},

    /* Wait */
    {.name = "wait", .group = G_WAIT, .args = ad_args_wait, .handler = ad_cmd_wait,
     .summary = "Block until a time, element, window, text, menu, event, or notification "
                "condition holds."},

    /* System */
    {.name = "status", .group = G_SYS, .args = ad_args_no, .handler = ad_cmd_status,
     .summary = "Report adapter health, platform, permissions, and supported surfaces."},
    {.name = "permissions", .group = G_SYS, .args = ad_args_permissions,
     .handler = ad_cmd_permissions,
     .summary = "Check, request, or guide the grant of OS permissions."},
    {.name = "version", .group = G_SYS, .args = ad_args_no, .handler = ad_cmd_version,
     .stateless = true,
     .summary = "Print the version, target architecture, and OS."},
    {.name = "skills", .group = G_SYS, .args = ad_args_skills, .handler = ad_cmd_skills,
     .stateless = true,
     .summary = "List and read the skills compiled into the binary."},
    {.name = "session", .group = G_SYS, .args = ad_args_session,
     .summary = "Start, end, list, and clean up sessions."},
    {.name = "cursor-overlay", .group = G_SYS, .args = ad_args_cursor_overlay,
     .summary = "Configure the presentation-only agent cursor."},
    {.name = "trace", .group = G_SYS, .args = ad_args_trace,
     .summary = "Read merged session trace timelines."},

    /* Batch */
    {.name = "batch", .group = G_BATCH, .args = ad_args_batch,
     .summary = "Run a bounded, sequential, non-atomic list of commands in one process."},
};

const size_t ad_commands_count = sizeof(ad_commands) / sizeof(ad_commands[0]);

/* The spec lists exactly 60 commands; a table of another size is a build error. */
_Static_assert(sizeof(ad_commands) / sizeof(ad_commands[0]) == 60,
               "the command table must hold the 60 commands of spec/commands.md");

const ad_command *ad_command_find(const char *name) {
    if (!name)
        return NULL;
    for (size_t i = 0; i < ad_commands_count; i++) {
        if (strcmp(ad_commands[i].name, name) == 0)
            return &ad_commands[i];
    }
    return NULL;
}

/* Compares two argument names, treating '-' and '_' as the same character. */
static bool arg_name_equal(const char *a, const char *b) {
    for (;; a++, b++) {
        char ca = *a == '_' ? '-' : *a;
        char cb = *b == '_' ? '-' : *b;
        if (ca != cb)
            return false;
        if (ca == '\0')
            return true;
    }
}

bool ad_command_takes_flag(const ad_command *cmd, const char *name)
{
    const ad_arg_spec *s = cmd ? ad_arg_spec_find(cmd->args, name) : NULL;
    return s && !s->positional;
}

const ad_arg_spec *ad_arg_spec_find(const ad_arg_spec *specs, const char *name) {
    if (!specs || !name)
        return NULL;
    for (const ad_arg_spec *s = specs; s->name; s++) {
        if (arg_name_equal(s->name, name))
            return s;
    }
    return NULL;
}

bool ad_command_takes_ref(const ad_command *cmd)
{
    const ad_arg_spec *s = cmd ? ad_arg_spec_find(cmd->args, "ref_id") : NULL;
    return s && s->positional;
}
