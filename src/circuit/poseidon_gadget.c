/*
 * The Poseidon gadget (poseidon.h).
 *
 * Every S-box input is a linear combination of the gadget's inputs (first
 * round only), ONE, and the outputs x^5 of earlier S-boxes: the round
 * constants and MDS layers are linear, so they are folded into those
 * combinations and cost no constraint. Each S-box then costs
 *   x * x = x2,  x2 * x2 = x4,  x4 * x = x5
 * with x2, x4, x5 new variables. The first S-box acts on the constant
 * tag + rc_0 and costs nothing.
 *
 * The combinations depend on the arity only, so RECORD mode instantiates a
 * template built once per arity by running the plain rounds symbolically
 * (a state row = coefficients over ONE, the inputs and the S-box outputs).
 * COUNT and WITNESS modes never look at it: they take the S-box inputs
 * from the native fast permutation (sp_poseidon_hash_trace) and only set
 * values.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/poseidon.h"

#define SBOX_MAX (SP_POSEIDON_MAX_WIDTH * 8 + 64)

/* The linear combinations of one arity: S-box k's input has terms
 * [off[k], off[k+1]), the digest [off[n_sbox], off[n_sbox+1]). A term's
 * column is 0 for ONE, 1 + i for input i, 1 + arity + j for S-box j's x5. */
typedef struct {
    unsigned arity, n_sbox;
    uint32_t *off, *col;
    sp_fr *coef;
} tmpl_;

/* Growable term list used while building. */
typedef struct {
    uint32_t n, cap;
    uint32_t *col;
    sp_fr *coef;
} terms_;

static int terms_push_(terms_ *tl, uint32_t col, const sp_fr *k)
{
    if (tl->n == tl->cap) {
        uint32_t cap = tl->cap ? 2 * tl->cap : 1024;
        uint32_t *c = realloc(tl->col, cap * sizeof *c);
        if (!c)
            return 0;
        tl->col = c;
        sp_fr *f = realloc(tl->coef, cap * sizeof *f);
        if (!f)
            return 0;
        tl->coef = f, tl->cap = cap;
    }
    tl->col[tl->n] = col, tl->coef[tl->n] = *k;
    tl->n++;
    return 1;
}

/* Appends row's nonzero entries (column 0 and [lo, hi)). */
static int terms_row_(terms_ *tl, const sp_fr *row, uint32_t lo, uint32_t hi)
{
    if (!sp_fr_is_zero(&row[0]) && !terms_push_(tl, 0, &row[0]))
        return 0;
    for (uint32_t c = lo; c < hi; c++)
        if (!sp_fr_is_zero(&row[c]) && !terms_push_(tl, c, &row[c]))
            return 0;
    return 1;
}

/* Runs the plain rounds on symbolic rows st[t][ncol]; live columns are 0
 * and [lo, hi). Returns 0 on out of memory. */
static int tmpl_run_(tmpl_ *tp, terms_ *tl, const sp_poseidon *p, sp_fr *st, sp_fr *tmp, uint32_t ncol)
{
    unsigned t = p->t, half = p->rf / 2, k = 0;
    uint32_t lo = 1, hi = 1 + p->arity, ybase = 1 + p->arity;
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        int full = r < half || r >= half + p->rp;
        uint32_t round_first = ybase + k;
        for (unsigned i = 0; i < t; i++)
            sp_fr_add(&st[i * ncol], &st[i * ncol], &p->rc[r * t + i]);
        for (unsigned i = 0; i < (full ? t : 1); i++, k++) {
            sp_fr *row = st + (size_t)i * ncol;
            tp->off[k] = tl->n;
            if (!terms_row_(tl, row, lo, hi))
                return 0;
            sp_fr c = row[0], c4;
            memset(row, 0, ncol * sizeof *row);
            if (k == 0) { /* tag + rc_0: a constant S-box */
                sp_fr_sqr(&c4, &c);
                sp_fr_sqr(&c4, &c4);
                sp_fr_mul(&row[0], &c4, &c);
            } else {
                sp_fr_set_one(&row[ybase + k]);
                hi = ybase + k + 1;
            }
        }
        if (full)
            lo = round_first; /* older columns no longer appear */
        for (unsigned i = 0; i < t; i++) /* tmp = M * st on the live columns */
            for (uint32_t c = 0; c < hi; c = c ? c + 1 : lo) {
                sp_fr acc, x;
                sp_fr_set_zero(&acc);
                for (unsigned j = 0; j < t; j++) {
                    sp_fr_mul(&x, &p->mds[i * t + j], &st[(size_t)j * ncol + c]);
                    sp_fr_add(&acc, &acc, &x);
                }
                tmp[(size_t)i * ncol + c] = acc;
            }
        for (unsigned i = 0; i < t; i++)
            for (uint32_t c = 0; c < hi; c = c ? c + 1 : lo)
                st[(size_t)i * ncol + c] = tmp[(size_t)i * ncol + c];
    }
    tp->off[k] = tl->n;
    if (!terms_row_(tl, st + ncol, lo, hi)) /* the digest: element 1 */
        return 0;
    tp->off[k + 1] = tl->n;
    return 1;
}

