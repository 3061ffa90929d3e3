/* atspi_apps.c: apps are the registry root's children; windows are an app root's children
 * with a window role. Every app is asked in parallel through one pipe; an app that does not
 * answer before the deadline is reported as skipped, never as absent. */
#include "linux/atspi_apps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/utf8.h"
#include "linux/atspi_bus.h"
#include "linux/atspi_map.h"
#include "linux/bus_call.h"
#include "linux/dbus_pipe.h"
#include "linux/desktop_entry.h"
#include "linux/gnome_shell.h"
#include "linux/proc.h"


char *ad_atspi_window_id(const char *bus, const char *path)
{
    char *id = NULL;
    if (asprintf(&id, "w-%s%s", bus[0] == ':' ? bus + 1 : bus, path) < 0)
        return NULL;
    for (char *p = id + 2; *p; p++)
        if (*p == '/')
            *p = '-';
    return id;
}

int ad_atspi_window_id_parse(const char *id, char **ret_bus, char **ret_path)
{
    if (strncmp(id, "w-", 2) != 0)
        return -1;
    const char *dash = strchr(id + 2, '-');
    if (!dash || dash == id + 2 || dash[1] == '\0')
        return -1;
    for (const char *p = id + 2; p < dash; p++)
        if (!((*p >= '0' && *p <= '9') || *p == '.'))
            return -1;
    if (asprintf(ret_bus, ":%.*s", (int)(dash - id - 2), id + 2) < 0)
        return -1;
    *ret_path = strdup(dash);
    for (char *p = *ret_path; *p; p++)
        if (*p == '-')
            *p = '/';
    return 0;
}

/* ---- apps ------------------------------------------------------------------------------- */

/* One app's answers. A row is only what was read: `replies` counts the app's own replies
 * (Name, ChildCount; a D-Bus error from the app is an answer, the pipe's own errors are not),
 * and the pid comes from the bus daemon. */
typedef struct {
    ad_app *app;
    long child_count;
    int replies;
    bool unanswering; /* the pipe gave up on the app after its answer budget */
} app_probe;

/* Counts a reply from the app itself; false when none came (cancelled or unanswered). */
static bool app_replied(app_probe *p, const sd_bus_error *e)
{
    if (ad_pipe_no_reply(e)) {
        p->unanswering |= ad_pipe_unanswered(e);
        return false;
    }
    p->replies++;
    return true;
}

static void on_app_name(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    app_probe *p = ud;
    const char *s;
    if (app_replied(p, e) && m && sd_bus_message_read(m, "v", "s", &s) >= 0)
        p->app->name = strdup(s);
}

static void on_app_child_count(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    app_probe *p = ud;
    int32_t i;
    if (app_replied(p, e) && m && sd_bus_message_read(m, "v", "i", &i) >= 0)
        p->child_count = i;
}

static void on_app_pid(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    app_probe *p = ud;
    uint32_t pid;
    if (m && sd_bus_message_read(m, "u", &pid) >= 0)
        p->app->pid = (int)pid;
}

/* Fills the process identity and the desktop entry once name and pid are known. */
static void finish_app(ad_app *a, long child_count, ad_desktop_entries *desktop_entries)
{
    a->process_instance = ad_proc_instance(a->pid);
    char *exe = ad_proc_exe_name(a->pid);
    if (!a->name || !*a->name) {
        free(a->name);
        /* A file name is bytes, not UTF-8: escaped so it can enter JSON (core/utf8.h). */
        a->name = ad_utf8_sanitize(exe ? exe : a->handle);
    }
    if (desktop_entries)
        ad_desktop_entry_find(desktop_entries, exe, a->name, &a->bundle_id, &a->desktop_name);
    char *clean = a->bundle_id ? ad_utf8_sanitize(a->bundle_id) : NULL; /* a file name too */
    if (clean) {
        free(a->bundle_id);
        a->bundle_id = clean;
    }
    /* gnome-shell's one child is its stage, which is no app window (shell_surfaces.h): it
     * has no taskbar entry, so it is a background app. */
    a->background = child_count == 0 || ad_shell_is_shell_app(a);
    free(exe);
}

/* Records an app that was not read: its handle (taken), its pid when the bus daemon gave it,
 * and why. */
