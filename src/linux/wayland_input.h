/* wayland_input.h: input on GNOME Wayland through the helper's Mutter RemoteDesktop session
 * (helper/wl_session.h), for the `physical` adapter op and the Wayland clipboard.
 *
 * Dispositions: a refusal before the "send" request left this process is not_delivered;
 * once it left, a helper that died or answered nothing is delivery_uncertain (it may have
 * sent some events), as is a reply that counts some events sent and then an error. The
 * "send" request is never repeated (helper_client.h ad_helper_request_once), so no event is
 * sent twice.
 */
#ifndef AD_WAYLAND_INPUT_H
#define AD_WAYLAND_INPUT_H

#include <stdint.h>
#include <systemd/sd-bus.h>

#include "core/error.h"
#include "platform/adapter.h"

/* Starts the helper and its session when needed (the keyboard primed), until deadline_us.
 * 0, or -1 with err: PLATFORM_NOT_SUPPORTED when Mutter's RemoteDesktop cannot start a
 * session or the helper is not installed, ACTION_FAILED when the helper cannot be reached. */
int ad_wayland_input_ensure(int64_t deadline_us, ad_error *err);

/* ad_linux_physical on Wayland (physical.h): builds the paced plan (wayland_plan.h), checks
 * the windows the request names and sends the plan through the helper. Every point is a
 * screen point (element points come only from bounds the shared resolution proved on screen;
 * window-relative ones are refused before the op). A window to focus must already be active
 * (ACTION_NOT_SUPPORTED, cause wayland_session, otherwise: Wayland has no window control); a
 * window that must be active and is not is frame_not_active. No hit test exists, so
 * verify_window_id cannot be checked. ret: one physical_synthetic step, the point, the
 * events, delivery delivered_unverified (nothing reads back where the input landed). */
int ad_wayland_physical(sd_bus *bus, const ad_phys_req *req, int64_t deadline_us,
                        ad_act_result *ret, ad_error *err);

#endif
