/* command_args.h: the argument lists the command table refers to (command_args.c). */
#ifndef AD_COMMAND_ARGS_H
#define AD_COMMAND_ARGS_H

#include "dispatch/command_table.h"

extern const ad_arg_spec ad_args_ref_action[];
extern const ad_arg_spec ad_args_window_target[];
extern const ad_arg_spec ad_args_list_inventory[];
extern const ad_arg_spec ad_args_held_key[];
extern const ad_arg_spec ad_args_no[];
extern const ad_arg_spec ad_args_launch[];
extern const ad_arg_spec ad_args_close_app[];
extern const ad_arg_spec ad_args_focus_window[];
extern const ad_arg_spec ad_args_resize_window[];
extern const ad_arg_spec ad_args_move_window[];
extern const ad_arg_spec ad_args_snapshot[];
extern const ad_arg_spec ad_args_find[];
extern const ad_arg_spec ad_args_get[];
extern const ad_arg_spec ad_args_is[];
extern const ad_arg_spec ad_args_screenshot[];
extern const ad_arg_spec ad_args_list_surfaces[];
extern const ad_arg_spec ad_args_open_system_surface[];
extern const ad_arg_spec ad_args_type[];
extern const ad_arg_spec ad_args_set_value[];
extern const ad_arg_spec ad_args_select[];
extern const ad_arg_spec ad_args_scroll[];
extern const ad_arg_spec ad_args_press[];
extern const ad_arg_spec ad_args_hover[];
extern const ad_arg_spec ad_args_drag[];
extern const ad_arg_spec ad_args_mouse_move[];
extern const ad_arg_spec ad_args_mouse_click[];
extern const ad_arg_spec ad_args_mouse_down[];
extern const ad_arg_spec ad_args_mouse_up[];
extern const ad_arg_spec ad_args_mouse_wheel[];
extern const ad_arg_spec ad_args_list_notifications[];
extern const ad_arg_spec ad_args_dismiss_notification[];
extern const ad_arg_spec ad_args_dismiss_all_notifications[];
extern const ad_arg_spec ad_args_notification_action[];
extern const ad_arg_spec ad_args_clipboard_get[];
extern const ad_arg_spec ad_args_clipboard_set[];
extern const ad_arg_spec ad_args_wait[];
extern const ad_arg_spec ad_args_permissions[];
extern const ad_arg_spec ad_args_skills[];
extern const ad_arg_spec ad_args_session[];
extern const ad_arg_spec ad_args_cursor_overlay[];
extern const ad_arg_spec ad_args_trace[];
extern const ad_arg_spec ad_args_batch[];

#endif
