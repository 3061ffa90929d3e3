/*
 * ad-bench-synthetic: a GTK3 app with a large accessible tree, for snapshot benchmarks.
 *
 *   ad-bench-synthetic [NODES]     (default 10000)
 *
 * Builds a scrolled grid of about sqrt(NODES) named rows ("Group g"), each holding about
 * NODES / rows children that alternate between labels and buttons with distinct names, so
 * the window exposes roughly NODES accessible nodes. Window title "AD Synthetic", prgname
 * ad-bench-synthetic. A click on a button sets the title to "Clicked <its label>", so a test
 * can see which button a ref reached.
 */
#include <gtk/gtk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_NODES 1000000

static void set_name(GtkWidget *w, const char *name) {
  atk_object_set_name(gtk_widget_get_accessible(w), name);
}

static void on_clicked(GtkButton *button, gpointer window) {
  char title[96];
  snprintf(title, sizeof title, "Clicked %s", gtk_button_get_label(button));
  gtk_window_set_title(GTK_WINDOW(window), title);
}

int main(int argc, char **argv) {
  g_set_prgname("ad-bench-synthetic");
  g_set_application_name("ad-bench-synthetic");
  gtk_init(&argc, &argv);

  long nodes = 10000;
  if (argc > 1) {
    char *end = NULL;
    nodes = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || nodes < 1 || nodes > MAX_NODES) {
      fprintf(stderr, "usage: ad-bench-synthetic [NODES 1..%d]\n", MAX_NODES);
      return 2;
    }
  }
  /* Fixed nodes: frame, outer box, scrolled window, viewport, grid box; one per row. */
  long rest = nodes > 5 ? nodes - 5 : 1;
  long rows = (long)ceil(sqrt((double)rest));
  long per_row = rest / rows - 1;
  if (per_row < 1) {
    per_row = 1;
  }

  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  gtk_window_set_title(GTK_WINDOW(window), "AD Synthetic");
  gtk_window_set_default_size(GTK_WINDOW(window), 1200, 900);
  g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

  GtkWidget *outer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  set_name(outer, "Synthetic");
  gtk_container_add(GTK_CONTAINER(window), outer);
  GtkWidget *scroller = gtk_scrolled_window_new(NULL, NULL);
  set_name(scroller, "Synthetic scroller");
  gtk_box_pack_start(GTK_BOX(outer), scroller, TRUE, TRUE, 0);
  GtkWidget *grid = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
  set_name(grid, "Synthetic grid");
  gtk_container_add(GTK_CONTAINER(scroller), grid);

  char text[64];
  for (long r = 0; r < rows; r++) {
    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2);
    snprintf(text, sizeof text, "Group %ld", r + 1);
    set_name(row, text);
    gtk_box_pack_start(GTK_BOX(grid), row, FALSE, FALSE, 0);
    for (long c = 0; c < per_row; c++) {
      GtkWidget *child;
      if (c % 2 == 0) {
        snprintf(text, sizeof text, "Label %ld.%ld", r + 1, c + 1);
        child = gtk_label_new(text);
      } else {
        snprintf(text, sizeof text, "Button %ld.%ld", r + 1, c + 1);
        child = gtk_button_new_with_label(text);
        g_signal_connect(child, "clicked", G_CALLBACK(on_clicked), window);
      }
      gtk_box_pack_start(GTK_BOX(row), child, FALSE, FALSE, 0);
    }
  }
  gtk_widget_show_all(window);
  gtk_main();
  return 0;
}
