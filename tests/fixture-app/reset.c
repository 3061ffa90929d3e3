/*
 * reset.c: the fixture's one reset entry point and its ordering canary.
 *
 * Reset: SIGUSR1 (handled in the main loop through g_unix_signal_add, so it runs between
 * events like any other callback) puts back every piece of UI state a test can change: no
 * open dialog, menu, context menu or popover; no pending or shown "Arrived" label; no rows;
 * feature off; fruit tree collapsed; empty name; the start password; colour Red; no pet
 * selected; "Remove me" present; the long list scrolled to the top. Counters (count, clicks,
 * marks, pings, ...) are event records, not UI state: they keep counting so a test compares
 * before and after. The state line then gains resets + 1, which is what the test waits for.
 *
 * Arrival: SIGUSR2 adds a pending "Arrived" label now (the e2e suite sets AD_FIXTURE_LATE_MS
 * so long that the label only comes when a test says so).
 *
 * Canary: the "Canary" button counts canaries, and changes nothing else in the state line
 * (not last_action, not events), so a test that must show an effect is absent
 * clicks it (through AT-SPI, after the refused action) and waits for the count: the app has
 * then handled everything that reached it before, so a late effect would already show.
 */
#include <glib-unix.h>
#include <signal.h>

#include "fixture.h"

static void destroy_child(GtkWidget *child, gpointer data) {
  (void)data;
  gtk_widget_destroy(child);
}

static void close_overlays(Fixture *fx) {
  if (fx->dialog != NULL) {
    GtkWidget *d = fx->dialog;
    fx->dialog = NULL; /* destroying emits no response, so nothing else clears it */
    gtk_widget_destroy(d);
  }
  gtk_menu_shell_cancel(GTK_MENU_SHELL(fx->menubar)); /* an open File menu */
  gtk_menu_popdown(GTK_MENU(fx->context_menu));
  gtk_popover_popdown(GTK_POPOVER(fx->popover));
}

static void reset_late_label(Fixture *fx) {
  if (fx->late_timer != 0) {
    g_source_remove(fx->late_timer);
    fx->late_timer = 0;
  }
  if (fx->late_label != NULL) {
    gtk_widget_destroy(fx->late_label); /* its destroy handler clears fx->late_label */
  }
}

static void reset_inputs(Fixture *fx) {
  gtk_container_foreach(GTK_CONTAINER(fx->rows_box), destroy_child, NULL);
  fx->next_row = 1;
  gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(fx->feature_check), FALSE);
  gtk_tree_view_collapse_all(GTK_TREE_VIEW(fx->fruit_tree));
  gtk_entry_set_text(GTK_ENTRY(fx->name_entry), "");
  gtk_entry_set_text(GTK_ENTRY(fx->password_entry), FIXTURE_PASSWORD);
  gtk_combo_box_set_active(GTK_COMBO_BOX(fx->color_combo), 0);
  gtk_list_box_unselect_all(GTK_LIST_BOX(fx->pet_list));
  GtkAdjustment *adj =
      gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(fx->long_list));
  gtk_adjustment_set_value(adj, gtk_adjustment_get_lower(adj));
  if (fx->remove_me == NULL) {
    restore_remove_me(fx);
  }
}

static gboolean on_reset_signal(gpointer data) {
  Fixture *fx = data;
  close_overlays(fx);
  reset_late_label(fx);
  reset_inputs(fx);
  fx->resets++;
  write_state(fx, "reset");
  return G_SOURCE_CONTINUE;
}

static gboolean on_arrive_signal(gpointer data) {
  Fixture *fx = data;
  if (fx->late_timer != 0) {
    g_source_remove(fx->late_timer);
    on_late_timer(fx); /* clears late_timer, adds the label, writes the state line */
  }
  return G_SOURCE_CONTINUE;
}

static void on_canary(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  fx->canaries++;
  write_state(fx, NULL); /* not an event: last_action and events stay as they were */
}

GtkWidget *build_canary(Fixture *fx) {
  GtkWidget *b = gtk_button_new_with_label("Canary");
  ad_name(b, "canary_button", "Canary");
  g_signal_connect(b, "clicked", G_CALLBACK(on_canary), fx);
  return b;
}

void install_reset(Fixture *fx) {
  g_unix_signal_add(SIGUSR1, on_reset_signal, fx);
  g_unix_signal_add(SIGUSR2, on_arrive_signal, fx);
}
