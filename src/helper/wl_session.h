/* wl_session.h: the helper's "wlinput" service: ONE long-lived Mutter RemoteDesktop session
 * (with a ScreenCast session bound to it, recording the primary monitor) that sends the
 * input of agent-desktop's commands on GNOME Wayland.
 *
 * Why in the helper: a RemoteDesktop session belongs to the D-Bus connection that created it
 * and dies with it, and each CLI call is its own process; a session per command would cost a
 * start and a keyboard priming (below) each time.
 *
 * Requests ({"service":"wlinput", "op":...}):
 *   "ensure": starts the session when none runs. Reply {"session": PATH, "started": N}
 *             (N: sessions this helper started, so a caller can tell one session from two).
 *   "status": the same without starting anything ("session" null when none runs).
 *   "send":   {"events":[...]} in order, each {"t":"key","keysym":K,"down":B},
 *             {"t":"motion","x":X,"y":Y} (screen point), {"t":"button","button":EVDEV,
 *             "down":B}, {"t":"axis","axis":0|1,"steps":N} or {"t":"wait","ms":M}.
 *             Starts the session first when needed. Reply {"sent": N} (events that reached
 *             Mutter, waits not counted), and when one failed also "error": TEXT; an event
 *             that was not sent is never counted.
 *   "stop":   stops the session now.
 * Requests are served one at a time, so the events of two commands never interleave.
 *
 * Priming: the first key of a fresh session was often dropped (mutter 43.8) until a Shift
 * press and release and ~250 ms of settling, so a new session sends exactly that before it
 * answers. Windows report AT-SPI `active` and wl-clipboard finds a keyboard only while such a
 * session (one that sent a key) exists.
 *
 * Idle: the session is stopped after AD_WL_IDLE_MS without a request (the environment's
 * AGENT_DESKTOP_WAYLAND_IDLE_MS, read when the helper starts, overrides it), and the service
 * then holds nothing, which lets the helper exit. When Mutter closes the session (or the
 * shell restarts) the next request starts a new one.
 */
#ifndef AD_WL_SESSION_H
#define AD_WL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#define AD_WL_IDLE_MS 30000

typedef struct ad_wl_session ad_wl_session;

/* A service with no bus connection yet. NULL on OOM. */
ad_wl_session *ad_wl_session_new(void);
void ad_wl_session_free(ad_wl_session *s);

/* Stops the session once it has been idle for the idle time. */
int ad_wl_session_dispatch(ad_wl_session *s);

/* True while a session runs. */
bool ad_wl_session_holds(const ad_wl_session *s);

/* The longest the helper's poll may wait before the idle stop is due; -1 when none runs. */
int ad_wl_session_timeout_ms(const ad_wl_session *s);

/* Serves one request (borrowed); returns the reply header, a new reference. */
json_t *ad_wl_session_request(ad_wl_session *s, const json_t *req);

#endif
