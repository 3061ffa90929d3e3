/* adapter.h: the only door from core to an operating system.
 *
 * An adapter is a vtable plus private state. Every result crosses as evidence: apps and
 * windows with process identity, trees of ad_node with tri-state fields, and a completeness
 * flag saying whether the read was whole. An adapter never turns "could not read" into
 * "absent". Lists and trees returned through ret_* belong to the caller and are released
 * with the matching ad_*_free function below.
 */
#ifndef AD_ADAPTER_H
#define AD_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/node.h"

typedef struct {
    char *name;             /* what --app matches: the toolkit's application name */
    char *bundle_id;        /* desktop entry id without .desktop, or NULL */
    char *desktop_name;     /* desktop entry Name=, or NULL */
    int pid;                /* 0 when unknown */
    char *process_instance; /* "<boot id prefix>:<start time>", or NULL when unknown */
    bool background;        /* no ordinary window */
    char *handle;           /* adapter-private (the app's bus name) */
} ad_app;

/* An app the inventory could not read: unknown, never absent. */
typedef struct {
    char *handle;       /* adapter-private (the app's bus name) */
    int pid;            /* 0 when unknown */
    char *executable;   /* the process's executable name, or NULL when unknown */
    const char *reason; /* static: "unresponsive" (silent past its own answer budget) or
                         * "deadline" (the command's deadline came first) */
} ad_app_skip;

typedef struct {
    ad_app *items;
    size_t count;
    bool complete;        /* false when an app could not be read (see skipped) */
    ad_app_skip *skipped; /* the apps that were not read */
    size_t n_skipped;
} ad_app_list;

typedef struct {
    char *id;    /* opaque, stable for the window's life: "w-..." */
    char *title; /* NULL when the window has no title */
    char *app_name;
    int pid;
    char *process_instance;
    bool bounds_known;
    ad_rect bounds;
    bool is_focused, minimized, visible, accessible;
    /* static: "window", "dialog", "alert" or "menu" (a top level that only carries a popup
     * menu, such as a GTK3 context menu) or "shell" (an open OS shell surface, which no
     * application owns: ad_shell_surface); NULL counts as "window" */
    const char *kind;
    bool modal;       /* a modal dialog: a sheet */
} ad_window;

typedef struct {
    ad_window *items;
    size_t count;
    size_t unanswered;   /* apps whose windows could not be read before the deadline */
    size_t unresponsive; /* of those, apps that stayed silent past their own budget */
} ad_window_list;

/* Limits for one tree read (platforms/linux.md; DESIGN.md). */
typedef struct {
    int max_raw_depth;        /* 50 */
    size_t max_edges;         /* 100000 */
    size_t max_children;      /* 4096 per node */
    size_t max_field_bytes;   /* 65536 */
    size_t max_nodes;         /* 50000 */
    int64_t deadline_us;      /* CLOCK_MONOTONIC microseconds */
    /* Read bounds of every node; otherwise only of nodes that earn a ref (the rest keep
     * bounds absent-by-choice: AD_FIELD_UNKNOWN is never used for a field not asked for). */
    bool all_bounds;
    /* Callers that select a window before the read (core/surface.c) use
     * max(deadline_us, select_floor_us) for the selection; 0 means deadline_us. */
    int64_t select_floor_us;
    /* When set, an element's native id (AT-SPI AccessibleId: one call per element) is read
     * only where native_id_needed(node, native_id_ud) answers true, asked once every other
     * field of the read is in; the others keep native_id_unread (core/node.h). For a caller
     * that compares identities against known wants only (core/resolve.c); NULL reads all. */
    bool (*native_id_needed)(const ad_node *n, void *native_id_ud);
    void *native_id_ud;
} ad_read_limits;

typedef struct {
    ad_node *root;
    size_t nodes_observed;
    bool complete;          /* every node read, nothing cut */
    const char *cut_reason; /* static: "deadline", "node_limit", "depth_limit", ... or NULL */
    /* The screen the bounds are in (X11: the root window, every monitor), read with the
     * tree; screen_state is AD_FIELD_KNOWN only when the adapter could read it. Visibility
     * needs an element to intersect it (core/visibility.h). */
    ad_field_state screen_state;
    ad_rect screen;
    /* The window's place on the screen is unknown: every bound is AD_FIELD_WINDOW_RELATIVE
     * and `screen` is the window's own rectangle in that space, so "visible" means inside
     * its window (core/visibility.h). */
    bool screen_is_window;
} ad_tree;

