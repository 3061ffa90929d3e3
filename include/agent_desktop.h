/* agent_desktop.h: the C ABI of agent-desktop (spec/ffi/api.md).
 *
 * This header holds only what this build implements: the ABI handshake, adapter lifecycle,
 * the status / version / snapshot JSON entrypoints, the last-error accessors and
 * ad_free_string. Every AdResult function returns AD_RESULT_OK (0) or a negative code and
 * leaves the detail in the calling thread's last-error slot. Strings returned through `out`
 * belong to the caller and are freed with ad_free_string; last-error strings are borrowed and
 * valid until the next call on the same thread.
 */
#ifndef AGENT_DESKTOP_H
#define AGENT_DESKTOP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AD_ABI_VERSION_MAJOR 7

typedef enum {
    AD_RESULT_OK = 0,
    AD_RESULT_ERR_PERM_DENIED = -1,
    AD_RESULT_ERR_ELEMENT_NOT_FOUND = -2,
    AD_RESULT_ERR_APP_NOT_FOUND = -3,
    AD_RESULT_ERR_ACTION_FAILED = -4,
    AD_RESULT_ERR_ACTION_NOT_SUPPORTED = -5,
    AD_RESULT_ERR_STALE_REF = -6,
    AD_RESULT_ERR_WINDOW_NOT_FOUND = -7,
    AD_RESULT_ERR_PLATFORM_NOT_SUPPORTED = -8,
    AD_RESULT_ERR_TIMEOUT = -9,
    AD_RESULT_ERR_INVALID_ARGS = -10,
    AD_RESULT_ERR_NOTIFICATION_NOT_FOUND = -11,
    AD_RESULT_ERR_INTERNAL = -12,
    AD_RESULT_ERR_SNAPSHOT_NOT_FOUND = -13,
    AD_RESULT_ERR_POLICY_DENIED = -14,
    AD_RESULT_ERR_AMBIGUOUS_TARGET = -15,
    AD_RESULT_ERR_APP_UNRESPONSIVE = -16,
} AdResult;

typedef enum {
    AD_SNAPSHOT_SURFACE_WINDOW = 0,
    AD_SNAPSHOT_SURFACE_FOCUSED = 1,
    AD_SNAPSHOT_SURFACE_MENU = 2,
    AD_SNAPSHOT_SURFACE_MENUBAR = 3,
    AD_SNAPSHOT_SURFACE_SHEET = 4,
    AD_SNAPSHOT_SURFACE_POPOVER = 5,
    AD_SNAPSHOT_SURFACE_ALERT = 6,
} AdSnapshotSurface;

struct AdAdapter;

/* Returns the major ABI version of the loaded library. */
uint32_t ad_abi_version(void);
/* Checks the header major against the library; call once after loading. */
AdResult ad_init(uint32_t expected_major);

/* Creates a platform adapter with no session; NULL on failure. */
struct AdAdapter *ad_adapter_create(void);
/* Creates an adapter scoped to a session id; a NULL session means none. */
struct AdAdapter *ad_adapter_create_with_session(const char *session);
/* Destroys an adapter; NULL-tolerant. */
void ad_adapter_destroy(struct AdAdapter *adapter);
/* AD_RESULT_OK when the accessibility bus answers. */
AdResult ad_check_permissions(const struct AdAdapter *adapter);

/* JSON entrypoints: each writes an owned envelope into *out (free with ad_free_string), also
 * for an "ok": false envelope, and returns the envelope's error code. *out is NULL only on an
 * argument or infrastructure failure. */
AdResult ad_snapshot(const struct AdAdapter *adapter, const char *app, int32_t surface,
                     uint8_t max_depth, bool interactive_only, bool compact, char **out);
AdResult ad_status(const struct AdAdapter *adapter, char **out);
AdResult ad_version(char **out);
/* The adapter's session trace (commands/system.md, trace): the merged timeline, the last
 * `limit` events (0: all) whose name starts with event_prefix (NULL: any); and the HTML
 * viewer, written to out_path (NULL: trace-<session>.html in the session directory). */
AdResult ad_trace_show(const struct AdAdapter *adapter, int32_t limit, const char *event_prefix,
                       char **out);
AdResult ad_trace_export(const struct AdAdapter *adapter, int32_t limit, const char *out_path,
                         char **out);

/* The calling thread's last failure. */
AdResult ad_last_error_code(void);
const char *ad_last_error_message(void);
const char *ad_last_error_suggestion(void);
const char *ad_last_error_platform_detail(void);
const char *ad_last_error_details(void);

/* Frees a string the library returned; NULL-tolerant. */
void ad_free_string(char *s);

#ifdef __cplusplus
}
#endif

#endif
