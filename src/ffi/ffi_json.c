/* ffi_json.c: the command-backed JSON entrypoints. Each builds the command's "given"
 * arguments (as the CLI's parser would), runs the command in process through ad_dispatch,
 * the same validator, session, trace and interaction lease as the CLI, and returns its
 * envelope as an owned string. */
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "ffi/ffi_private.h"

/* ffi_run and ffi_run_headed: `headed` is the CLI's global --headed. */
static AdResult run_command(const struct AdAdapter *adapter, const char *name, json_t *given_args,
                            bool headed, json_t **data_out, char **envelope_out)
{
    if (data_out)
        *data_out = NULL;
    if (envelope_out)
        *envelope_out = NULL;
    const ad_command *cmd = ad_command_find(name);
    if (!given_args || !cmd) {
        json_decref(given_args);
        return ffi_fail(AD_RESULT_ERR_INTERNAL, "the command could not be prepared", NULL);
    }
    ad_adapter *platform = NULL;
    AdResult rc = AD_RESULT_OK;
    if (adapter || !cmd->stateless) {
        rc = ffi_call_begin(adapter, &platform);
        if (rc != AD_RESULT_OK) {
            json_decref(given_args);
            return rc;
        }
    }
    json_t *globals = json_object();
    const char *session = ffi_adapter_session(adapter);
    if (session)
        json_object_set_new(globals, "session", json_string(session));
    if (headed)
        json_object_set_new(globals, "headed", json_true());
    ad_error err = AD_ERROR_INIT;
    ad_dispatch_opts opts = {.error_out = &err};
    int exit_code = 0;
    json_t *env = ad_dispatch_with(platform, cmd, given_args, globals, &opts, &exit_code);
    if (adapter)
        ffi_call_end(adapter);
    json_decref(globals);
    json_decref(given_args);
    char *text = env ? json_dumps(env, JSON_COMPACT) : NULL;
    if (!text) {
        json_decref(env);
        ad_error_clear(&err);
        return ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);
    }
    if (exit_code != 0)
        rc = ffi_fail_record(&err);
    else if (data_out)
        *data_out = json_incref(json_object_get(env, "data"));
    if (envelope_out)
        *envelope_out = text;
    else
        free(text);
    ad_error_clear(&err);
    json_decref(env);
    return rc;
}

AdResult ffi_run(const struct AdAdapter *adapter, const char *name, json_t *given_args,
                 json_t **data_out, char **envelope_out)
{
    return run_command(adapter, name, given_args, false, data_out, envelope_out);
}

AdResult ffi_run_headed(const struct AdAdapter *adapter, const char *name, json_t *given_args,
                        json_t **data_out, char **envelope_out)
{
    return run_command(adapter, name, given_args, true, data_out, envelope_out);
}

/* The JSON entrypoints' `out`: must not be NULL; zeroed before anything is checked. */
static AdResult take_out(char **out)
{
    if (!out)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "out must not be NULL", NULL);
    *out = NULL;
    return AD_RESULT_OK;
}

AdResult ad_check_permissions(const struct AdAdapter *adapter)
{
    json_t *data = NULL;
    AdResult rc = ffi_run(adapter, "permissions", json_object(), &data, NULL);
    const char *state = json_string_value(
        json_object_get(json_object_get(data, "accessibility"), "state"));
    if (rc == AD_RESULT_OK && (!state || strcmp(state, "granted") != 0))
        rc = ffi_fail(AD_RESULT_ERR_PERM_DENIED, "the accessibility bus did not answer",
                      "Start the AT-SPI bus (at-spi-bus-launcher) in this session");
    json_decref(data);
    return rc;
}

/* AdSnapshotSurface values in order, as snapshot's --surface names them. */
const char *const ffi_surface_names[] = {
    "window", "focused", "menu", "menubar", "sheet", "popover", "alert", "desktop", "taskbar",
    "system-tray", "quick-settings", "notification-center", "toolbar", "dock", "spotlight",
    "menu-bar-extras", "system-tray-overflow", "start-menu", "action-center",
};

AdResult ad_snapshot(const struct AdAdapter *adapter, const char *app, int32_t surface,
                     uint8_t max_depth, bool interactive_only, bool compact, char **out)
{
    AdResult rc = take_out(out);
    if (rc == AD_RESULT_OK)
        rc = ffi_check_enum(surface, 0, AD_SNAPSHOT_SURFACE_ACTION_CENTER, "surface");
    if (rc == AD_RESULT_OK)
        rc = ffi_check_string(app, "app", false);
    if (rc != AD_RESULT_OK)
        return rc;
    /* The given arguments only, as the CLI passes them: the validator checks the depth
     * (up to 50), refuses a surface this platform has no value for, and adds the defaults.
     * A uint8_t has no "unset": max_depth 0 means the table's default depth (the ffi skill),
     * so it is not passed. */
    json_t *args = json_pack("{s:s, s:b, s:b}", "surface", ffi_surface_names[surface],
                             "interactive_only", interactive_only, "compact", compact);
    if (args && max_depth > 0)
        json_object_set_new(args, "max_depth", json_integer(max_depth));
    if (args && app)
        json_object_set_new(args, "app", json_string(app));
    return ffi_run(adapter, "snapshot", args, NULL, out);
}

AdResult ad_status(const struct AdAdapter *adapter, char **out)
{
    AdResult rc = take_out(out);
    return rc != AD_RESULT_OK ? rc : ffi_run(adapter, "status", json_object(), NULL, out);
}

AdResult ad_version(char **out)
{
    AdResult rc = take_out(out);
    return rc != AD_RESULT_OK ? rc : ffi_run(NULL, "version", json_object(), NULL, out);
}

/* trace show or export: `key` (event or out) is passed only when value is not NULL. */
static AdResult run_trace(const struct AdAdapter *adapter, const char *action, int32_t limit,
                          const char *key, const char *value, char **out)
{
    AdResult rc = take_out(out);
    if (rc == AD_RESULT_OK)
        rc = ffi_check_string(value, key, false);
    if (rc != AD_RESULT_OK)
        return rc;
    json_t *args = json_pack("{s:s, s:i}", "action", action, "limit", (int)limit);
    if (args && value)
        json_object_set_new(args, key, json_string(value));
    return ffi_run(adapter, "trace", args, NULL, out);
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

uint32_t ad_abi_version(void)
{
    return AD_ABI_VERSION_MAJOR;
}

AdResult ad_init(uint32_t expected_major)
{
    if (expected_major != AD_ABI_VERSION_MAJOR)
        return ffi_fail(AD_RESULT_ERR_INVALID_ARGS, "ABI major version mismatch",
                        "Load the library whose major matches AD_ABI_VERSION_MAJOR");
    return AD_RESULT_OK;
}

void ad_free_string(char *s)
{
    free(s);
}
