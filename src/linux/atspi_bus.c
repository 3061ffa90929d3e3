/* atspi_bus.c: session bus -> org.a11y.Bus.GetAddress -> the accessibility bus. */
#include "linux/atspi_bus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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

int ad_atspi_bus_open(sd_bus **ret_bus, ad_error *err)
{
    sd_bus *session = NULL, *a11y = NULL;
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    const char *address = NULL;
    char detail[512];
    int r = sd_bus_open_user(&session);
    if (r < 0) {
        snprintf(detail, sizeof(detail), "sd_bus_open_user: %s", strerror(-r));
        unavailable(err, "no session bus", detail,
                    "Run inside a desktop session, or start one with dbus-run-session -- "
                    "COMMAND");
        goto fail;
    }
    r = sd_bus_call_method(session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus",
                           "GetAddress", &e, &reply, "");
    if (r < 0) {
        snprintf(detail, sizeof(detail), "%s: %s", e.name ? e.name : "GetAddress",
                 e.message ? e.message : strerror(-r));
        unavailable(err, "org.a11y.Bus did not answer GetAddress", detail,
                    "Install at-spi2-core and make sure at-spi-bus-launcher can start (systemctl "
                    "--user status at-spi-dbus-bus.service)");
        goto fail;
    }
    r = sd_bus_message_read(reply, "s", &address);
    if (r < 0 || !address || !*address) {
        unavailable(err, "GetAddress returned no address", NULL,
                    "Restart at-spi-dbus-bus.service, or log out and back in");
        goto fail;
    }
    r = sd_bus_new(&a11y);
    if (r >= 0)
        r = sd_bus_set_address(a11y, address);
    if (r >= 0)
        r = sd_bus_set_bus_client(a11y, 1);
    if (r >= 0)
        r = sd_bus_start(a11y);
    if (r < 0) {
        snprintf(detail, sizeof(detail), "connect %s: %s", address, strerror(-r));
        unavailable(err, "the accessibility bus socket did not accept a connection", detail,
                    "Restart at-spi-dbus-bus.service, or log out and back in");
        goto fail;
    }
    sd_bus_message_unref(reply);
    sd_bus_flush_close_unref(session);
    sd_bus_error_free(&e);
    *ret_bus = a11y;
    return 0;
fail:
    sd_bus_message_unref(reply);
    sd_bus_flush_close_unref(session);
    sd_bus_unref(a11y);
    sd_bus_error_free(&e);
    return -1;
}
