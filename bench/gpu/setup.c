/*
 * The development setup on the GPU, timed: fixed-base multiplication
 * alone (GPU with host and with device in/out, and the CPU; the GPU
 * checked against the CPU), and the whole setup of a generated circuit
 * (70% of its witness 0/1) with the key's points made on the GPU and on
 * the CPU; the GPU key of 2^20 proves on the GPU and verifies. Then the
 * two steps of the setup from a .ptau (groth16/ptau_comb.h), GPU and
 * CPU, the GPU checked against the CPU: the inverse DFT over points and
 * the sums of Lagrange points over circom-like columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpu/sp_cuda_backend.h"
#include "gpu_bench.h"
#include "groth16/backend.h"
#include "groth16/ptau_comb.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "synth/gen.h"
#include "synth/prover.h"

/* GPU and CPU fixed-base at 2^log (host in and out; and device in and out
 * for the GPU), the GPU checked against the CPU. */
static void bench_fb_group(chk_env *env, const chk_fb_grp *g, unsigned log)
{
    size_t n = (size_t)1 << log, asz = g->aff_sz;
    sp_fr *k = malloc(n * sizeof(sp_fr));
    unsigned char *want = malloc(n * asz), *got = malloc(n * asz);
    void *dk = NULL, *dout = NULL;
    char what[96], size[16];
    snprintf(size, sizeof size, "2^%u", log);
    if (!k || !want || !got) {
        CHECKF(0, "out of host memory for the fixed-base benchmark");
        goto out;
    }
    chk_fb_scalars(env, k, n, g->chunk);
    double t0 = chk_now();
    CHECK(g->cpu(want, k, n, env->threads) == SP_OK);
    double cpu_s = chk_now() - t0;
    t0 = chk_now();
    if (!chk_ok(env, g->gpu(env->cu, got, k, n, env->threads), "bench fixed-base"))
        goto out;
    double gpu_s = chk_now() - t0;
    CHECKF(memcmp(got, want, n * asz) == 0, "%s fixed-base bench 2^%u differs from the CPU", g->name, log);
    if (!chk_ok(env, sp_cuda_malloc(env->cu, &dk, n * sizeof(sp_fr)), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &dout, n * asz), "malloc") ||
        !chk_ok(env, sp_cuda_copy(env->cu, dk, k, n * sizeof(sp_fr)), "copy"))
        goto out;
    t0 = chk_now();
    if (!chk_ok(env, g->gpu(env->cu, dout, dk, n, env->threads), "bench fixed-base (device)"))
        goto out;
    double dev_s = chk_now() - t0;
    snprintf(what, sizeof what, "%s fixed-base (setup), GPU, host in/out", g->name);
    bench_table_row(what, size, gpu_s * 1e3, "ms", "fresh malloc'd output (page faults included)");
    snprintf(what, sizeof what, "%s fixed-base (setup), GPU, device in/out", g->name);
    bench_table_row(what, size, dev_s * 1e3, "ms", "kernels + table");
    snprintf(what, sizeof what, "%s fixed-base (setup), CPU, %d threads", g->name, env->threads);
    bench_table_row(what, size, cpu_s * 1e3, "ms", "");
out:
    sp_cuda_dev_free(env->cu, dk);
    sp_cuda_dev_free(env->cu, dout);
    free(k), free(want), free(got);
}

typedef struct {
    double ms[3]; /* setup_scalars, setup_g1, setup_g2 */
} setup_phases;

static void phase_hook(void *ctx, const char *stage, double ms)
{
    setup_phases *p = ctx;
    static const char *names[3] = {"setup_scalars", "setup_g1", "setup_g2"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(stage, names[i]))
            p->ms[i] = ms;
}

/* Proves with pk on be and verifies; returns 1 when the proof verifies. */
static int proves(sp_backend *be, const sp_g16_pk *pk, const sp_fr *w, size_t wn, int threads)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_proof proof;
    sp_g16_pvk pvk;
    sp_fr *pub = calloc(pk->vk.n_public + 1, sizeof(sp_fr));
    sp_g16_prove_opts o = sp_g16_prove_opts_default();
    o.threads = threads;
    o.backend = be;
    int valid = 0;
    sp_status st = pub ? be->key_attach(be, pk, err) : SP_ERR_NOMEM;
    if (st == SP_OK) {
        st = sp_synth_prove(&proof, pub, pk, NULL, w, wn, 0, &o, err);
        be->key_detach(be, pk);
    }
    if (st == SP_OK && (st = sp_g16_pvk_init(&pvk, &pk->vk, err)) == SP_OK) {
        st = sp_g16_verify(&valid, &pvk, &proof, pub, pk->vk.n_public, err);
        sp_g16_pvk_free(&pvk);
    }
    CHECKF(st == SP_OK, "prove with the GPU setup's key: %s", err);
    free(pub);
    return valid;
}

