/* clip_owner.h: the helper's "clipboard" service: owns the X11 CLIPBOARD selection.
 *
 * An X11 selection is served by the client that owns it: whoever pastes asks the owner
 * (ConvertSelection) and the owner writes the content into a property of the requestor's
 * window. So the content lives only as long as its owner; this service is that owner, in
 * the helper, so what `clipboard-set` wrote outlives the command.
 *
 * A "set" request carries one or more items, each a payload with the targets (MIME types or
 * atom names such as UTF8_STRING) it answers; the service takes the selection with a real
 * server timestamp, checks with GetSelectionOwner that it holds it, and only then replies
 * ok. It answers TARGETS, TIMESTAMP and each item's targets; content larger than one chunk
 * (256 KiB, less on a server with a smaller maximum request) goes by the INCR protocol
 * (ICCCM 2.7.2), several transfers at a time. When another client takes the selection
 * (SelectionClear) the content is dropped once no transfer still reads it, and the service
 * then holds nothing, which lets the helper exit.
 *
 * Limits: MULTIPLE is refused; an INCR transfer whose requestor stops deleting the property
 * for 10 s is abandoned; at most 16 transfers run at once (more are refused).
 */
#ifndef AD_CLIP_OWNER_H
#define AD_CLIP_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

typedef struct ad_clip_owner ad_clip_owner;

/* A service with no X connection yet (the first request names the display). NULL on OOM. */
ad_clip_owner *ad_clip_owner_new(void);
void ad_clip_owner_free(ad_clip_owner *o);

/* The X connection's fd to poll, or -1 before the first request. */
int ad_clip_owner_fd(const ad_clip_owner *o);

/* Handles every X event pending (selection requests, INCR steps, SelectionClear) and
 * abandons stalled transfers. Returns -1 when the X connection broke (the service then
 * holds nothing). */
int ad_clip_owner_dispatch(ad_clip_owner *o);

/* True while it owns the selection or an INCR transfer still runs. */
bool ad_clip_owner_holds(const ad_clip_owner *o);

/* Serves one request (borrowed header and payload[0..len)); returns the reply header, a new
 * reference: {"ok":true} or {"ok":false,"code","message"}. */
json_t *ad_clip_owner_request(ad_clip_owner *o, const json_t *req, const unsigned char *payload,
                              size_t len);

#endif
