/* atspi_read.h: reading AT-SPI value shapes out of sd-bus messages. */
#ifndef AD_ATSPI_READ_H
#define AD_ATSPI_READ_H

#include <systemd/sd-bus.h>

#include "linux/atspi_map.h"

/* Reads a state set ("au": two 32-bit words, bits 0-31 and 32-63) into *ret. Returns a
 * negative errno when the message holds something else. */
int ad_atspi_read_state_set(sd_bus_message *m, ad_atspi_states *ret);

#endif