static void add_skipped(ad_app_list *l, ad_app *a, const app_probe *p)
{
    ad_app_skip *s = realloc(l->skipped, (l->n_skipped + 1) * sizeof(*s));
    l->complete = false;
    if (!s) {
        ad_app_clear(a);
        return;
    }
    l->skipped = s;
    s[l->n_skipped++] = (ad_app_skip){
        .handle = a->handle,
        .pid = a->pid,
        .executable = a->pid > 0 ? ad_proc_exe_name(a->pid) : NULL,
        .reason = p->unanswering ? "unresponsive" : "deadline",
    };
    a->handle = NULL;
    ad_app_clear(a);
}
static int registry_children(sd_bus *bus, int64_t deadline_us, char ***ret, size_t *n,
                             ad_error *err)
{
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = ad_bus_call_method(bus, deadline_us, ATSPI_REGISTRY, ATSPI_ROOT_PATH,
                               ATSPI_IFACE_ACCESSIBLE, "GetChildren", &e, &reply, "");
    if (r < 0) {
        ad_atspi_registry_failed(err, r, &e);
        sd_bus_error_free(&e);
        return -1;
    }
    *ret = NULL;
    *n = 0;
    const char *b, *p;
    size_t cap = 0;
    if (sd_bus_message_enter_container(reply, 'a', "(so)") >= 0) {
        while (sd_bus_message_read(reply, "(so)", &b, &p) > 0) {
            if (*n == cap) {
                cap = cap ? cap * 2 : 16;
                char **l = realloc(*ret, cap * sizeof(*l));
                if (!l)
                    break;
                *ret = l;
            }
            (*ret)[(*n)++] = strdup(b);
        }
    }
    sd_bus_message_unref(reply);
    return 0;
}

/* Probes the given bus names in parallel (takes ownership of names and of the array).
 * Desktop entries (the adapter's table) are looked up only when given: list-apps and --app
 * need them, the window lookup behind every ref does not. */
static int probe_apps(sd_bus *bus, char **names, size_t n, int64_t deadline_us,
                      ad_desktop_entries *desktop_entries, ad_app_list *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    ret->items = calloc(n ? n : 1, sizeof(ad_app));
    app_probe *probes = calloc(n ? n : 1, sizeof(*probes));
    ad_pipe *pipe = ad_pipe_new(bus, 16);
    if (pipe)
        ad_pipe_set_answer_budget(pipe, AD_ATSPI_APP_ANSWER_BUDGET_US);
    ad_app *tmp = calloc(n ? n : 1, sizeof(ad_app));
    if (!ret->items || !probes || !pipe || !tmp) {
        free(probes);
        free(tmp);
        ad_pipe_free(pipe);
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        free(names);
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        tmp[i].handle = names[i];
        probes[i] = (app_probe){.app = &tmp[i], .child_count = -1};
        /* Two Gets, never Properties.GetAll: Qt 5.15's bridge crashes the application on
         * any GetAll (SIGSEGV; seen with Qt 5.15.8), and listing apps must not kill them. */
        ad_pipe_args name = {.sig = "ss", .s = {ATSPI_IFACE_ACCESSIBLE, "Name"}};
        ad_pipe_args count = {.sig = "ss", .s = {ATSPI_IFACE_ACCESSIBLE, "ChildCount"}};
        ad_pipe_call(pipe, names[i], ATSPI_ROOT_PATH, DBUS_IFACE_PROPERTIES, "Get", &name,
                     on_app_name, &probes[i]);
        ad_pipe_call(pipe, names[i], ATSPI_ROOT_PATH, DBUS_IFACE_PROPERTIES, "Get", &count,
                     on_app_child_count, &probes[i]);
        ad_pipe_args pid = {.sig = "s", .s = {names[i]}};
        ad_pipe_call(pipe, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                     "org.freedesktop.DBus", "GetConnectionUnixProcessID", &pid, on_app_pid,
                     &probes[i]);
    }
    ad_pipe_run(pipe, deadline_us);
    ad_pipe_free(pipe);
    ret->complete = true;
    for (size_t i = 0; i < n; i++) {
        /* Both of the app's replies and its pid: anything less is not a row. */
        if (probes[i].replies < 2 || tmp[i].pid <= 0) {
            add_skipped(ret, &tmp[i], &probes[i]);
            continue;
        }
        finish_app(&tmp[i], probes[i].child_count, desktop_entries);
        ret->items[ret->count++] = tmp[i];
    }
    free(tmp);
    free(probes);
    free(names);
    return 0;
}

