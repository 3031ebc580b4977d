/*
 * Fixed-base multiplication on the GPU (gpu/fixed_base.cu) against the
 * CPU functions (src/groth16/fixed_base.h), byte for byte: random
 * scalars with 0, 1, r - 1 and single-byte scalars placed at the ends and
 * at chunk boundaries; sizes 0, 1, 2, 3, 1000, 2^16 and one past the
 * chunk size (several chunks, both staging buffers); host and device
 * inputs and outputs; output poisoned first and one guard point after the
 * end that must stay poisoned. Then the timing rows: fixed-base alone,
 * and the whole development setup of a generated circuit on the GPU and
 * on the CPU (the GPU key of 2^20 proves on the GPU and verifies).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "groth16/backend.h"
#include "groth16/fixed_base.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "sp_cuda_backend.h"
#include "synth/gen.h"
#include "synth/prover.h"

typedef struct {
    const char *name;
    size_t aff_sz;
    size_t chunk; /* the GPU's chunk size (fixed_base.cu) */
    sp_status (*cpu)(void *out, const sp_fr *k, size_t n, int threads);
    sp_status (*gpu)(sp_cuda *cu, void *out, const sp_fr *k, size_t n, int threads);
} fb_grp;

#define FB_GRP(G, CHUNK)                                                                     \
    static sp_status G##_fb_cpu(void *out, const sp_fr *k, size_t n, int threads)            \
    {                                                                                        \
        sp_##G##_affine b;                                                                   \
        sp_##G##_generator(&b);                                                              \
        return sp_##G##_fixed_base_mul_var(out, &b, k, n, threads);                          \
    }                                                                                        \
    static sp_status G##_fb_gpu(sp_cuda *cu, void *out, const sp_fr *k, size_t n, int threads) \
    {                                                                                        \
        sp_##G##_affine b;                                                                   \
        sp_##G##_generator(&b);                                                              \
        return sp_cuda_fixed_base_##G(cu, out, &b, k, n, threads);                           \
    }                                                                                        \
    static const fb_grp fb_##G = {#G, sizeof(sp_##G##_affine), CHUNK, G##_fb_cpu, G##_fb_gpu};

FB_GRP(g1, (size_t)1 << 20)
FB_GRP(g2, (size_t)1 << 19)

/* ---- checks ---- */

/* Random scalars with the edge values at the ends and around the chunk
 * boundaries. */
static void fb_scalars(chk_env *env, sp_fr *k, size_t n, size_t chunk)
{
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&k[i], &env->rng);
    sp_fr edge[6];
    sp_fr_set_zero(&edge[0]);
    sp_fr_set_one(&edge[1]);
    sp_fr_neg(&edge[2], &edge[1]); /* r - 1 */
    sp_fr_set_u64(&edge[3], 255);   /* one full byte, then one in the next window */
    sp_fr_set_u64(&edge[4], 256);
    sp_fr_set_zero(&edge[5]);
    for (size_t e = 0; e < 6; e++) {
        if (e < n)
            k[e] = edge[e];
        if (n > 6 + e)
            k[n - 1 - e] = edge[e];
        for (size_t c = chunk; c < n; c += chunk)
            if (c - 3 + e < n)
                k[c - 3 + e] = edge[e];
    }
}

