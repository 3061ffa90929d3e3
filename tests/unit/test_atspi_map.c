/* test_atspi_map.c: unit tests for src/linux/atspi_map.c (pure AT-SPI -> canonical mapping). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "linux/atspi_map.h"

/* spec/facts/roles.md, "Canonical role tokens". */
static const char *const CANONICAL_ROLES[] = {
    "alert", "alertdialog", "application", "article", "banner", "browser", "button", "cell",
    "checkbox", "colorwell", "column", "combobox", "complementary", "contentinfo", "datefield",
    "definition", "dialog", "disclosure", "dockitem", "document", "drawer", "form", "grid",
    "group", "handle", "heading", "helptag", "image", "incrementor", "layoutitem",
    "levelindicator", "link", "list", "listbox", "log", "main", "marquee", "matte", "math",
    "menu", "menubutton", "menuitem", "navigation", "note", "option", "outline", "paragraph",
    "popover", "progressbar", "radiobutton", "radiogroup", "region", "relevanceindicator",
    "row", "ruler", "rulermarker", "scrollarea", "scrollbar", "search", "separator", "sheet",
    "slider", "splitter", "statictext", "status", "switch", "tab", "tablist", "tabpanel",
    "table", "textfield", "term", "timefield", "timer", "toolbar", "tooltip", "treeitem",
    "webarea", "window", "unknown",
};

static bool is_canonical_role(const char *token)
{
    for (size_t i = 0; i < sizeof CANONICAL_ROLES / sizeof CANONICAL_ROLES[0]; i++)
        if (strcmp(token, CANONICAL_ROLES[i]) == 0)
            return true;
    return false;
}

/* AtspiRole numbers used below (at-spi2-core 2.46). */
enum {
    R_INVALID = 0, R_ALERT = 2, R_CHECK_BOX = 7, R_CHECK_MENU_ITEM = 8, R_COMBO_BOX = 11,
    R_DIALOG = 16, R_FILE_CHOOSER = 19, R_FILLER = 20, R_FRAME = 23, R_LABEL = 29, R_LIST = 31,
    R_LIST_ITEM = 32, R_MENU = 33, R_MENU_BAR = 34, R_MENU_ITEM = 35, R_PAGE_TAB = 37,
    R_PAGE_TAB_LIST = 38, R_PANEL = 39, R_PASSWORD_TEXT = 40, R_PUSH_BUTTON = 43,
    R_RADIO_BUTTON = 44, R_RADIO_MENU_ITEM = 45, R_SCROLL_PANE = 49, R_SLIDER = 51,
    R_SPIN_BUTTON = 52, R_TABLE = 55, R_TABLE_CELL = 56, R_TERMINAL = 60, R_TEXT = 61,
    R_TOGGLE_BUTTON = 62, R_TREE_TABLE = 66, R_WINDOW = 69, R_APPLICATION = 75, R_ENTRY = 79,
    R_DOCUMENT_FRAME = 82, R_HEADING = 83, R_LINK = 88, R_TREE_ITEM = 91, R_DOCUMENT_WEB = 95,
    R_LIST_BOX = 98, R_LEVEL_BAR = 103, R_STATIC = 116, R_PUSH_BUTTON_MENU = 129,
};

static ad_atspi_states states_of(const unsigned *nums, size_t n)
{
    ad_atspi_states s = {0, 0};
    for (size_t i = 0; i < n; i++) {
        if (nums[i] < 32)
            s.lo |= 1u << nums[i];
        else
            s.hi |= 1u << (nums[i] - 32);
    }
    return s;
}
#define STATES(...) \
    states_of((const unsigned[]){__VA_ARGS__}, sizeof((const unsigned[]){__VA_ARGS__}) / \
                                                   sizeof(unsigned))

