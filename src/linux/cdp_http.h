/* cdp_http.h: the loopback checks of launch --cdp: a free or bound TCP port on 127.0.0.1, and
 * one HTTP/1.1 GET of the DevTools /json/version document. */
#ifndef AD_CDP_HTTP_H
#define AD_CDP_HTTP_H

#include <stdint.h>

#include <jansson.h>

#include "core/error.h"

/* port 0: a port the kernel hands out free on 127.0.0.1 into *ret_port (returns 0). port > 0:
 * 1 when something already binds it on loopback, 0 when it is free. -1 with ACTION_FAILED when
 * no socket can be made. */
int ad_loopback_port(int port, int *ret_port, ad_error *err);

/* GET http://127.0.0.1:port/json/version, ending by deadline_us (CLOCK_MONOTONIC us). On a
 * 200 answer with a JSON object body, *ret is that object (the caller's). -1 otherwise
 * (nothing listens yet, an error status, a body that is not JSON), with ACTION_FAILED. */
int ad_cdp_version(int port, int64_t deadline_us, json_t **ret, ad_error *err);

#endif
