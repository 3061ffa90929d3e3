/* lazy_libs.c: the first-call resolver behind the lazy trampolines (lazy_libs.h). */
#include "cli/lazy_libs.h"

#include "core/error.h"
#include "dispatch/dispatch.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

/* The library handles, opened once and never closed (the process ends with them), and the
 * command a failure is reported for. One lock orders the first calls of two threads. */
static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;
static void *handles[16];
static const char *failing_command;
static bool failing_command_mutates;

void ad_lazy_set_command(const char *command, bool mutates)
{
    failing_command = command;
    failing_command_mutates = mutates;
}

/* Prints the one envelope of a library that cannot be used and ends the process: the
 * caller of the trampoline expects the function's own return value, so there is no error value
 * to give back. A mutating command may have acted before (an AT-SPI action before the first
 * X11 call), so its delivery is unknown. */
static void fail(const char *soname, const char *symbol, const char *why)
{
    ad_error err = AD_ERROR_INIT;
    if (symbol)
        ad_error_set(&err, AD_INTERNAL, "agent-desktop needs %s from %s, which does not "
                     "provide it", symbol, soname);
    else
        ad_error_set(&err, AD_INTERNAL, "agent-desktop could not load %s", soname);
    ad_error_suggest(&err, "Install or repair the system package that provides %s (it is a "
                     "dependency of agent-desktop)", soname);
    ad_error_platform_detail(&err, why ? why : "dlopen failed");
    err.delivery = failing_command_mutates ? AD_DELIVERY_UNKNOWN : AD_NOT_DELIVERED;
    json_t *env = ad_envelope_error(failing_command, &err);
    ad_envelope_print(env);
    fflush(stdout);
    _exit(1);
}

void *ad_lazy_resolve(size_t k)
{
    const ad_lazy_symbol *s = &ad_lazy_symbols[k];
    const char *soname = ad_lazy_sonames[s->soname];
    pthread_mutex_lock(&lazy_lock);
    if ((size_t)s->soname >= sizeof(handles) / sizeof(handles[0]))
        fail(soname, NULL, "more libraries in lazy_symbols.txt than lazy_libs.c holds");
    void *h = handles[s->soname];
    if (!h) {
        /* RTLD_LAZY: only what is called gets bound; RTLD_LOCAL: nothing of it becomes
         * visible to other libraries. */
        h = handles[s->soname] = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
        if (!h)
            fail(soname, NULL, dlerror());
    }
    void *addr = dlsym(h, s->name);
    if (!addr)
        fail(soname, s->name, dlerror());
    __atomic_store_n(&ad_lazy_slots[k], addr, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lazy_lock);
    return addr;
}
