/* test_observe.c: --observe (core/observe.h) through ad_dispatch and the fake adapter: the
 * window's delta across a ref action and press, unchanged: true when nothing changed, events
 * as evidence that never upgrade a disposition, reads that fail or are cut never claiming
 * "unchanged", values hidden for secret input, the flag refused by the validator where the
 * table does not declare it; and the report functions themselves (events coalesced and
 * named by their source). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/budget.h"
#include "core/observe.h"
#include "fake_adapter.h"
#include "test_util.h"

static ad_node *form_tree(void)
{
    return fk("window|n=Form",
              fk("button|n=Save|id=save|a=Click", NULL),
              fk("button|n=Nothing|id=nothing|a=Click", NULL),
              fk("checkbox|n=Agree|id=agree|a=Click|cap=checkable", NULL),
              fk("statictext|n=status: idle|id=status", NULL),
              fk("textfield|n=Name|id=name|a=SetValue|a=TypeText|cap=editable", NULL),
              NULL);
}

static int setup(void **state)
{
    tu_bed *b = tu_bed_new(form_tree());
    b->fake->watching = true;
    /* Addresses as an adapter gives them, so events can name their source. */
    ad_node *root = b->fake->wins[0].root;
    fk_find(root, "button", "Save")->address = strdup("app|/save");
    fk_find(root, "checkbox", "Agree")->address = strdup("app|/agree");
    fk_find(root, "statictext", "status: idle")->address = strdup("app|/status");
    *state = b;
    return 0;
}

static fake_window *win(tu_bed *b)
{
    return &b->fake->wins[0];
}

/* Save renames the status label and the app signals it (three events of one change). */
static void save_effect(fake_adapter *f, const ad_node *target)
{
    if (strcmp(ad_text_get(&target->name), "Save") != 0)
        return;
    fk_rename(fk_find(f->wins[0].root, "statictext", "status: idle"), "status: saved");
    fake_emit(f, "text-changed", "delete", 0, "app|/status");
    fake_emit(f, "text-changed", "insert", 0, "app|/status");
    fake_emit(f, "property-change", "accessible-name", 0, "app|/status");
}

/* Agree flips its checked state and says so. */
static void agree_effect(fake_adapter *f, const ad_node *target)
{
    if (strcmp(ad_text_get(&target->name), "Agree") != 0)
        return;
    ad_node *n = fk_find(f->wins[0].root, "checkbox", "Agree");
    n->states ^= 1u << AD_ST_CHECKED;
    fake_emit(f, "state-changed", "checked", 1, "app|/agree");
}

static json_t *act(tu_bed *b, const char *cmd, const char *name, json_t *globals,
                   bool observe, int want_exit)
{
    char *ref = tu_snapshot_ref(fake_base(b->fake), NULL, name);
    json_t *args = tu_args(cmd, "{s:s, s:i}", "ref_id", ref, "timeout_ms", 0);
    if (observe)
        json_object_set_new(args, "observe", json_true());
    json_t *env = tu_run_exit(fake_base(b->fake), cmd, args, globals, want_exit);
    free(ref);
    return env;
}

static void test_click_reports_the_renamed_label_only(void **state)
{
    tu_bed *b = *state;
    b->fake->act_effect = save_effect;
    json_t *env = act(b, "click", "Save", NULL, true, 0);
    json_t *ch = tu_at(env, "data.changes");
    assert_non_null(ch);
    assert_true(json_is_false(json_object_get(ch, "unchanged")));
    assert_true(json_is_true(json_object_get(ch, "complete")));
    assert_null(json_object_get(ch, "added"));
    assert_null(json_object_get(ch, "removed"));
    assert_int_equal(json_array_size(json_object_get(ch, "changed")), 1);
    assert_string_equal(tu_str(ch, "changed.0.name"), "status: saved");
    assert_string_equal(tu_str(ch, "changed.0.changed.0"), "name");
    assert_int_equal(json_array_size(tu_at(ch, "changed.0.changed")), 1);
    assert_string_equal(tu_str(ch, "settled"), "quiet");
    /* The three events of one source, and the source is the changed entry: the read shows
     * what they said, so they are counted (events_explained), not listed again. */
    assert_int_equal(json_array_size(tu_at(env, "data.details.events")), 0);
    assert_int_equal(tu_int(env, "data.details.events_count"), 3);
    assert_int_equal(tu_int(env, "data.details.events_explained"), 3);
    /* Events are evidence: a click stays delivered_unverified. */
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_unverified");
    assert_int_equal(b->fake->n_act, 1);
    json_decref(env);
}