typedef struct {
    bool available;       /* the accessibility service answered */
    char *detail;         /* raw platform error when unavailable, or NULL */
    char *suggestion;     /* what a person can do, or NULL */
    bool timed_out;       /* unavailable because it did not answer by the deadline: unknown */
} ad_health;


/* launch (commands/app-window.md): what APP names, resolved by the adapter. */
typedef struct {
    char *program;    /* absolute path of the executable to start */
    char *name;       /* what a running instance is matched by (--app): the command's base
                       * name, or the desktop id when APP named a desktop entry */
    char *desktop_id; /* the desktop entry APP named (file name without .desktop), or NULL */
    /* What the desktop entry adds, NULL-terminated and owned, or NULL: its "KEY=VALUE"
     * environment (Exec=env KEY=VALUE prog; --env overrides a key) and the arguments of its
     * Exec= line (before --arg). */
    char **env;
    char **args;
} ad_launch_target;

typedef struct {
    const json_t *args; /* array of strings for the app, in order, or NULL */
    const json_t *env;  /* array of "KEY=VALUE" strings, or NULL */
    const char *cwd;    /* working directory, or NULL */
} ad_launch_req;
/* One display (a RandR monitor on X11), in root-window pixels. */
typedef struct {
    char *id;        /* the monitor's name ("screen" on Xvfb), owned */
    ad_rect bounds;
    double scale;    /* device pixels per logical pixel: 1.0 on X11 */
    bool is_primary;
} ad_display;

typedef struct {
    ad_display *items; /* primary first, owned */
    size_t count;
} ad_display_list;

/* A captured picture: 8-bit RGB, rows packed top to bottom (width * 3 bytes each). */
typedef struct {
    int x, y;           /* the screen point of pixel (0, 0) */
    int width, height;
    unsigned char *rgb; /* owned; free with ad_image_clear */
} ad_image;

/* An OS shell surface (surfaces.md: action-center, system-tray, ...): open, with the window
 * it presents, or closed, with the point where a click opens it. */
typedef struct {
    bool open;
    ad_window window;     /* open: the surface as a list-windows row; owned */
    bool opener_known;    /* closed: a pointer click at (opener_x, opener_y) opens it */
    int opener_x, opener_y;
} ad_shell_surface;

/* One change an application signalled (an AT-SPI event on Linux), kept as evidence for
 * --observe (core/observe.h). No payload is kept: a text-changed event of a password field
 * would carry what was typed; what changed is read from the tree instead. */
typedef struct {
    /* static: "state-changed", "children-changed", "property-change", "text-changed",
     * "active-descendant-changed", "window-create", "window-destroy", "window-activate",
     * "window-deactivate", "window-minimize", "window-restore" */
    const char *kind;
    char detail[40]; /* a state ("checked"), "add"/"remove", "insert"/"delete", a property
                      * ("accessible-name"); "" when the event names none */
    int value;       /* state-changed: 1 set, 0 cleared; else 0 */
    char *address;   /* the source element as ad_node.address spells it (owned), or NULL */
} ad_change_event;

typedef struct {
    ad_change_event *items; /* owned, in the order they arrived */
    size_t count;
    size_t dropped; /* seen but not kept: the adapter keeps a bounded record */
} ad_change_events;

typedef struct ad_adapter ad_adapter;

/* A semantic action on one element of a live read (its ad_node carries the address). */
typedef enum {
    AD_ACT_CLICK,       /* the primary action (press, click, activate) */
    AD_ACT_RIGHT_CLICK, /* the context-menu action */
    AD_ACT_TOGGLE,      /* the check/toggle action */
    AD_ACT_EXPAND,      /* expand (or the toggle-style expander) */
    AD_ACT_COLLAPSE,
    AD_ACT_SET_TEXT,    /* replace the text content */
    AD_ACT_INSERT_TEXT, /* insert at the caret */
    AD_ACT_SET_NUMBER,  /* a Value's current value */
    AD_ACT_SELECT,      /* pick the child whose name is `text` */
    AD_ACT_SCROLL_TO,   /* bring the element into view */
    AD_ACT_GRAB_FOCUS,  /* keyboard focus to the element (its window must be active) */
} ad_act_kind;

