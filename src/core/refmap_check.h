/* refmap_check.h: a loaded refmap is untrusted input (anyone who can write the file can edit
 * it), so every field resolution and the commands read is checked before any of them sees
 * the map. A malformed field must never weaken a check: a pid that is not a real process id
 * would skip the process and instance checks, a short anchor chain would skip hops.
 *
 * Checked: snapshot_id (equal to the requested id), next_ref and created_at (integers in
 * range when present), app/surface (strings), window (object or null), source (pid 1..2^22,
 * process_instance and source_window_id short printable strings, the other source fields
 * typed), and every "@eN" entry of refs (role, text fields, unique_at_capture, anchor with
 * exactly hops-1 intermediate identities, bounds, states, available_actions, path, root_ref,
 * drill_target). */
#ifndef AD_REFMAP_CHECK_H
#define AD_REFMAP_CHECK_H

#include <jansson.h>

#include "core/error.h"

/* 0 when map is a well-formed refmap of snapshot_id. Otherwise -1 with SNAPSHOT_NOT_FOUND
 * (details.kind "refmap_invalid"); the message names the first bad field, never its value. */
int ad_refmap_check(const json_t *map, const char *snapshot_id, ad_error *err);

/* Sets that error: snapshot_id's refmap is unusable because of `why` (a field or file name,
 * never content). Returns -1. Also used by refstore.c for a file that cannot be read. */
int ad_refmap_invalid(ad_error *err, const char *snapshot_id, const char *why);

#endif
