/* resolve_bed.h: the live-resolution bed test_resolve.c and test_resolve_ids.c share: a
 * private state root and a fake adapter with one app "calc" (pid 42, instance "boot:1")
 * whose window "Calc" (w-fake-1) owns a given tree, and a ref entry loaded as @s1abc:e1. */
#ifndef TU_RESOLVE_BED_H
#define TU_RESOLVE_BED_H

#include <jansson.h>

#include "core/resolve.h"
#include "fake_adapter.h"
#include "test_util.h"

typedef struct {
    tu_home home;
    fake_adapter *fake;
    ad_ctx ctx;
    ad_resolved r;
    ad_error err;
} tu_resolve_bed;

/* A new bed whose window owns root (moved in); tu_resolve_bed_free frees all of it. */
tu_resolve_bed *tu_resolve_bed_new(ad_node *root);
void tu_resolve_bed_free(tu_resolve_bed *b);
/* A refmap around one entry (stolen) as @e1 of snapshot s1abc, captured from the bed's
 * process and window (new reference). */
json_t *tu_resolve_refmap(json_t *entry);
/* Loads entry (stolen) into b->r as @s1abc:e1, as ad_resolve_load would. */
void tu_resolve_bed_load(tu_resolve_bed *b, json_t *entry);

#endif