static tmpl_ *tmpl_build_(const sp_poseidon *p)
{
    uint32_t ncol = 1 + p->arity + p->n_sbox;
    tmpl_ *tp = calloc(1, sizeof *tp);
    sp_fr *st = calloc(2 * (size_t)p->t * ncol, sizeof *st);
    terms_ tl = {0, 0, NULL, NULL};
    if (tp)
        tp->off = malloc((p->n_sbox + 2) * sizeof *tp->off);
    int ok = tp && st && tp->off;
    if (ok) {
        tp->arity = p->arity, tp->n_sbox = p->n_sbox;
        for (unsigned i = 0; i < p->t; i++) /* the tag, then the inputs */
            if (i == 0)
                st[0] = p->tag;
            else
                sp_fr_set_one(&st[(size_t)i * ncol + i]);
        ok = tmpl_run_(tp, &tl, p, st, st + (size_t)p->t * ncol, ncol);
    }
    free(st);
    if (!ok) {
        if (tp)
            free(tp->off);
        free(tp), free(tl.col), free(tl.coef);
        return NULL;
    }
    tp->col = tl.col, tp->coef = tl.coef;
    return tp;
}

static _Atomic(tmpl_ *) tmpl_cache_[SP_POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t tmpl_mu_ = PTHREAD_MUTEX_INITIALIZER;

static const tmpl_ *tmpl_get_(const sp_poseidon *p)
{
    tmpl_ *tp = atomic_load_explicit(&tmpl_cache_[p->arity], memory_order_acquire);
    if (tp)
        return tp;
    pthread_mutex_lock(&tmpl_mu_);
    tp = atomic_load_explicit(&tmpl_cache_[p->arity], memory_order_relaxed);
    if (!tp) {
        tp = tmpl_build_(p);
        if (tp)
            atomic_store_explicit(&tmpl_cache_[p->arity], tp, memory_order_release);
    }
    pthread_mutex_unlock(&tmpl_mu_);
    return tp;
}

/* RECORD: lc gets the terms of template combination `which`, with the
 * inputs' combinations and the S-box output variables y substituted. */
static void tmpl_terms_(sp_cs *cs, sp_lc *lc, const tmpl_ *tp, unsigned which, const sp_lc *in, const sp_var *y)
{
    for (uint32_t e = tp->off[which]; e < tp->off[which + 1]; e++) {
        uint32_t c = tp->col[e];
        const sp_fr *k = &tp->coef[e];
        if (c == 0) {
            sp_lc_add_term(cs, lc, SP_CS_ONE, k);
        } else if (c <= tp->arity) {
            const sp_lc *src = &in[c - 1];
            for (uint32_t i = 0; i < src->n; i++) {
                sp_fr kk;
                sp_fr_mul(&kk, k, &src->t[i].k);
                sp_lc_add_term(cs, lc, src->t[i].var, &kk);
            }
        } else {
            sp_lc_add_term(cs, lc, y[c - 1 - tp->arity], k);
        }
    }
}

/* lc = the single variable v of value *val. */
static void lc_var_(sp_cs *cs, sp_lc *lc, sp_var v, const sp_fr *val)
{
    sp_lc_clear(lc);
    sp_lc_add_var(cs, lc, v, val);
}

/* The three constraints of S-box k, whose input combination is x (four
 * with cs->sbox_wire: x * 1 = a new wire first, which then stands for x). */
static sp_var sbox_gadget_(sp_cs *cs, sp_lc *x, sp_lc *u, sp_lc *v)
{
    sp_fr x2, x4, x5;
    if (cs->sbox_wire) {
        sp_var vx = sp_cs_alloc(cs, &x->val);
        lc_var_(cs, u, vx, &x->val);
        lc_var_(cs, v, SP_CS_ONE, sp_cs_fr_one());
        sp_cs_enforce(cs, x, v, u); /* x * 1 = x' */
        lc_var_(cs, x, vx, &u->val);
    }
    sp_fr_sqr(&x2, &x->val);
    sp_fr_sqr(&x4, &x2);
    sp_fr_mul(&x5, &x4, &x->val);
    sp_var v2 = sp_cs_alloc(cs, &x2);
    lc_var_(cs, u, v2, &x2);
    sp_cs_enforce(cs, x, x, u); /* x * x = x2 */
    sp_var v4 = sp_cs_alloc(cs, &x4);
    lc_var_(cs, v, v4, &x4);
    sp_cs_enforce(cs, u, u, v); /* x2 * x2 = x4 */
    sp_var v5 = sp_cs_alloc(cs, &x5);
    lc_var_(cs, u, v5, &x5);
    sp_cs_enforce(cs, v, x, u); /* x4 * x = x5 */
    return v5;
}

void sp_poseidon_gadget(sp_cs *cs, sp_lc *out, const sp_lc *in, unsigned arity)
{
    const sp_poseidon *p = sp_poseidon_params(arity);
    if (!p) {
        if (arity < SP_POSEIDON_MIN_ARITY || arity > SP_POSEIDON_MAX_ARITY)
            sp_cs_fail(cs, SP_ERR_INVALID_ARG, "poseidon: arity %u outside [2, 36]", arity);
        else
            sp_cs_fail(cs, SP_ERR_NOMEM, "poseidon: out of memory building the parameters");
        return;
    }
    const tmpl_ *tp = NULL;
    if (sp_cs_recording(cs) && !(tp = tmpl_get_(p))) {
        sp_cs_fail(cs, SP_ERR_NOMEM, "poseidon: out of memory building the gadget template");
        return;
    }
    sp_fr in_val[SP_POSEIDON_MAX_ARITY], x[SBOX_MAX], digest;
    sp_var y[SBOX_MAX];
    for (unsigned i = 0; i < arity; i++)
        in_val[i] = in[i].val;
    sp_poseidon_hash_trace(&digest, x, p, in_val);
    sp_cs_pushf(cs, "poseidon%u", arity);
    sp_lc lx, u, v;
    sp_lc_init(&lx), sp_lc_init(&u), sp_lc_init(&v);
    unsigned t = p->t, half = p->rf / 2, k = 0;
    y[0] = SP_CS_ONE; /* the constant S-box has no variable */
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        int full = r < half || r >= half + p->rp;
        for (unsigned i = 0; i < (full ? t : 1); i++, k++) {
            if (k == 0)
                continue;
            sp_cs_pushf(cs, "round %u sbox %u", r, i);
            sp_lc_clear(&lx);
            if (tp)
                tmpl_terms_(cs, &lx, tp, k, in, y);
            sp_lc_set_value(&lx, &x[k]);
            y[k] = sbox_gadget_(cs, &lx, &u, &v);
            sp_cs_pop(cs);
        }
    }
    sp_lc_clear(out);
    if (tp)
        tmpl_terms_(cs, out, tp, p->n_sbox, in, y);
    sp_lc_set_value(out, &digest);
    sp_lc_free(&lx), sp_lc_free(&u), sp_lc_free(&v);
    sp_cs_pop(cs);
}

