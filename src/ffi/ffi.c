/* ffi.c: the C ABI over the same dispatch as the CLI. Each JSON entrypoint builds the
 * command's arguments, runs ad_dispatch, returns the envelope as an owned string, and mirrors
 * an error envelope into the thread's last-error slot. */
#include "agent_desktop.h"

#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "linux/linux_adapter.h"

struct AdAdapter {
    char *session;
};

typedef struct {
    AdResult code;
    char *message, *suggestion, *platform_detail, *details;
} last_error;

static _Thread_local last_error tl_error;

static void error_reset(void)
{
    free(tl_error.message);
    free(tl_error.suggestion);
    free(tl_error.platform_detail);
    free(tl_error.details);
    memset(&tl_error, 0, sizeof(tl_error));
}

static AdResult code_of(const char *name)
{
    static const struct { const char *n; AdResult c; } map[] = {
        {"PERM_DENIED", AD_RESULT_ERR_PERM_DENIED},
        {"ELEMENT_NOT_FOUND", AD_RESULT_ERR_ELEMENT_NOT_FOUND},
        {"APP_NOT_FOUND", AD_RESULT_ERR_APP_NOT_FOUND},
        {"ACTION_FAILED", AD_RESULT_ERR_ACTION_FAILED},
        {"ACTION_NOT_SUPPORTED", AD_RESULT_ERR_ACTION_NOT_SUPPORTED},
        {"STALE_REF", AD_RESULT_ERR_STALE_REF},
        {"WINDOW_NOT_FOUND", AD_RESULT_ERR_WINDOW_NOT_FOUND},
        {"PLATFORM_NOT_SUPPORTED", AD_RESULT_ERR_PLATFORM_NOT_SUPPORTED},
        {"TIMEOUT", AD_RESULT_ERR_TIMEOUT},
        {"INVALID_ARGS", AD_RESULT_ERR_INVALID_ARGS},
        {"NOTIFICATION_NOT_FOUND", AD_RESULT_ERR_NOTIFICATION_NOT_FOUND},
        {"SNAPSHOT_NOT_FOUND", AD_RESULT_ERR_SNAPSHOT_NOT_FOUND},
        {"POLICY_DENIED", AD_RESULT_ERR_POLICY_DENIED},
        {"AMBIGUOUS_TARGET", AD_RESULT_ERR_AMBIGUOUS_TARGET},
        {"APP_UNRESPONSIVE", AD_RESULT_ERR_APP_UNRESPONSIVE},
    };
    for (size_t i = 0; name && i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(map[i].n, name) == 0)
            return map[i].c;
    return AD_RESULT_ERR_INTERNAL;
}

static char *dup_json_str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? strdup(s) : NULL;
}

static AdResult fail(AdResult code, const char *message)
{
    error_reset();
    tl_error.code = code;
    tl_error.message = strdup(message);
    return code;
}

/* Runs one command and hands back the envelope; records the error of an ok:false one. */
static AdResult run(const struct AdAdapter *adapter, const char *name, json_t *args,
                    char **out)
{
    if (!out) {
        json_decref(args);
        return fail(AD_RESULT_ERR_INVALID_ARGS, "out must not be NULL");
    }
    *out = NULL;
    const ad_command *cmd = ad_command_find(name);
    json_t *globals = json_object();
    if (adapter && adapter->session)
        json_object_set_new(globals, "session", json_string(adapter->session));
    ad_adapter *a = ad_linux_adapter_new();
    int exit_code = 0;
    json_t *env = a && cmd ? ad_dispatch(a, cmd, args, globals, &exit_code) : NULL;
    if (a)
        a->ops->destroy(a);
    json_decref(globals);
    json_decref(args);
    if (!env)
        return fail(AD_RESULT_ERR_INTERNAL, "out of memory");
    *out = json_dumps(env, JSON_COMPACT);
    error_reset();
    AdResult rc = AD_RESULT_OK;
    if (exit_code != 0) {
        json_t *e = json_object_get(env, "error");
        rc = code_of(json_string_value(json_object_get(e, "code")));
        tl_error.code = rc;
        tl_error.message = dup_json_str(e, "message");
        tl_error.suggestion = dup_json_str(e, "suggestion");
        tl_error.platform_detail = dup_json_str(e, "platform_detail");
        json_t *d = json_object_get(e, "details");
        tl_error.details = d ? json_dumps(d, JSON_COMPACT) : NULL;
    }
    json_decref(env);
    return rc;
}

