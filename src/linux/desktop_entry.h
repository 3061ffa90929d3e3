/* desktop_entry.h: matching a running app to its desktop entry (bundle_id, Name=). */
#ifndef AD_DESKTOP_ENTRY_H
#define AD_DESKTOP_ENTRY_H

/* Finds the desktop entry whose Exec= program (base name) equals exe or app_name. On success
 * sets *ret_id (file name without .desktop) and *ret_name (Name=), both the caller's. */
int ad_desktop_entry_find(const char *exe, const char *app_name, char **ret_id,
                          char **ret_name);

/* Releases the entries read by ad_desktop_entry_find (the adapter calls it on destroy). */
void ad_desktop_entries_free(void);

#endif
