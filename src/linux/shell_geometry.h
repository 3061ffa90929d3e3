/* shell_geometry.h: GNOME Shell's own window list (Mutter's MetaWindows) and matching an
 * AT-SPI window to one of them, for screen coordinates on Wayland. Pure: the read is in
 * shell_frames.c.
 *
 * Measured on Debian 12 (gnome-shell 43.9, mutter 43.8, headless Wayland, scale 1):
 * - GTK 3.24 (the fixture): AT-SPI says the window is 0,0 572x922 and every element is
 *   relative to that, shadow included; Mutter's buffer rect (the whole wl_surface) is
 *   -26,9 572x922, its frame rect (xdg_surface window geometry, no shadow) 0,32 520x870. The
 *   header bar's AT-SPI 26,23 is the frame's 0,32: screen = buffer origin + extents.
 * - GTK 4.8 (gtk4-demo): AT-SPI says 0,0 800x600, the frame rect is 50,82 800x600 and the
 *   buffer rect 36,70 828x629: screen = frame origin + extents.
 * So the AT-SPI window's size says which of the two rectangles its extents start at.
 * gnome-shell's own accessibles are already in screen coordinates.
 *
 * Where the list comes from: org.gnome.Shell.Introspect.GetWindows (43) gives sizes but no
 * position, and only to allowlisted portal backends; org.gnome.Shell.Eval answers only in
 * unsafe mode. shell_frames.c uses Eval, so without unsafe mode every Wayland bound is
 * unknown. */
#ifndef AD_SHELL_GEOMETRY_H
#define AD_SHELL_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/node.h"

#define AD_SHELL_CLIENT_WAYLAND 0 /* MetaWindowClientType */
#define AD_SHELL_CLIENT_X11 1

/* One MetaWindow as gnome-shell describes it, in stage (screen) coordinates. */
typedef struct ad_shell_window {
    int pid;            /* 0 when Mutter does not know it */
    char *title;        /* NULL when the window has none; owned */
    int client_type;    /* AD_SHELL_CLIENT_* */
    bool popup;         /* a menu, combo, tooltip or popover surface, never a listed window */
    bool minimized;
    bool focused;       /* the display's focus window */
    ad_rect frame;      /* what a screenshot shows: the window without its shadow */
    ad_rect buffer;     /* the whole surface, shadow included */
} ad_shell_window;

typedef struct ad_shell_windows {
    ad_shell_window *items; /* owned */
    size_t count;
    int shell_pid;          /* gnome-shell's own process: its accessibles need no placing */
    ad_rect screen;         /* the stage: every monitor; width 0 when the shell did not say */
} ad_shell_windows;

void ad_shell_windows_free(ad_shell_windows *l);

/* Parses the JSON shell_frames.c asks gnome-shell for: {"shell_pid": N, "screen": [w, h]
 * (optional), "windows": [{"pid",
 * "title", "client", "popup", "minimized", "focused", "frame": [x,y,w,h], "buffer":
 * [x,y,w,h]}]}. 0, or -1 for any other shape (then *ret is empty). *ret is the caller's. */
int ad_shell_windows_parse(const char *json, ad_shell_windows *ret);

/* The one non-popup window of `pid` that is the AT-SPI window titled `title` (NULL or "":
 * only when the pid's windows leave exactly one of that size) whose AT-SPI size is
 * w x h: Mutter's buffer rect or frame rect of that size (within 1 px). *ret_origin is the
 * screen point of the AT-SPI window's 0,0: the origin of the rectangle that matched. NULL
 * when none or several match: a guess would put bounds on the wrong window. Borrowed. */
const ad_shell_window *ad_shell_window_of(const ad_shell_windows *l, int pid, const char *title,
                                          double w, double h, ad_rect *ret_origin);

/* The one popup surface of `pid` whose frame or buffer is w x h (within 1 px), with
 * *ret_origin set as above; NULL when none or several. Borrowed. */
const ad_shell_window *ad_shell_popup_of(const ad_shell_windows *l, int pid, double w, double h,
                                         ad_rect *ret_origin);

#endif
