/* Priority heap of partitions (internal.h): the engine's three queues. */
#include <limits.h>
#include <stdlib.h>
#include "engine/internal.h"

/* top_prio follows every change, for readers without mu. */
static void top_changed(part_heap *h)
{
    atomic_store_explicit(&h->top_prio, h->n ? h->a[0]->job->priority : INT_MIN, memory_order_relaxed);
}

/* 1 when x goes before y: higher priority, then older job, then lower index. */
int sp_eng_heap_before(const part *x, const part *y)
{
    if (x->job->priority != y->job->priority)
        return x->job->priority > y->job->priority;
    if (x->job->seq != y->job->seq)
        return x->job->seq < y->job->seq;
    return x->index < y->index;
}

static void put(part_heap *h, size_t i, part *p)
{
    h->a[i] = p;
    p->heap = h;
    p->hpos = i;
}

static void sift_up(part_heap *h, size_t i)
{
    part *p = h->a[i];
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!sp_eng_heap_before(p, h->a[up]))
            break;
        put(h, i, h->a[up]);
        i = up;
    }
    put(h, i, p);
}

static void sift_down(part_heap *h, size_t i)
{
    part *p = h->a[i];
    for (;;) {
        size_t l = 2 * i + 1, best = i;
        const part *bp = p;
        if (l < h->n && sp_eng_heap_before(h->a[l], bp))
            best = l, bp = h->a[l];
        if (l + 1 < h->n && sp_eng_heap_before(h->a[l + 1], bp))
            best = l + 1;
        if (best == i)
            break;
        put(h, i, h->a[best]);
        i = best;
    }
    put(h, i, p);
}

sp_status sp_eng_heap_init(part_heap *h, size_t cap)
{
    h->n = 0;
    h->cap = cap;
    atomic_init(&h->top_prio, INT_MIN);
    h->a = malloc(sizeof(part *) * (cap ? cap : 1));
    return h->a ? SP_OK : SP_ERR_NOMEM;
}

void sp_eng_heap_free(part_heap *h)
{
    free(h->a);
    h->a = NULL;
    h->n = h->cap = 0;
}

void sp_eng_heap_push(part_heap *h, part *p)
{
    if (h->n >= h->cap) /* sized to max_partitions: unreachable */
        abort();
    h->a[h->n] = p;
    sift_up(h, h->n++);
    top_changed(h);
}

part *sp_eng_heap_top(const part_heap *h) { return h->n ? h->a[0] : NULL; }

void sp_eng_heap_remove(part_heap *h, part *p)
{
    size_t i = p->hpos;
    part *last = h->a[--h->n];
    p->heap = NULL;
    if (i != h->n) {
        put(h, i, last);
        sift_down(h, i);
        sift_up(h, last->hpos);
    }
    top_changed(h);
}

part *sp_eng_heap_pop(part_heap *h)
{
    part *p = sp_eng_heap_top(h);
    if (p)
        sp_eng_heap_remove(h, p);
    return p;
}
