/* test_overlay_session.c: cursor-overlay and the action hook through ad_dispatch and the fake
 * adapter (core/overlay_session.h): what enable saves and reports, what an action asks the
 * service to draw and that it acts the same when drawing fails, disable's unconfirmed
 * teardown (delivery_uncertain, the setting saved), session end's stop, and real input
 * between a hide and an unhide (core/overlay_input.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/overlay_input.h"
#include "core/overlay_session.h"
#include "core/session.h"
#include "dispatch/command_table.h"
#include "fake_adapter.h"
#include "test_util.h"

static int setup(void **state)
{
    *state = tu_bed_new(fk("window|n=Form", fk("button|n=Save|a=Click|b=100,200,80,30", NULL),
                           NULL));
    return 0;
}

static json_t *run(tu_bed *b, const char *cmd, json_t *args, const char *session,
                   const char *agent, int want_exit)
{
    return tu_run_in(fake_base(b->fake), cmd, args, session, agent, want_exit);
}

static char *start(tu_bed *b, bool cursor, bool multi)
{
    json_t *env = run(b, "session", tu_args("session", "{s:s, s:b, s:b}", "action", "start",
                                            "cursor", cursor, "multi_agent", multi),
                      NULL, NULL, 0);
    char *id = strdup(tu_str(env, "data.session_id"));
    json_decref(env);
    return id;
}

static char *save_ref(tu_bed *b, const char *session)
{
    return tu_snapshot_ref(fake_base(b->fake), session, "Save");
}

static json_t *manifest_of(tu_bed *b, const char *id)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/sessions/%s/session.json", b->home.state, id);
    json_t *m = json_load_file(path, 0, NULL);
    assert_non_null(m);
    return m;
}

static json_t *last_request(tu_bed *b)
{
    size_t n = json_array_size(b->fake->overlay_requests);
    assert_true(n > 0);
    return json_array_get(b->fake->overlay_requests, n - 1);
}

static void test_enable_saves_and_reports(void **state)
{
    tu_bed *b = *state;
    /* Without a session: refused before anything is drawn. */
    json_t *env = run(b, "cursor-overlay", tu_args("cursor-overlay", "{s:s}", "action",
                                                   "enable"), NULL, NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_null(b->fake->overlay_requests);
    json_decref(env);
    char *id = start(b, false, false);
    env = run(b, "cursor-overlay", tu_args("cursor-overlay", "{s:s, s:s, s:s}", "action",
                                           "enable", "accent", "#ff00ff", "size", "2.5"),
              id, NULL, 0);
    assert_true(json_is_true(tu_at(env, "data.rendered")));
    assert_true(json_is_true(tu_at(env, "data.cursor_overlay.enabled")));
    assert_int_equal(tu_int(env, "data.cursor_overlay.max_words"), 6);
    assert_string_equal(tu_str(env, "data.cursor_overlay.style.accent"), "#FF00FF");
    assert_string_equal(tu_str(env, "data.activation.value"), id);
    assert_string_equal(tu_str(env, "data.session_id"), id);
    json_decref(env);
    json_t *show = last_request(b);
    assert_string_equal(tu_str(show, "op"), "show");
    assert_string_equal(tu_str(show, "cursor"), "");
    json_t *m = manifest_of(b, id);
    assert_true(json_is_true(json_object_get(m, "cursor")));
    json_decref(m);
    /* Nothing mapped: saved, rendered false. */
    b->fake->overlay_unmapped = true;
    env = run(b, "cursor-overlay", tu_args("cursor-overlay", "{s:s}", "action", "enable"), id,
              NULL, 0);
    assert_false(json_is_true(tu_at(env, "data.rendered")));
    json_decref(env);
    /* --multi-agent with --agent-id is refused. */
    env = run(b, "cursor-overlay", tu_args("cursor-overlay", "{s:s, s:b}", "action", "enable",
                                           "multi_agent", 1), id, "agent-a", 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    json_decref(env);
    free(id);
}

static void test_actions_glide_first_and_act_the_same_when_drawing_fails(void **state)
{
    tu_bed *b = *state;
    char *plain = start(b, false, false);
    char *ref = save_ref(b, plain);
    json_t *without = run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), plain, NULL, 0);
    assert_null(b->fake->overlay_requests); /* no overlay in this session: nothing asked */
    char *id = start(b, true, false);
    free(ref);
    ref = save_ref(b, id);
    json_t *with = run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), id, NULL, 0);
    json_t *glide = last_request(b);
    assert_string_equal(tu_str(glide, "op"), "glide");
    assert_string_equal(tu_str(glide, "session"), id);
    assert_true(json_number_value(tu_at(glide, "point.0")) == 140.0);
    assert_true(json_number_value(tu_at(glide, "point.1")) == 215.0);
    assert_true(json_number_value(tu_at(glide, "bounds.2")) == 80.0);
    assert_string_equal(tu_str(glide, "style.accent"), "#4299FF"); /* --cursor: defaults */
    assert_true(json_equal(tu_at(with, "data.disposition"), tu_at(without, "data.disposition")));
    assert_true(json_equal(tu_at(with, "data.steps"), tu_at(without, "data.steps")));
    json_decref(with);
    /* The service fails: the click still runs, with the same result. */
    b->fake->overlay_fails = true;
    with = run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), id, NULL, 0);
    assert_true(json_equal(tu_at(with, "data.steps"), tu_at(without, "data.steps")));
    json_decref(with);
    json_decref(without);
    free(ref);
    free(id);
    free(plain);
}

