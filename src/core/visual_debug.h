/* visual_debug.h: --debug --screenshot PATH.html (guides/traces.md, "Make a visual debug
 * file"): one self-contained HTML page pairing the window's picture with the labelled bounds
 * (ref, role, name) of the refs of the snapshot in play.
 *
 *  - snapshot (window surface only): the window after the read, with the new snapshot's refs;
 *  - click: the ref's window before the click and after it, with the refs of the ref's
 *    snapshot; the two pictures are separate observations, not proof of delivery.
 * The page is written owner-only (0600) as a new file; a picture that cannot be taken leaves
 * its figure out and data.debug.warning says why, but never fails the command. Pictures sit
 * at the top of the page, the first one at page (0, 0), so a page pixel is an image pixel.
 * Which commands accept the flags, and that each needs the other, is the command table's. */
#ifndef AD_VISUAL_DEBUG_H
#define AD_VISUAL_DEBUG_H

#include <stdbool.h>
#include <jansson.h>

#include "core/capture.h"
#include "core/ctx.h"

#define AD_DEBUG_WARNING_CLIP 160 /* bytes of data.debug.warning kept under a budget */

typedef struct {
    bool on;
    const char *path;   /* --screenshot (borrowed from ctx->globals) */
    ad_picture before;  /* click: the window before (empty when not taken) */
    json_t *refmap;     /* click: the ref's snapshot (owned) */
    char *ref;          /* click: the ref as given (owned) */
    char *window_id;    /* click: the ref's window (owned) */
    char *warning;      /* the first picture that could not be taken, and why (owned) */
    bool budgeted;      /* a --max-bytes budget holds room for data.debug (warning clipped) */
} ad_visual_debug;

/* Before the handler, when ctx->globals has --debug: checks PATH (ends in .html, does not
 * exist, its directory does; INVALID_ARGS otherwise, before anything reaches the desktop;
 * snapshot: --surface window only) and, for click, takes the picture before. Under a budget
 * (ctx->budget) it takes the room data.debug will need off the data's budget first, its
 * warning clipped to AD_DEBUG_WARNING_CLIP bytes: the block is added after the snapshot was
 * fitted (INVALID_ARGS when no room is left). v is the
 * caller's, zeroed; clear it with ad_visual_debug_clear. */
int ad_visual_debug_begin(ad_ctx *ctx, const json_t *args, ad_visual_debug *v, ad_error *err);

/* After a handler that succeeded: takes the last picture, writes the page and sets
 * data.debug ({path, format} and warning when a picture or the page was not written). */
void ad_visual_debug_end(ad_ctx *ctx, ad_visual_debug *v, json_t *data);

void ad_visual_debug_clear(ad_visual_debug *v);

#endif
