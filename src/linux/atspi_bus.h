/* atspi_bus.h: reaching the accessibility bus (platforms/linux.md, "Check the accessibility
 * bus"): ask org.a11y.Bus.GetAddress on the session bus, then open that address. */
#ifndef AD_ATSPI_BUS_H
#define AD_ATSPI_BUS_H

#include <systemd/sd-bus.h>

#include "core/error.h"

#define ATSPI_REGISTRY "org.a11y.atspi.Registry"
#define ATSPI_ROOT_PATH "/org/a11y/atspi/accessible/root"
#define ATSPI_IFACE_ACCESSIBLE "org.a11y.atspi.Accessible"
#define ATSPI_IFACE_COMPONENT "org.a11y.atspi.Component"
#define ATSPI_IFACE_ACTION "org.a11y.atspi.Action"
#define ATSPI_IFACE_TEXT "org.a11y.atspi.Text"
#define ATSPI_IFACE_VALUE "org.a11y.atspi.Value"
#define ATSPI_IFACE_CACHE "org.a11y.atspi.Cache"
#define ATSPI_CACHE_PATH "/org/a11y/atspi/cache"
#define DBUS_IFACE_PROPERTIES "org.freedesktop.DBus.Properties"

/* Opens a client connection to the accessibility bus. On failure fills err with
 * PLATFORM_NOT_SUPPORTED, the raw D-Bus error in platform_detail and a suggestion naming the
 * likely cause (no session bus, AT-SPI missing, launcher failed). *ret_bus is the caller's. */
int ad_atspi_bus_open(sd_bus **ret_bus, ad_error *err);

#endif
