/* x11_clipboard.h: the clipboard on X11, the CLIPBOARD selection (ICCCM 2).
 *
 * Reading: ConvertSelection to an unmapped window of our own, a bounded wait for the
 * owner's SelectionNotify (the deadline), then the property, by INCR when the owner sends it
 * in chunks. `auto` asks TARGETS first and takes text/uri-list (or GNOME's
 * x-special/gnome-copied-files), then image/png, then text. Text is UTF8_STRING, else the
 * Latin-1 STRING converted to UTF-8.
 *
 * Writing: an X11 selection dies with its owner's window, and this process exits right
 * after the command, so the selection is owned by agent-desktop-linux-clipboard-owner
 * (helper/clip_owner.h). The content goes to it over its socket; once it replies that it
 * owns the selection, the content is read back here through the X server and compared byte
 * for byte: success means any client can paste it now.
 *
 * Clearing: SetSelectionOwner(None), then GetSelectionOwner must say None (the helper sees
 * SelectionClear and lets go).
 *
 * In a Wayland session the three ops are wayland_clipboard.h's instead.
 *
 * Each call opens its own X connection ($DISPLAY) and closes it. Limit: a read larger than
 * AD_X11_CLIP_READ_MAX is refused.
 */
#ifndef AD_X11_CLIPBOARD_H
#define AD_X11_CLIPBOARD_H

#include "platform/adapter.h"

#define AD_X11_CLIP_READ_MAX (128u * 1024 * 1024)

/* The adapter ops clipboard_read, clipboard_write, clipboard_clear (adapter.h). */
int ad_x11_clipboard_read(ad_adapter *a, ad_clip_want want, int64_t deadline_us,
                          ad_clip_content *ret, ad_error *err);
int ad_x11_clipboard_write(ad_adapter *a, const ad_clip_content *content, int64_t deadline_us,
                           ad_error *err);
int ad_x11_clipboard_clear(ad_adapter *a, int64_t deadline_us, ad_error *err);

/* A file list read in clipboard type `type` (core/clip_formats.h ad_file_list_parse) as
 * content: 1 with *ret (AD_CLIP_FILE_URLS, at most 4096 URLs), 0 when it holds none, -1 on
 * OOM. Takes buf (malloc'd) and frees it. Shared with the Wayland clipboard. */
int ad_clip_file_list_content(const char *type, char *buf, size_t len, ad_clip_content *ret,
                              ad_error *err);

#endif
