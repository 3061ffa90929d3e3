/* gnome_capture.h: screen captures in a GNOME Wayland session, through GNOME Shell's
 * org.gnome.Shell.Screenshot API.
 *
 * The route, and why (measured on Debian 12, gnome-shell 43.9 / mutter 43.8, headless):
 *  - org.gnome.Shell.Screenshot (chosen). The shell serves a caller only while it owns one
 *    of a short list of names; org.gnome.Screenshot (gnome-screenshot's own name) is the one
 *    a user tool may hold. The capture owns that name on its own connection for the call's
 *    duration only (RequestName DO_NOT_QUEUE, never REPLACE_EXISTING: when gnome-screenshot
 *    or another tool holds it, the capture waits for it to go, until its deadline, and then
 *    fails ACTION_FAILED details.reason "capture_busy" naming the holder; it never steals
 *    the name), and the name goes with the connection. Measured: RequestName 1 ms,
 *    ScreenshotArea of 1280x800 0.06-0.32 s (0.9-1.5 s at load average 29 on 2 cores), the
 *    whole `screenshot --screen 0` 0.22-0.61 s; no dialog, headless included: the same user's
 *    session bus is the trust boundary, as for every other call agent-desktop makes.
 *  - xdg-desktop-portal Screenshot / ScreenCast: the spec's "portal consent on first use".
 *    Headless (CI, an agent with no one at the screen) the consent dialog has no one to
 *    answer it, so a call could only wait for its timeout, and the spec's answer without
 *    permission is PERM_DENIED; it works only with a pre-seeded permission store or restore
 *    token. Installing the portal also makes
 *    every GTK app start portal services that register on AT-SPI (not installed here, so
 *    not measured on this machine: it would change every GTK app on the shared desktops).
 *    Not in this build; a Wayland compositor without GNOME Shell's API gets
 *    PLATFORM_NOT_SUPPORTED saying so.
 *  - Mutter ScreenCast + PipeWire: no consent either, but frames arrive as PipeWire buffers
 *    (a libpipewire client, stream negotiation). Measured: session to PipeWire node 16 ms,
 *    then 0.58 s to a first frame through GStreamer's pipewiresrc (1.36 s under load), and a
 *    new dependency, all to get one still image that ScreenshotArea gives directly.
 *
 * Window targets are PLATFORM_NOT_SUPPORTED (platforms/linux.md): ScreenshotWindow captures
 * the focused window only (racing any focus change), and ScreenshotArea of a window needs its
 * frame on screen, which AT-SPI on Wayland does not give (window-relative extents). Should
 * the spec allow them once window frames on Wayland are proved, this is the one place to
 * add it: ScreenshotArea of that frame.
 *
 * GNOME on X11 does not come here: x11_capture.c reads windows from their own pixmaps and
 * keeps the spec's PLATFORM_NOT_SUPPORTED "compositing" for display captures
 * (platforms/linux.md). The Shell API would give the composited screen there too, but the
 * spec states that refusal as the observable behaviour, so it stays.
 *
 * The shell writes the PNG into a private directory (0700, in $XDG_RUNTIME_DIR) that this
 * code creates and removes; it is decoded to RGB here, so the picture takes the same path as
 * an X11 one (core/capture.c encodes it, core/private_file.c writes it atomically, 0600). */
#ifndef AD_GNOME_CAPTURE_H
#define AD_GNOME_CAPTURE_H

#include "platform/adapter.h"

/* Captures the screen rectangle `rect` (logical coordinates, as list-displays gives them);
 * a window `w` (non-NULL) is PLATFORM_NOT_SUPPORTED details.reason "wayland_session".
 * PERM_DENIED when the shell refuses, PLATFORM_NOT_SUPPORTED without GNOME Shell's API,
 * ACTION_FAILED "capture_busy" (above), TIMEOUT when the shell does not answer. Fills *ret
 * (the caller clears it with ad_image_clear). */
int ad_gnome_capture(const ad_window *w, const ad_rect *rect, ad_image *ret, ad_error *err);

#endif
