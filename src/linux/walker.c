/* walker.c: the pipelined AT-SPI tree read (walker.h explains the strategy). */
#include "linux/walker.h"

#include <stdlib.h>
#include <string.h>

#include "linux/atspi_apps.h"
#include "linux/atspi_bus.h"
#include "linux/atspi_map.h"
#include "linux/atspi_read.h"
#include "linux/dbus_pipe.h"
#include "linux/walker_cache.h"
#include "linux/walker_node.h"

/* How many calls a walk keeps in flight. Not 8-16 (enough to keep an idle app busy) but
 * effectively "everything that is ready", because of how GTK 4 serves AT-SPI:
 *
 * GTK 4.8 answers every AT-SPI call from its main loop (GDBus queues each incoming call as a
 * G_PRIORITY_DEFAULT source). A window that animates keeps the frame clock running, and each
 * frame is one long main-loop dispatch; the calls that arrived before a frame are answered
 * together, the ones sent in reply to those wait for the next frame. Measured on
 * gtk4-widget-factory 4.8.3 (page 1 spins a GtkSpinner and pulses a progress bar and an entry;
 * GL rendering on llvmpipe, ~40-100 ms a frame on the 2-core machines): all 4163 calls of a
 * read are answered, none fails slowly (the only errors are 80 immediate Action.GetName
 * refusals and 10 Selection.GetSelectedChild NotSupported), but every call waits ~35-100 ms
 * whatever its member or node, and the replies come in bursts of exactly the in-flight depth,
 * one burst per frame. 16 in flight read its 948 nodes in 6.8-24 s; the same read of the
 * minimized (not drawing) window takes ~0.35 s. With 1024 in flight a read costs about one
 * frame per dependent round trip (~15 for that app, ~1 s) and gives the identical tree. An
 * idle app (gtk4-demo, gtk3-widget-factory, gnome-calculator) reads as fast as with 16: it
 * simply answers the queued calls back to back. 1024 calls are about one frame's worth of
 * work for GTK 4 (~50 us each); a larger tree still queues the rest here. */
#define IN_FLIGHT 1024

uint32_t ad_atspi_interface_bit(const char *name)
{
    static const struct { const char *name; uint32_t bit; } map[] = {
        {ATSPI_IFACE_ACCESSIBLE, AD_IF_ACCESSIBLE}, {ATSPI_IFACE_COMPONENT, AD_IF_COMPONENT},
        {ATSPI_IFACE_ACTION, AD_IF_ACTION}, {ATSPI_IFACE_TEXT, AD_IF_TEXT},
        {"org.a11y.atspi.EditableText", AD_IF_EDITABLE_TEXT}, {ATSPI_IFACE_VALUE, AD_IF_VALUE},
        {"org.a11y.atspi.Selection", AD_IF_SELECTION},
    };
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(name, map[i].name) == 0)
            return map[i].bit;
    return 0;
}

/* ---- calls ------------------------------------------------------------------------------ */

void ad_walker_call(wnode *wn, const char *iface, const char *member, const ad_pipe_args *args,
                    ad_pipe_fn fn)
{
    walker *w = wn->w;
    if (w->stopping)
        return;
    wn->outstanding++;
    if (ad_pipe_call(ad_walker_pipe(wn), wn->bus, wn->path, iface, member, args, fn, wn) < 0) {
        wn->outstanding--;
        ad_walker_mark_cut(w, "allocation");
    }
}

void ad_walker_get_prop(wnode *wn, const char *iface, const char *prop, ad_pipe_fn fn)
{
    ad_pipe_args a = {.sig = "ss", .s = {iface, prop}};
    ad_walker_call(wn, DBUS_IFACE_PROPERTIES, "Get", &a, fn);
}

void ad_walker_done(wnode *wn)
{
    wn->outstanding--;
}

bool ad_walker_no_such_property(const sd_bus_error *e)
{
    return e && e->name &&
           (strcmp(e->name, "org.freedesktop.DBus.Error.UnknownProperty") == 0 ||
            strcmp(e->name, "org.freedesktop.DBus.Error.InvalidArgs") == 0 ||
            strcmp(e->name, "org.freedesktop.DBus.Error.UnknownMethod") == 0);
}

/* ---- work held back until the pipe has room ----------------------------------------------- */

/* What a node still has to ask, in the order it became due (refill). */
enum { WORK_READ, WORK_CHILDREN, WORK_EXTRAS };
struct walker_work {
    walker_work *next;
    wnode *wn;
    int kind;
};