typedef struct {
    ad_act_kind kind;
    const char *text; /* SET_TEXT, INSERT_TEXT, SELECT */
    double number;    /* SET_NUMBER */
    int64_t deadline_us; /* every call of the action ends by then; 0: the adapter's default */
} ad_act_req;

/* One mechanism tried. label is the API call ("Action.DoAction"). */
typedef struct {
    char label[48];
    const char *mechanism; /* "semantic_api" or "physical_synthetic" (static) */
    const char *outcome;   /* "attempted", "skipped" or "succeeded" (static) */
} ad_act_step;

/* Physical (synthesized) input, for --headed and the mouse and keyboard commands. */
typedef enum {
    AD_PHYS_CLICK, /* button `button` `count` times at (x, y) */
    AD_PHYS_MOVE,  /* pointer to (x, y) */
    AD_PHYS_WHEEL, /* dx, dy wheel clicks at (x, y) */
    AD_PHYS_DRAG,  /* press at (x, y), move to (x2, y2) over duration_ms, hold hold_ms */
    AD_PHYS_KEYS,  /* the key combo `combo` */
    AD_PHYS_TEXT,  /* `text` as key events */
    AD_PHYS_FOCUS, /* focus focus_window_id only */
} ad_phys_kind;

typedef struct {
    ad_phys_kind kind;
    const char *focus_window_id;  /* focus (and verify) this window first, or NULL */
    const char *verify_window_id; /* (x, y) must show this window, or NULL for raw points */
    const char *require_active_window_id; /* refuse unless this window is already active */
    /* That window as the caller already read it (list_windows / window_lookup: its pid,
     * title and bounds), so the adapter need not look it up again; NULL: unknown. Borrowed. */
    const ad_window *window;
    bool popup_ok; /* verify_window_id's popups of the same process count too (hit_test) */
    int x, y, x2, y2;
    int button, count; /* 1 left, 2 middle, 3 right */
    int dx, dy;
    int duration_ms, hold_ms;
    const json_t *modifiers; /* array of names held during a click or wheel, or NULL */
    const char *combo, *text;
} ad_phys_req;

typedef struct {
    ad_act_step steps[4];
    size_t n_steps;
    ad_delivery delivery; /* what the dispatch established */
    bool has_point;       /* pointer input went to (x, y) */
    int x, y;
    int events;           /* input events delivered, for physical input */
} ad_act_result;

/* A window operation (focus-window, move-window, resize-window, minimize, maximize,
 * restore; app-window.md). */
typedef enum {
    AD_WIN_FOCUS,
    AD_WIN_MOVE,     /* x, y: the window's top-left, as list-windows bounds report it */
    AD_WIN_RESIZE,   /* width, height: the size of those bounds */
    AD_WIN_MINIMIZE,
    AD_WIN_MAXIMIZE,
    AD_WIN_RESTORE,
} ad_win_op;

typedef struct {
    ad_win_op op;
    int x, y, width, height;
    int64_t deadline_us; /* the read-back waits for the window manager until then */
} ad_win_req;

/* A window as the window system reads it back. bounds is the rectangle list-windows reports
 * for the window (and a screenshot of it captures). */
typedef struct {
    bool known;
    ad_rect bounds;
    bool hidden, maximized_horizontal, maximized_vertical;
} ad_win_state;

typedef struct {
    ad_win_state observed;  /* after the request: the last read before it held or timed out */
    bool reached;           /* observed satisfied ad_win_state_reached before the deadline */
    char label[48];         /* the request sent, e.g. "EWMH._NET_MOVERESIZE_WINDOW" (the
                             * trace's window.op event); "none" when nothing was needed */
    ad_window focused;      /* AD_WIN_FOCUS: the window that holds the focus afterwards (a
                             * modal dialog of the target counts); owned, ad_window_clear */
} ad_win_result;
/* What the clipboard holds or should hold: one representation (commands/clipboard.md). */
typedef enum { AD_CLIP_TEXT, AD_CLIP_IMAGE, AD_CLIP_FILE_URLS } ad_clip_kind;
/* What clipboard_read looks for; AUTO takes file references, then an image, then text. */
typedef enum { AD_CLIP_WANT_TEXT, AD_CLIP_WANT_IMAGE, AD_CLIP_WANT_FILE_URLS,
               AD_CLIP_WANT_AUTO } ad_clip_want;

