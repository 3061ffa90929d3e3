/* budget.h: fitting a presented snapshot into a byte budget (--max-bytes, --max-tokens).
 *
 * The budget is for the whole envelope line; dispatch turns it into a budget for the data
 * object (ad_budget_for_data), and a post-action wait takes off what it adds around the
 * fresh snapshot. A presentation that does not fit is shrunk deterministically, in steps:
 *   1. every name, value and description longer than AD_BUDGET_CLIP_BYTES is clipped, with
 *      <field>_length stating its full length;
 *   2. then containers are cut, like a skeleton's depth cut (children_count and a drill
 *      target, present.c's rules). Each cut is the smallest container whose cut covers the
 *      bytes still over the budget; when no single one does, the largest goes first and the
 *      rest repeats (equal sizes in document order). Sizes are the JSON bytes shown. The
 *      presented root is cut last, when nothing else can be;
 *   3. a data object that does not fit even with the root cut fails with INVALID_ARGS
 *      naming the smallest budget that would.
 * Every budget-cut node says how many refs of the unbudgeted presentation it hides
 * (refs_cut), and data.budget accounts for the whole cut (budget_block below).
 */
#ifndef AD_BUDGET_H
#define AD_BUDGET_H

#include <stddef.h>
#include <jansson.h>

#include "core/error.h"
#include "core/present.h"

/* The flags every envelope line is printed with (dispatch.c): what a budget measures. */
#define AD_JSON_OUTPUT_FLAGS (JSON_COMPACT | JSON_ENSURE_ASCII)
/* Longest text field kept whole under a budget that needed cutting, in bytes. */
#define AD_BUDGET_CLIP_BYTES 256
/* --max-tokens N is a budget of N * this many bytes: a conservative estimate for JSON with
 * ASCII escapes (bench/bench-tokens.sh measures the real ratio with a tokenizer). */
#define AD_BYTES_PER_TOKEN 3

/* Bytes of j printed as an envelope line prints it (no newline). */
size_t ad_json_bytes(const json_t *j);

/* Sets o[key] to s, clipped at a UTF-8 boundary when longer than clip bytes (0: no limit),
 * with o[key + "_length"] stating its full length in bytes. True when it clipped. */
bool ad_budget_set_text(json_t *o, const char *key, const char *s, size_t clip);

typedef struct {
    long long data_bytes; /* the data object's budget (> 0) */
    long long max_bytes;  /* the envelope budget the user gave (for the block) */
    long long max_tokens; /* --max-tokens, or 0 */
} ad_budget;

/* Builds the data object around one presentation (new reference; it takes its own
 * reference to pr->tree): the command's fields, so the budget measures what is printed. */
typedef json_t *(*ad_budget_build_fn)(void *ud, const ad_present_result *pr);

/* ad_present under a budget: presents `root` as ad_present does, shrinking it until the data
 * object build() returns, with its "budget" block, fits b->data_bytes. On success *ret_data
 * is that object (caller owns it), the refs of the presentation shown are in `refs`,
 * *next_ref advanced, and ret filled as ad_present fills it (ret->tree borrowed from
 * *ret_data; ret->ref_nodes owned by the caller). On failure nothing is added to refs. */
int ad_present_budgeted(const ad_node *root, const ad_identity_index *idx,
                        const ad_present_opts *opts, const ad_present_source *src,
                        const char *snapshot_id, json_t *refs, uint64_t *next_ref,
                        const ad_budget *b, ad_budget_build_fn build, void *ud,
                        json_t **ret_data, ad_present_result *ret, ad_error *err);

/* find under a budget: when the data object d (find's, with `matches` when several were
 * asked) is over b->data_bytes, clips long texts of the matches, then drops matches from
 * the end (their refs leave `refs` too) and sets d.truncated; a single match that cannot
 * fit is INVALID_ARGS. Adds d.budget (matches_cut, texts_clipped). 0 or -1. */
int ad_budget_fit_matches(json_t *d, json_t *refs, const ad_budget *b, ad_error *err);

#endif