static void test_click_that_changes_nothing_says_unchanged(void **state)
{
    tu_bed *b = *state;
    json_t *env = act(b, "click", "Nothing", NULL, true, 0);
    assert_true(json_is_true(tu_at(env, "data.changes.unchanged")));
    assert_true(json_is_true(tu_at(env, "data.changes.complete")));
    assert_null(tu_at(env, "data.changes.changed"));
    assert_int_equal(json_array_size(tu_at(env, "data.details.events")), 0);
    assert_int_equal(tu_int(env, "data.details.events_count"), 0);
    assert_int_equal(b->fake->n_act, 1);
    json_decref(env);
}

/* An event with no change a read confirms upgrades nothing, and claims no change. */
static void emit_only(fake_adapter *f, const ad_node *target)
{
    (void)target;
    fake_emit(f, "state-changed", "checked", 1, "app|/agree");
}

static void test_event_without_a_read_never_upgrades(void **state)
{
    tu_bed *b = *state;
    b->fake->act_effect = emit_only;
    json_t *env = act(b, "click", "Nothing", NULL, true, 0);
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_unverified");
    assert_true(json_is_true(tu_at(env, "data.changes.unchanged")));
    assert_string_equal(tu_str(env, "data.details.events.0.events.0"),
                        "state-changed:checked=true");
    assert_string_equal(tu_str(env, "data.details.events.0.name"), "Agree");
    json_decref(env);
}

static void test_toggle_reports_the_checked_state(void **state)
{
    tu_bed *b = *state;
    b->fake->act_effect = agree_effect;
    json_t *env = act(b, "toggle", "Agree", NULL, true, 0);
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_verified");
    assert_string_equal(tu_str(env, "data.changes.changed.0.name"), "Agree");
    assert_string_equal(tu_str(env, "data.changes.changed.0.changed.0"), "states");
    json_t *states = tu_at(env, "data.changes.changed.0.states");
    bool checked = false;
    size_t i;
    json_t *s;
    json_array_foreach(states, i, s) checked |= strcmp(json_string_value(s), "checked") == 0;
    assert_true(checked);
    json_decref(env);
}

static void test_without_the_flag_nothing_is_added(void **state)
{
    tu_bed *b = *state;
    b->fake->act_effect = save_effect;
    json_t *env = act(b, "click", "Save", NULL, false, 0);
    assert_null(tu_at(env, "data.changes"));
    assert_null(tu_at(env, "data.details.events"));
    assert_null(tu_at(env, "data.details.events_count"));
    assert_null(tu_at(env, "data.details.events_available"));
    json_decref(env);
}

static void test_without_events_one_quiet_period(void **state)
{
    tu_bed *b = *state;
    b->fake->watching = false;
    b->fake->act_effect = save_effect;
    json_t *env = act(b, "click", "Save", NULL, true, 0);
    assert_string_equal(tu_str(env, "data.changes.settled"), "no_events");
    assert_true(json_is_false(tu_at(env, "data.details.events_available")));
    assert_null(tu_at(env, "data.details.events"));
    assert_string_equal(tu_str(env, "data.changes.changed.0.name"), "status: saved");
    json_decref(env);
}

static void close_window(fake_adapter *f, const ad_node *target)
{
    (void)target;
    f->wins[0].closed = true;
}

static void test_an_unread_window_is_never_unchanged(void **state)
{
    tu_bed *b = *state;
    b->fake->act_effect = close_window;
    json_t *env = act(b, "click", "Nothing", NULL, true, 0);
    assert_null(tu_at(env, "data.changes.unchanged"));
    assert_true(json_is_false(tu_at(env, "data.changes.complete")));
    assert_string_equal(tu_str(env, "data.changes.error.read"), "after");
    assert_string_equal(tu_str(env, "data.changes.error.code"), "WINDOW_NOT_FOUND");
    json_decref(env);
}

static void cut_reads(fake_adapter *f, const ad_node *target)
{
    (void)target;
    f->wins[0].complete = false;
    f->wins[0].cut_reason = "deadline";
}

