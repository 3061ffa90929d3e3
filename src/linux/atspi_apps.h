/* atspi_apps.h: the application inventory and top-level windows over AT-SPI. */
#ifndef AD_ATSPI_APPS_H
#define AD_ATSPI_APPS_H

#include <systemd/sd-bus.h>

#include "platform/adapter.h"

int ad_atspi_list_apps(sd_bus *bus, int64_t deadline_us, ad_app_list *ret, ad_error *err);
/* Windows of the given apps (every app when apps is NULL). */
int ad_atspi_list_windows(sd_bus *bus, const ad_app_list *apps, int64_t deadline_us,
                          ad_window_list *ret, ad_error *err);
int ad_atspi_window_lookup(sd_bus *bus, const char *window_id, int64_t deadline_us,
                           ad_window *ret, ad_error *err);

/* "w-1.11-org-a11y-atspi-accessible-3" <-> (":1.11", "/org/a11y/atspi/accessible/3"). */
char *ad_atspi_window_id(const char *bus, const char *path);
int ad_atspi_window_id_parse(const char *id, char **ret_bus, char **ret_path);

#endif