/* A sensitive, showing GTK3 widget: ENABLED, SENSITIVE, SHOWING, VISIBLE (+ FOCUSABLE). */
#define GTK3_LIVE AD_ATSPI_STATE_ENABLED, AD_ATSPI_STATE_SENSITIVE, AD_ATSPI_STATE_SHOWING, \
                  AD_ATSPI_STATE_VISIBLE, 11u

/* Runs the mapping and joins the tokens with ',' for one-line comparisons. */
static const char *tokens(ad_atspi_states s, uint32_t role)
{
    static char buf[256];
    const char *out[AD_STATE_TOKEN_COUNT];
    size_t n = ad_atspi_states_canonical(s, role, out, AD_STATE_TOKEN_COUNT);
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        assert_true(ad_state_token_valid(out[i]));
        if (i)
            strcat(buf, ",");
        strcat(buf, out[i]);
    }
    return buf;
}

static void every_role_maps_to_a_canonical_token(void **state)
{
    (void)state;
    for (uint32_t r = 0; r < AD_ATSPI_ROLE_COUNT; r++) {
        const char *c = ad_atspi_role_canonical(r);
        assert_non_null(c);
        if (!is_canonical_role(c))
            fail_msg("role %u (%s) -> '%s' is not in roles.md", r, ad_atspi_role_name(r), c);
        assert_non_null(ad_atspi_role_name(r));
        assert_true(strlen(ad_atspi_role_name(r)) > 0);
    }
    assert_int_equal(AD_ATSPI_ROLE_COUNT, 130);
    assert_string_equal(ad_atspi_role_canonical(AD_ATSPI_ROLE_COUNT), "unknown");
    assert_string_equal(ad_atspi_role_canonical(UINT32_MAX), "unknown");
    assert_string_equal(ad_atspi_role_name(AD_ATSPI_ROLE_COUNT), "invalid");
    assert_string_equal(ad_atspi_role_name(UINT32_MAX), "invalid");
}

static void role_names_match_atspi(void **state)
{
    (void)state;
    assert_string_equal(ad_atspi_role_name(R_INVALID), "invalid");
    assert_string_equal(ad_atspi_role_name(R_PUSH_BUTTON), "push button");
    assert_string_equal(ad_atspi_role_name(R_PASSWORD_TEXT), "password text");
    assert_string_equal(ad_atspi_role_name(R_SCROLL_PANE), "scroll pane");
    assert_string_equal(ad_atspi_role_name(R_APPLICATION), "application");
    assert_string_equal(ad_atspi_role_name(R_LIST_BOX), "list box");
    assert_string_equal(ad_atspi_role_name(R_STATIC), "static");
    assert_string_equal(ad_atspi_role_name(R_PUSH_BUTTON_MENU), "push button menu");
}

