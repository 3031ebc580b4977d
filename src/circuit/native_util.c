/*
 * What the native circuits build the same way (native_util.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/merkle.h"
#include "circuit/native_util.h"
#include "circuit/porep.h"
#include "circuit/poseidon.h"
#include "util/par.h"
#include "util/progress.h"

/* ---- the descriptor ---- */

void sp_native_describe(sp_native_circuit *nc, const char *kind, const char *preset, uint64_t n_vars,
                        uint64_t n_public, uint64_t n_rows, size_t input_size, sp_native_witness_fn witness,
                        const void *ctx)
{
    snprintf(nc->name, sizeof nc->name, "%s-%s", kind, preset[0] ? preset : "custom");
    nc->n_vars = n_vars;
    nc->n_public = n_public;
    nc->n_rows = n_rows;
    nc->input_size = input_size;
    nc->witness = witness;
    nc->ctx = ctx;
}

sp_status sp_native_wires_check(uint64_t n_vars, const char *kind, char err[SP_ERR_LEN])
{
    if (n_vars < UINT32_MAX)
        return SP_OK;
    snprintf(err, SP_ERR_LEN, "%s: %llu wires, more than 2^32 - 1", kind, (unsigned long long)n_vars);
    return SP_ERR_UNSUPPORTED;
}

sp_status sp_native_refuse(const char *kind, const char *why, char err[SP_ERR_LEN])
{
    if (!why)
        return SP_OK;
    snprintf(err, SP_ERR_LEN, "%s: %s", kind, why);
    return SP_ERR_INVALID_ARG;
}

/* ---- gadget glue ---- */

void sp_native_pack_eq_public(sp_cs *cs, const sp_bit *bits, size_t n, sp_var pub, const sp_fr *pub_val)
{
    sp_num packed;
    sp_bits_pack_le(cs, &packed, bits, n);
    sp_num p = {pub, *pub_val};
    sp_num_enforce_eq(cs, &packed, &p);
}

void sp_native_comm_r(sp_cs *cs, sp_num *cc, sp_num *crl, const sp_fr *comm_c, const sp_fr *comm_r_last,
                      sp_var comm_r, const sp_fr *comm_r_val)
{
    sp_num_alloc(cs, cc, comm_c);
    sp_num_alloc(cs, crl, comm_r_last);
    sp_lc in[2], h;
    sp_lc_init(&in[0]), sp_lc_init(&in[1]), sp_lc_init(&h);
    sp_lc_add_var(cs, &in[0], cc->var, &cc->val);
    sp_lc_add_var(cs, &in[1], crl->var, &crl->val);
    sp_cs_push(cs, "comm_r");
    sp_poseidon_gadget(cs, &h, in, 2);
    sp_merkle_enforce_equal(cs, &h, comm_r, comm_r_val);
    sp_cs_pop(cs);
    sp_lc_free(&in[0]), sp_lc_free(&in[1]), sp_lc_free(&h);
}

uint32_t sp_native_tree_sibs(const uint8_t *arity, uint32_t levels)
{
    uint32_t n = 0;
    for (uint32_t l = 0; l < levels; l++)
        n += arity[l] - 1u;
    return n;
}

void sp_native_poseidon_path(sp_cs *cs, const sp_native_tree *t, const sp_lc *leaf, const sp_fr *sib_val,
                             uint64_t index, sp_var root, const sp_fr *root_val, sp_var pub, const sp_fr *pub_val)
{
    sp_var sv[SP_POREP_MAX_LEVELS * 15], bv[64];
    uint8_t bval[64];
    sp_bit bits[64];
    unsigned nb = 0;
    for (uint32_t i = 0; i < t->n_sib; i++)
        sv[i] = sp_cs_alloc(cs, &sib_val[i]);
    sp_lc node, next;
    sp_lc_init(&node), sp_lc_init(&next);
    node.val = leaf->val;
    for (uint32_t i = 0; i < leaf->n; i++)
        sp_lc_add_term(cs, &node, leaf->t[i].var, &leaf->t[i].k);
    const sp_fr *s = sib_val;
    const sp_var *sw = sv;
    uint64_t x = index;
    for (uint32_t l = 0; l < t->levels;) { /* a run of levels of one arity per gadget call */
        unsigned a = t->arity[l], k = 0, run = 0;
        while ((1u << k) < a)
            k++;
        while (l + run < t->levels && t->arity[l + run] == a)
            run++;
        for (unsigned i = 0; i < run * k; i++) {
            bval[nb + i] = (uint8_t)(x >> i & 1);
            bv[nb + i] = sp_cs_alloc_bit(cs, bval[nb + i]);
            bits[nb + i] = (sp_bit){bv[nb + i], SP_BIT_IS, bval[nb + i]};
        }
        sp_lc_clear(&next);
        sp_merkle_poseidon_gadget(cs, &next, &node, sw, s, bv + nb, bval + nb, run, a, 1);
        sp_lc swap = node;
        node = next, next = swap;
        x >>= run * k, nb += run * k, s += (size_t)run * (a - 1), sw += (size_t)run * (a - 1), l += run;
    }
    sp_merkle_enforce_equal(cs, &node, root, root_val);
    sp_native_pack_eq_public(cs, bits, nb, pub, pub_val);
    sp_lc_free(&node), sp_lc_free(&next);
}

