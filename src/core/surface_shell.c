/* surface_shell.c: OS shell surfaces (surface_shell.h). */
#include "core/surface_shell.h"

#include <stdio.h>
#include <string.h>

#include "core/trace_event.h"

/* surfaces.md, "Surface kinds": the app group, then the OS shell group. */
static const char *const APP_KINDS[] = {"window", "focused", "menu", "menubar", "sheet",
                                        "popover", "alert"};
static const char *const SHELL_KINDS[] = {
    "desktop", "taskbar", "system-tray", "system-tray-overflow", "quick-settings",
    "notification-center", "toolbar", "dock", "spotlight", "menu-bar-extras", "start-menu",
    "action-center"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
/* How often a read of the shell checks that a clicked surface opened. */
#define OPEN_POLL_MS 100
#define MAX_SHELL_KINDS 16

static bool same_kind(const char *spelled, const char *kind)
{
    for (; *spelled && *kind; spelled++, kind++)
        if (*spelled != *kind && !(*spelled == '_' && *kind == '-'))
            return false;
    return !*spelled && !*kind;
}

const char *ad_surface_kind_canonical(const char *kind)
{
    for (size_t i = 0; kind && i < COUNT(APP_KINDS); i++)
        if (same_kind(kind, APP_KINDS[i]))
            return APP_KINDS[i];
    for (size_t i = 0; kind && i < COUNT(SHELL_KINDS); i++)
        if (same_kind(kind, SHELL_KINDS[i]))
            return SHELL_KINDS[i];
    return NULL;
}

bool ad_surface_is_shell_kind(const char *kind)
{
    const char *k = ad_surface_kind_canonical(kind);
    for (size_t i = 0; k && i < COUNT(SHELL_KINDS); i++)
        if (k == SHELL_KINDS[i])
            return true;
    return false;
}

/* The shell kinds the session resolves now (static strings); returns how many. */
static size_t shell_kinds(ad_ctx *ctx, int64_t deadline_us, const char **ret)
{
    if (!ctx->adapter->ops->shell_surface_kinds)
        return 0;
    return ctx->adapter->ops->shell_surface_kinds(ctx->adapter, deadline_us, ret,
                                                  MAX_SHELL_KINDS);
}

json_t *ad_surface_supported_json(ad_ctx *ctx, int64_t deadline_us)
{
    json_t *list = json_array();
    const char *const *app = ctx->adapter->ops->supported_surfaces(ctx->adapter);
    for (; app && *app; app++)
        json_array_append_new(list, json_string(*app));
    const char *shell[MAX_SHELL_KINDS];
    size_t n = shell_kinds(ctx, deadline_us, shell);
    for (size_t i = 0; i < n; i++)
        json_array_append_new(list, json_string(shell[i]));
    return list;
}

int ad_surface_unsupported(ad_ctx *ctx, const char *kind, int64_t deadline_us, ad_error *err)
{
    ad_error_clear(err);
    ad_error_set(err, AD_INVALID_ARGS, "--surface %s is not a surface this session has", kind);
    ad_error_suggest(err, "Use one of the kinds in status supported_surfaces");
    ad_error_detail(err, "supported_surfaces", ad_surface_supported_json(ctx, deadline_us));
    ad_error_detail(err, "requested_surface", json_string(kind));
    return -1;
}

/* True when the session resolves the shell kind now. */
static bool offered(ad_ctx *ctx, const char *kind, int64_t deadline_us)
{
    const char *shell[MAX_SHELL_KINDS];
    size_t n = shell_kinds(ctx, deadline_us, shell);
    for (size_t i = 0; i < n; i++)
        if (strcmp(shell[i], kind) == 0)
            return true;
    return false;
}

/* The shell surface `kind` as the adapter finds it; INVALID_ARGS (with the session's kinds)
 * when the session has none, so every door answers a missing kind alike. */
static int find_shell(ad_ctx *ctx, const char *kind, int64_t deadline_us,
                      ad_shell_surface *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    if (!offered(ctx, kind, deadline_us))
        return ad_surface_unsupported(ctx, kind, deadline_us, err);
    return ctx->adapter->ops->shell_surface(ctx->adapter, kind, deadline_us, ret, err);
}

static int closed_error(const char *kind, ad_error *err)
{
    ad_error_set(err, AD_WINDOW_NOT_FOUND, "The %s surface is not open", kind);
    ad_error_suggest(err, "Open it with agent-desktop --headed open-system-surface --surface "
                          "%s, then read it again", kind);
    ad_error_detail(err, "kind", json_string("surface_absent"));
    ad_error_detail(err, "surface", json_string(kind));
    return -1;
}

int ad_surface_read_shell(ad_ctx *ctx, const char *kind, const ad_read_limits *lim,
                          ad_surface *ret, ad_error *err)
{
    memset(ret, 0, sizeof(*ret));
    ad_shell_surface s;
    int64_t select_deadline = lim->select_floor_us > lim->deadline_us ? lim->select_floor_us
                                                                      : lim->deadline_us;
    if (find_shell(ctx, kind, select_deadline, &s, err) < 0)
        return -1;
    if (!s.open) {
        ad_shell_surface_clear(&s);
        return closed_error(kind, err);
    }
    ret->kind = kind;
    ret->window = s.window;
    memset(&s.window, 0, sizeof(s.window));
    ad_shell_surface_clear(&s);
    if (ctx->adapter->ops->read_window(ctx->adapter, ret->window.id, lim, &ret->tree, err) < 0) {
        ad_surface_clear(ret);
        return -1;
    }
    ret->root = ret->tree.root;
    return 0;
}

/* The usable kinds in a suggestion: "Use --surface action-center: agent-desktop --headed
 * open-system-surface --surface action-center". */
static int not_openable(ad_ctx *ctx, const char *kind, int64_t deadline_us, ad_error *err)
{
    ad_surface_unsupported(ctx, kind, deadline_us, err);
    const char *shell[MAX_SHELL_KINDS];
    size_t n = shell_kinds(ctx, deadline_us, shell);
    if (n == 0) {
        ad_error_suggest(err, "This session has no shell surface to open (no GNOME Shell); "
                              "read app menus with snapshot --surface menu");
        return -1;
    }
    char list[256] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
                 shell[i]);
    ad_error_suggest(err, "Use --surface %s: agent-desktop --headed open-system-surface "
                          "--surface %s (this session opens: %s)", shell[0], shell[0], list);
    return -1;
}

