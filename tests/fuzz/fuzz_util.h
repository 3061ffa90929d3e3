/* fuzz_util.h: what the libFuzzer targets share: the envelope invariant and a private state
 * root. Each target is one LLVMFuzzerTestOneInput over one parser (see meson.build). */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <jansson.h>
#include <stddef.h>

/* Aborts (a crash libFuzzer reports) unless `env` is one whole contract envelope: it
 * serialises, parses back, and holds version, ok, command, and data (ok) or error.code and
 * error.message (not ok). Consumes nothing: env stays the caller's. */
void fz_check_envelope(const json_t *env);

/* A fresh private directory for AGENT_DESKTOP_HOME, made once per process (caller must not
 * free). The process exits through libFuzzer, so it is removed by fz_cleanup at exit. */
const char *fz_state_home(void);

/* A NUL-terminated copy of data (caller frees). */
char *fz_cstr(const unsigned char *data, size_t size);

#endif
