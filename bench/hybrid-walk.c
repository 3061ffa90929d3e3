/*
 * ad-bench-hybrid-walk: the best correct one-shot AT-SPI walk we know, the baseline the
 * snapshot's speed is measured against (bench/bench-hybrid.sh; issue 12). sd-bus directly,
 * no libatspi, nothing of agent-desktop's own code:
 *
 *   1. the accessibility bus (org.a11y.Bus.GetAddress on the session bus), the registry's
 *      applications (GetChildren), each one's Name in one pipelined round, the first app
 *      named APP_NAME whose children (ChildCount + GetChildAtIndex, GetRole) include a frame,
 *      else a window or dialog: the same choice as ad-bench-naive-walk;
 *   2. the app's connection, by --route: peer (the default, and the only route before the
 *      flag, so earlier numbers stay comparable): peer-to-peer at the address
 *      Application.GetApplicationBusAddress gives (GTK 3's atk-bridge), else through the bus;
 *      bus: never asks for that address, every call through the accessibility bus, as
 *      agent-desktop does since GTK 3's atk-bridge keeps every accepted peer-to-peer
 *      connection forever (src/linux/atspi_bus.h): each peer run leaves one in the app;
 *   3. one org.a11y.atspi.Cache.GetItems: role, name, description, states, interfaces, child
 *      count, index and parent of each cached object;
 *   4. from the window down (depth limit 50, like the naive walk): a cached node whose
 *      parent links add up exactly to its child count (each index 0..n-1 once; a leaf: a
 *      count of 0 and no links) gets its children from the cache; every other node reads ChildCount + GetChildAtIndex live;
 *      a node the cache lacks reads GetRole, GetState, GetInterfaces and
 *      Properties.GetAll(Accessible) (name, description, child count);
 *   5. for each node, as soon as it is known: Component.GetExtents (screen) where it has
 *      Component, Action NActions then GetName(i) where it has Action.
 * Every call is pipelined (up to 1024 in flight, the walker's own depth); rounds depend only
 * on the tree's shape.
 *
 *   ad-bench-hybrid-walk [--route bus|peer] [--list-nodes] [--verbose] APP_NAME
 *
 * Prints one JSON line {"app":..., "nodes":N, "ms":walk_ms, "calls":C, "errors":E,
 * "depth_cut":D, "cached":K, "route":"bus"|"peer", "peer":true|false}; route is the one
 * asked for, peer whether the calls went peer-to-peer (false with --route peer when the app
 * gives no address); ms counts from the connection to the app (step 2) to the last reply;
 * with --list-nodes it first prints every node as
 * "role<TAB>name<TAB>child_index_path" (role as the AT-SPI role number; ad-bench-naive-walk
 * --list-nodes --numeric-roles prints the same lines for the same node set).
 * Exit status: 0 ok, 1 bus, app or window not found, 2 usage.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#define MAX_DEPTH 50
#define IN_FLIGHT 1024
#define TIMEOUT_US (60ull * 1000 * 1000)
#define ROOT_PATH "/org/a11y/atspi/accessible/root"
#define ACC "org.a11y.atspi.Accessible"
#define PROPS "org.freedesktop.DBus.Properties"
#define ROLE_DIALOG 16u
#define ROLE_FRAME 23u
#define ROLE_WINDOW 69u

enum { IF_COMPONENT = 1, IF_ACTION = 2 };

/* One node of the walk. Nodes live until exit (the OS frees them). */
typedef struct node {
    char *dest, *path, *ipath; /* ipath: child-index path, "" for the window */
    int depth;
    uint32_t role;
    char *name;
    unsigned ifaces;
    struct node *next;
} node;

/* One cached object: GetItems' row for the fields the walk uses. */
typedef struct {
    char *path, *parent, *name;
    int32_t index, child_count;
    uint32_t role;
    unsigned ifaces;
    long *kids;    /* indexes into items, by child index */
    bool links_ok; /* the parent links add up to child_count: kids is the child list */
} item;

