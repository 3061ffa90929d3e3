/* lazy_libs.h: the agent-desktop executable binds libsystemd, libxcb (and its extension
 * libraries) and libpng at their first call, not at start (issue 12: loading them and the
 * libraries they pull in, 19 shared objects, was ~95% of the loader's time, and `version`,
 * `help` or `skills` call none of them).
 *
 * The executable is linked against none of them: scripts/lazy_trampolines.py writes, for each
 * function in src/cli/lazy_symbols.txt, a trampoline of that name that jumps through a slot, and
 * the first call of a trampoline lands in ad_lazy_resolve, which dlopens the library by its
 * soname (the ordinary search path, as a NEEDED entry would) and fills the slot. The C
 * library, the helper and the unit tests link the libraries as usual. x86-64 only; any other
 * CPU links them directly (meson.build). */
#ifndef AD_CLI_LAZY_LIBS_H
#define AD_CLI_LAZY_LIBS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *name;
    int soname; /* index into ad_lazy_sonames */
} ad_lazy_symbol;

/* The generated tables (lazy_trampolines.c in the build directory). */
extern const char *const ad_lazy_sonames[] __attribute__((visibility("hidden")));
extern const ad_lazy_symbol ad_lazy_symbols[] __attribute__((visibility("hidden")));
extern const size_t ad_lazy_symbol_count __attribute__((visibility("hidden")));
extern void *ad_lazy_slots[] __attribute__((visibility("hidden")));

/* The command whose envelope a load failure prints, and whether it may have acted by then
 * (borrowed; main sets it before dispatch). */
void ad_lazy_set_command(const char *command, bool mutates);

/* Called by the trampolines only: the address of symbol k, loading its library on first use. A
 * library or symbol that cannot be loaded prints one INTERNAL envelope naming it and exits 1:
 * the trampoline has no way to return an error to its caller. Thread-safe. */
void *ad_lazy_resolve(size_t k) __attribute__((visibility("hidden")));

#endif
