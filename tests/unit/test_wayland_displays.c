/* test_wayland_displays.c: Mutter's DisplayConfig.GetCurrentState replies as list-displays
 * reads them (src/linux/wayland_displays.h): layouts a headless shell with one virtual
 * monitor cannot make (several monitors, the primary not first, a scale in the logical
 * layout, a rotation, a monitor with several modes), built as sealed sd-bus messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linux/wayland_displays.h"

typedef struct {
    const char *connector;
    int width, height; /* its current mode */
    bool extra_mode;   /* also a larger mode that is not current, listed first */
} monitor;

typedef struct {
    int x, y;
    double scale;
    uint32_t transform;
    bool primary;
    const char *connector;
} logical;

/* A sealed GetCurrentState reply, read from its start. */
static sd_bus_message *state_reply(sd_bus *bus, const monitor *mons, size_t n_mons,
                                   const logical *logs, size_t n_logs, uint32_t layout)
{
    sd_bus_message *m = NULL;
    assert_int_equal(sd_bus_message_new_method_call(bus, &m, "org.example", "/", "org.example",
                                                    "State"), 0);
    assert_true(sd_bus_message_append(m, "u", 7) >= 0);
    assert_true(sd_bus_message_open_container(m, 'a', "((ssss)a(siiddada{sv})a{sv})") >= 0);
    for (size_t i = 0; i < n_mons; i++) {
        assert_true(sd_bus_message_open_container(m, 'r', "(ssss)a(siiddada{sv})a{sv}") >= 0);
        assert_true(sd_bus_message_append(m, "(ssss)", mons[i].connector, "Vendor", "Product",
                                          "0x01") >= 0);
        assert_true(sd_bus_message_open_container(m, 'a', "(siiddada{sv})") >= 0);
        if (mons[i].extra_mode)
            assert_true(sd_bus_message_append(m, "(siiddada{sv})", "big", 4096, 2160, 30.0, 1.0,
                                              1, 1.0, 1, "is-preferred", "b", 1) >= 0);
        assert_true(sd_bus_message_append(m, "(siiddada{sv})", "now", mons[i].width,
                                          mons[i].height, 60.0, 1.0, 2, 1.0, 2.0, 2,
                                          "is-current", "b", 1, "is-preferred", "b", 0) >= 0);
        assert_true(sd_bus_message_close_container(m) >= 0);
        assert_true(sd_bus_message_append(m, "a{sv}", 1, "display-name", "s", "Screen") >= 0);
        assert_true(sd_bus_message_close_container(m) >= 0);
    }
    assert_true(sd_bus_message_close_container(m) >= 0);
    assert_true(sd_bus_message_open_container(m, 'a', "(iiduba(ssss)a{sv})") >= 0);
    for (size_t i = 0; i < n_logs; i++)
        assert_true(sd_bus_message_append(m, "(iiduba(ssss)a{sv})", logs[i].x, logs[i].y,
                                          logs[i].scale, logs[i].transform, logs[i].primary, 1,
                                          logs[i].connector, "Vendor", "Product", "0x01",
                                          0) >= 0);
    assert_true(sd_bus_message_close_container(m) >= 0);
    assert_true(sd_bus_message_append(m, "a{sv}", 2, "legacy-ui-scaling-factor", "i", 1,
                                      "layout-mode", "u", layout) >= 0);
    assert_int_equal(sd_bus_message_seal(m, 1, 0), 0);
    assert_int_equal(sd_bus_message_rewind(m, 1), 1);
    return m;
}

/* sd-bus makes messages only on a bus that is opening: one end of a socket pair whose other
 * end never answers is enough (nothing is sent). */
typedef struct {
    sd_bus *bus;
    int peer;
} bed;

