/*
 * The H step and the CUDA backend against the CPU:
 *   - the element-wise kernels (powers of a shift, a*b - c, Montgomery out)
 *     against plain loops of the CPU field code;
 *   - sp_cuda_h_step against src/ntt/hstep.c (sp_h_snarkjs,
 *     sp_h_bellperson) followed by sp_msm_scalars_from_fr, both
 *     conventions, 2^0..2^3 and 2^10..2^20;
 *   - the backend's per-proof call (gpu/backend_proof.c) with a random key:
 *     every MSM of a proof equal to the CPU backend's, split and not, B2
 *     and not, the key resident and not, every variant of the proof path,
 *     the witness in pageable and pinned memory, the stages reported, the
 *     resident byte count, a refused domain, and pinned host memory.
 * Host result buffers are poisoned (0xa5) before each download so that
 * an unwritten element shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/sp_cuda_backend.h"
#include "gpu_check.h"
#include "groth16/backend.h"
#include "ntt/hstep.h"
#include "test_fill.h"

static void random_frs(chk_env *env, sp_fr *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&v[i], &env->rng);
}

/* The element-wise kernels on n elements against CPU loops. */
static void check_kernels(chk_env *env, size_t n, sp_fr *dev)
{
    size_t bytes = n * sizeof(sp_fr);
    sp_fr *a = malloc(3 * bytes), *want = malloc(bytes), *got = malloc(bytes);
    if (!a || !want || !got) {
        CHECKF(0, "out of host memory (kernels, n=%zu)", n);
        goto out;
    }
    sp_fr *b = a + n, *c = b + n, shift, scale, p;
    random_frs(env, a, 3 * n);
    sp_fr_random(&shift, &env->rng);
    sp_fr_random(&scale, &env->rng);
    for (int canon = 0; canon < 2; canon++) {
        sp_fr_set_one(&p); /* scale_powers: a[i] * shift^i */
        for (size_t i = 0; i < n; i++) {
            sp_fr_mul(&want[i], &a[i], &p);
            sp_fr_mul(&p, &p, &shift);
        }
        if (canon)
            sp_msm_scalars_from_fr((sp_scalar *)want, want, n);
        memset(got, 0xa5, bytes);
        if (!chk_ok(env, sp_cuda_copy(env->cu, dev, a, bytes), "upload") ||
            !chk_ok(env, sp_cuda_fr_scale_powers(env->cu, dev + n, dev, n, &shift, canon), "scale_powers") ||
            !chk_ok(env, sp_cuda_copy(env->cu, got, dev + n, bytes), "download"))
            goto out;
        CHECKF(!memcmp(want, got, bytes), "scale_powers n=%zu canonical=%d differs from the CPU", n, canon);
        for (int sc = 0; sc < 2; sc++) { /* abc: (a*b - c) * scale, in place over a */
            for (size_t i = 0; i < n; i++) {
                sp_fr_mul(&want[i], &a[i], &b[i]);
                sp_fr_sub(&want[i], &want[i], &c[i]);
                if (sc)
                    sp_fr_mul(&want[i], &want[i], &scale);
            }
            if (canon)
                sp_msm_scalars_from_fr((sp_scalar *)want, want, n);
            memset(got, 0xa5, bytes);
            if (!chk_ok(env, sp_cuda_copy(env->cu, dev, a, 3 * bytes), "upload") ||
                !chk_ok(env, sp_cuda_fr_abc(env->cu, dev, dev, dev + n, dev + 2 * n, n, sc ? &scale : NULL, canon),
                        "abc") ||
                !chk_ok(env, sp_cuda_copy(env->cu, got, dev, bytes), "download"))
                goto out;
            CHECKF(!memcmp(want, got, bytes), "abc n=%zu scale=%d canonical=%d differs from the CPU", n, sc, canon);
        }
    }
    sp_fr host[4];
    CHECK(sp_cuda_fr_scale_powers(env->cu, host, dev, 4, &shift, 0) == SP_ERR_INVALID_ARG);
out:
    free(a), free(want), free(got);
}

