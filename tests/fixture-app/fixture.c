/*
 * ad-fixture: a small GTK3 app for agent-desktop's end-to-end tests.
 *
 * Every widget a test targets has a stable id (GtkBuildable name, also set as the ATK
 * accessible id, so AT-SPI shows it as AccessibleId) and an accessible name, and every
 * action has an observable effect: a label that changes, and, when AD_FIXTURE_STATE_FILE
 * is set, one JSON line with the whole state rewritten (atomically) to that file after
 * every change, so a test can check an action without trusting AT-SPI.
 *
 * Parts: counter button, check button with mirror label, name and password entries, a
 * colour combo, two indistinguishable "Twin" buttons, a described frame holding boxes
 * nested 10 deep around a "Deep" button, a rows region that grows and empties on demand,
 * an expandable tree, a 60-label scrolled list, a File menu, and a modal dialog.
 *
 * Appended at the end of the main box for the action tests: a read-only "Count value" entry
 * that shows the click count as digits (a ref whose identity stays while its value changes),
 * a "Remove me" button that destroys itself when clicked (a ref that goes stale), and a
 * "Show later" button that adds an "Arrived" label 1 second (AD_FIXTURE_LATE_MS) after a click (a late element
 * for the waits). A click on "Show later" while "Arrived" is shown removes the label at once
 * and adds it again 1 second later, so the sequence can be repeated in one app instance.
 * The state line also counts the name entry's "changed" signals (name_changes), so a test can
 * count keystrokes. overlays.c adds a context menu and a popover (context_marks, pings).
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

#define NEST_DEPTH 10


/* Gives a widget its stable id (buildable name and ATK accessible id) and, when name is
 * not NULL, a fixed accessible name. Labels whose text changes pass NULL: their accessible
 * name is their current text. */
void ad_name(GtkWidget *w, const char *id, const char *name) {
  AtkObject *acc = gtk_widget_get_accessible(w);
  gtk_buildable_set_name(GTK_BUILDABLE(w), id);
  atk_object_set_accessible_id(acc, id);
  if (name != NULL) {
    atk_object_set_name(acc, name);
  }
}

static void json_string(GString *out, const char *s) {
  if (s == NULL) {
    g_string_append(out, "null");
    return;
  }
  g_string_append_c(out, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
    if (*p == '"' || *p == '\\') {
      g_string_append_printf(out, "\\%c", *p);
    } else if (*p < 0x20) {
      g_string_append_printf(out, "\\u%04x", *p);
    } else {
      g_string_append_c(out, (char)*p);
    }
  }
  g_string_append_c(out, '"');
}

/* Rewrites the state file with one JSON line; g_file_set_contents renames a temp file into
 * place, so a reader never sees half a line. */