static void explicit_role_examples(void **state)
{
    (void)state;
    static const struct {
        uint32_t role;
        const char *want;
    } cases[] = {
        {R_FRAME, "window"}, {R_WINDOW, "window"}, {R_PANEL, "group"}, {R_FILLER, "group"},
        {R_TEXT, "textfield"}, {R_ENTRY, "textfield"}, {R_PASSWORD_TEXT, "textfield"},
        {R_TERMINAL, "textfield"}, {R_PUSH_BUTTON, "button"}, {R_TOGGLE_BUTTON, "button"},
        {R_SCROLL_PANE, "scrollarea"}, {R_CHECK_BOX, "checkbox"},
        {R_CHECK_MENU_ITEM, "menuitem"}, {R_RADIO_MENU_ITEM, "menuitem"},
        {R_RADIO_BUTTON, "radiobutton"}, {R_COMBO_BOX, "combobox"},
        {R_SPIN_BUTTON, "incrementor"}, {R_SLIDER, "slider"}, {R_LIST, "list"},
        {R_LIST_BOX, "listbox"}, {R_LIST_ITEM, "option"}, {R_TABLE, "table"},
        {R_TREE_TABLE, "outline"}, {R_TABLE_CELL, "cell"}, {R_TREE_ITEM, "treeitem"},
        {R_MENU_BAR, "group"}, {R_MENU, "menu"}, {R_MENU_ITEM, "menuitem"},
        {R_PAGE_TAB, "tab"}, {R_PAGE_TAB_LIST, "tablist"}, {R_LABEL, "statictext"},
        {R_STATIC, "statictext"}, {R_HEADING, "heading"}, {R_LINK, "link"},
        {R_DIALOG, "dialog"}, {R_FILE_CHOOSER, "dialog"}, {R_ALERT, "alert"},
        {R_DOCUMENT_FRAME, "document"}, {R_DOCUMENT_WEB, "webarea"},
        {R_APPLICATION, "application"}, {R_LEVEL_BAR, "levelindicator"},
        {R_PUSH_BUTTON_MENU, "menubutton"}, {R_INVALID, "unknown"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(ad_atspi_role_canonical(cases[i].role), cases[i].want) != 0)
            fail_msg("role %u (%s): got '%s', want '%s'", cases[i].role,
                     ad_atspi_role_name(cases[i].role), ad_atspi_role_canonical(cases[i].role),
                     cases[i].want);
}

static void secure_role(void **state)
{
    (void)state;
    assert_true(ad_atspi_role_is_secure(R_PASSWORD_TEXT));
    assert_false(ad_atspi_role_is_secure(R_TEXT));
    assert_false(ad_atspi_role_is_secure(R_ENTRY));
    assert_false(ad_atspi_role_is_secure(AD_ATSPI_ROLE_COUNT + R_PASSWORD_TEXT));
}

static void state_bits(void **state)
{
    (void)state;
    ad_atspi_states s = STATES(0u, 31u, 32u, 63u);
    assert_true(ad_atspi_state_has(s, 0));
    assert_true(ad_atspi_state_has(s, 31));
    assert_true(ad_atspi_state_has(s, 32));
    assert_true(ad_atspi_state_has(s, 63));
    assert_false(ad_atspi_state_has(s, 1));
    assert_false(ad_atspi_state_has(s, 33));
    assert_false(ad_atspi_state_has((ad_atspi_states){UINT32_MAX, UINT32_MAX}, 64));
    assert_false(ad_atspi_state_has((ad_atspi_states){UINT32_MAX, UINT32_MAX}, 1000));
    assert_int_equal(s.lo, 0x80000001u);
    assert_int_equal(s.hi, 0x80000001u);
}

static void state_combinations(void **state)
{
    (void)state;
    /* An enabled, showing GTK3 button has no tokens. */
    assert_string_equal(tokens(STATES(GTK3_LIVE), R_PUSH_BUTTON), "");
    /* GTK3 insensitive: neither ENABLED nor SENSITIVE. */
    assert_string_equal(tokens(STATES(AD_ATSPI_STATE_SHOWING, AD_ATSPI_STATE_VISIBLE),
                               R_PUSH_BUTTON), "disabled");
    /* Either one alone is not disabled (GTK 4.8 never sets ENABLED; GTK3 drops it on an
     * inconsistent check box). */
    assert_string_equal(tokens(STATES(AD_ATSPI_STATE_SENSITIVE, AD_ATSPI_STATE_VISIBLE),
                               R_PUSH_BUTTON), "");
    assert_string_equal(tokens(STATES(AD_ATSPI_STATE_SENSITIVE, AD_ATSPI_STATE_SHOWING,
                                      AD_ATSPI_STATE_VISIBLE, AD_ATSPI_STATE_INDETERMINATE),
                               R_CHECK_BOX), "indeterminate");
    assert_string_equal(tokens(STATES(GTK3_LIVE, AD_ATSPI_STATE_CHECKED), R_CHECK_BOX),
                        "checked");
    /* An editable password entry: secure from the role, nothing else. */
    assert_string_equal(tokens(STATES(GTK3_LIVE, AD_ATSPI_STATE_EDITABLE), R_PASSWORD_TEXT),
                        "secure");
    /* GTK3 visible-not-showing (scrolled away, unmapped parent). */
    assert_string_equal(tokens(STATES(AD_ATSPI_STATE_ENABLED, AD_ATSPI_STATE_SENSITIVE,
                                      AD_ATSPI_STATE_VISIBLE), R_PUSH_BUTTON), "offscreen");
    /* Not VISIBLE at all: hidden, never also offscreen. */
    assert_string_equal(tokens(STATES(AD_ATSPI_STATE_ENABLED, AD_ATSPI_STATE_SENSITIVE),
                               R_MENU), "hidden");
    /* The application object has an empty state set: nothing to report. */
    assert_string_equal(tokens((ad_atspi_states){0, 0}, R_APPLICATION), "");
    /* The same empty set on a widget is disabled and hidden. */
    assert_string_equal(tokens((ad_atspi_states){0, 0}, R_PANEL), "disabled,hidden");
}

static void readonly_rules(void **state)
{
    (void)state;
    /* GTK3 non-editable text view: no EDITABLE -> readonly. */
    assert_string_equal(tokens(STATES(GTK3_LIVE), R_TEXT), "readonly");
    assert_string_equal(tokens(STATES(GTK3_LIVE, AD_ATSPI_STATE_EDITABLE), R_TEXT), "");
    assert_string_equal(tokens(STATES(GTK3_LIVE), R_ENTRY), "readonly");
    /* GTK4 / Chromium READ_ONLY on any role. */
    assert_string_equal(tokens(STATES(GTK3_LIVE, AD_ATSPI_STATE_READ_ONLY), R_COMBO_BOX),
                        "readonly");
    /* Not a text-entry role: no EDITABLE means nothing. */
    assert_string_equal(tokens(STATES(GTK3_LIVE), R_LABEL), "");
    /* Terminals take typing without EDITABLE. */
    assert_string_equal(tokens(STATES(GTK3_LIVE), R_TERMINAL), "");
}

static void all_tokens_in_fixed_order(void **state)
{
    (void)state;
    ad_atspi_states s = STATES(
        AD_ATSPI_STATE_FOCUSED, AD_ATSPI_STATE_EXPANDED, AD_ATSPI_STATE_CHECKED,
        AD_ATSPI_STATE_SELECTED, AD_ATSPI_STATE_BUSY, AD_ATSPI_STATE_MODAL,
        AD_ATSPI_STATE_REQUIRED, AD_ATSPI_STATE_INDETERMINATE, AD_ATSPI_STATE_PRESSED,
        AD_ATSPI_STATE_READ_ONLY, AD_ATSPI_STATE_INVALID_ENTRY, AD_ATSPI_STATE_MULTISELECTABLE,
        AD_ATSPI_STATE_HAS_POPUP, AD_ATSPI_STATE_INVALID);
    /* No ENABLED/SENSITIVE/VISIBLE: disabled and hidden; offscreen excluded by hidden. */
    assert_string_equal(tokens(s, R_PASSWORD_TEXT),
                        "focused,disabled,secure,expanded,checked,selected,hidden,busy,modal,"
                        "required,indeterminate,pressed,readonly,invalid,multiselectable,"
                        "haspopup");
    /* Capacity is honoured. */
    const char *out[3] = {NULL, NULL, NULL};
    assert_int_equal(ad_atspi_states_canonical(s, R_PASSWORD_TEXT, out, 2), 2);
    assert_string_equal(out[0], "focused");
    assert_string_equal(out[1], "disabled");
    assert_null(out[2]);
    assert_int_equal(ad_atspi_states_canonical(s, R_PASSWORD_TEXT, NULL, 0), 0);
    /* AT-SPI state 0 (INVALID) is not the `invalid` token. */
    assert_string_equal(tokens(STATES(GTK3_LIVE, AD_ATSPI_STATE_INVALID), R_ENTRY),
                        "readonly");
}

static void state_token_validity(void **state)
{
    (void)state;
    const char *all[] = {"focused", "disabled", "secure", "expanded", "checked", "selected",
                         "hidden", "busy", "modal", "required", "indeterminate", "pressed",
                         "readonly", "offscreen", "invalid", "multiselectable", "haspopup"};
    assert_int_equal(sizeof all / sizeof all[0], AD_STATE_TOKEN_COUNT);
    for (size_t i = 0; i < AD_STATE_TOKEN_COUNT; i++)
        assert_true(ad_state_token_valid(all[i]));
    assert_false(ad_state_token_valid(NULL));
    assert_false(ad_state_token_valid(""));
    assert_false(ad_state_token_valid("enabled"));
    assert_false(ad_state_token_valid("Focused"));
    assert_false(ad_state_token_valid("focused "));
    assert_false(ad_state_token_valid("visible"));
}

static void action_mapping(void **state)
{
    (void)state;
    static const struct {
        const char *raw, *want;
    } cases[] = {
        {"click", "Click"}, {"press", "Click"}, {"Press", "Click"}, {"activate", "Click"},
        {"jump", "Click"}, {"toggle", "Toggle"}, {"Toggle", "Toggle"}, {"check", "Toggle"},
        {"expand or contract", "Expand"}, {"expand", "Expand"}, {"collapse", "Collapse"},
        {"select", "Select"}, {"SetFocus", "SetFocus"}, {"ShowMenu", "RightClick"},
        {"menu.popup", "RightClick"}, {"listitem.expand", "Expand"},
        {"listitem.collapse", "Collapse"}, {"Activates the cell", "Click"},
        {"Expands or contracts the row in the tree view containing this cell", "Expand"},
        /* Not the element's own action, or no canonical counterpart. */
        {"win.undo", NULL}, {"window.close", NULL}, {"clipboard.copy", NULL},
        {"selection.select-all", NULL}, {"text.undo", NULL}, {"default.activate", NULL},
        {"link.open", NULL}, {"list.select-all", NULL}, {"cal.solve", NULL},
        {"listitem.toggle-expand", NULL}, {"edit", NULL}, {"release", NULL},
        {"customize", NULL}, {"peek", NULL}, {"clear", NULL},
        {"Creates a widget in which the contents of the cell can be edited", NULL},
        {"Increase", NULL}, {"no such action", NULL}, {"", NULL}, {"clicks", NULL},
        {"clic", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = ad_atspi_action_canonical(cases[i].raw);
        if (cases[i].want == NULL ? got != NULL : got == NULL || strcmp(got, cases[i].want))
            fail_msg("action '%s': got '%s', want '%s'", cases[i].raw, got ? got : "NULL",
                     cases[i].want ? cases[i].want : "NULL");
    }
    assert_null(ad_atspi_action_canonical(NULL));
}

/* GTK3's INT_MIN origin (gtk3-demo's scrolled-away "Pickers" row: INT_MIN,INT_MIN,186,21)
 * is unknown bounds; any real origin, negative ones on a left monitor too, is readable. */
static void int_min_extents_are_unreadable(void **state)
{
    (void)state;
    assert_false(ad_atspi_extents_readable(INT32_MIN, INT32_MIN));
    assert_false(ad_atspi_extents_readable(10, INT32_MIN));
    assert_false(ad_atspi_extents_readable(INT32_MIN, 10));
    assert_true(ad_atspi_extents_readable(0, 0));
    assert_true(ad_atspi_extents_readable(-1920, -5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_role_maps_to_a_canonical_token),
        cmocka_unit_test(role_names_match_atspi),
        cmocka_unit_test(explicit_role_examples),
        cmocka_unit_test(secure_role),
        cmocka_unit_test(state_bits),
        cmocka_unit_test(state_combinations),
        cmocka_unit_test(readonly_rules),
        cmocka_unit_test(all_tokens_in_fixed_order),
        cmocka_unit_test(state_token_validity),
        cmocka_unit_test(action_mapping),
        cmocka_unit_test(int_min_extents_are_unreadable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
