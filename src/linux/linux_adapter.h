/* linux_adapter.h: the AT-SPI adapter. The only constructor an entrypoint calls on Linux. */
#ifndef AD_LINUX_ADAPTER_H
#define AD_LINUX_ADAPTER_H

#include "platform/adapter.h"

/* A new adapter (caller destroys it with ops->destroy). It connects lazily on first use, so
 * commands that need no desktop (version, skills) never touch D-Bus. NULL only when out of
 * memory. */
ad_adapter *ad_linux_adapter_new(void);

#endif
