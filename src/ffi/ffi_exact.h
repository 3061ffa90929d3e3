/* ffi_exact.h: what the typed (struct-based) calls of the library share. A list the library
 * returns keeps the command's `data` (a json_t) as its arena: every string of its entries is
 * borrowed from that JSON, so the list's free function releases them all at once. */
#ifndef AD_FFI_EXACT_H
#define AD_FFI_EXACT_H

#include <jansson.h>
#include <stdlib.h>

#include "ffi/ffi_private.h"

/* Defines opaque list `List` of `Item` entries and its count, get and free functions (the
 * ABI's), plus `static struct List *List_new(json_t *data, size_t n)`: a list of n zeroed
 * entries that owns `data` (stolen, released on failure); NULL (INTERNAL recorded) when out
 * of memory. `data` owns every string of the entries; `count` may be set below n; `extra`
 * (NULL or malloc'd) holds what the entries point to besides data, freed with the list. */
#define FFI_LIST_DEFINE(List, Item, count_fn, get_fn, free_fn)                          \
    struct List {                                                                       \
        json_t *data;                                                                   \
        Item *items;                                                                    \
        uint32_t count;                                                                 \
        void *extra;                                                                    \
    };                                                                                  \
    uint32_t count_fn(const struct List *list) { return list ? list->count : 0; }      \
    const Item *get_fn(const struct List *list, uint32_t index)                        \
    {                                                                                   \
        return list && index < list->count ? &list->items[index] : NULL;                \
    }                                                                                   \
    void free_fn(struct List *list)                                                     \
    {                                                                                   \
        if (!list)                                                                      \
            return;                                                                     \
        json_decref(list->data);                                                        \
        free(list->items);                                                              \
        free(list->extra);                                                              \
        free(list);                                                                     \
    }                                                                                   \
    static struct List *List##_new(json_t *data, size_t n)                              \
    {                                                                                   \
        struct List *list = calloc(1, sizeof(*list));                                   \
        Item *items = calloc(n ? n : 1, sizeof(Item));                                  \
        if (!list || !items) {                                                          \
            free(list);                                                                 \
            free(items);                                                                \
            json_decref(data);                                                          \
            ffi_fail(AD_RESULT_ERR_INTERNAL, "out of memory", NULL);                    \
            return NULL;                                                                \
        }                                                                               \
        list->data = data;                                                              \
        list->items = items;                                                            \
        return list;                                                                    \
    }

/* A pointer out-parameter `out`: INVALID_ARGS (recorded) when NULL, else *out = NULL and
 * AD_RESULT_OK, before any other argument is checked. */
#define FFI_TAKE_OUT(out) \
    (ffi_check_ptr((out), "out") == AD_RESULT_OK ? (*(out) = NULL, AD_RESULT_OK) \
                                                 : AD_RESULT_ERR_INVALID_ARGS)

/* A string member of o, borrowed from o, or NULL (absent, null or not a string). */
const char *ffi_json_str(const json_t *o, const char *key);
/* An integer member of o as a pid (0 when absent or out of range). */
uint32_t ffi_json_pid(const json_t *o, const char *key);
/* A number member of o (integer or real), or 0. */
double ffi_json_num(const json_t *o, const char *key);
/* o's "bounds" object into *r; false (and *r zeroed) when there is none. */
bool ffi_json_rect(const json_t *o, AdRect *r);



/* A list-windows row (or launch's window) into *out, version and size set; its strings are
 * borrowed from row. */
void ffi_exact_window_of(const json_t *row, AdExactWindowInfo *out);

/* An exact window argument: non-NULL, version AD_EXACT_WINDOW_INFO_VERSION, size
 * AD_EXACT_WINDOW_INFO_SIZE, a window id, bounded UTF-8 strings. INVALID_ARGS otherwise. */
AdResult ffi_check_exact_window(const AdExactWindowInfo *win, const char *what);

/* The window `win` names still belongs to the process instance it carries: list-windows (the
 * CLI's door) is read and the row with win's id compared. STALE_REF (recorded) when the
 * instance differs; AD_RESULT_OK when it matches, when win carries no instance, or when the
 * id is not listed (the command then reports WINDOW_NOT_FOUND itself). */
AdResult ffi_check_window_identity(const struct AdAdapter *adapter, const AdExactWindowInfo *win);

/* The given arguments of a window command: {"window_id": id} (new reference). */
json_t *ffi_window_target(const AdExactWindowInfo *win);

/* A finite coordinate or delta as a whole pixel or line, rounded to the nearest. INVALID_ARGS
 * (recorded) for a non-finite value or one outside int32. */
AdResult ffi_whole(double v, const char *what, int *out);

#endif
