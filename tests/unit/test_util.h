/* test_util.h: helpers shared by the unit tests: private temp state roots, command arguments
 * with the table's defaults, dispatch, and JSON lookups by dotted path. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "platform/adapter.h"

/* A temp directory and AGENT_DESKTOP_HOME pointing at <dir>/state (not created yet). The
 * previous value of the variable is restored by tu_home_end, which also removes the dir. */
typedef struct {
    char *dir;
    char *state;
    char *saved_env;
} tu_home;

void tu_home_begin(tu_home *h);
void tu_home_end(tu_home *h);

/* A test bed for dispatch-level tests: a private state root, a private interaction-lease
 * directory (as XDG_RUNTIME_DIR), and a fake adapter with one running app "form" (pid 300) whose
 * focused window "Form" owns `root` (moved in). tu_bed_free undoes it all. */
typedef struct {
    tu_home home;
    char *lease_dir;
    struct fake_adapter *fake;
} tu_bed;

tu_bed *tu_bed_new(ad_node *root);
void tu_bed_free(tu_bed *b);
/* A cmocka teardown for a state that is a tu_bed: tu_bed_free(*state). */
int tu_bed_teardown(void **state);
/* The state a fake-adapter test starts from: a private state root (tu_home_begin) and a new
 * fake adapter (fake_adapter.h) in *ret_fake, owned by the test; tu_fake_end frees both. */
struct fake_adapter;
void tu_fake_begin(tu_home *home, struct fake_adapter **ret_fake);
void tu_fake_end(tu_home *home, struct fake_adapter *fake);

/* A fresh directory under $TMPDIR or /tmp (caller frees), and a recursive remove. */
char *tu_tmpdir(void);
void tu_rmrf(const char *path);
/* Whole file contents (caller frees), or NULL; *len may be NULL. */
char *tu_read_file(const char *path, size_t *len);
/* Writes a file (mode 0600), aborting on failure. */
void tu_write_file(const char *path, const char *text);
/* A saved refmap.json in either format, decoded (new reference, the caller's), or NULL. */
json_t *tu_refmap_load(const char *path);
/* Entries in a directory, excluding "." and "..". -1 when it cannot be opened. */
int tu_count_entries(const char *dir);
/* True when some entry of dir starts with '.' (a temp file left behind). */
bool tu_has_dotfile(const char *dir);

/* The given arguments of `cmd` (json_pack(fmt, ...)), as any door passes them; dispatch's
 * validator adds the defaults. Aborts on an unknown command. Returns a new object. */
json_t *tu_args(const char *cmd, const char *fmt, ...);
/* Dispatches `cmd` with args (stolen) and globals (stolen, NULL for none). Returns the
 * envelope; *exit_code gets the exit status. */
json_t *tu_run(ad_adapter *a, const char *cmd, json_t *args, json_t *globals, int *exit_code);
/* tu_run that fails the test, printing the envelope, unless the exit status is want_exit. */
json_t *tu_run_exit(ad_adapter *a, const char *cmd, json_t *args, json_t *globals,
                    int want_exit);

/* tu_run_exit with the global --session (NULL: none) and --agent-id (NULL: none). */
json_t *tu_run_in(ad_adapter *a, const char *cmd, json_t *args, const char *session,
                  const char *agent, int want_exit);
/* A snapshot (in session, NULL: none), then the ref_id of its node named `name` (malloc'd;
 * the caller frees). */
char *tu_snapshot_ref(ad_adapter *a, const char *session, const char *name);

/* Looks a value up by dotted path: "data.tree.children.0.role" (numbers index arrays).
 * Returns a borrowed value or NULL. */
json_t *tu_at(const json_t *v, const char *path);
const char *tu_str(const json_t *v, const char *path);
long long tu_int(const json_t *v, const char *path);
/* The first node in a presented tree (depth-first) whose "name" is `name`, or NULL. */
json_t *tu_node_named(const json_t *tree, const char *name);
/* Counts nodes in a presented tree that carry a "ref_id". */
size_t tu_count_refs(const json_t *tree);

#endif
