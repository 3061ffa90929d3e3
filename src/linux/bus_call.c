/* bus_call.c: deadline-bounded calls, connects and closes over sd-bus (bus_call.h). */
#include "linux/bus_call.h"

#include <errno.h>
#include <string.h>

#include "core/ctx.h"

uint64_t ad_bus_timeout_us(int64_t deadline_us)
{
    int64_t left = deadline_us - ad_now_us();
    return left > 0 ? (uint64_t)left : 1;
}

int ad_bus_call_methodv(sd_bus *bus, int64_t deadline_us, const char *dest, const char *path,
                        const char *iface, const char *member, sd_bus_error *ret_error,
                        sd_bus_message **ret_reply, const char *types, va_list ap)
{
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_method_call(bus, &m, dest, path, iface, member);
    if (r >= 0 && types && *types)
        r = sd_bus_message_appendv(m, types, ap);
    if (r >= 0)
        r = sd_bus_call(bus, m, ad_bus_timeout_us(deadline_us), ret_error, ret_reply);
    else
        sd_bus_error_set_errno(ret_error, r);
    sd_bus_message_unref(m);
    return r;
}

int ad_bus_call_method(sd_bus *bus, int64_t deadline_us, const char *dest, const char *path,
                       const char *iface, const char *member, sd_bus_error *ret_error,
                       sd_bus_message **ret_reply, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    int r = ad_bus_call_methodv(bus, deadline_us, dest, path, iface, member, ret_error,
                                ret_reply, types, ap);
    va_end(ap);
    return r;
}

int ad_bus_get_int_property(sd_bus *bus, int64_t deadline_us, const char *dest,
                            const char *path, const char *iface, const char *prop,
                            sd_bus_error *ret_error, int32_t *ret)
{
    sd_bus_message *reply = NULL;
    int r = ad_bus_call_method(bus, deadline_us, dest, path, "org.freedesktop.DBus.Properties",
                               "Get", ret_error, &reply, "ss", iface, prop);
    if (r >= 0)
        r = sd_bus_message_read(reply, "v", "i", ret);
    sd_bus_message_unref(reply);
    return r;
}

bool ad_bus_no_answer(int r, const sd_bus_error *e)
{
    static const char *const names[] = {
        SD_BUS_ERROR_NO_REPLY, SD_BUS_ERROR_TIMEOUT, SD_BUS_ERROR_DISCONNECTED,
        "org.freedesktop.DBus.Error.TimedOut",
    };
    if (r == -ETIMEDOUT || r == -ECONNRESET || r == -ENOTCONN || r == -EPIPE ||
        r == -ESHUTDOWN || r == -ECONNABORTED)
        return true;
    for (size_t i = 0; e && e->name && i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(e->name, names[i]) == 0)
            return true;
    return false;
}

int ad_bus_run_until(sd_bus *bus, int (*done)(void *userdata), void *userdata,
                     int64_t deadline_us)
{
    for (;;) {
        int r = done(userdata);
        if (r != 0)
            return r < 0 ? r : 0;
        r = sd_bus_process(bus, NULL);
        if (r < 0)
            return r;
        if (r > 0)
            continue;
        int64_t left = deadline_us - ad_now_us();
        if (left <= 0)
            return -ETIMEDOUT;
        r = sd_bus_wait(bus, (uint64_t)left);
        if (r < 0 && r != -EINTR)
            return r;
    }
}

static int is_ready(void *bus)
{
    return sd_bus_is_ready(bus);
}

int ad_bus_open(const char *address, bool bus_client, int64_t deadline_us, sd_bus **ret_bus)
{
    sd_bus *bus = NULL;
    int r;
    if (!address) {
        r = sd_bus_open_user(&bus); /* connects without blocking; auth happens below */
    } else {
        r = sd_bus_new(&bus);
        if (r >= 0)
            r = sd_bus_set_address(bus, address);
        if (r >= 0)
            r = sd_bus_set_bus_client(bus, bus_client);
        if (r >= 0)
            r = sd_bus_start(bus);
    }
    if (r >= 0)
        r = ad_bus_run_until(bus, is_ready, bus, deadline_us); /* authentication, Hello */
    if (r < 0) {
        ad_bus_close(bus);
        return r;
    }
    *ret_bus = bus;
    return 0;
}

sd_bus *ad_bus_close(sd_bus *bus)
{
    /* Never opened: nothing to close, and no call that would load libsystemd into a
     * command that used no bus (the CLI binds it lazily, src/cli/lazy_libs.h). */
    if (!bus)
        return NULL;
    return sd_bus_close_unref(bus);
}
