/* node.h: one accessibility element as an adapter observed it.
 *
 * Every field is evidence with a tri-state: known (a value was read), absent (the element
 * has none) or unknown (the read failed). Core never turns unknown into absent. A tree of
 * nodes is owned by its root: ad_node_free(root) frees every descendant and every string.
 */
#ifndef AD_NODE_H
#define AD_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* AD_FIELD_WINDOW_RELATIVE is for bounds alone: read, but relative to the element's window
 * because the window's place on the screen is unknown (a Wayland session without a frame
 * source: linux/gtk4_place.h). Everything that tests for AD_FIELD_KNOWN (output, refmaps,
 * pointer targets) treats them as unknown; only the visibility and stability checks use them,
 * against an ad_tree whose screen is the window itself (ad_tree.screen_is_window). */
typedef enum {
    AD_FIELD_ABSENT = 0,
    AD_FIELD_KNOWN,
    AD_FIELD_UNKNOWN,
    AD_FIELD_WINDOW_RELATIVE,
} ad_field_state;

typedef struct {
    ad_field_state state;
    char *text; /* owned; non-NULL only when state is AD_FIELD_KNOWN */
} ad_text;

typedef struct {
    double x, y, width, height;
} ad_rect;

/* Canonical state tokens as bits, in the order of the find --state list. */
enum {
    AD_ST_FOCUSED, AD_ST_DISABLED, AD_ST_SECURE, AD_ST_EXPANDED, AD_ST_CHECKED,
    AD_ST_SELECTED, AD_ST_HIDDEN, AD_ST_BUSY, AD_ST_MODAL, AD_ST_REQUIRED,
    AD_ST_INDETERMINATE, AD_ST_PRESSED, AD_ST_READONLY, AD_ST_OFFSCREEN, AD_ST_INVALID,
    AD_ST_MULTISELECTABLE, AD_ST_HASPOPUP, AD_ST_COUNT
};

/* Capabilities an element offers, beside its visible states (used by `is`). */
enum {
    AD_CAP_FOCUSABLE = 1u << 0,
    AD_CAP_EXPANDABLE = 1u << 1,
    AD_CAP_SELECTABLE = 1u << 2,
    AD_CAP_CHECKABLE = 1u << 3,
    AD_CAP_EDITABLE = 1u << 4,
};

typedef struct ad_node {
    const char *role; /* canonical token, static */
    ad_text name, value, description, native_id;
    /* The native id was not asked (ad_read_limits.native_id_needed said no): native_id is
     * AD_FIELD_UNKNOWN, and identity.c leaves it out only for an element whose other fields
     * already differ from the identity it is compared with. */
    bool native_id_unread;
    /* The toolkit class name the element gave in place of a name (GTK 4.8: "GtkSourceView"),
     * owned, or NULL. Identity only (identity.c, rule 4): never presented as name or text. */
    char *toolkit_class;
    ad_field_state states_state;
    uint32_t states; /* bits 1 << AD_ST_* */
    uint32_t caps;   /* AD_CAP_* */
    /* The element can be checked but its toolkit never reports whether it is (a GTK3
     * GtkModelButton: linux/walker_popup.c), so a missing AD_ST_CHECKED proves nothing. */
    bool checked_unreported;
    ad_field_state actions_state;
    char **actions; /* canonical action names, owned */
    size_t n_actions;
    ad_field_state bounds_state;
    ad_rect bounds; /* screen coordinates (window coordinates when AD_FIELD_WINDOW_RELATIVE) */
    bool secure;    /* a password field: its value is never read */
    /* The element declares itself a popup for another element (AT-SPI RELATION_POPUP_FOR:
     * a GTK3 popover). Asked only where an adapter looks for popovers; elsewhere ABSENT
     * means "not asked", the same absent-by-choice as unread bounds. */
    ad_field_state popup_state;
    bool popup;
    /* Children: live_child_count is what the element reported (-1 unknown). children_cut is
     * true when some live children were not read (a limit or the deadline cut them). */
    long live_child_count;
    bool children_cut;
    struct ad_node **children;
    size_t n_children, cap_children;
    struct ad_node *parent;
    size_t index_in_parent;
    char *address; /* adapter-private locator ("bus|path"), owned; never stored in a refmap */
} ad_node;

const char *ad_state_token(unsigned bit);
/* Bit index of a state token, or -1. */
int ad_state_bit(const char *token);

/* Allocates an empty node with every field absent and live_child_count -1. */
ad_node *ad_node_new(void);
/* Appends `child` (ownership moves to parent). Returns -1 on allocation failure. */
int ad_node_add_child(ad_node *parent, ad_node *child);
/* Frees the node, its strings and its whole subtree. NULL-safe. */
void ad_node_free(ad_node *node);

void ad_text_set(ad_text *t, const char *s); /* known when s is non-empty, else absent */
/* True when s is a toolkit class name rather than words a person reads: GTK 4.8 names an
 * unlabelled widget after its type (GtkSourceView, GtkMenuButton, AdwGizmo), Qt class names
 * look alike (QLineEdit). A toolkit prefix (Gtk, Gdk, Gsk, Adw, Hdy, Q), then an upper-case
 * letter, then letters and digits with at least one lower-case letter. Such a string is
 * never an element's name or text. App-defined types without a toolkit prefix
 * (gnome-calculator's HistoryView) cannot be told from a label and are kept. */
bool ad_toolkit_class_name(const char *s);
/* Sets the node's name like ad_text_set, except that a toolkit class name leaves the name
 * absent and is kept as the node's toolkit_class instead. */
void ad_node_set_name(ad_node *n, const char *s);
void ad_text_unknown(ad_text *t);
/* The text when known, else NULL (borrowed). */
static inline const char *ad_text_get(const ad_text *t)
{
    return t->state == AD_FIELD_KNOWN ? t->text : NULL;
}

int ad_node_add_action(ad_node *n, const char *name);
bool ad_node_has_action(const ad_node *n, const char *name);
/* The node's depth-first position: child indexes from the root, written to out (cap). */
size_t ad_node_path(const ad_node *n, size_t *out, size_t cap);
/* Case-insensitive substring test: false for a NULL haystack, true for an empty needle. */
bool ad_contains_ci(const char *hay, const char *needle);
/* True when the node's name, value (never a secure field's) or description contains `text`
 * case-insensitively: what wait --text, --wait-for selectors and find --text look at. */
bool ad_node_has_text(const ad_node *n, const char *text);

/* The text an option shows: its name, or, when it has none (a GTK3 list row holds a label),
 * the name of its only named descendant. NULL when neither is known. Borrowed from n. */
const char *ad_node_display_text(const ad_node *n);
/* True for a choice inside a list or menu (option, menuitem): a "Select" action on it picks
 * it, unlike the Select of a container, which picks a child by name. */
bool ad_option_role(const ad_node *n);
/* True for an element that can be checked: a checkbox, switch or radio button, or one that
 * declares the checkable capability. */
bool ad_node_checkable(const ad_node *n);
/* Its checked state: 1 checked, 0 not checked, -1 unknown (the states were not read, or the
 * toolkit does not report it: checked_unreported). Indeterminate is a state of its own. */
int ad_node_checked(const ad_node *n);
/* True when the role is in the interactive list (snapshots-and-refs.md). */
bool ad_role_interactive(const char *role);
/* True when the node advertises an action other than SetFocus, RightClick and ScrollTo. */
bool ad_node_has_primary_action(const ad_node *n);
/* Interactive role or primary action: the node earns a ref. */
bool ad_node_refable(const ad_node *n);
/* Counts nodes in the subtree. */
size_t ad_node_count(const ad_node *n);

#endif
