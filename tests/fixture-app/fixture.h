/* fixture.h: the state ad-fixture shares between fixture.c (the main window, the state file)
 * overlays.c (a context menu and a popover) and lists.c (tree, long list, list box). */
#ifndef AD_FIXTURE_H
#define AD_FIXTURE_H

#include <gtk/gtk.h>

typedef struct {
  GtkWidget *window;
  GtkWidget *count_label;
  GtkWidget *feature_check;
  GtkWidget *feature_label;
  GtkWidget *name_entry;
  GtkWidget *password_entry;
  GtkWidget *color_combo;
  GtkWidget *pet_list; /* a GtkListBox: select by display text in a list */
  GtkWidget *rows_box;
  GtkWidget *fruit_tree;
  GtkWidget *status_label;
  GtkWidget *dialog;
  GtkWidget *count_value;
  GtkWidget *remove_me;
  GtkWidget *late_box;
  GtkWidget *late_label;
  guint late_timer;
  guint late_ms; /* the Show later delay */
  int show_later_clicks;
  int late_arrivals;
  int name_changes;
  int count;
  int twin_clicks[2];
  int deep_clicks;
  int next_row;
  int dialog_ok;
  int about;
  const char *last_action;
  const char *state_file;
  /* overlays.c */
  GtkWidget *context_menu;
  GtkWidget *context_label;
  GtkWidget *ping_label;
  GtkWidget *popover;
  int context_marks;
  int pings;
  /* reset.c */
  GtkWidget *menubar;
  GtkWidget *long_list;
  GtkWidget *late_row;
  int resets;
  int canaries;
  int events; /* write_state calls that recorded an action */
} Fixture;

/* The password entry's start text (the e2e tests know it too). */
#define FIXTURE_PASSWORD "hunter2-secret"

/* The GSources attached to the default main context now (main_loop_sources.c). */
guint fixture_main_loop_sources(void);
/* Gives a widget its stable id (buildable name and ATK accessible id) and, when name is
 * not NULL, a fixed accessible name. */
void ad_name(GtkWidget *w, const char *id, const char *name);
/* Records `action` (NULL keeps the last one) and rewrites the state line. */
void write_state(Fixture *fx, const char *action);
/* The row holding the context-menu target and the popover's menu button. */
GtkWidget *build_overlays(Fixture *fx);
/* lists.c: the fruit tree, the long list (60 labels) and the pet list box. */
gboolean fruits_expanded(Fixture *fx);
GtkWidget *build_tree(Fixture *fx);
GtkWidget *build_long_list(void);
GtkWidget *build_pet_list(Fixture *fx);
/* fixture.c: puts a new "Remove me" button back at the start of its row. */
void restore_remove_me(Fixture *fx);
/* fixture.c: the late label's timer callback: adds "Arrived" now. */
gboolean on_late_timer(gpointer data);
/* reset.c: SIGUSR1 resets the UI state (see reset.c); the "Canary" button counts canaries. */
void install_reset(Fixture *fx);
GtkWidget *build_canary(Fixture *fx);

#endif