typedef struct call call;
typedef void (*reply_fn)(sd_bus_message *m, node *n, long arg);
struct call {
    call *next;
    sd_bus_message *msg;
    reply_fn fn;
    node *n;
    long arg;
};

static struct {
    sd_bus *bus, *app; /* the accessibility bus; the app's connection (peer or the bus) */
    bool peer;      /* the calls go peer-to-peer (no destination) */
    bool route_bus; /* --route bus: never ask for the app's bus address */
    unsigned in_flight;
    call *head, *tail;
    long calls, errors, nodes, depth_cut;
    item *items;
    long n_items, n_buckets, *by_path; /* open addressing: index + 1, 0 empty */
    node *all;
    bool verbose;
} W;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "ad-bench-hybrid-walk: out of memory\n");
        exit(1);
    }
    return d;
}

static unsigned iface_bits(sd_bus_message *m)
{
    unsigned bits = 0;
    const char *s;
    if (sd_bus_message_enter_container(m, 'a', "s") < 0)
        return 0;
    while (sd_bus_message_read(m, "s", &s) > 0) {
        if (strcmp(s, "org.a11y.atspi.Component") == 0)
            bits |= IF_COMPONENT;
        else if (strcmp(s, "org.a11y.atspi.Action") == 0)
            bits |= IF_ACTION;
    }
    sd_bus_message_exit_container(m);
    return bits;
}

/* ---- the pipeline --------------------------------------------------------------------- */

static int on_reply(sd_bus_message *m, void *ud, sd_bus_error *ret_error)
{
    (void)ret_error;
    call *c = ud;
    W.in_flight--;
    const sd_bus_error *e = sd_bus_message_get_error(m);
    if (e) {
        W.errors++;
        if (W.verbose)
            fprintf(stderr, "ad-bench-hybrid-walk: %s: %s\n", e->name, e->message);
    }
    c->fn(e ? NULL : m, c->n, c->arg);
    free(c);
    return 0;
}

static void pump(void)
{
    while (W.head && W.in_flight < IN_FLIGHT) {
        call *c = W.head;
        W.head = c->next;
        if (!W.head)
            W.tail = NULL;
        int r = sd_bus_call_async(sd_bus_message_get_bus(c->msg), NULL, c->msg, on_reply, c,
                                  TIMEOUT_US);
        sd_bus_message_unref(c->msg);
        c->msg = NULL;
        if (r < 0) {
            W.errors++;
            c->fn(NULL, c->n, c->arg);
            free(c);
            continue;
        }
        W.in_flight++;
        W.calls++;
    }
}

/* Queues iface.member on node n's object; sig/... are the arguments. */
static void call_node(node *n, const char *iface, const char *member, reply_fn fn, long arg,
                      const char *sig, ...)
{
    sd_bus *bus = W.app;
    sd_bus_message *m = NULL;
    call *c = calloc(1, sizeof(*c));
    int r = sd_bus_message_new_method_call(bus, &m, W.peer ? NULL : n->dest, n->path, iface,
                                           member);
    if (r >= 0 && sig) {
        va_list ap;
        va_start(ap, sig);
        r = sd_bus_message_appendv(m, sig, ap);
        va_end(ap);
    }
    if (!c || r < 0) {
        fprintf(stderr, "ad-bench-hybrid-walk: cannot build %s\n", member);
        exit(1);
    }
    *c = (call){.msg = m, .fn = fn, .n = n, .arg = arg};
    if (W.tail)
        W.tail->next = c;
    else
        W.head = c;
    W.tail = c;
    pump();
}

static int run(sd_bus *bus)
{
    for (;;) {
        pump();
        if (W.in_flight == 0 && !W.head)
            return 0;
        int r = sd_bus_process(bus, NULL);
        if (r < 0)
            return r;
        if (r == 0 && (r = sd_bus_wait(bus, TIMEOUT_US)) < 0)
            return r;
    }
}

/* ---- the cache ------------------------------------------------------------------------ */

static unsigned long hash(const char *s)
{
    unsigned long h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h;
}

