/* session_bus.h: a fresh connection to the user's session bus for one GNOME call (its own
 * connection, so a name it owns goes when it closes), with the failure as an ad_error; and
 * a link that keeps one connection for an adapter's repeated reads. */
#ifndef AD_SESSION_BUS_H
#define AD_SESSION_BUS_H

#include <stdint.h>
#include <systemd/sd-bus.h>

#include "core/error.h"

/* Opens it, ready (bus_call.h, ad_bus_open), by deadline_us: 0 with *ret_bus (the caller's,
 * closed with ad_bus_close), or -1 with err: TIMEOUT when the bus stayed silent,
 * PLATFORM_NOT_SUPPORTED when there is none. */
int ad_session_bus_open(int64_t deadline_us, sd_bus **ret_bus, ad_error *err);

/* The unique name that owns `name` on bus: 1 with *ret (the caller's), 0 when nothing owns
 * it, -1 for a bus that did not answer (e filled). The pid behind a unique name is
 * ad_atspi_bus_pid (atspi_apps.h). */
int ad_bus_name_owner(sd_bus *bus, int64_t deadline_us, const char *name, char **ret,
                      sd_bus_error *e);

/* A session-bus connection opened on first use and kept for its owner's life (an adapter's
 * reads of GNOME Shell, which an action's actionability loop repeats on every poll): one
 * connect per process instead of one per read. Zeroed is empty. */
typedef struct ad_session_link {
    sd_bus *bus; /* owned; NULL until the first ad_session_link_get that connects */
} ad_session_link;

/* The link's connection, connecting by deadline_us when it has none: borrowed (the link
 * keeps it), NULL when the session bus cannot be reached (the next call tries again). */
sd_bus *ad_session_link_get(ad_session_link *l, int64_t deadline_us);

/* Tells the link that a call on its connection failed with r: a broken connection is
 * dropped, so the next ad_session_link_get connects again. */
void ad_session_link_failed(ad_session_link *l, int r);

/* Closes the connection (ad_bus_close); the link is empty again. */
void ad_session_link_close(ad_session_link *l);

#endif
