/* refstore.h: saved snapshots, one refmap.json per snapshot in the selected namespace.
 *
 * A refmap is a JSON object, written to disk in the compact format 2 (refmap_codec.h):
 *   { "snapshot_id", "created_at", "next_ref", "app", "window": {id,title}|null, "surface",
 *     "source": { pid, process_instance, source_app, source_window_id, ... },
 *     "refs": { "@e1": RefEntry, ... } }
 * A snapshot reads one window of one process, so the RefEntry groups Process and Source live
 * once in "source"; each entry keeps identity, geometry, capabilities and scope.
 * Writes are atomic (temp file + rename, private mode). Loaded refmaps belong to the caller.
 */
#ifndef AD_REFSTORE_H
#define AD_REFSTORE_H

#include <jansson.h>

#include "core/ctx.h"
#include "core/present.h"
#include "core/state_files.h"

#define AD_REFMAP_MAX_BYTES 1048576
#define AD_SNAPSHOTS_MAX 128
#define AD_SNAPSHOTS_KEEP 96

/* {id, title} of w, as a refmap's and a snapshot's "window" (a new reference). */
json_t *ad_window_brief_json(const ad_window *w);
/* A new refmap (the caller's) for snapshot `id` of src's window: its header and an empty
 * "refs" object, which ad_present fills. */
json_t *ad_refmap_new(const char *id, const ad_present_source *src, uint64_t next_ref);

/* Saves refmap under its "snapshot_id", updates latest_snapshot_id, and prunes the namespace
 * past 128 snapshots down to 96 (never the one just written). A refmap over 1 MiB fails with
 * INTERNAL and writes nothing. */
int ad_refstore_save(ad_ctx *ctx, const json_t *refmap, ad_error *err);
/* The same for a refmap already encoded (ad_refmap_writer_finish): `text` of `len` bytes is
 * taken over and freed; `id` is the refmap's snapshot id (borrowed). */
int ad_refstore_save_encoded(ad_ctx *ctx, const char *id, unsigned char *text, size_t len,
                             ad_error *err);

/* Loads a snapshot's refmap (new reference in *ret, the caller's) through state_files.h and
 * checks every field (refmap_check.h). SNAPSHOT_NOT_FOUND when missing, when refmap.json is
 * not a private regular JSON file within 1 MiB (details.kind "refmap_invalid"), or when a
 * field is malformed; INTERNAL when a directory on the way is not private. */
int ad_refstore_load(ad_ctx *ctx, const char *snapshot_id, json_t **ret, ad_error *err);

/* The latest snapshot id in the namespace, or NULL (caller frees) when latest_snapshot_id is
 * missing, not a regular file, or not a valid id. */
char *ad_refstore_latest(ad_ctx *ctx);

/* Prunes the snapshots directory to `keep` saved snapshots when more than `max` exist, oldest
 * first, never removing `protect`. Also removes abandoned snapshot directories (no refmap,
 * untouched for AD_STATE_STALE_TEMP_S) whatever the count. Exposed for tests. Returns the
 * number of directories removed. */
int ad_refstore_prune(const ad_state_dir *snapshots, const char *protect, int max, int keep);

#endif