uint32_t ad_abi_version(void)
{
    return AD_ABI_VERSION_MAJOR;
}

AdResult ad_init(uint32_t expected_major)
{
    if (expected_major != AD_ABI_VERSION_MAJOR)
        return fail(AD_RESULT_ERR_INVALID_ARGS, "ABI major version mismatch");
    error_reset();
    return AD_RESULT_OK;
}

struct AdAdapter *ad_adapter_create(void)
{
    return calloc(1, sizeof(struct AdAdapter));
}

struct AdAdapter *ad_adapter_create_with_session(const char *session)
{
    struct AdAdapter *a = ad_adapter_create();
    if (a && session && !(a->session = strdup(session))) {
        free(a);
        return NULL;
    }
    return a;
}

void ad_adapter_destroy(struct AdAdapter *adapter)
{
    if (!adapter)
        return;
    free(adapter->session);
    free(adapter);
}

AdResult ad_check_permissions(const struct AdAdapter *adapter)
{
    char *out = NULL;
    AdResult rc = run(adapter, "permissions", json_object(), &out);
    json_t *env = out ? json_loads(out, 0, NULL) : NULL;
    const char *state = json_string_value(json_object_get(
        json_object_get(json_object_get(env, "data"), "accessibility"), "state"));
    if (rc == AD_RESULT_OK && (!state || strcmp(state, "granted") != 0))
        rc = fail(AD_RESULT_ERR_PERM_DENIED, "the accessibility bus did not answer");
    json_decref(env);
    free(out);
    return rc;
}

AdResult ad_snapshot(const struct AdAdapter *adapter, const char *app, int32_t surface,
                     uint8_t max_depth, bool interactive_only, bool compact, char **out)
{
    static const char *const surfaces[] = {"window", "focused", "menu", "menubar", "sheet",
                                           "popover", "alert"};
    if (surface < 0 || surface >= (int32_t)(sizeof(surfaces) / sizeof(surfaces[0])))
        return fail(AD_RESULT_ERR_INVALID_ARGS, "surface is not an AdSnapshotSurface value");
    /* The given arguments only, as the CLI passes them: dispatch's validator checks the
     * depth (0 to 50) and adds the table's defaults (timeout_ms). */
    json_t *args = json_pack("{s:s, s:i, s:b, s:b}", "surface", surfaces[surface],
                             "max_depth", max_depth, "interactive_only", interactive_only,
                             "compact", compact);
    if (app)
        json_object_set_new(args, "app", json_string(app));
    return run(adapter, "snapshot", args, out);
}

AdResult ad_status(const struct AdAdapter *adapter, char **out)
{
    return run(adapter, "status", json_object(), out);
}

AdResult ad_version(char **out)
{
    return run(NULL, "version", json_object(), out);
}

/* trace show or export: `key` (event or out) is passed only when value is not NULL. */
static AdResult run_trace(const struct AdAdapter *adapter, const char *action, int32_t limit,
                          const char *key, const char *value, char **out)
{
    json_t *args = json_pack("{s:s, s:i}", "action", action, "limit", (int)limit);
    if (value)
        json_object_set_new(args, key, json_string(value));
    return run(adapter, "trace", args, out);
}

AdResult ad_trace_show(const struct AdAdapter *adapter, int32_t limit, const char *event_prefix,
                       char **out)
{
    return run_trace(adapter, "show", limit, "event", event_prefix, out);
}

AdResult ad_trace_export(const struct AdAdapter *adapter, int32_t limit, const char *out_path,
                         char **out)
{
    return run_trace(adapter, "export", limit, "out", out_path, out);
}

AdResult ad_last_error_code(void) { return tl_error.code; }
const char *ad_last_error_message(void) { return tl_error.message; }
const char *ad_last_error_suggestion(void) { return tl_error.suggestion; }
const char *ad_last_error_platform_detail(void) { return tl_error.platform_detail; }
const char *ad_last_error_details(void) { return tl_error.details; }

void ad_free_string(char *s)
{
    free(s);
}
