/*
 * What every part of the farm uses (farm.h), below them all: the pool of
 * connections that HTTP requests and circuit digests take statements to
 * (farm.db_connections, each used by one caller at a time) and the
 * counters under f->mu.
 */
#include <stdio.h>
#include "daemon/farm/farm.h"

void sp_dmn_farm_count(sp_dmn_farm *f, uint64_t *c, uint64_t k)
{
    pthread_mutex_lock(&f->mu);
    *c += k;
    pthread_mutex_unlock(&f->mu);
}

sp_dmn_queue *sp_dmn_farm_conn_get(sp_dmn_farm *f, char err[SP_ERR_LEN])
{
    pthread_mutex_lock(&f->mu);
    for (;;) {
        for (int i = 0; i < f->pool_n; i++)
            if (!f->pool_busy[i]) {
                f->pool_busy[i] = 1;
                sp_dmn_queue *q = f->pool[i];
                pthread_mutex_unlock(&f->mu);
                if (sp_dmn_q_ensure(q, err) == SP_OK) /* reconnects after an outage, within its backoff */
                    return q;
                sp_dmn_farm_conn_put(f, q);
                return NULL;
            }
        if (f->stopping) {
            pthread_mutex_unlock(&f->mu);
            snprintf(err, SP_ERR_LEN, "the daemon is shutting down");
            return NULL;
        }
        if (f->pool_n < f->pool_max)
            break;
        pthread_cond_wait(&f->cv_pool, &f->mu);
    }
    int slot = f->pool_n++;
    f->pool[slot] = NULL;
    f->pool_busy[slot] = 1;
    pthread_mutex_unlock(&f->mu);
    sp_dmn_queue *q = NULL;
    sp_status st = sp_dmn_q_open(&q, f->conninfo, 0, err);
    pthread_mutex_lock(&f->mu);
    if (st == SP_OK) {
        f->pool[slot] = q;
        f->pool_seen_ms[slot] = 0;
        f->pool_seen_calls[slot] = f->pool_seen_rec[slot] = 0;
    } else { /* give the slot back: the last one, or leave a hole another open fills */
        f->pool_busy[slot] = 0;
        if (slot == f->pool_n - 1)
            f->pool_n--;
        pthread_cond_signal(&f->cv_pool);
    }
    pthread_mutex_unlock(&f->mu);
    return q;
}

void sp_dmn_farm_conn_put(sp_dmn_farm *f, sp_dmn_queue *q)
{
    double ms;
    uint64_t calls, rec;
    sp_dmn_q_stats(q, &ms, &calls, &rec);
    pthread_mutex_lock(&f->mu);
    for (int i = 0; i < f->pool_n; i++)
        if (f->pool[i] == q) { /* what it did since it was taken, into the HTTP side's counters */
            f->pool_busy[i] = 0;
            f->http_ms += ms - f->pool_seen_ms[i];
            f->http_calls += calls - f->pool_seen_calls[i];
            f->http_reconnects += rec - f->pool_seen_rec[i];
            f->pool_seen_ms[i] = ms;
            f->pool_seen_calls[i] = calls;
            f->pool_seen_rec[i] = rec;
        }
    pthread_cond_signal(&f->cv_pool);
    pthread_mutex_unlock(&f->mu);
}
