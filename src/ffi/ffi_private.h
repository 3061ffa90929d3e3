/* ffi_private.h: what the files of the C library share (include/agent_desktop.h is the ABI).
 *
 *   ffi_adapter.c  struct AdAdapter: its pool of live platform adapters, call begin/end,
 *                  revocation by destroy (a kept tombstone)
 *   ffi_error.c    the thread-local last error, set from core error records
 *   ffi_check.c    argument checks of the ABI: strings, enums, versioned structs
 *   ffi_json.c     the command-backed JSON entrypoints and ffi_run (one command, in process)
 *   ffi_exec.c     ad_execute_by_ref*, ad_wait (ABI structs to the command's arguments) and
 *                  ad_set_log_callback
 *   ffi_handle.c   native handles: the per-thread registry, landing on a handle's element
 *   ffi_find.c     ad_find_exact, ad_get, ad_is_exact: AdFindQuery through the find command
 *   ffi_tree.c     ad_get_tree_exact, ad_free_tree: the snapshot walk as a flat node array
 *   ffi_action.c   actions on native handles, AdActionResult, the exact-entry calls
 *   ffi_exact.h    what the typed (struct-based) calls share: list arenas, exact-window checks
 *   ffi_apps.c     apps and windows: list, launch, close, focus, window operations
 *   ffi_display.c  displays and screenshots (image buffers)
 *   ffi_surfaces.c the overlays a process presents
 *   ffi_input.c    clipboard and physical mouse input
 *   ffi_notify.c   notifications (through the CLI's commands; not built on Linux yet)
 *
 * Every exported function follows one pattern: zero its out-parameters, check its arguments
 * (ffi_check_*), begin the call on the adapter (ffi_call_begin), do the work through the
 * platform adapter or ffi_run, end the call, and return AD_RESULT_OK or the code ffi_fail*
 * recorded. The last error is replaced only by a failure (like errno).
 */
#ifndef AD_FFI_PRIVATE_H
#define AD_FFI_PRIVATE_H

#include <jansson.h>

#include "agent_desktop.h"
#include "core/error.h"
#include "platform/adapter.h"

/* ---- last error (ffi_error.c) ---- */

/* The AdResult of a core error code. */
AdResult ffi_result_of(ad_error_code code);
/* Replaces the calling thread's last error with a copy of err (code, message, suggestion,
 * platform detail, details, delivery). Returns the AdResult of err->code. */
AdResult ffi_fail_record(const ad_error *err);
/* The delivery and retry values of a core delivery. */
AdDeliverySemantics ffi_semantics_of(ad_delivery d);
/* Replaces the last error with `code` and a message (suggestion may be NULL); the delivery
 * is not_delivered: nothing reached the desktop. Returns code. */
AdResult ffi_fail(AdResult code, const char *message, const char *suggestion);

/* ---- argument checks (ffi_check.c): each returns AD_RESULT_OK or records INVALID_ARGS ---- */

/* s must be non-NULL when required, at most AD_MAX_STRING_BYTES and valid UTF-8; `what`
 * names the argument in the message. */
AdResult ffi_check_string(const char *s, const char *what, bool required);
/* lo <= v <= hi. */
AdResult ffi_check_enum(int32_t v, int32_t lo, int32_t hi, const char *what);
/* A non-NULL pointer argument. */
AdResult ffi_check_ptr(const void *p, const char *what);

/* ---- the adapter (ffi_adapter.c) ---- */

/* Begins a call on `adapter`: INVALID_ARGS (recorded) for NULL or a destroyed adapter. On
 * AD_RESULT_OK, *platform is one of the adapter's platform adapters, lent to this thread
 * alone until ffi_call_end (so concurrent calls never share a connection); destroy waits
 * for the calls in flight. Every AD_RESULT_OK is paired with one ffi_call_end on the same
 * thread, innermost first; a call begun inside another on the same adapter and thread
 * reuses the platform adapter the outer one holds. */
AdResult ffi_call_begin(const struct AdAdapter *adapter, ad_adapter **platform);
void ffi_call_end(const struct AdAdapter *adapter);
/* The adapter's session id, or NULL (borrowed, valid for the adapter's life). */
const char *ffi_adapter_session(const struct AdAdapter *adapter);

/* ---- one command in process (ffi_json.c) ---- */

/* Runs command `name` with the given arguments (stolen; the same "given" JSON the CLI's
 * parser builds) through ad_dispatch, with the adapter's session. adapter may be NULL only
 * for a stateless command (version). On success returns AD_RESULT_OK and, when the
 * pointers are not NULL, *data_out = the envelope's data (owned) and *envelope_out = the
 * envelope as an owned string. On a command failure records the core error record as the
 * last error, still writes *envelope_out, and returns its code. On an argument or
 * infrastructure failure writes nothing. */
AdResult ffi_run(const struct AdAdapter *adapter, const char *name, json_t *given_args,
                 json_t **data_out, char **envelope_out);
/* ffi_run with the CLI's global --headed: for the calls whose ABI carries no headless policy
 * (physical mouse input: api.md "Mouse") or whose request names the headed policy. */
AdResult ffi_run_headed(const struct AdAdapter *adapter, const char *name, json_t *given_args,
                        json_t **data_out, char **envelope_out);

/* AdSnapshotSurface values in order, as snapshot's --surface names them (ffi_json.c). */
extern const char *const ffi_surface_names[];

/* ---- exact windows and native handles (ffi_find.c, ffi_handle.c) ---- */

/* How long a handle's live read of its window may take. */
#define FFI_HANDLE_READ_MS 5000

typedef struct ffi_element ffi_element;
/* Publishes a handle for the element at `address` in window `window_id` (both copied), bound
 * to `adapter` and the calling thread, into *out. INTERNAL (recorded) when out of memory. */
AdResult ffi_handle_publish(const struct AdAdapter *adapter, const char *window_id,
                            const char *address, AdNativeHandle *out);
/* A handle argument: INVALID_ARGS (recorded) for NULL, an empty handle, one this thread did
 * not publish (another thread's, or freed) or one of another adapter. *ret is borrowed. */
AdResult ffi_handle_check(const struct AdAdapter *adapter, const AdNativeHandle *handle,
                          const ffi_element **ret);
/* Reads the handle's window live (all bounds when asked) into *tree (the caller clears it)
 * and lands *node (borrowed from it) on the handle's element: STALE_REF when the element or
 * its window is gone, TIMEOUT when a cut read could not find it. Runs between
 * ffi_call_begin and ffi_call_end; on failure *tree is empty. */
AdResult ffi_handle_land(ad_adapter *platform, const ffi_element *e, bool all_bounds,
                         ad_tree *tree, ad_node **node);
/* The handle's window id (borrowed). */
const char *ffi_handle_window(const ffi_element *e);

#endif