/* One size and convention: the device H step equals the CPU one. */
static void check_h(chk_env *env, unsigned log_n, int bellperson, sp_fr *dev)
{
    size_t n = (size_t)1 << log_n, bytes = n * sizeof(sp_fr);
    sp_ntt_roots roots = bellperson ? SP_NTT_ROOTS_ZKCRYPTO : SP_NTT_ROOTS_SNARKJS;
    sp_fr *in = malloc(3 * bytes), *ref = malloc(3 * bytes);
    sp_scalar *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    sp_ntt_domain *cd = NULL;
    sp_cuda_ntt_domain *gd = NULL;
    if (!in || !ref || !want || !got || sp_ntt_domain_create(&cd, log_n, roots, env->threads) != SP_OK) {
        CHECKF(0, "host memory or CPU domain (H step 2^%u)", log_n);
        goto out;
    }
    if (!chk_ok(env, sp_cuda_ntt_domain_create(env->cu, &gd, log_n, (int)roots), "ntt domain"))
        goto out;
    random_frs(env, in, 3 * n);
    if (bellperson && n > 1) /* c = a*b on D, as from a satisfied circuit: then h[n-1] = 0 */
        for (size_t i = 0; i < n; i++)
            sp_fr_mul(&in[2 * n + i], &in[i], &in[n + i]);
    memcpy(ref, in, 3 * bytes);
    if (bellperson)
        sp_h_bellperson(ref, ref, ref + n, ref + 2 * n, cd, env->threads, NULL);
    else
        sp_h_snarkjs(ref, ref, ref + n, ref + 2 * n, cd, env->threads, NULL);
    sp_msm_scalars_from_fr(want, ref, n);
    /* whole, and with a moved to the coset first (the backend's order
     * when b's copy runs beside that move) */
    for (int a_first = 0; a_first < 2; a_first++) {
        memset(got, 0xa5, n * sizeof *got);
        if (!chk_ok(env, sp_cuda_copy(env->cu, dev, in, 3 * bytes), "H upload") ||
            (a_first && !chk_ok(env, sp_cuda_h_coset(env->cu, dev, gd, cd, bellperson), "H coset of a")) ||
            !chk_ok(env,
                    sp_cuda_h_step(env->cu, (sp_scalar *)dev, dev, dev + n, dev + 2 * n, gd, cd, bellperson, a_first),
                    "H step") ||
            !chk_ok(env, sp_cuda_copy(env->cu, got, dev, n * sizeof *got), "H download"))
            goto out;
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += memcmp(&want[i], &got[i], sizeof want[i]) != 0;
        CHECKF(bad == 0, "H step %s 2^%u%s: %zu of %zu scalars differ from the CPU",
               bellperson ? "bellperson" : "snarkjs", log_n, a_first ? " (a on the coset first)" : "", bad, n);
        if (bellperson && n > 1) {
            static const sp_scalar zero;
            CHECKF(!memcmp(&got[n - 1], &zero, sizeof zero), "H step bellperson 2^%u: h[n-1] != 0", log_n);
        }
    }
out:
    sp_ntt_domain_free(cd);
    sp_cuda_ntt_domain_free(env->cu, gd);
    free(in), free(ref), free(want), free(got);
}

