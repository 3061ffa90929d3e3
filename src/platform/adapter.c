/* adapter.c: release and copy helpers for the evidence types of adapter.h. */
#include "platform/adapter.h"

#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

void ad_app_clear(ad_app *app)
{
    free(app->name);
    free(app->bundle_id);
    free(app->desktop_name);
    free(app->process_instance);
    free(app->handle);
    memset(app, 0, sizeof(*app));
}

void ad_app_list_clear(ad_app_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        ad_app_clear(&l->items[i]);
    free(l->items);
    for (size_t i = 0; i < l->n_skipped; i++) {
        free(l->skipped[i].handle);
        free(l->skipped[i].executable);
    }
    free(l->skipped);
    memset(l, 0, sizeof(*l));
}

void ad_window_clear(ad_window *w)
{
    free(w->id);
    free(w->title);
    free(w->app_name);
    free(w->process_instance);
    memset(w, 0, sizeof(*w));
}

void ad_window_list_clear(ad_window_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        ad_window_clear(&l->items[i]);
    free(l->items);
    memset(l, 0, sizeof(*l));
}

void ad_health_clear(ad_health *h)
{
    free(h->detail);
    free(h->suggestion);
    memset(h, 0, sizeof(*h));
}

void ad_launch_target_clear(ad_launch_target *t)
{
    free(t->program);
    free(t->name);
    free(t->desktop_id);
    for (size_t i = 0; t->env && t->env[i]; i++)
        free(t->env[i]);
    free(t->env);
    for (size_t i = 0; t->args && t->args[i]; i++)
        free(t->args[i]);
    free(t->args);
    memset(t, 0, sizeof(*t));
}

void ad_tree_clear(ad_tree *t)
{
    ad_node_free(t->root);
    memset(t, 0, sizeof(*t));
}

int ad_app_copy(ad_app *dst, const ad_app *src)
{
    *dst = *src;
    dst->name = dup_or_null(src->name);
    dst->bundle_id = dup_or_null(src->bundle_id);
    dst->desktop_name = dup_or_null(src->desktop_name);
    dst->process_instance = dup_or_null(src->process_instance);
    dst->handle = dup_or_null(src->handle);
    return 0;
}

int ad_window_copy(ad_window *dst, const ad_window *src)
{
    *dst = *src;
    dst->id = dup_or_null(src->id);
    dst->title = dup_or_null(src->title);
    dst->app_name = dup_or_null(src->app_name);
    dst->process_instance = dup_or_null(src->process_instance);
    return 0;
}

ad_read_limits ad_read_limits_default(int64_t deadline_us)
{
    return (ad_read_limits){
        .max_raw_depth = 50,
        .max_edges = 100000,
        .max_children = 4096,
        .max_field_bytes = 65536,
        .max_nodes = 50000,
        .deadline_us = deadline_us,
    };
}

void ad_clip_content_clear(ad_clip_content *c)
{
    if (!c)
        return;
    free(c->data);
    for (size_t i = 0; i < c->n_file_urls; i++)
        free(c->file_urls[i]);
    free(c->file_urls);
    memset(c, 0, sizeof(*c));
}

void ad_display_list_clear(ad_display_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i].id);
    free(l->items);
    l->items = NULL;
    l->count = 0;
}

void ad_image_clear(ad_image *img)
{
    free(img->rgb);
    memset(img, 0, sizeof(*img));
}

void ad_notification_clear(ad_notification *n)
{
    free(n->app_name);
    free(n->title);
    free(n->body);
    for (size_t i = 0; i < n->n_actions; i++)
        free(n->actions[i]);
    free(n->actions);
    free(n->action_at);
    memset(n, 0, sizeof(*n));
}

void ad_notification_surface_clear(ad_notification_surface *s)
{
    for (size_t i = 0; i < s->count; i++)
        ad_notification_clear(&s->items[i]);
    free(s->items);
    ad_notification_clear(&s->banner);
    memset(s, 0, sizeof(*s));
}

void ad_shell_surface_clear(ad_shell_surface *s)
{
    ad_window_clear(&s->window);
    memset(s, 0, sizeof(*s));
}

void ad_change_events_clear(ad_change_events *e)
{
    for (size_t i = 0; i < e->count; i++)
        free(e->items[i].address);
    free(e->items);
    memset(e, 0, sizeof(*e));
}
