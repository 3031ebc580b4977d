/* The constraint system of cs.h: counters, the three modes, debug paths. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/cs.h"
#include "circuit/rec.h"

/* ---- constants ---- */

static sp_fr pow2_[256], minus_one_;
static pthread_once_t consts_once_ = PTHREAD_ONCE_INIT;

static void consts_init_(void)
{
    sp_fr_set_one(&pow2_[0]);
    for (int i = 1; i < 256; i++)
        sp_fr_dbl(&pow2_[i], &pow2_[i - 1]);
    sp_fr_neg(&minus_one_, &pow2_[0]);
}

static const sp_fr zero_;

const sp_fr *sp_cs_fr_zero(void) { return &zero_; }
const sp_fr *sp_cs_fr_one(void)
{
    pthread_once(&consts_once_, consts_init_);
    return &pow2_[0];
}
const sp_fr *sp_cs_fr_pow2(unsigned i)
{
    pthread_once(&consts_once_, consts_init_);
    return &pow2_[i & 255];
}
const sp_fr *sp_cs_fr_minus_one(void)
{
    pthread_once(&consts_once_, consts_init_);
    return &minus_one_;
}
void sp_cs_fr_u64(sp_fr *r, uint64_t v) { sp_fr_set_u64(r, v); }

/* ---- the system ---- */

void sp_cs_fail(sp_cs *cs, sp_status st, const char *fmt, ...)
{
    if (cs->status != SP_OK)
        return;
    cs->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cs->err, sizeof cs->err, fmt, ap);
    va_end(ap);
}

static void reset_(sp_cs *cs, sp_cs_mode mode, int check)
{
    memset(cs, 0, sizeof *cs);
    cs->mode = mode;
    cs->check = check;
    cs->bad_row = UINT64_MAX;
    pthread_once(&consts_once_, consts_init_);
}

sp_status sp_cs_open(sp_cs *cs, sp_cs_mode mode, int check)
{
    reset_(cs, mode, check);
    if (mode == SP_CS_RECORD && !(cs->rec = sp_cs_rec_new())) {
        sp_cs_fail(cs, SP_ERR_NOMEM, "circuit: out of memory recording");
        return SP_ERR_NOMEM;
    }
    cs->next_var = 1; /* wire 0 = ONE */
    cs->n_bool = 1;
    return SP_OK;
}

void sp_cs_set_outputs(sp_cs *cs, sp_fr *w, uint64_t w_len, sp_fr *a, sp_fr *b, sp_fr *c, uint64_t abc_len)
{
    cs->w = w, cs->w_len = w ? w_len : 0;
    cs->a = a, cs->b = b, cs->c = c, cs->abc_len = abc_len;
    if (w && w_len && cs->var_base == 0)
        sp_fr_set_one(&w[0]);
}

void sp_cs_close(sp_cs *cs)
{
    sp_cs_rec_free(cs->rec);
    cs->rec = NULL;
}

sp_cs_rec *sp_cs_take_rec(sp_cs *cs)
{
    sp_cs_rec *r = cs->rec;
    if (r) {
        r->n_vars = cs->next_var;
        r->n_public = cs->n_public;
    }
    cs->rec = NULL;
    return r;
}

static sp_var new_var_(sp_cs *cs, const sp_fr *val)
{
    uint64_t v = cs->next_var;
    if (v >= UINT32_MAX) {
        sp_cs_fail(cs, SP_ERR_UNSUPPORTED, "circuit: more than 2^32 - 1 wires");
        return SP_CS_ONE;
    }
    if (cs->w && cs->mode == SP_CS_WITNESS) {
        if (v < cs->w_len)
            cs->w[v] = *val;
        else
            sp_cs_fail(cs, SP_ERR_INVALID_ARG, "circuit: wire %llu beyond the witness buffer (%llu)",
                       (unsigned long long)v, (unsigned long long)cs->w_len);
    }
    if (cs->mode == SP_CS_COUNT) /* sizing statistics: kept off the witness path */
        cs->n_bool += sp_fr_is_zero(val) || sp_fr_eq(val, &pow2_[0]);
    cs->next_var = v + 1;
    return (sp_var)v;
}