static void issue_child(wnode *wn);
static void read_live(wnode *wn);

/* Asks what the work calls for; for children, the next one, or every one left when `all`. */
static void do_work(wnode *wn, int kind, bool all)
{
    if (kind == WORK_READ)
        read_live(wn);
    else if (kind == WORK_EXTRAS)
        ad_walker_request_extras(wn, wn->extras_need_id);
    else
        do
            issue_child(wn);
        while (all && wn->enum_next < wn->enum_end);
}

/* Appends the work; when that cannot be allocated, does it now (as every call was issued
 * before the queue existed). */
static void defer(wnode *wn, int kind)
{
    walker *w = wn->w;
    walker_work *k = malloc(sizeof(*k));
    if (!k) {
        do_work(wn, kind, true);
        return;
    }
    *k = (walker_work){NULL, wn, kind};
    if (w->work_tail)
        w->work_tail->next = k;
    else
        w->work_head = k;
    w->work_tail = k;
}

static void queue_extras(wnode *wn, bool need_id)
{
    wn->extras_need_id = need_id;
    defer(wn, WORK_EXTRAS);
}

/* The pipe's refill (ad_pipe_set_refill): does the first held-back work, false when none is
 * held. Children go out one per refill, their work staying first until the last one is
 * asked, so the children of one node go out together, in index order. */
static bool refill(void *walker_ud)
{
    walker *w = walker_ud;
    walker_work *k = w->work_head;
    if (!k)
        return false;
    wnode *wn = k->wn;
    int kind = k->kind;
    /* Taken off the queue first: the work may queue more behind it. */
    if (kind != WORK_CHILDREN || wn->enum_next + 1 >= wn->enum_end) {
        w->work_head = k->next;
        if (!w->work_head)
            w->work_tail = NULL;
        free(k);
    }
    do_work(wn, kind, false);
    return true;
}

/* After the deadline or a failed bus: the work still held is asked into the held pipe, whose
 * teardown cancels it, so every unread field becomes unknown and every unasked child a pruned
 * placeholder exactly as for a call cut in flight (never absent). */
static void cancel_held_work(walker *w)
{
    ad_pipe_hold(w->pipe);
    while (refill(w))
        ;
}

/* ---- children --------------------------------------------------------------------------- */

typedef struct {
    wnode *parent;
    ad_node *child;
} child_req;

static void on_child_at_index(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    child_req *cr = ud;
    wnode *parent = cr->parent;
    const char *bus = NULL, *path = NULL;
    if (m && sd_bus_message_read(m, "(so)", &bus, &path) >= 0 && bus && path && *bus)
        ad_walker_visit(parent->w, cr->child, bus, path, parent->depth + 1);
    /* else: the placeholder keeps no address and is pruned; the parent is marked cut. */
    free(cr);
    ad_walker_done(parent);
}

/* Asks the parent's child at enum_next for the placeholder made for it. */
static void issue_child(wnode *wn)
{
    long i = wn->enum_next++;
    child_req *cr = malloc(sizeof(*cr));
    if (!cr)
        return; /* the placeholder keeps no address and is pruned; the parent is marked cut */
    *cr = (child_req){wn, wn->node->children[i]};
    ad_pipe_args a = {.sig = "i", .i = {(int32_t)i}};
    wn->outstanding++;
    if (ad_pipe_call(ad_walker_pipe(wn), wn->bus, wn->path, ATSPI_IFACE_ACCESSIBLE,
                     "GetChildAtIndex", &a, on_child_at_index, cr) < 0) {
        wn->outstanding--;
        free(cr);
    }
}

/* Creates `count` placeholders; each child is asked by index as the pipe has room. */
static void enumerate_live(wnode *wn, long count)
{
    long n = wn->w->stopping ? 0 : ad_walker_admit_children(wn, count);
    if (wn->w->stopping && count > 0)
        wn->node->children_cut = true;
    long made = 0;
    for (; made < n; made++) {
        ad_node *child = ad_node_new();
        if (!child || ad_node_add_child(wn->node, child) < 0) {
            ad_node_free(child);
            wn->node->children_cut = true;
            ad_walker_mark_cut(wn->w, "allocation");
            break;
        }
    }
    wn->enum_next = 0;
    wn->enum_end = made;
    if (made > 0)
        defer(wn, WORK_CHILDREN);
}

