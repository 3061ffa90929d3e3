/* main_loop_sources.c: how many GSources the app's default main context holds, for the
 * state line. atk-bridge attaches one message-queue source per D-Bus connection it accepts
 * on its peer-to-peer socket and never removes it (at-spi2-core 2.46 atk-adaptor/bridge.c,
 * new_connection_cb), so this count is the app's own record of every connection a client
 * ever opened to it: tests/e2e/test_long_run.py reads it. */
#include "fixture.h"

static gboolean never_runs(gpointer data) {
  (void)data;
  return G_SOURCE_REMOVE;
}

guint fixture_main_loop_sources(void) {
  /* GLib gives source ids in increasing order and has no count: probe every id below a new
   * one. A destroyed source is not found. */
  guint newest = g_idle_add(never_runs, NULL);
  guint n = 0;
  for (guint id = 1; id < newest; id++) {
    if (g_main_context_find_source_by_id(NULL, id) != NULL) {
      n++;
    }
  }
  g_source_remove(newest);
  return n;
}
