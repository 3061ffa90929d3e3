/* x11_atom.h: atom lookups shared by the X11 code of agent-desktop and of its helper (which
 * links this file alone, so it depends on nothing but xcb). */
#ifndef AD_X11_ATOM_H
#define AD_X11_ATOM_H

#include <stdbool.h>
#include <xcb/xcb.h>

/* The atom named `name` (one round trip), created unless only_if_exists; XCB_ATOM_NONE when
 * it does not exist (only_if_exists) or the server did not answer. */
xcb_atom_t ad_x11_atom(xcb_connection_t *c, const char *name, bool only_if_exists);

#endif
