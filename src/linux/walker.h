/* walker.h: reads one window's accessibility tree over AT-SPI.
 *
 * The read follows facts/atspi-on-debian12.md: one Cache.GetItems message gives role, name,
 * description, states, interfaces, child count and parent for most nodes; parent links are
 * trusted only where they add up exactly to the parent's child count; every other node is
 * enumerated live with ChildCount + GetChildAtIndex (never GetChildren, which GTK 4.8 makes
 * skip objects); a GTK 4 node built by that very request comes with its item in the app's
 * Cache.AddAccessible signal and is read like a cached one (walker.c, watch_announcements).
 * What the cache lacks (accessible id, extents, action names, values) is then
 * fetched with several calls in flight. A failed call marks its field unknown; a node whose
 * children could not be read is marked cut; nothing unread is reported as absent.
 */
#ifndef AD_WALKER_H
#define AD_WALKER_H

#include <systemd/sd-bus.h>

#include "platform/adapter.h"

/* What the adapter needs to place a window-relative tree on the screen, read with the
 * toolkit in the walk's first batch (no extra round trip). */
typedef struct ad_window_frame {
    bool window_relative; /* GTK 4: extents relative to the window, not the screen */
    bool have_size;       /* the window's own AT-SPI extents came back */
    double width, height; /* their size */
} ad_window_frame;

/* Reads the subtree at (bus_name, path) within limits. A cut read is success with
 * ret->complete false. Fails only when nothing could be read at all. *ret_frame tells a
 * toolkit whose extents are relative to their window (GTK 4) and that window's size. */
int ad_atspi_read_tree(sd_bus *bus, const char *bus_name, const char *path,
                       const ad_read_limits *lim, ad_tree *ret, ad_window_frame *ret_frame,
                       ad_error *err);

/* Interface bits parsed from GetInterfaces / the cache. */
enum {
    AD_IF_ACCESSIBLE = 1u << 0,
    AD_IF_COMPONENT = 1u << 1,
    AD_IF_ACTION = 1u << 2,
    AD_IF_TEXT = 1u << 3,
    AD_IF_EDITABLE_TEXT = 1u << 4,
    AD_IF_VALUE = 1u << 5,
    AD_IF_SELECTION = 1u << 6,
};
uint32_t ad_atspi_interface_bit(const char *name);

#endif
