/* overlay_client.c: the adapter's `overlay` op on Linux X11: a request to the helper's
 * "overlay" service (src/helper/overlay_x11.h draws; core/overlay_session.h lists the
 * requests). */
#include "linux/overlay_client.h"

#include <stdlib.h>

#include "linux/helper_client.h"

int ad_linux_overlay(ad_adapter *a, json_t *req, bool start_service, int64_t deadline_us,
                     json_t **ret_reply, ad_error *err)
{
    (void)a;
    const char *display = getenv("DISPLAY");
    if (!display || !display[0])
        return ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                            "The cursor overlay draws on X11, and DISPLAY is not set");
    json_object_set_new(req, "service", json_string("overlay"));
    json_object_set_new(req, "display", json_string(display));
    return start_service ? ad_helper_request(req, NULL, 0, deadline_us, ret_reply, err)
                         : ad_helper_request_running(req, deadline_us, ret_reply, err);
}