void write_state(Fixture *fx, const char *action) {
  if (action != NULL) {
    fx->last_action = action;
    fx->events++; /* one per handled event: the canary's check counts them */
  }
  if (fx->status_label != NULL) {
    char *status = g_strdup_printf("last action: %s", fx->last_action);
    gtk_label_set_text(GTK_LABEL(fx->status_label), status);
    g_free(status);
  }
  if (fx->state_file == NULL || fx->fruit_tree == NULL || fx->pet_list == NULL) {
    return;
  }
  GString *out = g_string_new("{");
  g_string_append_printf(out, "\"count\":%d,\"feature\":%s,\"name\":", fx->count,
                         gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(fx->feature_check))
                             ? "true" : "false");
  json_string(out, gtk_entry_get_text(GTK_ENTRY(fx->name_entry)));
  g_string_append_printf(out, ",\"password_length\":%u,\"color\":",
                         gtk_entry_get_text_length(GTK_ENTRY(fx->password_entry)));
  char *color = gtk_combo_box_text_get_active_text(GTK_COMBO_BOX_TEXT(fx->color_combo));
  json_string(out, color);
  g_free(color);
  g_string_append(out, ",\"rows\":[");
  GList *rows = gtk_container_get_children(GTK_CONTAINER(fx->rows_box));
  for (GList *l = rows; l != NULL; l = l->next) {
    json_string(out, gtk_button_get_label(GTK_BUTTON(l->data)));
    if (l->next != NULL) {
      g_string_append_c(out, ',');
    }
  }
  g_list_free(rows);
  g_string_append_printf(out,
                         "],\"twin_clicks\":[%d,%d],\"deep_clicks\":%d,\"fruits_expanded\":%s,"
                         "\"dialog_open\":%s,\"dialog_ok\":%d,\"about\":%d,\"last_action\":",
                         fx->twin_clicks[0], fx->twin_clicks[1], fx->deep_clicks,
                         fruits_expanded(fx) ? "true" : "false",
                         fx->dialog != NULL ? "true" : "false", fx->dialog_ok, fx->about);
  json_string(out, fx->last_action);
  g_string_append(out, ",\"count_value\":");
  json_string(out, fx->count_value != NULL ? gtk_entry_get_text(GTK_ENTRY(fx->count_value))
                                           : NULL);
  g_string_append_printf(out,
                         ",\"remove_me_present\":%s,\"show_later_clicks\":%d,"
                         "\"late_pending\":%s,\"late_label\":%s,\"late_arrivals\":%d,"
                         "\"name_changes\":%d,\"pet\":",
                         fx->remove_me != NULL ? "true" : "false", fx->show_later_clicks,
                         fx->late_timer != 0 ? "true" : "false",
                         fx->late_label != NULL ? "true" : "false", fx->late_arrivals,
                         fx->name_changes);
  GtkListBoxRow *pet = gtk_list_box_get_selected_row(GTK_LIST_BOX(fx->pet_list));
  json_string(out, pet != NULL ? gtk_label_get_text(GTK_LABEL(gtk_bin_get_child(GTK_BIN(pet))))
                               : NULL);
  g_string_append_printf(out, ",\"context_marks\":%d,\"pings\":%d,\"resets\":%d,"
                         "\"canaries\":%d,\"events\":%d,\"main_loop_sources\":%u",
                         fx->context_marks, fx->pings, fx->resets, fx->canaries, fx->events,
                         fixture_main_loop_sources());
  g_string_append(out, "}\n");
  GError *err = NULL;
  if (!g_file_set_contents(fx->state_file, out->str, (gssize)out->len, &err)) {
    g_printerr("ad-fixture: cannot write %s: %s\n", fx->state_file, err->message);
    g_error_free(err);
  }
  g_string_free(out, TRUE);
}

static void on_increment(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  fx->count++;
  char *text = g_strdup_printf("count: %d", fx->count);
  gtk_label_set_text(GTK_LABEL(fx->count_label), text);
  g_free(text);
  if (fx->count_value != NULL) {
    char digits[16];
    g_snprintf(digits, sizeof digits, "%d", fx->count);
    gtk_entry_set_text(GTK_ENTRY(fx->count_value), digits);
  }
  write_state(fx, "increment");
}

static void on_feature_toggled(GtkToggleButton *b, gpointer data) {
  Fixture *fx = data;
  gboolean on = gtk_toggle_button_get_active(b);
  gtk_label_set_text(GTK_LABEL(fx->feature_label), on ? "feature: on" : "feature: off");
  write_state(fx, on ? "feature on" : "feature off");
}

static void on_name_changed(GtkEditable *e, gpointer data) {
  (void)e;
  Fixture *fx = data;
  fx->name_changes++; /* one per "changed" signal: one per inserted keystroke */
  write_state(fx, "name changed");
}

static void on_password_changed(GtkEditable *e, gpointer data) {
  (void)e;
  write_state(data, "password changed");
}

static void on_color_changed(GtkComboBox *c, gpointer data) {
  (void)c;
  write_state(data, "color changed");
}

static void on_twin(GtkButton *b, gpointer data) {
  Fixture *fx = data;
  int which = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(b), "ad-twin-index"));
  fx->twin_clicks[which]++;
  write_state(fx, which == 0 ? "twin 1" : "twin 2");
}

static void on_deep(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  fx->deep_clicks++;
  write_state(fx, "deep");
}

