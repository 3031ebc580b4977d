/*
 * A device's token and its preemption (internal.h, device): which worker
 * takes which partition for a device, who runs on it, and the pause point
 * through which a running call hands the device to one of higher priority.
 */
#include "engine/internal.h"

#define TL(e, ev, seq, ...) sp_timeline_emit((e)->tl, ev, seq, __VA_ARGS__)

void sp_eng_dev_take_locked(sp_engine *e, device *d, const void *who)
{
    while (d->owner)
        pthread_cond_wait(&e->cv_dev, &e->mu);
    d->owner = who;
}

void sp_eng_dev_give_locked(sp_engine *e, device *d)
{
    d->owner = NULL;
    pthread_cond_broadcast(&e->cv_dev);
}

/* The preemption is over: the suspended call, if any, gets the device
 * back; the device may be preempted again. */
static void preempt_end_locked(sp_engine *e, device *d)
{
    worker *s = d->suspended;
    if (s) {
        double now = eng_ms(e), ms = now - s->pause_t0;
        s->paused_ms += ms;
        if (s->n_pauses < (int)(sizeof s->pauses / sizeof s->pauses[0]))
            s->pauses[s->n_pauses].t0 = s->pause_t0, s->n_pauses++;
        s->pauses[s->n_pauses - 1].t1 = now;
        d->owner = s;
        d->suspended = NULL;
        TL(e, "DEV_RESUME", s->stage_part->job->seq, "partition=%u,gpu=%d,dev=%s,worker=%d,paused_ms=%.3f",
           s->stage_part->index, s->dev_index, d->label, s->local, ms);
    }
    d->holder = NULL;
    atomic_store(&d->stop, 0);
    pthread_cond_broadcast(&e->cv_dev);
    pthread_cond_broadcast(&e->cv_gpu); /* the device may be preempted again */
}

/* The pause point of w's device call (sp_pause.fn; any of the backend's
 * threads): returns at once unless a preemptor waits for w's device, in
 * which case the first thread of w's call to get here hands the device
 * over, and every thread of that call waits until it is handed back. */
static void dev_pause(void *ctx)
{
    worker *w = ctx;
    device *d = w->dev;
    if (!atomic_load_explicit(&d->stop, memory_order_acquire) || w->preempting)
        return;
    sp_engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    if (d->owner == w && d->preemptor && d->preemptor != w) {
        d->owner = NULL;
        d->suspended = w;
        d->preemptions++;
        w->pause_t0 = eng_ms(e);
        TL(e, "DEV_PAUSE", w->stage_part->job->seq, "partition=%u,gpu=%d,dev=%s,worker=%d,for=j%llu",
           w->stage_part->index, w->dev_index, d->label, w->local,
           (unsigned long long)d->preemptor->stage_part->job->seq);
        pthread_cond_broadcast(&e->cv_dev);
    }
    while (d->suspended == w)
        pthread_cond_wait(&e->cv_dev, &e->mu);
    pthread_mutex_unlock(&e->mu);
}

/* The best queued partition whose key is attached to device dev, left on
 * the queue, or NULL. A key attached elsewhere only is never used here:
 * the device would not know it (internal.h, circuit.dev_mask). */
static part *gq_best_locked(sp_engine *e, int dev)
{
    uint64_t bit = (uint64_t)1 << dev;
    part *best = NULL;
    if (e->gq.n && (sp_eng_heap_top(&e->gq)->job->circ->dev_mask & bit))
        return sp_eng_heap_top(&e->gq); /* the usual case: every key on every device */
    for (size_t i = 0; i < e->gq.n; i++) {
        part *p = e->gq.a[i];
        if ((p->job->circ->dev_mask & bit) && (!best || sp_eng_heap_before(p, best)))
            best = p;
    }
    return best;
}

part *sp_eng_dev_claim_locked(sp_engine *e, worker *w)
{
    device *d = w->dev;
    part *p = NULL;
    if (d->claimed == 0) {
        if ((p = gq_best_locked(e, w->dev_index)))
            d->running = p;
    } else if (d->claimed == 1 && e->ops->backend_pausable(d->be) && !d->preemptor && !d->holder && d->running) {
        p = gq_best_locked(e, w->dev_index);
        if (p && p->job->priority > d->running->job->priority) {
            d->preemptor = w;
            w->preempting = 1;
            atomic_store(&d->stop, 1);
            TL(e, "PREEMPT", p->job->seq, "partition=%u,gpu=%d,dev=%s,worker=%d,running=j%llu", p->index,
               w->dev_index, d->label, w->local, (unsigned long long)d->running->job->seq);
        } else {
            p = NULL;
        }
    }
    if (p) {
        sp_eng_heap_remove(&e->gq, p);
        d->claimed++;
        w->stage_part = p;
        w->pause = (sp_pause){dev_pause, w};
        w->paused_ms = 0;
        w->n_pauses = 0;
    }
    return p;
}

void sp_eng_dev_call_begin_locked(sp_engine *e, worker *w)
{
    device *d = w->dev;
    sp_eng_dev_take_locked(e, d, w);
    if (w->preempting && !d->suspended)
        atomic_store(&d->stop, 0); /* the running call ended before it paused */
}

void sp_eng_dev_call_end_locked(sp_engine *e, worker *w, int called)
{
    device *d = w->dev;
    if (called)
        sp_eng_dev_give_locked(e, d);
    if (!w->preempting) {
        d->running = NULL;
    } else {
        w->preempting = 0;
        d->preemptor = NULL;
        /* On the host's cores the preemptor's finish would share them
         * with the resumed call: that waits for the partition's end. */
        if (called && d->suspended && e->ops->backend_host_cores(d->be))
            d->holder = w->stage_part;
        else
            preempt_end_locked(e, d);
    }
    d->claimed--;
    pthread_cond_broadcast(&e->cv_gpu);
}

void sp_eng_dev_part_done_locked(sp_engine *e, const part *p)
{
    if (p->dev >= 0 && e->dev[p->dev].holder == p)
        preempt_end_locked(e, &e->dev[p->dev]);
}
