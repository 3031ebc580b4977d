/*
 * SHA-256 gadget speed: one compression (variable block and chaining
 * value, the case of every PoRep label and tree_d node) built in each
 * mode, single-threaded, in nanoseconds per constraint:
 *   WITNESS  w, a, b, c written (what the prover's synthesis does);
 *   COUNT    counting only;
 *   RECORD   the matrices built.
 * and WITNESS again over 64 compressions in one system, whose w, a, b, c
 * (about 220 MB) are far beyond the caches: the rate when the 128 bytes
 * a constraint writes go to memory, as at PoRep scale.
 * Best of repeated runs (the machine is shared). Usage:
 *   bench_sha_gadget [seconds per row, default 0.5]
 */
#include <stdio.h>
#include <stdlib.h>
#include "circuit/sha256_gadget.h"
#include "cli/microbench.h"

static uint32_t block_[16], iv_[8];

static void circuit(sp_cs *cs)
{
    sp_u32 h[8], w[16];
    for (int j = 0; j < 16; j++)
        sp_u32_alloc(cs, &w[j], block_[j]);
    for (int i = 0; i < 8; i++)
        sp_u32_alloc(cs, &h[i], iv_[i]);
    sp_sha256_gadget_compress(cs, h, h, w);
}

#define COLD_BLOCKS 64

/* COLD_BLOCKS compressions chained (each block's output the next one's
 * chaining value). */
static void circuit_cold(sp_cs *cs)
{
    sp_u32 h[8], w[16];
    for (int i = 0; i < 8; i++)
        sp_u32_alloc(cs, &h[i], iv_[i]);
    for (int k = 0; k < COLD_BLOCKS; k++) {
        for (int j = 0; j < 16; j++)
            sp_u32_alloc(cs, &w[j], block_[j] ^ (uint32_t)k);
        sp_sha256_gadget_compress(cs, h, h, w);
    }
}

typedef struct {
    sp_fr *w, *a, *b, *c;
    uint64_t nv, nr;
} bufs;

/* One run of f in `mode`; returns its nanoseconds. */
static double run_f(void (*f)(sp_cs *), sp_cs_mode mode, const bufs *o)
{
    sp_cs cs;
    double t0 = bench_now_ns();
    if (sp_cs_open(&cs, mode, 0) != SP_OK)
        exit(1);
    if (mode == SP_CS_WITNESS)
        sp_cs_set_outputs(&cs, o->w, o->nv, o->a, o->b, o->c, o->nr);
    f(&cs);
    if (sp_cs_status(&cs) != SP_OK || sp_cs_n_rows(&cs) != o->nr) {
        fprintf(stderr, "bench_sha_gadget: %s\n", cs.err);
        exit(1);
    }
    sp_cs_close(&cs);
    return bench_now_ns() - t0;
}

static double run(sp_cs_mode mode, const bufs *o) { return run_f(circuit, mode, o); }

/* WITNESS over COLD_BLOCKS compressions; returns ns per constraint. */
static double cold(double secs)
{
    bufs o;
    sp_cs cs;
    if (sp_cs_open(&cs, SP_CS_COUNT, 0) != SP_OK)
        exit(1);
    circuit_cold(&cs);
    o.nv = sp_cs_n_vars(&cs), o.nr = sp_cs_n_rows(&cs);
    sp_cs_close(&cs);
    o.w = malloc(o.nv * sizeof *o.w);
    o.a = malloc(o.nr * sizeof *o.a), o.b = malloc(o.nr * sizeof *o.b), o.c = malloc(o.nr * sizeof *o.c);
    if (!o.w || !o.a || !o.b || !o.c)
        exit(1);
    double best = 1e30, spent = 0;
    for (int reps = 0; spent < secs * 1e9 || reps < 3; reps++) {
        double t = run_f(circuit_cold, SP_CS_WITNESS, &o);
        best = t < best ? t : best;
        spent += t;
    }
    free(o.w), free(o.a), free(o.b), free(o.c);
    return best / (double)o.nr;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    for (int j = 0; j < 16; j++)
        block_[j] = 0x9e3779b9u * (uint32_t)(j + 1);
    for (int i = 0; i < 8; i++)
        iv_[i] = 0x85ebca6bu * (uint32_t)(i + 7);
    bufs o;
    sp_cs cs;
    if (sp_cs_open(&cs, SP_CS_COUNT, 0) != SP_OK)
        return 1;
    circuit(&cs);
    o.nv = sp_cs_n_vars(&cs), o.nr = sp_cs_n_rows(&cs);
    sp_cs_close(&cs);
    o.w = malloc(o.nv * sizeof *o.w);
    o.a = malloc(o.nr * sizeof *o.a), o.b = malloc(o.nr * sizeof *o.b), o.c = malloc(o.nr * sizeof *o.c);
    if (!o.w || !o.a || !o.b || !o.c)
        return 1;
    printf("sha256 compression (variable block and chaining value): %llu constraints, %llu wires\n",
           (unsigned long long)o.nr, (unsigned long long)o.nv);
    static const struct {
        const char *name;
        sp_cs_mode mode;
    } rows[] = {{"witness (w, a, b, c)", SP_CS_WITNESS}, {"count", SP_CS_COUNT}, {"record", SP_CS_RECORD}};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (!bench_selected(rows[r].name, argc - (argc > 1), argv + (argc > 1)))
            continue;
        double best = 1e30, spent = 0;
        int reps = 0;
        while (spent < secs * 1e9 || reps < 3) {
            double t = run(rows[r].mode, &o);
            best = t < best ? t : best;
            spent += t, reps++;
        }
        printf("%-22s %8.1f ns/constraint  %8.1f us/compression  (best of %d)\n", rows[r].name,
               best / (double)o.nr, best / 1e3, reps);
    }
    if (bench_selected("witness, memory", argc - (argc > 1), argv + (argc > 1)))
        printf("%-22s %8.1f ns/constraint  (%d chained compressions, about 220 MB written)\n", "witness, memory",
               cold(secs), COLD_BLOCKS);
    /* the 0/1 share of the outputs the prover's split MSM exploits */
    run(SP_CS_WITNESS, &o);
    uint64_t bits[4] = {0, 0, 0, 0};
    const sp_fr *vec[4] = {o.w, o.a, o.b, o.c};
    const uint64_t len[4] = {o.nv, o.nr, o.nr, o.nr};
    for (int k = 0; k < 4; k++)
        for (uint64_t i = 0; i < len[k]; i++)
            bits[k] += sp_fr_is_zero(&vec[k][i]) || sp_fr_is_one(&vec[k][i]);
    printf("0/1 values: w %.1f%%, a %.1f%%, b %.1f%%, c %.1f%%\n", 100.0 * (double)bits[0] / (double)o.nv,
           100.0 * (double)bits[1] / (double)o.nr, 100.0 * (double)bits[2] / (double)o.nr,
           100.0 * (double)bits[3] / (double)o.nr);
    free(o.w), free(o.a), free(o.b), free(o.c);
    return 0;
}
