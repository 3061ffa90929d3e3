/* wayland_clipboard.h: the clipboard on Wayland through wl-clipboard (wl-copy, wl-paste on
 * PATH; commands/clipboard.md: "Wayland needs wl-clipboard").
 *
 * GNOME has no data-control protocol, so wl-clipboard maps a 1x1 surface and needs keyboard
 * focus for it, which mutter 43 gives only while a seat keyboard exists: an input session
 * that already sent a key (issue 10). So every call first ensures the helper's RemoteDesktop
 * session (wayland_input.h, primed with a key). While the Overview is open the surface gets
 * no focus and wl-clipboard waits: every run is bounded by the command's deadline and then
 * killed by pid (ACTION_FAILED, cause clipboard_timeout).
 *
 * Reading: `wl-paste --list-types`, then `wl-paste --no-newline --type T` for the first
 * offered type of the wanted kind, in the X11 order (x11_clipboard.h): file references
 * (text/uri-list, x-special/gnome-copied-files), image/png, text (UTF-8 types, then STRING).
 * Nothing offered: 0 (found false).
 * Writing: `wl-copy --type T` (text/plain;charset=utf-8, image/png or text/uri-list) with
 * the content on stdin; wl-copy serves the selection from its own background process. Then
 * the content is read back with wl-paste and compared byte for byte.
 * Clearing: `wl-copy --clear`, then wl-paste must offer nothing.
 * PLATFORM_NOT_SUPPORTED when wl-copy or wl-paste is not on PATH.
 */
#ifndef AD_WAYLAND_CLIPBOARD_H
#define AD_WAYLAND_CLIPBOARD_H

#include "platform/adapter.h"

int ad_wl_clipboard_read(ad_clip_want want, int64_t deadline_us, ad_clip_content *ret,
                         ad_error *err);
int ad_wl_clipboard_write(const ad_clip_content *content, int64_t deadline_us, ad_error *err);
int ad_wl_clipboard_clear(int64_t deadline_us, ad_error *err);

#endif
