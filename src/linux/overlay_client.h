/* overlay_client.h: the cursor overlay op of the Linux adapter (adapter.h `overlay`): one
 * request to the "overlay" service of the per-user helper, which draws on the X display of
 * DISPLAY. PLATFORM_NOT_SUPPORTED without DISPLAY (nothing can be drawn). */
#ifndef AD_OVERLAY_CLIENT_H
#define AD_OVERLAY_CLIENT_H

#include "platform/adapter.h"

int ad_linux_overlay(ad_adapter *a, json_t *req, bool start_service, int64_t deadline_us,
                     json_t **ret_reply, ad_error *err);

#endif
