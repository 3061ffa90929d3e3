/* x11_drive.c: a command-line driver over x11_input for tests/e2e/x11_input_check.sh.
 *
 *   x11-drive find PID [TITLE]         prints the window id (decimal)
 *   x11-drive focus WINDOW [MS]        activates it (deadline MS, default 5000), then prints
 *                                      "WINDOW PID" of the active window
 *   x11-drive active                   prints "WINDOW PID" of the active window
 *   x11-drive at X Y                   prints "WINDOW PID" of what is at the point
 *   x11-drive move X Y
 *   x11-drive click X Y [BUTTON [COUNT [MODS]]]   MODS: modifiers joined by '+' ("ctrl+shift")
 *   x11-drive wheel X Y DX DY
 *   x11-drive drag FX FY TX TY MS
 *   x11-drive key COMBO
 *   x11-drive type TEXT
 *   x11-drive parse COMBO              prints the keysyms in hex; needs no display
 *   x11-drive keymap                   prints a checksum of the core keyboard mapping
 *   x11-drive wm                       prints "PID NAME" of the EWMH window manager
 *                                      (linux/x11_wm.c), exit 1 when none
 *
 * Exit status 0 on success; on failure 1, and stderr holds "CODE: message". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/xcb.h>

#include "linux/app_close.h"
#include "linux/x11_input.h"

static int num(const char *s)
{
    return (int)strtol(s, NULL, 0);
}

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* FNV-1a over the whole core keyboard mapping: equal before and after a type proves the
 * spare keycodes were put back. */
static int keymap_checksum(void)
{
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        fprintf(stderr, "PLATFORM_NOT_SUPPORTED: no display\n");
        return 1;
    }
    const xcb_setup_t *s = xcb_get_setup(c);
    xcb_get_keyboard_mapping_reply_t *r = xcb_get_keyboard_mapping_reply(
        c, xcb_get_keyboard_mapping(c, s->min_keycode,
                                    (uint8_t)(s->max_keycode - s->min_keycode + 1)), NULL);
    uint64_t h = 1469598103934665603ull;
    int n = r ? xcb_get_keyboard_mapping_keysyms_length(r) : 0;
    xcb_keysym_t *ks = r ? xcb_get_keyboard_mapping_keysyms(r) : NULL;
    for (int i = 0; i < n; i++)
        h = (h ^ ks[i]) * 1099511628211ull;
    printf("%016llx %d\n", (unsigned long long)h, n);
    free(r);
    xcb_disconnect(c);
    return r ? 0 : 1;
}

static int run(ad_x11 *x, int argc, char **argv, ad_error *err)
{
    const char *cmd = argv[1];
    uint32_t w = 0;
    int pid = 0;
    if (!strcmp(cmd, "find") && argc >= 3) {
        if (ad_x11_find_window(x, num(argv[2]), argc > 3 ? argv[3] : NULL, &w, err) < 0)
            return -1;
        printf("%u\n", w);
        return 0;
    }
    if (!strcmp(cmd, "focus") && argc >= 3) {
        int64_t ms = argc > 3 ? num(argv[3]) : 5000;
        if (ad_x11_focus_window(x, (uint32_t)strtoul(argv[2], NULL, 0), now_us() + ms * 1000,
                                err) < 0)
            return -1;
        cmd = "active";
    }
    if (!strcmp(cmd, "active")) {
        if (ad_x11_active_window(x, &w, &pid, err) < 0)
            return -1;
        printf("%u %d\n", w, pid);
        return 0;
    }
    if (!strcmp(cmd, "at") && argc == 4) {
        if (ad_x11_window_at(x, num(argv[2]), num(argv[3]), &w, &pid, NULL, err) < 0)
            return -1;
        printf("%u %d\n", w, pid);
        return 0;
    }
    if (!strcmp(cmd, "move") && argc == 4)
        return ad_x11_move(x, num(argv[2]), num(argv[3]), err);
    if (!strcmp(cmd, "click") && argc >= 4) {
        unsigned mods = 0, m;
        char *list = argc > 6 ? strdup(argv[6]) : NULL, *save = NULL;
        for (char *p = list ? strtok_r(list, "+", &save) : NULL; p; p = strtok_r(NULL, "+",
                                                                                 &save)) {
            if (ad_x11_modifier_mask(p, &m, err) < 0) {
                free(list);
                return -1;
            }
            mods |= m;
        }
        free(list);
        return ad_x11_click_mods(x, num(argv[2]), num(argv[3]), argc > 4 ? num(argv[4]) : 1,
                                 argc > 5 ? num(argv[5]) : 1, mods, err);
    }
    if (!strcmp(cmd, "wheel") && argc == 6)
        return ad_x11_wheel(x, num(argv[2]), num(argv[3]), num(argv[4]), num(argv[5]), err);
    if (!strcmp(cmd, "drag") && argc == 7)
        return ad_x11_drag(x, num(argv[2]), num(argv[3]), num(argv[4]), num(argv[5]),
                           num(argv[6]), err);
    if (!strcmp(cmd, "key") && argc == 3)
        return ad_x11_key_combo(x, argv[2], err);
    if (!strcmp(cmd, "type") && argc == 3)
        return ad_x11_type_text(x, argv[2], err);
    return ad_error_set(err, AD_INVALID_ARGS, "usage: see the head of tests/unit/x11_drive.c");
}

int main(int argc, char **argv)
{
    ad_error err = AD_ERROR_INIT;
    int rc = -1;
    if (argc >= 2 && !strcmp(argv[1], "keymap"))
        return keymap_checksum();
    if (argc == 2 && !strcmp(argv[1], "wm")) {
        char *name = NULL;
        int pid = 0;
        bool found = ad_x11_window_manager(&name, &pid);
        if (found)
            printf("%d %s\n", pid, name ? name : "");
        free(name);
        return found ? 0 : 1;
    }
    if (argc == 3 && !strcmp(argv[1], "parse")) {
        uint32_t ks[AD_X11_COMBO_MAX];
        int n;
        rc = ad_x11_parse_combo(argv[2], ks, &n, &err);
        for (int i = 0; rc == 0 && i < n; i++)
            printf(i ? " 0x%x" : "0x%x", ks[i]);
        if (rc == 0)
            printf("\n");
    } else if (argc >= 2) {
        ad_x11 *x = NULL;
        if (ad_x11_open(&x, &err) == 0) {
            rc = run(x, argc, argv, &err);
            ad_x11_close(x);
        }
    } else {
        ad_error_set(&err, AD_INVALID_ARGS, "usage: see the head of tests/unit/x11_drive.c");
    }
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", ad_error_code_name(err.code),
                err.message ? err.message : "error");
        if (err.suggestion)
            fprintf(stderr, "suggestion: %s\n", err.suggestion);
        if (err.platform_detail)
            fprintf(stderr, "platform_detail: %s\n", err.platform_detail);
        if (err.details) {
            char *d = json_dumps(err.details, JSON_COMPACT | JSON_SORT_KEYS);
            fprintf(stderr, "details: %s\n", d ? d : "?");
            free(d);
        }
        fprintf(stderr, "delivery: %s\n", ad_delivery_name(err.delivery));
    }
    ad_error_clear(&err);
    return rc < 0 ? 1 : 0;
}
