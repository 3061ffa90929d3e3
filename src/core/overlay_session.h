/* overlay_session.h: the cursor overlay of a session (commands/system.md "cursor-overlay",
 * sessions.md "Agent identity"): what is saved, and what an action asks to be drawn.
 *
 * The mode lives in the session manifest ("cursor", "multi_agent": session start --cursor
 * [--multi-agent] or cursor-overlay enable|disable write them); the styles live beside it in
 * cursor.json, {"style":STYLE,"profiles":{AGENT_ID:STYLE}} (core/overlay_style.h), written
 * atomically through core/state_files.h. Without cursor.json the default style applies.
 *
 * Drawing is a platform service reached through the adapter's `overlay` op with these
 * requests (the reply is {"ok":true,...}):
 *   {"op":"show","session","cursor","style"}            -> "mapped": the cursor's window is
 *                                                          mapped and viewable
 *   {"op":"glide","session","cursor","style","point":[X,Y],"bounds":[X,Y,W,H]|null,
 *    "pressable":bool}
 *                                                       -> "mapped", after the glide (and
 *                                                          the dwell) ended on the point
 *   {"op":"stop","session"}                             -> "stopped": windows destroyed
 *   {"op":"hide","session"}                             -> "hidden": the session's windows
 *                                                          unmapped (the server processed it)
 *   {"op":"unhide","session","cursor","point":[X,Y]?}   -> "shown": bodies and labels mapped
 *                                                          again, `cursor` moved to `point`
 *                                                          (core/overlay_input.h)
 * A glide is answered when it ends; each cursor's glides take turns, different cursors glide
 * at the same time.
 * "cursor" names the cursor: the agent id in a multi-agent session (each agent its own), ""
 * otherwise (one shared cursor). The style of an action is its agent's profile when one was
 * saved, else the session's style.
 */
#ifndef AD_OVERLAY_SESSION_H
#define AD_OVERLAY_SESSION_H

#include <stdbool.h>
#include <jansson.h>

#include "core/ctx.h"

/* Extra time a request may take beyond the glide itself: connecting, and the first start
 * of the helper (about 5 ms idle; more on a loaded machine). */
#define AD_OVERLAY_SLACK_MS 150

/* Reads the session's cursor.json: 0 with *ret (new reference), 1 when there is none, -1
 * with err. */
int ad_overlay_setting_read(const char *root, const char *session_id, json_t **ret,
                            ad_error *err);
int ad_overlay_setting_write(const char *root, const char *session_id, const json_t *setting,
                             ad_error *err);

/* The style for agent_id (NULL: none) in setting (NULL: defaults): a new reference. */
json_t *ad_overlay_style_for(const json_t *setting, const char *agent_id);

/* The name of the cursor an action of agent_id draws in the session of manifest. */
const char *ad_overlay_cursor_name(const json_t *manifest, const char *agent_id);

/* True when the command's session draws agent cursors: its overlay is on and the adapter
 * has an overlay service. */
bool ad_overlay_session_on(const ad_ctx *ctx);

/* The action hook: when the command's session has the overlay on, asks the service to glide
 * the agent's cursor to (x, y), outline `bounds` (NULL: none) and ripple there (showing the
 * --pointer-image when `pressable`: the action presses the target), and waits
 * for it at most the style's travel maximum plus dwell (plus AD_OVERLAY_SLACK_MS). Never
 * fails and never changes the action: an overlay that cannot draw is a trace event only. */
void ad_overlay_before_action(ad_ctx *ctx, const ad_rect *bounds, double x, double y,
                              bool pressable);

/* Stops every cursor of session_id. 0 when the service confirmed it (or none runs), -1 with
 * err (its disposition delivery_uncertain) when teardown could not be confirmed. */
int ad_overlay_stop(ad_ctx *ctx, const char *session_id, ad_error *err);

#endif
