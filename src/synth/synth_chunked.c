/* Chunked synthesis with throttle and cancel flags; contracts in synth_chunked.h. */
#include "synth/synth_chunked.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include "synth/synth.h"
#include "util/par.h"

typedef struct {
    sp_fr *a, *b, *c;
    size_t n;      /* rows to write */
    size_t nc;     /* constraint rows (cs mode) */
    size_t npub1;  /* input-consistency rows: public wires + wire 0 (cs mode) */
    const sp_r1cs *cs;     /* cs mode, or NULL */
    const sp_g16_pk *pk;   /* key mode, or NULL */
    const sp_fr *w;
    int check;
    const sp_synth_ctl *ctl;
    size_t chunk;
    atomic_size_t next;    /* next chunk to hand out */
    atomic_size_t bad;     /* first failing constraint, SIZE_MAX if none */
    atomic_int cancelled;
} cjob;

/* Lowers j->bad to row when row is smaller. */
static void note_bad(cjob *j, size_t row)
{
    size_t cur = atomic_load(&j->bad);
    while (row < cur && !atomic_compare_exchange_weak(&j->bad, &cur, row))
        ;
}

/* Rows [lo, hi) from the circuit's matrices (synth.h's layout). */
static void rows_cs(cjob *j, size_t lo, size_t hi)
{
    const sp_r1cs *cs = j->cs;
    for (size_t i = lo; i < hi; i++) {
        if (i >= j->nc) { /* input rows, then zero padding */
            if (i - j->nc < j->npub1)
                j->a[i] = j->w[i - j->nc];
            else
                sp_fr_set_zero(&j->a[i]);
            sp_fr_set_zero(&j->b[i]);
            sp_fr_set_zero(&j->c[i]);
            continue;
        }
        sp_fr x, y, z, xy;
        sp_synth_row_dot(&x, &cs->a, i, j->w);
        sp_synth_row_dot(&y, &cs->b, i, j->w);
        sp_fr_mul(&xy, &x, &y);
        if (j->check) {
            sp_synth_row_dot(&z, &cs->c, i, j->w);
            if (!sp_fr_eq(&xy, &z))
                note_bad(j, i);
        } else {
            z = xy;
        }
        j->a[i] = x;
        j->b[i] = y;
        j->c[i] = z;
    }
}

/* Rows [lo, hi) from the key's QAP matrices (prover.h). */
static void rows_key(cjob *j, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++) {
        sp_synth_row_dot(&j->a[i], &j->pk->qap_a, i, j->w);
        sp_synth_row_dot(&j->b[i], &j->pk->qap_b, i, j->w);
        sp_fr_mul(&j->c[i], &j->a[i], &j->b[i]);
    }
}

/* Between chunks: stop when cancelled, yield while throttled. Returns 0 to stop. */
static int between_chunks(cjob *j)
{
    const sp_synth_ctl *ctl = j->ctl;
    if (atomic_load(&j->cancelled))
        return 0;
    if (ctl->cancel && atomic_load(ctl->cancel)) {
        atomic_store(&j->cancelled, 1);
        return 0;
    }
    if (ctl->throttle && atomic_load(ctl->throttle) > 0) {
        sched_yield();
        if (ctl->yields)
            atomic_fetch_add(ctl->yields, 1);
    }
    return 1;
}

static void cworker(sp_par *par, int tid, void *arg)
{
    cjob *j = arg;
    while (between_chunks(j)) {
        size_t k = atomic_fetch_add(&j->next, 1);
        if (k >= (j->n + j->chunk - 1) / j->chunk)
            return;
        size_t lo = k * j->chunk, hi = lo + j->chunk < j->n ? lo + j->chunk : j->n;
        if (j->cs)
            rows_cs(j, lo, hi);
        else
            rows_key(j, lo, hi);
    }
}

/* Runs the job; maps the outcome to a status. */
static sp_status run(cjob *j, int nthreads, size_t *bad_row, char *err)
{
    static const sp_synth_ctl none = {0};
    if (!j->ctl)
        j->ctl = &none;
    j->chunk = j->ctl->chunk_rows ? j->ctl->chunk_rows : SP_SYNTH_CHUNK_ROWS;
    atomic_init(&j->next, 0);
    atomic_init(&j->bad, SIZE_MAX);
    atomic_init(&j->cancelled, 0);
    sp_par_run(sp_par_threads_for(nthreads, j->n, 4096), cworker, j);
    if (atomic_load(&j->cancelled)) {
        snprintf(err, SP_ERR_LEN, "synthesis cancelled");
        return SP_ERR_CANCELLED;
    }
    size_t bad = atomic_load(&j->bad);
    if (bad == SIZE_MAX)
        return SP_OK;
    if (bad_row)
        *bad_row = bad;
    snprintf(err, SP_ERR_LEN, "constraint %zu is not satisfied: <A,w> * <B,w> != <C,w>", bad);
    return SP_ERR_UNSATISFIED;
}

sp_status sp_synth_abc_chunked(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, const sp_r1cs *cs, const sp_fr *w,
                               size_t w_len, int check, int nthreads, const sp_synth_ctl *ctl, size_t *bad_row,
                               char err[SP_ERR_LEN])
{
    if (sp_wtns_check_circuit(w_len, &cs->h, err) != SP_OK)
        return SP_ERR_INVALID_ARG;
    size_t npub1 = (size_t)sp_r1cs_n_public(&cs->h) + 1, nc = cs->h.n_constraints;
    if (n < nc + npub1) {
        snprintf(err, SP_ERR_LEN, "synth: domain of %zu rows is smaller than the %zu the circuit needs", n,
                 nc + npub1);
        return SP_ERR_INVALID_ARG;
    }
    cjob j = {.a = a, .b = b, .c = c, .n = n, .nc = nc, .npub1 = npub1, .cs = cs, .w = w, .check = check,
              .ctl = ctl};
    return run(&j, nthreads, bad_row, err);
}

sp_status sp_synth_abc_from_key_chunked(sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk, const sp_fr *w,
                                        size_t w_len, int nthreads, const sp_synth_ctl *ctl, char err[SP_ERR_LEN])
{
    if (!pk->has_qap) {
        snprintf(err, SP_ERR_LEN, "the proving key holds no QAP matrices: the circuit (.r1cs) is needed");
        return SP_ERR_INVALID_ARG;
    }
    if (w_len != pk->n_vars) {
        snprintf(err, SP_ERR_LEN, "witness has %zu values, the key expects %u", w_len, pk->n_vars);
        return SP_ERR_INVALID_ARG;
    }
    cjob j = {.a = a, .b = b, .c = c, .n = pk->domain_size, .pk = pk, .w = w, .ctl = ctl};
    return run(&j, nthreads, NULL, err);
}
