/*
 * overlays.c: the fixture's layers that GTK3 keeps outside the window's own child tree.
 *
 * - "Context target": a button whose right-click (button 3, or Shift+F10 / the Menu key)
 *   pops up an unattached GtkMenu at the pointer, the usual GTK3 context-menu pattern. The
 *   menu's "Mark" item counts up and "Clear marks" resets the count (context_marks, shown in
 *   the "marks: N" label). Stock GTK3 widgets offer no AT-SPI action for their context menu,
 *   so this button's accessible adds one, named "ShowMenu" as Qt names it, after "click":
 *   that is the headless route to the menu.
 * - "Options": a GtkMenuButton with a GtkPopover holding a "Ping" button, which counts up
 *   (pings, shown in the "pings: N" label) and closes the popover.
 */
#include <gtk/gtk-a11y.h>

#include "fixture.h"

/* ---- the context-menu button and its accessible ------------------------------------------ */

typedef struct {
  GtkButton parent;
} AdContextButton;
typedef struct {
  GtkButtonClass parent_class;
} AdContextButtonClass;
typedef struct {
  GtkButtonAccessible parent;
} AdContextAccessible;
typedef struct {
  GtkButtonAccessibleClass parent_class;
} AdContextAccessibleClass;

static void context_action_init(AtkActionIface *iface);
G_DEFINE_TYPE_WITH_CODE(AdContextAccessible, ad_context_accessible, GTK_TYPE_BUTTON_ACCESSIBLE,
                        G_IMPLEMENT_INTERFACE(ATK_TYPE_ACTION, context_action_init))
G_DEFINE_TYPE(AdContextButton, ad_context_button, GTK_TYPE_BUTTON)

static AtkActionIface *button_action; /* GtkButtonAccessible's own "click" */

static gint context_n_actions(AtkAction *a) {
  return button_action->get_n_actions(a) + 1;
}

static const gchar *context_action_name(AtkAction *a, gint i) {
  return i == button_action->get_n_actions(a) ? "ShowMenu" : button_action->get_name(a, i);
}

static gboolean popup_at_widget(gpointer data) {
  GtkWidget *button = data;
  Fixture *fx = g_object_get_data(G_OBJECT(button), "ad-fixture");
  gtk_menu_popup_at_widget(GTK_MENU(fx->context_menu), button, GDK_GRAVITY_SOUTH_WEST,
                           GDK_GRAVITY_NORTH_WEST, NULL);
  g_object_unref(button);
  return G_SOURCE_REMOVE;
}

static gboolean context_do_action(AtkAction *a, gint i) {
  if (i != button_action->get_n_actions(a)) {
    return button_action->do_action(a, i);
  }
  GtkWidget *w = gtk_accessible_get_widget(GTK_ACCESSIBLE(a));
  if (w == NULL || !gtk_widget_is_sensitive(w)) {
    return FALSE;
  }
  /* Like GTK's own actions: answer the AT-SPI call first, act from the main loop. */
  g_idle_add(popup_at_widget, g_object_ref(w));
  return TRUE;
}

static void context_action_init(AtkActionIface *iface) {
  button_action = g_type_interface_peek_parent(iface);
  iface->get_n_actions = context_n_actions;
  iface->get_name = context_action_name;
  iface->do_action = context_do_action;
}

static void ad_context_accessible_init(AdContextAccessible *a) {
  (void)a;
}

static void ad_context_accessible_class_init(AdContextAccessibleClass *c) {
  (void)c;
}

static void ad_context_button_init(AdContextButton *b) {
  (void)b;
}

static void ad_context_button_class_init(AdContextButtonClass *c) {
  gtk_widget_class_set_accessible_type(GTK_WIDGET_CLASS(c), ad_context_accessible_get_type());
}

/* ---- context menu ---------------------------------------------------------------------- */

static void show_marks(Fixture *fx, const char *action) {
  char *text = g_strdup_printf("marks: %d", fx->context_marks);
  gtk_label_set_text(GTK_LABEL(fx->context_label), text);
  g_free(text);
  write_state(fx, action);
}

static void on_mark(GtkMenuItem *m, gpointer data) {
  (void)m;
  Fixture *fx = data;
  fx->context_marks++;
  show_marks(fx, "mark");
}

static void on_clear_marks(GtkMenuItem *m, gpointer data) {
  (void)m;
  Fixture *fx = data;
  fx->context_marks = 0;
  show_marks(fx, "clear marks");
}