typedef struct {
    ad_clip_kind kind;
    char *data;        /* TEXT: UTF-8 text; IMAGE: the PNG bytes (owned; may hold NULs) */
    size_t len;
    char **file_urls;  /* FILE_URLS: "file://" URLs (owned) */
    size_t n_file_urls;
} ad_clip_content;

/* One notification on the OS notification surface (commands/notifications.md), as the
 * shell's accessibility tree shows it. Strings owned (ad_notification_surface_clear). */
typedef struct {
    char *app_name;      /* NULL: the surface does not show which app sent it */
    char *title;         /* NULL when it has none */
    char *body;          /* NULL when empty */
    char **actions;      /* the action buttons' labels, as shown now */
    ad_rect *action_at;  /* where each is on the screen, n_actions entries */
    size_t n_actions;
    bool on_screen;      /* showing now, at `bounds` (screen coordinates) */
    ad_rect bounds;
    bool close_known;    /* its close button is showing, at `close` */
    ad_rect close;
} ad_notification;

typedef struct {
    ad_notification *items; /* the list, in the surface's order (index 1 is items[0]) */
    size_t count;
    bool has_banner;        /* a banner (a pop-up copy of one of the items) is showing */
    ad_notification banner;
    bool toggle_known;      /* the control that opens the list is showing, at `toggle` */
    ad_rect toggle;
} ad_notification_surface;

