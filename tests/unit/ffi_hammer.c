/* ffi_hammer.c: a driver for a live desktop, run by tests/e2e/test_ffi_core.py (under the
 * normal, ASan and TSan builds): it hammers the C library from several threads at once.
 *
 *   ffi-hammer APP REF ROUNDS [SESSION]
 *
 * With SESSION (a session whose manifest records screenshots), the two clicking adapters are
 * scoped to it, so each click also writes its trace and before/after artifacts.
 *
 * - two threads, each with its own adapter, run ROUNDS times: status, a snapshot of APP, a
 *   click on REF (a qualified ref the caller took from the same state root); every call must
 *   succeed, so the app sees exactly 2 * ROUNDS clicks (the caller reads that independently);
 * - a third thread shares the first thread's adapter and only reads (snapshots), at the same
 *   time as that thread's mutations;
 * - a fourth thread fails once (a bare ref), then succeeds repeatedly: its last error stays
 *   the failure, while the other threads' failures and successes never reach it;
 * - a fifth thread snapshots an adapter in a loop while main destroys that adapter: each call
 *   either succeeds (it began before) or fails with INVALID_ARGS (after), never both out of
 *   order, and a call after destroy fails with INVALID_ARGS.
 * Prints one JSON line {"clicks": N, "destroyed_ok": n, "destroyed_refused": n} and exits 0,
 * or prints what failed to stderr and exits 1. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent_desktop.h"

static const char *app, *ref;
static int rounds;
static atomic_int failures;
static atomic_int clicks;

static void fail(const char *what, AdResult rc)
{
    const char *m = ad_last_error_message();
    fprintf(stderr, "ffi-hammer: %s: %d %s\n", what, (int)rc, m ? m : "(no message)");
    atomic_fetch_add(&failures, 1);
}

/* Frees *out (after the call: an argument's value would be read before the call runs). */
static bool call_ok(const char *what, AdResult rc, char **out)
{
    ad_free_string(*out);
    *out = NULL;
    if (rc != AD_RESULT_OK) {
        fail(what, rc);
        return false;
    }
    return true;
}

typedef struct {
    struct AdAdapter *adapter;
    bool mutate;
} worker_args;

static void *worker(void *p)
{
    worker_args *w = p;
    AdAction click;
    memset(&click, 0, sizeof(click));
    click.kind = AD_ACTION_KIND_CLICK;
    for (int i = 0; i < rounds; i++) {
        char *out = NULL;
        if (w->mutate) {
            call_ok("status", ad_status(w->adapter, &out), &out);
            /* A generous lease wait: the other mutating thread may hold it. */
            AdResult rc = ad_execute_by_ref_timeout(w->adapter, ref, &click,
                                                    AD_POLICY_KIND_HEADLESS, 20000, &out);
            if (call_ok("click", rc, &out))
                atomic_fetch_add(&clicks, 1);
        }
        call_ok("snapshot", ad_snapshot(w->adapter, app, AD_SNAPSHOT_SURFACE_WINDOW, 10, true,
                                        true, &out), &out);
    }
    return NULL;
}

static void *errors_stay_per_thread(void *p)
{
    struct AdAdapter *a = p;
    AdAction click;
    memset(&click, 0, sizeof(click));
    char *out = NULL;
    AdResult rc = ad_execute_by_ref(a, "@e1", &click, AD_POLICY_KIND_HEADLESS, &out);
    if (rc != AD_RESULT_ERR_INVALID_ARGS || out) {
        fail("a bare ref was not refused before dispatch", rc);
        return NULL;
    }
    const char *msg = ad_last_error_message();
    for (int i = 0; i < rounds * 2; i++) {
        call_ok("status (errors thread)", ad_status(a, &out), &out);
        if (ad_last_error_code() != AD_RESULT_ERR_INVALID_ARGS ||
            ad_last_error_message() != msg) {
            fail("this thread's last error changed without a failure on it", 0);
            return NULL;
        }
    }
    return NULL;
}

typedef struct {
    struct AdAdapter *adapter;
    atomic_int started;
    int ok, refused;
} doomed_args;

static void *snapshot_until_refused(void *p)
{
    doomed_args *d = p;
    for (int i = 0; i < 200; i++) {
        char *out = NULL;
        AdResult rc = ad_snapshot(d->adapter, app, AD_SNAPSHOT_SURFACE_WINDOW, 5, true, true,
                                  &out);
        ad_free_string(out);
        atomic_store(&d->started, 1);
        if (rc == AD_RESULT_OK && d->refused == 0) {
            d->ok++;
        } else if (rc == AD_RESULT_ERR_INVALID_ARGS) {
            d->refused++;
            if (d->refused >= 3)
                break;
        } else {
            fail(d->refused ? "a call succeeded after one was refused" : "snapshot (doomed)",
                 rc);
            break;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: ffi-hammer APP REF ROUNDS [SESSION]\n");
        return 2;
    }
    app = argv[1];
    ref = argv[2];
    rounds = atoi(argv[3]);
    if (ad_init(AD_ABI_VERSION_MAJOR) != AD_RESULT_OK)
        return 1;
    const char *session = argc == 5 ? argv[4] : NULL;
    struct AdAdapter *a1 = ad_adapter_create_with_session(session);
    struct AdAdapter *a2 = ad_adapter_create_with_session(session);
    struct AdAdapter *doomed = ad_adapter_create();
    if (!a1 || !a2 || !doomed)
        return 1;
    worker_args w1 = {a1, true}, w2 = {a2, true}, reader = {a1, false};
    doomed_args d = {.adapter = doomed};
    pthread_t t[5];
    pthread_create(&t[0], NULL, worker, &w1);
    pthread_create(&t[1], NULL, worker, &w2);
    pthread_create(&t[2], NULL, worker, &reader);
    pthread_create(&t[3], NULL, errors_stay_per_thread, a2);
    pthread_create(&t[4], NULL, snapshot_until_refused, &d);
    /* Destroy while the fifth thread's calls run (after its first one returned). */
    while (!atomic_load(&d.started)) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    ad_adapter_destroy(doomed);
    char *out = NULL;
    AdResult rc = ad_status(doomed, &out);
    if (rc != AD_RESULT_ERR_INVALID_ARGS || out)
        fail("a call after destroy was not refused", rc);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], NULL);
    if (d.refused == 0)
        fail("the destroyed adapter's thread never saw INVALID_ARGS", 0);
    ad_adapter_destroy(a1);
    ad_adapter_destroy(a2);
    printf("{\"clicks\": %d, \"destroyed_ok\": %d, \"destroyed_refused\": %d}\n",
           atomic_load(&clicks), d.ok, d.refused);
    return atomic_load(&failures) ? 1 : 0;
}