static gboolean on_context_press(GtkWidget *w, GdkEventButton *ev, gpointer data) {
  (void)w;
  Fixture *fx = data;
  if (ev->type != GDK_BUTTON_PRESS || ev->button != GDK_BUTTON_SECONDARY) {
    return FALSE;
  }
  gtk_menu_popup_at_pointer(GTK_MENU(fx->context_menu), (GdkEvent *)ev);
  return TRUE;
}

static gboolean on_context_key_popup(GtkWidget *w, gpointer data) {
  (void)data;
  popup_at_widget(g_object_ref(w));
  return TRUE;
}

static GtkWidget *menu_item(const char *label, const char *id, GCallback cb, Fixture *fx) {
  GtkWidget *item = gtk_menu_item_new_with_label(label);
  ad_name(item, id, label);
  g_signal_connect(item, "activate", cb, fx);
  return item;
}

static GtkWidget *build_context_target(Fixture *fx) {
  /* Not attached to the button (no gtk_menu_attach_to_widget): many apps pop a context menu
   * up this way, and GTK3 then exposes it outside the window's accessible tree. */
  fx->context_menu = gtk_menu_new();
  ad_name(fx->context_menu, "context_menu", "Context");
  gtk_menu_shell_append(GTK_MENU_SHELL(fx->context_menu),
                        menu_item("Mark", "mark_item", G_CALLBACK(on_mark), fx));
  gtk_menu_shell_append(GTK_MENU_SHELL(fx->context_menu),
                        menu_item("Clear marks", "clear_marks_item", G_CALLBACK(on_clear_marks),
                                  fx));
  gtk_widget_show_all(fx->context_menu);

  GtkWidget *target = g_object_new(ad_context_button_get_type(), "label", "Context target",
                                   NULL);
  ad_name(target, "context_target", "Context target");
  g_object_set_data(G_OBJECT(target), "ad-fixture", fx);
  g_signal_connect(target, "button-press-event", G_CALLBACK(on_context_press), fx);
  g_signal_connect(target, "popup-menu", G_CALLBACK(on_context_key_popup), fx);
  return target;
}

/* ---- popover --------------------------------------------------------------------------- */

static void on_ping(GtkButton *b, gpointer data) {
  (void)b;
  Fixture *fx = data;
  fx->pings++;
  char *text = g_strdup_printf("pings: %d", fx->pings);
  gtk_label_set_text(GTK_LABEL(fx->ping_label), text);
  g_free(text);
  gtk_popover_popdown(GTK_POPOVER(fx->popover));
  write_state(fx, "ping");
}

static GtkWidget *build_popover_button(Fixture *fx) {
  GtkWidget *opener = gtk_menu_button_new();
  gtk_button_set_label(GTK_BUTTON(opener), "Options");
  ad_name(opener, "options_button", "Options");
  fx->popover = gtk_popover_new(opener);
  ad_name(fx->popover, "options_popover", "Options");
  GtkWidget *ping = gtk_button_new_with_label("Ping");
  ad_name(ping, "ping_button", "Ping");
  g_signal_connect(ping, "clicked", G_CALLBACK(on_ping), fx);
  gtk_container_set_border_width(GTK_CONTAINER(fx->popover), 6);
  gtk_container_add(GTK_CONTAINER(fx->popover), ping);
  gtk_widget_show(ping);
  gtk_menu_button_set_popover(GTK_MENU_BUTTON(opener), fx->popover);
  return opener;
}

GtkWidget *build_overlays(Fixture *fx) {
  GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
  ad_name(row, "overlay_row", "Overlays");
  fx->context_label = gtk_label_new("marks: 0");
  ad_name(fx->context_label, "context_label", NULL);
  fx->ping_label = gtk_label_new("pings: 0");
  ad_name(fx->ping_label, "ping_label", NULL);
  gtk_box_pack_start(GTK_BOX(row), build_context_target(fx), FALSE, FALSE, 0);
  gtk_box_pack_start(GTK_BOX(row), fx->context_label, FALSE, FALSE, 0);
  gtk_box_pack_start(GTK_BOX(row), build_popover_button(fx), FALSE, FALSE, 0);
  gtk_box_pack_start(GTK_BOX(row), fx->ping_label, FALSE, FALSE, 0);
  return row;
}