static int setup(void **state)
{
    bed *b = calloc(1, sizeof(*b));
    int fds[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    assert_int_equal(sd_bus_new(&b->bus), 0);
    assert_int_equal(sd_bus_set_fd(b->bus, fds[0], fds[0]), 0);
    assert_int_equal(sd_bus_start(b->bus), 0);
    b->peer = fds[1];
    *state = b;
    return 0;
}

static int teardown(void **state)
{
    bed *b = *state;
    sd_bus_close_unref(b->bus);
    close(b->peer);
    free(b);
    return 0;
}

/* Builds the reply, parses it into *l (the caller clears it) and returns the parser's code. */
static int parse(void **state, const monitor *mons, size_t n_mons, const logical *logs,
                 size_t n_logs, uint32_t layout, ad_display_list *l)
{
    sd_bus_message *m = state_reply(((bed *)*state)->bus, mons, n_mons, logs, n_logs, layout);
    memset(l, 0, sizeof(*l));
    int rc = ad_wayland_displays_parse(m, l);
    sd_bus_message_unref(m);
    return rc;
}

/* The reply parses into exactly `want`, in order. */
static void assert_displays(void **state, const monitor *mons, size_t n_mons,
                            const logical *logs, size_t n_logs, uint32_t layout,
                            const ad_display *want, size_t n_want)
{
    ad_display_list l;
    assert_int_equal(parse(state, mons, n_mons, logs, n_logs, layout, &l), 0);
    assert_int_equal(l.count, n_want);
    for (size_t i = 0; i < n_want; i++) {
        const ad_display *d = &l.items[i], *w = &want[i];
        assert_string_equal(d->id, w->id);
        assert_true(d->bounds.x == w->bounds.x && d->bounds.y == w->bounds.y);
        assert_true(d->bounds.width == w->bounds.width && d->bounds.height == w->bounds.height);
        assert_true(d->scale == w->scale);
        assert_int_equal(d->is_primary, w->is_primary);
    }
    ad_display_list_clear(&l);
}

/* One layout and what list-displays must make of it. */
typedef struct {
    const char *what;
    monitor mons[2];
    logical logs[2];
    size_t n; /* monitors = logical monitors = displays */
    uint32_t layout;
    ad_display want[2];
} layout_case;

static const layout_case layouts[] = {
    {"what mutter 43's headless --virtual-monitor 1280x800 answers (layout-mode 2)",
     {{"Meta-0", 1280, 800, false}}, {{0, 0, 1.0, 0, true, "Meta-0"}}, 1, 2,
     {{"Meta-0", {0, 0, 1280, 800}, 1.0, true}}},
    {"the primary goes first; in the logical layout a scale-2 monitor's size is its mode "
     "halved; the current mode counts, not the first or the preferred one",
     {{"DP-1", 1920, 1080, true}, {"HDMI-1", 2560, 1440, false}},
     {{0, 0, 1.0, 0, false, "DP-1"}, {1920, 0, 2.0, 0, true, "HDMI-1"}}, 2, 1,
     {{"HDMI-1", {1920, 0, 1280, 720}, 2.0, true}, {"DP-1", {0, 0, 1920, 1080}, 1.0, false}}},
    {"transforms 1 and 3 (90, 270 degrees) swap the mode's sides, 2 (180) does not; in the "
     "physical layout the scale does not divide the size",
     {{"eDP-1", 1920, 1080, false}, {"DP-2", 1920, 1080, false}},
     {{0, 0, 2.0, 1, true, "eDP-1"}, {1080, 0, 1.0, 2, false, "DP-2"}}, 2, 2,
     {{"eDP-1", {0, 0, 1080, 1920}, 2.0, true}, {"DP-2", {1080, 0, 1920, 1080}, 1.0, false}}},
};

static void test_layouts(void **state)
{
    for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
        const layout_case *c = &layouts[i];
        print_message("layout: %s\n", c->what);
        assert_displays(state, c->mons, c->n, c->logs, c->n, c->layout, c->want, c->n);
    }
}

/* A logical monitor naming a connector with no monitor entry has no size: refused, freed. */
static void test_unknown_connector_is_refused(void **state)
{
    monitor mons[] = {{"DP-1", 1920, 1080, false}};
    logical logs[] = {{0, 0, 1.0, 0, true, "DP-9"}};
    ad_display_list l;
    assert_true(parse(state, mons, 1, logs, 1, 2, &l) < 0);
    ad_display_list_clear(&l);
}

/* A reply of another shape (an older or newer interface) is an error, not a guess. */
static void test_other_shape_is_refused(void **state)
{
    sd_bus_message *m = NULL;
    assert_int_equal(sd_bus_message_new_method_call(((bed *)*state)->bus, &m, "org.example", "/",
                                                    "org.example", "State"), 0);
    assert_true(sd_bus_message_append(m, "us", 7, "not a state") >= 0);
    assert_int_equal(sd_bus_message_seal(m, 1, 0), 0);
    assert_int_equal(sd_bus_message_rewind(m, 1), 1);
    ad_display_list l = {0};
    assert_true(ad_wayland_displays_parse(m, &l) < 0);
    ad_display_list_clear(&l);
    sd_bus_message_unref(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_layouts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_connector_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_shape_is_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
