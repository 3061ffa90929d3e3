/* clip_formats.h: the clipboard's data formats, platform-free: file references as URLs
 * (RFC 8089 file URLs, the text/uri-list MIME type of RFC 2483) and the PNG header.
 *
 * Ownership: every char * and array returned is malloc'd and the caller's. */
#ifndef AD_CLIP_FORMATS_H
#define AD_CLIP_FORMATS_H

#include <stddef.h>
#include <stdint.h>

/* The largest PNG clipboard-set writes (commands/clipboard.md). */
#define AD_CLIP_IMAGE_MAX (64u * 1024 * 1024)

/* "file://" + abs_path with every byte outside RFC 3986's unreserved set and '/'
 * percent-encoded. NULL when abs_path is not absolute or on OOM. */
char *ad_file_url_from_path(const char *abs_path);

/* The URLs of a text/uri-list (CRLF or LF line ends, '#' comment lines and empty lines
 * skipped), at most max of them. Returns how many, with *ret an array of that many strings
 * (NULL when 0); -1 on OOM. Free with ad_string_list_free. */
long ad_uri_list_parse(const char *text, size_t len, size_t max, char ***ret);

/* The URLs of a file list in the clipboard type `type`: "text/uri-list" as
 * ad_uri_list_parse, or GNOME's "x-special/gnome-copied-files" (a "copy" or "cut" line, then
 * one URL a line). Returns as ad_uri_list_parse. */
long ad_file_list_parse(const char *type, const char *text, size_t len, size_t max,
                        char ***ret);

void ad_string_list_free(char **list, size_t n);

/* A PNG's size from its signature and IHDR chunk: 0 with *ret_width, *ret_height (both at
 * least 1), or -1 when data does not start like a PNG. */
int ad_png_size(const unsigned char *data, size_t len, uint32_t *ret_width,
                uint32_t *ret_height);

#endif
