/* notify_client.c: the helper's monitored notifications onto the rows (notify_client.h). */
#include "linux/notify_client.h"

#include <jansson.h>

#include "core/deadline.h"
#include "linux/helper_client.h"
#include "linux/notify_match.h"

void ad_notify_name_apps(ad_notification_surface *s, int64_t deadline_us)
{
    int64_t until = ad_deadline_after_ms(AD_NOTIFY_CLIENT_MS);
    if (deadline_us < until)
        until = deadline_us;
    json_t *req = json_pack("{s:s, s:s}", "service", "notify", "op", "list");
    json_t *reply = NULL;
    ad_error err = AD_ERROR_INIT;
    /* A failure is not the read's: the rows stay unnamed (notify_client.h). */
    if (req && ad_helper_request(req, NULL, 0, until, &reply, &err) == 0)
        ad_notify_match_apps(s, json_object_get(reply, "entries"));
    ad_error_clear(&err);
    json_decref(reply);
    json_decref(req);
}