sp_var sp_cs_public(sp_cs *cs, const sp_fr *val)
{
    if (cs->privates_started || cs->var_base != 0) {
        sp_cs_fail(cs, SP_ERR_INVALID_ARG, "circuit: public input after a private variable%s%s",
                   cs->path_len ? " at " : "", cs->path);
        return SP_CS_ONE;
    }
    cs->n_public++;
    return new_var_(cs, val);
}

sp_var sp_cs_alloc(sp_cs *cs, const sp_fr *val)
{
    cs->privates_started = 1;
    return new_var_(cs, val);
}

sp_var sp_cs_alloc_bit(sp_cs *cs, int bit)
{
    return sp_cs_alloc(cs, bit ? &pow2_[0] : &zero_);
}

/* ---- debug paths ---- */

static void push_str_(sp_cs *cs, const char *s)
{
    if (cs->depth < sizeof cs->path_stack / sizeof cs->path_stack[0])
        cs->path_stack[cs->depth] = (uint32_t)cs->path_len;
    cs->depth++;
    size_t room = sizeof cs->path - cs->path_len;
    int k = snprintf(cs->path + cs->path_len, room, "%s%s", cs->path_len ? "/" : "", s);
    if (k > 0)
        cs->path_len += (size_t)k < room ? (size_t)k : room - 1;
}

void sp_cs_push(sp_cs *cs, const char *name)
{
    if (cs->check)
        push_str_(cs, name);
}

