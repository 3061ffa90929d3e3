/* node.c: the element model shared by adapters and core. */
#include "core/node.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const state_tokens[AD_ST_COUNT] = {
    "focused", "disabled", "secure", "expanded", "checked", "selected", "hidden", "busy",
    "modal", "required", "indeterminate", "pressed", "readonly", "offscreen", "invalid",
    "multiselectable", "haspopup",
};

const char *ad_state_token(unsigned bit)
{
    return bit < AD_ST_COUNT ? state_tokens[bit] : NULL;
}

int ad_state_bit(const char *token)
{
    for (int i = 0; i < AD_ST_COUNT; i++)
        if (strcmp(state_tokens[i], token) == 0)
            return i;
    return -1;
}

ad_node *ad_node_new(void)
{
    ad_node *n = calloc(1, sizeof(*n));
    if (n) {
        n->role = "unknown";
        n->live_child_count = -1;
    }
    return n;
}

int ad_node_add_child(ad_node *parent, ad_node *child)
{
    if (parent->n_children == parent->cap_children) {
        size_t cap = parent->cap_children ? parent->cap_children * 2 : 4;
        ad_node **c = realloc(parent->children, cap * sizeof(*c));
        if (!c)
            return -1;
        parent->children = c;
        parent->cap_children = cap;
    }
    child->parent = parent;
    child->index_in_parent = parent->n_children;
    parent->children[parent->n_children++] = child;
    return 0;
}

static void text_free(ad_text *t)
{
    free(t->text);
    t->text = NULL;
}

void ad_node_free(ad_node *node)
{
    if (!node)
        return;
    /* Iterative over the spine would be safer for huge depths; the walk caps raw depth at 50
     * so recursion is bounded. */
    for (size_t i = 0; i < node->n_children; i++)
        ad_node_free(node->children[i]);
    free(node->children);
    text_free(&node->name);
    text_free(&node->value);
    text_free(&node->description);
    text_free(&node->native_id);
    free(node->toolkit_class);
    for (size_t i = 0; i < node->n_actions; i++)
        free(node->actions[i]);
    free(node->actions);
    free(node->address);
    free(node);
}

void ad_text_set(ad_text *t, const char *s)
{
    free(t->text);
    t->text = NULL;
    if (s && *s) {
        t->text = strdup(s);
        t->state = t->text ? AD_FIELD_KNOWN : AD_FIELD_UNKNOWN;
    } else {
        t->state = AD_FIELD_ABSENT;
    }
}

bool ad_toolkit_class_name(const char *s)
{
    static const char *const prefixes[] = {"Gtk", "Gdk", "Gsk", "Adw", "Hdy", "Q", NULL};
    if (!s)
        return false;
    for (size_t i = 0; prefixes[i]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(s, prefixes[i], n) != 0 || !isupper((unsigned char)s[n]))
            continue;
        bool lower = false;
        const char *p = s + n;
        for (; *p && isalnum((unsigned char)*p); p++)
            lower |= islower((unsigned char)*p) != 0;
        return !*p && lower;
    }
    return false;
}

void ad_node_set_name(ad_node *n, const char *s)
{
    bool cls = ad_toolkit_class_name(s);
    free(n->toolkit_class);
    n->toolkit_class = cls ? strdup(s) : NULL;
    ad_text_set(&n->name, cls ? NULL : s);
    if (cls && !n->toolkit_class)
        n->name.state = AD_FIELD_UNKNOWN; /* out of memory: the identity is not known */
}

void ad_text_unknown(ad_text *t)
{
    free(t->text);
    t->text = NULL;
    t->state = AD_FIELD_UNKNOWN;
}

bool ad_node_has_action(const ad_node *n, const char *name)
{
    for (size_t i = 0; i < n->n_actions; i++)
        if (strcmp(n->actions[i], name) == 0)
            return true;
    return false;
}