/* One timed setup of cs (be NULL: the CPU); a row with its phases. */
static int timed_setup(chk_env *env, sp_g16_pk *pk, const sp_r1cs *cs, sp_backend *be, unsigned log)
{
    char err[SP_ERR_LEN] = "", what[96], size[16], note[96];
    setup_phases ph = {{0, 0, 0}};
    sp_backend *cpu = NULL;
    if (!be && sp_backend_cpu_open(&cpu, env->threads) != SP_OK)
        return 0;
    sp_backend *use = be ? be : cpu;
    use->stage_hook = phase_hook;
    use->stage_ctx = &ph;
    double t0 = chk_now();
    sp_status st = sp_g16_setup_be(pk, cs, SP_G16_H_SNARKJS, use, env->threads, err);
    double s = chk_now() - t0;
    use->stage_hook = NULL;
    sp_backend_close(cpu);
    CHECKF(st == SP_OK, "setup 2^%u on %s: %s", log, be ? be->name : "cpu", err);
    if (st != SP_OK)
        return 0;
    snprintf(what, sizeof what, "setup (development), points on %s", be ? "the GPU" : "the CPU");
    snprintf(size, sizeof size, "2^%u", log);
    snprintf(note, sizeof note, "scalars %.2f s, G1 %.2f s, G2 %.2f s; %d host threads", ph.ms[0] / 1e3,
             ph.ms[1] / 1e3, ph.ms[2] / 1e3, env->threads);
    bench_table_row(what, size, s, "s", note);
    printf("  setup 2^%u on %s: %.2f s (%s)\n", log, be ? be->name : "cpu", s, note);
    fflush(stdout);
    return 1;
}

/* Generated circuit of 2^log - 2 constraints (domain 2^log), 70% 0/1. */
static void bench_setup_size(chk_env *env, sp_backend *be, unsigned log, int cpu_too)
{
    char dir[] = "/tmp/sp_gpu_check_setup_XXXXXX", r1cs[96], wtns[96], err[SP_ERR_LEN] = "";
    if (!mkdtemp(dir)) {
        CHECKF(0, "mkdtemp failed");
        return;
    }
    snprintf(r1cs, sizeof r1cs, "%s/c.r1cs", dir);
    snprintf(wtns, sizeof wtns, "%s/c.wtns", dir);
    sp_gen_params p = {((uint64_t)1 << log) - 2, 1, 0.7, sp_rng_u64(&env->rng)};
    sp_r1cs cs;
    sp_fr *w = NULL;
    size_t wn = 0;
    sp_g16_pk pk;
    if (sp_gen_circuit(r1cs, wtns, &p, NULL, err) != SP_OK || sp_r1cs_read(&cs, r1cs, err) != SP_OK) {
        CHECKF(0, "circuit 2^%u: %s", log, err);
        goto out;
    }
    if (timed_setup(env, &pk, &cs, be, log)) {
        if (log <= 20 && sp_wtns_read(&w, &wn, wtns, err) == SP_OK)
            CHECKF(proves(be, &pk, w, wn, env->threads) == 1, "2^%u: a proof with the GPU key does not verify",
                   log);
        sp_g16_pk_free(&pk);
    }
    if (cpu_too && timed_setup(env, &pk, &cs, NULL, log))
        sp_g16_pk_free(&pk);
    sp_r1cs_free(&cs);
out:
    free(w);
    unlink(r1cs);
    unlink(wtns);
    rmdir(dir);
}

/* One step of the .ptau setup into out, on the GPU (gpu 1) or the CPU. */
typedef sp_status (*ptau_step)(chk_env *env, const chk_grp *g, void *out, const void *arg, int gpu);

typedef struct {
    const void *in;
    const sp_scalar *tw, *pre;
    unsigned log_n;
} ptau_intt_arg;

static sp_status ptau_intt_step(chk_env *env, const chk_grp *g, void *out, const void *arg, int gpu)
{
    const ptau_intt_arg *a = arg;
    if (g->group == 1)
        return gpu ? sp_cuda_ptau_intt_g1(env->cu, out, a->in, a->log_n, a->tw, a->pre)
                   : sp_g1_ptau_intt(out, a->in, a->log_n, a->tw, a->pre, env->threads);
    return gpu ? sp_cuda_ptau_intt_g2(env->cu, out, a->in, a->log_n, a->tw, a->pre)
               : sp_g2_ptau_intt(out, a->in, a->log_n, a->tw, a->pre, env->threads);
}

typedef struct {
    sp_ptau_sparse t;
    size_t n; /* wires */
} ptau_comb_arg;

static sp_status ptau_comb_step(chk_env *env, const chk_grp *g, void *out, const void *arg, int gpu)
{
    const ptau_comb_arg *a = arg;
    if (g->group == 1)
        return gpu ? sp_cuda_ptau_comb_g1(env->cu, out, a->n, &a->t, 1)
                   : sp_g1_ptau_comb(out, a->n, &a->t, 1, env->threads);
    return gpu ? sp_cuda_ptau_comb_g2(env->cu, out, a->n, &a->t, 1)
               : sp_g2_ptau_comb(out, a->n, &a->t, 1, env->threads);
}

