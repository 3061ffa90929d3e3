/* overlay_style.h: the cursor overlay's style model (commands/system.md "cursor-overlay").
 *
 * A style is a JSON object, the one form the session file, the enable result and the helper
 * request share:
 *   {"accent":"#RRGGBB","fill":"#RRGGBB"?,"rim":"#RRGGBB","size":1.0,"ripple":bool,
 *    "highlight":bool,"label":TEXT?,"max_words":N,"travel_ms":[MIN,MAX],"bow":N,
 *    "overshoot":N,"tremor":N,"dwell_ms":N,"motion_seed":N?,
 *    "image":PATH?,"hotspot":[X,Y]?,"pointer_image":PATH?,"pointer_hotspot":[X,Y]?}
 * Colours are normalised to upper case. The defaults below are the ones the command table
 * declares (command_args.c uses these macros), so a style made without arguments (session
 * start --cursor) equals `cursor-overlay enable` without flags.
 */
#ifndef AD_OVERLAY_STYLE_H
#define AD_OVERLAY_STYLE_H

#include <stdbool.h>
#include <jansson.h>

#include "core/error.h"

#define AD_OVERLAY_ACCENT "#4299FF"
#define AD_OVERLAY_RIM "#111318"
#define AD_OVERLAY_SIZE "1.0"
#define AD_OVERLAY_MAX_WORDS "6"
#define AD_OVERLAY_TRAVEL_MS "90,320"
#define AD_OVERLAY_BOW "1"
#define AD_OVERLAY_OVERSHOOT "0.035"
#define AD_OVERLAY_TREMOR "1.1"
#define AD_OVERLAY_DWELL_MS "0"
/* "Maximum travel plus dwell must not exceed 700 ms." */
#define AD_OVERLAY_MAX_WAIT_MS 700
/* --image / --pointer-image: "at most 2 MiB and 1024 pixels per side". */
#define AD_OVERLAY_IMAGE_MAX_BYTES (2 * 1024 * 1024)
#define AD_OVERLAY_IMAGE_MAX_SIDE 1024

/* The table's check for cursor-overlay (command_table.h `check`): every style flag of
 * `enable` that the table's types cannot say (hex colours, decimal ranges, MIN,MAX, the
 * 700 ms budget, the label's 1 to 12 words, PNG files and their hotspots). 0, or -1 with
 * INVALID_ARGS naming the argument. Reads the image files' headers, nothing of the desktop. */
int ad_overlay_args_check(const json_t *given, const json_t *args, ad_error *err);

/* The style of validated, defaults-filled arguments (a new reference the caller owns);
 * missing keys take the defaults above. NULL on OOM. */
json_t *ad_overlay_style_from_args(const json_t *args);

/* The part of a style the enable result shows as cursor_overlay.style (system.md example):
 * accent, fill when set, highlight, rim, ripple, size. A new reference. */
json_t *ad_overlay_style_summary(const json_t *style);

#endif
