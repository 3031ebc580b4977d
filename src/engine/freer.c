/* The background freeing thread (freer.h). */
#include "engine/freer.h"

#include <pthread.h>
#include <stdlib.h>

/* Written into the first bytes of a queued buffer. */
typedef struct node {
    struct node *next;
    size_t bytes, budget;
    sp_freer_free_fn fn;
    void *fn_ctx;
} node;

struct sp_freer {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    node *head, *tail;
    size_t pending;
    int stopping;
    pthread_t th;
    sp_freer_done_fn done;
    void *done_ctx;
};

static void *freer_main(void *arg)
{
    sp_freer *f = arg;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        while (!f->head && !f->stopping)
            pthread_cond_wait(&f->cv, &f->mu);
        node *n = f->head;
        if (!n)
            break; /* stopping and drained */
        f->head = n->next;
        if (!f->head)
            f->tail = NULL;
        pthread_mutex_unlock(&f->mu);
        node copy = *n; /* the node lives in the buffer being freed */
        copy.fn(copy.fn_ctx, n, copy.bytes);
        pthread_mutex_lock(&f->mu);
        f->pending -= copy.bytes;
        pthread_mutex_unlock(&f->mu);
        if (f->done)
            f->done(f->done_ctx, copy.budget);
        pthread_mutex_lock(&f->mu);
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

sp_status sp_freer_create(sp_freer **out, sp_freer_done_fn done, void *done_ctx)
{
    sp_freer *f = calloc(1, sizeof *f);
    *out = NULL;
    if (!f)
        return SP_ERR_NOMEM;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
    f->done = done;
    f->done_ctx = done_ctx;
    if (pthread_create(&f->th, NULL, freer_main, f) != 0) {
        pthread_cond_destroy(&f->cv);
        pthread_mutex_destroy(&f->mu);
        free(f);
        return SP_ERR_NOMEM;
    }
    *out = f;
    return SP_OK;
}

void sp_freer_push(sp_freer *f, void *p, size_t bytes, size_t budget_bytes, sp_freer_free_fn fn, void *fn_ctx)
{
    if (!p)
        return;
    if (bytes < sizeof(node)) {
        fn(fn_ctx, p, bytes);
        if (f->done)
            f->done(f->done_ctx, budget_bytes);
        return;
    }
    node *n = p;
    n->next = NULL;
    n->bytes = bytes;
    n->budget = budget_bytes;
    n->fn = fn;
    n->fn_ctx = fn_ctx;
    pthread_mutex_lock(&f->mu);
    if (f->tail)
        f->tail->next = n;
    else
        f->head = n;
    f->tail = n;
    f->pending += bytes;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

size_t sp_freer_pending(sp_freer *f)
{
    pthread_mutex_lock(&f->mu);
    size_t n = f->pending;
    pthread_mutex_unlock(&f->mu);
    return n;
}

void sp_freer_destroy(sp_freer *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&f->mu);
    f->stopping = 1;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->th, NULL);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
    free(f);
}