static void on_child_count(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    int32_t n;
    if (m && sd_bus_message_read(m, "v", "i", &n) >= 0) {
        wn->node->live_child_count = n;
        enumerate_live(wn, n);
    } else {
        wn->node->children_cut = true;
        ad_walker_mark_cut(wn->w, "read_failed");
    }
    ad_walker_done(wn);
}

static void children_from_cache(wnode *wn, const ad_item_cache *cache, const ad_cache_item *it)
{
    walker *w = wn->w;
    const ad_cache_item *kids[4096];
    long n = ad_item_cache_children(cache, it, kids, 4096);
    if (n < 0) {
        /* Links do not add up (hidden GtkStack pages, uncached menu items): read live. */
        ad_walker_get_prop(wn, ATSPI_IFACE_ACCESSIBLE, "ChildCount", on_child_count);
        return;
    }
    wn->node->live_child_count = n;
    long admitted = ad_walker_admit_children(wn, n);
    for (long i = 0; i < admitted; i++) {
        ad_node *child = ad_node_new();
        if (!child || ad_node_add_child(wn->node, child) < 0) {
            ad_node_free(child);
            wn->node->children_cut = true;
            return;
        }
        ad_walker_visit(w, child, w->app_bus, kids[i]->path, wn->depth + 1);
    }
}

/* ---- uncached nodes --------------------------------------------------------------------- */

static void base_done(wnode *wn)
{
    if (--wn->base_pending == 0) {
        ad_walker_apply_role_states(wn);
        queue_extras(wn, false);
    }
    ad_walker_done(wn);
}

static void on_role(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    uint32_t role;
    if (m && sd_bus_message_read(m, "u", &role) >= 0) {
        wn->role = role;
        wn->have_role = true;
    }
    base_done(wn);
}

static void on_state(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    if (m && ad_atspi_read_state_set(m, &wn->states) >= 0)
        wn->have_states = true;
    base_done(wn);
}

static void on_interfaces(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    const char *s;
    if (m && sd_bus_message_enter_container(m, 'a', "s") >= 0) {
        while (sd_bus_message_read(m, "s", &s) > 0)
            wn->ifaces |= ad_atspi_interface_bit(s);
    }
    base_done(wn);
}

static void on_get_all(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    wnode *wn = ud;
    ad_node *n = wn->node;
    long child_count = -1;
    if (m && ad_walker_read_accessible_props(wn, m, &child_count) >= 0) {
        n->live_child_count = child_count;
        if (child_count >= 0)
            enumerate_live(wn, child_count);
        else
            n->children_cut = true;
    } else {
        ad_text_unknown(&n->name);
        ad_text_unknown(&n->description);
        ad_text_unknown(&n->native_id);
        n->children_cut = true;
        ad_walker_mark_cut(wn->w, "read_failed");
    }
    base_done(wn);
}

/* One property per call, for bridges that cannot take GetAll (see ad_walker_read_node). */
static void on_prop_text(sd_bus_message *m, const sd_bus_error *e, ad_text *t, wnode *wn)
{
    const char *s;
    if (m && sd_bus_message_read(m, "v", "s", &s) >= 0) {
        if (t == &wn->node->name)
            ad_walker_set_name(wn->w, wn->node, s);
        else
            ad_walker_set_text(wn->w, t, s);
    } else if (!ad_walker_no_such_property(e))
        ad_text_unknown(t);
}

static void on_prop_name(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    on_prop_text(m, e, &((wnode *)ud)->node->name, ud);
    base_done(ud);
}

static void on_prop_description(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    on_prop_text(m, e, &((wnode *)ud)->node->description, ud);
    ad_walker_done(ud);
}

void ad_walker_read_node(wnode *wn)
{
    walker *w = wn->w;
    bool ours = strcmp(wn->bus, w->app_bus) == 0;
    const ad_item_cache *cache = w->cache;
    const ad_cache_item *it = ours ? ad_item_cache_get(cache, wn->path) : NULL;
    if (!it && ours && (it = ad_item_cache_get(w->announced, wn->path)))
        cache = w->announced; /* its children, if any are announced yet, are there too */
    if (it) {
        wn->role = it->role;
        wn->have_role = true;
        wn->states = it->states;
        wn->have_states = true;
        wn->ifaces = it->ifaces;
        ad_walker_set_name(w, wn->node, it->name);
        ad_walker_set_text(w, &wn->node->description, it->description);
        ad_walker_apply_role_states(wn);
        /* The id is the one field GetItems lacks that no other call brings: asked here,
         * after the walk (ad_walker_request_needed_ids), or never. */
        bool id_later = !w->no_native_ids && w->lim->native_id_needed;
        if (id_later) {
            ad_text_unknown(&wn->node->native_id);
            wn->node->native_id_unread = true;
        }
        queue_extras(wn, !w->no_native_ids && !id_later);
        children_from_cache(wn, cache, it);
        return;
    }
    /* Its calls wait for room in the pipe; the cached nodes above are read at once, so a
     * cached tree is still visited depth first (what a node limit keeps). */
    defer(wn, WORK_READ);
}

