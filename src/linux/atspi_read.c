/* atspi_read.c: shared message readers for the AT-SPI value shapes. */
#include "linux/atspi_read.h"

int ad_atspi_read_state_set(sd_bus_message *m, ad_atspi_states *ret)
{
    uint32_t words[2] = {0, 0}, v;
    int r = sd_bus_message_enter_container(m, 'a', "u");
    if (r < 0)
        return r;
    for (int k = 0; (r = sd_bus_message_read(m, "u", &v)) > 0; k++)
        if (k < 2)
            words[k] = v;
    if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0)
        return r;
    *ret = (ad_atspi_states){words[0], words[1]};
    return 0;
}