int ad_atspi_list_apps(sd_bus *bus, ad_desktop_entries *desktop_entries, int64_t deadline_us,
                       ad_app_list *ret, ad_error *err)
{
    char **names = NULL;
    size_t n = 0;
    memset(ret, 0, sizeof(*ret));
    if (registry_children(bus, deadline_us, &names, &n, err) < 0)
        return -1;
    return probe_apps(bus, names, n, deadline_us, desktop_entries, ret, err);
}

int ad_atspi_probe_app(sd_bus *bus, const char *bus_name, int64_t deadline_us,
                       ad_app_list *ret, ad_error *err)
{
    char **names = malloc(sizeof(*names));
    if (!names || !(names[0] = strdup(bus_name))) {
        free(names);
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    }
    return probe_apps(bus, names, 1, deadline_us, NULL, ret, err);
}

static void on_app_string(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    char **out = ud;
    const char *s = NULL;
    if (m && sd_bus_message_read(m, "v", "s", &s) >= 0 && s)
        *out = strdup(s);
}

bool ad_atspi_toolkit_is_gtk4(const char *name, const char *version)
{
    return name && version && strcmp(name, "GTK") == 0 && atoi(version) >= 4;
}

bool ad_atspi_toolkit_is_gtk3(const char *name, const char *version)
{
    /* GTK 3.24's atk-bridge reports ToolkitName "gtk" (GTK 4 says "GTK"). */
    return name && version && strcasecmp(name, "gtk") == 0 && atoi(version) == 3;
}

bool ad_atspi_toolkit_has_no_ids(const char *name, const char *version)
{
    if (!name || !version)
        return false;
    char *end = NULL;
    long major = strtol(version, &end, 10);
    long minor = end && *end == '.' ? strtol(end + 1, NULL, 10) : -1;
    if (strcmp(name, "GTK") == 0)
        return major == 4 && minor >= 0 && minor <= 14;
    return strncmp(name, "Qt", 2) == 0 && major == 5;
}

void ad_atspi_request_toolkit(ad_pipe *pipe, const char *bus_name, char **ret_name,
                              char **ret_version)
{
    ad_pipe_args tk = {.sig = "ss", .s = {"org.a11y.atspi.Application", "ToolkitName"}};
    ad_pipe_args ver = {.sig = "ss", .s = {"org.a11y.atspi.Application", "Version"}};
    ad_pipe_call(pipe, bus_name, ATSPI_ROOT_PATH, DBUS_IFACE_PROPERTIES, "Get", &tk,
                 on_app_string, ret_name);
    ad_pipe_call(pipe, bus_name, ATSPI_ROOT_PATH, DBUS_IFACE_PROPERTIES, "Get", &ver,
                 on_app_string, ret_version);
}

bool ad_atspi_app_is_gtk4(sd_bus *bus, const char *bus_name, int64_t deadline_us)
{
    /* Both properties in flight together: an animating GTK 4 app answers one batch of calls
     * per frame (walker.c), so two round trips one after the other cost two frames. */
    char *name = NULL, *version = NULL; /* the toolkit's name and version */
    ad_pipe *pipe = ad_pipe_new(bus, 2);
    if (!pipe)
        return false;
    ad_atspi_request_toolkit(pipe, bus_name, &name, &version);
    ad_pipe_run(pipe, deadline_us);
    ad_pipe_free(pipe);
    bool gtk4 = ad_atspi_toolkit_is_gtk4(name, version);
    free(name);
    free(version);
    return gtk4;
}

int ad_atspi_bus_pid(sd_bus *bus, const char *bus_name, int64_t deadline_us)
{
    uint32_t pid = 0;
    sd_bus_message *reply = NULL;
    if (ad_bus_call_method(bus, deadline_us, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                           "org.freedesktop.DBus", "GetConnectionUnixProcessID", NULL, &reply,
                           "s", bus_name) >= 0)
        sd_bus_message_read(reply, "u", &pid);
    sd_bus_message_unref(reply);
    return (int)pid;
}
