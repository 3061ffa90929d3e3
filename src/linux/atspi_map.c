/* atspi_map.c: AT-SPI roles, states and action names -> canonical tokens (see atspi_map.h).
 *
 * Evidence: role numbers and names are at-spi2-core 2.46's AtspiRole. Observations marked
 * "measured" come from gtk3-widget-factory (GTK 3.24.38), gtk4-demo and gnome-calculator
 * (GTK 4.8.3) on Debian 12, read node by node over AT-SPI.
 */
#include "linux/atspi_map.h"

#include <limits.h>
#include <string.h>

typedef struct {
    const char *name;      /* AT-SPI's own role name */
    const char *canonical; /* token from spec/facts/roles.md */
} role_entry;

/* Indexed by AtspiRole number. Choices a reviewer may question:
 * - Interactive tokens (button, cell, checkbox, combobox, incrementor, link, listbox, menubutton,
 *   menuitem, option, radiobutton, slider, tab, textfield, treeitem) give a ref, so they are used
 *   only where a user can act on the element itself.
 * - animation -> progressbar: GTK3's only user is GtkSpinner (measured: "Spinner"); GTK4 gives
 *   the same spinner the progress-bar role, so both land on one token.
 * - column header / table column header -> button: GTK3 tree-view headers are clickable sort
 *   buttons (measured: "click" action), as macOS exposes sortable headers. Row headers are the
 *   first cell of their row -> cell.
 * - list item -> option: GTK3/GTK4 GtkListBoxRow and GTK4 list-view rows are `list item`; they
 *   are selected and activated by the user and need a ref (`option` is interactive). A static
 *   web <li> is also `list item`; a walker that wants to demote it can check SELECTABLE.
 * - option pane -> option: GTK4 maps ARIA `option` to ATSPI_ROLE_OPTION_PANE; Java's
 *   JOptionPane (the other user) is rare on Linux desktops.
 * - menu bar -> group: roles.md has no menubar token; `menu` would make a permanent bar look
 *   like an open menu surface. menu (GTK3 uses it for a submenu-opening item) and popup menu ->
 *   menu; such items still get a ref from their "click" action.
 * - toggle button -> button (roles.md alias togglebutton -> button). GTK3 and GTK 4.8 expose
 *   GtkSwitch as `toggle button` too; its raw action "toggle" (not "click") tells it apart.
 * - tree / tree table -> outline (alias tree -> outline); table -> table; list -> list (GTK4
 *   GtkListView and GtkListBox are `list`; their rows carry the refs).
 * - split pane -> group: it is the container of both panes; `splitter` names the divider.
 * - internal frame / desktop frame and other panes -> group, not window: only toplevels
 *   (frame, window, dialog, alert, input method window) should be window candidates.
 * - terminal -> textfield: it takes typed text (`type` into a terminal is a documented Linux
 *   case) and needs a ref; it is exempt from the readonly inference (see states).
 * - calendar -> datefield (GTK3 GtkCalendar: an opaque date picker with no children).
 * - notification -> alert: Chromium and Firefox expose ARIA alert as `notification`.
 *   info bar -> status (an in-window, non-modal message).
 * - header -> banner, footer -> contentinfo, landmark -> region (the generic landmark; the
 *   concrete kind is only in the xml-roles attribute), comment / footnote -> note.
 * - desktop icon -> dockitem: a minimized window's icon, clicked to restore it.
 * - invalid, focus traversable (reserved), unknown, extended (real name only in GetRoleName)
 *   -> unknown. */