static long item_of(const char *path)
{
    if (!W.n_buckets)
        return -1;
    for (unsigned long b = hash(path) % W.n_buckets;; b = (b + 1) % W.n_buckets) {
        long i = W.by_path[b] - 1;
        if (i < 0 || strcmp(W.items[i].path, path) == 0)
            return i;
    }
}

static void parse_items(sd_bus_message *m, const char *app_bus)
{
    const char *obus, *opath, *abus, *apath, *pbus, *ppath, *name, *desc;
    long cap = 0;
    if (sd_bus_message_enter_container(m, 'a', "((so)(so)(so)iiassusau)") <= 0)
        return;
    while (sd_bus_message_enter_container(m, 'r', "(so)(so)(so)iiassusau") > 0) {
        item it = {0};
        if (sd_bus_message_read(m, "(so)(so)(so)ii", &obus, &opath, &abus, &apath, &pbus, &ppath,
                                &it.index, &it.child_count) < 0)
            return;
        it.ifaces = iface_bits(m);
        if (sd_bus_message_read(m, "sus", &name, &it.role, &desc) < 0 ||
            sd_bus_message_skip(m, "au") < 0 || sd_bus_message_exit_container(m) < 0)
            return;
        if (strcmp(obus, app_bus) != 0)
            continue;
        it.path = xstrdup(opath);
        it.parent = strcmp(pbus, app_bus) == 0 ? xstrdup(ppath) : NULL;
        it.name = xstrdup(name);
        if (W.n_items == cap) {
            cap = cap ? cap * 2 : 256;
            W.items = realloc(W.items, (size_t)cap * sizeof(item));
            if (!W.items)
                exit(1);
        }
        W.items[W.n_items++] = it;
    }
    W.n_buckets = W.n_items * 2 + 1;
    W.by_path = calloc((size_t)W.n_buckets, sizeof(long));
    for (long i = 0; i < W.n_items; i++) {
        unsigned long b = hash(W.items[i].path) % W.n_buckets;
        while (W.by_path[b])
            b = (b + 1) % W.n_buckets;
        W.by_path[b] = i + 1;
    }
    /* Parent links: a parent's kids table holds each child at its index; they add up when
     * no index is out of range or repeated and their number is the child count. */
    long *linked = calloc((size_t)W.n_items, sizeof(long));
    bool *broken = calloc((size_t)W.n_items, sizeof(bool));
    for (long i = 0; i < W.n_items; i++) {
        long p = W.items[i].parent ? item_of(W.items[i].parent) : -1;
        if (p < 0)
            continue;
        item *pi = &W.items[p];
        int32_t ix = W.items[i].index;
        if (pi->child_count <= 0 || ix < 0 || ix >= pi->child_count) {
            broken[p] = true;
            continue;
        }
        if (!pi->kids) {
            pi->kids = malloc((size_t)pi->child_count * sizeof(long));
            for (int32_t k = 0; k < pi->child_count; k++)
                pi->kids[k] = -1;
        }
        if (pi->kids[ix] >= 0)
            broken[p] = true;
        pi->kids[ix] = i;
        linked[p]++;
    }
    for (long p = 0; p < W.n_items; p++)
        W.items[p].links_ok = !broken[p] && linked[p] == W.items[p].child_count;
    free(linked);
    free(broken);
}

static void on_items(sd_bus_message *m, node *n, long arg)
{
    (void)arg;
    if (m)
        parse_items(m, n->dest);
}

/* ---- the walk ------------------------------------------------------------------------- */

static void visit(const char *dest, const char *path, const char *parent_ipath, long index,
                  int depth);

static void on_action_name(sd_bus_message *m, node *n, long i)
{
    (void)m, (void)n, (void)i; /* read and dropped, like every field the naive walk reads */
}

static void on_n_actions(sd_bus_message *m, node *n, long arg)
{
    (void)arg;
    int32_t k = 0;
    if (m && sd_bus_message_read(m, "v", "i", &k) >= 0)
        for (int32_t i = 0; i < k; i++)
            call_node(n, "org.a11y.atspi.Action", "GetName", on_action_name, i, "i", i);
}

