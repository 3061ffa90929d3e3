/* window_ops.h: the Linux adapter's window_op (adapter.h): AT-SPI window to X11 client,
 * then EWMH through x11_window_ops.h or focus through x11_input.h. */
#ifndef AD_WINDOW_OPS_H
#define AD_WINDOW_OPS_H

#include <stdint.h>
#include <systemd/sd-bus.h>

#include "platform/adapter.h"

/* The X client window of an AT-SPI window (pid, title and the bounds list-windows reports:
 * ad_x11_client_of_window), the one mapping the window commands and physical input use; 0
 * with err set when none or several match (nothing sent). */
uint32_t ad_linux_x_client_of(const ad_window *target, ad_error *err);

int ad_linux_window_op(sd_bus *bus, const ad_window *target, const ad_win_req *req,
                       ad_win_result *ret, ad_error *err);

#endif
