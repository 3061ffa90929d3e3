/* command_args.c: the argument lists of the command table (flags and positionals with their
 * types, defaults, choices and ranges), one list per command or shared by a group, taken from
 * the commands/ pages of the spec. The table itself is in command_table.c. */
#include <stdint.h>

#include "dispatch/command_args.h"

#include "core/overlay_style.h"
#include "core/refs.h"

/* Coordinates and deltas may be negative; min 0 / max 0 would mean "any value >= 0". A value
 * outside [min, max] is a parse error (exit 2, core/arg_check.h), so a range the spec states
 * belongs here, not in a handler. */
#define AD_SIGNED_MIN INT32_MIN
#define AD_SIGNED_MAX INT32_MAX

/* Ref actions that take only a ref and the actionability budget. */
const ad_arg_spec ad_args_ref_action[] = {
    {.name = "ref_id", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Qualified ref, such as @s8f3k2p9:e1."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "5000", .min = 0,
     .max = AD_DURATION_MAX_MS,
     .help = "Budget to resolve the ref and wait until it is actionable."},
    {0},
};

/* minimize, maximize and restore. */
const ad_arg_spec ad_args_window_target[] = {
    {.name = "app", .type = AD_ARG_STRING, .help = "Application name (default: focused app)."},
    {.name = "window-id", .type = AD_ARG_STRING, .help = "Window id from list-windows."},
    {0},
};

/* list-apps and list-windows. */
const ad_arg_spec ad_args_list_inventory[] = {
    {.name = "app", .type = AD_ARG_STRING, .help = "Filter by name, case-insensitively."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "5000", .min = 0,
     .max = AD_DURATION_MAX_MS, .help = "Deadline for the inventory."},
    {0},
};

