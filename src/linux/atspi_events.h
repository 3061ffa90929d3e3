/* atspi_events.h: wake a polling wait early when an application signals a change.
 *
 * `wait` re-reads the app about every 100 ms (commands/wait.md); a watch lets it sleep on the
 * accessibility bus instead and re-read as soon as the app emits an AT-SPI event that can
 * change what the wait observes. A watch only ever shortens a sleep: the caller keeps its
 * poll interval as the upper bound, so a toolkit that emits nothing costs nothing but the
 * subscription.
 *
 * What the toolkits do (at-spi2-core 2.46 / GTK 3.24 / GTK 4.8, measured; see the .c):
 * - GTK3 (atk-bridge) emits no events at all while no client has called RegisterEvent, and
 *   once one has, emits the always-on ones (children-changed, state-changed, name and
 *   description changes) plus exactly the registered ones (text-changed, value changes,
 *   window:*). Without the registration a watch on a GTK3 app would never fire.
 * - GTK4 4.8 ignores the registry and emits everything it has, registered or not; its window
 *   activate/deactivate signals are spelled in lower case, and the watch matches both.
 *
 * Ownership and threading: a watch holds a reference on its bus and must be used from the
 * thread that uses the bus. One watch per connection at a time: the registry deregisters by
 * (connection, event name), so closing one watch would silence another on the same bus.
 * ad_atspi_watch_wait dispatches every message pending on the connection, so callbacks of
 * other slots (an ad_pipe's replies) may run inside it; conversely, matching events that
 * other code dispatches (say during a tree read) count as well, which at worst makes the
 * next wait return at once: one extra re-read, never a missed change.
 */
#ifndef AD_ATSPI_EVENTS_H
#define AD_ATSPI_EVENTS_H

#include <stdint.h>
#include <systemd/sd-bus.h>

#include "core/error.h"
#include "platform/adapter.h"

typedef struct ad_atspi_watch ad_atspi_watch;

/* Subscribes on `bus` (an open accessibility-bus connection, ad_atspi_bus_open) to the events
 * that can change what a wait observes: object:state-changed, object:children-changed,
 * object:property-change (accessible-name, -description, -value, ...), object:text-changed,
 * object:active-descendant-changed and window:create/destroy/activate/deactivate/minimize/
 * restore. With app_bus non-NULL (a bus name such as ":1.42") only that sender's signals
 * count. Registers each event with the registry (so atk-bridge emits it) and adds one match
 * rule per signal, then waits, bounded (2 s, and deadline_us), until the registry and the
 * bus daemon have answered, so a change made after this returns is delivered. All calls are
 * in flight together: about 1.3-2 ms in all.
 * Returns 0 and a watch in *ret (the caller's; free with ad_atspi_watch_close), or -1 with
 * err filled: PLATFORM_NOT_SUPPORTED when it cannot subscribe (the caller then just polls),
 * INVALID_ARGS for a malformed app_bus. *ret is not written on failure. */
int ad_atspi_watch_open(sd_bus *bus, const char *app_bus, int64_t deadline_us,
                        ad_atspi_watch **ret, ad_error *err);

/* Waits until at least one matching event arrived since the previous call (since open, for
 * the first), or until deadline_us (CLOCK_MONOTONIC microseconds). Coalesces bursts: after
 * the first event it drains the connection and returns once it has been quiet for 1 ms (at
 * most 10 ms after that event or 1024 messages, never past the deadline); one change in a
 * GTK3 label is three signals up to 0.55 ms apart. Returns 1 when woken by an event, 0 on
 * the deadline, -1 when the connection failed (the caller then polls without the watch). */
int ad_atspi_watch_wait(ad_atspi_watch *w, int64_t deadline_us);

/* Matching events dispatched so far, including those a wait coalesced (for measurements). */
unsigned long ad_atspi_watch_count(const ad_atspi_watch *w);

/* The events recorded since the previous take (since open, for the first), after
 * dispatching what is already queued (at most 1024 messages): kind, detail and source of
 * each, at most 256 (the rest counted in ret->dropped). *ret is the caller's
 * (ad_change_events_clear) and is filled even on -1 (the connection failed). */
int ad_atspi_watch_take(ad_atspi_watch *w, ad_change_events *ret);

/* Removes the match rules, deregisters the events (DeregisterEvent, no reply awaited),
 * flushes the connection and frees. NULL-safe. GTK3 apps keep emitting their always-on
 * events until the connection itself closes: atk-bridge forgets a client only then. */
void ad_atspi_watch_close(ad_atspi_watch *w);

#endif
