/* protocol.h: the two eras of MCP and the methods other than tools/call.
 *
 * Legacy (2025-11-25 and earlier): `initialize` (the client's version when supported, else
 * our latest), `notifications/initialized`, `ping`, `tools/list`, `tools/call`.
 * Modern (2026-07-28, stateless): no handshake; every request carries `_meta`
 * io.modelcontextprotocol/protocolVersion and clientCapabilities; `server/discover`; every
 * result has resultType "complete"; tools/list carries ttlMs and cacheScope.
 * The era is chosen per request from how the client speaks: a request with the modern
 * protocolVersion in its _meta is modern, any other is legacy and needs `initialize` first
 * (except `ping`).
 */
#ifndef AD_MCP_PROTOCOL_H
#define AD_MCP_PROTOCOL_H

#include <stdbool.h>

#include <jansson.h>

#define AD_MCP_MODERN_VERSION "2026-07-28"
#define AD_MCP_LEGACY_LATEST "2025-11-25"

/* JSON-RPC and MCP error codes. */
#define AD_RPC_PARSE_ERROR -32700
#define AD_RPC_INVALID_REQUEST -32600
#define AD_RPC_METHOD_NOT_FOUND -32601
#define AD_RPC_INVALID_PARAMS -32602
#define AD_RPC_UNSUPPORTED_VERSION -32022

typedef enum { AD_MCP_LEGACY, AD_MCP_MODERN } ad_mcp_era;

/* {code, message[, data]} as a new object; steals data (may be NULL). */
json_t *ad_mcp_rpc_error(int code, const char *message, json_t *data);

/* Responses (new objects); the id is copied, result and error are stolen. */
json_t *ad_mcp_result_response(const json_t *id, json_t *result);
json_t *ad_mcp_error_response(const json_t *id, json_t *error);

/* Chooses the era of a request (params borrowed, may be NULL). 0 with *ret_era set, or -1
 * with *ret_error set to a new JSON-RPC error: a modern request with an unsupported version
 * (-32022 with data.supported) or without clientCapabilities (-32602), server/discover
 * without the modern _meta, or a legacy request before initialize (-32602). */
int ad_mcp_request_era(const char *method, const json_t *params, bool initialized,
                       ad_mcp_era *ret_era, json_t **ret_error);

/* Adds what every result of the era carries (modern: resultType "complete"). */
void ad_mcp_finish_result(json_t *result, ad_mcp_era era);

/* The result of `initialize` (params borrowed) as a new object. */
json_t *ad_mcp_initialize_result(const json_t *params);

/* The result of `server/discover` as a new object. */
json_t *ad_mcp_discover_result(void);

/* The result of `tools/list` (params borrowed): a page of tools from params.cursor, with
 * nextCursor when more follow, and ttlMs/cacheScope in the modern era. NULL with *ret_error
 * (-32602) for a cursor this server did not give. */
json_t *ad_mcp_tools_list_result(const json_t *params, ad_mcp_era era, json_t **ret_error);

#endif