typedef struct {
    const char *platform; /* "linux" */
    /* Connects lazily; never fails for an unreachable service (reports it instead). Ends by
     * deadline_us: a service silent until then is unavailable with timed_out. */
    void (*health)(ad_adapter *a, int64_t deadline_us, ad_health *ret);
    /* Surfaces this adapter can read, NULL-terminated static list. */
    const char *const *(*supported_surfaces)(ad_adapter *a);
    int (*list_apps)(ad_adapter *a, int64_t deadline_us, ad_app_list *ret, ad_error *err);
    /* Windows of the given apps (all apps when apps is NULL). */
    int (*list_windows)(ad_adapter *a, const ad_app_list *apps, int64_t deadline_us,
                        ad_window_list *ret, ad_error *err);
    /* Process identity of a window id still alive: fills pid/instance, or fails with
     * WINDOW_NOT_FOUND (window gone, process alive) or STALE_REF-worthy evidence. */
    int (*window_lookup)(ad_adapter *a, const char *window_id, int64_t deadline_us,
                         ad_window *ret, ad_error *err);
    /* True while the process with this pid and instance token runs (a reused pid is not). */
    bool (*process_alive)(ad_adapter *a, int pid, const char *process_instance);
    /* Reads a window's whole tree within limits. A cut read is success with complete=false. */
    int (*read_window)(ad_adapter *a, const char *window_id, const ad_read_limits *lim,
                       ad_tree *ret, ad_error *err);
    /* Performs a semantic action on `target` (a node of a read from this adapter). Fills the
     * steps and the delivery; on failure the error's delivery says whether anything went in:
     * a refusal before the call is not_delivered, a call without an answer is uncertain. */
    int (*act)(ad_adapter *a, const ad_node *target, const ad_act_req *req,
               ad_act_result *ret, ad_error *err);
    /* Physical input. Errors before any event is sent are not_delivered; a failure in the
     * middle is delivery_uncertain. ACTION_NOT_SUPPORTED cause wayland_session on Wayland. */
    int (*physical)(ad_adapter *a, const ad_phys_req *req, int64_t deadline_us,
                    ad_act_result *ret, ad_error *err);
    /* Ends what physical text input left pending: keys an X11 adapter remapped for
     * characters outside the keymap are put back, at once when `seen` (the caller read the
     * text in the application), else after a settle delay. NULL when nothing is pending. */
    void (*settle_input)(ad_adapter *a, bool seen);
    /* The active top-level window: its pid and title (caller frees), 0/NULL when none. */
    int (*active_window)(ad_adapter *a, int *ret_pid, char **ret_title, ad_error *err);
    /* Does window_id receive pointer events at (x, y)? 1 yes, 0 covered (then *ret_occluder,
     * when non-NULL, describes what covers it: a new object with "pid", "window" and "popup",
     * true for a window the window manager never stacks, such as a menu), -1 error. Sends
     * nothing.
     * popup_ok: the target sits in an open menu or list popup, which may show in a popup
     * window of the same process instead of window_id itself. */
    int (*hit_test)(ad_adapter *a, const char *window_id, int x, int y, bool popup_ok,
                    json_t **ret_occluder, ad_error *err);
    /* Checks a key combo without sending it (INVALID_ARGS with a suggestion when bad). */
    int (*parse_combo)(ad_adapter *a, const char *combo, ad_error *err);
    /* Change wake-ups for waits. watch_changes arms a watch on the app that owns window_id
     * (any app when NULL), best effort; wait_change then returns 1 as soon as that app
     * signals a change, or 0 at until_us. Without a watch it just waits until until_us.
     * Arming (and connecting) ends by deadline_us. */
    void (*watch_changes)(ad_adapter *a, const char *window_id, int64_t deadline_us);
    int (*wait_change)(ad_adapter *a, int64_t until_us);
    /* The change events the watch armed by watch_changes recorded since the previous call
     * (since it was armed, for the first), after dispatching what is already queued on the
     * connection. 1 with *ret filled (the caller's: ad_change_events_clear), 0 when no watch
     * is armed: events are unavailable and *ret stays empty. NULL: none on this platform. */
    int (*take_changes)(ad_adapter *a, ad_change_events *ret);
    /* Performs a window operation on `target` (a window from list_windows or window_lookup)
     * and reads it back until ad_win_state_reached (core/window_op.h) holds for req or
     * req->deadline_us passes; ret->reached says which. A window that is no longer the one
     * target names (another process, gone) fails with STALE_REF before anything is sent;
     * a refused request is ACTION_FAILED. NULL: not in this build. */
    int (*window_op)(ad_adapter *a, const ad_window *target, const ad_win_req *req,
                     ad_win_result *ret, ad_error *err);
    /* ---- apps (launch, close-app). Any of these may be NULL: the command then fails
     * closed with PLATFORM_NOT_SUPPORTED. ---- */
    /* Resolves APP (an absolute path, a desktop id, a desktop entry name, a command on PATH)
     * to a verified executable; APP_NOT_FOUND otherwise. ret is the caller's
     * (ad_launch_target_clear). */
    int (*launch_resolve)(ad_adapter *a, const char *app, ad_launch_target *ret, ad_error *err);
    /* Starts t->program with req's arguments, environment and directory, detached from us (its
     * own session, stdio on /dev/null), and returns its pid and process instance token (the
     * caller's; NULL when it already exited) once the exec happened. */
    int (*launch_spawn)(ad_adapter *a, const ad_launch_target *t, const ad_launch_req *req,
                        int *ret_pid, char **ret_instance, ad_error *err);
    /* The parent pid of pid, 0 when unknown (a launcher script's child registers). */
    int (*process_parent)(ad_adapter *a, int pid);
    /* True when the pid's executable is a Chromium or Electron build. */
    bool (*is_chromium)(ad_adapter *a, int pid);
    /* Why the process must never be closed (a static phrase: "the init process", "the
     * display server", ...), or NULL when it may be. */
    const char *(*protected_process)(ad_adapter *a, int pid);
    /* Asks every top-level window of pid to close (the window manager's close request);
     * *ret_count is how many were asked. ACTION_NOT_SUPPORTED without a window system. */
    int (*close_windows)(ad_adapter *a, int pid, int *ret_count, ad_error *err);
    /* Sends the terminate (kill false) or kill signal to the process pid while it still has
     * that instance token. */
    int (*signal_process)(ad_adapter *a, int pid, const char *process_instance, bool kill,
                          ad_error *err);
    /* A free loopback TCP port (*ret_port), or whether `port` is bound on loopback (1 bound,
     * 0 free) when port > 0. */
    int (*loopback_port)(ad_adapter *a, int port, int *ret_port, ad_error *err);
    /* GET http://127.0.0.1:port/json/version by deadline_us: the parsed JSON body (a new
     * reference the caller owns), or -1 (nothing answered). */
    int (*cdp_version)(ad_adapter *a, int port, int64_t deadline_us, json_t **ret,
                       ad_error *err);
    /* The clipboard. clipboard_read returns 1 with *ret filled (the caller clears it with
     * ad_clip_content_clear), 0 when the clipboard holds nothing in the wanted form, -1 with
     * err. clipboard_write returns 0 only once the content is served by a process that
     * outlives the command and reads back equal; clipboard_clear once the clipboard has no
     * owner. PLATFORM_NOT_SUPPORTED when a platform helper is missing. NULL: not built. */
    int (*clipboard_read)(ad_adapter *a, ad_clip_want want, int64_t deadline_us,
                          ad_clip_content *ret, ad_error *err);
    int (*clipboard_write)(ad_adapter *a, const ad_clip_content *content, int64_t deadline_us,
                           ad_error *err);
    int (*clipboard_clear)(ad_adapter *a, int64_t deadline_us, ad_error *err);
    /* The displays, primary first. NULL: this adapter cannot list them. */
    int (*list_displays)(ad_adapter *a, ad_display_list *ret, ad_error *err);
    /* Captures what the screen shows of `window` (its bounds from list_windows), or, with
     * window NULL, the screen rectangle `rect`. Never another window's pixels: a covered
     * window is ACTION_FAILED details.reason "covered" where the platform cannot see under
     * it, and a display it cannot read truthfully PLATFORM_NOT_SUPPORTED. NULL: none. */
    int (*capture)(ad_adapter *a, const ad_window *window, const ad_rect *rect,
                   ad_image *ret, ad_error *err);
    /* One request (borrowed; the adapter adds what it routes by) to the cursor overlay's
     * presentation service, core/overlay_session.h lists them. 0 with *ret_reply (a new
     * reference); 1 when start_service is false and no service runs (so nothing is drawn);
     * -1 with err when it did not answer or refused. NULL: no overlay on this platform. */
    int (*overlay)(ad_adapter *a, json_t *req, bool start_service, int64_t deadline_us,
                   json_t **ret_reply, ad_error *err);
    /* Reads the notification surface (commands/notifications.md), headless and read-only.
     * PLATFORM_NOT_SUPPORTED, details daemon and detail, when no supported service owns the
     * platform's notifications. ret is the caller's (ad_notification_surface_clear). NULL:
     * no notifications on this platform. */
    int (*read_notifications)(ad_adapter *a, int64_t deadline_us, ad_notification_surface *ret,
                              ad_error *err);
    /* ---- OS shell surfaces (surfaces.md). NULL: this platform offers none. ---- */
    /* The shell kinds this session can resolve now, static strings into ret[0..cap); returns
     * how many (0 also when the shell could not be read: nothing unproved is offered). */
    size_t (*shell_surface_kinds)(ad_adapter *a, int64_t deadline_us, const char **ret,
                                  size_t cap);
    /* One shell surface, open or closed: 0 with *ret (ad_shell_surface_clear), -1 with err
     * (WINDOW_NOT_FOUND: the session has no such surface; TIMEOUT: unknown). Sends nothing. */
    int (*shell_surface)(ad_adapter *a, const char *kind, int64_t deadline_us,
                         ad_shell_surface *ret, ad_error *err);
    void (*destroy)(ad_adapter *a);
} ad_adapter_ops;

struct ad_adapter {
    const ad_adapter_ops *ops;
};

void ad_app_clear(ad_app *app);
void ad_app_list_clear(ad_app_list *l);
void ad_window_clear(ad_window *w);
void ad_window_list_clear(ad_window_list *l);
void ad_health_clear(ad_health *h);
void ad_launch_target_clear(ad_launch_target *t);
void ad_tree_clear(ad_tree *t);
void ad_clip_content_clear(ad_clip_content *c);
void ad_display_list_clear(ad_display_list *l);
void ad_image_clear(ad_image *img);
void ad_notification_clear(ad_notification *n);
void ad_notification_surface_clear(ad_notification_surface *s);
void ad_shell_surface_clear(ad_shell_surface *s);
void ad_change_events_clear(ad_change_events *e);
/* Deep copies (caller owns the result). */
int ad_app_copy(ad_app *dst, const ad_app *src);
int ad_window_copy(ad_window *dst, const ad_window *src);

/* The limits of DESIGN.md with the given deadline. */
ad_read_limits ad_read_limits_default(int64_t deadline_us);

#endif
