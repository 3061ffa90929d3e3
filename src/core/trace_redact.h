/* trace_redact.h: what a trace line may say (guides/traces.md, "Keep private data private").
 *
 * A key is split into words at '_', '-', '.', a lower-to-upper change ("windowTitle") and an
 * acronym's end ("URLValue" -> URL, Value). When any word is text, value, name, title, url,
 * label, description, password, secret, token or json (a batch's entries), the key's value
 * becomes {"redacted": true}, whatever its type. Command names, app names (app, app_name),
 * ref and snapshot ids, codes and durations stay readable. An object that says it is secure
 * ("secure": true, or the role "password text") loses every such key outright: a secure
 * field's value never appears, redacted or not. */
#ifndef AD_TRACE_REDACT_H
#define AD_TRACE_REDACT_H

#include <jansson.h>
#include <stdbool.h>

/* True when a value under `key` is replaced. */
bool ad_trace_key_sensitive(const char *key);

/* Redacts v in place, through nested objects and arrays. v stays the caller's. */
void ad_trace_redact(json_t *v);

#endif
