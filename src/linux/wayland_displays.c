/* wayland_displays.c: see wayland_displays.h. */
#include "linux/wayland_displays.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "linux/bus_call.h"
#include "linux/session_bus.h"

#define DC_NAME "org.gnome.Mutter.DisplayConfig"
#define DC_PATH "/org/gnome/Mutter/DisplayConfig"

typedef struct {
    char *connector; /* owned */
    int width, height;
} monitor_mode;

typedef struct {
    monitor_mode *items; /* owned */
    size_t count;
} mode_table;

static void mode_table_clear(mode_table *t)
{
    for (size_t i = 0; i < t->count; i++)
        free(t->items[i].connector);
    free(t->items);
    memset(t, 0, sizeof(*t));
}

/* Skips an a{sv} of properties, returning the value of uint32 "layout-mode" in *ret_layout
 * when ret_layout is not NULL and the key is there. */
static int read_props(sd_bus_message *m, uint32_t *ret_layout)
{
    int r = sd_bus_message_enter_container(m, 'a', "{sv}");
    if (r < 0)
        return r;
    while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
        const char *key;
        if ((r = sd_bus_message_read(m, "s", &key)) < 0)
            return r;
        if (ret_layout && strcmp(key, "layout-mode") == 0 &&
            sd_bus_message_enter_container(m, 'v', "u") > 0) {
            if ((r = sd_bus_message_read(m, "u", ret_layout)) < 0)
                return r;
            if ((r = sd_bus_message_exit_container(m)) < 0)
                return r;
        } else if ((r = sd_bus_message_skip(m, "v")) < 0) {
            return r;
        }
        if ((r = sd_bus_message_exit_container(m)) < 0)
            return r;
    }
    return r < 0 ? r : sd_bus_message_exit_container(m);
}

/* Reads the current mode of one monitor: (ssss)a(siiddada{sv})a{sv}. */
static int read_monitor(sd_bus_message *m, mode_table *t)
{
    const char *connector;
    int r = sd_bus_message_read(m, "(ssss)", &connector, NULL, NULL, NULL);
    if (r < 0)
        return r;
    monitor_mode mm = {.connector = strdup(connector)};
    if (!mm.connector)
        return -ENOMEM;
    if ((r = sd_bus_message_enter_container(m, 'a', "(siiddada{sv})")) < 0)
        goto fail;
    while ((r = sd_bus_message_enter_container(m, 'r', "siiddada{sv}")) > 0) {
        int32_t w, h;
        if ((r = sd_bus_message_read(m, "sii", NULL, &w, &h)) < 0 ||
            (r = sd_bus_message_skip(m, "ddad")) < 0)
            goto fail;
        /* the mode's properties: "is-current" marks the one shown now */
        bool current = false;
        if ((r = sd_bus_message_enter_container(m, 'a', "{sv}")) < 0)
            goto fail;
        while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
            const char *key;
            int on = 0;
            if ((r = sd_bus_message_read(m, "s", &key)) < 0)
                goto fail;
            if (strcmp(key, "is-current") == 0 && sd_bus_message_read(m, "v", "b", &on) >= 0)
                current = on;
            else if ((r = sd_bus_message_skip(m, "v")) < 0)
                goto fail;
            if ((r = sd_bus_message_exit_container(m)) < 0)
                goto fail;
        }
        if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0 ||
            (r = sd_bus_message_exit_container(m)) < 0)
            goto fail;
        if (current) {
            mm.width = w;
            mm.height = h;
        }
    }
    if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0 || (r = read_props(m, NULL)) < 0)
        goto fail;
    monitor_mode *grown = realloc(t->items, (t->count + 1) * sizeof(*grown));
    if (!grown) {
        r = -ENOMEM;
        goto fail;
    }
    t->items = grown;
    t->items[t->count++] = mm;
    return 0;
fail:
    free(mm.connector);
    return r;
}

static const monitor_mode *find_mode(const mode_table *t, const char *connector)
{
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(t->items[i].connector, connector) == 0)
            return &t->items[i];
    return NULL;
}

/* Reads one logical monitor, (iiduba(ssss)a{sv}), into *d; its size waits for the layout
 * mode, which comes last in the reply, so *ret_mode is its first monitor's mode. */
static int read_logical(sd_bus_message *m, const mode_table *t, ad_display *d,
                        uint32_t *ret_transform, const monitor_mode **ret_mode)
{
    int32_t x, y;
    double scale;
    int primary;
    int r = sd_bus_message_read(m, "iidub", &x, &y, &scale, ret_transform, &primary);
    if (r < 0)
        return r;
    *d = (ad_display){.bounds = {x, y, 0, 0}, .scale = scale, .is_primary = primary};
    *ret_mode = NULL;
    if ((r = sd_bus_message_enter_container(m, 'a', "(ssss)")) < 0)
        return r;
    const char *connector;
    while ((r = sd_bus_message_read(m, "(ssss)", &connector, NULL, NULL, NULL)) > 0)
        if (!d->id) {
            d->id = strdup(connector);
            *ret_mode = find_mode(t, connector);
            if (!d->id)
                return -ENOMEM;
        }
    if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0)
        return r;
    return read_props(m, NULL);
}

