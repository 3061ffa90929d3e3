/*
 * ad-bench-naive-walk: the baseline for snapshot benchmarks. Walks an app's first window
 * with libatspi the way a naive client does: caching off, one synchronous D-Bus call per
 * property, depth first, children by index.
 *
 *   ad-bench-naive-walk [--list-nodes [--numeric-roles]] [--verbose] [--wait MS] APP_NAME
 *
 * Per node it reads role, name, description, state set, action count and every action
 * name, child count and screen extents, then recurses (depth limit 50). Prints one JSON
 * line {"app":..., "nodes":N, "ms":walk_ms, "errors":E, "depth_cut":D}; with --list-nodes
 * it first prints every node as "role<TAB>name<TAB>child_index_path" ("/" is the window,
 * "/0/2" its first child's third child; --numeric-roles prints the role as its AT-SPI number,
 * the form ad-bench-hybrid-walk lists). --wait MS polls for up to MS milliseconds until
 * the app shows a window; --verbose prints each failed call.
 * Exit status: 0 ok, 1 app or window not found, 2 usage.
 */
#include <atspi/atspi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 50
#define MAX_PATH_LEN 4096

typedef struct {
  long nodes;
  long errors;
  long depth_cut;
  int list_nodes;
  int numeric_roles;
  int verbose;
} Walk;

/* Counts a failed call (and with --verbose prints it); returns 0 when the call failed. */
static int check(Walk *w, GError **err, const char *what) {
  if (*err != NULL) {
    w->errors++;
    if (w->verbose) {
      fprintf(stderr, "ad-bench-naive-walk: %s: %s\n", what, (*err)->message);
    }
    g_clear_error(err);
    return 0;
  }
  return 1;
}

/* Prints s with tabs and newlines replaced so one node stays on one line. */
static void print_field(const char *s) {
  for (const char *p = s != NULL ? s : ""; *p != '\0'; p++) {
    putchar(*p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
  }
}

static void print_json_string(const char *s) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
    if (*p == '"' || *p == '\\') {
      printf("\\%c", *p);
    } else if (*p < 0x20) {
      printf("\\u%04x", *p);
    } else {
      putchar(*p);
    }
  }
  putchar('"');
}

static void walk_node(Walk *w, AtspiAccessible *node, int depth, char *path, size_t path_len) {
  GError *err = NULL;
  w->nodes++;

  AtspiRole role = atspi_accessible_get_role(node, &err);
  check(w, &err, "role");
  gchar *name = atspi_accessible_get_name(node, &err);
  check(w, &err, "name");
  gchar *desc = atspi_accessible_get_description(node, &err);
  check(w, &err, "description");
  AtspiStateSet *states = atspi_accessible_get_state_set(node);
  if (states != NULL) {
    g_object_unref(states);
  }
  AtspiAction *action = atspi_accessible_get_action_iface(node);
  if (action != NULL) {
    gint n = atspi_action_get_n_actions(action, &err);
    check(w, &err, "action count");
    for (gint i = 0; i < n; i++) {
      g_free(atspi_action_get_action_name(action, i, &err));
      check(w, &err, "action name");
    }
    g_object_unref(action);
  }
  gint children = atspi_accessible_get_child_count(node, &err);
  if (!check(w, &err, "child count")) {
    children = 0;
  }
  AtspiComponent *component = atspi_accessible_get_component_iface(node);
  if (component != NULL) {
    AtspiRect *rect = atspi_component_get_extents(component, ATSPI_COORD_TYPE_SCREEN, &err);
    check(w, &err, "extents");
    g_free(rect);
    g_object_unref(component);
  }

  if (w->list_nodes) {
    gchar *role_name = w->numeric_roles ? g_strdup_printf("%d", (int)role)
                                        : atspi_role_get_name(role);
    print_field(role_name);
    putchar('\t');
    print_field(name);
    putchar('\t');
    fputs(path_len == 0 ? "/" : path, stdout);
    putchar('\n');
    g_free(role_name);
  }
  g_free(name);
  g_free(desc);

  if (children > 0 && depth >= MAX_DEPTH) {
    w->depth_cut++;
    return;
  }
  for (gint i = 0; i < children; i++) {
    AtspiAccessible *child = atspi_accessible_get_child_at_index(node, i, &err);
    if (!check(w, &err, "child") || child == NULL) {
      continue;
    }
    int n = snprintf(path + path_len, MAX_PATH_LEN - path_len, "/%d", i);
    size_t child_len = path_len + (n > 0 ? (size_t)n : 0);
    if (child_len >= MAX_PATH_LEN) {
      child_len = path_len; /* cannot happen within MAX_DEPTH; keep the path bounded */
    }
    walk_node(w, child, depth + 1, path, child_len);
    path[path_len] = '\0';
    g_object_unref(child);
  }
}

