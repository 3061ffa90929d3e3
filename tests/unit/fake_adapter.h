/* fake_adapter.h: an in-memory ad_adapter for unit tests.
 *
 * Trees are ad_node trees built from a compact description:
 *
 *   fk("window|n=Calculator",
 *      fk("group",
 *         fk("button|n=7|id=calc_7|a=Click", NULL),
 *         fk("textfield|v=12|s=focused", NULL), NULL), NULL)
 *
 * The spec is the role (a canonical token) followed by '|'-separated attributes:
 *   n=NAME  d=DESCRIPTION  id=NATIVE_ID  v=VALUE     a known field (a toolkit class name
 *                                                    as n= is the toolkit class, as read)
 *   n?      d?             id?           v?          an unknown field (the read failed)
 *   a=ACTION (repeatable)  s=STATE (repeatable)      s? : the states could not be read
 *   b=X,Y,W,H  bounds      secure                    a password field
 *   checked?   a check box whose toolkit never reports its checked state
 *   b?         bounds that could not be read (GTK3's INT_MIN extents); a node that earns a
 *              ref and has neither reads as 10,10 20x20, as a real adapter reads its extents
 *   popup      a popup for another element (a GTK3 popover); popup? : that could not be read
 *   cap=focusable|expandable|selectable|checkable|editable (repeatable)
 *   cut=N      children_cut, with N live children reported
 * Every node's states are known (empty) unless s? is given. fk() returns a new tree the caller
 * owns; handing it to fake_add_window() moves it into the adapter.
 *
 * The adapter holds apps and windows ("w-fake-1", ...). Tests mutate fake_window.root and
 * the flags between calls; read_window returns a deep copy each time (the caller frees it),
 * with bounds only on ref-earning nodes unless the limits ask for all_bounds.
 */
#ifndef FAKE_ADAPTER_H
#define FAKE_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>

#include "platform/adapter.h"

/* ---- trees ------------------------------------------------------------------------------ */

ad_node *fk(const char *spec, ...) __attribute__((sentinel));
/* A deep copy of a subtree (parent links rebuilt, the copy's root has no parent). */
ad_node *fk_copy(const ad_node *n);
/* First node in document order with this role and name (NULL name: no known name). */
ad_node *fk_find(ad_node *root, const char *role, const char *name);
/* First node whose native id is `id`. */
ad_node *fk_find_id(ad_node *root, const char *id);
/* Detaches n from its parent (later siblings shift left) and frees it. */
void fk_remove(ad_node *n);
/* Detaches n from its parent without freeing it; the caller owns it again. */
ad_node *fk_detach(ad_node *n);
/* Inserts child at index (clamped to the end); ownership moves to parent. */
void fk_insert(ad_node *parent, size_t index, ad_node *child);
void fk_rename(ad_node *n, const char *name);

/* ---- the adapter ------------------------------------------------------------------------ */

typedef struct {
    ad_app app;   /* name, pid, process_instance ("boot:1"), ... */
    bool alive;   /* process_alive answers this (and compares the instance) */
    /* list_apps still lists it once it is not alive: the registry has not dropped an app
     * whose process exited a moment ago */
    bool listed_after_exit;
} fake_app;

typedef struct {
    ad_window w;            /* id "w-fake-N", title, app_name, pid, process_instance, flags */
    ad_node *root;          /* owned; mutate freely between calls */
    bool complete;          /* false: reads are cut (complete=false, cut_reason) */
    const char *cut_reason; /* static, e.g. "deadline" */
    bool closed;            /* window_lookup and read_window fail with WINDOW_NOT_FOUND */
} fake_window;

#define FAKE_MAX 16