static const role_entry ROLES[AD_ATSPI_ROLE_COUNT] = {
    /*   0 */ {"invalid", "unknown"},
    /*   1 */ {"accelerator label", "statictext"},
    /*   2 */ {"alert", "alert"},
    /*   3 */ {"animation", "progressbar"},
    /*   4 */ {"arrow", "image"},
    /*   5 */ {"calendar", "datefield"},
    /*   6 */ {"canvas", "image"},
    /*   7 */ {"check box", "checkbox"},
    /*   8 */ {"check menu item", "menuitem"},
    /*   9 */ {"color chooser", "dialog"},
    /*  10 */ {"column header", "button"},
    /*  11 */ {"combo box", "combobox"},
    /*  12 */ {"date editor", "datefield"},
    /*  13 */ {"desktop icon", "dockitem"},
    /*  14 */ {"desktop frame", "group"},
    /*  15 */ {"dial", "slider"},
    /*  16 */ {"dialog", "dialog"},
    /*  17 */ {"directory pane", "group"},
    /*  18 */ {"drawing area", "image"},
    /*  19 */ {"file chooser", "dialog"},
    /*  20 */ {"filler", "group"},
    /*  21 */ {"focus traversable", "unknown"},
    /*  22 */ {"font chooser", "dialog"},
    /*  23 */ {"frame", "window"},
    /*  24 */ {"glass pane", "group"},
    /*  25 */ {"html container", "webarea"},
    /*  26 */ {"icon", "image"},
    /*  27 */ {"image", "image"},
    /*  28 */ {"internal frame", "group"},
    /*  29 */ {"label", "statictext"},
    /*  30 */ {"layered pane", "group"},
    /*  31 */ {"list", "list"},
    /*  32 */ {"list item", "option"},
    /*  33 */ {"menu", "menu"},
    /*  34 */ {"menu bar", "group"},
    /*  35 */ {"menu item", "menuitem"},
    /*  36 */ {"option pane", "option"},
    /*  37 */ {"page tab", "tab"},
    /*  38 */ {"page tab list", "tablist"},
    /*  39 */ {"panel", "group"},
    /*  40 */ {"password text", "textfield"},
    /*  41 */ {"popup menu", "menu"},
    /*  42 */ {"progress bar", "progressbar"},
    /*  43 */ {"push button", "button"},
    /*  44 */ {"radio button", "radiobutton"},
    /*  45 */ {"radio menu item", "menuitem"},
    /*  46 */ {"root pane", "group"},
    /*  47 */ {"row header", "cell"},
    /*  48 */ {"scroll bar", "scrollbar"},
    /*  49 */ {"scroll pane", "scrollarea"},
    /*  50 */ {"separator", "separator"},
    /*  51 */ {"slider", "slider"},
    /*  52 */ {"spin button", "incrementor"},
    /*  53 */ {"split pane", "group"},
    /*  54 */ {"status bar", "status"},
    /*  55 */ {"table", "table"},
    /*  56 */ {"table cell", "cell"},
    /*  57 */ {"table column header", "button"},
    /*  58 */ {"table row header", "cell"},
    /*  59 */ {"tearoff menu item", "menuitem"},
    /*  60 */ {"terminal", "textfield"},
    /*  61 */ {"text", "textfield"},
    /*  62 */ {"toggle button", "button"},
    /*  63 */ {"tool bar", "toolbar"},
    /*  64 */ {"tool tip", "tooltip"},
    /*  65 */ {"tree", "outline"},
    /*  66 */ {"tree table", "outline"},
    /*  67 */ {"unknown", "unknown"},
    /*  68 */ {"viewport", "group"},
    /*  69 */ {"window", "window"},
    /*  70 */ {"extended", "unknown"},
    /*  71 */ {"header", "banner"},
    /*  72 */ {"footer", "contentinfo"},
    /*  73 */ {"paragraph", "paragraph"},
    /*  74 */ {"ruler", "ruler"},
    /*  75 */ {"application", "application"},
    /*  76 */ {"autocomplete", "listbox"}, /* the completion popup list */
    /*  77 */ {"editbar", "textfield"},
    /*  78 */ {"embedded", "group"},
    /*  79 */ {"entry", "textfield"},
    /*  80 */ {"chart", "image"},
    /*  81 */ {"caption", "statictext"},
    /*  82 */ {"document frame", "document"},
    /*  83 */ {"heading", "heading"},
    /*  84 */ {"page", "group"},
    /*  85 */ {"section", "group"},
    /*  86 */ {"redundant object", "group"},
    /*  87 */ {"form", "form"}, /* GTK 4.8 also uses it for ARIA search (GtkSearchBar) */
    /*  88 */ {"link", "link"},
    /*  89 */ {"input method window", "window"},
    /*  90 */ {"table row", "row"},
    /*  91 */ {"tree item", "treeitem"},
    /*  92 */ {"document spreadsheet", "document"},
    /*  93 */ {"document presentation", "document"},
    /*  94 */ {"document text", "document"},
    /*  95 */ {"document web", "webarea"},
    /*  96 */ {"document email", "document"},
    /*  97 */ {"comment", "note"},
    /*  98 */ {"list box", "listbox"},
    /*  99 */ {"grouping", "group"},
    /* 100 */ {"image map", "image"},
    /* 101 */ {"notification", "alert"},
    /* 102 */ {"info bar", "status"},
    /* 103 */ {"level bar", "levelindicator"},
    /* 104 */ {"title bar", "group"},
    /* 105 */ {"block quote", "group"},
    /* 106 */ {"audio", "group"},
    /* 107 */ {"video", "group"},
    /* 108 */ {"definition", "definition"},
    /* 109 */ {"article", "article"},
    /* 110 */ {"landmark", "region"},
    /* 111 */ {"log", "log"},
    /* 112 */ {"marquee", "marquee"},
    /* 113 */ {"math", "math"},
    /* 114 */ {"rating", "levelindicator"}, /* macOS rating controls are level indicators */
    /* 115 */ {"timer", "timer"},
    /* 116 */ {"static", "statictext"},
    /* 117 */ {"math fraction", "math"},
    /* 118 */ {"math root", "math"},
    /* 119 */ {"subscript", "statictext"},
    /* 120 */ {"superscript", "statictext"},
    /* 121 */ {"description list", "list"},
    /* 122 */ {"description term", "term"},
    /* 123 */ {"description value", "definition"},
    /* 124 */ {"footnote", "note"},
    /* 125 */ {"content deletion", "group"},
    /* 126 */ {"content insertion", "group"},
    /* 127 */ {"mark", "group"},
    /* 128 */ {"suggestion", "group"},
    /* 129 */ {"push button menu", "menubutton"},
};