/* One size: where = 0 host in and out, 1 device k, 2 device out, 3 both. */
static void fb_case(chk_env *env, const fb_grp *g, size_t n, int where)
{
    size_t asz = g->aff_sz, cap = n + 1;
    sp_fr *k = malloc(cap * sizeof(sp_fr));
    unsigned char *want = malloc(cap * asz), *got = malloc(cap * asz);
    void *dk = NULL, *dout = NULL;
    char what[96];
    snprintf(what, sizeof what, "%s fixed-base n=%zu (%s k, %s out)", g->name, n, where & 1 ? "device" : "host",
             where & 2 ? "device" : "host");
    if (!k || !want || !got) {
        CHECKF(0, "%s: out of host memory", what);
        goto out;
    }
    fb_scalars(env, k, n, g->chunk);
    memset(want, 0xa5, cap * asz);
    memset(got, 0xa5, cap * asz);
    CHECKF(g->cpu(want, k, n, env->threads) == SP_OK, "%s: CPU reference failed", what);
    if (((where & 1) && !chk_ok(env, sp_cuda_malloc(env->cu, &dk, cap * sizeof(sp_fr)), "malloc")) ||
        ((where & 1) && !chk_ok(env, sp_cuda_copy(env->cu, dk, k, n * sizeof(sp_fr)), "copy")) ||
        ((where & 2) && !chk_ok(env, sp_cuda_malloc(env->cu, &dout, cap * asz), "malloc")) ||
        ((where & 2) && !chk_ok(env, sp_cuda_copy(env->cu, dout, got, cap * asz), "copy"))) /* poisoned */
        goto out;
    if (!chk_ok(env, g->gpu(env->cu, dout ? dout : got, dk ? dk : k, n, env->threads), what))
        goto out;
    if (dout && !chk_ok(env, sp_cuda_copy(env->cu, got, dout, cap * asz), "copy back"))
        goto out;
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (memcmp(got + i * asz, want + i * asz, asz))
            bad = i;
    CHECKF(bad == n, "%s: point %zu differs from the CPU's", what, bad);
    CHECKF(memcmp(got + n * asz, want + n * asz, asz) == 0, "%s: wrote past the end", what);
out:
    sp_cuda_dev_free(env->cu, dk);
    sp_cuda_dev_free(env->cu, dout);
    free(k), free(want), free(got);
}

/* The CPU and GPU agree with plain scalar multiplication on the edges. */
static void fb_edges_known(chk_env *env)
{
    sp_fr k[3];
    sp_g1_affine out[3], g;
    sp_g1_generator(&g);
    sp_fr_set_zero(&k[0]);
    sp_fr_set_one(&k[1]);
    sp_fr_neg(&k[2], &k[1]);
    if (!chk_ok(env, sp_cuda_fixed_base_g1(env->cu, out, &g, k, 3, 1), "g1 fixed-base edges"))
        return;
    sp_g1_affine neg;
    sp_g1_affine_neg(&neg, &g);
    CHECK(sp_g1_affine_is_inf(&out[0]));
    CHECK(sp_g1_affine_eq(&out[1], &g));
    CHECK(sp_g1_affine_eq(&out[2], &neg)); /* [r - 1] G = -G */
}

void chk_fixed_base(chk_env *env)
{
    static const size_t sizes[] = {0, 1, 2, 3, 1000, (size_t)1 << 16};
    const fb_grp *grp[2] = {&fb_g1, &fb_g2};
    fb_edges_known(env);
    for (int gi = 0; gi < 2; gi++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            fb_case(env, grp[gi], sizes[s], 0);
        for (int where = 1; where < 4; where++)
            fb_case(env, grp[gi], 1000, where);
        fb_case(env, grp[gi], grp[gi]->chunk + 7, 0); /* two chunks, both staging buffers */
        fb_case(env, grp[gi], 2 * grp[gi]->chunk + 5, 3);
        if (!env->quick)
            fb_case(env, grp[gi], 3 * grp[gi]->chunk + 1, 0);
    }
    chk_tally();
}

/* ---- timing ---- */

/* GPU and CPU fixed-base at 2^log (host in and out; and device in and out
 * for the GPU), the GPU checked against the CPU. */
static void bench_fb_group(chk_env *env, const fb_grp *g, unsigned log)
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
    fb_scalars(env, k, n, g->chunk);
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
    chk_row(what, size, gpu_s * 1e3, "ms", "fresh malloc'd output (page faults included)");
    snprintf(what, sizeof what, "%s fixed-base (setup), GPU, device in/out", g->name);
    chk_row(what, size, dev_s * 1e3, "ms", "kernels + table");
    snprintf(what, sizeof what, "%s fixed-base (setup), CPU, %d threads", g->name, env->threads);
    chk_row(what, size, cpu_s * 1e3, "ms", "");
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
    chk_row(what, size, s, "s", note);
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

void bench_setup(chk_env *env, int device)
{
    bench_fb_group(env, &fb_g1, 20);
    bench_fb_group(env, &fb_g2, 20);
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
    chk_tally();
}
