/* post_wait.h: the post-action wait flags --wait-for, --wait-for-gone and --wait-timeout
 * (configuration.md, "Post-action wait flags"). After the command succeeded, dispatch polls
 * the window the command observed or acted on until the selector is present, or absent in a
 * complete read, and reshapes the result. */
#ifndef AD_POST_WAIT_H
#define AD_POST_WAIT_H

#include <stdbool.h>
#include <jansson.h>

#include "core/ctx.h"

/* A selector "role:text": split at the first ':'. "button" is a role, ":Saved" a text,
 * "button:Save" both. Text is a case-insensitive substring of name, value or description. */
typedef struct {
    char role[64]; /* empty: any role */
    char *text;    /* NULL: any text; owned */
} ad_selector;

/* Fills *ret (the caller clears it with ad_selector_clear, also after a failure). An empty
 * selector (or a lone ':') and a role part longer than any role are INVALID_ARGS. */
int ad_selector_parse(const char *s, ad_selector *ret, ad_error *err);
/* The whole selector grammar without keeping the result: dispatch runs it before the command,
 * so a malformed selector is refused before any input is sent. */
int ad_selector_check(const char *s, ad_error *err);
void ad_selector_clear(ad_selector *sel);
bool ad_selector_matches(const ad_selector *sel, const ad_node *n);
/* Matches in a subtree. */
size_t ad_selector_count(const ad_selector *sel, const ad_node *root);

/* Runs the post-action wait for a command that succeeded with *data (ownership stays with
 * the caller on failure; on success *data is replaced). ctx->observed_window_id names the
 * window; `is_action` moves the command's report under after_action. */
int ad_post_wait(ad_ctx *ctx, const json_t *args, bool is_action, json_t **data,
                 ad_error *err);

/* After an action failed with delivery_uncertain and a wait selector was given, observes the
 * original window read-only and records error.details.post_action_observation (json-output.md).
 * The action is never repeated and the error's code and disposition stay as they were. */
void ad_post_action_observation(ad_ctx *ctx, ad_error *err);

#endif
