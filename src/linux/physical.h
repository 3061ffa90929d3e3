/* physical.h: XTEST input for the adapter (--headed ref actions, press, mouse commands). */
#ifndef AD_PHYSICAL_H
#define AD_PHYSICAL_H

#include <systemd/sd-bus.h>

#include "platform/adapter.h"

int ad_linux_physical(sd_bus *bus, const ad_phys_req *req, int64_t deadline_us,
                      ad_act_result *ret, ad_error *err);
int ad_linux_hit_test(sd_bus *bus, const char *window_id, int px, int py,
                      json_t **ret_occluder, ad_error *err);
int ad_linux_active_window(int *ret_pid, char **ret_title, ad_error *err);

#endif