void sp_cs_pushf(sp_cs *cs, const char *fmt, ...)
{
    if (!cs->check)
        return;
    char buf[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    push_str_(cs, buf);
}

void sp_cs_pop(sp_cs *cs)
{
    if (!cs->check || cs->depth == 0)
        return;
    cs->depth--;
    size_t n = sizeof cs->path_stack / sizeof cs->path_stack[0];
    if (cs->depth < n) {
        cs->path_len = cs->path_stack[cs->depth];
        cs->path[cs->path_len] = 0;
    }
}

/* ---- linear combinations ---- */

void sp_lc_init(sp_lc *lc) { memset(lc, 0, sizeof *lc); }

void sp_lc_free(sp_lc *lc)
{
    free(lc->t);
    sp_lc_init(lc);
}

static void push_term_(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *k)
{
    if (lc->n == lc->cap) {
        uint32_t cap = lc->cap ? 2 * lc->cap : 16;
        sp_cs_term *t = realloc(lc->t, (size_t)cap * sizeof *t);
        if (!t) {
            sp_cs_fail(cs, SP_ERR_NOMEM, "circuit: out of memory recording");
            return;
        }
        lc->t = t, lc->cap = cap;
    }
    lc->t[lc->n].var = var;
    lc->t[lc->n].k = *k;
    lc->n++;
}

void sp_lc_add_term(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *k)
{
    if (cs->mode == SP_CS_RECORD)
        push_term_(cs, lc, var, k);
}

void sp_lc_add(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *k, const sp_fr *v)
{
    sp_fr t;
    sp_fr_mul(&t, k, v);
    sp_fr_add(&lc->val, &lc->val, &t);
    sp_lc_add_term(cs, lc, var, k);
}

void sp_lc_add_var(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *v)
{
    sp_fr_add(&lc->val, &lc->val, v);
    sp_lc_add_term(cs, lc, var, &pow2_[0]);
}

void sp_lc_sub_var(sp_cs *cs, sp_lc *lc, sp_var var, const sp_fr *v)
{
    sp_fr_sub(&lc->val, &lc->val, v);
    sp_lc_add_term(cs, lc, var, &minus_one_);
}

void sp_lc_add_const(sp_cs *cs, sp_lc *lc, const sp_fr *k)
{
    sp_fr_add(&lc->val, &lc->val, k);
    sp_lc_add_term(cs, lc, SP_CS_ONE, k);
}

/* ---- constraints ---- */

static void check_row_(sp_cs *cs, const sp_fr *a, const sp_fr *b, const sp_fr *c)
{
    if (cs->bad_row != UINT64_MAX || sp_cs_row_holds_var(a, b, c, &pow2_[0])) /* one: reset_ made it */
        return;
    cs->bad_row = cs->next_row;
    snprintf(cs->bad_path, sizeof cs->bad_path, "%s", cs->path_len ? cs->path : "(top level)");
    sp_cs_fail(cs, SP_ERR_UNSATISFIED, "circuit: constraint %llu (%s) is not satisfied",
               (unsigned long long)cs->next_row, cs->bad_path);
}

void sp_cs_enforce(sp_cs *cs, const sp_lc *a, const sp_lc *b, const sp_lc *c)
{
    const sp_fr *va = a ? &a->val : &zero_, *vb = b ? &b->val : &zero_, *vc = c ? &c->val : &zero_;
    uint64_t row = cs->next_row;
    if (cs->check)
        check_row_(cs, va, vb, vc);
    if (cs->mode == SP_CS_WITNESS && (cs->a || cs->b || cs->c)) {
        if (row < cs->abc_len) {
            if (cs->a)
                cs->a[row] = *va;
            if (cs->b)
                cs->b[row] = *vb;
            if (cs->c)
                cs->c[row] = *vc;
        } else {
            sp_cs_fail(cs, SP_ERR_INVALID_ARG, "circuit: constraint %llu beyond the a, b, c buffers (%llu)",
                       (unsigned long long)row, (unsigned long long)cs->abc_len);
        }
    } else if (cs->mode == SP_CS_RECORD && cs->rec) {
        const sp_cs_term *t[3] = {a ? a->t : NULL, b ? b->t : NULL, c ? c->t : NULL};
        const uint32_t n[3] = {a ? a->n : 0, b ? b->n : 0, c ? c->n : 0};
        sp_status st = sp_cs_rec_add(cs->rec, t, n);
        if (st != SP_OK)
            sp_cs_fail(cs, st, "circuit: out of memory recording constraint %llu", (unsigned long long)row);
    }
    cs->next_row = row + 1;
}

/* ---- parts ---- */

sp_status sp_cs_sub_open(sp_cs *sub, const sp_cs *parent, uint64_t var_base, uint64_t row_base)
{
    reset_(sub, parent->mode, parent->check);
    sub->n_public = parent->n_public;
    sub->sbox_wire = parent->sbox_wire;
    sub->privates_started = 1;
    sub->var_base = sub->next_var = var_base;
    sub->row_base = sub->next_row = row_base;
    sub->w = parent->w, sub->w_len = parent->w_len;
    sub->a = parent->a, sub->b = parent->b, sub->c = parent->c, sub->abc_len = parent->abc_len;
    if (parent->check && parent->path_len) {
        memcpy(sub->path, parent->path, parent->path_len + 1);
        sub->path_len = parent->path_len;
    }
    if (sub->mode == SP_CS_RECORD && !(sub->rec = sp_cs_rec_new())) {
        sp_cs_fail(sub, SP_ERR_NOMEM, "circuit: out of memory recording");
        return SP_ERR_NOMEM;
    }
    return SP_OK;
}

void sp_cs_sub_join(sp_cs *parent, sp_cs *sub)
{
    if (sub->status != SP_OK && parent->status == SP_OK) {
        parent->status = sub->status;
        memcpy(parent->err, sub->err, sizeof parent->err);
        parent->bad_row = sub->bad_row;
        memcpy(parent->bad_path, sub->bad_path, sizeof parent->bad_path);
    }
    if (sub->var_base != parent->next_var || sub->row_base != parent->next_row)
        sp_cs_fail(parent, SP_ERR_INVALID_ARG,
                   "circuit: part joined out of order (starts at wire %llu row %llu, parent at %llu, %llu)",
                   (unsigned long long)sub->var_base, (unsigned long long)sub->row_base,
                   (unsigned long long)parent->next_var, (unsigned long long)parent->next_row);
    if (parent->mode == SP_CS_RECORD && parent->rec && sub->rec && parent->status == SP_OK) {
        sp_status st = sp_cs_rec_append(parent->rec, sub->rec);
        if (st != SP_OK)
            sp_cs_fail(parent, st, "circuit: out of memory joining a recorded part");
    }
    parent->privates_started = 1;
    parent->next_var = sub->next_var;
    parent->next_row = sub->next_row;
    sp_cs_close(sub);
}

void sp_cs_skip(sp_cs *cs, uint64_t n_vars, uint64_t n_rows)
{
    if (n_vars)
        cs->privates_started = 1;
    cs->next_var += n_vars;
    cs->next_row += n_rows;
}