/* ---- circuits cut into parts ---- */

/* Runs part i on sys (opened at its base); checks that it ends where
 * part i + 1 begins. Returns its status, err set when not SP_OK. */
static sp_status run_part_(const sp_native_parts *d, sp_cs *sys, size_t i, char err[SP_ERR_LEN])
{
    uint64_t ve, re;
    d->base(d->ctx, i + 1, &ve, &re);
    sp_status st = d->run(d->ctx, sys, i, err);
    if (st != SP_OK)
        return st;
    if ((st = sp_cs_status(sys)) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s", sys->err);
    } else if (sys->next_var != ve || sys->next_row != re) { /* a layout bug, never data */
        st = SP_ERR_INVALID_ARG;
        snprintf(err, SP_ERR_LEN, "%s: %s %zu left the layout", d->kind, d->unit, i);
    }
    return st;
}

/* Opens sub at part i's base in parent's mode. */
static sp_status open_part_(sp_cs *sub, const sp_cs *parent, const sp_native_parts *d, size_t i)
{
    uint64_t vb, rb;
    d->base(d->ctx, i, &vb, &rb);
    return sp_cs_sub_open(sub, parent, vb, rb);
}

typedef struct {
    const sp_native_parts *d;
    const sp_cs *top;        /* witness: the parent of every part's system */
    sp_cs *subs;             /* record: the batch's systems, opened */
    size_t first;            /* record: the batch's first part */
    const atomic_int *cancel;
    sp_status *st;           /* per task */
    char (*err)[SP_ERR_LEN]; /* per task */
} job_;

static void wit_task_(void *ctx, int tid, size_t t)
{
    const job_ *j = ctx;
    const sp_native_parts *d = j->d;
    if (j->cancel && atomic_load(j->cancel)) {
        j->st[t] = SP_ERR_CANCELLED;
        return;
    }
    size_t i = d->order ? d->order(d->ctx, t) : t;
    sp_cs sub;
    sp_status st = open_part_(&sub, j->top, d, i);
    if (st == SP_OK)
        st = run_part_(d, &sub, i, j->err[t]);
    else
        snprintf(j->err[t], SP_ERR_LEN, "%s: out of memory", d->kind);
    sp_cs_close(&sub);
    j->st[t] = st;
    sp_progress_add(1);
}

/* The top system's own part; on failure err says why. */
static sp_status run_top_(const sp_native_parts *d, sp_cs *top, char err[SP_ERR_LEN])
{
    d->top(d->ctx, top);
    sp_status st = sp_cs_status(top);
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "%s", top->err);
    return st;
}

/* Every part on its own task; the first failure in task order. */
static sp_status wit_parts_(const sp_native_parts *d, const sp_cs *top, int threads, const atomic_int *cancel,
                            char err[SP_ERR_LEN])
{
    size_t tasks = d->parts;
    sp_status st = SP_OK, *sts = calloc(tasks, sizeof *sts);
    char(*errs)[SP_ERR_LEN] = calloc(tasks, SP_ERR_LEN);
    if (!sts || !errs) {
        st = SP_ERR_NOMEM;
        snprintf(err, SP_ERR_LEN, "%s: out of memory", d->kind);
    } else {
        job_ j = {d, top, NULL, 0, cancel, sts, errs};
        char stage[48];
        snprintf(stage, sizeof stage, "%s: witness", d->kind);
        sp_progress_begin(stage, tasks); /* a unit a part */
        sp_par_tasks(threads, tasks, wit_task_, &j);
        sp_progress_end();
        for (size_t t = 0; t < tasks && st == SP_OK; t++)
            if ((st = sts[t]) != SP_OK) {
                if (st == SP_ERR_CANCELLED)
                    snprintf(err, SP_ERR_LEN, "%s: cancelled", d->kind);
                else
                    snprintf(err, SP_ERR_LEN, "%s", errs[t]);
            }
    }
    free(sts), free(errs);
    return st;
}

