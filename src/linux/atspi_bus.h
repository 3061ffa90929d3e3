/* atspi_bus.h: reaching the accessibility bus (platforms/linux.md, "Check the accessibility
 * bus"): ask org.a11y.Bus.GetAddress on the session bus, then open that address. */
#ifndef AD_ATSPI_BUS_H
#define AD_ATSPI_BUS_H

#include <stdint.h>
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

/* The route to an app: every call goes through the accessibility bus, never through the
 * private peer-to-peer socket GTK 3's atk-bridge offers (Application.GetApplicationBusAddress)
 * although it skips the bus daemon's hops. Debian 12, at-spi2-core 2.46 (and upstream to this
 * day), atk-adaptor/bridge.c: new_connection_cb refs every accepted DBusConnection, hooks it
 * to the main loop (atspi_dbus_connection_setup_with_g_main) and appends it to
 * direct_connections; nothing watches for its disconnection, and only the bridge's own
 * shutdown (atk_bridge_adaptor_cleanup) unrefs them. The closed connection's socket is
 * closed, but its dbus-gmain message-queue GSource (atspi/atspi-gmain.c,
 * connection_setup_new) stays attached, and the app's main loop asks every one of them
 * dbus_connection_get_dispatch_status on each iteration: with one connection per command, a
 * walk cost the app 2x its CPU after 100 commands, 3x after 200 (bench/bench-long-run.sh).
 * No way of closing from our side makes the bridge drop it. GTK 4.8 (gtkatspicontext.c) and
 * Qt 5.15 (atspiadaptor) have no such socket: they are read through the bus anyway. */

/* Opens a client connection to the accessibility bus; every step (the session bus, GetAddress,
 * the accessibility bus's authentication and Hello) ends by deadline_us. On failure fills err:
 * TIMEOUT (kind accessibility_bus_unresponsive, details.component naming the silent part)
 * when a peer accepted but never answered, else PLATFORM_NOT_SUPPORTED with the raw D-Bus
 * error in platform_detail and a suggestion naming the likely cause (no session bus, AT-SPI
 * missing, launcher failed). *ret_bus is the caller's. */
int ad_atspi_bus_open(int64_t deadline_us, sd_bus **ret_bus, ad_error *err);

/* Asks the registry for its child count: 0 when it answers by the deadline, else -1 with err
 * filled by ad_atspi_registry_failed. For health checks. */
int ad_atspi_registry_ping(sd_bus *bus, int64_t deadline_us, ad_error *err);

/* Fills err for a failed registry call (r, e from sd-bus): TIMEOUT naming the registry when it
 * gave no answer, else PLATFORM_NOT_SUPPORTED. Returns -1. */
int ad_atspi_registry_failed(ad_error *err, int r, const sd_bus_error *e);

/* Fills err with TIMEOUT for a bus part that stayed silent until the deadline. component is
 * "session_bus", "bus_launcher", "accessibility_bus" or "registry". Returns -1. */
int ad_atspi_bus_unresponsive(ad_error *err, const char *component, const char *what,
                              const char *detail);

#endif
