/* shell_frames.h: reads GNOME Shell's window list (shell_geometry.h) over the session bus,
 * the one source of window frames on screen in a GNOME Wayland session. Screen coordinates
 * for element bounds (wayland_place.h), list-windows bounds (atspi_windows.c) and window
 * captures use it; nothing else asks the shell for geometry. */
#ifndef AD_SHELL_FRAMES_H
#define AD_SHELL_FRAMES_H

#include <stdint.h>

#include "linux/session_bus.h"
#include "linux/shell_geometry.h"

/* Why the list could not be read. */
typedef enum ad_shell_frames_state {
    AD_SHELL_FRAMES_OK = 0,
    AD_SHELL_FRAMES_NO_SHELL,    /* no session bus, or nobody owns org.gnome.Shell */
    AD_SHELL_FRAMES_UNSAFE_OFF,  /* gnome-shell answered Eval with (false, ''): not in unsafe
                                  * mode, so it gives no window positions */
    AD_SHELL_FRAMES_FAILED,      /* no answer before the deadline, or an unexpected reply */
} ad_shell_frames_state;

/* What an adapter keeps between reads of the list (one per adapter, zeroed to start,
 * ad_shell_reader_close at its end): the session-bus connection, and once gnome-shell has
 * answered that it is not in unsafe mode, that answer with its pid and stage size. Unsafe
 * mode is a flag of the running shell (--unsafe-mode, or looking glass's toggle), so an
 * adapter does not ask again; in unsafe mode every read asks, windows move. */
typedef struct ad_shell_reader {
    ad_session_link session;
    bool unsafe_off; /* the remembered AD_SHELL_FRAMES_UNSAFE_OFF */
    int shell_pid;   /* with unsafe_off: as ad_shell_windows.shell_pid */
    ad_rect screen;  /* with unsafe_off: as ad_shell_windows.screen */
} ad_shell_reader;

/* Asks gnome-shell (org.gnome.Shell.Eval) for every MetaWindow's pid, title, client type,
 * frame and buffer rectangles, focus and minimized state, and for its own pid; waits at most
 * until deadline_us and never longer than 1 s (a stopped shell costs a command that much).
 * Returns the state; *ret is filled for AD_SHELL_FRAMES_OK, and for AD_SHELL_FRAMES_UNSAFE_OFF
 * its shell_pid (the pid of the connection that answered for org.gnome.Shell, 0 when
 * unknown) and screen (Introspect's ScreenSize, empty when unknown) alone, and is the
 * caller's (ad_shell_windows_free). After one UNSAFE_OFF answer, r answers so again from
 * memory without a call. */
ad_shell_frames_state ad_shell_frames_read(ad_shell_reader *r, int64_t deadline_us,
                                           ad_shell_windows *ret);

/* Closes r's connection and forgets what it remembered. */
void ad_shell_reader_close(ad_shell_reader *r);

#endif
