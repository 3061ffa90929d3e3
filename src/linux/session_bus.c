/* session_bus.c: see session_bus.h. */
#include "linux/session_bus.h"

#include <errno.h>
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