void chk_hstep(chk_env *env)
{
    unsigned max = env->quick ? 14 : 20;
    static const size_t sizes[] = {1, 2, 3, 255, 256, 1000, 4096, 4097, 100000};
    size_t cap = (size_t)1 << max; /* elements of each of a, b, c: the H sizes and the kernel sizes */
    if (cap < sizes[sizeof sizes / sizeof sizes[0] - 1])
        cap = sizes[sizeof sizes / sizeof sizes[0] - 1];
    sp_fr *dev = NULL;
    if (!chk_ok(env, sp_cuda_malloc(env->cu, (void **)&dev, 3 * cap * sizeof(sp_fr)), "H buffer")) {
        chk_tally();
        return;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_kernels(env, sizes[i], dev);
    for (int bp = 0; bp < 2; bp++)
        for (unsigned k = 0; k <= max; k = k == 3 ? 10 : k + 1)
            check_h(env, k, bp, dev);
    sp_cuda_dev_free(env->cu, dev);
    chk_tally();
}

/* ---- the backend ---- */

/* One proof's inputs: a witness (40% 0, 40% 1, the rest random), a and b
 * random, c = a * b as from a satisfying witness. */
typedef struct {
    sp_fr *w, *abc;
    size_t nv, n;
} proof_vals;

static int proof_vals_make(chk_env *env, proof_vals *v, const sp_g16_pk *pk, sp_fr *w_mem)
{
    v->nv = pk->n_vars;
    v->n = pk->domain_size;
    v->w = w_mem ? w_mem : malloc(v->nv * sizeof *v->w);
    v->abc = malloc(3 * v->n * sizeof *v->abc);
    if (!v->w || !v->abc)
        return 0;
    for (size_t i = 0; i < v->nv; i++) {
        unsigned r = (unsigned)(sp_rng_u64(&env->rng) % 10);
        if (i == 0 || r < 8)
            sp_fr_set_u64(&v->w[i], i == 0 || r >= 4);
        else
            sp_fr_random(&v->w[i], &env->rng);
    }
    random_frs(env, v->abc, 3 * v->n);
    for (size_t i = 0; i < v->n; i++)
        sp_fr_mul(&v->abc[2 * v->n + i], &v->abc[i], &v->abc[v->n + i]);
    return 1;
}

/* be->prove on a copy of v's a, b, c, ready at the call or (filled) made
 * by a fill during it. */
static sp_status prove_copy(sp_backend *be, sp_backend_msms *m, const sp_g16_pk *pk, const sp_ntt_domain *d,
                            const proof_vals *v, int split, int g2, int filled, char err[SP_ERR_LEN])
{
    sp_fr *abc = malloc(3 * v->n * sizeof *abc);
    if (!abc)
        return SP_ERR_NOMEM;
    sp_test_fill f = {v->abc, abc, v->n, d, 0, 0, 0};
    sp_backend_proof in = {pk, d, v->w, abc, abc + v->n, abc + 2 * v->n, split, g2, NULL, NULL, NULL};
    if (filled) {
        memset(abc, 0xa5, 3 * v->n * sizeof *abc);
        in.d = NULL;
        in.fill = sp_test_fill_copy;
        in.fill_ctx = &f;
    } else {
        memcpy(abc, v->abc, 3 * v->n * sizeof *abc);
    }
    memset(m, 0xa5, sizeof *m);
    sp_status st = be->prove(be, m, &in, err);
    if (filled && f.calls != 1) {
        snprintf(err, SP_ERR_LEN, "fill called %d times", f.calls);
        st = SP_ERR_GPU;
    }
    free(abc);
    return st;
}

/* The documented stages of the default variants, in order: a, b, c ready
 * (the engine's proof), or made by a fill beside the witness MSMs. */
static int stages_are(const sp_test_stage_log *log, int g2, int filled)
{
    static const char *const ready[] = {"copy_ab", "h_ntt", "msm_h", "wit_up", "wit_ready",
                                        "msm_a",   "msm_b1", "msm_c", "msm_b2"};
    static const char *const deferred[] = {"wit_up", "wit_ready", "msm_a",     "msm_b1", "msm_c", "msm_b2",
                                           "fill",   "ab_up",     "fill_wait", "h_ntt",  "msm_h"};
    if (log->n != (filled ? 10 : 8) + g2)
        return 0;
    for (int i = 0, j = 0; i < log->n; i++, j++) {
        if (filled && !g2 && j == 5)
            j++; /* no msm_b2 */
        if (strcmp(log->names[i], filled ? deferred[j] : ready[j]))
            return 0;
    }
    return 1;
}

/* be->prove against the CPU backend's, split on and off, B2 on and off,
 * a, b, c ready and made by a fill; with `stages`, the names the default
 * variants report, in order. */
static void compare_prove(chk_env *env, sp_backend *be, sp_backend *cpu, const sp_g16_pk *pk, const sp_ntt_domain *d,
                          const proof_vals *v, int stages, const char *label)
{
    char err[SP_ERR_LEN] = "";
    for (int k = 0; k < 8; k++) {
        int split = k & 1, g2 = (k >> 1) & 1, filled = k >> 2;
        sp_backend_msms want, got;
        sp_test_stage_log log = {.n = 0};
        CHECKF(prove_copy(cpu, &want, pk, d, v, split, g2, 0, err) == SP_OK, "CPU prove: %s", err);
        be->stage_hook = sp_test_log_stage;
        be->stage_ctx = &log;
        sp_status st = prove_copy(be, &got, pk, d, v, split, g2, filled, err);
        be->stage_hook = NULL;
        CHECKF(st == SP_OK, "%s split %d g2 %d filled %d: %s %s", label, split, g2, filled, sp_status_str(st), err);
        CHECKF(sp_g1_jac_eq(&want.a, &got.a) && sp_g1_jac_eq(&want.b1, &got.b1) && sp_g1_jac_eq(&want.c, &got.c),
               "%s split %d filled %d: a witness G1 MSM differs from the CPU's", label, split, filled);
        CHECKF(sp_g1_jac_eq(&want.h, &got.h), "%s filled %d: the H MSM differs from the CPU's", label, filled);
        CHECKF(!g2 || sp_g2_jac_eq(&want.b2, &got.b2), "%s split %d filled %d: B2 differs from the CPU's", label,
               split, filled);
        CHECKF(!stages || stages_are(&log, g2, filled),
               "%s g2 %d filled %d: %d stages reported (first %s), not the documented ones", label, g2, filled,
               log.n, log.n ? log.names[0] : "-");
    }
}

static int msms_eq(const sp_backend_msms *x, const sp_backend_msms *y)
{
    return sp_g1_jac_eq(&x->a, &y->a) && sp_g1_jac_eq(&x->b1, &y->b1) && sp_g1_jac_eq(&x->c, &y->c) &&
           sp_g1_jac_eq(&x->h, &y->h) && sp_g2_jac_eq(&x->b2, &y->b2);
}

/* The pause point of check_pause's outer proof: with other set, a whole
 * proof of another witness on the same backend (its own result checked),
 * as the engine's preempting call would run there. */
typedef struct {
    sp_backend *be;
    const sp_g16_pk *pk;
    const sp_ntt_domain *d;
    const proof_vals *other;
    sp_backend_msms want;
    int calls, bad;
    char err[SP_ERR_LEN];
} pause_ctx;

static void pause_here(void *arg)
{
    pause_ctx *p = arg;
    sp_backend_msms got;
    p->calls++;
    if (p->other && (prove_copy(p->be, &got, p->pk, p->d, p->other, 1, 1, 0, p->err) != SP_OK ||
                     !msms_eq(&got, &p->want)))
        p->bad++;
}

static void count_ready(void *ctx, const char *stage, double ms)
{
    (void)ms;
    *(int *)ctx += !strcmp(stage, "wit_ready");
}

/* A proof of v paused before each witness MSM: held there alone, it
 * reports the documented stages; with a proof of `other` run at every
 * pause, both equal the CPU's, and the paused one staged its witness
 * again each time (a wit_ready per pause). */
static void check_pause(chk_env *env, sp_backend *be, sp_backend *cpu, const sp_g16_pk *pk, const sp_ntt_domain *d,
                        const proof_vals *v, const proof_vals *other)
{
    char err[SP_ERR_LEN] = "";
    sp_backend_msms want, got;
    sp_fr *abc = malloc(3 * v->n * sizeof *abc);
    pause_ctx pc = {.be = be, .pk = pk, .d = d};
    if (!abc || prove_copy(cpu, &want, pk, d, v, 1, 1, 0, err) != SP_OK ||
        prove_copy(cpu, &pc.want, pk, d, other, 1, 1, 0, err) != SP_OK) {
        CHECKF(0, "pause check setup: %s", err);
        free(abc);
        return;
    }
    for (int interrupt = 0; interrupt < 2; interrupt++) {
        sp_pause pause = {pause_here, &pc};
        sp_test_stage_log log = {.n = 0};
        int ready = 0; /* interrupted: the wit_ready stages of both proofs */
        sp_backend_proof in = {pk, d, v->w, abc, abc + v->n, abc + 2 * v->n, 1, 1, NULL, NULL, &pause};
        memcpy(abc, v->abc, 3 * v->n * sizeof *abc);
        pc.other = interrupt ? other : NULL;
        pc.calls = pc.bad = 0;
        be->stage_hook = interrupt ? count_ready : sp_test_log_stage;
        be->stage_ctx = interrupt ? (void *)&ready : (void *)&log;
        sp_status st = be->prove(be, &got, &in, err);
        be->stage_hook = NULL;
        CHECKF(st == SP_OK && msms_eq(&got, &want), "paused proof (interrupted %d): %s %s", interrupt,
               sp_status_str(st), err);
        CHECKF(pc.calls == 4 && pc.bad == 0, "paused proof (interrupted %d): %d pauses, %d bad proofs between: %s",
               interrupt, pc.calls, pc.bad, pc.err);
        CHECKF(interrupt ? ready == 9 : stages_are(&log, 1, 0), "paused proof (interrupted %d): %d stages, %d wit_ready",
               interrupt, log.n, ready); /* 1 + 4 restaged + 4 of the proofs between */
    }
    free(abc);
}

/* A fill that fails: its error comes back, once called, and the backend
 * works for the next proof. */
static void check_fill_fails(chk_env *env, sp_backend *be, const sp_g16_pk *pk, const proof_vals *v)
{
    char err[SP_ERR_LEN] = "";
    sp_fr *abc = malloc(3 * v->n * sizeof *abc);
    if (!abc) {
        CHECKF(0, "host memory for a, b, c");
        return;
    }
    sp_test_fill f = {v->abc, abc, v->n, NULL, 1, 0, 0};
    sp_backend_proof in = {pk, NULL, v->w, abc, abc + v->n, abc + 2 * v->n, 1, 1, sp_test_fill_copy, &f, NULL};
    sp_backend_msms m;
    sp_status st = be->prove(be, &m, &in, err);
    CHECKF(st == SP_TEST_FILL_ERR && strstr(err, SP_TEST_FILL_MSG) && f.calls == 1,
           "a failing fill on the GPU: status %d, %d calls, \"%s\"", (int)st, f.calls, err);
    f.fail = 0; /* the device H step needs no host domain: the fill is asked for none */
    f.calls = 0;
    st = be->prove(be, &m, &in, err);
    CHECKF(st == SP_OK && f.calls == 1 && f.domains == 0, "a fill on the GPU: status %d, %d calls, %d domains: %s",
           (int)st, f.calls, f.domains, err);
    free(abc);
}

/* The key attached again with MSM tables for every G1 array
 * (sp_backend_cuda_set_tables: no size limit), the proof's MSMs against
 * the CPU's with v's witness and with a dense one (every witness MSM
 * reaches its table, split or not), then attached as before. */
static void check_backend_tables(chk_env *env, sp_backend *be, sp_backend *cpu, const sp_g16_pk *pk,
                                 const sp_ntt_domain *d, const proof_vals *v)
{
    char err[SP_ERR_LEN] = "";
    size_t nv = pk->n_vars, nc = nv - pk->vk.n_public - 1;
    size_t want = sp_cuda_msm_table_bytes(1, pk->n_h, 0) + 2 * sp_cuda_msm_table_bytes(1, nv, 0) +
                  sp_cuda_msm_table_bytes(1, nc, 0);
    proof_vals dense = *v;
    dense.w = malloc(nv * sizeof *dense.w);
    if (!dense.w) {
        CHECKF(0, "host memory for a dense witness");
        return;
    }
    sp_fr_set_u64(&dense.w[0], 1);
    random_frs(env, dense.w + 1, nv - 1);
    be->key_detach(be, pk);
    sp_backend_cuda_set_tables(be, SIZE_MAX, 1);
    CHECKF(be->key_attach(be, pk, err) == SP_OK, "key_attach with tables: %s", err);
    CHECKF(sp_backend_cuda_table_bytes(be) == want, "%zu bytes of MSM tables, want %zu",
           sp_backend_cuda_table_bytes(be), want);
    compare_prove(env, be, cpu, pk, d, v, 1, "resident, MSM tables");
    compare_prove(env, be, cpu, pk, d, &dense, 0, "resident, MSM tables, dense witness");
    be->key_detach(be, pk);
    CHECKF(sp_backend_cuda_table_bytes(be) == 0, "MSM tables kept after key_detach");
    sp_backend_cuda_set_tables(be, 0, SP_CUDA_MSM_BATCH_AFFINE_MIN);
    CHECKF(be->key_attach(be, pk, err) == SP_OK, "key_attach: %s", err);
    CHECKF(sp_backend_cuda_table_bytes(be) == 0, "MSM tables with a budget of 0");
    free(dense.w);
}

/* A random key of nv wires on 2^log_n: the proof's MSMs equal the CPU's
 * with the key resident and not, in every variant of the proof path, with
 * the witness in pageable and in pinned memory, and with a c that is not
 * a * b when the backend copies c. */
static void check_backend_key(chk_env *env, sp_backend *be, sp_backend *cpu, sp_g16_h_kind kind)
{
    const uint32_t nv = 300, npub = 2, log_n = 9;
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    sp_ntt_domain *d = NULL;
    proof_vals v = {0}, pv = {0};
    sp_fr *pinned = be->host_alloc(be, nv * sizeof(sp_fr));
    if (sp_g16_pk_alloc(&pk, nv, npub, 1u << log_n, kind) != SP_OK) {
        CHECKF(0, "key allocation");
        be->host_free(be, pinned, nv * sizeof(sp_fr));
        return;
    }
    chk_random_points(env, &chk_grp_g1, pk.a, nv, 1);
    chk_random_points(env, &chk_grp_g1, pk.b1, nv, 1);
    chk_random_points(env, &chk_grp_g1, pk.c, nv - npub - 1, 1);
    chk_random_points(env, &chk_grp_g1, pk.h, pk.n_h, 1);
    chk_random_points(env, &chk_grp_g2, pk.b2, nv, 1);
    if (!pinned || !proof_vals_make(env, &v, &pk, NULL) || !proof_vals_make(env, &pv, &pk, pinned) ||
        sp_ntt_domain_create(&d, log_n, kind == SP_G16_H_SNARKJS ? SP_NTT_ROOTS_SNARKJS : SP_NTT_ROOTS_ZKCRYPTO,
                             env->threads) != SP_OK) {
        CHECKF(0, "host memory for the proof's inputs");
        goto out;
    }
    compare_prove(env, be, cpu, &pk, d, &v, 1, "not resident");
    size_t res = 1, fr = 0;
    CHECKF(be->key_attach(be, &pk, err) == SP_OK, "key_attach: %s", err);
    be->memory(be, &res, &fr);
    size_t want = (2 * nv + (nv - npub - 1) + pk.n_h) * sizeof(sp_g1_affine) + nv * sizeof(sp_g2_affine);
    CHECKF(res == want && fr > 0, "resident %zu bytes (want %zu), free %zu", res, want, fr);
    compare_prove(env, be, cpu, &pk, d, &v, 1, "resident");
    compare_prove(env, be, cpu, &pk, d, &pv, 1, "resident, witness in pinned memory");
    check_pause(env, be, cpu, &pk, d, &v, &pv);
    sp_backend_cuda_witness_on_host(be, 1);
    compare_prove(env, be, cpu, &pk, d, &v, 0, "resident, witness scalars made on the host");
    sp_backend_cuda_witness_on_host(be, 0);
    check_backend_tables(env, be, cpu, &pk, d, &v);
    sp_ntt_domain *d2 = NULL; /* a domain of another size: refused, with the backend's name */
    sp_backend_msms m;
    err[0] = 0;
    CHECK(sp_ntt_domain_create(&d2, log_n - 1, kind == SP_G16_H_SNARKJS ? SP_NTT_ROOTS_SNARKJS : SP_NTT_ROOTS_ZKCRYPTO,
                               1) == SP_OK &&
          prove_copy(be, &m, &pk, d2, &v, 1, 1, 0, err) == SP_ERR_INVALID_ARG && strstr(err, "cuda:"));
    check_fill_fails(env, be, &pk, &v);
    compare_prove(env, be, cpu, &pk, d, &v, 1, "resident, after failed fills");
    sp_ntt_domain_free(d2);
    be->key_detach(be, &pk);
    be->memory(be, &res, &fr);
    CHECKF(res == 0, "after key_detach %zu bytes resident", res);
out:
    sp_ntt_domain_free(d);
    free(v.w), free(v.abc), free(pv.abc);
    be->host_free(be, pinned, nv * sizeof(sp_fr));
    sp_g16_pk_free(&pk);
}

void chk_backend(chk_env *env, int device)
{
    char err[SP_ERR_LEN] = "";
    sp_backend *be = NULL, *cpu = NULL;
    sp_status st = sp_backend_cuda_open(&be, device, env->threads, err);
    CHECKF(st == SP_OK, "sp_backend_cuda_open(%d): %s", device, err);
    if (st != SP_OK || sp_backend_cpu_open(&cpu, env->threads) != SP_OK) {
        sp_backend_close(be);
        chk_tally();
        return;
    }
    check_backend_key(env, be, cpu, SP_G16_H_SNARKJS);
    check_backend_key(env, be, cpu, SP_G16_H_BELLPERSON);
    size_t bytes = (size_t)1 << 24; /* pinned memory: usable as MSM input, freed by host_free */
    unsigned char *p = be->host_alloc(be, bytes);
    CHECK(p != NULL);
    if (p) {
        memset(p, 0x5a, bytes);
        CHECK(p[bytes - 1] == 0x5a);
        be->host_free(be, p, bytes);
    }
    sp_backend *bad = NULL;
    CHECK(sp_backend_cuda_open(&bad, 999, 1, err) == SP_ERR_GPU && bad == NULL && strstr(err, "cuda:999"));
    sp_backend_close(cpu);
    sp_backend_close(be);
    chk_tally();
}