static void on_row_clicked(GtkButton *b, gpointer data) {
  Fixture *fx = data;
  static char action[64];
  g_snprintf(action, sizeof action, "clicked %s", gtk_button_get_label(b));
  write_state(fx, action);
}

/* Appends a row button labelled `label` with accessible id `id` to the rows box. */
static void append_row(Fixture *fx, const char *label, const char *id) {
  GtkWidget *row = gtk_button_new_with_label(label);
  ad_name(row, id, label);
  g_signal_connect(row, "clicked", G_CALLBACK(on_row_clicked), fx);
  gtk_box_pack_start(GTK_BOX(fx->rows_box), row, FALSE, FALSE, 0);
  gtk_widget_show(row);
}

static void on_add_row(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  int n = fx->next_row++;
  char *label = g_strdup_printf("Row %d", n);
  char *id = g_strdup_printf("row_%d", n);
  append_row(fx, label, id);
  g_free(label);
  g_free(id);
  write_state(fx, "add row");
}

/* Appends a copy of the last row: the same label and the same accessible id, so a saved
 * ref to that row becomes ambiguous. */
static void on_duplicate_row(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  GList *rows = gtk_container_get_children(GTK_CONTAINER(fx->rows_box));
  GList *last = g_list_last(rows);
  if (last != NULL) {
    char *id = g_strdup_printf("row_%d", fx->next_row - 1);
    append_row(fx, gtk_button_get_label(GTK_BUTTON(last->data)), id);
    g_free(id);
  }
  g_list_free(rows);
  write_state(fx, "duplicate row");
}

static void on_never(GtkButton *b, gpointer data) {
  (void)b;
  write_state(data, "disabled button clicked");
}

static void remove_child(GtkWidget *child, gpointer data) {
  (void)data;
  gtk_widget_destroy(child);
}

static void on_remove_rows(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  gtk_container_foreach(GTK_CONTAINER(fx->rows_box), remove_child, NULL);
  fx->next_row = 1;
  write_state(fx, "remove rows");
}

static void on_dialog_response(GtkDialog *d, gint response, gpointer data) {
  Fixture *fx = data;
  if (response == GTK_RESPONSE_OK) {
    fx->dialog_ok++;
  }
  fx->dialog = NULL;
  gtk_widget_destroy(GTK_WIDGET(d));
  write_state(fx, response == GTK_RESPONSE_OK ? "dialog ok" : "dialog closed");
}

static void on_open_dialog(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  if (fx->dialog != NULL) {
    gtk_window_present(GTK_WINDOW(fx->dialog));
    return;
  }
  GtkWidget *d = gtk_dialog_new_with_buttons(
      "AD Dialog", GTK_WINDOW(fx->window), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
      "OK", GTK_RESPONSE_OK, NULL);
  ad_name(d, "ad_dialog", "AD Dialog");
  GtkWidget *text = gtk_label_new("This is the AD dialog.");
  ad_name(text, "dialog_label", NULL);
  gtk_container_set_border_width(GTK_CONTAINER(d), 12);
  gtk_box_pack_start(GTK_BOX(gtk_dialog_get_content_area(GTK_DIALOG(d))), text, TRUE, TRUE, 6);
  ad_name(gtk_dialog_get_widget_for_response(GTK_DIALOG(d), GTK_RESPONSE_OK),
          "dialog_ok_button", "OK");
  g_signal_connect(d, "response", G_CALLBACK(on_dialog_response), fx);
  fx->dialog = d;
  gtk_widget_show_all(d);
  write_state(fx, "dialog opened");
}

static void on_about(GtkMenuItem *m, gpointer data) {
  (void)m;
  Fixture *fx = data;
  fx->about++;
  write_state(fx, "about");
}

static void on_quit(GtkMenuItem *m, gpointer data) {
  (void)m;
  (void)data;
  gtk_main_quit();
}

static void on_remove_me_destroyed(GtkWidget *w, gpointer data) {
  (void)w;
  Fixture *fx = data;
  fx->remove_me = NULL;
}

static void on_remove_me(GtkButton *b, gpointer data) {
  Fixture *fx = data;
  gtk_widget_destroy(GTK_WIDGET(b)); /* on_remove_me_destroyed clears fx->remove_me */
  write_state(fx, "removed me");
}

