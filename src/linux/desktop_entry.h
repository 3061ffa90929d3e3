/* desktop_entry.h: matching a running app to its desktop entry (bundle_id, Name=). */
#ifndef AD_DESKTOP_ENTRY_H
#define AD_DESKTOP_ENTRY_H

#include "linux/desktop_exec.h"

/* The installed desktop entries, read on first use and kept until freed. One per platform
 * adapter (never process-global), used by one call at a time like the adapter. */
typedef struct ad_desktop_entries ad_desktop_entries;

/* An empty table, read on the first lookup; NULL when out of memory. The caller frees it. */
ad_desktop_entries *ad_desktop_entries_new(void);

/* Finds the desktop entry whose Exec= program (base name, after `env`) equals exe or
 * app_name. On success
 * sets *ret_id (file name without .desktop) and *ret_name (Name=), both the caller's. */
int ad_desktop_entry_find(ad_desktop_entries *t, const char *exe, const char *app_name,
                          char **ret_id, char **ret_name);

/* The entry launch's APP names: the one whose id (file name without .desktop) is app, else
 * the first whose Name= equals app case-insensitively. Sets *ret_id and *ret_exec (its Exec=
 * split, `env` unwrapped: desktop_exec.h), both the caller's; -1 when none. Entries are
 * read from $XDG_DATA_HOME/applications, then each $XDG_DATA_DIRS/applications. */
int ad_desktop_entry_lookup(ad_desktop_entries *t, const char *app, char **ret_id,
                            ad_desktop_exec *ret_exec);

/* Frees the table and its entries (the adapter calls it on destroy); NULL is a no-op. */
void ad_desktop_entries_free(ad_desktop_entries *t);

#endif
