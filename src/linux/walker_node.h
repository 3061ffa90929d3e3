/* walker_node.h: the walker's private state per read and per node, shared by walker.c (the
 * calls) and walker_node.c (what the replies turn into). Not a public interface. */
#ifndef AD_WALKER_NODE_H
#define AD_WALKER_NODE_H

#include <stdbool.h>
#include <systemd/sd-bus.h>

#include "linux/atspi_map.h"
#include "linux/dbus_pipe.h"
#include "linux/walker_cache.h"
#include "platform/adapter.h"

#define AD_MAX_RAW_ACTIONS 32

typedef struct wnode wnode;
typedef struct walker_work walker_work;

typedef struct walker {
    ad_pipe *pipe;      /* the accessibility bus */
    const char *app_bus;
    const ad_read_limits *lim;
    ad_item_cache *cache;
    /* GTK 4 only: the items the app announced (Cache.AddAccessible) while the read ran, and
     * the match that brings them (walker.c, watch_announcements). */
    ad_item_cache *announced;
    sd_bus_slot *announce_match;
    bool cache_done;
    bool no_get_all;    /* the app crashes on Properties.GetAll (Qt): one Get per field */
    /* The toolkit never gives an element an AccessibleId (ad_atspi_toolkit_has_no_ids): no
     * node's id is asked and every native_id is absent, as its "" or missing property read. */
    bool no_native_ids;
    bool stopping;          /* the pipe is being torn down: issue no new calls */
    size_t nodes, edges;
    bool incomplete;
    const char *cut_reason; /* the first reason the read was cut */
    wnode *all;             /* every wnode, freed by ad_walker_finish */
    /* Calls held back until the pipe has room, first due first: a live node's read, its
     * children by index, a node's extras (walker.c, refill). */
    walker_work *work_head, *work_tail;
} walker;

struct wnode {
    walker *w;
    ad_node *node;
    const char *bus;  /* w->app_bus, or own_bus for a node another process embeds */
    const char *path; /* into node->address ("bus|path") */
    char *own_bus;
    int depth;
    uint32_t role, ifaces;
    ad_atspi_states states;
    bool have_role, have_states;
    int base_pending;    /* GetRole/GetState/GetInterfaces and the name still out (uncached) */
    int outstanding;     /* calls not yet answered */
    int n_raw_actions, actions_pending;
    bool actions_cut; /* a GetName got no reply (deadline, silent app): the list is unknown */
    bool bounds_requested;
    /* The canonical name of each raw action index (ad_atspi_action_canonical: static
     * strings; NULL for one that is ignored or whose GetName failed), n_raw_actions of them;
     * allocated once NActions is known, and only for nodes with actions. */
    const char **actions_canon;
    wnode *next_all;
    /* Live children: their placeholders made at once, asked by index enum_next ..
     * enum_end-1 as the pipe has room. */
    long enum_next, enum_end;
    bool extras_need_id; /* the AccessibleId is asked with the extras */
};

/* Calls for one node (walker.c). ad_walker_call issues `member` on the node's own pipe and
 * counts it in wn->outstanding (nothing is sent once the walk is stopping; an allocation
 * failure marks the read cut); every callback ends with ad_walker_done. */
void ad_walker_call(wnode *wn, const char *iface, const char *member, const ad_pipe_args *args,
                    ad_pipe_fn fn);
/* Properties.Get(iface, prop) on the node. */
void ad_walker_get_prop(wnode *wn, const char *iface, const char *prop, ad_pipe_fn fn);
void ad_walker_done(wnode *wn);
/* Property errors that mean "this bridge has no such property": the field is absent. */
bool ad_walker_no_such_property(const sd_bus_error *e);
/* Fetches what the cache does not carry, once role, states, interfaces and the name are
 * known (walker_extras.c). */
void ad_walker_request_extras(wnode *wn, bool need_id);
/* After the walk: asks the AccessibleId of each node whose id was left unread and that
 * lim->native_id_needed wants (walker_extras.c). Returns how many were asked. */
size_t ad_walker_request_needed_ids(walker *w);
/* The pipe that reaches this node: the accessibility bus (atspi_bus.h: no peer route). */
ad_pipe *ad_walker_pipe(const wnode *wn);
/* Starts reading `node` at (bus, path): records the address and issues its calls. */
void ad_walker_visit(walker *w, ad_node *node, const char *bus, const char *path, int depth);
/* Reads one node: from the cache at once, or live with calls held back until the pipe has
 * room (walker.c). */
void ad_walker_read_node(wnode *wn);
/* How many of `count` children may be read under the limits; marks the cut otherwise. */
long ad_walker_admit_children(wnode *wn, long count);
void ad_walker_mark_cut(walker *w, const char *reason);
/* Sets a text field, cut to the field byte limit on a UTF-8 boundary. */
void ad_walker_set_text(walker *w, ad_text *t, const char *s);
/* Sets the node's accessible name the same way; a toolkit class name is no name but the
 * node's toolkit_class (ad_node_set_name: GTK 4.8 names an unlabelled widget after its type,
 * gnome-calculator's empty display "GtkSourceView"). */
void ad_walker_set_name(walker *w, ad_node *n, const char *s);
/* Maps role and states onto the node once they are known (or marks them unknown). */
void ad_walker_apply_role_states(wnode *wn);
/* Asks for the node's extents once (nodes with a Component interface only). */
void ad_walker_request_bounds(wnode *wn);
/* Asks a panel directly under the window root whether it is a GTK3 popover
 * (walker_popup.c). */
void ad_walker_request_popup(wnode *wn);
/* Marks the check boxes and radio buttons of GTK3 popovers whose checked state GTK never
 * reports (ad_node.checked_unreported); run on a whole GTK3 read (walker_popup.c). */
void ad_walker_mark_model_buttons(ad_node *root);
/* Builds the canonical action list from the raw names and the node's interfaces. */
void ad_walker_finish_actions(wnode *wn);
/* Reads a GetAll(Accessible) reply: Name, Description, AccessibleId, ChildCount. */
int ad_walker_read_accessible_props(wnode *wn, sd_bus_message *m, long *ret_child_count);
/* Prunes unread placeholders (marking their parents cut) and frees the per-node state. */
void ad_walker_finish(walker *w, ad_node *root);

#endif