/* Waits until a read of the shell shows `kind` open; 1 open (window in *ret), 0 not by
 * deadline_us, -1 err. */
static int wait_open(ad_ctx *ctx, const char *kind, int64_t deadline_us, ad_window *ret,
                     ad_error *err)
{
    for (;;) {
        ad_shell_surface s;
        if (ctx->adapter->ops->shell_surface(ctx->adapter, kind, deadline_us, &s, err) < 0)
            return -1;
        if (s.open) {
            *ret = s.window;
            memset(&s.window, 0, sizeof(s.window));
            ad_shell_surface_clear(&s);
            return 1;
        }
        ad_shell_surface_clear(&s);
        if (ad_now_us() >= deadline_us)
            return 0;
        ad_wait_next_poll(ctx, OPEN_POLL_MS, deadline_us);
    }
}

int ad_surface_open_shell(ad_ctx *ctx, const char *kind, bool headed, int64_t deadline_us,
                          ad_window *ret_window, bool *ret_already_open, ad_error *err)
{
    memset(ret_window, 0, sizeof(*ret_window));
    *ret_already_open = false;
    const char *k = ad_surface_kind_canonical(kind);
    ad_shell_surface s;
    if (!k || !ad_surface_is_shell_kind(k) || !ctx->adapter->ops->shell_surface ||
        !offered(ctx, k, deadline_us))
        return not_openable(ctx, kind, deadline_us, err);
    if (!headed) {
        ad_error_set(err, AD_POLICY_DENIED, "open-system-surface takes the foreground and is "
                                            "disabled in headless mode");
        ad_error_suggest(err, "Pass --headed: agent-desktop --headed open-system-surface "
                              "--surface %s", k);
        return -1;
    }
    if (ctx->adapter->ops->shell_surface(ctx->adapter, k, deadline_us, &s, err) < 0)
        return -1;
    if (s.open) { /* already present: returned without being raised again */
        *ret_window = s.window;
        memset(&s.window, 0, sizeof(s.window));
        ad_shell_surface_clear(&s);
        *ret_already_open = true;
        ad_trace_event(ctx, "shell.surface.present", json_pack("{s:s}", "surface", k));
        return 0;
    }
    if (!s.opener_known) {
        ad_shell_surface_clear(&s);
        ad_error_set(err, AD_ACTION_NOT_SUPPORTED, "The %s surface is closed and nothing on "
                                                   "screen opens it", k);
        return -1;
    }
    /* gnome-shell offers no action on the button (gnome_shell.h), so it takes a click. The
     * shell draws its own bar above every window and has no X window of its own to hit-test,
     * so the point goes unverified; what the click did is read back from the shell's tree. */
    ad_phys_req req = {.kind = AD_PHYS_CLICK, .x = s.opener_x, .y = s.opener_y, .button = 1,
                       .count = 1};
    ad_shell_surface_clear(&s);
    ad_act_result res = {0};
    if (ctx->adapter->ops->watch_changes)
        ctx->adapter->ops->watch_changes(ctx->adapter, NULL, deadline_us);
    if (ctx->adapter->ops->physical(ctx->adapter, &req, deadline_us, &res, err) < 0)
        return -1;
    ad_ctx_note_delivery(ctx, AD_DELIVERED_UNVERIFIED);
    ad_trace_event(ctx, "shell.surface.click",
                   json_pack("{s:s, s:i, s:i}", "surface", k, "x", req.x, "y", req.y));
    int open = wait_open(ctx, k, deadline_us, ret_window, err);
    if (open < 0)
        return -1;
    if (open == 0) {
        ad_error_set(err, AD_ACTION_FAILED, "Clicked the opener of %s, but the shell did not "
                                            "show it", k);
        ad_error_suggest(err, "Read it with agent-desktop snapshot --surface %s before "
                              "trying again", k);
        err->delivery = AD_DELIVERED_UNVERIFIED;
        return -1;
    }
    return 0;
}
