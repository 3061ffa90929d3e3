/* window_ops.h: the Linux adapter's window_op (adapter.h): AT-SPI window to X11 client,
 * then EWMH through x11_window_ops.h or focus through x11_input.h. */
#ifndef AD_WINDOW_OPS_H
#define AD_WINDOW_OPS_H

#include <systemd/sd-bus.h>

#include "platform/adapter.h"

int ad_linux_window_op(sd_bus *bus, const ad_window *target, const ad_win_req *req,
                       ad_win_result *ret, ad_error *err);

#endif