/* The calls of a node the cache does not hold. */
static void read_live(wnode *wn)
{
    walker *w = wn->w;
    /* Role, states, interfaces and the name: the extras wait for all four, because whether
     * a text element's text is read as its value depends on its name (walker_extras.c). They
     * used to go out before the name came back, so a live-read label (a cold GTK 4 app, a
     * GTK 3 subtree whose cached links do not add up) showed its name again as its value
     * while a cached one did not: the first snapshot of a fresh gtk4-demo differed from the
     * second in 124 labels, and `snapshot --since` the first reported them all changed. */
    wn->base_pending = 4;
    ad_walker_call(wn, ATSPI_IFACE_ACCESSIBLE, "GetRole", NULL, on_role);
    ad_walker_call(wn, ATSPI_IFACE_ACCESSIBLE, "GetState", NULL, on_state);
    ad_walker_call(wn, ATSPI_IFACE_ACCESSIBLE, "GetInterfaces", NULL, on_interfaces);
    if (w->no_get_all && strcmp(wn->bus, w->app_bus) == 0) {
        /* Qt 5.15's bridge (atspiadaptor) crashes the whole application on any
         * Properties.GetAll (seen with PyQt5 5.15.9 / Qt 5.15.8: SIGSEGV, the caller gets
         * NoReply), so its fields are read one Get at a time. Qt 5 has no AccessibleId
         * property: native_id stays absent. */
        ad_walker_get_prop(wn, ATSPI_IFACE_ACCESSIBLE, "Name", on_prop_name);
        ad_walker_get_prop(wn, ATSPI_IFACE_ACCESSIBLE, "Description", on_prop_description);
        ad_walker_get_prop(wn, ATSPI_IFACE_ACCESSIBLE, "ChildCount", on_child_count);
        return;
    }
    ad_pipe_args a = {.sig = "s", .s = {ATSPI_IFACE_ACCESSIBLE}};
    ad_walker_call(wn, DBUS_IFACE_PROPERTIES, "GetAll", &a, on_get_all);
}

/* ---- GTK 4: the accessibles it builds as the read asks for them -------------------------- */

static int on_add_accessible(sd_bus_message *m, void *ud, sd_bus_error *ret_error)
{
    (void)ret_error;
    walker *w = ud;
    ad_item_cache_add_announced(w->announced, m, w->app_bus);
    return 0;
}

/* GTK 4 (4.8) builds an element's accessible only when a client first asks for it, so the
 * first read of a fresh window finds few items in GetItems and reads the rest live: five
 * calls per node (GetChildAtIndex, GetRole, GetState, GetInterfaces, GetAll). Building each
 * one, GTK sends it in a Cache.AddAccessible signal before it answers the GetChildAtIndex
 * that caused it; the bus daemon keeps one sender's messages in order, so by the time the
 * reply is processed the item is here, and the node is read like a cached one: the same
 * item, from the same app, a moment later than GetItems would have given it. Measured on a
 * fresh gtk4-demo (bench/bench-gtk4-cold.sh): see that script. A signal that did not come
 * (another toolkit, an older GTK) leaves the node read live, as before. The match is sent
 * before any call of the walk, so the daemon installs it before it routes their replies. */
static void watch_announcements(walker *w, sd_bus *bus)
{
    char rule[256];
    int n = snprintf(rule, sizeof(rule),
                     "type='signal',sender='%s',path='%s',interface='%s',member='AddAccessible'",
                     w->app_bus, ATSPI_CACHE_PATH, ATSPI_IFACE_CACHE);
    if (n < 0 || (size_t)n >= sizeof(rule) || !(w->announced = ad_item_cache_new_announced()))
        return;
    if (sd_bus_add_match_async(bus, &w->announce_match, rule, on_add_accessible, NULL, w) < 0) {
        ad_item_cache_free(w->announced);
        w->announced = NULL;
    }
}

/* ---- the read --------------------------------------------------------------------------- */