static void test_a_cut_read_claims_no_unchanged(void **state)
{
    tu_bed *b = *state;
    b->fake->act_effect = cut_reads;
    json_t *env = act(b, "click", "Nothing", NULL, true, 0);
    assert_null(tu_at(env, "data.changes.unchanged"));
    assert_true(json_is_false(tu_at(env, "data.changes.complete")));
    json_decref(env);
}

static void test_already_satisfied_sends_nothing(void **state)
{
    tu_bed *b = *state;
    fk_find(win(b)->root, "checkbox", "Agree")->states |= 1u << AD_ST_CHECKED;
    json_t *env = act(b, "check", "Agree", NULL, true, 0);
    assert_int_equal(b->fake->n_act, 0);
    assert_true(json_is_true(tu_at(env, "data.changes.unchanged")));
    assert_string_equal(tu_str(env, "data.changes.settled"), "nothing_sent");
    json_decref(env);
}

static void test_wait_for_settles_the_observation(void **state)
{
    tu_bed *b = *state;
    b->fake->act_effect = save_effect;
    json_t *env = act(b, "click", "Save", json_pack("{s:s}", "wait_for", ":status: saved"),
                      true, 0);
    assert_string_equal(tu_str(env, "data.matched_selector"), ":status: saved");
    assert_string_equal(tu_str(env, "data.after_action.changes.settled"), "wait_for");
    assert_string_equal(tu_str(env, "data.after_action.changes.changed.0.name"),
                        "status: saved");
    assert_int_equal(tu_int(env, "data.after_action.details.events_count"), 3);
    json_decref(env);
}

/* Save renames four nodes: a report of several changes and events. */
static void many_effect(fake_adapter *f, const ad_node *target)
{
    if (strcmp(ad_text_get(&target->name), "Save") != 0)
        return;
    save_effect(f, target);
    fk_rename(fk_find(f->wins[0].root, "button", "Nothing"), "Nothing at all, still");
    fk_rename(fk_find(f->wins[0].root, "checkbox", "Agree"), "Agree to every term listed");
    fk_rename(fk_find(f->wins[0].root, "textfield", "Name"), "Name, as on the passport");
    fake_emit(f, "property-change", "accessible-name", 0, "app|/nothing");
    fake_emit(f, "property-change", "accessible-name", 0, "app|/agree");
}

/* A budget bounds the whole line of an action with --wait-for --observe: the observe report
 * was added after the fresh snapshot had been fitted and passed the budget (e2e
 * test_post_action_wait_with_observe_fits failed before). Every budget either fits or is
 * refused; none is exceeded. */
static void test_budget_bounds_the_observe_report(void **state)
{
    (void)state;
    int fitted = 0, cut = 0;
    for (int max = 700; max <= 3000; max += 100) {
        void *st = NULL;
        assert_int_equal(setup(&st), 0);
        tu_bed *b = st;
        b->fake->act_effect = many_effect;
        char *ref = tu_snapshot_ref(fake_base(b->fake), NULL, "Save");
        json_t *args = tu_args("click", "{s:s, s:i, s:b}", "ref_id", ref, "timeout_ms", 0,
                               "observe", 1);
        int code = -1;
        json_t *env = tu_run(fake_base(b->fake), "click", args,
                             json_pack("{s:s, s:i}", "wait_for", "button", "max_bytes", max),
                             &code);
        if (code == 0) {
            assert_true((long long)ad_json_bytes(env) + 1 <= max);
            fitted++;
            if (json_is_true(tu_at(env, "data.after_action.changes.truncated"))) {
                cut++;
                assert_true(tu_int(env, "data.after_action.changes.entries_cut") > 0);
                assert_true(json_is_false(tu_at(env, "data.after_action.changes.complete")));
                assert_true(json_is_true(tu_at(env, "data.after_action.details.events_cut")));
            }
        } else {
            assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
        }
        json_decref(env);
        free(ref);
        tu_bed_teardown(&st);
    }
    assert_true(fitted > 0);
    assert_true(cut > 0); /* some budget needed the report cut */
}

