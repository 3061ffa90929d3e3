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
#include "dispatch/batch.h"
#include "dispatch/command_args.h"
#include "core/overlay_style.h"

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
    {.name = "max-bytes", .type = AD_ARG_INT, .min = 1024, .max = 1000000000,
     .help = "Fit the output line in N bytes: cut containers, clip long texts, say so in "
             "data.budget (snapshot, find, and --wait-for)."},
    {.name = "max-tokens", .type = AD_ARG_INT, .min = 342, .max = 333333333,
     .help = "--max-bytes of N tokens at 3 bytes per token."},
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

/* ---- Cross-argument rules ------------------------------------------------------------ */

/* guides/traces.md: "--debug requires --screenshot PATH.html", and --screenshot names the
 * debug file, so it means nothing without --debug. */
const ad_arg_rule ad_global_rules[] = {
    {AD_RULE_REQUIRES, "debug", "screenshot",
     .message = "--debug requires --screenshot PATH.html",
     .suggestion = "Add --screenshot with a new file name ending in .html"},
    {AD_RULE_REQUIRES, "screenshot", "debug",
     .message = "--screenshot names the visual debug file, so it requires --debug",
     .suggestion = "Add --debug, or drop --screenshot"},
    {AD_RULE_AT_MOST_ONE, "max_bytes|max_tokens",
     .message = "--max-bytes and --max-tokens cannot combine: both set one budget",
     .suggestion = "Keep one of --max-bytes and --max-tokens"},
    {0},
};

/* screenshot: observation.md, "--screen ... Cannot combine with --app or --window-id". */
static const ad_arg_rule screenshot_rules[] = {
    {AD_RULE_AT_MOST_ONE, "screen|app",
     .message = "--screen captures a display, so it cannot combine with --app",
     .suggestion = "Drop --screen to capture the app's window, or drop --app"},
    {AD_RULE_AT_MOST_ONE, "screen|window_id",
     .message = "--screen captures a display, so it cannot combine with --window-id",
     .suggestion = "Drop --screen to capture the window, or drop --window-id"},
    {0},
};

/* find: one result shape; an overlay search cannot also be a subtree search. */
static const ad_arg_rule find_rules[] = {
    {AD_RULE_AT_MOST_ONE, "count|first|last|nth|limit",
     .message = "--count, --first, --last, --nth and --limit are mutually exclusive",
     .suggestion = "Pass at most one result-shaping flag"},
    {AD_RULE_AT_MOST_ONE, "root|surface!=window",
     .message = "--root cannot be combined with --surface",
     .suggestion = "Run find --surface without --root, or drop --surface"},
/* find --since returns the delta's matches: it takes the query flags alone. */
#define SINCE_ALONE(key)                                                                    \
    {AD_RULE_AT_MOST_ONE, "since|" key,                                                     \
     .message = "--since cannot be combined with --root, --surface, --count, --first, "     \
                "--last, --nth or --limit",                                                 \
     .suggestion = "Run find --since with the query flags alone"}
    SINCE_ALONE("root"), SINCE_ALONE("surface!=window"), SINCE_ALONE("count"),
    SINCE_ALONE("first"), SINCE_ALONE("last"), SINCE_ALONE("nth"), SINCE_ALONE("limit"),
#undef SINCE_ALONE
    {0},
};

static const ad_arg_rule snapshot_rules[] = {
    {AD_RULE_AT_MOST_ONE, "root|surface!=window",
     .message = "--root cannot be combined with --surface",
     .suggestion = "A ref already carries the surface it was captured from; drop --surface"},
    {AD_RULE_AT_MOST_ONE, "since|root", .message = "--since cannot be combined with --root",
     .suggestion = "Run snapshot --since without --root"},
    {AD_RULE_AT_MOST_ONE, "since|surface!=window",
     .message = "--since compares windows; it cannot be combined with --surface",
     .suggestion = "Run snapshot --since without --surface"},
    {0},
};

static const ad_arg_rule type_rules[] = {
    {AD_RULE_AT_LEAST_ONE, "text", .message = "Provide either --stdin or a text argument",
     .suggestion = "To enter the literal text --stdin, put it after --"},
    {0},
};

static const ad_arg_rule set_value_rules[] = {
    {AD_RULE_AT_LEAST_ONE, "value", .message = "Provide either --stdin or a value argument",
     .suggestion = "To enter the literal text --stdin, put it after --"},
    {0},
};

