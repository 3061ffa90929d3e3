/* atspi_act.h: semantic actions over AT-SPI (Action, EditableText, Text, Value, Selection,
 * Component). Never moves the pointer, takes focus or synthesizes keys. */
#ifndef AD_ATSPI_ACT_H
#define AD_ATSPI_ACT_H

#include <systemd/sd-bus.h>

#include "platform/adapter.h"

int ad_atspi_act(sd_bus *bus, const ad_node *target, const ad_act_req *req, ad_act_result *ret,
                 ad_error *err);

#endif
