/* gnome_capture.c: see gnome_capture.h. */
#include "linux/gnome_capture.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h" /* ad_now_us */
#include "core/deadline.h"
#include "linux/atspi_apps.h"
#include "linux/bus_call.h"
#include "linux/session_bus.h"

#define SHOT_NAME "org.gnome.Shell.Screenshot"
#define SHOT_PATH "/org/gnome/Shell/Screenshot"
#define CALLER_NAME "org.gnome.Screenshot" /* a name the shell serves (gnome_capture.h) */
#define BUS_NAME "org.freedesktop.DBus"
#define BUS_PATH "/org/freedesktop/DBus"
#define CAPTURE_BUDGET_MS 8000

/* The pid of the connection holding CALLER_NAME, or 0 when unknown. */
static uint32_t holder_pid(sd_bus *bus, int64_t deadline_us)
{
    char *owner = NULL;
    int pid = 0;
    if (ad_bus_name_owner(bus, deadline_us, CALLER_NAME, &owner, NULL) > 0)
        pid = ad_atspi_bus_pid(bus, owner, deadline_us);
    free(owner);
    return pid > 0 ? (uint32_t)pid : 0;
}

/* Owns CALLER_NAME on `bus`, waiting while another connection holds it (never taking it
 * over), until the deadline. */
static int own_caller_name(sd_bus *bus, int64_t deadline_us, ad_error *err)
{
    for (;;) {
        sd_bus_message *reply = NULL;
        sd_bus_error e = SD_BUS_ERROR_NULL;
        uint32_t answer = 0;
        int r = ad_bus_call_method(bus, deadline_us, BUS_NAME, BUS_PATH, BUS_NAME,
                                   "RequestName", &e, &reply, "su", CALLER_NAME,
                                   (uint32_t)4 /* DBUS_NAME_FLAG_DO_NOT_QUEUE */);
        if (r >= 0)
            r = sd_bus_message_read(reply, "u", &answer);
        sd_bus_message_unref(reply);
        if (r < 0) {
            ad_error_set(err, ad_bus_no_answer(r, &e) ? AD_TIMEOUT : AD_ACTION_FAILED,
                         "The session bus did not give the name " CALLER_NAME);
            ad_error_platform_detail(err, e.message ? e.message : strerror(-r));
            sd_bus_error_free(&e);
            return -1;
        }
        if (answer == 1 || answer == 4) /* the primary owner, or already it */
            return 0;
        if (ad_now_us() + 100000 > deadline_us)
            break;
        struct timespec pause = {0, 100000000}; /* 100 ms: the holder's capture takes ~0.3 s */
        nanosleep(&pause, NULL);
    }
    uint32_t pid = holder_pid(bus, ad_deadline_after_ms(500));
    ad_error_set(err, AD_ACTION_FAILED,
                 "Another screenshot tool holds " CALLER_NAME " (pid %u), the name GNOME Shell "
                 "serves screenshots to; agent-desktop waits for it and never takes it over",
                 pid);
    ad_error_detail(err, "reason", json_string("capture_busy"));
    ad_error_suggest(err, "Retry once the other screenshot tool has finished");
    return -1;
}

/* Decodes the PNG at `path` into 8-bit RGB (alpha composited on black; a screen is opaque). */
static int read_png_rgb(const char *path, ad_image *ret, ad_error *err)
{
    png_image img;
    memset(&img, 0, sizeof(img));
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        ad_error_set(err, AD_ACTION_FAILED, "GNOME Shell's screenshot is not a readable PNG");
        ad_error_platform_detail(err, img.message);
        return -1;
    }
    img.format = PNG_FORMAT_RGB;
    size_t len = PNG_IMAGE_SIZE(img);
    ret->rgb = malloc(len ? len : 1);
    if (!ret->rgb) {
        png_image_free(&img);
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    }
    if (!png_image_finish_read(&img, NULL, ret->rgb, 0, NULL)) {
        ad_error_set(err, AD_ACTION_FAILED, "GNOME Shell's screenshot is not a readable PNG");
        ad_error_platform_detail(err, img.message);
        png_image_free(&img);
        free(ret->rgb);
        ret->rgb = NULL;
        return -1;
    }
    ret->width = (int)img.width;
    ret->height = (int)img.height;
    return 0;
}

