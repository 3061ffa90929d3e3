/* overlay_x11.h: the helper's "overlay" service: draws the agent cursors of the cursor
 * overlay on X11 (commands/system.md "cursor-overlay"; the requests are listed in
 * core/overlay_session.h).
 *
 * Each cursor (a session and a cursor name: "" or an agent id) is a set of windows, all
 * override-redirect (the window manager never manages, decorates or focuses them), with an
 * empty input region (XFixes SetWindowShapeRegion, ShapeInput: every click passes through
 * to the window below) and raised above the others whenever they move:
 *   body     the arrow (or --image), cut to its shape, its hotspot on the cursor's point
 *   label    the --label pill, black with white text, beside the body
 *   outline  a 3 px frame in the accent colour around the target's bounds (--no-highlight)
 *   ripple   a ring in the accent colour around the point of the click (--no-ripple)
 * A glide moves the body along core/overlay_motion.h's path in real time (one frame per
 * 16 ms), pauses --dwell-ms, then shows the ripple; the outline and the ripple go away
 * AD_OVERLAY_EFFECT_MS later. The body stays where the last glide ended until a "stop".
 * Windows are named "agent-desktop cursor SESSION/NAME" (WM_NAME) so tools can find them.
 *
 * The service holds something while any cursor exists, which keeps the helper running; a
 * stop of the last session's cursors lets it exit. A glide never blocks the helper: it is
 * answered when it ends (overlay_glide.c), so each cursor glides while the others do, and
 * one cursor's glides take turns.
 *
 * A headed command hides the session's cursors while it sends real input
 * (guides/headed-mode.md "See where actions land"): "hide" unmaps every window of the
 * session and answers after the server processed the unmaps; "unhide" maps the bodies and
 * labels again (the acting cursor first moved to "point", a drag's drop point). While
 * hidden, glides still move the windows but map none of them.
 */
#ifndef AD_OVERLAY_X11_H
#define AD_OVERLAY_X11_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#define AD_OVERLAY_EFFECT_MS 900

typedef struct ad_overlay ad_overlay;

ad_overlay *ad_overlay_new(void);
void ad_overlay_free(ad_overlay *o);
int ad_overlay_fd(const ad_overlay *o);
/* Handles pending X events (repaints) and hides effects whose time is up; -1 when the X
 * connection broke (every cursor is then forgotten). */
int ad_overlay_dispatch(ad_overlay *o);
bool ad_overlay_holds(const ad_overlay *o);
/* The longest the helper may sleep before ad_overlay_dispatch must run again (an effect to
 * hide), in ms; -1 for no limit. */
int ad_overlay_timeout_ms(const ad_overlay *o);
/* Serves one request; the reply header is a new reference, or NULL for a glide: the service
 * then owns client_fd and replies on it (ad_helper_reply) when the glide has ended. */
json_t *ad_overlay_request(ad_overlay *o, const json_t *req, const unsigned char *payload,
                           size_t len, int client_fd);

#endif