static void on_ignored(sd_bus_message *m, node *n, long arg)
{
    (void)m, (void)n, (void)arg;
}

static void on_child(sd_bus_message *m, node *n, long i)
{
    const char *bus, *path;
    if (m && sd_bus_message_read(m, "(so)", &bus, &path) >= 0 && *bus)
        visit(bus, path, n->ipath, i, n->depth + 1);
}

static void children_live(node *n, int32_t count)
{
    if (count > 0 && n->depth >= MAX_DEPTH) {
        W.depth_cut++;
        return;
    }
    for (int32_t i = 0; i < count; i++)
        call_node(n, ACC, "GetChildAtIndex", on_child, i, "i", i);
}

static void on_child_count(sd_bus_message *m, node *n, long arg)
{
    (void)arg;
    int32_t k = 0;
    if (m && sd_bus_message_read(m, "v", "i", &k) >= 0)
        children_live(n, k);
}

static void request_extras(node *n)
{
    if (n->ifaces & IF_COMPONENT)
        call_node(n, "org.a11y.atspi.Component", "GetExtents", on_ignored, 0, "u", 0u);
    if (n->ifaces & IF_ACTION)
        call_node(n, PROPS, "Get", on_n_actions, 0, "ss", "org.a11y.atspi.Action", "NActions");
}

/* The uncached node's four reads: role, interfaces (then its extras), states, GetAll. */
static void on_role(sd_bus_message *m, node *n, long arg)
{
    (void)arg;
    if (m)
        sd_bus_message_read(m, "u", &n->role);
}

static void on_interfaces(sd_bus_message *m, node *n, long arg)
{
    (void)arg;
    if (m)
        n->ifaces = iface_bits(m);
    request_extras(n);
}

static void on_get_all(sd_bus_message *m, node *n, long arg)
{
    (void)arg;
    int32_t count = 0;
    if (!m || sd_bus_message_enter_container(m, 'a', "{sv}") < 0)
        return;
    while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
        const char *key, *s;
        if (sd_bus_message_read(m, "s", &key) < 0)
            return;
        if (strcmp(key, "Name") == 0 && sd_bus_message_read(m, "v", "s", &s) >= 0) {
            free(n->name);
            n->name = xstrdup(s);
        } else if (strcmp(key, "ChildCount") == 0) {
            sd_bus_message_read(m, "v", "i", &count);
        } else {
            sd_bus_message_skip(m, "v");
        }
        sd_bus_message_exit_container(m);
    }
    children_live(n, count);
}

static void visit(const char *dest, const char *path, const char *parent_ipath, long index,
                  int depth)
{
    node *n = calloc(1, sizeof(*n));
    if (!n)
        exit(1);
    n->dest = xstrdup(dest);
    n->path = xstrdup(path);
    n->depth = depth;
    if (index < 0) {
        n->ipath = xstrdup("");
    } else if (asprintf(&n->ipath, "%s/%ld", parent_ipath, index) < 0) {
        exit(1);
    }
    n->next = W.all;
    W.all = n;
    W.nodes++;
    long it = item_of(path);
    if (it < 0) {
        n->name = xstrdup("");
        call_node(n, ACC, "GetRole", on_role, 0, NULL);
        call_node(n, ACC, "GetState", on_ignored, 0, NULL);
        call_node(n, ACC, "GetInterfaces", on_interfaces, 0, NULL);
        call_node(n, PROPS, "GetAll", on_get_all, 0, "s", ACC);
        return;
    }
    item *c = &W.items[it];
    n->role = c->role;
    n->name = xstrdup(c->name);
    n->ifaces = c->ifaces;
    request_extras(n);
    if (!c->links_ok) {
        call_node(n, PROPS, "Get", on_child_count, 0, "ss", ACC, "ChildCount");
        return;
    }
    if (c->child_count > 0 && depth >= MAX_DEPTH) {
        W.depth_cut++;
        return;
    }
    for (int32_t k = 0; k < c->child_count; k++)
        visit(dest, W.items[c->kids[k]].path, n->ipath, k, depth + 1);
}