static json_t *report_of_three(void)
{
    return json_pack(
        "{s:s, s:{s:[{s:s}], s:[{s:s}, {s:s}], s:b}, s:{s:[{s:s}, {s:s}], s:i}}",
        "action", "click", "changes", "added", "name", "a new label added by the click",
        "changed", "name", "the first changed label", "name", "the second changed label",
        "complete", 1, "details", "events", "role", "label", "role", "button",
        "events_count", 2);
}

/* ad_observe_fit_report's steps: events first, then delta entries from the end. */
static void test_fit_report_cuts_events_then_entries_from_the_end(void **state)
{
    (void)state;
    json_t *r = report_of_three();
    long long whole = (long long)ad_json_bytes(r);
    assert_int_equal(ad_observe_fit_report(r, whole), 0); /* fits: untouched */
    assert_non_null(tu_at(r, "details.events"));
    assert_null(tu_at(r, "changes.truncated"));

    /* Step 1: one byte less and the events go; the delta stays whole. */
    assert_int_equal(ad_observe_fit_report(r, whole - 1), 0);
    assert_null(tu_at(r, "details.events"));
    assert_true(json_is_true(tu_at(r, "details.events_cut")));
    assert_int_equal(tu_int(r, "details.events_count"), 2);
    assert_null(tu_at(r, "changes.truncated"));
    assert_true(json_is_true(tu_at(r, "changes.complete")));
    long long no_events = (long long)ad_json_bytes(r);
    json_decref(r);

    /* Step 2: entries go from the end (the second changed one first), counted. */
    r = report_of_three();
    assert_int_equal(ad_observe_fit_report(r, no_events - 1), 0);
    assert_true(json_is_true(tu_at(r, "changes.truncated")));
    assert_true(json_is_false(tu_at(r, "changes.complete")));
    json_int_t cut = tu_int(r, "changes.entries_cut");
    size_t left = json_array_size(tu_at(r, "changes.added")) +
                  json_array_size(tu_at(r, "changes.changed"));
    assert_true(cut >= 1 && left + (size_t)cut == 3);
    assert_string_equal(tu_str(r, "changes.added.0.name"), "a new label added by the click");
    if (json_array_size(tu_at(r, "changes.changed")) == 1)
        assert_string_equal(tu_str(r, "changes.changed.0.name"), "the first changed label");
    assert_true((long long)ad_json_bytes(r) <= no_events - 1);
    json_decref(r);

    /* Too small for anything: -1, every entry gone and said so. */
    r = report_of_three();
    assert_int_equal(ad_observe_fit_report(r, 10), -1);
    assert_null(tu_at(r, "changes.added"));
    assert_null(tu_at(r, "changes.changed"));
    assert_int_equal(tu_int(r, "changes.entries_cut"), 3);
    json_decref(r);
}

static void test_observe_refused_where_not_declared(void **state)
{
    tu_bed *b = *state;
    int reads = b->fake->n_read_window;
    json_t *env = tu_run_exit(fake_base(b->fake), "snapshot",
                              tu_args("snapshot", "{s:b}", "observe", 1), NULL, 2);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_string_equal(tu_str(env, "error.details.argument"), "observe");
    assert_int_equal(b->fake->n_read_window, reads); /* nothing reached the desktop */
    json_decref(env);
    env = tu_run_exit(fake_base(b->fake), "type",
                      tu_args("type", "{s:s, s:s, s:b, s:i}", "ref_id", "@s1abc:e1", "text",
                              "hi", "observe", 1, "interval_ms", 5), NULL, 1);
    assert_string_equal(tu_str(env, "error.code"), "INVALID_ARGS");
    assert_non_null(strstr(tu_str(env, "error.suggestion"), "--interval-ms"));
    assert_int_equal(b->fake->n_act, 0);
    json_decref(env);
}

/* ---- the report functions ---------------------------------------------------------------- */

static ad_tree tree_of(ad_node *root)
{
    return (ad_tree){.root = root, .complete = true, .nodes_observed = ad_node_count(root)};
}

