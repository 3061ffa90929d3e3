/* session_bus.c: see session_bus.h. */
#include "linux/session_bus.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linux/bus_call.h"

int ad_session_bus_open(int64_t deadline_us, sd_bus **ret_bus, ad_error *err)
{
    *ret_bus = NULL;
    int r = ad_bus_open(NULL, true, deadline_us, ret_bus);
    if (r < 0) {
        ad_error_set(err, r == -ETIMEDOUT ? AD_TIMEOUT : AD_PLATFORM_NOT_SUPPORTED,
                     "Cannot connect to the session bus");
        ad_error_platform_detail(err, strerror(-r));
        return -1;
    }
    return 0;
}

int ad_bus_name_owner(sd_bus *bus, int64_t deadline_us, const char *name, char **ret,
                      sd_bus_error *e)
{
    sd_bus_message *reply = NULL;
    const char *owner = NULL;
    *ret = NULL;
    int r = ad_bus_call_method(bus, deadline_us, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                               "org.freedesktop.DBus", "GetNameOwner", e, &reply, "s", name);
    if (r >= 0 && sd_bus_message_read(reply, "s", &owner) >= 0 && owner)
        *ret = strdup(owner);
    sd_bus_message_unref(reply);
    if (r < 0 && sd_bus_error_has_name(e, "org.freedesktop.DBus.Error.NameHasNoOwner")) {
        sd_bus_error_free(e);
        return 0;
    }
    return *ret ? 1 : -1;
}

sd_bus *ad_session_link_get(ad_session_link *l, int64_t deadline_us)
{
    if (!l->bus && ad_bus_open(NULL, true, deadline_us, &l->bus) < 0)
        l->bus = NULL;
    return l->bus;
}

void ad_session_link_failed(ad_session_link *l, int r)
{
    /* A connection the daemon dropped answers every later call with the same error: the
     * next use connects again. A timeout keeps it (the daemon may be slow, not gone). */
    if (r == -ENOTCONN || r == -ECONNRESET || r == -EPIPE || r == -ESHUTDOWN)
        l->bus = ad_bus_close(l->bus);
}

void ad_session_link_close(ad_session_link *l)
{
    l->bus = ad_bus_close(l->bus);
}