/* ---- finding the window --------------------------------------------------------------- */

static int call_sync(sd_bus *bus, const char *dest, const char *path, const char *iface,
                     const char *member, sd_bus_message **reply, const char *sig, ...)
{
    sd_bus_message *m = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = sd_bus_message_new_method_call(bus, &m, dest, path, iface, member);
    if (r >= 0 && sig) {
        va_list ap;
        va_start(ap, sig);
        r = sd_bus_message_appendv(m, sig, ap);
        va_end(ap);
    }
    if (r >= 0)
        r = sd_bus_call(bus, m, TIMEOUT_US, &e, reply);
    sd_bus_message_unref(m);
    sd_bus_error_free(&e);
    return r;
}

static sd_bus *open_a11y_bus(void)
{
    sd_bus *session = NULL, *bus = NULL;
    sd_bus_message *reply = NULL;
    const char *address;
    if (sd_bus_open_user(&session) < 0 ||
        call_sync(session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress",
                  &reply, NULL) < 0 ||
        sd_bus_message_read(reply, "s", &address) < 0 || sd_bus_new(&bus) < 0 ||
        sd_bus_set_address(bus, address) < 0 || sd_bus_set_bus_client(bus, 1) < 0 ||
        sd_bus_start(bus) < 0)
        return NULL;
    sd_bus_message_unref(reply);
    sd_bus_unref(session);
    return bus;
}

/* An application on the registry: its root as a node (the calls' target) and whether its
 * Name is the one asked for (the node's name holds the asked name). */
typedef struct {
    node root;
    bool match;
} candidate;

static void on_app_name(sd_bus_message *m, node *n, long arg)
{
    const char *s;
    candidate *c = (candidate *)n; /* root is the first member */
    (void)arg;
    c->match = m && sd_bus_message_read(m, "v", "s", &s) >= 0 && strcmp(s, n->name) == 0;
}

/* The window of the first application named app_name with a frame (else a window or
 * dialog), as ad-bench-naive-walk picks it: its bus name and path in *dest / *path. */
static bool find_window(const char *app_name, char **dest, char **path)
{
    sd_bus_message *reply = NULL;
    const char *b, *p;
    candidate *apps = NULL;
    long n = 0, cap = 0;
    if (call_sync(W.bus, "org.a11y.atspi.Registry", ROOT_PATH, ACC, "GetChildren", &reply,
                  NULL) < 0 ||
        sd_bus_message_enter_container(reply, 'a', "(so)") < 0)
        return false;
    while (sd_bus_message_read(reply, "(so)", &b, &p) > 0) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            apps = realloc(apps, (size_t)cap * sizeof(*apps));
        }
        apps[n++] = (candidate){.root = {.dest = xstrdup(b), .path = ROOT_PATH,
                                         .name = (char *)app_name}};
    }
    sd_bus_message_unref(reply);
    /* The names in one pipelined round. */
    W.app = W.bus;
    for (long i = 0; i < n; i++)
        call_node(&apps[i].root, PROPS, "Get", on_app_name, 0, "ss", ACC, "Name");
    if (run(W.bus) < 0)
        return false;
    for (long i = 0; i < n; i++) {
        if (!apps[i].match)
            continue;
        int32_t kids = 0;
        if (call_sync(W.bus, apps[i].root.dest, ROOT_PATH, PROPS, "Get", &reply, "ss",
                      ACC, "ChildCount") < 0 ||
            sd_bus_message_read(reply, "v", "i", &kids) < 0)
            continue;
        sd_bus_message_unref(reply);
        char *fallback = NULL;
        for (int32_t k = 0; k < kids; k++) {
            uint32_t role = 0;
            if (call_sync(W.bus, apps[i].root.dest, ROOT_PATH, ACC, "GetChildAtIndex", &reply, "i",
                          k) < 0 ||
                sd_bus_message_read(reply, "(so)", &b, &p) < 0)
                continue;
            char *wpath = xstrdup(p);
            sd_bus_message_unref(reply);
            if (call_sync(W.bus, apps[i].root.dest, wpath, ACC, "GetRole", &reply, NULL) < 0 ||
                sd_bus_message_read(reply, "u", &role) < 0)
                role = 0;
            sd_bus_message_unref(reply);
            if (role == ROLE_FRAME) {
                *dest = apps[i].root.dest;
                *path = wpath;
                return true;
            }
            if (!fallback && (role == ROLE_WINDOW || role == ROLE_DIALOG))
                fallback = wpath;
        }
        if (fallback) {
            *dest = apps[i].root.dest;
            *path = fallback;
            return true;
        }
    }
    return false;
}