/* One step on the GPU and on the CPU over n outputs, the GPU checked
 * against the CPU; two rows. */
static void ptau_rows(chk_env *env, const chk_grp *g, ptau_step f, const void *arg, size_t n, const char *what,
                      const char *size)
{
    unsigned char *want = malloc(n * g->aff_sz), *got = malloc(n * g->aff_sz);
    char row[96];
    if (!want || !got) {
        CHECKF(0, "%s: out of host memory", what);
        free(want), free(got);
        return;
    }
    double t0 = chk_now();
    sp_status cs = f(env, g, want, arg, 0);
    double cpu_s = chk_now() - t0;
    t0 = chk_now();
    sp_status gs = f(env, g, got, arg, 1);
    double gpu_s = chk_now() - t0;
    CHECKF(cs == SP_OK && chk_ok(env, gs, what) && memcmp(want, got, n * g->aff_sz) == 0,
           "%s %s: the GPU differs from the CPU", g->name, what);
    snprintf(row, sizeof row, "%s %s (.ptau setup), GPU", g->name, what);
    bench_table_row(row, size, gpu_s * 1e3, "ms", "host in/out");
    snprintf(row, sizeof row, "%s %s (.ptau setup), CPU, %d threads", g->name, what, env->threads);
    bench_table_row(row, size, cpu_s * 1e3, "ms", "");
    free(want), free(got);
}

/* The inverse DFT over 2^log random points with snarkjs' twiddles, and
 * the sums over 2^log wires of one matrix shaped like circom's (the
 * constant wire in many rows, then columns of 1 to 4 entries with
 * coefficients 1, r - 1 or a random 64-bit value) over 2^log bases. */
static void bench_ptau_group(chk_env *env, const chk_grp *g, unsigned log)
{
    size_t n = (size_t)1 << log, nnz = 0;
    char size[16];
    snprintf(size, sizeof size, "2^%u", log);
    unsigned char *pts = malloc(n * g->aff_sz);
    sp_scalar *tw = malloc((n / 2 + 1) * sizeof *tw), *pre = malloc(n * sizeof *pre);
    uint64_t *start = malloc((n + 1) * sizeof *start);
    uint32_t *row = malloc(5 * n * sizeof *row);
    sp_scalar *s = malloc(5 * n * sizeof *s);
    if (!pts || !tw || !pre || !start || !row || !s || sp_ptau_intt_scalars(tw, pre, log, 0) != SP_OK) {
        CHECKF(0, "%s .ptau benchmark 2^%u: out of host memory", g->name, log);
        goto out;
    }
    chk_random_points(env, g, pts, n, 0);
    ptau_intt_arg ia = {pts, tw, pre, log};
    ptau_rows(env, g, ptau_intt_step, &ia, n, "inverse DFT over points", size);
    for (size_t w = 0; w < n; w++) {
        size_t len = w == 0 ? n / 4 : 1 + sp_rng_u64(&env->rng) % 4;
        start[w] = nnz;
        for (size_t e = 0; e < len && nnz < 5 * n; e++, nnz++) {
            row[nnz] = (uint32_t)(sp_rng_u64(&env->rng) % n);
            unsigned k = (unsigned)(sp_rng_u64(&env->rng) % 4);
            sp_fr x;
            sp_fr_set_u64(&x, k == 3 ? sp_rng_u64(&env->rng) : 1);
            if (k == 1)
                sp_fr_neg(&x, &x);
            sp_fr_to_canonical(s[nnz].l, &x);
        }
    }
    start[n] = nnz;
    ptau_comb_arg ca = {{start, row, s, pts, n}, n};
    ptau_rows(env, g, ptau_comb_step, &ca, n, "sums of Lagrange points", size);
out:
    free(pts), free(tw), free(pre), free(start), free(row), free(s);
}

void bench_setup(chk_env *env, int device)
{
    bench_fb_group(env, &chk_fb_g1, 20);
    bench_fb_group(env, &chk_fb_g2, 20);
    char err[SP_ERR_LEN] = "";
    sp_backend *be = NULL;
    sp_status st = sp_backend_cuda_open(&be, device, env->threads, err);
    CHECKF(st == SP_OK, "sp_backend_cuda_open(%d): %s", device, err);
    if (st == SP_OK) {
        bench_setup_size(env, be, 20, 1);
        if (!env->quick)
            bench_setup_size(env, be, 22, 1);
        sp_backend_close(be);
    }
    bench_ptau_group(env, &chk_grp_g1, env->quick ? 12 : 16);
    bench_ptau_group(env, &chk_grp_g2, env->quick ? 12 : 14);
    chk_tally();
}