static GtkWidget *button(const char *label, const char *id, GCallback cb, Fixture *fx);

static GtkWidget *make_remove_me(Fixture *fx) {
  GtkWidget *b = button("Remove me", "remove_me_button", G_CALLBACK(on_remove_me), fx);
  g_signal_connect(b, "destroy", G_CALLBACK(on_remove_me_destroyed), fx);
  return b;
}

void restore_remove_me(Fixture *fx) {
  fx->remove_me = make_remove_me(fx);
  gtk_box_pack_start(GTK_BOX(fx->late_row), fx->remove_me, FALSE, FALSE, 0);
  gtk_box_reorder_child(GTK_BOX(fx->late_row), fx->remove_me, 0);
  gtk_widget_show(fx->remove_me);
}

static void on_late_label_destroyed(GtkWidget *w, gpointer data) {
  (void)w;
  Fixture *fx = data;
  fx->late_label = NULL;
}

gboolean on_late_timer(gpointer data) {
  Fixture *fx = data;
  fx->late_timer = 0;
  GtkWidget *label = gtk_label_new("Arrived");
  ad_name(label, "late_label", NULL);
  g_signal_connect(label, "destroy", G_CALLBACK(on_late_label_destroyed), fx);
  gtk_box_pack_start(GTK_BOX(fx->late_box), label, FALSE, FALSE, 0);
  gtk_widget_show(label);
  fx->late_label = label;
  fx->late_arrivals++;
  write_state(fx, "arrived");
  return G_SOURCE_REMOVE;
}

/* Removes a shown "Arrived" label now and (re)starts the 1 s timer that adds it. */
static void on_show_later(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  fx->show_later_clicks++;
  if (fx->late_label != NULL) {
    gtk_widget_destroy(fx->late_label);
  }
  if (fx->late_timer != 0) {
    g_source_remove(fx->late_timer);
  }
  fx->late_timer = g_timeout_add(fx->late_ms, on_late_timer, fx);
  write_state(fx, "show later");
}

static GtkWidget *build_menubar(Fixture *fx) {
  GtkWidget *bar = gtk_menu_bar_new();
  ad_name(bar, "menubar", "Menu bar");
  GtkWidget *file = gtk_menu_item_new_with_label("File");
  ad_name(file, "file_menu", "File");
  GtkWidget *menu = gtk_menu_new();
  ad_name(menu, "file_menu_popup", "File");
  GtkWidget *quit = gtk_menu_item_new_with_label("Quit");
  ad_name(quit, "quit_item", "Quit");
  GtkWidget *about = gtk_menu_item_new_with_label("About");
  ad_name(about, "about_item", "About");
  g_signal_connect(quit, "activate", G_CALLBACK(on_quit), fx);
  g_signal_connect(about, "activate", G_CALLBACK(on_about), fx);
  gtk_menu_shell_append(GTK_MENU_SHELL(menu), quit);
  gtk_menu_shell_append(GTK_MENU_SHELL(menu), about);
  gtk_menu_item_set_submenu(GTK_MENU_ITEM(file), menu);
  gtk_menu_shell_append(GTK_MENU_SHELL(bar), file);
  return bar;
}

/* A horizontal row holding the given widgets; rows get ids so the tree above a target is
 * named too. */
static GtkWidget *hrow(const char *id, const char *name, GtkWidget *a, GtkWidget *b) {
  GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
  ad_name(row, id, name);
  gtk_box_pack_start(GTK_BOX(row), a, FALSE, FALSE, 0);
  if (b != NULL) {
    gtk_box_pack_start(GTK_BOX(row), b, FALSE, FALSE, 0);
  }
  return row;
}