int ad_node_add_action(ad_node *n, const char *name)
{
    if (ad_node_has_action(n, name))
        return 0;
    char **a = realloc(n->actions, (n->n_actions + 1) * sizeof(*a));
    if (!a)
        return -1;
    n->actions = a;
    n->actions[n->n_actions] = strdup(name);
    if (!n->actions[n->n_actions])
        return -1;
    n->n_actions++;
    n->actions_state = AD_FIELD_KNOWN;
    return 0;
}

size_t ad_node_path(const ad_node *n, size_t *out, size_t cap)
{
    size_t depth = 0;
    for (const ad_node *p = n; p->parent; p = p->parent)
        depth++;
    if (depth > cap)
        return depth;
    size_t i = depth;
    for (const ad_node *p = n; p->parent; p = p->parent)
        out[--i] = p->index_in_parent;
    return depth;
}

size_t ad_node_count(const ad_node *n)
{
    size_t c = 1;
    for (size_t i = 0; i < n->n_children; i++)
        c += ad_node_count(n->children[i]);
    return c;
}

static const char *const interactive_roles[] = {
    "button", "cell", "checkbox", "colorwell", "combobox", "dockitem", "incrementor",
    "link", "listbox", "menubutton", "menuitem", "option", "radiobutton", "slider", "switch",
    "tab", "textfield", "treeitem", NULL,
};

bool ad_role_interactive(const char *role)
{
    for (size_t i = 0; interactive_roles[i]; i++)
        if (strcmp(role, interactive_roles[i]) == 0)
            return true;
    return false;
}

bool ad_node_checkable(const ad_node *n)
{
    return strcmp(n->role, "checkbox") == 0 || strcmp(n->role, "switch") == 0 ||
           strcmp(n->role, "radiobutton") == 0 || (n->caps & AD_CAP_CHECKABLE);
}

int ad_node_checked(const ad_node *n)
{
    if (n->states_state != AD_FIELD_KNOWN || n->checked_unreported)
        return -1;
    return (n->states & (1u << AD_ST_CHECKED)) != 0;
}

bool ad_node_has_primary_action(const ad_node *n)
{
    for (size_t i = 0; i < n->n_actions; i++) {
        const char *a = n->actions[i];
        if (strcmp(a, "SetFocus") && strcmp(a, "RightClick") && strcmp(a, "ScrollTo"))
            return true;
    }
    return false;
}

bool ad_node_refable(const ad_node *n)
{
    return ad_role_interactive(n->role) || ad_node_has_primary_action(n);
}

bool ad_contains_ci(const char *hay, const char *needle)
{
    if (!hay)
        return false;
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return true;
    return n == 0;
}

bool ad_node_has_text(const ad_node *n, const char *text)
{
    return ad_contains_ci(ad_text_get(&n->name), text) ||
           (!n->secure && ad_contains_ci(ad_text_get(&n->value), text)) ||
           ad_contains_ci(ad_text_get(&n->description), text);
}

/* The only named node under n: *found counts the named ones seen (stops at two). */
static const ad_node *only_named(const ad_node *n, int *found)
{
    const ad_node *hit = NULL;
    for (size_t i = 0; i < n->n_children && *found < 2; i++) {
        const ad_node *c = n->children[i];
        const char *name = ad_text_get(&c->name);
        if (name && *name) {
            (*found)++;
            hit = c;
        } else {
            const ad_node *below = only_named(c, found);
            if (below)
                hit = below;
        }
    }
    return *found == 1 ? hit : NULL;
}

const char *ad_node_display_text(const ad_node *n)
{
    const char *name = ad_text_get(&n->name);
    if (name && *name)
        return name;
    int found = 0;
    const ad_node *label = only_named(n, &found);
    return label ? ad_text_get(&label->name) : NULL;
}

bool ad_option_role(const ad_node *n)
{
    return strcmp(n->role, "option") == 0 || strcmp(n->role, "menuitem") == 0;
}
