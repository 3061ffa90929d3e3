/* clip_formats.c: file URLs, uri lists and the PNG header (clip_formats.h). */
#include "core/clip_formats.h"

#include <stdlib.h>
#include <string.h>

static int unreserved(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '/';
}

char *ad_file_url_from_path(const char *abs_path)
{
    if (!abs_path || abs_path[0] != '/')
        return NULL;
    size_t n = strlen(abs_path);
    char *url = malloc(7 + n * 3 + 1);
    if (!url)
        return NULL;
    static const char hex[] = "0123456789ABCDEF";
    char *p = url;
    memcpy(p, "file://", 7);
    p += 7;
    for (const unsigned char *s = (const unsigned char *)abs_path; *s; s++) {
        if (unreserved(*s)) {
            *p++ = (char)*s;
        } else {
            *p++ = '%';
            *p++ = hex[*s >> 4];
            *p++ = hex[*s & 15];
        }
    }
    *p = '\0';
    return url;
}

void ad_string_list_free(char **list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        free(list[i]);
    free(list);
}

long ad_file_list_parse(const char *type, const char *text, size_t len, size_t max,
                        char ***ret)
{
    size_t skip = 0;
    if (strcmp(type, "x-special/gnome-copied-files") == 0) {
        const char *nl = memchr(text, '\n', len);
        skip = nl ? (size_t)(nl - text) + 1 : len;
    }
    return ad_uri_list_parse(text + skip, len - skip, max, ret);
}

long ad_uri_list_parse(const char *text, size_t len, size_t max, char ***ret)
{
    char **list = NULL;
    size_t n = 0, cap = 0;
    size_t i = 0;
    while (i < len && n < max) {
        size_t start = i;
        while (i < len && text[i] != '\n' && text[i] != '\r')
            i++;
        size_t end = i;
        while (i < len && (text[i] == '\n' || text[i] == '\r'))
            i++;
        if (end == start || text[start] == '#' || memchr(text + start, '\0', end - start))
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            char **grown = realloc(list, ncap * sizeof(*list));
            if (!grown)
                goto oom;
            list = grown;
            cap = ncap;
        }
        list[n] = strndup(text + start, end - start);
        if (!list[n])
            goto oom;
        n++;
    }
    *ret = list;
    return (long)n;
oom:
    ad_string_list_free(list, n);
    return -1;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int ad_png_size(const unsigned char *data, size_t len, uint32_t *ret_width,
                uint32_t *ret_height)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    /* signature, then the IHDR chunk: length 13, "IHDR", width, height, ... */
    if (len < 8 + 8 + 13 || memcmp(data, sig, 8) != 0 || be32(data + 8) != 13 ||
        memcmp(data + 12, "IHDR", 4) != 0)
        return -1;
    uint32_t w = be32(data + 16), h = be32(data + 20);
    if (w == 0 || h == 0 || w > 0x7fffffffu || h > 0x7fffffffu)
        return -1;
    *ret_width = w;
    *ret_height = h;
    return 0;
}