static void test_values_hidden_for_secret_input(void **state)
{
    (void)state;
    ad_tree before = tree_of(fk("window|n=F", fk("textfield|n=Token|id=t|v=old", NULL), NULL));
    ad_tree after = tree_of(fk("window|n=F", fk("textfield|n=Token|id=t|v=s3cret", NULL), NULL));
    ad_tree_delta *d = ad_observe_diff(&before, &after);
    json_t *shown = ad_observe_changes_json(&before, &after, d, NULL, NULL, "quiet", 5, false,
                                            NULL);
    assert_string_equal(tu_str(shown, "changed.0.value"), "s3cret");
    json_t *hidden = ad_observe_changes_json(&before, &after, d, NULL, NULL, "quiet", 5, true,
                                             NULL);
    ad_tree_delta_free(d);
    assert_string_equal(tu_str(hidden, "changed.0.changed.0"), "value");
    char *text = json_dumps(hidden, 0);
    assert_null(strstr(text, "s3cret"));
    assert_null(strstr(text, "old"));
    free(text);
    json_decref(shown);
    json_decref(hidden);
    ad_tree_clear(&before);
    ad_tree_clear(&after);
}

/* More distinct sources in the after read than AD_OBSERVE_EVENTS_LISTED: the list stops
 * there (the rest counted in events_count only). */
static void test_events_listed_at_most_the_bound(void **state)
{
    (void)state;
    ad_tree before = tree_of(fk("window|n=F", NULL));
    ad_node *win = fk("window|n=F", NULL);
    fake_adapter *f = fake_new();
    for (int i = 0; i < AD_OBSERVE_EVENTS_LISTED + 8; i++) {
        char spec[32], addr[32];
        snprintf(spec, sizeof(spec), "button|n=B%d", i);
        snprintf(addr, sizeof(addr), "a|/b%d", i);
        ad_node *b = fk(spec, NULL);
        b->address = strdup(addr);
        ad_node_add_child(win, b);
        fake_emit(f, "state-changed", "focused", 1, addr);
    }
    ad_tree after = tree_of(win);
    ad_change_events ev = {0}, more = f->changes;
    memset(&f->changes, 0, sizeof(f->changes));
    ad_observe_events_append(&ev, &more);
    json_t *list = ad_observe_events_json(&ev, &before, &after, NULL, NULL);
    assert_int_equal(json_array_size(list), AD_OBSERVE_EVENTS_LISTED);
    assert_string_equal(tu_str(list, "0.name"), "B0");
    json_decref(list);
    ad_change_events_clear(&ev);
    fake_free(f);
    ad_tree_clear(&before);
    ad_tree_clear(&after);
}

static void test_events_grouped_bounded_and_named(void **state)
{
    (void)state;
    ad_tree before = tree_of(fk("window|n=F", fk("button|n=Gone", NULL), NULL));
    before.root->children[0]->address = strdup("a|/gone");
    ad_tree after = tree_of(fk("window|n=F", fk("button|n=New", NULL), NULL));
    after.root->children[0]->address = strdup("a|/new");
    ad_change_events ev = {0}, more = {0};
    fake_adapter *f = fake_new();
    fake_emit(f, "window-destroy", "", 0, "a|/gone");
    for (int i = 0; i < 40; i++) {
        char addr[32];
        snprintf(addr, sizeof(addr), "a|/x%d", i);
        fake_emit(f, "children-changed", "add", 0, i == 0 ? "a|/new" : addr);
    }
    fake_emit(f, "children-changed", "add", 0, "a|/new"); /* the same again */
    fake_emit(f, "state-changed", "focused", 0, "a|/new");
    more = f->changes;
    memset(&f->changes, 0, sizeof(f->changes));
    ad_observe_events_append(&ev, &more);
    assert_int_equal(ev.count, 43);
    json_t *list = ad_observe_events_json(&ev, &before, &after, NULL, NULL);
    /* Gone, New, and one entry for the 39 sources in neither read. */
    assert_int_equal(json_array_size(list), 3);
    assert_string_equal(tu_str(list, "0.name"), "Gone"); /* named from the before read */
    assert_string_equal(tu_str(list, "0.events.0"), "window-destroy");
    assert_string_equal(tu_str(list, "1.name"), "New");
    assert_int_equal(json_array_size(tu_at(list, "1.events")), 2);
    assert_string_equal(tu_str(list, "1.events.1"), "state-changed:focused=false");
    assert_int_equal(tu_int(list, "1.count"), 3);
    assert_null(tu_at(list, "2.name")); /* a source outside both reads: no name */
    assert_null(tu_at(list, "2.role"));
    assert_string_equal(tu_str(list, "2.events.0"), "children-changed:add");
    assert_int_equal(tu_int(list, "2.count"), 39);
    json_decref(list);
    ad_change_events_clear(&ev);
    fake_free(f);
    ad_tree_clear(&before);
    ad_tree_clear(&after);
}