const char *ad_atspi_role_canonical(uint32_t atspi_role)
{
    return atspi_role < AD_ATSPI_ROLE_COUNT ? ROLES[atspi_role].canonical : "unknown";
}

const char *ad_atspi_role_name(uint32_t atspi_role)
{
    return atspi_role < AD_ATSPI_ROLE_COUNT ? ROLES[atspi_role].name : "invalid";
}

bool ad_atspi_role_is_secure(uint32_t atspi_role)
{
    return atspi_role == AD_ATSPI_ROLE_PASSWORD_TEXT;
}

bool ad_atspi_state_has(ad_atspi_states s, unsigned atspi_state_number)
{
    if (atspi_state_number < 32u)
        return (s.lo >> atspi_state_number) & 1u;
    if (atspi_state_number < 64u)
        return (s.hi >> (atspi_state_number - 32u)) & 1u;
    return false;
}

/* The find --state tokens, in their documented order; the output order follows it. */
static const char *const STATE_TOKENS[AD_STATE_TOKEN_COUNT] = {
    "focused", "disabled", "secure", "expanded", "checked", "selected",
    "hidden", "busy", "modal", "required", "indeterminate", "pressed",
    "readonly", "offscreen", "invalid", "multiselectable", "haspopup",
};

/* Roles whose editability is announced by EDITABLE alone. */
static bool is_text_entry_role(uint32_t role)
{
    return role == AD_ATSPI_ROLE_TEXT || role == AD_ATSPI_ROLE_ENTRY ||
           role == AD_ATSPI_ROLE_PASSWORD_TEXT || role == AD_ATSPI_ROLE_EDITBAR;
}

