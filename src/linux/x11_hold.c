/* x11_hold.c: termination signals wait for held XTEST input to be released (x11_hold.h). */
#include "linux/x11_hold.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Process-wide: every connection of this process fakes input on the same X server. */
static uint8_t held_keys[32];   /* keycodes 0..255 */
static uint32_t held_buttons;   /* buttons 1..31 */
static int held_count;
static sigset_t saved_mask;     /* the mask before the first press */
static int taken_signal;        /* a termination signal a pause took (sigtimedwait) */

static void termination_set(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
}

bool ad_x11_hold_active(void)
{
    return held_count > 0;
}

/* True when the bit for detail changed; updates it. */
static bool flip(bool is_key, uint8_t detail, bool down)
{
    uint32_t *word = NULL;
    uint32_t bit;
    if (is_key) {
        uint8_t *byte = &held_keys[detail / 8];
        uint8_t b = (uint8_t)(1u << (detail % 8));
        if (((*byte & b) != 0) == down)
            return false;
        *byte = down ? (uint8_t)(*byte | b) : (uint8_t)(*byte & ~b);
        return true;
    }
    if (detail >= 32)
        return false;
    word = &held_buttons;
    bit = 1u << detail;
    if (((*word & bit) != 0) == down)
        return false;
    *word = down ? (*word | bit) : (*word & ~bit);
    return true;
}

/* Makes sure the X server has the releases before the process may end. */
static void sync_server(xcb_connection_t *c)
{
    if (!c)
        return;
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
}

void ad_x11_hold_note(xcb_connection_t *c, uint8_t type, uint8_t detail)
{
    bool press = type == XCB_KEY_PRESS || type == XCB_BUTTON_PRESS;
    bool release = type == XCB_KEY_RELEASE || type == XCB_BUTTON_RELEASE;
    bool is_key = type == XCB_KEY_PRESS || type == XCB_KEY_RELEASE;
    if ((!press && !release) || !flip(is_key, detail, press))
        return;
    if (press && ++held_count == 1) {
        sigset_t term;
        termination_set(&term);
        sigprocmask(SIG_BLOCK, &term, &saved_mask);
        return;
    }
    if (release && --held_count == 0) {
        sigset_t pending, term;
        termination_set(&term);
        sigpending(&pending);
        bool waiting = taken_signal != 0 || sigismember(&pending, SIGTERM) == 1 ||
                       sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGHUP) == 1;
        if (waiting)
            sync_server(c);
        int sig = taken_signal;
        taken_signal = 0;
        sigprocmask(SIG_SETMASK, &saved_mask, NULL); /* a pending one is delivered here */
        if (sig)
            raise(sig);
    }
}

void ad_x11_hold_pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    if (held_count == 0) {
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
        return;
    }
    if (taken_signal)
        return;
    sigset_t term;
    termination_set(&term);
    struct timespec now, end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += ts.tv_sec;
    end.tv_nsec += ts.tv_nsec;
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    for (;;) {
        int sig = sigtimedwait(&term, NULL, &ts);
        if (sig > 0) {
            taken_signal = sig;
            return;
        }
        if (errno != EINTR)
            return; /* EAGAIN: the time is up */
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long left = (long long)(end.tv_sec - now.tv_sec) * 1000000000LL +
                         (end.tv_nsec - now.tv_nsec);
        if (left <= 0)
            return;
        ts.tv_sec = (time_t)(left / 1000000000LL);
        ts.tv_nsec = (long)(left % 1000000000LL);
    }
}