/* GetCurrentState: u a((ssss)a(siiddada{sv})a{sv}) a(iiduba(ssss)a{sv}) a{sv}. */
int ad_wayland_displays_parse(sd_bus_message *m, ad_display_list *ret)
{
    mode_table modes = {0};
    const monitor_mode **first = NULL;
    uint32_t *transforms = NULL, layout = 1;
    int r = sd_bus_message_skip(m, "u");
    if (r >= 0)
        r = sd_bus_message_enter_container(m, 'a', "((ssss)a(siiddada{sv})a{sv})");
    while (r >= 0 && (r = sd_bus_message_enter_container(m, 'r',
                                                        "(ssss)a(siiddada{sv})a{sv}")) > 0) {
        if ((r = read_monitor(m, &modes)) >= 0)
            r = sd_bus_message_exit_container(m);
    }
    if (r >= 0)
        r = sd_bus_message_exit_container(m);
    if (r >= 0)
        r = sd_bus_message_enter_container(m, 'a', "(iiduba(ssss)a{sv})");
    while (r >= 0 && (r = sd_bus_message_enter_container(m, 'r', "iiduba(ssss)a{sv}")) > 0) {
        size_t n = ret->count + 1;
        ad_display *items = realloc(ret->items, n * sizeof(*items));
        if (items)
            ret->items = items;
        const monitor_mode **f = realloc(first, n * sizeof(*f));
        if (f)
            first = f;
        uint32_t *tr = realloc(transforms, n * sizeof(*tr));
        if (tr)
            transforms = tr;
        if (!items || !f || !tr) {
            r = -ENOMEM;
            break;
        }
        r = read_logical(m, &modes, &ret->items[ret->count], &transforms[ret->count],
                         &first[ret->count]);
        ret->count++; /* counted even when half read, so the clear frees its id */
        if (r >= 0)
            r = sd_bus_message_exit_container(m);
    }
    if (r >= 0)
        r = sd_bus_message_exit_container(m);
    if (r >= 0)
        r = read_props(m, &layout);
    for (size_t i = 0; r >= 0 && i < ret->count; i++) {
        ad_display *d = &ret->items[i];
        if (!first[i] || !d->id || d->scale <= 0) {
            r = -EBADMSG; /* a logical monitor without a monitor in a current mode */
            break;
        }
        /* transforms 1, 3, 5, 7 turn the mode by 90 or 270 degrees */
        bool turned = transforms[i] & 1;
        double w = turned ? first[i]->height : first[i]->width;
        double h = turned ? first[i]->width : first[i]->height;
        if (layout == 1) { /* logical layout: the compositor's units are mode / scale */
            w /= d->scale;
            h /= d->scale;
        }
        d->bounds.width = w;
        d->bounds.height = h;
    }
    /* primary first, the rest in Mutter's order */
    for (size_t i = 1; r >= 0 && i < ret->count; i++)
        if (ret->items[i].is_primary) {
            ad_display p = ret->items[i];
            memmove(&ret->items[1], &ret->items[0], i * sizeof(ad_display));
            ret->items[0] = p;
            break;
        }
    free(first);
    free(transforms);
    mode_table_clear(&modes);
    return r < 0 ? r : 0;
}

int ad_wayland_displays(int64_t deadline_us, ad_display_list *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    sd_bus *bus = NULL;
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    if (ad_session_bus_open(deadline_us, &bus, err) < 0)
        return -1;
    int r = ad_bus_call_method(bus, deadline_us, DC_NAME, DC_PATH, DC_NAME, "GetCurrentState", &e,
                           &reply, "");
    int rc = 0;
    if (r < 0) {
        if (sd_bus_error_has_name(&e, SD_BUS_ERROR_SERVICE_UNKNOWN) ||
            sd_bus_error_has_name(&e, SD_BUS_ERROR_NAME_HAS_NO_OWNER)) {
            ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                         "Listing displays on Wayland needs GNOME's Mutter "
                         "(org.gnome.Mutter.DisplayConfig), which is not on the session bus");
            ad_error_detail(err, "reason", json_string("wayland_session"));
        } else {
            ad_error_set(err, ad_bus_no_answer(r, &e) ? AD_TIMEOUT : AD_ACTION_FAILED,
                         "Mutter's DisplayConfig did not give its state");
            ad_error_platform_detail(err, e.message ? e.message : strerror(-r));
        }
        rc = -1;
    } else if ((r = ad_wayland_displays_parse(reply, ret)) < 0) {
        ad_display_list_clear(ret);
        ad_error_set(err, AD_INTERNAL, "Cannot read Mutter's DisplayConfig state");
        ad_error_platform_detail(err, strerror(-r));
        rc = -1;
    }
    sd_bus_error_free(&e);
    sd_bus_message_unref(reply);
    ad_bus_close(bus);
    return rc;
}
