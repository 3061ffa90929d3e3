/* actionability.h: the checks a target passes before input is dispatched
 * (commands/interaction.md, "Wait budget"). Each check is pass, fail or unknown; a failed
 * transient check is worth waiting for, a failed terminal one is not. */
#ifndef AD_ACTIONABILITY_H
#define AD_ACTIONABILITY_H

#include <stdbool.h>
#include <jansson.h>

#include "core/action.h"
#include "core/node.h"

typedef struct {
    bool actionable;
    bool terminal;              /* a terminal check failed: waiting cannot help */
    ad_error_code code;         /* for a terminal failure: ACTION_NOT_SUPPORTED, POLICY_DENIED,
                                 * or ACTION_FAILED for an unreadable checked state */
    const char *failed_check;   /* the first failing check */
    const char *reason;
    const char *kind;           /* details.kind of a terminal failure, or NULL */
    const char *cause;          /* details.cause of a terminal failure, or NULL */
    json_t *checks;             /* the list for details.checks (new reference) */
} ad_actionability;

/* Evaluates every check on a live node of `tree` (its screen decides visibility).
 * `previous` is the same element's bounds from the previous sample (NULL on the first), for
 * the stability check. */
void ad_actionability_eval(const ad_action_spec *spec, const ad_node *n, const ad_tree *tree,
                           bool headed, const ad_rect *previous, int samples,
                           ad_actionability *ret);
void ad_actionability_clear(ad_actionability *a);

/* check, uncheck and toggle decide from the checked state, so it must be read before anything
 * is sent (interaction.md, "toggle"). The problem with it, for ad_checked_state_error:
 * "state_unreadable" (states unread, or a toolkit that never reports it),
 * "state_indeterminate", or NULL when the state decides (and for every other action). */
const char *ad_checked_state_problem(const ad_action_spec *spec, const ad_node *n);
/* ACTION_FAILED with details.cause `problem`; nothing was delivered. Returns -1. */
int ad_checked_state_error(const ad_action_spec *spec, const char *problem, ad_error *err);

#endif
