/* handlers.h: the command handlers that exist in this build.
 *
 * Every handler has the ad_command_fn shape (command_table.h). A command in the table whose
 * handler is NULL fails closed in dispatch with PLATFORM_NOT_SUPPORTED, not_delivered. */
#ifndef AD_HANDLERS_H
#define AD_HANDLERS_H

#include "core/action.h"
#include "dispatch/command_table.h"

int ad_cmd_status(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_permissions(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                       struct ad_error *err);
int ad_cmd_version(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_skills(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_list_apps(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                     struct ad_error *err);
int ad_cmd_list_windows(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                        struct ad_error *err);
int ad_cmd_snapshot(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                    struct ad_error *err);
int ad_cmd_find(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_get(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_is(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_screenshot(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                      struct ad_error *err);
int ad_cmd_list_displays(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                         struct ad_error *err);

/* A ref action's data in the table (ad_command.data): the pipeline's spec and where its
 * text comes from. */
typedef struct {
    ad_action_spec spec;
    const char *text_key; /* the argument with the text or value (type, set-value, select) */
    bool empty_text;      /* clear: writes "" */
    bool keystrokes;      /* type: --interval-ms, and a timeout that grows with the text */
} ad_ref_action_def;

extern const ad_ref_action_def ad_ra_click, ad_ra_double_click, ad_ra_triple_click,
    ad_ra_right_click, ad_ra_type, ad_ra_set_value, ad_ra_clear, ad_ra_focus, ad_ra_select,
    ad_ra_toggle, ad_ra_check, ad_ra_uncheck, ad_ra_expand, ad_ra_collapse, ad_ra_scroll_to;

/* Every ref action (click, type, set-value, check, ...): runs ctx->command->data, an
 * ad_ref_action_def. */
int ad_cmd_ref_action(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                      struct ad_error *err);
/* launch and close-app (commands/launch.c, commands/close_app.c). The check refuses a
 * repeated --env KEY, an --env without KEY=, and with --cdp an --arg that sets a switch
 * --cdp owns (details.kind cdp_switch_conflict). */
int ad_cmd_launch(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                  struct ad_error *err);
int ad_launch_args_check(const json_t *given, const json_t *args, struct ad_error *err);
int ad_cmd_close_app(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                     struct ad_error *err);
int ad_cmd_list_surfaces(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                         struct ad_error *err);
int ad_cmd_open_system_surface(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                               struct ad_error *err);
int ad_cmd_press(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
/* key-down and key-up: validate, then refuse (no held input in a stateless process). */
int ad_cmd_held_key(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                    struct ad_error *err);
/* mouse-move, mouse-click, mouse-wheel, mouse-down, mouse-up: ctx->command->data is the
 * gesture. */
typedef enum { AD_MOUSE_MOVE, AD_MOUSE_CLICK, AD_MOUSE_WHEEL, AD_MOUSE_HELD } ad_mouse_gesture;
extern const ad_mouse_gesture ad_gesture_move, ad_gesture_click, ad_gesture_wheel, ad_gesture_held;
int ad_cmd_mouse(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_hover(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_drag(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_wait(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_list_notifications(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                              struct ad_error *err);
int ad_cmd_dismiss_notification(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                                struct ad_error *err);
int ad_cmd_dismiss_all_notifications(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                                     struct ad_error *err);
int ad_cmd_notification_action(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                               struct ad_error *err);
/* trace show and trace export (commands/trace.c). */
int ad_cmd_trace(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
/* session start | end | list | gc (commands/session.c). */
int ad_cmd_cursor_overlay(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                          struct ad_error *err);
int ad_cmd_session(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                   struct ad_error *err);

/* focus-window; move-window, resize-window, minimize, maximize, restore, whose
 * ctx->command->data is the ad_win_op (commands/windows.c). */
extern const ad_win_op ad_win_op_move, ad_win_op_resize, ad_win_op_minimize,
    ad_win_op_maximize, ad_win_op_restore;
int ad_cmd_focus_window(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                        struct ad_error *err);
int ad_cmd_window_op(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                     struct ad_error *err);
/* clipboard-get, clipboard-set, clipboard-clear (commands/clipboard.c). */
int ad_cmd_clipboard_get(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                         struct ad_error *err);
int ad_cmd_clipboard_set(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                         struct ad_error *err);
int ad_cmd_clipboard_clear(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                           struct ad_error *err);

/* Cross-argument checks the table's rules cannot express (ad_command.check). */
int ad_wait_args_check(const json_t *given, const json_t *args, struct ad_error *err);
/* --since takes a snapshot id (core/refs.h syntax), checked before anything is read. */
int ad_since_args_check(const json_t *given, const json_t *args, struct ad_error *err);
int ad_hover_args_check(const json_t *given, const json_t *args, struct ad_error *err);
int ad_drag_args_check(const json_t *given, const json_t *args, struct ad_error *err);
int ad_cmd_scroll(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                  struct ad_error *err);

#endif
