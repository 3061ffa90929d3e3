/* atspi_bus.c: session bus -> org.a11y.Bus.GetAddress -> the accessibility bus, each step
 * bounded by the caller's deadline (bus_call.h). */
#include "linux/atspi_bus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux/bus_call.h"

static int unavailable(ad_error *err, const char *what, const char *detail, const char *hint)
{
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "The AT-SPI accessibility bus is unavailable: "
                                                 "%s", what);
    ad_error_suggest(err, "%s", hint);
    if (detail)
        ad_error_platform_detail(err, detail);
    ad_error_detail(err, "kind", json_string("accessibility_bus_unavailable"));
    ad_error_detail(err, "retryable", json_false());
    return -1;
}

int ad_atspi_bus_unresponsive(ad_error *err, const char *component, const char *what,
                              const char *detail)
{
    ad_error_set(err, AD_TIMEOUT, "The accessibility service did not answer before the "
                                  "deadline: %s", what);
    ad_error_suggest(err, "A bus process may be stopped or overloaded: check that dbus-daemon, "
                          "at-spi-bus-launcher and at-spi2-registryd run (ps shows a stopped "
                          "one in state T), then retry");
    if (detail)
        ad_error_platform_detail(err, detail);
    ad_error_detail(err, "kind", json_string("accessibility_bus_unresponsive"));
    ad_error_detail(err, "component", json_string(component));
    return -1;
}

/* One step of the way to the bus failed (r, and e when it was a call): TIMEOUT naming the
 * component when the peer stayed silent, else unavailable with the hint. */
static int step_failed(ad_error *err, int r, const sd_bus_error *e, const char *component,
                       const char *silent, const char *refused, const char *detail,
                       const char *hint)
{
    if (ad_bus_no_answer(r, e))
        return ad_atspi_bus_unresponsive(err, component, silent, detail);
    return unavailable(err, refused, detail, hint);
}

int ad_atspi_bus_open(int64_t deadline_us, sd_bus **ret_bus, ad_error *err)
{
    sd_bus *session = NULL, *a11y = NULL;
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    const char *address = NULL;
    char detail[512];
    int r = ad_bus_open(NULL, true, deadline_us, &session);
    if (r < 0) {
        snprintf(detail, sizeof(detail), "sd_bus_open_user: %s", strerror(-r));
        step_failed(err, r, NULL, "session_bus",
                    "the session bus accepted the connection but never completed it",
                    "no session bus", detail,
                    "Run inside a desktop session, or start one with dbus-run-session -- "
                    "COMMAND");
        goto fail;
    }
    r = ad_bus_call_method(session, deadline_us, "org.a11y.Bus", "/org/a11y/bus",
                           "org.a11y.Bus", "GetAddress", &e, &reply, "");
    if (r < 0) {
        snprintf(detail, sizeof(detail), "%s: %s", e.name ? e.name : "GetAddress",
                 e.message ? e.message : strerror(-r));
        step_failed(err, r, &e, "bus_launcher", "org.a11y.Bus did not answer GetAddress",
                    "org.a11y.Bus did not answer GetAddress", detail,
                    "Install at-spi2-core and make sure at-spi-bus-launcher can start "
                    "(systemctl --user status at-spi-dbus-bus.service)");
        goto fail;
    }
    r = sd_bus_message_read(reply, "s", &address);
    if (r < 0 || !address || !*address) {
        unavailable(err, "GetAddress returned no address", NULL,
                    "Restart at-spi-dbus-bus.service, or log out and back in");
        goto fail;
    }
    r = ad_bus_open(address, true, deadline_us, &a11y);
    if (r < 0) {
        snprintf(detail, sizeof(detail), "connect %s: %s", address, strerror(-r));
        step_failed(err, r, NULL, "accessibility_bus",
                    "the accessibility bus accepted the connection but never completed it",
                    "the accessibility bus socket did not accept a connection", detail,
                    "Restart at-spi-dbus-bus.service, or log out and back in");
        goto fail;
    }
    sd_bus_message_unref(reply);
    ad_bus_close(session);
    sd_bus_error_free(&e);
    *ret_bus = a11y;
    return 0;
fail:
    sd_bus_message_unref(reply);
    ad_bus_close(session);
    sd_bus_error_free(&e);
    return -1;
}

int ad_atspi_registry_ping(sd_bus *bus, int64_t deadline_us, ad_error *err)
{
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int32_t count = 0;
    int r = ad_bus_get_int_property(bus, deadline_us, ATSPI_REGISTRY, ATSPI_ROOT_PATH,
                                    ATSPI_IFACE_ACCESSIBLE, "ChildCount", &e, &count);
    if (r < 0)
        ad_atspi_registry_failed(err, r, &e);
    sd_bus_error_free(&e);
    return r < 0 ? -1 : 0;
}

int ad_atspi_registry_failed(ad_error *err, int r, const sd_bus_error *e)
{
    char detail[512];
    snprintf(detail, sizeof(detail), "%s: %s", e && e->name ? e->name : "registry",
             e && e->message ? e->message : strerror(-r));
    if (ad_bus_no_answer(r, e))
        return ad_atspi_bus_unresponsive(err, "registry", "the AT-SPI registry did not answer",
                                         detail);
    ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED, "The AT-SPI registry did not answer");
    ad_error_suggest(err, "Restart at-spi-dbus-bus.service, or log out and back in");
    ad_error_platform_detail(err, detail);
    ad_error_detail(err, "kind", json_string("accessibility_bus_unavailable"));
    ad_error_detail(err, "retryable", json_false());
    return -1;
}