size_t ad_atspi_states_canonical(ad_atspi_states s, uint32_t atspi_role, const char **out,
                                 size_t cap)
{
#define HAS(n) ad_atspi_state_has(s, AD_ATSPI_STATE_##n)
    /* The application object is not a widget: GTK3 and GTK4 give it an empty state set
     * (measured), which must not read as disabled and hidden. */
    bool widget = atspi_role != AD_ATSPI_ROLE_APPLICATION;
    bool on[AD_STATE_TOKEN_COUNT];

    on[0] = HAS(FOCUSED);
    /* disabled: neither ENABLED nor SENSITIVE. GTK3 sets both together on a sensitive widget,
     * but drops ENABLED alone on an inconsistent check/radio/toggle (measured), and GTK 4.8
     * never sets ENABLED at all (measured: SENSITIVE on 444 of 447 gtk4-demo nodes, ENABLED on
     * none). Either one present therefore means the element accepts input. */
    on[1] = widget && !HAS(ENABLED) && !HAS(SENSITIVE);
    on[2] = ad_atspi_role_is_secure(atspi_role); /* secure comes from the role */
    on[3] = HAS(EXPANDED);
    on[4] = HAS(CHECKED);
    on[5] = HAS(SELECTED);
    /* hidden: not VISIBLE, i.e. not marked for display at all (a closed GtkMenu, a hidden
     * stack page). */
    on[6] = widget && !HAS(VISIBLE);
    on[7] = HAS(BUSY);
    on[8] = HAS(MODAL);
    on[9] = HAS(REQUIRED);
    on[10] = HAS(INDETERMINATE);
    on[11] = HAS(PRESSED);
    /* readonly: READ_ONLY where the toolkit sets it (GTK4, Chromium). GTK3/ATK never sets
     * READ_ONLY; it marks an editable text by EDITABLE alone, so a text-entry role without
     * EDITABLE is a read-only text (a non-editable GtkTextView or GtkEntry). The terminal role is
     * left out: it takes keyboard input but no toolkit marks it EDITABLE. */
    on[12] = HAS(READ_ONLY) || (is_text_entry_role(atspi_role) && !HAS(EDITABLE));
    /* offscreen: VISIBLE but not SHOWING (marked for display, yet scrolled away, on an unmapped
     * parent or clipped). SHOWING is trusted only when ENABLED is set as well: GTK 4.8 sets
     * SHOWING on its toplevel only and never sets ENABLED (measured: SHOWING on 1 of 447
     * gtk4-demo nodes), so without this gate every GTK4 element would read offscreen. The cost:
     * a disabled or inconsistent GTK3 element is never reported offscreen. */
    on[13] = widget && HAS(VISIBLE) && !HAS(SHOWING) && HAS(ENABLED);
    /* invalid: INVALID_ENTRY (ARIA invalid, a rejected entry). AT-SPI's state 0 "INVALID"
     * means "an invalid state, probably an error" and says nothing about the content. */
    on[14] = HAS(INVALID_ENTRY);
    on[15] = HAS(MULTISELECTABLE);
    on[16] = HAS(HAS_POPUP);
#undef HAS

    size_t n = 0;
    for (size_t i = 0; i < AD_STATE_TOKEN_COUNT && n < cap; i++)
        if (on[i])
            out[n++] = STATE_TOKENS[i];
    return n;
}

bool ad_state_token_valid(const char *token)
{
    if (token == NULL)
        return false;
    for (size_t i = 0; i < AD_STATE_TOKEN_COUNT; i++)
        if (strcmp(token, STATE_TOKENS[i]) == 0)
            return true;
    return false;
}

/* ASCII case-insensitive equality; locale-free on purpose. */
static bool name_is(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char ca = (*a >= 'A' && *a <= 'Z') ? (char)(*a - 'A' + 'a') : *a;
        char cb = (*b >= 'A' && *b <= 'Z') ? (char)(*b - 'A' + 'a') : *b;
        if (ca != cb)
            return false;
    }
    return *a == *b;
}

typedef struct {
    const char *raw;       /* compared case-insensitively */
    const char *canonical; /* NULL: listed on purpose, not the element's own action */
} action_entry;

/* Undotted action names. Sources: GTK3 (ATK) widget accessibles, GTK4 gtkatspiaction.c, Qt's
 * QAccessibleActionInterface names, Chromium's and Firefox's default-action verbs. */