static void test_profiles_and_multi_agent_cursors(void **state)
{
    tu_bed *b = *state;
    char *id = start(b, true, true);
    json_t *env = run(b, "cursor-overlay", tu_args("cursor-overlay", "{s:s, s:s}", "action",
                                                   "enable", "accent", "#00FF00"),
                      id, "agent-b", 0);
    json_decref(env);
    json_t *m = manifest_of(b, id); /* saving a profile keeps the session's mode */
    assert_true(json_is_true(json_object_get(m, "multi_agent")));
    json_decref(m);
    char *ref = save_ref(b, id);
    json_decref(run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), id, "agent-a", 0));
    json_t *a = json_deep_copy(last_request(b));
    json_decref(run(b, "click", tu_args("click", "{s:s}", "ref_id", ref), id, "agent-b", 0));
    json_t *g = last_request(b);
    assert_string_equal(tu_str(a, "cursor"), "agent-a");
    assert_string_equal(tu_str(a, "style.accent"), "#4299FF");
    assert_string_equal(tu_str(g, "cursor"), "agent-b");
    assert_string_equal(tu_str(g, "style.accent"), "#00FF00");
    json_decref(a);
    free(ref);
    free(id);
}

static void test_disable_unconfirmed_is_delivery_uncertain(void **state)
{
    tu_bed *b = *state;
    char *id = start(b, true, false);
    b->fake->overlay_fails = true;
    json_t *env = run(b, "cursor-overlay", tu_args("cursor-overlay", "{s:s}", "action",
                                                   "disable"), id, NULL, 1);
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "delivery_uncertain");
    json_decref(env);
    json_t *m = manifest_of(b, id); /* the setting is saved all the same */
    assert_false(json_is_true(json_object_get(m, "cursor")));
    json_decref(m);
    assert_string_equal(tu_str(last_request(b), "op"), "stop");
    /* No service runs: nothing is drawn, and nothing is started to say so. */
    b->fake->overlay_fails = false;
    b->fake->overlay_down = true;
    env = run(b, "cursor-overlay", tu_args("cursor-overlay", "{s:s}", "action", "disable"), id,
              NULL, 0);
    assert_false(json_is_true(tu_at(env, "data.cursor_overlay.enabled")));
    json_decref(env);
    /* session end stops the session's cursors. */
    b->fake->overlay_down = false;
    char *other = start(b, true, false);
    size_t before = json_array_size(b->fake->overlay_requests);
    json_decref(run(b, "session", tu_args("session", "{s:s, s:s}", "action", "end", "id",
                                          other), NULL, NULL, 0));
    assert_int_equal(json_array_size(b->fake->overlay_requests), before + 1);
    assert_string_equal(tu_str(last_request(b), "op"), "stop");
    assert_string_equal(tu_str(last_request(b), "session"), other);
    free(other);
    free(id);
}