/* Returns the first frame (or else the first window or dialog) of the first application
 * named app_name that has one, with a new reference, or NULL. */
static AtspiAccessible *find_window(const char *app_name, AtspiAccessible **ret_app) {
  AtspiAccessible *desktop = atspi_get_desktop(0);
  AtspiAccessible *found = NULL;
  gint napps = atspi_accessible_get_child_count(desktop, NULL);
  for (gint i = 0; i < napps && found == NULL; i++) {
    AtspiAccessible *app = atspi_accessible_get_child_at_index(desktop, i, NULL);
    if (app == NULL) {
      continue;
    }
    gchar *name = atspi_accessible_get_name(app, NULL);
    if (name != NULL && strcmp(name, app_name) == 0) {
      AtspiAccessible *fallback = NULL;
      gint nwin = atspi_accessible_get_child_count(app, NULL);
      for (gint j = 0; j < nwin && found == NULL; j++) {
        AtspiAccessible *win = atspi_accessible_get_child_at_index(app, j, NULL);
        if (win == NULL) {
          continue;
        }
        AtspiRole role = atspi_accessible_get_role(win, NULL);
        if (role == ATSPI_ROLE_FRAME) {
          found = win;
        } else if (fallback == NULL &&
                   (role == ATSPI_ROLE_WINDOW || role == ATSPI_ROLE_DIALOG)) {
          fallback = win;
        } else {
          g_object_unref(win);
        }
      }
      if (found == NULL) {
        found = fallback;
      } else if (fallback != NULL) {
        g_object_unref(fallback);
      }
      if (found != NULL) {
        *ret_app = g_object_ref(app);
      }
    }
    g_free(name);
    g_object_unref(app);
  }
  g_object_unref(desktop);
  return found;
}

int main(int argc, char **argv) {
  Walk w = {0};
  const char *app_name = NULL;
  long wait_ms = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--list-nodes") == 0) {
      w.list_nodes = 1;
    } else if (strcmp(argv[i], "--numeric-roles") == 0) {
      w.numeric_roles = 1;
    } else if (strcmp(argv[i], "--verbose") == 0) {
      w.verbose = 1;
    } else if (strcmp(argv[i], "--wait") == 0 && i + 1 < argc) {
      wait_ms = strtol(argv[++i], NULL, 10);
    } else if (argv[i][0] != '-' && app_name == NULL) {
      app_name = argv[i];
    } else {
      app_name = NULL;
      break;
    }
  }
  if (app_name == NULL) {
    fprintf(stderr, "usage: ad-bench-naive-walk [--list-nodes [--numeric-roles]] [--verbose]"
                    " [--wait MS] APP_NAME\n");
    return 2;
  }
  if (atspi_init() < 0) {
    fprintf(stderr, "ad-bench-naive-walk: cannot reach the AT-SPI bus\n");
    return 1;
  }
  /* Long D-Bus timeouts: a 10,000 node app can be slow to answer its first calls. */
  atspi_set_timeout(60000, 60000);

  gint64 deadline = g_get_monotonic_time() + wait_ms * 1000;
  AtspiAccessible *app = NULL;
  AtspiAccessible *window = find_window(app_name, &app);
  while (window == NULL && g_get_monotonic_time() < deadline) {
    g_usleep(100 * 1000); /* polling for the app to appear, bounded by --wait */
    window = find_window(app_name, &app);
  }
  if (window == NULL) {
    fprintf(stderr, "ad-bench-naive-walk: no application named %s with a window\n", app_name);
    return 1;
  }

  /* Caching off, but only now. libatspi asks each new app for its cache (GetItems) and
   * stores the reply from inside the D-Bus dispatch of whatever blocking call is running;
   * with the mask already at NONE it re-reads the states there with a nested blocking call
   * and deadlocks on libdbus's dispatch lock (libatspi 2.46, reproducible by setting the
   * mask before the first call to the app). The app answers in order, so one more round
   * trip to it after the calls in find_window guarantees that reply has been handled. */
  atspi_accessible_get_child_count(app, NULL);
  atspi_accessible_set_cache_mask(app, ATSPI_CACHE_NONE);

  char path[MAX_PATH_LEN] = "";
  gint64 start = g_get_monotonic_time();
  walk_node(&w, window, 0, path, 0);
  double ms = (double)(g_get_monotonic_time() - start) / 1000.0;

  printf("{\"app\":");
  print_json_string(app_name);
  printf(",\"nodes\":%ld,\"ms\":%.1f,\"errors\":%ld,\"depth_cut\":%ld}\n", w.nodes, ms, w.errors,
         w.depth_cut);
  g_object_unref(window);
  g_object_unref(app);
  return 0;
}
