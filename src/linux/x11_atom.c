/* x11_atom.c: atom lookups (x11_atom.h). */
#include "linux/x11_atom.h"

#include <stdlib.h>
#include <string.h>

xcb_atom_t ad_x11_atom(xcb_connection_t *c, const char *name, bool only_if_exists)
{
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(
        c, xcb_intern_atom(c, only_if_exists, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t a = r ? r->atom : XCB_ATOM_NONE;
    free(r);
    return a;
}