static GtkWidget *build_nested_region(Fixture *fx) {
  GtkWidget *frame = gtk_frame_new("Nested region");
  ad_name(frame, "nested_frame", "Nested region");
  atk_object_set_description(gtk_widget_get_accessible(frame),
                             "Boxes nested ten deep around the Deep button");
  ad_name(gtk_frame_get_label_widget(GTK_FRAME(frame)), "nested_frame_label", "Nested region");
  GtkWidget *outer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_container_add(GTK_CONTAINER(frame), outer);
  GtkWidget *parent = outer;
  for (int i = 1; i < NEST_DEPTH; i++) { /* unnamed on purpose: no id, no name */
    GtkWidget *box = gtk_box_new(i % 2 ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, 0);
    gtk_box_pack_start(GTK_BOX(parent), box, FALSE, FALSE, 0);
    parent = box;
  }
  GtkWidget *deep = gtk_button_new_with_label("Deep");
  ad_name(deep, "deep_button", "Deep");
  g_signal_connect(deep, "clicked", G_CALLBACK(on_deep), fx);
  gtk_box_pack_start(GTK_BOX(parent), deep, FALSE, FALSE, 0);
  return frame;
}

static GtkWidget *button(const char *label, const char *id, GCallback cb, Fixture *fx) {
  GtkWidget *b = gtk_button_new_with_label(label);
  if (id != NULL) {
    ad_name(b, id, label);
  }
  g_signal_connect(b, "clicked", cb, fx);
  return b;
}

/* AD_FIXTURE_CONFIRM_CLOSE=1: a close request (WM_DELETE_WINDOW) opens a modal "Unsaved
 * changes" prompt and keeps the app open, as an editor with unsaved work does (close-app's
 * save prompt); its "Close without saving" button quits. */
static void on_confirm_response(GtkDialog *d, gint response, gpointer data) {
  (void)data;
  gtk_widget_destroy(GTK_WIDGET(d));
  if (response == GTK_RESPONSE_REJECT) {
    gtk_main_quit();
  }
}

static gboolean on_delete(GtkWidget *w, GdkEvent *e, gpointer data) {
  (void)e;
  (void)data;
  GtkWidget *d = gtk_dialog_new_with_buttons(
      "Unsaved changes", GTK_WINDOW(w), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
      "Cancel", GTK_RESPONSE_CANCEL, "Close without saving", GTK_RESPONSE_REJECT, NULL);
  ad_name(d, "confirm_close_dialog", "Unsaved changes");
  g_signal_connect(d, "response", G_CALLBACK(on_confirm_response), NULL);
  gtk_widget_show_all(d);
  return TRUE; /* stay open */
}

