/* present.h: turns one window read into the snapshot tree and its ref entries.
 *
 * Refs are allocated depth-first in document order. The presentation applies logical depth
 * (unnamed wrappers consume raw depth but not logical depth), -i, --compact, bounds, and
 * skeleton drill targets. Every ref entry's unique_at_capture is computed over the whole
 * window read, whatever part of it is presented.
 */
#ifndef AD_PRESENT_H
#define AD_PRESENT_H

#include <stdbool.h>
#include <jansson.h>

#include "core/identity.h"
#include "core/refmap_codec.h"
#include "platform/adapter.h"

typedef struct {
    bool interactive_only;
    bool compact;
    bool include_bounds;
    int max_depth; /* logical depth below the presented root */
    /* snapshot --annotate-unique: a ref whose entry records unique_at_capture false is shown
     * with "unique": false and "context", the nearest named ancestor as role:name. */
    bool annotate_unique;
    /* Budgets (core/budget.h). A name, value or description longer than clip_text_bytes
     * (0: no clipping) is shown clipped at a UTF-8 boundary, with <field>_length giving its
     * full length in bytes. The nodes in `cut` (sorted by address, n_cut of them) are shown
     * as cut containers, like a depth cut: children_count and a drill target. */
    size_t clip_text_bytes;
    const ad_node *const *cut;
    size_t n_cut;
    /* Record every emitted node with its JSON object (ad_present_result.emitted). */
    bool record_emitted;
    /* When set, each new ref entry is coded into this writer as it is made (and freed), not
     * kept in `refs`: a big window then never holds its refmap as JSON. Borrowed. */
    ad_refmap_writer *ref_sink;
} ad_present_opts;

/* A node of the presentation and the object that shows it (borrowed from the tree). */
typedef struct {
    const ad_node *node;
    json_t *json;
} ad_emitted;

/* What a ref entry records about where it came from. */
typedef struct {
    const ad_window *window;  /* source window (borrowed) */
    const char *app_name;
    const char *surface;      /* "window" */
    bool identity_proven;     /* the whole window was read completely */
    const char *root_ref_key; /* "@eK" for a drill, NULL for a full snapshot */
} ad_present_source;

typedef struct {
    json_t *tree;        /* new reference */
    size_t refs_added;
    /* The node behind each new ref, in allocation order (refs_added entries, caller frees
     * the array; the nodes are borrowed from the read). */
    const ad_node **ref_nodes;
    uint64_t first_ref;  /* the number of the first new ref */
    size_t texts_clipped; /* fields clipped by clip_text_bytes */
    /* With record_emitted: every node shown, children before their parent (caller frees
     * the array; nodes borrowed from the read, objects from the tree). */
    ad_emitted *emitted;
    size_t n_emitted;
} ad_present_result;

/* Presents the subtree at `root` (a node of the window read indexed by `idx`). New entries
 * go into `refs` (an object keyed "@eN") numbered from *next_ref, which advances. The root
 * itself gets no new ref when source->root_ref_key is set (it already has one). With
 * opts->ref_sink the entries go there instead and `refs` is not touched (may be NULL); -1 when
 * the sink fails. */
int ad_present(const ad_node *root, const ad_identity_index *idx, const ad_present_opts *opts,
               const ad_present_source *source, const char *snapshot_id, json_t *refs,
               uint64_t *next_ref, ad_present_result *ret);

/* An unnamed container: consumes raw depth but not logical depth. */
bool ad_node_is_wrapper(const ad_node *n);

/* JSON helpers shared with find and get. */
json_t *ad_rect_json(const ad_rect *r);
json_t *ad_native_id_json(const char *id);
json_t *ad_states_json(const ad_node *n);
/* A stable short hash of a rectangle, as hex text. */
void ad_rect_hash(const ad_rect *r, char buf[17]);
/* The refmap's "source" object (new reference): the Process and Source groups every entry of
 * one snapshot shares (pid, process_instance, source_app, source_window_*, source_surface,
 * bounds_space, path_is_absolute). Entries store only what differs per element. */
json_t *ad_refmap_source_new(const ad_present_source *src);
/* The node's ref entry (new reference): identity, capabilities, geometry and scope. Empty
 * fields are omitted (no states, no actions, root_ref of a full snapshot, drill_target). */
json_t *ad_ref_entry_new(const ad_node *n, const ad_identity_index *idx,
                         const ad_present_source *src, bool drill_target);

/* --annotate-unique (snapshot, find): when n's ref entry (borrowed) was not unique at
 * capture, sets "unique": false on o and "context", the nearest name around n as a
 * role:name selector, when there is one. */
void ad_present_annotate_unique(json_t *o, const ad_node *n, const json_t *entry);

#endif
