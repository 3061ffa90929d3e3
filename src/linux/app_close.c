/* app_close.c: the processes close-app never touches, and signals to one instance
 * (app_close.h). */
#include "linux/app_close.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linux/proc.h"

/* Executables whose exit ends the desktop session or its accessibility; exact names. The
 * window managers here are the fallback for one that publishes no EWMH check window. */
static const char *const protected_names[] = {
    "Xorg", "X", "Xvfb", "Xwayland", "Xephyr", "Xvnc",                  /* display servers */
    "dbus-daemon", "dbus-broker", "dbus-broker-launch",                 /* message buses */
    "at-spi-bus-launcher", "at-spi2-registryd",                         /* accessibility */
    "systemd", "init", "gnome-session-binary", "gnome-session", "xfce4-session",
    "startplasma-x11", "lxsession",                                     /* session managers */
    "openbox", "mutter", "gnome-shell", "kwin_x11", "kwin_wayland", "xfwm4", "marco",
    "metacity", "muffin", "fluxbox", "i3", "sway", "weston", "cinnamon", "plasmashell",
    NULL,                                                               /* WMs and shells */
};

/* The process's command name from /proc/pid/comm (readable for any process of the host,
 * where /proc/pid/exe is not), without the newline, into buf. */
static bool comm_name(int pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/comm", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

const char *ad_proc_protected(int pid)
{
    if (pid <= 1)
        return "the init process";
    if (pid == (int)getpid())
        return "agent-desktop itself";
    if (pid == (int)getppid())
        return "the process that runs agent-desktop";
    char *exe = ad_proc_exe_name(pid);
    char comm[64] = "";
    const char *name = exe ? exe : (comm_name(pid, comm, sizeof(comm)) ? comm : NULL);
    const char *why = NULL;
    for (size_t i = 0; name && protected_names[i] && !why; i++)
        if (strcmp(name, protected_names[i]) == 0)
            why = "a display server, message bus, accessibility daemon, session manager or "
                  "window manager";
    free(exe);
    return why;
}

int ad_proc_signal(int pid, const char *instance, bool kill_it, ad_error *err)
{
    /* The instance check and the signal are two steps; the pid cannot be reused in between
     * while it is not reaped, and a process we did not start is reaped by its own parent
     * only after it exited, which the check saw not to have happened. */
    if (!ad_proc_alive(pid, instance)) {
        ad_error_set(err, AD_ACTION_FAILED, "Process %d is no longer running", pid);
        ad_error_detail(err, "evidence", json_string("process_instance_not_running"));
        return -1;
    }
    if (kill(pid, kill_it ? SIGKILL : SIGTERM) < 0) {
        int e = errno;
        ad_error_set(err, AD_ACTION_FAILED, "Could not signal process %d: %s", pid, strerror(e));
        ad_error_platform_detail(err, strerror(e));
        return -1;
    }
    return 0;
}