sp_status sp_native_parts_witness(const sp_native_parts *d, sp_fr *w, sp_fr *a, sp_fr *b, sp_fr *c, size_t n,
                                  int threads, int check, const atomic_int *cancel, char err[SP_ERR_LEN])
{
    if ((a || b || c) && n < d->n_rows + d->n_public + 1) {
        snprintf(err, SP_ERR_LEN, "%s: a domain of %zu rows is too small", d->kind, n);
        return SP_ERR_INVALID_ARG;
    }
    sp_cs top;
    sp_status st = sp_cs_open(&top, SP_CS_WITNESS, check);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s: out of memory", d->kind);
        return st;
    }
    top.sbox_wire = d->sbox_wire;
    sp_cs_set_outputs(&top, w, d->n_vars, a, b, c, n);
    if (!d->top_last)
        st = run_top_(d, &top, err);
    if (st == SP_OK)
        st = wit_parts_(d, &top, threads, cancel, err);
    if (st == SP_OK && d->top_last)
        st = run_top_(d, &top, err);
    if (st == SP_OK && a && b && c)
        st = sp_cs_abc_tail(a, b, c, n, d->n_rows, w, d->n_public);
    sp_cs_close(&top);
    return st;
}

static void rec_task_(void *ctx, int tid, size_t t)
{
    const job_ *j = ctx;
    j->st[t] = run_part_(j->d, &j->subs[t], j->first + t, j->err[t]);
}

/* Records parts [j->first, j->first + n) on `threads` threads into their
 * own systems, then appends them to cs in order. */
static void record_batch_(sp_cs *cs, job_ *j, size_t n, int threads)
{
    const sp_native_parts *d = j->d;
    size_t opened = 0;
    for (; opened < n; opened++)
        if (open_part_(&j->subs[opened], cs, d, j->first + opened) != SP_OK) {
            sp_cs_close(&j->subs[opened]);
            sp_cs_fail(cs, SP_ERR_NOMEM, "%s: out of memory recording", d->kind);
            break;
        }
    if (opened == n) {
        sp_par_tasks(threads, n, rec_task_, j);
        for (size_t t = 0; t < n; t++)
            if (j->st[t] != SP_OK)
                sp_cs_fail(cs, j->st[t], "%s", j->err[t]);
    }
    for (size_t t = 0; t < opened; t++) {
        if (opened == n && sp_cs_status(cs) == SP_OK)
            sp_cs_sub_join(cs, &j->subs[t]); /* closes subs[t] */
        else
            sp_cs_close(&j->subs[t]);
    }
}

sp_status sp_native_parts_record(sp_cs_rec **rec, const sp_native_parts *d, int threads, char err[SP_ERR_LEN])
{
    *rec = NULL;
    size_t batch = threads > 1 ? 2 * (size_t)threads : 1, parts = d->parts;
    sp_cs *subs = calloc(batch, sizeof *subs);
    sp_status *sts = calloc(batch, sizeof *sts);
    char(*errs)[SP_ERR_LEN] = calloc(batch, SP_ERR_LEN);
    sp_cs cs;
    sp_status st = subs && sts && errs ? sp_cs_open(&cs, SP_CS_RECORD, 0) : SP_ERR_NOMEM;
    if (st != SP_OK) {
        free(subs), free(sts), free(errs);
        snprintf(err, SP_ERR_LEN, "%s: out of memory", d->kind);
        return st;
    }
    cs.sbox_wire = d->sbox_wire;
    d->top(d->ctx, &cs);
    job_ j = {d, NULL, subs, 0, NULL, sts, errs};
    char stage[48];
    snprintf(stage, sizeof stage, "%s: recording", d->kind);
    sp_progress_begin(stage, parts); /* a unit a part */
    for (size_t first = 0; first < parts && sp_cs_status(&cs) == SP_OK; first += batch) {
        size_t n = parts - first < batch ? parts - first : batch;
        j.first = first;
        record_batch_(&cs, &j, n, threads);
        sp_progress_add(n);
    }
    sp_progress_end();
    st = sp_cs_status(&cs);
    if (st == SP_OK && (cs.next_var != d->n_vars || cs.next_row != d->n_rows)) {
        st = SP_ERR_INVALID_ARG;
        snprintf(err, SP_ERR_LEN, "%s: the recording left the layout", d->kind);
    } else if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s", cs.err);
    } else {
        *rec = sp_cs_take_rec(&cs);
    }
    sp_cs_close(&cs);
    free(subs), free(sts), free(errs);
    return st;
}