sp_var sp_poseidon_gadget_var(sp_cs *cs, sp_fr *out_val, const sp_var *in, const sp_fr *in_val, unsigned arity)
{
    if (arity < SP_POSEIDON_MIN_ARITY || arity > SP_POSEIDON_MAX_ARITY) {
        sp_cs_fail(cs, SP_ERR_INVALID_ARG, "poseidon: arity %u outside [2, 36]", arity);
        return SP_CS_ONE;
    }
    sp_lc lin[SP_POSEIDON_MAX_ARITY], out, one;
    for (unsigned i = 0; i < arity; i++) {
        sp_lc_init(&lin[i]);
        sp_lc_add_var(cs, &lin[i], in[i], &in_val[i]);
    }
    sp_lc_init(&out), sp_lc_init(&one);
    sp_poseidon_gadget(cs, &out, lin, arity);
    sp_var o = sp_cs_alloc(cs, &out.val);
    sp_lc_add_const(cs, &one, sp_cs_fr_one());
    sp_lc c;
    sp_lc_init(&c);
    sp_lc_add_var(cs, &c, o, &out.val);
    sp_cs_push(cs, "poseidon digest");
    sp_cs_enforce(cs, &out, &one, &c);
    sp_cs_pop(cs);
    if (out_val)
        *out_val = out.val;
    for (unsigned i = 0; i < arity; i++)
        sp_lc_free(&lin[i]);
    sp_lc_free(&out), sp_lc_free(&one), sp_lc_free(&c);
    return o;
}

uint64_t sp_poseidon_gadget_rows(unsigned arity)
{
    if (arity < SP_POSEIDON_MIN_ARITY || arity > SP_POSEIDON_MAX_ARITY)
        return 0;
    unsigned rf, rp, t = arity + 1;
    sp_poseidon_round_numbers(&rf, &rp, t);
    return 3 * ((uint64_t)t * rf + rp - 1);
}

uint64_t sp_poseidon_gadget_rows_wired(unsigned arity) { return sp_poseidon_gadget_rows(arity) / 3 * 4; }
