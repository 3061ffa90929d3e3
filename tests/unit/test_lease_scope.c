/* test_lease_scope.c: every mutation takes the interaction lease (ffi/ownership-and-threading.md,
 * "Concurrent calls"): the table declares where for every command that mutates, and a command
 * refused by a held lease returns TIMEOUT with details.kind lock_timeout
 * (commands/clipboard.md) and changes nothing; the lease is reentrant per thread. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/deadline.h"
#include "core/lease.h"
#include "dispatch/command_table.h"
#include "fake_adapter.h"
#include "test_util.h"

/* The fake adapter with one app "editor" (pid 400) and a private lease directory. */
typedef struct {
    tu_home home;
    fake_adapter *fake;
    char *runtime;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof(*f));
    tu_fake_begin(&f->home, &f->fake);
    f->runtime = tu_tmpdir();
    setenv("XDG_RUNTIME_DIR", f->runtime, 1);
    fake_add_app(f->fake, "editor", 400);
    fake_add_window(f->fake, "editor", "Notes",
                    fk("window|n=Notes", fk("button|n=Save|a=Click|b=10,10,80,30", NULL),
                       NULL))->w.is_focused = true;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    tu_fake_end(&f->home, f->fake);
    unsetenv("XDG_RUNTIME_DIR");
    tu_rmrf(f->runtime);
    free(f->runtime);
    free(f);
    return 0;
}

/* Another holder: the lock file opened anew (its own open file description) and locked. */
static int hold(void)
{
    ad_error err = AD_ERROR_INIT;
    int fd = ad_lease_open(getenv("XDG_RUNTIME_DIR"), "/tmp", &err);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
    return fd;
}

static bool held_elsewhere(void)
{
    ad_error err = AD_ERROR_INIT;
    int fd = ad_lease_open(getenv("XDG_RUNTIME_DIR"), "/tmp", &err);
    assert_true(fd >= 0);
    bool held = flock(fd, LOCK_EX | LOCK_NB) != 0;
    close(fd);
    return held;
}

/* cmd refused while another holds the lease: a short ceiling bounds the lease's wait. */
static void expect_lock_timeout(fake_adapter *fake, const char *cmd, json_t *args)
{
    int64_t saved = ad_deadline_ceiling_push(ad_deadline_after_ms(300));
    json_t *env = tu_run_exit(fake_base(fake), cmd, args, NULL, 1);
    ad_deadline_ceiling_restore(saved);
    assert_string_equal(tu_str(env, "error.code"), "TIMEOUT");
    assert_string_equal(tu_str(env, "error.details.kind"), "lock_timeout");
    assert_string_equal(tu_str(env, "error.disposition.delivery"), "not_delivered");
    assert_string_equal(tu_str(env, "error.disposition.retry"), "safe");
    json_decref(env);
}

/* The table: a command mutates exactly when it declares where it takes the lease. */
static void test_every_mutation_declares_its_lease(void **state)
{
    (void)state;
    for (size_t i = 0; i < ad_commands_count; i++) {
        const ad_command *c = &ad_commands[i];
        if (c->mutates != (c->lease != AD_LEASE_NONE))
            fail_msg("%s: mutates %d but lease scope %d", c->name, c->mutates, c->lease);
    }
}

