/* action.h: the ref-action pipeline, one path for every ref action.
 *
 *   parse -> load the refmap -> resolve strictly -> wait until actionable (no lease) ->
 *   take the interaction lease -> resolve again under it (the correctness boundary) ->
 *   dispatch -> release -> read back -> report
 *
 * Transient checks (visible, stable, enabled) are polled until --timeout-ms; terminal checks
 * (supported_action, policy, editable) fail at once. Stateful actions read the element back
 * and reject a readable contradiction (contract 2.4). */
#ifndef AD_ACTION_H
#define AD_ACTION_H

#include <stdbool.h>
#include <jansson.h>

#include "core/ctx.h"

typedef enum {
    AD_VERIFY_NONE,
    AD_VERIFY_CHECKED,   /* check */
    AD_VERIFY_UNCHECKED, /* uncheck */
    AD_VERIFY_TOGGLED,   /* toggle: the checked state flipped */
    AD_VERIFY_EXPANDED,
    AD_VERIFY_COLLAPSED,
    AD_VERIFY_VALUE,     /* set-value, clear: value equals the request */
    AD_VERIFY_INSERTED,  /* type: the text went in at once */
    AD_VERIFY_VISIBLE,   /* scroll-to: the element reads visible */
} ad_verify_kind;

typedef struct {
    const char *name;        /* the command: "click" */
    ad_act_kind act;
    ad_verify_kind verify;
    bool physical_only;      /* a pointer gesture with no semantic route on this platform */
    bool physical_first;     /* under --headed, physical input first, semantic on a refusal */
    ad_phys_kind phys;       /* the physical gesture (physical_only / physical_first) */
    int button, count;       /* for a physical click */
    int wheel_dx, wheel_dy;  /* for a physical wheel (scroll) */
    bool text_no_click;      /* physical text goes to the focused element without a click
                              * first (keystrokes after the first of type --interval-ms) */
    bool focus_effect;       /* moves keyboard focus (focus) */
    bool reports_surfaces;   /* click, right-click, expand, select: data.surfaces */
} ad_action_spec;

/* Runs one ref action. `text` is the text or value (type, set-value, select), `secret_io`
 * hides observed values (--stdin). */
int ad_ref_action_run(ad_ctx *ctx, const ad_action_spec *spec, const char *ref,
                      const char *text, int64_t timeout_ms, bool secret_io, json_t **ret_data,
                      ad_error *err);
/* The same with --observe (core/observe.h) when `observe`: the report gains data.changes and
 * data.details.events, the window's delta across the action. */
int ad_ref_action_run_observed(ad_ctx *ctx, const ad_action_spec *spec, const char *ref,
                               const char *text, int64_t timeout_ms, bool secret_io,
                               bool observe, json_t **ret_data, ad_error *err);

/* data.steps for the mechanisms tried (new reference): each step carries "verified" when
 * verified is 0 or 1, none when it is -1. */
json_t *ad_act_steps_json(const ad_act_result *r, int verified);

/* The element's state as data.post_state reports it (new reference). */
json_t *ad_post_state_json(const ad_node *n, bool hide_value, bool value_action);

#endif
