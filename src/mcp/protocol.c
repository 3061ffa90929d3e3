/* protocol.c: eras, initialize, server/discover and tools/list (protocol.h). */
#include "mcp/protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "mcp/tools.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define META_SERVER_INFO "io.modelcontextprotocol/serverInfo"

/* Tools per tools/list page: fewer than the tools, so clients page through a cursor. */
#define TOOLS_PAGE 40

/* How long a client may cache the tool list and the discovery result: they change only
 * with the binary. */
#define CACHE_TTL_MS 3600000

static const char *const legacy_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                              "2024-11-05"};
#define LEGACY_COUNT (sizeof(legacy_versions) / sizeof(legacy_versions[0]))

static const char instructions[] =
    "agent-desktop lets you see and operate desktop apps through the accessibility tree. "
    "Every tool is one agent-desktop command and returns its JSON envelope. Start with "
    "desktop_skills_get {\"name\":\"desktop\"} for the observe-act loop and {\"name\":"
    "\"platform\"} for what differs on this OS. When isError is true, read error.code and "
    "error.disposition before retrying.";

json_t *ad_mcp_rpc_error(int code, const char *message, json_t *data)
{
    json_t *e = json_pack("{s:i, s:s}", "code", code, "message", message);
    if (data)
        json_object_set_new(e, "data", data);
    return e;
}

json_t *ad_mcp_result_response(const json_t *id, json_t *result)
{
    return json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result);
}

json_t *ad_mcp_error_response(const json_t *id, json_t *error)
{
    json_t *null = json_null();
    json_t *r = json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : null, "error",
                          error);
    json_decref(null);
    return r;
}

static json_t *supported_versions(void)
{
    json_t *arr = json_array();
    json_array_append_new(arr, json_string(AD_MCP_MODERN_VERSION));
    for (size_t i = 0; i < LEGACY_COUNT; i++)
        json_array_append_new(arr, json_string(legacy_versions[i]));
    return arr;
}

int ad_mcp_request_era(const char *method, const json_t *params, bool initialized,
                       ad_mcp_era *ret_era, json_t **ret_error)
{
    const json_t *meta = json_object_get(params, "_meta");
    const json_t *version = json_object_get(meta, META_VERSION);
    if (strcmp(method, "initialize") == 0) {
        *ret_era = AD_MCP_LEGACY;
        return 0;
    }
    if (version) {
        if (!json_is_string(version) ||
            strcmp(json_string_value(version), AD_MCP_MODERN_VERSION) != 0) {
            json_t *data = json_pack("{s:o, s:O}", "supported", supported_versions(),
                                     "requested", version);
            *ret_error = ad_mcp_rpc_error(AD_RPC_UNSUPPORTED_VERSION,
                                          "Unsupported protocol version", data);
            return -1;
        }
        if (!json_is_object(json_object_get(meta, META_CAPABILITIES))) {
            *ret_error = ad_mcp_rpc_error(AD_RPC_INVALID_PARAMS,
                                          "Missing _meta " META_CAPABILITIES
                                          ": every " AD_MCP_MODERN_VERSION
                                          " request carries the client's capabilities",
                                          NULL);
            return -1;
        }
        *ret_era = AD_MCP_MODERN;
        return 0;
    }
    if (strcmp(method, "server/discover") == 0 || (!initialized && strcmp(method, "ping") != 0)) {
        *ret_error = ad_mcp_rpc_error(AD_RPC_INVALID_PARAMS,
                                      "Missing _meta " META_VERSION " and " META_CAPABILITIES
                                      ": give them on every request (" AD_MCP_MODERN_VERSION
                                      "), or send initialize first (" AD_MCP_LEGACY_LATEST
                                      " and earlier)",
                                      json_pack("{s:o}", "supported", supported_versions()));
        return -1;
    }
    *ret_era = AD_MCP_LEGACY;
    return 0;
}

void ad_mcp_finish_result(json_t *result, ad_mcp_era era)
{
    if (era == AD_MCP_MODERN)
        json_object_set_new(result, "resultType", json_string("complete"));
}

static json_t *server_info(void)
{
    return json_pack("{s:s, s:s, s:s}", "name", "agent-desktop", "title", "agent-desktop",
                     "version", AD_RELEASE_VERSION);
}

json_t *ad_mcp_initialize_result(const json_t *params)
{
    const char *asked = json_string_value(json_object_get(params, "protocolVersion"));
    const char *chosen = AD_MCP_LEGACY_LATEST;
    for (size_t i = 0; asked && i < LEGACY_COUNT; i++)
        if (strcmp(asked, legacy_versions[i]) == 0)
            chosen = legacy_versions[i];
    return json_pack("{s:s, s:{s:{s:b}}, s:o, s:s}", "protocolVersion", chosen, "capabilities",
                     "tools", "listChanged", 0, "serverInfo", server_info(), "instructions",
                     instructions);
}

json_t *ad_mcp_discover_result(void)
{
    return json_pack("{s:o, s:{s:{}}, s:s, s:i, s:s, s:{s:o}}", "supportedVersions",
                     supported_versions(), "capabilities", "tools", "instructions",
                     instructions, "ttlMs", CACHE_TTL_MS, "cacheScope", "public", "_meta",
                     META_SERVER_INFO, server_info());
}

json_t *ad_mcp_tools_list_result(const json_t *params, ad_mcp_era era, json_t **ret_error)
{
    size_t count;
    const ad_mcp_tool *tools = ad_mcp_tools(&count);
    size_t start = 0;
    const json_t *cursor = json_object_get(params, "cursor");
    if (cursor && !json_is_null(cursor)) {
        /* Our cursors are the decimal index of the page's first tool. */
        const char *text = json_string_value(cursor);
        char *end = NULL;
        unsigned long v = text && *text ? strtoul(text, &end, 10) : 0;
        if (!text || !*text || *end || v == 0 || v >= count) {
            *ret_error = ad_mcp_rpc_error(AD_RPC_INVALID_PARAMS,
                                          "Unknown cursor: pass a nextCursor from tools/list",
                                          NULL);
            return NULL;
        }
        start = v;
    }
    json_t *list = json_array();
    size_t end_index = start + TOOLS_PAGE < count ? start + TOOLS_PAGE : count;
    for (size_t i = start; i < end_index; i++)
        json_array_append_new(list, ad_mcp_tool_json(&tools[i]));
    json_t *result = json_pack("{s:o}", "tools", list);
    if (end_index < count) {
        char next[32];
        snprintf(next, sizeof(next), "%zu", end_index);
        json_object_set_new(result, "nextCursor", json_string(next));
    }
    if (era == AD_MCP_MODERN) {
        json_object_set_new(result, "ttlMs", json_integer(CACHE_TTL_MS));
        json_object_set_new(result, "cacheScope", json_string("public"));
    }
    return result;
}
