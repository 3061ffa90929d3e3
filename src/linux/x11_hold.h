/* x11_hold.h: a termination signal waits until every XTEST key and button is up again.
 *
 * Input faked through XTEST outlives its client: a process ended between a press and its
 * release leaves the key or button down on the X server (a stuck modifier, a drag that never
 * drops). The MCP server ends a cancelled call with SIGTERM, and a user may press Ctrl+C. So
 * while anything this process pressed is still down, SIGTERM, SIGINT and SIGHUP are blocked;
 * a gesture's pause returns at once when one of them arrives, so the gesture runs on to its
 * releases without waiting; and when the last key or button is up, the releases are flushed
 * and synced to the server and the signal ends the process as it would have.
 */
#ifndef AD_X11_HOLD_H
#define AD_X11_HOLD_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

/* Records one queued XTEST event (type as for xcb_test_fake_input; detail the keycode or
 * button). The first press blocks the termination signals; the release of the last held
 * key or button delivers one that came meanwhile, after flushing c (may be NULL). */
void ad_x11_hold_note(xcb_connection_t *c, uint8_t type, uint8_t detail);

/* True while a key or button this process pressed is down. */
bool ad_x11_hold_active(void);

/* Sleeps ms, or less: while something is held, returns as soon as a termination signal is
 * waiting (then at once for every later pause), so the gesture reaches its release. */
void ad_x11_hold_pause_ms(int ms);

#endif