static const ad_arg_rule hover_rules[] = {
    {AD_RULE_AT_LEAST_ONE, "ref_id|xy", .message = "hover needs a ref or --xy X,Y",
     .suggestion = "Pass a ref from snapshot, or --xy 640,400 with --headed"},
    {0},
};

static const ad_arg_rule drag_rules[] = {
    {AD_RULE_AT_LEAST_ONE, "from|from_xy", .message = "drag needs --from REF or --from-xy X,Y"},
    {AD_RULE_AT_LEAST_ONE, "to|to_xy", .message = "drag needs --to REF or --to-xy X,Y"},
    {0},
};

static const ad_arg_rule focus_window_rules[] = {
    {AD_RULE_AT_LEAST_ONE, "window_id|app|title",
     .message = "focus-window needs --window-id, --app or --title",
     .suggestion = "Run list-windows and pass --window-id with the id of the window"},
    {0},
};

static const ad_arg_rule skills_rules[] = {
    {AD_RULE_REQUIRES, "action=get", "name", .message = "skills get needs a skill name",
     .suggestion = "Run agent-desktop skills get desktop"},
    {0},
};

/* A hotspot is a point of its image: it needs that image. */
static const ad_arg_rule cursor_overlay_rules[] = {
    {AD_RULE_REQUIRES, "hotspot", "image", .message = "--hotspot needs --image",
     .suggestion = "Pass --image PATH with --hotspot X,Y"},
    {AD_RULE_REQUIRES, "pointer_hotspot", "pointer_image",
     .message = "--pointer-hotspot needs --pointer-image",
     .suggestion = "Pass --pointer-image PATH with --pointer-hotspot X,Y"},
    {0},
};

/* system.md: "--screenshots with --no-trace is INVALID_ARGS, and --multi-agent without
 * --cursor is a parse error". */
static const ad_arg_rule session_rules[] = {
    {AD_RULE_REQUIRES, "multi_agent", "cursor", .parse_error = true,
     .message = "--multi-agent requires --cursor",
     .suggestion = "Add --cursor, or drop --multi-agent"},
    {AD_RULE_AT_MOST_ONE, "screenshots|no_trace",
     .message = "--screenshots requires tracing, so it cannot combine with --no-trace",
     .suggestion = "Drop --no-trace to keep tracing, or drop --screenshots"},
    {0},
};

/* clipboard.md: "--stdin ... Cannot be combined with TEXT, --image, or --file-url" (the CLI
 * refuses TEXT itself); without it --file-url wins over --image, which wins over TEXT. */
/* The identity guard (notifications.md): the row at INDEX must be named by one of them. */
static const ad_arg_rule notification_identity_rules[] = {
    {AD_RULE_AT_LEAST_ONE, "expected_app|expected_title",
     .message = "Name the notification at INDEX with --expected-app or --expected-title",
     .suggestion = "Copy the title from the same list-notifications result, as "
                   "--expected-title TITLE"},
    {0},
};

