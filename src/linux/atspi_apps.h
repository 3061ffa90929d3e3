/* atspi_apps.h: the application inventory and top-level windows over AT-SPI. */
#ifndef AD_ATSPI_APPS_H
#define AD_ATSPI_APPS_H

#include <systemd/sd-bus.h>

#include <stdbool.h>

#include "linux/dbus_pipe.h"
#include "linux/desktop_entry.h"
#include "linux/shell_frames.h" /* ad_shell_reader */
#include "platform/adapter.h"

/* How long one app may stay silent before it costs only its own entry (skipped as
 * "unresponsive", ad_pipe_set_answer_budget). A healthy app answers a property Get in
 * milliseconds, a loaded one in a few hundred; a stopped one never does, and must not hold up
 * the others' answers. */
#define AD_ATSPI_APP_ANSWER_BUDGET_US (1000 * 1000)

/* Every app on the registry, asked in parallel, each within its own answer budget. An app
 * that does not answer is in ret->skipped (complete false), never a row. Bundle ids and
 * desktop names come from desktop_entries (borrowed: the adapter's table; NULL: none). */
int ad_atspi_list_apps(sd_bus *bus, ad_desktop_entries *desktop_entries, int64_t deadline_us,
                       ad_app_list *ret, ad_error *err);
/* One app by bus name (no desktop entry lookup); an app that does not answer is skipped. */
int ad_atspi_probe_app(sd_bus *bus, const char *bus_name, int64_t deadline_us,
                       ad_app_list *ret, ad_error *err);
/* Windows of the given apps (every app, without desktop entries, when apps is NULL). On
 * Wayland GNOME Shell's list is read through `shell` (the adapter's, borrowed; NULL: a reader
 * of this call alone). */
int ad_atspi_list_windows(sd_bus *bus, ad_shell_reader *shell, const ad_app_list *apps,
                          int64_t deadline_us, ad_window_list *ret, ad_error *err);
int ad_atspi_window_lookup(sd_bus *bus, ad_shell_reader *shell, const char *window_id,
                           int64_t deadline_us, ad_window *ret, ad_error *err);

/* "w-1.11-org-a11y-atspi-accessible-3" <-> (":1.11", "/org/a11y/atspi/accessible/3"). */
char *ad_atspi_window_id(const char *bus, const char *path);
int ad_atspi_window_id_parse(const char *id, char **ret_bus, char **ret_path);



/* True when the app behind bus_name is a GTK 4 app (Application.ToolkitName "GTK",
 * Version 4.x). False when it is not or the properties cannot be read by deadline_us. */
bool ad_atspi_app_is_gtk4(sd_bus *bus, const char *bus_name, int64_t deadline_us);
/* The same from Application.ToolkitName and Version already read (NULL: unknown). */
bool ad_atspi_toolkit_is_gtk4(const char *name, const char *version);
/* The same for GTK 3 (Application.ToolkitName "gtk", Version "3.x"). */
bool ad_atspi_toolkit_is_gtk3(const char *name, const char *version);
/* True when the toolkit never gives an element an AccessibleId, so reading one per node
 * cannot change a read (26-42% of a snapshot's messages otherwise). GTK 4.0-4.14's
 * gtkatspicontext.c answers the property with a constant "" (Debian 12: GTK 4.8.3; later GTK
 * adds gtk_accessible_get_accessible_id, so newer versions are read); Qt 5's atspiadaptor
 * has no such property. GTK 3's atk-bridge answers atk_object_get_accessible_id, which apps
 * set (the fixture does), so GTK 3, Qt 6, Chromium and unknown toolkits are read. */
bool ad_atspi_toolkit_has_no_ids(const char *name, const char *version);
/* Queues the two Gets on `pipe`; each reply is strdup'ed into *ret_name / *ret_version (the
 * caller frees them, NULL when unanswered), so a caller can read them with other calls. */
void ad_atspi_request_toolkit(ad_pipe *pipe, const char *bus_name, char **ret_name,
                              char **ret_version);
/* The pid behind a bus name, or 0 (also when the daemon does not answer by deadline_us). */
int ad_atspi_bus_pid(sd_bus *bus, const char *bus_name, int64_t deadline_us);
#endif