static const action_entry ACTIONS[] = {
    /* The primary "do it" action of buttons, menu items, check/radio buttons (GTK "click",
     * measured on GTK3 and GTK4), GTK3 combo boxes ("press", opens the list), Qt ("Press"),
     * Chromium/Firefox links ("jump"), pop-up buttons ("open") and tabs ("switch"). */
    {"click", "Click"},
    {"press", "Click"},
    {"jump", "Click"},
    {"open", "Click"},
    {"switch", "Click"},
    {"clickAncestor", "Click"},
    {"click-ancestor", "Click"},
    {"click ancestor", "Click"},
    /* "activate" is the only action of GtkExpander, GTK3 entry icons, icon-view items and
     * tree-view cells. On GtkEntry / GtkSpinButton it is the Enter key (measured on GTK3 text
     * and spin button, GTK4 entry): executors should not use it to "click" a textfield. */
    {"activate", "Click"},
    /* Toggles: GtkSwitch (GTK3 and GTK4), GTK3 boolean tree cells, Qt ("Toggle"). Chromium's
     * checkbox verb is "check" or "uncheck" by current state; either one flips it. */
    {"toggle", "Toggle"},
    {"check", "Toggle"},
    {"uncheck", "Toggle"},
    /* GTK3 tree-view cells (measured): one action that expands or collapses the row; it maps
     * to Expand and the caller offers Collapse through the same raw action. Firefox has the
     * separate pair. */
    {"expand or contract", "Expand"},
    {"expand", "Expand"},
    {"collapse", "Collapse"},
    /* GtkColorSwatch, Chromium and Firefox list options. */
    {"select", "Select"},
    /* Qt lists these on focusable widgets and on context-menu owners. */
    {"SetFocus", "SetFocus"},
    {"ShowMenu", "RightClick"},
    /* GTK 3.24 boolean (check-box) tree cells return their action *descriptions* from
     * GetName(i) for i >= 1 (measured), so the descriptions are names too. */
    {"Expands or contracts the row in the tree view containing this cell", "Expand"},
    {"Activates the cell", "Click"},
    {"Creates a widget in which the contents of the cell can be edited", NULL},
    /* Secondary actions with no canonical counterpart: GTK3 cells "edit", GtkScaleButton
     * "release", GtkColorSwatch "customize", GTK4 password "peek", GTK4 search "clear" (clear
     * uses SetValue), GTK4 entry icons, Qt value steps and scroll steps (Value and scrolling
     * have their own routes), Firefox "close", "cycle", "showlongdesc". */
    {"edit", NULL},
    {"release", NULL},
    {"customize", NULL},
    {"peek", NULL},
    {"clear", NULL},
    {"activate-primary-icon", NULL},
    {"activate-secondary-icon", NULL},
    {"Increase", NULL},
    {"Decrease", NULL},
};

const char *ad_atspi_action_canonical(const char *raw_name)
{
    if (raw_name == NULL || raw_name[0] == '\0')
        return NULL; /* GTK3 answers "" for an index out of range */

    const char *dot = strchr(raw_name, '.');
    if (dot != NULL) {
        /* GTK4 lists GAction names from the widget's action muxer ("group.action"). Most are
         * not the element's own action: window-level groups on frames (win.undo, window.close,
         * default.activate, app-defined groups such as cal.solve) and editing commands on
         * labels and text views (clipboard.copy, selection.select-all, text.undo, link.open,
         * list.select-all). They are ignored. Exceptions, each the widget's own class action:
         * - menu.popup (GtkText, GtkTextView, GtkLabel): opens the context menu -> RightClick.
         * - listitem.expand / listitem.collapse (GtkTreeExpander, measured on every gtk4-demo
         *   tree row): the row's disclosure. listitem.toggle-expand is left out so that Expand
         *   never resolves to an action that may collapse. Leaf rows list them too; a walker
         *   should keep them only when the node is EXPANDABLE, as for GTK3 cells. */
        if (name_is(raw_name, "menu.popup"))
            return "RightClick";
        if (name_is(raw_name, "listitem.expand"))
            return "Expand";
        if (name_is(raw_name, "listitem.collapse"))
            return "Collapse";
        return NULL;
    }

    for (size_t i = 0; i < sizeof ACTIONS / sizeof ACTIONS[0]; i++)
        if (name_is(raw_name, ACTIONS[i].raw))
            return ACTIONS[i].canonical;
    return NULL; /* an unknown name: not offered rather than guessed */
}

bool ad_atspi_extents_readable(int32_t x, int32_t y)
{
    return x != INT32_MIN && y != INT32_MIN;
}
