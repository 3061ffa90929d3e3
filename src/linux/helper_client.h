/* helper_client.h: one request to the per-user helper (helper/helper_proto.h has the why,
 * the socket and the protocol), starting it when none runs.
 *
 * The helper is the executable agent-desktop-linux-clipboard-owner beside the shared library
 * that holds this code (libagent_desktop_ffi.so, as the C library ships it), else beside
 * /proc/self/exe (the agent-desktop binary). When none answers on the socket, it is started detached (double
 * fork, setsid, stdio on /dev/null, in /) and the socket is retried until it answers or the
 * deadline. The helper's uid is checked (SO_PEERCRED) before anything is sent.
 */
#ifndef AD_HELPER_CLIENT_H
#define AD_HELPER_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "core/error.h"

/* Sends req (borrowed; its "v" and "bytes" are set) with payload[0..len) and waits for the
 * reply until deadline_us. 0 with *ret_reply (a new reference) when the helper answered ok;
 * -1 with err: PLATFORM_NOT_SUPPORTED when the helper is not installed or XDG_RUNTIME_DIR is
 * relative, ACTION_FAILED when it cannot be reached or refuses (its code when it names one), in
 * which case *ret_reply is not written. */
int ad_helper_request(json_t *req, const void *payload, size_t len, int64_t deadline_us,
                      json_t **ret_reply, ad_error *err);

/* The same request to a helper that already runs, never starting one: 1 when none answers
 * on the socket (nothing it would serve exists), else as ad_helper_request. */
int ad_helper_request_running(json_t *req, int64_t deadline_us, json_t **ret_reply,
                              ad_error *err);

/* As ad_helper_request_running, but sent once: a request whose effect must not happen twice
 * (input events) is never repeated to a helper that closed without replying, since it may
 * have acted on part of it. 1 when none answers on the socket. */
int ad_helper_request_once(json_t *req, int64_t deadline_us, json_t **ret_reply,
                           ad_error *err);

#endif