static const ad_arg_rule clipboard_set_rules[] = {
    {AD_RULE_AT_MOST_ONE, "stdin|image", .message = "--stdin cannot be combined with --image",
     .suggestion = "Pass the text with --stdin alone, or drop --stdin"},
    {AD_RULE_AT_MOST_ONE, "stdin|file_url",
     .message = "--stdin cannot be combined with --file-url",
     .suggestion = "Pass the text with --stdin alone, or drop --stdin"},
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
    {.name = "launch", .desktop_action = true,
     .group = G_APP, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .args = ad_args_launch, .check = ad_launch_args_check,
     .handler = ad_cmd_launch,
     .summary = "Start an app, or attach to a running one, and return once its process is "
                "running."},
    {.name = "close-app", .desktop_action = true,
     .group = G_APP, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .destructive = true, .args = ad_args_close_app,
     .handler = ad_cmd_close_app,
     .summary = "Quit an app and all its windows, or end its process with --force."},
    {.name = "list-apps", .group = G_APP, .args = ad_args_list_inventory,
     .handler = ad_cmd_list_apps, .summary = "List running GUI apps."},
    {.name = "list-windows", .group = G_APP, .args = ad_args_list_inventory,
     .handler = ad_cmd_list_windows,
     .summary = "List windows with ids, titles, bounds, and focus state."},
    {.name = "focus-window", .desktop_action = true,
     .group = G_APP, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_focus_window,
     .rules = focus_window_rules, .handler = ad_cmd_focus_window,
     .summary = "Bring a window to the front and confirm the OS reports it focused."},
    {.name = "resize-window", .desktop_action = true,
     .group = G_APP, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_resize_window,
     .handler = ad_cmd_window_op, .data = &ad_win_op_resize,
     .summary = "Set a window's width and height."},
    {.name = "move-window", .desktop_action = true,
     .group = G_APP, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_move_window,
     .handler = ad_cmd_window_op, .data = &ad_win_op_move,
     .summary = "Move a window to screen coordinates."},
    {.name = "minimize", .desktop_action = true,
     .group = G_APP, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_window_target,
     .handler = ad_cmd_window_op, .data = &ad_win_op_minimize,
     .summary = "Minimize a window."},
    {.name = "maximize", .desktop_action = true,
     .group = G_APP, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_window_target,
     .handler = ad_cmd_window_op, .data = &ad_win_op_maximize,
     .summary = "Maximize or zoom a window."},
    {.name = "restore", .desktop_action = true,
     .group = G_APP, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_window_target,
     .handler = ad_cmd_window_op, .data = &ad_win_op_restore,
     .summary = "Restore a minimized or maximized window."},

    /* Observation */
    {.name = "snapshot", .group = G_OBS, .accepts_wait_flags = true, .args = ad_args_snapshot,
     .accepts_budget = true,
     .accepts_debug = true, .fresh_observation = true,
     .rules = snapshot_rules, .check = ad_since_args_check,
     .handler = ad_cmd_snapshot,
     .summary = "Capture the accessibility tree as JSON with qualified refs."},
    {.name = "find", .group = G_OBS, .args = ad_args_find, .handler = ad_cmd_find,
     .accepts_budget = true,
     .rules = find_rules, .check = ad_since_args_check,
     .summary = "Search for elements by role, name, value, text, description, native id, or "
                "state."},
    {.name = "get", .group = G_OBS, .args = ad_args_get, .handler = ad_cmd_get,
     .summary = "Read one property of a ref: text, value, title, bounds, role, or states."},
    {.name = "is", .group = G_OBS, .args = ad_args_is, .handler = ad_cmd_is,
     .summary = "Check one state of a ref: visible, enabled, checked, focused, expanded, or "
                "selected."},
    {.name = "screenshot", .group = G_OBS, .args = ad_args_screenshot,
     .rules = screenshot_rules, .handler = ad_cmd_screenshot,
     .summary = "Capture an app window or a display as an image."},
    {.name = "list-displays", .no_accessibility = true, .group = G_OBS, .args = ad_args_no,
     .handler = ad_cmd_list_displays,
     .summary = "List displays with bounds, scale factor, and primary flag."},
    {.name = "list-surfaces", .handler = ad_cmd_list_surfaces,
     .group = G_OBS, .args = ad_args_list_surfaces,
     .summary = "List the overlays an app presents now, such as sheets and menus."},
    {.name = "open-system-surface", .desktop_action = true, .group = G_OBS, .mutates = true,
     .lease = AD_LEASE_COMMAND,
     .args = ad_args_open_system_surface, .handler = ad_cmd_open_system_surface,
     .summary = "Raise an OS shell surface and return the window it presents."},

    /* Interaction */
    {.name = "click", .desktop_action = true, .data = &ad_ra_click, .ref_action = true,
     .accepts_debug = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Activate an element with its primary action."},
    {.name = "double-click", .desktop_action = true,
     .data = &ad_ra_double_click, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Double-click an element. Usually needs --headed."},
    {.name = "triple-click", .desktop_action = true,
     .data = &ad_ra_triple_click, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Triple-click an element. Needs --headed."},
    {.name = "right-click", .desktop_action = true, .data = &ad_ra_right_click, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Open an element's context menu."},
    {.name = "type", .desktop_action = true,
     .data = &ad_ra_type, .ref_action = true, .rules = type_rules,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_type, .summary = "Insert text into a text target."},
    {.name = "set-value", .desktop_action = true,
     .data = &ad_ra_set_value, .ref_action = true, .rules = set_value_rules,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_set_value,
     .summary = "Write a value directly through the accessibility value path."},
    {.name = "clear", .desktop_action = true, .data = &ad_ra_clear, .ref_action = true,
     .destructive = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Empty a text target."},
    {.name = "focus", .desktop_action = true, .data = &ad_ra_focus, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action,
     .summary = "Move keyboard focus to an element without clicking it."},
    {.name = "select", .desktop_action = true, .data = &ad_ra_select, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_select, .summary = "Pick an option in a list, dropdown, or combo box."},
    {.name = "toggle", .desktop_action = true, .data = &ad_ra_toggle, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Flip a checkbox or switch."},
    {.name = "check", .desktop_action = true, .data = &ad_ra_check, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Set a checkbox or switch to checked, idempotently."},
    {.name = "uncheck", .desktop_action = true, .data = &ad_ra_uncheck, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action,
     .summary = "Set a checkbox or switch to unchecked, idempotently."},
    {.name = "expand", .desktop_action = true, .data = &ad_ra_expand, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action,
     .summary = "Expand a disclosure triangle, tree item, or accordion."},
    {.name = "collapse", .desktop_action = true, .data = &ad_ra_collapse, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_INT, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action,
     .summary = "Collapse a disclosure triangle, tree item, or accordion."},

    /* Scroll */
    {.name = "scroll", .desktop_action = true,
     .handler = ad_cmd_scroll, .group = G_SCROLL, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_scroll,
     .summary = "Scroll a scroll area in a direction by a number of units."},
    {.name = "scroll-to", .desktop_action = true, .data = &ad_ra_scroll_to, .ref_action = true,
     .handler = ad_cmd_ref_action, .group = G_SCROLL, .mutates = true,
     .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_ref_action, .summary = "Bring an element into the visible area."},

    /* Keyboard */
    {.name = "press", .desktop_action = true, .handler = ad_cmd_press,
     .group = G_KEY, .mutates = true, .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_press, .summary = "Send a key combo such as return or ctrl+s."},
    {.name = "key-down", .no_accessibility = true,
     .desktop_action = true, .handler = ad_cmd_held_key,
     .group = G_KEY, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_held_key,
     .summary = "Reserved. Fails closed instead of holding a key."},
    {.name = "key-up", .no_accessibility = true, .desktop_action = true, .handler = ad_cmd_held_key,
     .group = G_KEY, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_held_key,
     .summary = "Reserved. Fails closed instead of releasing a key."},

    /* Mouse */
    {.name = "hover", .desktop_action = true,
     .handler = ad_cmd_hover, .rules = hover_rules, .check = ad_hover_args_check,
     .group = G_MOUSE, .mutates = true, .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_hover,
     .summary = "Move the cursor to an element's center or to coordinates. Needs --headed."},
    {.name = "drag", .desktop_action = true,
     .handler = ad_cmd_drag, .rules = drag_rules, .check = ad_drag_args_check,
     .group = G_MOUSE, .mutates = true, .lease = AD_LEASE_DELIVERY, .accepts_wait_flags = true,
     .args = ad_args_drag,
     .summary = "Drag from one element or point to another. Needs --headed."},
    {.name = "mouse-move", .no_accessibility = true,
     .desktop_action = true, .handler = ad_cmd_mouse, .data = &ad_gesture_move,
     .group = G_MOUSE, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_mouse_move,
     .summary = "Move the cursor to screen coordinates. Needs --headed."},
    {.name = "mouse-click", .no_accessibility = true, .desktop_action = true,
     .handler = ad_cmd_mouse, .data = &ad_gesture_click,
     .group = G_MOUSE, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_mouse_click,
     .summary = "Click at screen coordinates. Needs --headed."},
    {.name = "mouse-down", .no_accessibility = true,
     .desktop_action = true, .handler = ad_cmd_mouse, .data = &ad_gesture_held,
     .group = G_MOUSE, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_mouse_down,
     .summary = "Reserved. Fails closed instead of pressing a button."},
    {.name = "mouse-up", .no_accessibility = true,
     .desktop_action = true, .handler = ad_cmd_mouse, .data = &ad_gesture_held,
     .group = G_MOUSE, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_mouse_up,
     .summary = "Reserved. Fails closed instead of releasing a button."},
    {.name = "mouse-wheel", .no_accessibility = true, .desktop_action = true,
     .handler = ad_cmd_mouse, .data = &ad_gesture_wheel,
     .group = G_MOUSE, .mutates = true, .lease = AD_LEASE_DELIVERY, .args = ad_args_mouse_wheel,
     .summary = "Scroll the mouse wheel at screen coordinates. Needs --headed."},

    /* Notifications */
    {.name = "list-notifications", .group = G_NOTE, .args = ad_args_list_notifications,
     .handler = ad_cmd_list_notifications,
     .summary = "List entries in the OS notification surface."},
    {.name = "dismiss-notification", .desktop_action = true, .destructive = true,
     .group = G_NOTE, .mutates = true, .lease = AD_LEASE_COMMAND,
     .args = ad_args_dismiss_notification, .rules = notification_identity_rules,
     .handler = ad_cmd_dismiss_notification, .summary = "Dismiss one notification by index."},
    {.name = "dismiss-all-notifications", .desktop_action = true,
     .group = G_NOTE, .mutates = true, .lease = AD_LEASE_COMMAND, .destructive = true,
     .args = ad_args_dismiss_all_notifications, .handler = ad_cmd_dismiss_all_notifications,
     .summary = "Dismiss every notification, optionally for one app."},
    {.name = "notification-action", .desktop_action = true, .group = G_NOTE, .mutates = true,
     .lease = AD_LEASE_COMMAND,
     .args = ad_args_notification_action, .rules = notification_identity_rules,
     .handler = ad_cmd_notification_action,
     .summary = "Press an action button on a notification."},

    /* Clipboard */
    {.name = "clipboard-get", .no_accessibility = true, .handler = ad_cmd_clipboard_get,
     .group = G_CLIP, .args = ad_args_clipboard_get,
     .summary = "Read text, an image, or file references from the clipboard."},
    {.name = "clipboard-set", .no_accessibility = true, .handler = ad_cmd_clipboard_set,
     .group = G_CLIP, .mutates = true, .lease = AD_LEASE_COMMAND, .destructive = true,
     .args = ad_args_clipboard_set, .rules = clipboard_set_rules,
     .summary = "Write text, an image, or file references to the clipboard."},
    {.name = "clipboard-clear", .no_accessibility = true, .handler = ad_cmd_clipboard_clear,
     .group = G_CLIP, .mutates = true, .lease = AD_LEASE_COMMAND, .destructive = true,
     .args = ad_args_no,
     .summary = "Clear the clipboard."},

    /* Wait */
    {.name = "wait", .no_accessibility_with = "ms", .baseline_with = "event",
     .group = G_WAIT, .args = ad_args_wait, .handler = ad_cmd_wait,
     .check = ad_wait_args_check,
     .summary = "Block until a time, element, window, text, menu, event, or notification "
                "condition holds."},

    /* System */
    {.name = "status", .no_accessibility = true,
     .group = G_SYS, .args = ad_args_no, .handler = ad_cmd_status,
     .summary = "Report adapter health, platform, permissions, and supported surfaces."},
    {.name = "permissions", .no_accessibility = true, .group = G_SYS, .args = ad_args_permissions,
     .handler = ad_cmd_permissions,
     .summary = "Check, request, or guide the grant of OS permissions."},
    {.name = "version", .no_accessibility = true,
     .group = G_SYS, .args = ad_args_no, .handler = ad_cmd_version,
     .stateless = true,
     .summary = "Print the version, target architecture, and OS."},
    {.name = "skills", .no_accessibility = true,
     .group = G_SYS, .args = ad_args_skills, .handler = ad_cmd_skills,
     .rules = skills_rules,
     .stateless = true,
     .summary = "List and read the skills compiled into the binary."},
    {.name = "session", .no_accessibility = true, .ended_session_action = "end",
     .group = G_SYS, .args = ad_args_session, .rules = session_rules,
     .handler = ad_cmd_session,
     .summary = "Start, end, list, and clean up sessions."},
    {.name = "cursor-overlay", .group = G_SYS, .args = ad_args_cursor_overlay,
     .not_in_batch = "cursor-overlay cannot run inside a batch", .rules = cursor_overlay_rules,
     .check = ad_overlay_args_check, .handler = ad_cmd_cursor_overlay,
     .summary = "Configure the presentation-only agent cursor."},
    {.name = "trace", .no_accessibility = true,
     .group = G_SYS, .args = ad_args_trace, .handler = ad_cmd_trace,
     .summary = "Read merged session trace timelines."},

    /* Batch */
    {.name = "batch", .group = G_BATCH, .not_in_batch = "Batch commands cannot be nested",
     .args = ad_args_batch,
     .handler = ad_cmd_batch,
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

const ad_command *ad_command_fresh_observation(void) {
    for (size_t i = 0; i < ad_commands_count; i++) {
        if (ad_commands[i].fresh_observation)
            return &ad_commands[i];
    }
    return NULL; /* unreachable: test_doors.c checks that one entry is marked */
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