/* Nothing makes a Confirm button appear in the window. */
static void confirm_effect(fake_adapter *f, const ad_node *target)
{
    if (strcmp(ad_text_get(&target->name), "Nothing") != 0)
        return;
    ad_node_add_child(f->wins[0].root, fk("button|n=Confirm|id=confirm|a=Click", NULL));
}

static int confirm_clicks;
static void count_confirm(fake_adapter *f, const ad_node *target)
{
    (void)f;
    confirm_clicks += strcmp(ad_text_get(&target->name), "Confirm") == 0;
}

/* An action that adds or renames nodes saves the window it left as a snapshot: the added
 * button shows with a ref of that snapshot (the refmap holds it), a renamed node
 * carries its new ref, and the new ref drives the next action, with no read in between. An
 * action that changed nothing names none. */
static void test_added_and_changed_nodes_carry_new_refs(void **state)
{
    tu_bed *b = *state;
    b->fake->act_effect = confirm_effect;
    json_t *env = act(b, "click", "Nothing", NULL, true, 0);
    json_t *ch = tu_at(env, "data.changes");
    const char *sid = tu_str(ch, "snapshot_id");
    assert_non_null(sid);
    assert_int_equal(json_array_size(json_object_get(ch, "added")), 1);
    assert_string_equal(tu_str(ch, "added.0.name"), "Confirm");
    const char *ref = tu_str(ch, "added.0.ref_id");
    assert_non_null(ref);
    char prefix[96];
    snprintf(prefix, sizeof(prefix), "@%s:e", sid);
    assert_memory_equal(ref, prefix, strlen(prefix));
    /* The new ref resolves in the window as it is now. */
    json_t *args = tu_args("click", "{s:s, s:i}", "ref_id", ref, "timeout_ms", 0);
    b->fake->act_effect = count_confirm;
    confirm_clicks = 0;
    json_t *clicked = tu_run_exit(fake_base(b->fake), "click", args, NULL, 0);
    assert_int_equal(confirm_clicks, 1);
    json_decref(clicked);
    json_decref(env);

    /* A rename: the changed entry carries its ref in the new snapshot. */
    b->fake->act_effect = save_effect;
    env = act(b, "click", "Save", NULL, true, 0);
    ch = tu_at(env, "data.changes");
    assert_non_null(tu_str(ch, "snapshot_id"));
    assert_string_equal(tu_str(ch, "changed.0.name"), "status: saved");
    assert_null(tu_at(ch, "changed.0.ref_id")); /* a label holds no ref */
    json_decref(env);

    /* A checkbox that flipped: its entry carries its ref in the new snapshot. */
    b->fake->act_effect = agree_effect;
    env = act(b, "toggle", "Agree", NULL, true, 0);
    ch = tu_at(env, "data.changes");
    assert_string_equal(tu_str(ch, "changed.0.name"), "Agree");
    snprintf(prefix, sizeof(prefix), "@%s:e", tu_str(ch, "snapshot_id"));
    assert_memory_equal(tu_str(ch, "changed.0.ref_id"), prefix, strlen(prefix));
    json_decref(env);

    /* Nothing changed: no snapshot_id. */
    b->fake->act_effect = NULL;
    env = act(b, "click", "Nothing", NULL, true, 0);
    assert_true(json_is_true(tu_at(env, "data.changes.unchanged")));
    assert_null(tu_at(env, "data.changes.snapshot_id"));
    json_decref(env);
}

/* The snapshot cannot be saved (the state root stopped being private during the action):
 * the delta still comes, without refs, and says why; nothing is claimed saved. */
static const char *state_root_to_open;
static void confirm_and_open_state(fake_adapter *f, const ad_node *target)
{
    confirm_effect(f, target);
    assert_int_equal(chmod(state_root_to_open, 0750), 0);
}

