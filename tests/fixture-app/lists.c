/* lists.c: the fixture's lists: the fruit tree (expand, collapse), the long scrolling list
 * (scroll, scroll-to) and the pet list box (select by display text). */
#include "fixture.h"

#define LONG_LIST_ROWS 60

gboolean fruits_expanded(Fixture *fx) {
  GtkTreePath *path = gtk_tree_path_new_first();
  gboolean expanded = gtk_tree_view_row_expanded(GTK_TREE_VIEW(fx->fruit_tree), path);
  gtk_tree_path_free(path);
  return expanded;
}

static void on_pet_selected(GtkListBox *list, GtkListBoxRow *row, gpointer data) {
  (void)list;
  (void)row;
  write_state(data, "pet selected");
}

/* Rows whose text is a label inside an unnamed row, as GTK3 lists usually are. */
GtkWidget *build_pet_list(Fixture *fx) {
  GtkWidget *list = gtk_list_box_new();
  ad_name(list, "pet_list", "Pets");
  gtk_list_box_set_selection_mode(GTK_LIST_BOX(list), GTK_SELECTION_SINGLE);
  static const char *const pets[] = {"Cat", "Dog", "Fish"};
  for (size_t i = 0; i < G_N_ELEMENTS(pets); i++) {
    gtk_container_add(GTK_CONTAINER(list), gtk_label_new(pets[i]));
  }
  gtk_list_box_unselect_all(GTK_LIST_BOX(list));
  g_signal_connect(list, "row-selected", G_CALLBACK(on_pet_selected), fx);
  fx->pet_list = list;
  return list;
}

static void on_tree_row_toggled(GtkTreeView *t, GtkTreeIter *it, GtkTreePath *p, gpointer data) {
  (void)t;
  (void)it;
  (void)p;
  write_state(data, fruits_expanded(data) ? "fruits expanded" : "fruits collapsed");
}

GtkWidget *build_tree(Fixture *fx) {
  GtkTreeStore *store = gtk_tree_store_new(1, G_TYPE_STRING);
  GtkTreeIter parent, child;
  gtk_tree_store_insert_with_values(store, &parent, NULL, -1, 0, "Fruits", -1);
  gtk_tree_store_insert_with_values(store, &child, &parent, -1, 0, "Apple", -1);
  gtk_tree_store_insert_with_values(store, &child, &parent, -1, 0, "Pear", -1);
  GtkWidget *tree = gtk_tree_view_new_with_model(GTK_TREE_MODEL(store));
  g_object_unref(store);
  ad_name(tree, "fruit_tree", "Fruit tree");
  GtkCellRenderer *text = gtk_cell_renderer_text_new();
  GtkTreeViewColumn *col = gtk_tree_view_column_new_with_attributes("Fruit", text, "text", 0, NULL);
  gtk_tree_view_append_column(GTK_TREE_VIEW(tree), col);
  g_signal_connect(tree, "row-expanded", G_CALLBACK(on_tree_row_toggled), fx);
  g_signal_connect(tree, "row-collapsed", G_CALLBACK(on_tree_row_toggled), fx);
  fx->fruit_tree = tree;
  return tree;
}

GtkWidget *build_long_list(void) {
  GtkWidget *scroller = gtk_scrolled_window_new(NULL, NULL);
  ad_name(scroller, "long_list", "Long list");
  gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER,
                                 GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request(scroller, -1, 120);
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
  ad_name(box, "long_list_box", "Long list items");
  for (int i = 1; i <= LONG_LIST_ROWS; i++) {
    char text[32], id[32];
    g_snprintf(text, sizeof text, "Item %d", i);
    g_snprintf(id, sizeof id, "item_%d", i);
    GtkWidget *label = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(label), 0.0f);
    ad_name(label, id, text);
    gtk_box_pack_start(GTK_BOX(box), label, FALSE, FALSE, 0);
  }
  gtk_container_add(GTK_CONTAINER(scroller), box);
  return scroller;
}
