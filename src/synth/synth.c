/*
 * Synthesis, the one implementation: sp_synth_abc, sp_synth_check
 * (synth.h) and sp_synth_abc_from_key (prover.h) share the row loop below,
 * handed out a chunk of rows at a time under an optional sp_synth_ctl.
 */
#include "synth/synth.h"

#include <inttypes.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "ntt/ntt.h"
#include "synth/prover.h"
#include "util/par.h"

#define SP_SYNTH_GRAIN 4096 /* rows per thread below which threads do not pay */

sp_status sp_synth_domain_log(unsigned *log_n, const sp_r1cs_header *h, char err[SP_ERR_LEN])
{
    uint64_t rows = (uint64_t)h->n_constraints + sp_r1cs_n_public(h) + 1;
    unsigned k = 0;
    while (((uint64_t)1 << k) < rows)
        k++;
    if (k > SP_NTT_MAX_LOG) {
        sp_bin_errf(err, "circuit needs a domain of 2^%u rows (%" PRIu64 " constraints and input rows); the limit is "
                         "2^%d", k, rows, SP_NTT_MAX_LOG);
        return SP_ERR_UNSUPPORTED;
    }
    *log_n = k;
    return SP_OK;
}

/* Coefficients 1 and -1 dominate circom output; they are public, so
 * branching on them leaks nothing about the witness. */
static sp_fr one_, minus_one_;
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

static void init_consts(void)
{
    sp_fr_set_one(&one_);
    sp_fr_neg(&minus_one_, &one_);
}

/* Equality of public constants: early exit is fine here. */
static inline int same(const sp_fr *a, const sp_fr *b)
{
    return a->l[0] == b->l[0] && a->l[1] == b->l[1] && a->l[2] == b->l[2] && a->l[3] == b->l[3];
}

void sp_synth_row_dot(sp_fr *out, const sp_csr *m, size_t i, const sp_fr *w)
{
    pthread_once(&consts_once, init_consts);
    sp_fr acc, t;
    sp_fr_set_zero(&acc);
    for (uint64_t k = m->row[i]; k < m->row[i + 1]; k++) {
        const sp_fr *v = &m->val[k], *x = &w[m->col[k]];
        if (same(v, &one_)) {
            sp_fr_add(&acc, &acc, x);
        } else if (same(v, &minus_one_)) {
            sp_fr_sub(&acc, &acc, x);
        } else {
            sp_fr_mul(&t, v, x);
            sp_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

typedef struct {
    sp_fr *a, *b, *c;      /* NULL: check only (constraint rows, nothing written) */
    size_t n;              /* rows to go through */
    size_t nc;             /* constraint rows (circuit mode) */
    size_t npub1;          /* input-consistency rows: public wires + wire 0 (circuit mode) */
    const sp_r1cs *cs;     /* circuit mode, or NULL */
    const sp_g16_pk *pk;   /* key mode, or NULL */
    const sp_fr *w;
    int check;
    const sp_synth_ctl *ctl;
    size_t chunk;
    atomic_size_t next;    /* next chunk to hand out */
    atomic_size_t bad;     /* first failing constraint, SIZE_MAX if none */
    atomic_int cancelled;
} synth_job;

/* Lowers j->bad to row when row is smaller. */
static void note_bad(synth_job *j, size_t row)
{
    size_t cur = atomic_load(&j->bad);
    while (row < cur && !atomic_compare_exchange_weak(&j->bad, &cur, row))
        ;
}

/* Rows [lo, hi) from the circuit's matrices (the layout in synth.h). */
static void rows_cs(synth_job *j, size_t lo, size_t hi)
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
        if (j->a) {
            j->a[i] = x;
            j->b[i] = y;
            j->c[i] = z;
        }
    }
}

/* Rows [lo, hi) from the key's QAP matrices (prover.h). */
static void rows_key(synth_job *j, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++) {
        sp_synth_row_dot(&j->a[i], &j->pk->qap_a, i, j->w);
        sp_synth_row_dot(&j->b[i], &j->pk->qap_b, i, j->w);
        sp_fr_mul(&j->c[i], &j->a[i], &j->b[i]);
    }
}

/* Between chunks: stop when cancelled, yield while throttled. Returns 0 to stop. */
static int between_chunks(synth_job *j)
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

static void synth_worker(sp_par *par, int tid, void *arg)
{
    synth_job *j = arg;
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

/* Runs the job (arguments already checked); maps the outcome to a status. */
static sp_status run(synth_job *j, const sp_synth_ctl *ctl, int nthreads, size_t *bad_row, char *err)
{
    static const sp_synth_ctl none = {0};
    j->ctl = ctl ? ctl : &none;
    j->chunk = j->ctl->chunk_rows ? j->ctl->chunk_rows : SP_SYNTH_CHUNK_ROWS;
    atomic_init(&j->next, 0);
    atomic_init(&j->bad, SIZE_MAX);
    atomic_init(&j->cancelled, 0);
    sp_par_run(sp_par_threads_for(nthreads, j->n, SP_SYNTH_GRAIN), synth_worker, j);
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

sp_status sp_synth_abc(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, const sp_r1cs *cs, const sp_fr *w, size_t w_len,
                       int check, int nthreads, const sp_synth_ctl *ctl, size_t *bad_row, char err[SP_ERR_LEN])
{
    if (sp_wtns_check_circuit(w_len, &cs->h, err) != SP_OK)
        return SP_ERR_INVALID_ARG;
    size_t npub1 = (size_t)sp_r1cs_n_public(&cs->h) + 1, nc = cs->h.n_constraints;
    if (n < nc + npub1) {
        snprintf(err, SP_ERR_LEN, "synth: domain of %zu rows is smaller than the %zu the circuit needs", n,
                 nc + npub1);
        return SP_ERR_INVALID_ARG;
    }
    synth_job j = {.a = a, .b = b, .c = c, .n = n, .nc = nc, .npub1 = npub1, .cs = cs, .w = w, .check = check};
    return run(&j, ctl, nthreads, bad_row, err);
}

sp_status sp_synth_check(const sp_r1cs *cs, const sp_fr *w, size_t w_len, int nthreads, size_t *bad_row,
                         char err[SP_ERR_LEN])
{
    if (sp_wtns_check_circuit(w_len, &cs->h, err) != SP_OK)
        return SP_ERR_INVALID_ARG;
    synth_job j = {.n = cs->h.n_constraints, .nc = cs->h.n_constraints, .cs = cs, .w = w, .check = 1};
    return run(&j, NULL, nthreads, bad_row, err);
}

sp_status sp_synth_abc_from_key(sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk, const sp_fr *w, size_t w_len,
                                int nthreads, const sp_synth_ctl *ctl, char err[SP_ERR_LEN])
{
    if (!pk->has_qap) {
        snprintf(err, SP_ERR_LEN, "the proving key holds no QAP matrices: the circuit (.r1cs) is needed");
        return SP_ERR_INVALID_ARG;
    }
    if (w_len != pk->n_vars) {
        snprintf(err, SP_ERR_LEN, "witness has %zu values, the key expects %u", w_len, pk->n_vars);
        return SP_ERR_INVALID_ARG;
    }
    synth_job j = {.a = a, .b = b, .c = c, .n = pk->domain_size, .pk = pk, .w = w};
    return run(&j, ctl, nthreads, NULL, err);
}
