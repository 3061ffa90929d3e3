// Compile-only: the public header is valid C++11 with C linkage (tests/ffi/meson.build).
#include "agent_desktop.h"

#include <type_traits>

static_assert(std::is_same<decltype(&ad_abi_version), uint32_t (*)(void)>::value,
              "the header's declarations have C linkage and their api.md types");

AdResult header_cxx11_probe(struct AdAdapter *adapter);
AdResult header_cxx11_probe(struct AdAdapter *adapter)
{
    AdAction action = {};
    (void)action;
    return ad_check_permissions(adapter);
}