/* A physical op that notes its call among the fake's overlay requests, so their order
 * shows. */
static fake_adapter *noting;

static int noting_physical(ad_adapter *a, const ad_phys_req *req, int64_t deadline_us,
                           ad_act_result *res, ad_error *err)
{
    (void)a;
    (void)deadline_us;
    (void)res;
    (void)err;
    json_array_append_new(noting->overlay_requests,
                          json_pack("{s:s, s:i}", "op", "physical", "kind", req->kind));
    return 0;
}

static const char *op_at(tu_bed *b, size_t i)
{
    return json_string_value(json_object_get(json_array_get(b->fake->overlay_requests, i),
                                             "op"));
}

static void test_real_input_runs_between_a_hide_and_an_unhide(void **state)
{
    tu_bed *b = *state;
    ad_adapter *base = fake_base(b->fake);
    const ad_adapter_ops *saved = base->ops;
    ad_adapter_ops ops = *saved;
    ops.physical = noting_physical;
    base->ops = &ops;
    noting = b->fake;
    b->fake->overlay_requests = json_array();
    char sid[] = "s1", agent[] = "agent-a";
    ad_ctx ctx = {.adapter = base, .session_id = sid, .agent_id = agent,
                  .session_manifest = json_pack("{s:b, s:b}", "cursor", 1, "multi_agent", 1)};
    ad_phys_req drag = {.kind = AD_PHYS_DRAG, .x = 1, .y = 2, .x2 = 30, .y2 = 40};
    ad_act_result res = {0};
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_overlay_physical(&ctx, &drag, ad_deadline_after_ms(1000), &res, &err),
                     0);
    assert_int_equal(json_array_size(b->fake->overlay_requests), 3);
    assert_string_equal(op_at(b, 0), "hide");
    assert_string_equal(tu_str(json_array_get(b->fake->overlay_requests, 0), "session"), "s1");
    assert_string_equal(op_at(b, 1), "physical");
    json_t *unhide = json_array_get(b->fake->overlay_requests, 2);
    assert_string_equal(tu_str(unhide, "op"), "unhide");
    assert_string_equal(tu_str(unhide, "cursor"), "agent-a");
    assert_int_equal(tu_int(unhide, "point.0"), 30); /* the drag's cursor shows at the drop */
    assert_int_equal(tu_int(unhide, "point.1"), 40);
    /* The service does not answer: the input is sent all the same, and succeeds. */
    b->fake->overlay_fails = true;
    ad_phys_req click = {.kind = AD_PHYS_CLICK, .x = 5, .y = 6};
    assert_int_equal(ad_overlay_physical(&ctx, &click, ad_deadline_after_ms(1000), &res, &err),
                     0);
    assert_int_equal(json_array_size(b->fake->overlay_requests), 6);
    assert_string_equal(op_at(b, 4), "physical");
    assert_null(json_object_get(json_array_get(b->fake->overlay_requests, 5), "point"));
    /* A session without the overlay asks nothing. */
    json_object_set_new(ctx.session_manifest, "cursor", json_false());
    assert_int_equal(ad_overlay_physical(&ctx, &click, ad_deadline_after_ms(1000), &res, &err),
                     0);
    assert_int_equal(json_array_size(b->fake->overlay_requests), 7);
    assert_string_equal(op_at(b, 6), "physical");
    json_decref(ctx.session_manifest);
    base->ops = saved;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_enable_saves_and_reports, setup, tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_actions_glide_first_and_act_the_same_when_drawing_fails,
                                        setup, tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_profiles_and_multi_agent_cursors, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_disable_unconfirmed_is_delivery_uncertain, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_real_input_runs_between_a_hide_and_an_unhide, setup,
                                        tu_bed_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
