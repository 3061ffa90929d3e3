/* shell_frames.c: GNOME Shell's window list over org.gnome.Shell.Eval (shell_frames.h). */
#include "linux/shell_frames.h"

#include <string.h>
#include <systemd/sd-bus.h>

#include "core/deadline.h"
#include "linux/atspi_apps.h"
#include "linux/bus_call.h"

/* One expression, so one round trip. Meta.WindowType: MENU 6, DROPDOWN_MENU 9, POPUP_MENU 10,
 * TOOLTIP 11, COMBO 13 are popup surfaces; Gio.Credentials gives the shell's own pid. */
static const char LIST_JS[] =
    "(() => { const f = global.display.get_focus_window();"
    " const popups = [6, 9, 10, 11, 13];"
    " return { shell_pid: new imports.gi.Gio.Credentials().get_unix_pid(),"
    " screen: [global.screen_width, global.screen_height],"
    " windows: global.get_window_actors().map(a => { const w = a.meta_window;"
    " const r = w.get_frame_rect(), b = w.get_buffer_rect();"
    " return { pid: w.get_pid(), title: w.get_title(), client: w.get_client_type(),"
    " popup: w.is_override_redirect() || popups.includes(w.get_window_type()),"
    " minimized: w.minimized, focused: w === f,"
    " frame: [r.x, r.y, r.width, r.height], buffer: [b.x, b.y, b.width, b.height] }; }) }; })()";

/* The stage's size from org.gnome.Shell.Introspect's ScreenSize, which gnome-shell 43 gives
 * any caller (its methods are restricted, the property is not): 0 with *ret, -1 unknown. */
static int screen_size(sd_bus *bus, int64_t deadline_us, ad_rect *ret)
{
    sd_bus_message *m = NULL;
    int w = 0, h = 0, rc = -1;
    if (ad_bus_call_method(bus, deadline_us, "org.gnome.Shell", "/org/gnome/Shell/Introspect",
                           "org.freedesktop.DBus.Properties", "Get", NULL, &m, "ss",
                           "org.gnome.Shell.Introspect", "ScreenSize") >= 0 &&
        sd_bus_message_enter_container(m, 'v', "(ii)") > 0 &&
        sd_bus_message_read(m, "(ii)", &w, &h) > 0 && w > 0 && h > 0) {
        *ret = (ad_rect){0, 0, w, h};
        rc = 0;
    }
    sd_bus_message_unref(m);
    return rc;
}

/* The remembered UNSAFE_OFF answer (ad_shell_reader). */
static ad_shell_frames_state remembered_unsafe_off(const ad_shell_reader *r,
                                                   ad_shell_windows *ret)
{
    ret->shell_pid = r->shell_pid;
    ret->screen = r->screen;
    return AD_SHELL_FRAMES_UNSAFE_OFF;
}

ad_shell_frames_state ad_shell_frames_read(ad_shell_reader *rd, int64_t deadline_us,
                                           ad_shell_windows *ret)
{
    memset(ret, 0, sizeof(*ret));
    if (rd->unsafe_off)
        return remembered_unsafe_off(rd, ret);
    int64_t until = ad_deadline_within(deadline_us, 200, 1000);
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    ad_shell_frames_state st = AD_SHELL_FRAMES_FAILED;
    int ok = 0;
    const char *text = NULL;
    sd_bus *bus = ad_session_link_get(&rd->session, until);
    if (!bus)
        return AD_SHELL_FRAMES_NO_SHELL;
    int r = ad_bus_call_method(bus, until, "org.gnome.Shell", "/org/gnome/Shell",
                               "org.gnome.Shell", "Eval", &e, &reply, "s", LIST_JS);
    if (r < 0) {
        if (sd_bus_error_has_names(&e, SD_BUS_ERROR_NAME_HAS_NO_OWNER,
                                   SD_BUS_ERROR_SERVICE_UNKNOWN, SD_BUS_ERROR_UNKNOWN_METHOD,
                                   SD_BUS_ERROR_UNKNOWN_OBJECT, SD_BUS_ERROR_UNKNOWN_INTERFACE))
            st = AD_SHELL_FRAMES_NO_SHELL;
        ad_session_link_failed(&rd->session, r);
    } else if (sd_bus_message_read(reply, "bs", &ok, &text) >= 0) {
        /* gnome-shell 43 answers (false, '') outside unsafe mode, before evaluating. */
        if (!ok && text && !*text) {
            /* The connection that answered for org.gnome.Shell, as the bus daemon records
             * it (not anything the shell says). */
            const char *sender = sd_bus_message_get_sender(reply);
            rd->shell_pid = sender ? ad_atspi_bus_pid(bus, sender, until) : 0;
            rd->screen = (ad_rect){0, 0, 0, 0};
            (void)screen_size(bus, until, &rd->screen);
            rd->unsafe_off = true;
            st = remembered_unsafe_off(rd, ret);
        }
        else if (ok && ad_shell_windows_parse(text, ret) == 0)
            st = AD_SHELL_FRAMES_OK;
    }
    sd_bus_error_free(&e);
    sd_bus_message_unref(reply);
    return st;
}

void ad_shell_reader_close(ad_shell_reader *r)
{
    ad_session_link_close(&r->session);
    memset(r, 0, sizeof(*r));
}
