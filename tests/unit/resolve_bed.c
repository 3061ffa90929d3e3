/* resolve_bed.c: the shared live-resolution bed (resolve_bed.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "resolve_bed.h"

tu_resolve_bed *tu_resolve_bed_new(ad_node *root)
{
    tu_resolve_bed *b = calloc(1, sizeof(*b));
    assert_non_null(b);
    b->fake = fake_new();
    fake_add_app(b->fake, "calc", 42);
    fake_add_window(b->fake, "calc", "Calc", root);
    b->ctx.adapter = fake_base(b->fake);
    tu_home_begin(&b->home);
    b->ctx.state_root = b->home.state;
    return b;
}

void tu_resolve_bed_free(tu_resolve_bed *b)
{
    ad_resolved_clear(&b->r);
    ad_error_clear(&b->err);
    fake_free(b->fake);
    tu_home_end(&b->home);
    free(b);
}

json_t *tu_resolve_refmap(json_t *e)
{
    return json_pack("{s:s, s:{s:i, s:s, s:s}, s:{s:o}}", "snapshot_id", "s1abc", "source",
                     "pid", 42, "process_instance", "boot:1", "source_window_id", "w-fake-1",
                     "refs", "@e1", e);
}

void tu_resolve_bed_load(tu_resolve_bed *b, json_t *e)
{
    b->r.refmap = tu_resolve_refmap(e);
    b->r.entry = e;
    assert_int_equal(ad_ref_parse("@s1abc:e1", &b->r.ref, &b->err), 0);
    ad_ref_key(1, b->r.key, sizeof(b->r.key));
}
