/* Compile-only: the public header is valid C99 under -pedantic (tests/ffi/meson.build). */
#include "agent_desktop.h"

/* Something of each kind the header declares, so the compiler reads it all. */
AdResult header_c99_probe(struct AdAdapter *adapter);
AdResult header_c99_probe(struct AdAdapter *adapter)
{
    struct AdAction action = {0};
    (void)action;
    return ad_check_permissions(adapter);
}
