/* fake_notifications.c: the fake adapter's notification surface and physical input
 * (fake_adapter.h). */
#include <stdlib.h>
#include <string.h>

#include "fake_adapter.h"

static char *dup0(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void copy_one(ad_notification *dst, const ad_notification *src)
{
    *dst = *src;
    dst->app_name = dup0(src->app_name);
    dst->title = dup0(src->title);
    dst->body = dup0(src->body);
    dst->actions = src->n_actions ? calloc(src->n_actions, sizeof(char *)) : NULL;
    dst->action_at = src->n_actions ? calloc(src->n_actions, sizeof(ad_rect)) : NULL;
    for (size_t i = 0; i < src->n_actions; i++) {
        dst->actions[i] = strdup(src->actions[i]);
        dst->action_at[i] = src->action_at[i];
    }
}

int fake_read_notifications(ad_adapter *a, int64_t deadline_us, ad_notification_surface *ret,
                            ad_error *err)
{
    (void)deadline_us;
    fake_adapter *f = (fake_adapter *)a;
    memset(ret, 0, sizeof(*ret));
    f->n_read_notifications++;
    if (f->notes_on_read)
        f->notes_on_read(f, f->n_read_notifications);
    if (f->notes_absent) {
        ad_error_set(err, AD_PLATFORM_NOT_SUPPORTED,
                     "No notification service is running in this session");
        ad_error_detail(err, "daemon", json_string("absent"));
        ad_error_detail(err, "detail",
                        json_string("no service owns org.freedesktop.Notifications"));
        return -1;
    }
    *ret = f->notes;
    ret->items = f->notes.count ? calloc(f->notes.count, sizeof(ad_notification)) : NULL;
    for (size_t i = 0; i < f->notes.count; i++)
        copy_one(&ret->items[i], &f->notes.items[i]);
    if (f->notes.has_banner)
        copy_one(&ret->banner, &f->notes.banner);
    return 0;
}

ad_notification *fake_add_notification(fake_adapter *f, const char *title, const char *body)
{
    ad_notification_surface *s = &f->notes;
    s->items = realloc(s->items, (s->count + 1) * sizeof(*s->items));
    ad_notification *n = &s->items[s->count++];
    memset(n, 0, sizeof(*n));
    n->title = dup0(title);
    n->body = dup0(body);
    return n;
}

void fake_remove_notification(fake_adapter *f, size_t i)
{
    ad_notification_surface *s = &f->notes;
    ad_notification_clear(&s->items[i]);
    memmove(&s->items[i], &s->items[i + 1], (s->count - i - 1) * sizeof(*s->items));
    s->count--;
}

void fake_notification_action(ad_notification *n, const char *name, ad_rect at)
{
    n->actions = realloc(n->actions, (n->n_actions + 1) * sizeof(char *));
    n->action_at = realloc(n->action_at, (n->n_actions + 1) * sizeof(ad_rect));
    n->actions[n->n_actions] = strdup(name);
    n->action_at[n->n_actions++] = at;
}

static int physical(ad_adapter *a, const ad_phys_req *req, int64_t deadline_us,
                    ad_act_result *ret, ad_error *err)
{
    (void)deadline_us;
    (void)err;
    fake_adapter *f = (fake_adapter *)a;
    if (f->n_physical < FAKE_MAX)
        f->phys[f->n_physical] = *req;
    f->n_physical++;
    memset(ret, 0, sizeof(*ret));
    ret->events = req->kind == AD_PHYS_CLICK ? 2 : 1;
    ret->has_point = true;
    ret->x = req->x;
    ret->y = req->y;
    if (f->phys_effect)
        f->phys_effect(f, req);
    return 0;
}

void fake_enable_physical(fake_adapter *f)
{
    /* One table for every fake: the tests run one at a time. */
    static ad_adapter_ops with_physical;
    with_physical = *f->base.ops;
    with_physical.physical = physical;
    f->base.ops = &with_physical;
}