ad_pipe *ad_walker_pipe(const wnode *wn)
{
    /* One route: the accessibility bus. No private peer-to-peer connection to the app, even
     * where atk-bridge offers one: the app never forgets a closed one (atspi_bus.h). */
    return wn->w->pipe;
}

static void on_cache(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    walker *w = ud;
    /* No cache (a toolkit without it, or an unexpected shape): every node is read live. */
    if (m)
        w->cache = ad_item_cache_parse(m, w->app_bus);
    w->cache_done = true;
}

static void on_frame_extents(sd_bus_message *m, const sd_bus_error *e, void *ud)
{
    (void)e;
    ad_window_frame *f = ud;
    int32_t x, y, w, h;
    if (m && sd_bus_message_read(m, "(iiii)", &x, &y, &w, &h) >= 0 && w > 0 && h > 0) {
        f->width = w;
        f->height = h;
        f->have_size = true;
    }
}

int ad_atspi_read_tree(sd_bus *bus, const char *bus_name, const char *path,
                       const ad_read_limits *lim, ad_tree *ret, ad_window_frame *ret_frame,
                       ad_error *err)
{
    char *toolkit = NULL, *version = NULL;
    walker w = {.lim = lim, .app_bus = bus_name};
    memset(ret, 0, sizeof(*ret));
    memset(ret_frame, 0, sizeof(*ret_frame));
    w.pipe = ad_pipe_new(bus, IN_FLIGHT);
    ad_node *root = ad_node_new();
    if (!w.pipe || !root) {
        ad_pipe_free(w.pipe);
        ad_node_free(root);
        return ad_error_set(err, AD_INTERNAL, "out of memory");
    }
    ad_pipe_call(w.pipe, bus_name, ATSPI_CACHE_PATH, ATSPI_IFACE_CACHE,
                 "GetItems", NULL, on_cache, &w);
    /* The toolkit, with the cache and before the walk: Qt needs per-field property reads,
     * GTK 4 window-relative extents (the caller's ret_frame, with the window's size that
     * places them: x11_geometry.h). */
    ad_atspi_request_toolkit(w.pipe, bus_name, &toolkit, &version);
    ad_pipe_args screen = {.sig = "u", .u = 0};
    ad_pipe_call(w.pipe, bus_name, path, ATSPI_IFACE_COMPONENT, "GetExtents",
                 &screen, on_frame_extents, ret_frame);
    int r = ad_pipe_run(w.pipe, lim->deadline_us);
    ad_pipe_set_refill(w.pipe, refill, &w);
    w.no_get_all = toolkit && strncmp(toolkit, "Qt", 2) == 0;
    w.no_native_ids = ad_atspi_toolkit_has_no_ids(toolkit, version);
    bool gtk4 = ad_atspi_toolkit_is_gtk4(toolkit, version);
    ret_frame->window_relative = gtk4;
    bool gtk3 = ad_atspi_toolkit_is_gtk3(toolkit, version);
    free(toolkit);
    free(version);
    if (r == 0 && gtk4)
        watch_announcements(&w, bus);
    if (r == 0) {
        ad_walker_visit(&w, root, bus_name, path, 0);
        r = ad_pipe_run(w.pipe, lim->deadline_us);
    }
    /* One more pipelined round, once every other field is in: the ids the caller needs. */
    if (r == 0 && ad_walker_request_needed_ids(&w) > 0)
        r = ad_pipe_run(w.pipe, lim->deadline_us);
    if (r != 0) {
        ad_walker_mark_cut(&w, r > 0 ? "deadline" : "bus_failed");
        cancel_held_work(&w);
    }
    w.stopping = true;
    ad_pipe_free(w.pipe); /* cancels what is left: those fields become unknown */
    ad_walker_finish(&w, root);
    if (gtk3)
        ad_walker_mark_model_buttons(root);
    ad_item_cache_free(w.cache);
    sd_bus_slot_unref(w.announce_match); /* removes the match: no signal comes after this */
    ad_item_cache_free(w.announced);
    if (!root->address) {
        /* The deadline passed before the window's own node was read: report an unread root,
         * never an invented one. */
        ad_text_unknown(&root->name);
        ad_text_unknown(&root->description);
        ad_text_unknown(&root->native_id);
        root->states_state = AD_FIELD_UNKNOWN;
        root->children_cut = true;
        ad_walker_mark_cut(&w, "deadline");
    }
    ret->root = root;
    ret->nodes_observed = w.nodes;
    ret->complete = !w.incomplete;
    ret->cut_reason = w.cut_reason;
    return 0;
}