static void test_a_failed_snapshot_save_is_reported_not_hidden(void **state)
{
    tu_bed *b = *state;
    state_root_to_open = b->home.state;
    b->fake->act_effect = confirm_and_open_state;
    json_t *env = act(b, "click", "Nothing", NULL, true, 0);
    assert_int_equal(chmod(b->home.state, 0700), 0);
    json_t *ch = tu_at(env, "data.changes");
    assert_string_equal(tu_str(ch, "added.0.name"), "Confirm");
    assert_null(tu_at(ch, "added.0.ref_id"));
    assert_null(tu_at(ch, "snapshot_id"));
    assert_non_null(tu_str(ch, "snapshot_error.code"));
    assert_non_null(tu_str(ch, "snapshot_error.message"));
    json_decref(env);
}

/* Events whose source data.changes lists (changed, at its after-read path) are counted in
 * *explained and left out; another source's events stay listed, named by role and name. */
static void test_events_explained_by_changes_are_counted_not_listed(void **state)
{
    (void)state;
    ad_tree before = tree_of(fk("window|n=F", fk("statictext|n=status: idle", NULL),
                                fk("button|n=Save", NULL), NULL));
    ad_tree after = tree_of(fk("window|n=F", fk("statictext|n=status: saved", NULL),
                               fk("button|n=Save", NULL), NULL));
    after.root->children[0]->address = strdup("a|/status");
    after.root->children[1]->address = strdup("a|/save");
    fake_adapter *f = fake_new();
    fake_emit(f, "text-changed", "delete", 0, "a|/status");
    fake_emit(f, "state-changed", "focused", 1, "a|/save");
    fake_emit(f, "property-change", "accessible-name", 0, "a|/status");
    ad_change_events ev = {0}, more = f->changes;
    memset(&f->changes, 0, sizeof(f->changes));
    ad_observe_events_append(&ev, &more);
    ad_tree_delta *d = ad_observe_diff(&before, &after);
    json_t *changes = ad_observe_changes_json(&before, &after, d, NULL, NULL, "quiet", 5, false,
                                              NULL);
    ad_tree_delta_free(d);
    assert_string_equal(tu_str(changes, "changed.0.name"), "status: saved");
    size_t explained = 99;
    json_t *list = ad_observe_events_json(&ev, &before, &after, changes, &explained);
    assert_int_equal(explained, 2);
    assert_int_equal(json_array_size(list), 1);
    assert_string_equal(tu_str(list, "0.name"), "Save");
    assert_string_equal(tu_str(list, "0.role"), "button");
    assert_string_equal(tu_str(list, "0.events.0"), "state-changed:focused=true");
    assert_null(tu_at(list, "0.path"));
    /* Without a delta to explain them every source is listed. */
    json_t *all = ad_observe_events_json(&ev, &before, &after, NULL, &explained);
    assert_int_equal(explained, 0);
    assert_int_equal(json_array_size(all), 2);
    assert_string_equal(tu_str(all, "0.name"), "status: saved");
    json_decref(all);
    json_decref(list);
    json_decref(changes);
    ad_change_events_clear(&ev);
    fake_free(f);
    ad_tree_clear(&before);
    ad_tree_clear(&after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_click_reports_the_renamed_label_only, setup,
                                        tu_bed_teardown),
        cmocka_unit_test(test_events_explained_by_changes_are_counted_not_listed),
        cmocka_unit_test_setup_teardown(test_added_and_changed_nodes_carry_new_refs, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_a_failed_snapshot_save_is_reported_not_hidden,
                                        setup, tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_click_that_changes_nothing_says_unchanged, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_event_without_a_read_never_upgrades, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_toggle_reports_the_checked_state, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_without_the_flag_nothing_is_added, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_without_events_one_quiet_period, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_an_unread_window_is_never_unchanged, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_a_cut_read_claims_no_unchanged, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_already_satisfied_sends_nothing, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_wait_for_settles_the_observation, setup,
                                        tu_bed_teardown),
        cmocka_unit_test_setup_teardown(test_budget_bounds_the_observe_report, setup,
                                        tu_bed_teardown),
        cmocka_unit_test(test_fit_report_cuts_events_then_entries_from_the_end),
        cmocka_unit_test_setup_teardown(test_observe_refused_where_not_declared, setup,
                                        tu_bed_teardown),
        cmocka_unit_test(test_values_hidden_for_secret_input),
        cmocka_unit_test(test_events_grouped_bounded_and_named),
        cmocka_unit_test(test_events_listed_at_most_the_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
