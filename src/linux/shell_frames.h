/* shell_frames.h: reads GNOME Shell's window list (shell_geometry.h) over the session bus,
 * the one source of window frames on screen in a GNOME Wayland session. Screen coordinates
 * for element bounds (wayland_place.h), list-windows bounds (atspi_windows.c) and window
 * captures use it; nothing else asks the shell for geometry. */
#ifndef AD_SHELL_FRAMES_H
#define AD_SHELL_FRAMES_H

#include <stdint.h>

#include "linux/shell_geometry.h"

/* Why the list could not be read. */
typedef enum ad_shell_frames_state {
    AD_SHELL_FRAMES_OK = 0,
    AD_SHELL_FRAMES_NO_SHELL,    /* no session bus, or nobody owns org.gnome.Shell */
    AD_SHELL_FRAMES_UNSAFE_OFF,  /* gnome-shell answered Eval with (false, ''): not in unsafe
                                  * mode, so it gives no window positions */
    AD_SHELL_FRAMES_FAILED,      /* no answer before the deadline, or an unexpected reply */
} ad_shell_frames_state;

/* Asks gnome-shell (org.gnome.Shell.Eval) for every MetaWindow's pid, title, client type,
 * frame and buffer rectangles, focus and minimized state, and for its own pid; waits at most
 * until deadline_us and never longer than 1 s (a stopped shell costs a command that much).
 * Returns the state; *ret is filled for AD_SHELL_FRAMES_OK, and for AD_SHELL_FRAMES_UNSAFE_OFF
 * its shell_pid (the pid of the connection that answered for org.gnome.Shell, 0 when
 * unknown) and screen (Introspect's ScreenSize, empty when unknown) alone, and is the
 * caller's (ad_shell_windows_free). */
ad_shell_frames_state ad_shell_frames_read(int64_t deadline_us, ad_shell_windows *ret);

#endif
