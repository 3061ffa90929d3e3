/* ffi_sizes.c: the size getters of the size-pinned structs. A host whose struct layout can
 * differ from C's (ctypes, cgo) compares them with its own structs; the static assertions
 * keep the header's AD_*_SIZE macros equal to what this library was compiled with. */
#include "agent_desktop.h"

_Static_assert(sizeof(AdAction) == AD_ACTION_SIZE,
               "AD_ACTION_SIZE does not match AdAction");
_Static_assert(sizeof(AdActionResult) == AD_ACTION_RESULT_SIZE,
               "AD_ACTION_RESULT_SIZE does not match AdActionResult");
_Static_assert(sizeof(AdActionStep) == AD_ACTION_STEP_SIZE,
               "AD_ACTION_STEP_SIZE does not match AdActionStep");
_Static_assert(sizeof(AdDisplayInfo) == AD_DISPLAY_INFO_SIZE,
               "AD_DISPLAY_INFO_SIZE does not match AdDisplayInfo");
_Static_assert(sizeof(AdDragParams) == AD_DRAG_PARAMS_SIZE,
               "AD_DRAG_PARAMS_SIZE does not match AdDragParams");
_Static_assert(sizeof(AdElementState) == AD_ELEMENT_STATE_SIZE,
               "AD_ELEMENT_STATE_SIZE does not match AdElementState");
_Static_assert(sizeof(AdExactRefEntry) == AD_EXACT_REF_ENTRY_SIZE,
               "AD_EXACT_REF_ENTRY_SIZE does not match AdExactRefEntry");
_Static_assert(sizeof(AdExactSurfaceInfo) == AD_EXACT_SURFACE_INFO_SIZE,
               "AD_EXACT_SURFACE_INFO_SIZE does not match AdExactSurfaceInfo");
_Static_assert(sizeof(AdExactWindowInfo) == AD_EXACT_WINDOW_INFO_SIZE,
               "AD_EXACT_WINDOW_INFO_SIZE does not match AdExactWindowInfo");
_Static_assert(sizeof(AdRefEntry) == AD_REF_ENTRY_SIZE,
               "AD_REF_ENTRY_SIZE does not match AdRefEntry");
_Static_assert(sizeof(AdWaitArgs) == AD_WAIT_ARGS_SIZE,
               "AD_WAIT_ARGS_SIZE does not match AdWaitArgs");

size_t ad_action_size(void)
{
    return sizeof(AdAction);
}

size_t ad_action_result_size(void)
{
    return sizeof(AdActionResult);
}

size_t ad_action_step_size(void)
{
    return sizeof(AdActionStep);
}

size_t ad_display_info_size(void)
{
    return sizeof(AdDisplayInfo);
}

size_t ad_drag_params_size(void)
{
    return sizeof(AdDragParams);
}

size_t ad_element_state_size(void)
{
    return sizeof(AdElementState);
}

size_t ad_exact_ref_entry_size(void)
{
    return sizeof(AdExactRefEntry);
}

size_t ad_exact_surface_info_size(void)
{
    return sizeof(AdExactSurfaceInfo);
}

size_t ad_exact_window_info_size(void)
{
    return sizeof(AdExactWindowInfo);
}

size_t ad_ref_entry_size(void)
{
    return sizeof(AdRefEntry);
}

size_t ad_wait_args_size(void)
{
    return sizeof(AdWaitArgs);
}
