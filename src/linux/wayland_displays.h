/* wayland_displays.h: the displays of a GNOME Wayland session, from Mutter's DisplayConfig.
 *
 * On Wayland no client can read the output layout through X (Xwayland, when it runs, shows
 * only its own clients) and wl_output gives neither the primary monitor nor, before
 * xdg-output, the logical position. org.gnome.Mutter.DisplayConfig.GetCurrentState gives
 * all of it: each logical monitor's position, scale, transform, primary flag and the
 * monitors (connectors) it shows, each monitor's current mode, and the layout mode. A
 * logical monitor's size is its first monitor's current mode, rotated by the transform, and
 * divided by the scale when the layout is logical (layout-mode 1; mutter 43's headless
 * virtual monitor reports 2, physical). The ids are the connector names ("Meta-0"). */
#ifndef AD_WAYLAND_DISPLAYS_H
#define AD_WAYLAND_DISPLAYS_H

#include <stdint.h>
#include <systemd/sd-bus.h>

#include "platform/adapter.h"

/* The logical monitors, primary first, in the compositor's logical coordinates. Fills *ret
 * (the caller frees it with ad_display_list_clear). PLATFORM_NOT_SUPPORTED when nothing owns
 * org.gnome.Mutter.DisplayConfig on the session bus (a Wayland compositor that is not
 * Mutter); TIMEOUT when it does not answer by deadline_us. */
int ad_wayland_displays(int64_t deadline_us, ad_display_list *ret, ad_error *err);

/* The parser of a GetCurrentState reply (at its start; the message is the caller's), apart
 * so the unit test can feed it layouts a headless shell cannot make (several monitors,
 * scales, rotations). Fills *ret (the caller clears it, also after a failure); a negative
 * errno for a reply of another shape. */
int ad_wayland_displays_parse(sd_bus_message *reply, ad_display_list *ret);

#endif
