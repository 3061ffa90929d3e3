/* handlers.h: the command handlers that exist in this build.
 *
 * Every handler has the ad_command_fn shape (command_table.h). A command in the table whose
 * handler is NULL fails closed in dispatch with PLATFORM_NOT_SUPPORTED, not_delivered. */
#ifndef AD_HANDLERS_H
#define AD_HANDLERS_H

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

/* Every ref action (click, type, set-value, check, ...), dispatched on ctx->command->name. */
int ad_cmd_ref_action(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                      struct ad_error *err);
int ad_cmd_list_surfaces(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                         struct ad_error *err);
int ad_cmd_press(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
/* key-down and key-up: validate, then refuse (no held input in a stateless process). */
int ad_cmd_held_key(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                    struct ad_error *err);
/* mouse-move, mouse-click, mouse-wheel, mouse-down, mouse-up. */
int ad_cmd_mouse(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_hover(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_drag(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
int ad_cmd_wait(struct ad_ctx *ctx, const json_t *args, json_t **ret_data, struct ad_error *err);
/* session start | end | list | gc (commands/session.c). */
int ad_cmd_session(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                   struct ad_error *err);
int ad_cmd_scroll(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                  struct ad_error *err);

#endif