static void build_window(Fixture *fx) {
  fx->window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  gtk_window_set_title(GTK_WINDOW(fx->window), "AD Fixture");
  ad_name(fx->window, "main_window", "AD Fixture");
  g_signal_connect(fx->window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
  if (g_strcmp0(g_getenv("AD_FIXTURE_CONFIRM_CLOSE"), "1") == 0) {
    g_signal_connect(fx->window, "delete-event", G_CALLBACK(on_delete), NULL);
  }

  GtkWidget *vbox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  ad_name(vbox, "main_box", "Main");
  gtk_container_add(GTK_CONTAINER(fx->window), vbox);
  fx->menubar = build_menubar(fx);
  gtk_box_pack_start(GTK_BOX(vbox), fx->menubar, FALSE, FALSE, 0);

  GtkWidget *content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
  ad_name(content, "content_box", "Content");
  gtk_container_set_border_width(GTK_CONTAINER(content), 8);
  gtk_box_pack_start(GTK_BOX(vbox), content, TRUE, TRUE, 0);
  GtkBox *c = GTK_BOX(content);

  /* (a) counter */
  fx->count_label = gtk_label_new("count: 0");
  ad_name(fx->count_label, "count_label", NULL);
  gtk_box_pack_start(c, hrow("counter_row", "Counter",
                             button("Increment", "inc_button", G_CALLBACK(on_increment), fx),
                             fx->count_label), FALSE, FALSE, 0);
  /* (b) feature toggle */
  fx->feature_check = gtk_check_button_new_with_label("Enable feature");
  ad_name(fx->feature_check, "feature_check", "Enable feature");
  g_signal_connect(fx->feature_check, "toggled", G_CALLBACK(on_feature_toggled), fx);
  fx->feature_label = gtk_label_new("feature: off");
  ad_name(fx->feature_label, "feature_label", NULL);
  gtk_box_pack_start(c, hrow("feature_row", "Feature", fx->feature_check, fx->feature_label),
                     FALSE, FALSE, 0);
  /* (c) entries */
  fx->name_entry = gtk_entry_new();
  ad_name(fx->name_entry, "name_entry", "Name");
  g_signal_connect(fx->name_entry, "changed", G_CALLBACK(on_name_changed), fx);
  fx->password_entry = gtk_entry_new();
  gtk_entry_set_visibility(GTK_ENTRY(fx->password_entry), FALSE);
  gtk_entry_set_text(GTK_ENTRY(fx->password_entry), FIXTURE_PASSWORD);
  ad_name(fx->password_entry, "password_entry", "Password");
  g_signal_connect(fx->password_entry, "changed", G_CALLBACK(on_password_changed), fx);
  gtk_box_pack_start(c, hrow("entry_row", "Credentials", fx->name_entry, fx->password_entry),
                     FALSE, FALSE, 0);
  /* (d) combo */
  fx->color_combo = gtk_combo_box_text_new();
  gtk_combo_box_text_append(GTK_COMBO_BOX_TEXT(fx->color_combo), "red", "Red");
  gtk_combo_box_text_append(GTK_COMBO_BOX_TEXT(fx->color_combo), "green", "Green");
  gtk_combo_box_text_append(GTK_COMBO_BOX_TEXT(fx->color_combo), "blue", "Blue");
  gtk_combo_box_set_active(GTK_COMBO_BOX(fx->color_combo), 0);
  ad_name(fx->color_combo, "color_combo", "Color");
  g_signal_connect(fx->color_combo, "changed", G_CALLBACK(on_color_changed), fx);
  gtk_box_pack_start(c, fx->color_combo, FALSE, FALSE, 0);
  gtk_box_pack_start(c, build_pet_list(fx), FALSE, FALSE, 0);
  /* (e) twins: same role, name, no id, no description */
  GtkWidget *twins[2];
  for (int i = 0; i < 2; i++) {
    twins[i] = button("Twin", NULL, G_CALLBACK(on_twin), fx);
    g_object_set_data(G_OBJECT(twins[i]), "ad-twin-index", GINT_TO_POINTER(i));
  }
  gtk_box_pack_start(c, hrow("twin_row", "Twins", twins[0], twins[1]), FALSE, FALSE, 0);
  /* (f) nested region */
  gtk_box_pack_start(c, build_nested_region(fx), FALSE, FALSE, 0);
  /* (g) rows that change on demand */
  fx->rows_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
  ad_name(fx->rows_box, "rows_box", "Rows");
  gtk_box_pack_start(c, hrow("rows_controls", "Row controls",
                             button("Add row", "add_row_button", G_CALLBACK(on_add_row), fx),
                             button("Remove rows", "remove_rows_button",
                                    G_CALLBACK(on_remove_rows), fx)), FALSE, FALSE, 0);
  GtkWidget *disabled = button("Disabled", "disabled_button", G_CALLBACK(on_never), fx);
  gtk_widget_set_sensitive(disabled, FALSE);
  gtk_box_pack_start(c, hrow("row_tools", "Row tools",
                             button("Duplicate last row", "duplicate_row_button",
                                    G_CALLBACK(on_duplicate_row), fx),
                             disabled), FALSE, FALSE, 0);
  gtk_box_pack_start(c, fx->rows_box, FALSE, FALSE, 0);
  /* (h) tree, (i) long list */
  gtk_box_pack_start(c, build_tree(fx), FALSE, FALSE, 0);
  fx->long_list = build_long_list();
  gtk_box_pack_start(c, fx->long_list, FALSE, FALSE, 0);
  /* (j) dialog opener and a status line */
  fx->status_label = gtk_label_new("last action: start");
  ad_name(fx->status_label, "status_label", NULL);
  gtk_box_pack_start(c, hrow("dialog_row", "Dialog",
                             button("Open dialog", "open_dialog_button",
                                    G_CALLBACK(on_open_dialog), fx),
                             fx->status_label), FALSE, FALSE, 0);

  /* Appended for the action tests, at the end of the main box. */
  GtkWidget *extra = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
  ad_name(extra, "action_box", "Action targets");
  gtk_container_set_border_width(GTK_CONTAINER(extra), 8);
  gtk_box_pack_start(GTK_BOX(vbox), extra, FALSE, FALSE, 0);
  /* (k) the click count as digits, in a read-only entry */
  fx->count_value = gtk_entry_new();
  gtk_entry_set_text(GTK_ENTRY(fx->count_value), "0");
  gtk_editable_set_editable(GTK_EDITABLE(fx->count_value), FALSE);
  ad_name(fx->count_value, "count_value", "Count value");
  gtk_box_pack_start(GTK_BOX(extra), fx->count_value, FALSE, FALSE, 0);
  /* (l) a button that destroys itself, (m) a label that arrives late */
  fx->remove_me = make_remove_me(fx);
  fx->late_box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
  ad_name(fx->late_box, "late_box", "Late arrivals");
  gtk_box_pack_start(GTK_BOX(fx->late_box),
                     button("Show later", "show_later_button", G_CALLBACK(on_show_later), fx),
                     FALSE, FALSE, 0);
  fx->late_row = hrow("late_row", "Late row", fx->remove_me, fx->late_box);
  gtk_box_pack_start(GTK_BOX(extra), fx->late_row, FALSE, FALSE, 0);
  /* (n) a context menu and a popover, outside the window's own child tree on AT-SPI */
  gtk_box_pack_start(GTK_BOX(extra), build_overlays(fx), FALSE, FALSE, 0);
  /* (o) the ordering canary (reset.c) */
  gtk_box_pack_start(GTK_BOX(extra), build_canary(fx), FALSE, FALSE, 0);
}

int main(int argc, char **argv) {
  /* AD_FIXTURE_NAME: another application name, so a test can start an instance that no
   * other test's "ad-fixture" makes ambiguous (test_launch.py). */
  const char *name = g_getenv("AD_FIXTURE_NAME");
  name = name != NULL && name[0] != '\0' ? name : "ad-fixture";
  g_set_prgname(name);
  g_set_application_name(name);
  gtk_init(&argc, &argv);
  /* A steady caret: a picture of the window taken by one tool equals one taken by another a
   * moment later (test_screenshot.py), whatever field an earlier test left focused. */
  g_object_set(gtk_settings_get_default(), "gtk-cursor-blink", FALSE, NULL);
  static Fixture fx;
  fx.next_row = 1;
  fx.last_action = "start";
  /* The e2e suite sets a delay longer than any test and sends SIGUSR2 (reset.c) when the
   * label shall arrive, so a loaded machine cannot make it early or late. */
  const char *late_ms = g_getenv("AD_FIXTURE_LATE_MS");
  fx.late_ms = late_ms != NULL && atoi(late_ms) > 0 ? (guint)atoi(late_ms) : 1000;
  fx.state_file = g_getenv("AD_FIXTURE_STATE_FILE");
  if (fx.state_file != NULL && fx.state_file[0] == '\0') {
    fx.state_file = NULL;
  }
  build_window(&fx);
  install_reset(&fx);
  gtk_window_set_default_size(GTK_WINDOW(fx.window), 520, -1);
  gtk_widget_show_all(fx.window);
  /* AD_FIXTURE_TWIN=1: a second top-level window with the same title (and no other
   * difference AT-SPI shows but its place and content), for the tests that must tell two
   * same-titled windows of one process apart (test_headed_windows.py). */
  if (g_strcmp0(g_getenv("AD_FIXTURE_TWIN"), "1") == 0) {
    GtkWidget *twin = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title(GTK_WINDOW(twin), "AD Fixture");
    ad_name(twin, "twin_window", "AD Fixture");
    GtkWidget *label = gtk_label_new("twin");
    ad_name(label, "twin_label", "Twin");
    gtk_container_add(GTK_CONTAINER(twin), label);
    gtk_window_set_default_size(GTK_WINDOW(twin), 300, 200);
    gtk_window_move(GTK_WINDOW(twin), 700, 500);
    gtk_widget_show_all(twin);
  }
  write_state(&fx, NULL);
  gtk_main();
  return 0;
}