/* key-down and key-up. */
const ad_arg_spec ad_args_held_key[] = {
    {.name = "combo", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Keys joined with '+'."},
    {.name = "force", .type = AD_ARG_BOOL, .help = "Skip the blocked-combo check."},
    {0},
};

/* Commands that take no arguments. */
const ad_arg_spec ad_args_no[] = {
    {0},
};

const ad_arg_spec ad_args_launch[] = {
    {.name = "app", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Application name, bundle ID, or path."},
    {.name = "timeout", .type = AD_ARG_INT, .min = 0, .max = AD_DURATION_MAX_MS,
     .default_value = "30000", .help = "Upper bound for the whole launch, in ms."},
    {.name = "arg", .type = AD_ARG_STRING_LIST,
     .help = "Command-line argument for the app; repeatable, order kept."},
    {.name = "env", .type = AD_ARG_STRING_LIST,
     .help = "KEY=VALUE for the launched process; repeatable, each KEY once."},
    {.name = "cwd", .type = AD_ARG_STRING, .help = "Working directory for the launched process."},
    {.name = "no-attach", .type = AD_ARG_BOOL,
     .help = "Start a fresh instance instead of attaching to a running one."},
    {.name = "activate", .type = AD_ARG_BOOL,
     .help = "Bring the app forward and wait for a window up to --timeout."},
    /* --cdp [PORT]: an int so that every door can name a port; the CLI's bare --cdp is 0,
     * which like an explicit 0 picks a free port (app-window.md). */
    {.name = "cdp", .type = AD_ARG_INT, .min = 0, .max = 65535, .bare_value = "0",
     .help = "Launch with a verified loopback-only Chrome DevTools endpoint on PORT (0 or "
             "none: a free port)."},
    {0},
};

const ad_arg_spec ad_args_close_app[] = {
    {.name = "app", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Application name as list-apps prints it."},
    {.name = "force", .type = AD_ARG_BOOL,
     .help = "Terminate the process instead of quitting gracefully."},
    {0},
};

const ad_arg_spec ad_args_focus_window[] = {
    {.name = "window-id", .type = AD_ARG_STRING, .help = "Window id from list-windows."},
    {.name = "app", .type = AD_ARG_STRING, .help = "Application name."},
    {.name = "title", .type = AD_ARG_STRING, .help = "Window title, partial match."},
    {0},
};

const ad_arg_spec ad_args_resize_window[] = {
    /* A window is at least 1 px; 32767 is the X11 protocol's largest window side. */
    {.name = "width", .type = AD_ARG_INT, .required = true, .min = 1, .max = 32767,
     .help = "New window width in px."},
    {.name = "height", .type = AD_ARG_INT, .required = true, .min = 1, .max = 32767,
     .help = "New window height in px."},
    {.name = "app", .type = AD_ARG_STRING, .help = "Application name (default: focused app)."},
    {.name = "window-id", .type = AD_ARG_STRING, .help = "Window id from list-windows."},
    {0},
};

const ad_arg_spec ad_args_move_window[] = {
    {.name = "x", .type = AD_ARG_INT, .required = true, .min = AD_SIGNED_MIN,
     .max = AD_SIGNED_MAX, .help = "New x position; write a negative value as --x=-100."},
    {.name = "y", .type = AD_ARG_INT, .required = true, .min = AD_SIGNED_MIN,
     .max = AD_SIGNED_MAX, .help = "New y position; write a negative value as --y=-100."},
    {.name = "app", .type = AD_ARG_STRING, .help = "Application name (default: focused app)."},
    {.name = "window-id", .type = AD_ARG_STRING, .help = "Window id from list-windows."},
    {0},
};

const ad_arg_spec ad_args_snapshot[] = {
    {.name = "app", .type = AD_ARG_STRING,
     .help = "Application to read (default: focused app or window)."},
    {.name = "window-id", .type = AD_ARG_STRING, .help = "Read one window by id."},
    {.name = "interactive-only", .short_name = 'i', .type = AD_ARG_BOOL,
     .help = "Drop leaves without a ref."},
    {.name = "compact", .type = AD_ARG_BOOL, .help = "Collapse single-child unnamed wrappers."},
    {.name = "include-bounds", .type = AD_ARG_BOOL, .help = "Add bounds to each node."},
    {.name = "skeleton", .type = AD_ARG_BOOL,
     .help = "Clamp depth to 3 and mark cut containers with children_count."},
    {.name = "root", .type = AD_ARG_STRING,
     .help = "Drill into one ref's subtree and replace that region's refs."},
    {.name = "surface", .type = AD_ARG_STRING, .default_value = "window",
     .help = "Read the selected UI surface."},
    {.name = "max-depth", .type = AD_ARG_INT, .default_value = "10", .min = 0, .max = 50,
     .help = "Maximum depth, up to 50."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "3000", .min = 0,
     .max = AD_DURATION_MAX_MS, .help = "Observation deadline."},
    {.name = "force-electron-a11y", .type = AD_ARG_BOOL,
     .help = "Assume Chromium renderer accessibility is already forced."},
    {.name = "annotate-unique", .type = AD_ARG_BOOL,
     .help = "Mark refs not unique at capture with unique: false and their named context."},
    {.name = "since", .type = AD_ARG_STRING, .max_bytes = AD_SNAPSHOT_ID_MAX,
     .help = "Return what changed in the same window since this snapshot id."},
    {0},
};

const ad_arg_spec ad_args_find[] = {
    {.name = "app", .type = AD_ARG_STRING, .help = "Application to search (default: focused)."},
    {.name = "window-id", .type = AD_ARG_STRING, .help = "Window to search."},
    {.name = "role", .type = AD_ARG_STRING, .help = "Accessibility role, case-insensitive."},
    {.name = "name", .type = AD_ARG_STRING, .help = "Accessible name; fuzzy unless --exact."},
    {.name = "value", .type = AD_ARG_STRING, .help = "Current value."},
    {.name = "text", .type = AD_ARG_STRING,
     .help = "Text in the name, value, or description, including in the subtree."},
    {.name = "description", .type = AD_ARG_STRING, .help = "Accessible description."},
    {.name = "native-id", .type = AD_ARG_STRING, .help = "Native automation id."},
    {.name = "exact", .type = AD_ARG_BOOL,
     .help = "Case-insensitive equality instead of a fuzzy match."},
    {.name = "state", .type = AD_ARG_STRING_LIST,
     .help = "Filter by a state TOKEN[=BOOL]; repeatable."},
    {.name = "root", .type = AD_ARG_STRING, .help = "Search one ref's subtree."},
    {.name = "surface", .type = AD_ARG_STRING, .default_value = "window",
     .help = "Search an overlay; cannot combine with --root."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "5000", .min = 0,
     .max = AD_DURATION_MAX_MS, .help = "Traversal deadline."},
    {.name = "count", .type = AD_ARG_BOOL, .help = "Return the match count only."},
    {.name = "first", .type = AD_ARG_BOOL, .help = "Return the first match."},
    {.name = "last", .type = AD_ARG_BOOL, .help = "Return the last match."},
    {.name = "nth", .type = AD_ARG_INT, .help = "Return the match at zero-based index N."},
    {.name = "limit", .type = AD_ARG_INT, .default_value = "50",
     .help = "Return at most N matches; 0 returns all."},
    {.name = "since", .type = AD_ARG_STRING, .max_bytes = AD_SNAPSHOT_ID_MAX,
     .help = "Return the matches that changed in the same window since this snapshot id."},
    {0},
};

const ad_arg_spec ad_args_get[] = {
    {.name = "ref_id", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Qualified ref."},
    {.name = "property", .type = AD_ARG_ENUM, .default_value = "text",
     .choices = "text|value|title|bounds|role|states", .help = "The property to read."},
    {0},
};

const ad_arg_spec ad_args_is[] = {
    {.name = "ref_id", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Qualified ref."},
    {.name = "property", .type = AD_ARG_ENUM, .default_value = "visible",
     .choices = "visible|enabled|checked|focused|expanded|selected",
     .help = "The state to test."},
    {0},
};

const ad_arg_spec ad_args_screenshot[] = {
    {.name = "path", .type = AD_ARG_STRING, .positional = true,
     .help = "Save the image here; without it the PNG returns base64-encoded."},
    {.name = "app", .type = AD_ARG_STRING, .help = "Capture this app's window."},
    {.name = "window-id", .type = AD_ARG_STRING, .help = "Capture one window by id."},
    {.name = "screen", .type = AD_ARG_INT,
     .help = "Capture the display at this index of list-displays."},
    {0},
};

const ad_arg_spec ad_args_list_surfaces[] = {
    {.name = "app", .type = AD_ARG_STRING,
     .help = "Application to inspect (default: focused app)."},
    {0},
};

const ad_arg_spec ad_args_open_system_surface[] = {
    {.name = "surface", .type = AD_ARG_STRING, .required = true,
     .help = "Shell surface kind, such as start-menu, taskbar, or action-center."},
    {0},
};

const ad_arg_spec ad_args_type[] = {
    {.name = "ref_id", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Qualified ref of the text target."},
    {.name = "text", .type = AD_ARG_STRING, .positional = true, .max_bytes = 10000,
     .help = "The text, up to 10,000 bytes; required unless --stdin."},
    {.name = "stdin", .type = AD_ARG_BOOL, .front_end = true, .fills = "text",
     .help = "Read the text from a pipe or file."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .min = 0, .max = AD_DURATION_MAX_MS,
     .help = "Resolution, actionability and delivery budget (default 5000 + 30/char)."},
    {.name = "interval-ms", .type = AD_ARG_INT, .min = 1, .max = 2000,
     .help = "Type one keystroke every MS milliseconds, 1 to 2000."},
    {0},
};

const ad_arg_spec ad_args_set_value[] = {
    {.name = "ref_id", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Qualified ref."},
    {.name = "value", .type = AD_ARG_STRING, .positional = true, .max_bytes = 128 * 1024,
     .help = "The value to write, up to 128 KiB; required unless --stdin."},
    {.name = "stdin", .type = AD_ARG_BOOL, .front_end = true, .fills = "value",
     .help = "Read the value from a pipe or file."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "5000", .min = 0,
     .max = AD_DURATION_MAX_MS,
     .help = "Budget to resolve the ref and wait until it is actionable."},
    {0},
};

const ad_arg_spec ad_args_select[] = {
    {.name = "ref_id", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Qualified ref of the list, dropdown, or combo box."},
    {.name = "value", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Display text of the option to pick."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "5000", .min = 0,
     .max = AD_DURATION_MAX_MS,
     .help = "Budget to resolve the ref and wait until it is actionable."},
    {0},
};

const ad_arg_spec ad_args_scroll[] = {
    {.name = "ref_id", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Qualified ref of the scroll area."},
    {.name = "direction", .type = AD_ARG_ENUM, .default_value = "down",
     .choices = "up|down|left|right", .help = "Scroll direction."},
    {.name = "amount", .type = AD_ARG_INT, .default_value = "3", .min = 1,
     .max = AD_SIGNED_MAX, .help = "Number of scroll units, 1 or more."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "5000", .min = 0,
     .max = AD_DURATION_MAX_MS, .help = "Wait budget."},
    {0},
};

const ad_arg_spec ad_args_press[] = {
    {.name = "combo", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Keys joined with '+'; the last part is the key."},
    {.name = "app", .type = AD_ARG_STRING,
     .help = "Send the keys to this application (default: focused window)."},
    {.name = "window-id", .type = AD_ARG_STRING,
     .help = "Target the instance that owns this window."},
    {.name = "force", .type = AD_ARG_BOOL,
     .help = "Send a combo the platform blocks as dangerous."},
    {0},
};

const ad_arg_spec ad_args_hover[] = {
    {.name = "ref_id", .type = AD_ARG_STRING, .positional = true,
     .help = "Qualified ref; wins over --xy."},
    {.name = "xy", .type = AD_ARG_STRING,
     .help = "Absolute coordinates X,Y; one of REF or --xy is required."},
    {.name = "duration", .type = AD_ARG_INT,
     .help = "Reserved; a positive value is rejected."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "5000", .min = 0,
     .max = AD_DURATION_MAX_MS, .help = "Budget for the ref to resolve and become actionable."},
    {0},
};

const ad_arg_spec ad_args_drag[] = {
    {.name = "from", .type = AD_ARG_STRING, .help = "Source element ref."},
    {.name = "from-xy", .type = AD_ARG_STRING, .help = "Source point X,Y."},
    {.name = "to", .type = AD_ARG_STRING, .help = "Destination element ref."},
    {.name = "to-xy", .type = AD_ARG_STRING, .help = "Destination point X,Y."},
    {.name = "duration", .type = AD_ARG_INT, .min = 0, .max = 60000, .default_value = "300",
     .help = "Length of the movement in ms, at most 60000 (the platform's: 300 on Linux)."},
    {.name = "drop-delay", .type = AD_ARG_INT, .min = 0, .max = 10000, .default_value = "150",
     .help = "Hold over the destination before release, at most 10000 (150 on Linux)."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "5000", .min = 0,
     .max = AD_DURATION_MAX_MS, .help = "Budget for the whole gesture."},
    {.name = "wait-for-scope", .type = AD_ARG_ENUM, .default_value = "to", .choices = "to|from",
     .help = "Which endpoint's window a post-action --wait-for polls."},
    {0},
};

const ad_arg_spec ad_args_mouse_move[] = {
    {.name = "xy", .type = AD_ARG_STRING, .required = true, .help = "Absolute coordinates X,Y."},
    {0},
};

const ad_arg_spec ad_args_mouse_click[] = {
    {.name = "xy", .type = AD_ARG_STRING, .required = true, .help = "Absolute coordinates X,Y."},
    {.name = "button", .type = AD_ARG_ENUM, .default_value = "left",
     .choices = "left|right|middle", .help = "Mouse button."},
    {.name = "count", .type = AD_ARG_INT, .default_value = "1", .min = 1, .max = 100,
     .help = "Clicks, 1 to 100."},
    {.name = "modifiers", .type = AD_ARG_STRING_LIST,
     .help = "Modifier held during the click: shift, meta, ctrl, alt; repeatable."},
    {0},
};

const ad_arg_spec ad_args_mouse_down[] = {
    {.name = "xy", .type = AD_ARG_STRING, .required = true, .help = "Absolute coordinates X,Y."},
    {.name = "button", .type = AD_ARG_ENUM, .default_value = "left",
     .choices = "left|right|middle", .help = "Mouse button."},
    {.name = "modifiers", .type = AD_ARG_STRING_LIST,
     .help = "Modifier held with the button; repeatable."},
    {0},
};

const ad_arg_spec ad_args_mouse_up[] = {
    {.name = "xy", .type = AD_ARG_STRING, .required = true, .help = "Absolute coordinates X,Y."},
    {.name = "button", .type = AD_ARG_ENUM, .default_value = "left",
     .choices = "left|right|middle", .help = "Mouse button."},
    {0},
};

const ad_arg_spec ad_args_mouse_wheel[] = {
    {.name = "x", .type = AD_ARG_INT, .required = true, .min = AD_SIGNED_MIN,
     .max = AD_SIGNED_MAX, .help = "Absolute x coordinate."},
    {.name = "y", .type = AD_ARG_INT, .required = true, .min = AD_SIGNED_MIN,
     .max = AD_SIGNED_MAX, .help = "Absolute y coordinate."},
    {.name = "dy", .type = AD_ARG_INT, .min = AD_SIGNED_MIN, .max = AD_SIGNED_MAX,
     .help = "Vertical lines, positive scrolls up (default -3 when --dx is 0, else 0)."},
    {.name = "dx", .type = AD_ARG_INT, .default_value = "0", .min = AD_SIGNED_MIN,
     .max = AD_SIGNED_MAX, .help = "Horizontal lines, positive scrolls right."},
    {.name = "modifiers", .type = AD_ARG_STRING_LIST,
     .help = "Modifier held during the scroll; repeatable."},
    {0},
};

const ad_arg_spec ad_args_list_notifications[] = {
    {.name = "app", .type = AD_ARG_STRING,
     .help = "Only notifications from this app, ignoring case."},
    {.name = "text", .type = AD_ARG_STRING, .help = "Only notifications that contain this text."},
    {.name = "limit", .type = AD_ARG_INT, .help = "Maximum number returned (default: no limit)."},
    {0},
};

const ad_arg_spec ad_args_dismiss_notification[] = {
    {.name = "index", .type = AD_ARG_INT, .positional = true, .required = true, .min = 1,
     .max = AD_SIGNED_MAX, .help = "1-based index from list-notifications."},
    {.name = "expected-app", .type = AD_ARG_STRING,
     .help = "The app the notification at INDEX must have."},
    {.name = "expected-title", .type = AD_ARG_STRING,
     .help = "The title the notification at INDEX must have."},
    {.name = "app", .type = AD_ARG_STRING,
     .help = "Require the notification to come from this app."},
    {0},
};

const ad_arg_spec ad_args_dismiss_all_notifications[] = {
    {.name = "app", .type = AD_ARG_STRING, .help = "Only dismiss notifications from this app."},
    {0},
};

const ad_arg_spec ad_args_notification_action[] = {
    {.name = "index", .type = AD_ARG_INT, .positional = true, .required = true, .min = 1,
     .max = AD_SIGNED_MAX, .help = "1-based index from list-notifications."},
    {.name = "action", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "Name of the action button, from the notification's actions."},
    {.name = "expected-app", .type = AD_ARG_STRING,
     .help = "The app the notification at INDEX must have."},
    {.name = "expected-title", .type = AD_ARG_STRING,
     .help = "The title the notification at INDEX must have."},
    {.name = "app", .type = AD_ARG_STRING,
     .help = "Require the notification to come from this app."},
    {0},
};

const ad_arg_spec ad_args_clipboard_get[] = {
    {.name = "format", .type = AD_ARG_ENUM, .default_value = "text",
     .choices = "text|auto|image|file-urls", .help = "What to read from the clipboard."},
    {.name = "out", .type = AD_ARG_STRING,
     .help = "Where to write image content (default: a private file in the state root)."},
    {0},
};

const ad_arg_spec ad_args_clipboard_set[] = {
    {.name = "text", .type = AD_ARG_STRING, .positional = true, .max_bytes = 128 * 1024,
     .default_value = "", .help = "Text to write."},
    {.name = "stdin", .type = AD_ARG_BOOL, .front_end = true, .fills = "text",
     .help = "Read up to 128 KiB of text from a pipe or file."},
    {.name = "image", .type = AD_ARG_STRING, .help = "A PNG file of at most 64 MiB."},
    {.name = "file-url", .type = AD_ARG_STRING_LIST,
     .help = "A file path to write as a file reference; repeatable."},
    {0},
};

const ad_arg_spec ad_args_wait[] = {
    {.name = "ms", .type = AD_ARG_INT, .positional = true, .min = 0, .max = 86400000,
     .help = "Pause for this many milliseconds, at most 86400000."},
    {.name = "element", .type = AD_ARG_STRING,
     .help = "Wait until the element behind this ref satisfies --predicate."},
    {.name = "predicate", .type = AD_ARG_ENUM, .default_value = "exists",
     .choices = "exists|enabled|visible|actionable|value",
     .help = "Element predicate (default exists); requires --element."},
    {.name = "value", .type = AD_ARG_STRING, .help = "Expected value for --predicate value."},
    {.name = "action", .type = AD_ARG_ENUM, .choices = "click|type|set-value|clear",
     .default_value = "click",
     .help = "Action for --predicate actionable (default click)."},
    {.name = "window", .type = AD_ARG_STRING,
     .help = "Wait for a window whose title contains this text."},
    {.name = "text", .type = AD_ARG_STRING,
     .help = "Wait until this text appears in the app's tree."},
    {.name = "count", .type = AD_ARG_INT, .help = "For --text: wait until exactly N nodes match."},
    {.name = "menu", .type = AD_ARG_BOOL, .help = "Wait until a menu surface is open."},
    {.name = "menu-closed", .type = AD_ARG_BOOL, .help = "Wait until a menu is dismissed."},
    {.name = "notification", .type = AD_ARG_BOOL,
     .help = "Wait until a new notification arrives."},
    {.name = "event", .type = AD_ARG_ENUM,
     .choices = "window-opened|window-closed|app-launched|app-terminated|focus-changed|"
                "surface-appeared|surface-dismissed",
     .help = "Wait for a lifecycle signal."},
    {.name = "window-id", .type = AD_ARG_STRING,
     .help = "Narrow a window or focus event to one window."},
    {.name = "app", .type = AD_ARG_STRING, .help = "Scope the wait to one application."},
    {.name = "timeout", .type = AD_ARG_INT, .default_value = "30000", .min = 0,
     .max = AD_DURATION_MAX_MS,
     .help = "Timeout in ms for every mode except MS, at most 86400000."},
    {0},
};

const ad_arg_spec ad_args_permissions[] = {
    {.name = "request", .type = AD_ARG_BOOL,
     .help = "Ask the OS to prompt for missing permissions."},
    {.name = "guide", .type = AD_ARG_BOOL,
     .help = "macOS only: open System Settings with an on-screen guide."},
    {0},
};

const ad_arg_spec ad_args_skills[] = {
    {.name = "action", .type = AD_ARG_ENUM, .positional = true, .default_value = "list",
     .choices = "list|get|path", .help = "Subcommand."},
    {.name = "name", .type = AD_ARG_STRING, .positional = true, .only_for = "get",
     .help = "Skill name for get."},
    {.name = "reference", .type = AD_ARG_STRING, .positional = true, .only_for = "get",
     .help = "Reference within the skill, for get."},
    {.name = "full", .type = AD_ARG_BOOL, .only_for = "get",
     .help = "get: print the skill with its references."},
    {0},
};

const ad_arg_spec ad_args_session[] = {
    {.name = "action", .type = AD_ARG_ENUM, .positional = true, .required = true,
     .choices = "start|end|list|gc", .help = "Subcommand."},
    {.name = "id", .type = AD_ARG_STRING, .positional = true, .only_for = "end",
     .help = "end: session to end (default: the active session)."},
    {.name = "name", .type = AD_ARG_STRING, .only_for = "start", .max_bytes = 128,
     .help = "start: a label of 1 to 128 bytes."},
    {.name = "no-trace", .type = AD_ARG_BOOL, .only_for = "start",
     .help = "start: create the session without tracing."},
    {.name = "screenshots", .type = AD_ARG_BOOL, .only_for = "start",
     .help = "start: capture pre- and post-action screenshots; requires tracing."},
    {.name = "cursor", .type = AD_ARG_BOOL, .only_for = "start",
     .help = "start: enable the cursor overlay."},
    {.name = "multi-agent", .type = AD_ARG_BOOL, .only_for = "start",
     .help = "start: give each subagent its own cursor; requires --cursor."},
    /* At most 100 years, so SECONDS * 1000 stays far inside an int64. */
    {.name = "older-than", .type = AD_ARG_INT, .only_for = "gc", .min = 0,
     .max = 3155760000,
     .help = "gc: remove only sessions older than this many seconds."},
    {.name = "ended", .type = AD_ARG_BOOL, .only_for = "gc",
     .help = "gc: remove ended sessions even if they wrote recently."},
    {0},
};

const ad_arg_spec ad_args_cursor_overlay[] = {
    {.name = "action", .type = AD_ARG_ENUM, .positional = true, .required = true,
     .choices = "enable|disable", .help = "Subcommand."},
    /* The style flags belong to enable; their values are checked by ad_overlay_args_check
     * (core/overlay_style.h), which also defines the defaults given here. */
    {.name = "multi-agent", .type = AD_ARG_BOOL, .only_for = "enable",
     .help = "Require an agent id for desktop actions."},
    {.name = "label", .type = AD_ARG_STRING, .only_for = "enable", .max_bytes = 512,
     .help = "Intent text beside the cursor, 1 to 12 words."},
    {.name = "max-words", .type = AD_ARG_INT, .min = 1, .max = 12, .only_for = "enable",
     .default_value = AD_OVERLAY_MAX_WORDS,
     .help = "Words of --label shown, 1 to 12 (default 6)."},
    {.name = "accent", .type = AD_ARG_STRING, .only_for = "enable",
     .default_value = AD_OVERLAY_ACCENT,
     .help = "Cursor, ripple, outline and caret color HEX (default #4299FF)."},
    {.name = "fill", .type = AD_ARG_STRING, .only_for = "enable",
     .help = "Cursor body color HEX (default: accent)."},
    {.name = "rim", .type = AD_ARG_STRING, .only_for = "enable", .default_value = AD_OVERLAY_RIM,
     .help = "Cursor outline color HEX (default #111318)."},
    {.name = "size", .type = AD_ARG_STRING, .only_for = "enable",
     .default_value = AD_OVERLAY_SIZE, .help = "Size multiplier, 0.5 to 4.0 (default 1.0)."},
    {.name = "no-ripple", .type = AD_ARG_BOOL, .only_for = "enable",
     .help = "Turn off the click ripple."},
    {.name = "no-highlight", .type = AD_ARG_BOOL, .only_for = "enable",
     .help = "Turn off the element outline."},
    {.name = "image", .type = AD_ARG_STRING, .only_for = "enable",
     .help = "Draw the cursor from this PNG (at most 2 MiB, 1024 px per side)."},
    {.name = "hotspot", .type = AD_ARG_STRING, .only_for = "enable",
     .help = "Click point X,Y of --image."},
    {.name = "pointer-image", .type = AD_ARG_STRING, .only_for = "enable",
     .help = "PNG shown over pressable controls."},
    {.name = "pointer-hotspot", .type = AD_ARG_STRING, .only_for = "enable",
     .help = "Click point X,Y of --pointer-image."},
    {.name = "travel-ms", .type = AD_ARG_STRING, .only_for = "enable",
     .default_value = AD_OVERLAY_TRAVEL_MS,
     .help = "Travel time range MIN,MAX for short to long moves (default 90,320)."},
    {.name = "bow", .type = AD_ARG_STRING, .only_for = "enable", .default_value = AD_OVERLAY_BOW,
     .help = "Path curvature, 0 to 3 (default 1)."},
    {.name = "overshoot", .type = AD_ARG_STRING, .only_for = "enable",
     .default_value = AD_OVERLAY_OVERSHOOT,
     .help = "Overshoot fraction, 0 to 0.15 (default 0.035)."},
    {.name = "tremor", .type = AD_ARG_STRING, .only_for = "enable",
     .default_value = AD_OVERLAY_TREMOR, .help = "Tremor in points, 0 to 4 (default 1.1)."},
    {.name = "dwell-ms", .type = AD_ARG_INT, .min = 0, .max = 300, .only_for = "enable",
     .default_value = AD_OVERLAY_DWELL_MS,
     .help = "Pause on the target before the action, 0 to 300 (default 0)."},
    {.name = "motion-seed", .type = AD_ARG_INT, .only_for = "enable",
     .help = "Vary each move deterministically."},
    {0},
};

const ad_arg_spec ad_args_trace[] = {
    {.name = "action", .type = AD_ARG_ENUM, .positional = true, .required = true,
     .choices = "show|export", .help = "Subcommand."},
    {.name = "limit", .type = AD_ARG_INT, .action_defaults = "show=500|export=5000",
     .help = "Last N events; 0 means all."},
    {.name = "event", .type = AD_ARG_STRING, .only_for = "show",
     .help = "show: keep only events whose name starts with this prefix."},
    {.name = "out", .type = AD_ARG_STRING, .only_for = "export",
     .help = "export: output path for the HTML viewer (default: in the session directory)."},
    {0},
};

const ad_arg_spec ad_args_batch[] = {
    {.name = "json", .type = AD_ARG_STRING, .positional = true, .required = true,
     .help = "A JSON array of entries."},
    {.name = "stop-on-error", .type = AD_ARG_BOOL,
     .help = "Halt after the first entry that fails."},
    {.name = "timeout-ms", .type = AD_ARG_INT, .default_value = "60000", .min = 0,
     .max = AD_DURATION_MAX_MS,
     .help = "Wall-clock budget for the whole batch, at most 86400000; each entry's own "
             "deadlines are capped by what remains."},
    {0},
};
