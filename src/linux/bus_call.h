/* bus_call.h: every synchronous D-Bus exchange of the adapter, bounded by a deadline.
 *
 * sd-bus's blocking calls wait 25 s by default, its sd_bus_start returns before the peer
 * has authenticated, and sd_bus_flush_close_unref waits for a stalled peer forever. A
 * command must end within its own budget even when a bus daemon, the registry or the bus
 * launcher is stopped (SIGSTOP), so every call, connect and teardown here takes the
 * caller's deadline (CLOCK_MONOTONIC microseconds) and reports a silent peer as -ETIMEDOUT.
 */
#ifndef AD_BUS_CALL_H
#define AD_BUS_CALL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/* The sd-bus timeout (usec) for a call that must end by deadline_us: never 0, which sd-bus
 * reads as its 25 s default; 1 us when the deadline has passed (the call fails at once). */
uint64_t ad_bus_timeout_us(int64_t deadline_us);

/* sd_bus_call_method with the deadline as its timeout. *ret_reply is the caller's. */
int ad_bus_call_method(sd_bus *bus, int64_t deadline_us, const char *dest, const char *path,
                       const char *iface, const char *member, sd_bus_error *ret_error,
                       sd_bus_message **ret_reply, const char *types, ...);

/* The same with the arguments in a va_list. */
int ad_bus_call_methodv(sd_bus *bus, int64_t deadline_us, const char *dest, const char *path,
                        const char *iface, const char *member, sd_bus_error *ret_error,
                        sd_bus_message **ret_reply, const char *types, va_list ap);

/* Processes the connection until done(userdata) is positive (returns 0) or negative (returns
 * that), or until the deadline (-ETIMEDOUT); a failed connection returns its error. */
int ad_bus_run_until(sd_bus *bus, int (*done)(void *userdata), void *userdata,
                     int64_t deadline_us);

/* Properties.Get of an int32 property ("i"), bounded by the deadline. */
int ad_bus_get_int_property(sd_bus *bus, int64_t deadline_us, const char *dest,
                            const char *path, const char *iface, const char *prop,
                            sd_bus_error *ret_error, int32_t *ret);

/* Did a failed call get no answer, so that it may have been delivered (a timeout, the peer
 * or the daemon went away, the connection broke) rather than refused by an error reply? */
bool ad_bus_no_answer(int r, const sd_bus_error *e);

/* Opens a connection to `address` (NULL: the user's session bus) and waits, until the
 * deadline, until it is ready: authenticated and, for a bus client, Hello answered.
 * -ETIMEDOUT when the peer stayed silent (a stopped daemon accepts the connect and never
 * authenticates). *ret_bus is the caller's (close it with ad_bus_close). */
int ad_bus_open(const char *address, bool bus_client, int64_t deadline_us, sd_bus **ret_bus);

/* Closes without flushing: nothing the adapter queues needs delivering after the command
 * (reads, RemoveMatch/DeregisterEvent, which the daemon and the registry apply on
 * disconnect anyway), and a flush waits forever for a stalled peer. An action call that
 * timed out with its message still queued was already reported delivery_uncertain. NULL is
 * fine; returns NULL. */
sd_bus *ad_bus_close(sd_bus *bus);

#endif
