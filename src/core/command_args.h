/* command_args.h: the argument lists the command table refers to (command_args.c). */
#ifndef AD_COMMAND_ARGS_H
#define AD_COMMAND_ARGS_H

#include "core/command_table.h"

extern const ad_arg_spec ad_args_ref_action_args[];
extern const ad_arg_spec ad_args_window_target_args[];
extern const ad_arg_spec ad_args_list_inventory_args[];
extern const ad_arg_spec ad_args_held_key_args[];
extern const ad_arg_spec ad_args_no_args[];
extern const ad_arg_spec ad_args_launch_args[];
extern const ad_arg_spec ad_args_close_app_args[];
extern const ad_arg_spec ad_args_focus_window_args[];
extern const ad_arg_spec ad_args_resize_window_args[];
extern const ad_arg_spec ad_args_move_window_args[];
extern const ad_arg_spec ad_args_snapshot_args[];
extern const ad_arg_spec ad_args_find_args[];
extern const ad_arg_spec ad_args_get_args[];
extern const ad_arg_spec ad_args_is_args[];
extern const ad_arg_spec ad_args_screenshot_args[];
extern const ad_arg_spec ad_args_list_surfaces_args[];
extern const ad_arg_spec ad_args_open_system_surface_args[];
extern const ad_arg_spec ad_args_type_args[];
extern const ad_arg_spec ad_args_set_value_args[];
extern const ad_arg_spec ad_args_select_args[];
extern const ad_arg_spec ad_args_scroll_args[];
extern const ad_arg_spec ad_args_press_args[];
extern const ad_arg_spec ad_args_hover_args[];
extern const ad_arg_spec ad_args_drag_args[];
extern const ad_arg_spec ad_args_mouse_move_args[];
extern const ad_arg_spec ad_args_mouse_click_args[];
extern const ad_arg_spec ad_args_mouse_down_args[];
extern const ad_arg_spec ad_args_mouse_up_args[];
extern const ad_arg_spec ad_args_mouse_wheel_args[];
extern const ad_arg_spec ad_args_list_notifications_args[];
extern const ad_arg_spec ad_args_dismiss_notification_args[];
extern const ad_arg_spec ad_args_dismiss_all_notifications_args[];
extern const ad_arg_spec ad_args_notification_action_args[];
extern const ad_arg_spec ad_args_clipboard_get_args[];
extern const ad_arg_spec ad_args_clipboard_set_args[];
extern const ad_arg_spec ad_args_wait_args[];
extern const ad_arg_spec ad_args_permissions_args[];
extern const ad_arg_spec ad_args_skills_args[];
extern const ad_arg_spec ad_args_session_args[];
extern const ad_arg_spec ad_args_cursor_overlay_args[];
extern const ad_arg_spec ad_args_trace_args[];
extern const ad_arg_spec ad_args_batch_args[];

#endif
