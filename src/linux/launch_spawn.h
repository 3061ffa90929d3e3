/* launch_spawn.h: launch's APP resolved to a verified executable, and started detached. */
#ifndef AD_LAUNCH_SPAWN_H
#define AD_LAUNCH_SPAWN_H

#include <stdbool.h>

#include "linux/desktop_entry.h"
#include "platform/adapter.h"

/* The accepted forms, in order (platforms/linux.md, "App naming"): an absolute path to an
 * executable file, a desktop id ("org.gnome.Calculator"), a desktop entry Name= compared
 * case-insensitively ("Calculator"), both only when the entry's Exec= program is a verified
 * executable, then a bare command found on $PATH. APP_NOT_FOUND otherwise. ret is the
 * caller's (ad_launch_target_clear). desktop_entries is the adapter's table (borrowed). */
int ad_launch_resolve(const char *app, ad_desktop_entries *desktop_entries,
                      ad_launch_target *ret, ad_error *err);

/* Starts t->program (argv[0] its base name, then req->args) with our environment plus
 * req->env (a KEY given there replaces ours) in req->cwd, in a session of its own (setsid),
 * with stdin, stdout and stderr on /dev/null and no other descriptor of ours, so it outlives
 * us and holds none of our pipes. Returns once the exec succeeded. INVALID_ARGS for a cwd
 * that is not a directory, ACTION_FAILED when the exec fails. */
int ad_launch_spawn(const ad_launch_target *t, const ad_launch_req *req, int *ret_pid,
                    ad_error *err);

/* True when pid's executable sits in a Chromium or Electron build (resources.pak and
 * v8_context_snapshot.bin beside it): what Debian's /usr/lib/chromium and every Electron
 * release (electron-vNN-linux-x64.zip) ship next to the binary, whatever the app renamed it
 * to. tests/e2e/test_launch.py says what its test does and does not prove. */
bool ad_launch_is_chromium(int pid);

#endif
