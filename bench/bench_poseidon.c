/*
 * Poseidon benchmark: native hashes (fast and plain form) per arity, the
 * gadget's witness generation per hash, and the gadget's size (constraints
 * and matrix terms of one hash and of one 8-ary Merkle level).
 * Arguments: row-name filters (src/cli/microbench.h).
 */
#include <stdlib.h>
#include "cli/microbench.h"
#include "circuit/cs.h"
#include "circuit/merkle.h"
#include "circuit/poseidon.h"
#include "circuit/rec.h"

static sp_fr state_[SP_POSEIDON_MAX_WIDTH];

/* A dependent chain: each digest feeds the next hash's first input. */
static void chain_(unsigned arity, int ref, uint64_t iters)
{
    const sp_poseidon *p = sp_poseidon_params(arity);
    for (uint64_t i = 0; i < iters; i++)
        (ref ? sp_poseidon_hash_ref : sp_poseidon_hash)(&state_[0], p, state_);
    sink_ += state_[0].l[0];
}

static void h2_(uint64_t n) { chain_(2, 0, n); }
static void h8_(uint64_t n) { chain_(8, 0, n); }
static void h11_(uint64_t n) { chain_(11, 0, n); }
static void h8_ref_(uint64_t n) { chain_(8, 1, n); }
static void h11_ref_(uint64_t n) { chain_(11, 1, n); }

/* WITNESS mode without output buffers: the values of every S-box. */
static void gadget_(unsigned arity, uint64_t iters)
{
    sp_cs cs;
    if (sp_cs_open(&cs, SP_CS_WITNESS, 0) != SP_OK)
        return;
    sp_lc in[SP_POSEIDON_MAX_ARITY], out;
    for (unsigned i = 0; i < arity; i++) {
        sp_lc_init(&in[i]);
        sp_lc_set_value(&in[i], &state_[i]);
    }
    sp_lc_init(&out);
    for (uint64_t i = 0; i < iters; i++) {
        sp_poseidon_gadget(&cs, &out, in, arity);
        in[0].val = out.val;
    }
    sink_ += out.val.l[0];
    sp_cs_close(&cs);
}

static void g8_(uint64_t n) { gadget_(8, n); }
static void g11_(uint64_t n) { gadget_(11, n); }

/* Constraints and nonzero terms (A, B, C) of one recorded run. */
static void size_row_(const char *name, unsigned arity, int merkle)
{
    sp_cs cs;
    if (sp_cs_open(&cs, SP_CS_RECORD, 0) != SP_OK)
        return;
    sp_var v[SP_POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < arity; i++)
        v[i] = sp_cs_alloc(&cs, &state_[i]);
    sp_lc leaf, root, in[SP_POSEIDON_MAX_ARITY];
    sp_lc_init(&leaf), sp_lc_init(&root);
    uint64_t rows0 = sp_cs_n_rows(&cs);
    if (merkle) {
        uint8_t bits[3] = {1, 0, 1};
        sp_var bv[3];
        for (int j = 0; j < 3; j++)
            bv[j] = sp_cs_alloc_bit(&cs, bits[j]);
        sp_lc_add_var(&cs, &leaf, v[7], &state_[7]);
        sp_merkle_poseidon_gadget(&cs, &root, &leaf, v, state_, bv, bits, 1, 8, 0);
    } else {
        for (unsigned i = 0; i < arity; i++) {
            sp_lc_init(&in[i]);
            sp_lc_add_var(&cs, &in[i], v[i], &state_[i]);
        }
        sp_poseidon_gadget(&cs, &root, in, arity);
        for (unsigned i = 0; i < arity; i++)
            sp_lc_free(&in[i]);
    }
    uint64_t rows = sp_cs_n_rows(&cs) - rows0;
    sp_cs_rec *r = sp_cs_take_rec(&cs);
    if (r)
        printf("%-28s %6llu constraints, nnz A %llu B %llu C %llu\n", name, (unsigned long long)rows,
               (unsigned long long)r->m[0].nnz, (unsigned long long)r->m[1].nnz, (unsigned long long)r->m[2].nnz);
    sp_cs_rec_free(r);
    sp_lc_free(&leaf), sp_lc_free(&root);
    sp_cs_close(&cs);
}

int main(int argc, char **argv)
{
    for (unsigned i = 0; i < SP_POSEIDON_MAX_WIDTH; i++)
        sp_fr_set_u64(&state_[i], 1000 + i);
    static const bench_row rows[] = {
        {"poseidon2 hash", h2_},          {"poseidon8 hash", h8_},          {"poseidon11 hash", h11_},
        {"poseidon8 hash (plain)", h8_ref_}, {"poseidon11 hash (plain)", h11_ref_},
        {"poseidon8 gadget witness", g8_}, {"poseidon11 gadget witness", g11_},
    };
    printf("%-28s %14s\n", "Poseidon (neptune, Fr)", "ns/op");
    bench_run_rows(rows, sizeof rows / sizeof rows[0], argc, argv);
    if (bench_selected("size", argc, argv)) {
        size_row_("size poseidon2", 2, 0);
        size_row_("size poseidon8", 8, 0);
        size_row_("size poseidon11", 11, 0);
        size_row_("size merkle8 level", 8, 1);
    }
    return 0;
}