static void test_clipboard_writes_wait_for_the_lease(void **state)
{
    fx *f = *state;
    json_decref(tu_run_exit(fake_base(f->fake), "clipboard-set",
                            tu_args("clipboard-set", "{s:s}", "text", "old"), NULL, 0));
    int other = hold();
    expect_lock_timeout(f->fake, "clipboard-set",
                        tu_args("clipboard-set", "{s:s}", "text", "new"));
    expect_lock_timeout(f->fake, "clipboard-clear", tu_args("clipboard-clear", "{}"));
    /* Nothing changed: the old text is still held, written once. */
    assert_true(f->fake->clip_held);
    assert_int_equal(f->fake->n_clip_writes, 1);
    assert_memory_equal(f->fake->clip.data, "old", 3);
    close(other);
    json_decref(tu_run_exit(fake_base(f->fake), "clipboard-set",
                            tu_args("clipboard-set", "{s:s}", "text", "new"), NULL, 0));
    assert_int_equal(f->fake->n_clip_writes, 2);
    assert_memory_equal(f->fake->clip.data, "new", 3);
    json_decref(tu_run_exit(fake_base(f->fake), "clipboard-clear",
                            tu_args("clipboard-clear", "{}"), NULL, 0));
    assert_false(f->fake->clip_held);
    assert_false(held_elsewhere()); /* dispatch released it */
}

static void test_close_app_waits_for_the_lease(void **state)
{
    fx *f = *state;
    int other = hold();
    expect_lock_timeout(f->fake, "close-app", tu_args("close-app", "{s:s}", "app", "editor"));
    expect_lock_timeout(f->fake, "close-app",
                        tu_args("close-app", "{s:s, s:b}", "app", "editor", "force", 1));
    assert_int_equal(f->fake->n_close_windows + f->fake->n_term + f->fake->n_kill, 0);
    close(other);
    json_t *env = tu_run_exit(fake_base(f->fake), "close-app",
                              tu_args("close-app", "{s:s, s:b}", "app", "editor", "force", 1),
                              NULL, 0);
    assert_string_equal(tu_str(env, "data.disposition.delivery"), "delivered_verified");
    assert_int_equal(f->fake->n_term, 1);
    json_decref(env);
    assert_false(held_elsewhere());
}

/* The handlers' own delivery paths (AD_LEASE_DELIVERY) refuse the same way: a ref action
 * and a window write reach nothing of the adapter. */
static void test_delivery_paths_wait_for_the_lease(void **state)
{
    fx *f = *state;
    char *save = tu_snapshot_ref(fake_base(f->fake), NULL, "Save");
    int other = hold();
    expect_lock_timeout(f->fake, "click", tu_args("click", "{s:s}", "ref_id", save));
    expect_lock_timeout(f->fake, "move-window",
                        tu_args("move-window", "{s:i, s:i, s:s}", "x", 5, "y", 6, "app",
                                "editor"));
    assert_int_equal(f->fake->n_act + f->fake->n_window_op, 0);
    close(other);
    json_decref(tu_run_exit(fake_base(f->fake), "click", tu_args("click", "{s:s}", "ref_id",
                                                                 save), NULL, 0));
    assert_int_equal(f->fake->n_act, 1);
    free(save);
}

/* A thread that holds the lease takes it again at once (no second flock, which would wait
 * for itself); it stays held until the outer release. */
static void test_the_lease_is_reentrant_per_thread(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    ad_lease outer = AD_LEASE_INIT, inner = AD_LEASE_INIT;
    assert_false(ad_lease_held());
    assert_int_equal(ad_lease_acquire(&outer, ad_now_us() + 1000000, &err), 0);
    assert_true(ad_lease_held());
    int64_t before = ad_now_us();
    assert_int_equal(ad_lease_acquire(&inner, before, &err), 0); /* no time to wait */
    assert_true(inner.nested);
    assert_int_equal(inner.contention, 0);
    ad_lease_release(&inner);
    assert_true(ad_lease_held());
    assert_true(held_elsewhere());
    ad_lease_release(&outer);
    assert_false(ad_lease_held());
    assert_false(held_elsewhere());
    ad_lease_release(&outer); /* safe twice */
    assert_false(ad_lease_held());
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_mutation_declares_its_lease),
        T(test_clipboard_writes_wait_for_the_lease),
        T(test_close_app_waits_for_the_lease),
        T(test_delivery_paths_wait_for_the_lease),
        T(test_the_lease_is_reentrant_per_thread),
    };
    return cmocka_run_group_tests_name("lease_scope", tests, NULL, NULL);
}
