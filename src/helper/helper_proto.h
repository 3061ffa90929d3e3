/* helper_proto.h: the wire protocol between agent-desktop and its per-user helper.
 *
 * Why a helper: some effects must outlive the command that made them. An X11 selection
 * lives only as long as the window that owns it, so the clipboard needs a process that stays
 * after `clipboard-set` exits, and the cursor overlay's windows must stay between commands
 * (later the Wayland input session too). One executable serves all of them as named
 * services ("clipboard", clip_owner.h; "overlay", overlay_x11.h; "wlinput", wl_session.h;
 * "notify", notify_monitor.h, which must watch the bus between commands); one instance runs
 * per user, started on demand. It carries the name the spec installs beside `agent-desktop`
 * on Linux, `agent-desktop-linux-clipboard-owner` (installation.md), because the clipboard
 * is its first service; the cursor overlay joined it, the Wayland input session comes later.
 *
 * Where: the socket is $XDG_RUNTIME_DIR/agent-desktop/helper.sock (without XDG_RUNTIME_DIR,
 * /tmp/agent-desktop-<uid>/helper.sock) in a 0700 directory of this user, mode
 * 0600, with helper.lock beside it (held with flock by the running helper, so two starts
 * never race to bind) and helper.pid (the running helper's pid, for tests and diagnostics).
 * Both sides check the peer's uid with SO_PEERCRED and refuse any other user.
 *
 * Frames, both directions: a 4-byte big-endian length, that many bytes of a JSON object (at
 * most AD_HELPER_MAX_HEADER), then `bytes` (a header field, 0 when absent) raw payload bytes
 * (at most AD_HELPER_MAX_PAYLOAD). A request is {"v":1,"service":NAME,"op":NAME,...}; the
 * reply is {"v":1,"ok":true,...} or {"v":1,"ok":false,"code":CODE,"message":TEXT}, where
 * CODE is an error code name of the envelope (ACTION_FAILED, INVALID_ARGS, ...). One request
 * per connection.
 *
 * Cost: a connect and one round trip (plus a fork/exec the first time, about 5 ms).
 * Limits: one helper per user serves the X display it was started for; a request for another
 * display is refused (ACTION_FAILED) while it runs. Requests are served one at a time, each
 * bounded by AD_HELPER_IO_MS, so a stalled client delays the others by at most that.
 *
 * This file is shared by the helper and the client and links nothing but jansson.
 */
#ifndef AD_HELPER_PROTO_H
#define AD_HELPER_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define AD_HELPER_VERSION 1
#define AD_HELPER_NAME "agent-desktop-linux-clipboard-owner"
#define AD_HELPER_MAX_HEADER (64 * 1024)
/* A 64 MiB PNG, or a file list, plus room for a second representation. */
#define AD_HELPER_MAX_PAYLOAD (130u * 1024 * 1024)
/* The longest one request's reading or writing may take. */
#define AD_HELPER_IO_MS 5000

/* CLOCK_MONOTONIC in microseconds. */
int64_t ad_helper_now_us(void);

/* The helper's directory into buf: "$XDG_RUNTIME_DIR/agent-desktop", or
 * "/tmp/agent-desktop-<uid>" when XDG_RUNTIME_DIR is unset (the interaction lease's
 * directory, core/lease.h). -1 when XDG_RUNTIME_DIR is relative or the path too long. */
int ad_helper_dir(char *buf, size_t size);

/* buf = dir + "/" + name; -1 when it does not fit. */
int ad_helper_path(char *buf, size_t size, const char *dir, const char *name);

/* Writes one frame: header (borrowed; its "bytes" is set to len) then payload[0..len).
 * Blocks until written or deadline_us. 0, or -1 (errno set; ETIMEDOUT at the deadline). */
int ad_helper_frame_write(int fd, json_t *header, const void *payload, size_t len,
                          int64_t deadline_us);

/* The helper's reply to a request: sets reply's "v" and "pid" (reply is borrowed), writes it
 * to fd until deadline_us and closes fd. Used for every reply, at once or deferred (a
 * service that answers later, overlay_x11.h's glide, owns the fd until it replies). */
void ad_helper_reply(int fd, json_t *reply, int64_t deadline_us);

/* Reads one frame until deadline_us. 0 with *ret_header (a new reference) and *ret_payload
 * (malloc'd, NULL when empty; the caller frees) and *ret_len; -1 with errno on failure
 * (EPROTO for a malformed frame, ECONNRESET for a peer that closed first). Nothing is
 * written through ret_* on failure. */
int ad_helper_frame_read(int fd, int64_t deadline_us, json_t **ret_header,
                         unsigned char **ret_payload, size_t *ret_len);

/* The uid of the peer of a connected unix socket, or -1. */
long ad_helper_peer_uid(int fd);

#endif