/* The error of a failed ScreenshotArea call. */
static int shot_error(int r, const sd_bus_error *e, ad_error *err)
{
    if (sd_bus_error_has_name(e, SD_BUS_ERROR_SERVICE_UNKNOWN) ||
        sd_bus_error_has_name(e, SD_BUS_ERROR_NAME_HAS_NO_OWNER) ||
        sd_bus_error_has_name(e, SD_BUS_ERROR_UNKNOWN_METHOD)) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                     "Screen capture on Wayland needs GNOME Shell's Screenshot API, which is "
                     "not on the session bus; the xdg-desktop-portal route is not in this "
                     "build");
        ad_error_detail(err, "reason", json_string("wayland_session"));
    } else if (sd_bus_error_has_name(e, SD_BUS_ERROR_ACCESS_DENIED)) {
        ad_error_set(err, AD_PERM_DENIED, "GNOME Shell refused the screenshot");
        ad_error_platform_detail(err, e->message);
    } else {
        ad_error_set(err, ad_bus_no_answer(r, e) ? AD_TIMEOUT : AD_ACTION_FAILED,
                     "GNOME Shell's ScreenshotArea failed");
        ad_error_platform_detail(err, e->message ? e->message : strerror(-r));
    }
    return -1;
}

/* Asks the shell to write the rectangle as a PNG at `path`. */
static int shoot_area(sd_bus *bus, const ad_rect *rect, const char *path, int64_t deadline_us,
                      ad_error *err)
{
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int32_t x = (int32_t)floor(rect->x), y = (int32_t)floor(rect->y);
    int32_t w = (int32_t)ceil(rect->x + rect->width) - x;
    int32_t h = (int32_t)ceil(rect->y + rect->height) - y;
    if (w <= 0 || h <= 0)
        return ad_error_set(err, AD_INVALID_ARGS, "The rectangle to capture is empty");
    int r = ad_bus_call_method(bus, deadline_us, SHOT_NAME, SHOT_PATH, SHOT_NAME,
                               "ScreenshotArea", &e, &reply, "iiiibs", x, y, w, h,
                               0 /* no flash */, path);
    int ok = 0, rc = 0;
    if (r < 0)
        rc = shot_error(r, &e, err);
    else if (sd_bus_message_read(reply, "b", &ok) < 0 || !ok)
        rc = ad_error_set(err, AD_ACTION_FAILED, "GNOME Shell could not take the screenshot");
    sd_bus_error_free(&e);
    sd_bus_message_unref(reply);
    return rc;
}

/* A private directory (0700) for the shell's file, in $XDG_RUNTIME_DIR (or the temp dir).
 * Writes its path into dir (size bytes). */
static int make_private_dir(char *dir, size_t size, ad_error *err)
{
    const char *base = getenv("XDG_RUNTIME_DIR");
    if (!base || !*base)
        base = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    if ((size_t)snprintf(dir, size, "%s/agent-desktop-shot-XXXXXX", base) >= size ||
        !mkdtemp(dir)) {
        ad_error_set(err, AD_ACTION_FAILED, "Cannot create a private directory for the "
                                            "screenshot");
        ad_error_platform_detail(err, base);
        return -1;
    }
    return 0;
}

int ad_gnome_capture(const ad_window *w, const ad_rect *rect, ad_image *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (w || !rect) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                     "Window captures are not supported on Wayland: no client can prove "
                     "where a window is on screen");
        ad_error_detail(err, "reason", json_string("wayland_session"));
        ad_error_suggest(err, "Capture the display with --screen 0");
        return -1;
    }
    int64_t deadline = ad_deadline_after_ms(CAPTURE_BUDGET_MS);
    sd_bus *bus = NULL;
    if (ad_session_bus_open(deadline, &bus, err) < 0)
        return -1;
    char dir[4096], file[4200];
    int rc = own_caller_name(bus, deadline, err);
    if (rc == 0)
        rc = make_private_dir(dir, sizeof(dir), err);
    if (rc == 0) {
        snprintf(file, sizeof(file), "%s/shot.png", dir);
        rc = shoot_area(bus, rect, file, deadline, err);
        if (rc == 0)
            rc = read_png_rgb(file, ret, err);
        unlink(file); /* also after a failed call: the shell may have written part of it */
        rmdir(dir);
    }
    if (rc == 0) {
        ret->x = (int)floor(rect->x);
        ret->y = (int)floor(rect->y);
    }
    ad_bus_close(bus); /* the name goes with the connection */
    return rc;
}
