/* desktop_entry.h: matching a running app to its desktop entry (bundle_id, Name=). */
#ifndef AD_DESKTOP_ENTRY_H
#define AD_DESKTOP_ENTRY_H

/* Finds the desktop entry whose Exec= program (base name) equals exe or app_name. On success
 * sets *ret_id (file name without .desktop) and *ret_name (Name=), both the caller's. */
int ad_desktop_entry_find(const char *exe, const char *app_name, char **ret_id,
                          char **ret_name);

/* The entry launch's APP names: the one whose id (file name without .desktop) is app, else
 * the first whose Name= equals app case-insensitively. Sets *ret_id and *ret_program (the
 * first word of Exec= as written), both the caller's; -1 when none. */
int ad_desktop_entry_lookup(const char *app, char **ret_id, char **ret_program);

/* Releases the entries read by ad_desktop_entry_find (the adapter calls it on destroy). */
void ad_desktop_entries_free(void);

#endif