/* --route peer: peer-to-peer to GTK 3's atk-bridge, the bus otherwise; --route bus: the bus,
 * as agent-desktop's walker does. */
static void connect_app(const char *dest)
{
    sd_bus_message *reply = NULL;
    const char *address = NULL;
    sd_bus *peer = NULL;
    W.app = W.bus;
    if (W.route_bus)
        return;
    if (call_sync(W.bus, dest, ROOT_PATH, "org.a11y.atspi.Application",
                  "GetApplicationBusAddress", &reply, NULL) < 0 ||
        sd_bus_message_read(reply, "s", &address) < 0 || !address || !*address)
        return;
    if (sd_bus_new(&peer) >= 0 && sd_bus_set_address(peer, address) >= 0 &&
        sd_bus_start(peer) >= 0) {
        W.app = peer;
        W.peer = true;
    }
    sd_bus_message_unref(reply);
}

static void print_field(const char *s)
{
    for (; *s; s++)
        putchar(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

int main(int argc, char **argv)
{
    const char *app_name = NULL;
    bool list_nodes = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list-nodes") == 0)
            list_nodes = true;
        else if (strcmp(argv[i], "--verbose") == 0)
            W.verbose = true;
        else if (strcmp(argv[i], "--route") == 0 && i + 1 < argc &&
                 (strcmp(argv[i + 1], "bus") == 0 || strcmp(argv[i + 1], "peer") == 0))
            W.route_bus = strcmp(argv[++i], "bus") == 0;
        else if (argv[i][0] != '-' && !app_name)
            app_name = argv[i];
        else
            app_name = NULL, i = argc;
    }
    if (!app_name) {
        fprintf(stderr, "usage: ad-bench-hybrid-walk [--route bus|peer] [--list-nodes] [--verbose]"
                        " APP_NAME\n");
        return 2;
    }
    char *dest = NULL, *path = NULL;
    if (!(W.bus = open_a11y_bus())) {
        fprintf(stderr, "ad-bench-hybrid-walk: cannot reach the AT-SPI bus\n");
        return 1;
    }
    if (!find_window(app_name, &dest, &path)) {
        fprintf(stderr, "ad-bench-hybrid-walk: no application named %s with a window\n",
                app_name);
        return 1;
    }
    W.calls = W.errors = 0;
    int64_t start = now_us();
    connect_app(dest);
    node app = {.dest = dest, .path = "/org/a11y/atspi/cache"};
    call_node(&app, "org.a11y.atspi.Cache", "GetItems", on_items, 0, NULL);
    if (run(W.app) < 0)
        return 1;
    long cached = W.n_items;
    visit(dest, path, "", -1, 0);
    if (run(W.app) < 0)
        return 1;
    double ms = (double)(now_us() - start) / 1000.0;
    if (list_nodes)
        for (node *n = W.all; n; n = n->next) {
            printf("%u\t", n->role);
            print_field(n->name);
            printf("\t%s\n", *n->ipath ? n->ipath : "/");
        }
    printf("{\"app\":\"");
    print_field(app_name);
    printf("\",\"nodes\":%ld,\"ms\":%.1f,\"calls\":%ld,\"errors\":%ld,\"depth_cut\":%ld,"
           "\"cached\":%ld,\"route\":\"%s\",\"peer\":%s}\n",
           W.nodes, ms, W.calls, W.errors, W.depth_cut, cached, W.route_bus ? "bus" : "peer",
           W.peer ? "true" : "false");
    return 0;
}