typedef struct fake_adapter {
    ad_adapter base;
    fake_app apps[FAKE_MAX];
    size_t n_apps;
    fake_window wins[FAKE_MAX];
    size_t n_wins;
    bool bus_available;     /* health().available; false also fails list/read calls */
    bool bus_silent;        /* with !bus_available: health() reports timed_out (a stall) */
    int64_t health_deadline_us; /* the deadline the last health() call was given */
    bool apps_complete;     /* list_apps complete flag (false also when skipped is set) */
    ad_app_skip skipped[FAKE_MAX]; /* list_apps skipped entries (static strings, copied) */
    size_t n_skipped;
    ad_rect screen;         /* the screen every read reports (0,0 1280x1024) */
    bool screen_known;      /* false: reads report the screen unknown */
    /* Reads report every known bound AD_FIELD_WINDOW_RELATIVE and `screen` as the window
     * itself (a Wayland session where the window's place is unknown: linux/gtk4_place.h). */
    bool window_space;
    size_t unanswered;      /* list_windows unanswered count */
    size_t unresponsive;    /* list_windows: of those, silent past their budget */
    /* Call counters, for "was not read" assertions. */
    int n_list_apps, n_list_windows, n_window_lookup, n_process_alive, n_read_window;
    /* Native ids read over all reads: every node's, or those lim->native_id_needed asks. */
    size_t n_native_id_reads;
    /* Actions: each act() is counted and answers with act_delivery; a failure (act_fails)
     * carries that delivery in its error. act_effect, when set, runs on the live tree. */
    int n_act;
    bool act_fails;
    ad_delivery act_delivery;
    void (*act_effect)(struct fake_adapter *f, const ad_node *target);
    /* Window operations (window_op): each is counted and its request kept. The fake window
     * manager applies a move or resize to the window's bounds, a minimize / maximize to its
     * flags, and reports that, unless win_clamp: then it reports win_observed instead. A
     * focus lands on win_focused_id (a fake window id; NULL: the target), or nowhere when
     * win_focus_lost. */
    int n_window_op;
    ad_win_req last_win_req;
    bool win_clamp;
    ad_win_state win_observed;
    const char *win_focused_id;
    bool win_focus_lost;
    /* Like the AT-SPI walker, a read whose deadline already passed fails with TIMEOUT. Off
     * by default: most tests pass deadlines they never mean to expire. */
    bool reads_honor_deadline;
    /* close-app. protected_process refuses protected_pid (0: none). close_windows counts
     * its calls and ends the app (fake_kill), or with close_prompts opens a modal "Unsaved
     * changes" dialog of that app instead, or with no_windows asks none. signal_process
     * counts the signals and ends the app, except a TERM when ignores_term. */
    int protected_pid;
    bool close_prompts, no_windows, ignores_term;
    int n_close_windows, n_term, n_kill;
    /* The clipboard: what it holds (clip_held), counted writes; clip_missing makes every
     * clipboard op fail as a missing platform helper does. */
    ad_clip_content clip;
    bool clip_held, clip_missing;
    int n_clip_writes;
    /* Pictures: list_displays answers displays[0..n_displays) (ids static; one 1280x1024
     * "screen" by default); capture paints the rectangle it is asked for (fake_adapter.c)
     * and counts n_capture, or fails ACTION_FAILED with details.reason capture_fails. */
    ad_display displays[4];
    size_t n_displays;
    int n_capture;
    const char *capture_fails;
    /* The cursor overlay: every request in overlay_requests (owned copies, in order); it
     * answers {"ok":true,"mapped":!overlay_unmapped}, or ACTION_FAILED with overlay_fails;
     * overlay_down: no service runs (a request that may not start one returns 1). */
    json_t *overlay_requests;
    bool overlay_fails, overlay_unmapped, overlay_down;
    /* Notifications (fake_notifications.c): read_notifications answers a deep copy of
     * notes, counted, after notes_on_read (when set) ran with the read's number (1 for the
     * first); notes_absent fails as a session without a notification service does. */
    ad_notification_surface notes;
    bool notes_absent;
    int n_read_notifications;
    void (*notes_on_read)(struct fake_adapter *f, int n);
    /* Physical input, after fake_enable_physical: each request counted and kept (the first
     * FAKE_MAX), then phys_effect (when set) runs on the fake's state. */
    int n_physical;
    ad_phys_req phys[FAKE_MAX];
    void (*phys_effect)(struct fake_adapter *f, const ad_phys_req *req);
    /* Change events (--observe): with watching set, take_changes answers 1 and hands over
     * `changes` (what fake_emit queued, for instance from an act_effect) and counts
     * n_take_changes; without it the fake watches nothing (take_changes answers 0). */
    bool watching;
    ad_change_events changes;
    int n_take_changes;
} fake_adapter;

fake_adapter *fake_new(void);
void fake_free(fake_adapter *f);
static inline ad_adapter *fake_base(fake_adapter *f)
{
    return &f->base;
}
/* Adds a running app with process_instance "boot:1". Returns a pointer into the adapter. */
fake_app *fake_add_app(fake_adapter *f, const char *name, int pid);
/* Adds a window of a known app (visible, accessible, not focused, complete reads) owning
 * `root`. Its id is "w-fake-N", N counting from 1. */
fake_window *fake_add_window(fake_adapter *f, const char *app_name, const char *title,
                             ad_node *root);
fake_window *fake_window_get(fake_adapter *f, const char *id);
/* Gives the adapter a physical op (fake_ops has none: most tests prove its absence). */
void fake_enable_physical(fake_adapter *f);
/* Appends a notification to f->notes (copies of the strings; body, actions NULL: none).
 * Returns it, for bounds and buttons. */
ad_notification *fake_add_notification(fake_adapter *f, const char *title, const char *body);
/* Removes f->notes.items[i] (later rows shift up). */
void fake_remove_notification(fake_adapter *f, size_t i);
/* Adds an action button to n (name copied) at `at`; at.width 0: not showing. */
void fake_notification_action(ad_notification *n, const char *name, ad_rect at);
/* The adapter ops of fake_notifications.c. */
int fake_read_notifications(ad_adapter *a, int64_t deadline_us, ad_notification_surface *ret,
                            ad_error *err);

/* Queues one change event (kind static, detail and address copied; address may be NULL) for
 * the next take_changes. */
void fake_emit(fake_adapter *f, const char *kind, const char *detail, int value,
               const char *address);

/* Marks the app with this pid exited (process_alive answers false). */
void fake_kill(fake_adapter *f, int pid);

#endif
