/* common.c: argument accessors and the surface check. */
#include "commands/common.h"

#include <string.h>

#include "core/ctx.h"

const char *ad_arg_str(const json_t *args, const char *key)
{
    return json_string_value(json_object_get(args, key));
}

bool ad_arg_bool(const json_t *args, const char *key)
{
    return json_is_true(json_object_get(args, key));
}

int64_t ad_arg_int(const json_t *args, const char *key, int64_t fallback)
{
    json_t *v = json_object_get(args, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : fallback;
}

int64_t ad_deadline_from(const json_t *args, const char *key, int64_t fallback_ms)
{
    return ad_now_us() + ad_arg_int(args, key, fallback_ms) * 1000;
}

int ad_surface_check(const char *surface, ad_error *err)
{
    static const char *const later[] = {"focused", "menu", "sheet", "alert", "popover", NULL};
    static const char *const foreign[] = {"menubar", "dock", "menu-bar-extras", "start-menu",
                                          "taskbar", "system-tray", "system-tray-overflow",
                                          "action-center", "quick-settings", "notification-center",
                                          NULL};
    if (!surface || strcmp(surface, "window") == 0)
        return 0;
    for (size_t i = 0; later[i]; i++)
        if (strcmp(surface, later[i]) == 0) {
            ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                         "--surface %s is not available in this build", surface);
            ad_error_suggest(err, "Read the window with --surface window (the default)");
            ad_error_detail(err, "surface", json_string(surface));
            return -1;
        }
    for (size_t i = 0; foreign[i]; i++)
        if (strcmp(surface, foreign[i]) == 0) {
            ad_error_set(err, AD_INVALID_ARGS, "--surface %s is not a surface this adapter "
                                               "reads", surface);
            ad_error_suggest(err, "Use --surface window; status lists supported_surfaces");
            return -1;
        }
    ad_error_set(err, AD_INVALID_ARGS, "Unknown surface kind '%s'", surface);
    ad_error_suggest(err, "Use --surface window; status lists supported_surfaces");
    return -1;
}
